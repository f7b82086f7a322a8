def load_rows(path):
    with open(path) as handle:
        return handle.read().splitlines()
