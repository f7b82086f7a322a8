import shutil


def wipe(path):
    shutil.rmtree(path)
