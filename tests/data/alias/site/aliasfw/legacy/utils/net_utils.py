import requests


def fetch_config(url: str) -> dict:
    return requests.get(url, timeout=10).json()


def parse_url(url: str) -> tuple[str, str]:
    scheme, _, rest = url.partition("://")
    return scheme, rest
