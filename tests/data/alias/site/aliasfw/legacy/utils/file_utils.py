def load_prompt(path: str) -> str:
    with open(path) as handle:
        return handle.read()
