"""A fake chain library whose objects carry `a`-prefixed async twins of their methods."""


class Chain:
    def invoke(self, inputs, config=None):
        return inputs

    async def ainvoke(self, inputs, config=None):
        return inputs

    def batch(self, inputs):
        return inputs

    async def abatch(self, inputs, *, return_exceptions=False):
        return inputs

    def stream(self, inputs):
        yield inputs

    async def astream(self, inputs):
        yield inputs

    def pipe(self, other):
        return other

    @property
    def name(self):
        return "chain"

    @property
    def aname(self):
        return "chain"


def make_chain():
    return Chain()
