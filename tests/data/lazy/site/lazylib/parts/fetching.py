import requests


class Fetcher:
    def fetch(self, url):
        return requests.get(url).text

    def label(self, url):
        return url.rstrip("/")
