import httpx


class _Base:
    def request(self, path):
        return httpx.get(path)


class Client(_Base):
    def search(self, query):
        return self.request("/search?q=" + query)

    def fetch(self, ids):
        return self.request("/fetch")

    def close(self):
        pass

    def build_url(self, path):
        return "https://api.example.org" + path

    @property
    def base(self):
        return "https://api.example.org"


class AsyncClient:
    async def request(self, path):
        return path

    async def search(self, query):
        return query

    async def fetch(self, ids, *, limit=100):  # a parameter the sync method does not take
        return ids[:limit]

    async def close(self):
        pass

    def build_url(self, path):
        return "https://api.example.org" + path
