"""Values the walk tracks for expressions (:class:`Sym`, :class:`Inst`, :class:`SelfRef`,
:class:`Refs`), the markers written into exported names (:class:`Marker`), the paths from them a
summary keeps (:class:`Rooted`, :class:`SelfPath`), and the helpers that read dotted names."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar, Literal, get_args

from asynclint.knowledge.blocking import BUILT, BUILT_FIRST, RETURNS


@dataclass(frozen=True, slots=True)
class Sym:
    """The expression *is* a named thing: a module, function or class (``requests.get``)."""

    name: str


@dataclass(frozen=True, slots=True)
class Inst:
    """An object produced by ``name`` (a constructor, factory, or attribute path)."""

    name: str
    origin: str  # local | param | module | self | expr
    #: Built by a call that handed it objects (``JudgeRubric(judge_client=...)``): indexes of
    #: those hand-overs in the module's ``handoffs``, so its calls can be traced back to them.
    handed: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class SelfRef:
    """``self.<path>`` inside a method of ``cls`` (a global class qualname)."""

    cls: str
    path: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Refs:
    """Callables: a list of them (``funcs = [correct, self.format_ok]``), or any one of them (the
    variable of ``for f in funcs``), to be handed to a framework. An item may itself stand for
    several: a list defined in another module, or what a call returns (``get_rewards()``)."""

    items: tuple[Sym | SelfRef | Inst, ...]
    #: The items name tables, not callables: ``TABLE[key]`` of a table imported from another
    #: module, whose items the index cannot see (``pkg.TABLE``, called as ``pkg.TABLE[]``).
    tables: bool = False


Value = Sym | Inst | SelfRef | Refs | None


class Marker(str):
    """What the walk writes into names and paths for things that have no dotted name of their own:
    the members below, the only instances. A member is a str whose text is the marker, so a
    summary stores, and the cache reads back, plain strings equal to it; it is produced and
    compared as a member, never as a spelled-out string. (Not an ``Enum``: reading an enum's
    member runs a descriptor, and the walk and the graph compare with these in their inner loops.)"""

    __slots__ = ()

    #: First element of a :class:`SelfRef` path written through ``super()``.
    SUPER: ClassVar[Marker]
    #: In exported values: the instance a method was called on (``<self>._http``, a
    #: :class:`Rooted` path); in a returned payload's callee, a method called on ``self``
    #: (:class:`SelfMethod`).
    SELF: ClassVar[Marker]
    #: The rollout's state, as an owner of attributes: ``state["driver"]`` is
    #: ``SelfRef(Marker.STATE, ("driver",))``, typed project-wide from what hooks store under that key.
    STATE: ClassVar[Marker]
    #: A parameter of the calling function, as an argument's value: ``<param>.driver`` in
    #: ``mark_page(driver)`` is whatever the caller's own parameter ``driver`` receives.
    PARAM: ClassVar[Marker]
    #: What a framework hands a registered function by parameter name (``async def r(judge, ...)``):
    #: ``judge(...)`` there is a call of ``<passed>.judge``, settled by what registered the function.
    PASSED: ClassVar[Marker]
    #: A callable handed by its name, as an argument's value: ``<named>.pkg.save`` in
    #: ``Finisher(save)``. Only a parameter a constructor stores is typed by it (a helper's
    #: parameter keeps the handed reading: offloading its call would change every caller's).
    NAMED: ClassVar[Marker]
    #: A dispatch item standing for whatever the project's dict displays file under a literal key
    #: (``<keyed>factory`` for ``spec["factory"]()``, the mapping unknown where it is called): the
    #: graph runs each class or function filed so (``ModuleSummary.factories``).
    KEYED: ClassVar[Marker]


Marker.SUPER = Marker("super()")
Marker.SELF = Marker("<self>")
Marker.STATE = Marker("<rollout state>")
Marker.PARAM = Marker("<param>")
Marker.PASSED = Marker("<passed>")
Marker.NAMED = Marker("<named>")
Marker.KEYED = Marker("<keyed>")


@dataclass(frozen=True, slots=True)
class Rooted:
    """A path from a value that has no dotted name of its own: from the instance a method was
    called on (``Marker.SELF``: ``return self._http`` is ``<self>._http``), from the rollout's
    state (``Marker.STATE``: ``<rollout state>.driver``), from a parameter of the calling function
    (``Marker.PARAM``: ``<param>.driver``), from what a framework hands a registered function
    (``Marker.PASSED``: ``<passed>.judge``) or from a callable handed by name (``Marker.NAMED``).
    Exported values (a summary's ``values``, ``returns``, ``callables``, a class's ``attrs``), a
    call's arguments and the loop it names, and what ``update_tool_args`` injects hold it as this
    record, which the cache writes as one; only the walk's names (an :class:`Inst`'s, and so the
    target of a call made on one: ``<passed>.judge``) and the target of a call on what a method
    returns (``self._driver(state).refresh``: ``<rollout state>.driver.refresh``, settled by the
    index) hold its ``str()``: the root, then the path, dot-separated (a part holds no dot:
    :class:`CallPart` writes its names' dots as ``/``). Either is read with :meth:`read`, never
    sliced by hand."""

    #: Decoded as one object per distinct path (``asynclint.cache``), so that the tuples holding
    #: paths (a summary's values, a call's arguments) are shared as the plain ones are.
    SHARED: ClassVar[bool] = True

    root: Marker
    path: tuple[str, ...]

    def __str__(self) -> str:
        return ".".join((self.root, *self.path))

    @staticmethod
    def read(value: str | Rooted, root: Marker) -> Rooted | None:
        """``value`` as a path from ``root``: itself when it is one (an exported value), or the
        text (a call's argument, an injected value, a call target) when written as one (no marker
        holds a dot)."""
        if isinstance(value, Rooted):
            return value if value.root == root else None
        if not value.startswith(root):
            return None  # most text is a dotted name: cheaper than the partition below
        head, dot, rest = value.partition(".")
        return Rooted(root, tuple(rest.split("."))) if dot and head == root else None

    @staticmethod
    def parse(text: str) -> str | Rooted:
        """``text`` as an exported value: the path it writes from one of the roots, else the name."""
        head, dot, rest = text.partition(".")
        root = _ROOTS.get(head) if dot else None
        return Rooted(root, tuple(rest.split("."))) if root is not None else text

    def on(self, instance: str) -> str:
        """The path read on ``instance`` (a dotted value: ``pkg.Env()`` for a ``<self>`` path)."""
        return ".".join((instance, *self.path))


_ROOTS: dict[str, Marker] = {root: root for root in (Marker.SELF, Marker.STATE, Marker.PARAM, Marker.PASSED)}


@dataclass(frozen=True, slots=True)
class SelfPath:
    """A receiver path a record leaves for the graph (``CallSite.self_ref``, ``FunctionRef``'s and
    ``Handoff``'s): from ``self`` in a method of ``cls`` (a global class qualname: ``self.db.find``
    is ``("db", "find")``), or, ``root`` being ``Marker.STATE``, from the rollout's state
    (``state["driver"].get`` is ``("driver", "get")``, the key then attributes; ``cls`` is "")."""

    #: Decoded as one object per distinct path (``asynclint.cache``): plain values, and a class's
    #: calls through ``self`` repeat a few paths.
    SHARED: ClassVar[bool] = True

    cls: str
    path: tuple[str, ...]
    root: Marker = Marker.SELF

    @staticmethod
    def of(ref: SelfRef, path: tuple[str, ...] | None = None) -> SelfPath:
        """The path of the walk's ``ref`` (or ``path``, another one from the same owner)."""
        path = ref.path if path is None else path
        return SelfPath("", path, Marker.STATE) if ref.cls == Marker.STATE else SelfPath(ref.cls, path)

    def receiver(self) -> SelfPath:
        """The path to the object its last part is read on (a method's or property's receiver)."""
        return SelfPath(self.cls, self.path[:-1], self.root)


@dataclass(frozen=True, slots=True)
class SelfMethod:
    """A method called on ``self`` as the callee of a ``returned`` payload names it
    (``argfacts.returned_word``): written ``<self>`` + the method's dotted name (the class, then
    the method), settled by the graph through the class's MRO. Dotted like every other callee
    there, so the knowledge base reads the function's own name as a dotted name's last part
    (``costs.returned_name``) without knowing this record."""

    cls: str
    method: str

    def __str__(self) -> str:
        return f"{Marker.SELF}{self.cls}.{self.method}"

    @staticmethod
    def read(callee: str) -> SelfMethod | None:
        if not callee.startswith(Marker.SELF):
            return None
        cls, _, method = callee.removeprefix(Marker.SELF).rpartition(".")
        return SelfMethod(cls, method)


#: Suffix of an attribute standing for its items: ``self.envs[k]`` is ``SelfRef(cls, ("envs[]",))``,
#: typed by ``self.envs[k] = X()`` or ``self.envs: dict[str, X]``, else like ``self.envs``.
ITEM_SUFFIX = "[]"
#: Suffix of a key read on an instance declared a project class (``parts["sandbox"]`` with
#: ``parts: Parts``): ``Parts().sandbox{}``, the field when ``Parts`` is a ``TypedDict``, else
#: typed like the instance itself, as any item read is.
FIELD_SUFFIX = "{}"
#: ``CallFacts.installed`` of a directory walk rooted at one of
#: :data:`asynclint.knowledge.blocking.INSTALLED_ROOTS` (site-packages, the interpreter's prefix):
#: an installed tree whatever modules the project holds.
INSTALLED_PREFIX = "*"
#: The element at a position of the tuple a call returns, appended to the call: ``load().<0>``
#: for ``model`` in ``model, processor = load()``, typed by ``return model, processor`` in ``load``.
ELEMENT = ".<{}>"
#: An item of what a call returns, appended to the call: ``helper().iterdir().<item>`` for
#: ``child`` in ``for child in helper().iterdir()``, typed by :data:`ITEMS` once the graph
#: knows what ``helper()`` returns.
LOOP_ITEM = "<item>"


CallKind = Literal["built", "handed", "named", "made"]
_CALL_KINDS: tuple[CallKind, ...] = get_args(CallKind)


@dataclass(frozen=True, slots=True)
class CallPart:
    """A path part after a call, read with that call rather than as an attribute of its result.
    ``built``: the one type that :data:`BUILT` says a call of that name builds from the arguments
    as written, for a call whose receiver the graph types later (``self._client().get_collection()``):
    the graph uses it when the resolved callee is one of BUILT's and builds that type. ``handed``:
    the project callables a call of a project function of another module is handed at each
    position ("" where not a name; ``in_thread(open_ledger)`` ->
    ``pkg.threads.in_thread().<handed:pkg/env/open_ledger>``): where that function returns what
    calling one of its parameters returns (``ModuleSummary.runners``), the graph types the call as a
    call of the one handed there. ``named``: the constant dotted paths of the project's modules it is
    handed at each position ("" where none; ``load_class("pkg.envs.TaskEnv")``): where that function
    returns what such a path names (``ModuleSummary.importers``), the call is the class or function
    named there. ``made``: the registry and the id a registry's maker is handed
    (``gymnasium.make("Grid-v0")`` -> ``gymnasium.make.<made:gymnasium|Grid-v0>``): the class or
    factory the project registers under that id (``ModuleSummary.registered``). Else the graph
    reads past it. Written ``<kind:names>``, names separated by ``|``, their dots as ``/`` (paths
    are dotted)."""

    kind: CallKind
    names: tuple[str, ...]

    def __str__(self) -> str:
        return f"<{self.kind}:{'|'.join(name.replace('.', '/') for name in self.names)}>"

    @staticmethod
    def written(part: str) -> bool:
        """Is ``part`` of a path one (cheaper than :meth:`read`, for the walks that skip them)?"""
        return part.startswith(_CALL_PARTS)

    @staticmethod
    def read(part: str) -> CallPart | None:
        for kind in _CALL_KINDS:
            if part.startswith(f"<{kind}:"):
                written = part[len(kind) + 2 : -1]
                return CallPart(kind, tuple(name.replace("/", ".") for name in written.split("|")))
        return None


_CALL_PARTS = tuple(f"<{kind}:" for kind in _CALL_KINDS)


#: A ``made`` :class:`CallPart`'s id written as the project constant it is read from, for the graph
#: to match with a registration of the same constant (``<made:gymnasium|=pkg/consts/GRID_ID>``).
NAMED_ID = "="


def handed_at(rest: Sequence[str], position: int) -> str:
    """The callable the next part of a path (``rest[:1]``, a ``handed`` :class:`CallPart`) names
    at ``position``; "" when none."""
    part = CallPart.read(rest[0]) if rest else None
    if part is None or part.kind != "handed":
        return ""
    return part.names[position] if position < len(part.names) else ""


def named_at(rest: Sequence[str], position: int) -> str:
    """The dotted path a ``named`` :class:`CallPart` among the parts read with a call (the leading
    ones of ``rest``, called or not) names at ``position``; "" when none."""
    for written in rest:
        part = CallPart.read(written.removesuffix("()"))
        if part is None:
            break
        if part.kind == "named":
            return part.names[position] if position < len(part.names) else ""
    return ""


def built_after(callee: str, rest: Sequence[str]) -> str | None:
    """The type a call of ``callee`` builds, when the next part of its path (``rest[:1]``, a
    ``built`` :class:`CallPart`) names one that :data:`BUILT` gives ``callee``."""
    part = CallPart.read(rest[0]) if rest else None
    named = part.names[0] if part is not None and part.kind == "built" else ""
    built = {*BUILT.get(callee, ("", None, {}))[2].values()}
    built.update(type_ for *_, decided in BUILT_FIRST.get(callee, ()) for type_ in decided.values())
    return named if named and named in built else None


def split_super(path: tuple[str, ...]) -> tuple[int, tuple[str, ...]]:
    """-> (how many classes of the MRO to skip, the attribute path): ``super().x`` starts
    looking for ``x`` after the class itself."""
    if path and path[0] == Marker.SUPER:
        return 1, path[1:]
    return 0, path


def linear_chain(
    cls: str,
    lookup: Callable[[str], tuple[str, tuple[str, ...]]],
    memo: dict[str, list[str]],
    known: Callable[[str], bool] = lambda name: True,
) -> list[str]:
    """``cls`` and its base classes breadth first, nearest first, kept in ``memo``.
    ``lookup(name)`` -> (the class's name, its bases); classes ``known`` rejects are left out.

    A class with one base extends its base's list, so a deep single-inheritance hierarchy costs
    one list per class instead of one walk of the whole hierarchy per class."""
    links: list[tuple[str, str]] = []  # (as asked, as named) from ``cls`` down the single bases
    current = cls
    while current not in memo:
        name, bases = lookup(current)
        if len(bases) != 1 or not known(name) or any(name == seen for _, seen in links):
            memo[current] = _breadth_first(current, lookup, known)
            break
        links.append((current, name))
        current = bases[0]
    tail = memo[current]
    for asked, name in reversed(links):
        tail = [name, *tail] if name not in tail else _breadth_first(asked, lookup, known)
        memo[asked] = tail
    return memo[cls]


def _breadth_first(
    cls: str, lookup: Callable[[str], tuple[str, tuple[str, ...]]], known: Callable[[str], bool]
) -> list[str]:
    order: list[str]
    seen: set[str]
    order, seen, queue = [], set(), deque([cls])
    while queue:
        name, bases = lookup(queue.popleft())
        if name in seen or not known(name):
            continue
        seen.add(name)
        order.append(name)
        queue.extend(bases)
    return order


def extend(name: str, parts: tuple[str, ...] | list[str]) -> str:
    """Append attribute names (``"create()"`` for a call's result) to a dotted name, renaming
    through :data:`RETURNS` at each step."""
    for index, part in enumerate(parts):
        if CallPart.written(part):
            continue  # used with the call before it
        name = f"{name}.{part}"
        built = built_after(name[:-2], parts[index + 1 :]) if part.endswith("()") else None
        name = built or RETURNS.get(name, name)
    return name
