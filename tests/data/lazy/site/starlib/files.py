def upload(path):
    return path
