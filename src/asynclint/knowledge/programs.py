"""What makes a module a program of its own, and base classes that never call their subclasses.

Read by ``asynclint.analysis.programs``: in an environment (a project defining
``load_environment``), a module the environment never imports runs in another process -- a
service the environment talks to over HTTP, a data-generation script, a trainer -- and its code
is not on the rollouts' loop.
"""

from __future__ import annotations

#: Calls that serve an application on an event loop they start, in the calling process, until
#: it stops: a module making one is a server program (``uvicorn.run(app)`` in a FastAPI
#: service's ``main``). Checked in uvicorn 0.54.0 (``uvicorn/main.py`` ``run``, re-exported by
#: the package; ``uvicorn/server.py`` ``Server.run`` calls ``asyncio.run(self.serve())``) and
#: aiohttp 3.14.5 (``aiohttp/web.py`` ``run_app``: ``loop.run_until_complete`` of the app's
#: runner, then ``run_forever``).
APP_SERVERS: frozenset[str] = frozenset(
    {"uvicorn.run", "uvicorn.main.run", "uvicorn.Server.run", "aiohttp.web.run_app"}
)

#: Calls that look an attribute up by a name given as a string, and the position of that name:
#: ``getattr(tools, name)`` may reach any method, a constant name (``getattr(self, "search")``) one.
NAME_LOOKUPS: dict[str, int] = {"getattr": 1, "attrgetter": 0, "methodcaller": 0}
#: What ``ModuleSummary.loaded`` holds for a lookup whose name the code does not write out: any name
#: (``getattr(tools, name)``), or -- followed by the class -- any name of the class whose method looks
#: itself up (``getattr(self, field)``: ``*pkg.mod.Config``).
ANY_NAME = "*"
#: A step of a chain through such a lookup's call (``getattr(api, name)(**kwargs)``, the method written
#: :data:`ANY_NAME`): said where a library function calling the next step back would be named
#: (``ChainLink.through``), as the call is dispatched by name, not written out.
BY_NAME = "getattr(<name>)"

#: Base classes whose own code never calls a method a subclass defines: markers of abstract
#: bases and protocols, typing's generics, enums and plain data models. A method of a class
#: deriving only from these (and from project classes) is called by project code or not at all;
#: one deriving from any other library class may be an override the library calls.
INERT_BASES: frozenset[str] = frozenset(
    {
        "builtins.object",
        "abc.ABC",
        "typing.Generic",
        "typing.Protocol",
        "typing_extensions.Protocol",
        "typing.NamedTuple",
        "typing.TypedDict",
        "typing_extensions.TypedDict",
        "enum.Enum",
        "enum.IntEnum",
        "enum.StrEnum",
        "enum.Flag",
        "builtins.Exception",
        "builtins.BaseException",
        "builtins.dict",
        "builtins.list",
        "pydantic.BaseModel",
        "pydantic.main.BaseModel",
    }
)
