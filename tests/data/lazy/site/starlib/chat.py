import time


def complete(prompt):
    time.sleep(1)
    return prompt
