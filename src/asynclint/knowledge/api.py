"""The record every blocking-API table is written in (the catalogue, the packs, configuration)."""

from __future__ import annotations

from dataclasses import dataclass

from asynclint.model import Severity

#: The pattern of an entry for importing a package, not calling it: ``"import swebench.harness"``
#: (a space: never a call's name), matched against imports written in a function.
IMPORT = "import"


@dataclass(frozen=True)
class BlockingApi:
    pattern: str
    category: str
    #: What one call costs: a class of :data:`asynclint.knowledge.costs.COST_CLASSES`, or a
    #: cost the evidence about the call settles (``payload``, ``payload-fast``: the argument's
    #: size; ``code``/``program``: what it compiles, evaluates or runs; ``statement``: the SQL it
    #: runs), see ``costs.EVIDENCE_GRADES``.
    cost: str
    fix: str | None = None
    unless: frozenset[str] = frozenset()  # method names exempt from a ``**`` pattern
    #: A fixed grade instead of the cost class's (entries from the project's configuration).
    severity: Severity | None = None
    #: Where the fact comes from: a documentation URL, ``"source: pkg X.Y module.py"``, or
    #: ``"discovered: ..."`` for a twin found in installed source (asynclint.twin_discovery).
    source: str = ""
    #: The async alternative, phrased to follow "use" in a message (``"`exa_py.AsyncExa`"``);
    #: empty when the library has none. See :mod:`asynclint.knowledge.twins`.
    twin: str = ""
    #: An async API that blocks the loop although it is awaited: what it does synchronously
    #: before it yields, phrased to follow "it" (``"embeds `query_texts` with ..."``). Empty for
    #: every other entry: an awaited call of them is a coroutine, not a blocking call.
    awaited: str = ""
    #: Arguments of which at least one must be written for the call to block, each a keyword or a
    #: position (``0``: the first positional argument; an awaited chroma query embeds only the texts
    #: it is given, pandas' ``to_csv`` writes a file only given a path, ``path_or_buf`` or ``0``);
    #: empty: it always blocks.
    blocks_with: frozenset[str] = frozenset()
    #: Types of the first positional argument with which a call blocks (tau_bench's ``Env.step``
    #: asks the simulated user only for a ``respond`` action; see :data:`BUILT`): a call whose
    #: argument is known to be of another type does not. Empty: the argument does not matter.
    blocks_on: frozenset[str] = frozenset()
    #: A property whose getter does the blocking work (``driver.title`` asks the browser): an
    #: exact pattern matched where the attribute is *read*, never on a call. Reading it again
    #: through its value (``driver.title.strip()``) is a use of what was read, not a second read.
    read: bool = False
    #: The pattern of the entry that grades a call handed a first argument known to be of a type
    #: ``blocks_on`` does not name (tau_bench's ``Env.step`` of a tool action runs the tool over
    #: in-memory data); empty: such a call does not block.
    otherwise: str = ""
    #: What the call does, in a message's words, where neither its cost class's nor its category's
    #: words fit (a SQLite commit is an ``sdk`` call whose cost is an fsync of a local file, not a
    #: wait on a remote service); empty: those words.
    what: str = ""
    #: Arguments that, given a literal, turn the blocking work off, each written ``slot=literal``
    #: with the slot a keyword or a positional index (gym-sokoban's ``SokobanEnv(reset=False)``
    #: generates no room: ``reset=False``; ``lock.acquire(False)`` and ``event.wait(timeout=0)``
    #: return at once: ``0=False``, ``timeout=0``): a call written so does not block.
    off_with: frozenset[str] = frozenset()
    #: Methods of the receiver the call runs in the calling thread (rlm's ``execute_code`` calls
    #: the instance's ``_llm_query`` & co. from the code it executes): a project subclass's
    #: overrides of them run where the call is made. Empty: it calls none that matter.
    runs: frozenset[str] = frozenset()
    #: Arguments that, given one of these named constants, make the call cost more, each written
    #: ``slot=NAME`` (slot: its keyword or positional index; ``NAME``: the member or constant's own
    #: name, tau2's ``evaluation_type=EvaluationType.NL_ASSERTIONS`` is ``evaluation_type=NL_ASSERTIONS``;
    #: a string, as a ``str`` Enum's value is written out, is its ``repr``: ``evaluation_type='nl_assertions'``;
    #: a name the module binds to either counts as what it is bound to): a call written so is graded
    #: by the entry ``heavier`` names.
    heavier_with: frozenset[str] = frozenset()
    heavier: str = ""
    #: Types of the first positional argument with which the call is graded by the entry ``heavier``
    #: names (sympy's ``N("1/3 + x")`` parses its text before it evaluates; ``N(expr)`` only
    #: evaluates): a call handed an argument of unknown type keeps this entry's grade.
    heavier_on: frozenset[str] = frozenset()
    #: Attributes of library modules the call looks up and calls as it runs (tau2's telecom
    #: ``get_environment`` calls its module's ``load_file``), dotted: a project function assigned
    #: to one (``_telecom_env.load_file = _load_file_utf8``) runs where the call is made.
    calls_attributes: frozenset[str] = frozenset()
    #: The call blocks only given a first argument known to be of a type ``blocks_on`` names (a
    #: catch-all by method name, ``*.to_csv``, writes a file only when it is handed a path; a receiver
    #: of unknown type handed an argument of unknown type may be anything's method).
    typed_only: bool = False

    def blocks(self, awaited: bool, keywords: tuple[str, ...], argument: str = "") -> bool:
        """Whether a call of this entry, awaited or not, written with ``keywords`` and handed a
        first argument of type ``argument`` ("" when not known), blocks. An argument given a
        literal ``False`` or ``0`` is also in ``keywords`` as ``slot=False`` / ``slot=0`` (slot: its
        keyword, or its position); a positional argument is in it as its position (``0``) for an
        entry whose ``blocks_with`` names one."""
        if awaited and not self.awaited:
            return False
        if self.blocks_on and (argument or self.typed_only) and argument not in self.blocks_on:
            return False
        if not self.off_with.isdisjoint(keywords):
            return False
        return not self.blocks_with or not self.blocks_with.isdisjoint(keywords)


def many(
    category: str,
    cost: str,
    fix: str | None,
    names: str,
    prefix: str = "",
    *,
    unless: frozenset[str] = frozenset(),
    source: str = "",
    twin: str = "",
    awaited: str = "",
    what: str = "",
    off_with: frozenset[str] = frozenset(),
) -> list[BlockingApi]:
    """One entry per space-separated name, each prefixed with ``prefix``."""
    return [
        BlockingApi(prefix + n, category, cost, fix, unless, None, source, twin, awaited, what=what, off_with=off_with)
        for n in names.split()
    ]


def entry(
    pattern: str,
    category: str,
    cost: str,
    fix: str | None = None,
    unless: frozenset[str] = frozenset(),
    source: str = "",
    twin: str = "",
    *,
    awaited: str = "",
    blocks_with: frozenset[str] = frozenset(),
    blocks_on: frozenset[str] = frozenset(),
    otherwise: str = "",
    runs: frozenset[str] = frozenset(),
    heavier_with: frozenset[str] = frozenset(),
    heavier: str = "",
    heavier_on: frozenset[str] = frozenset(),
    calls_attributes: frozenset[str] = frozenset(),
    typed_only: bool = False,
) -> BlockingApi:
    """A curated entry: graded by its cost class, never by a fixed severity."""
    return BlockingApi(
        pattern,
        category,
        cost,
        fix,
        unless,
        None,
        source,
        twin,
        awaited,
        blocks_with,
        blocks_on,
        otherwise=otherwise,
        runs=runs,
        heavier_with=heavier_with,
        heavier=heavier,
        heavier_on=heavier_on,
        calls_attributes=calls_attributes,
        typed_only=typed_only,
    )


def reads(
    category: str, cost: str, fix: str | None, names: str, owner: str, *, source: str, twin: str = ""
) -> list[BlockingApi]:
    """One property entry (see :attr:`BlockingApi.read`) per space-separated attribute of ``owner``."""
    return [
        BlockingApi(f"{owner}.{n}", category, cost, fix, source=source, twin=twin, read=True) for n in names.split()
    ]


@dataclass(frozen=True)
class Protocol:
    """A kind of object recognised by how the project drives it, for classes the knowledge base
    does not name (a package not installed, a wrapper of an engine): a class whose instances the
    project calls every one of ``methods`` on is of this kind, and its construction and those
    calls are graded by ``built`` and ``calls``."""

    name: str
    methods: frozenset[str]
    built: BlockingApi
    #: Method name -> its entry; a method not named here is not graded.
    calls: tuple[tuple[str, BlockingApi], ...]

    @property
    def entries(self) -> tuple[BlockingApi, ...]:
        """Every entry it grades with: its construction's, then its calls'."""
        return (self.built, *dict(self.calls).values())

    def entry(self, method: str | None) -> BlockingApi | None:
        """The entry of a call of ``method`` on an instance, or of the construction (``None``)."""
        return self.built if method is None else dict(self.calls).get(method)


@dataclass(frozen=True)
class IdRegistry:
    """A library's registry of environments by id: a call of one of ``registers`` files a class
    (or a factory, or a ``"module:attr"`` string naming one) under an id, and a call of one of
    ``makers`` builds what the id names, at the maker's caller. An id the project registers makes
    an instance of the project's class: its methods are what the instance's calls run. Each slot
    is a parameter: (keyword, position)."""

    name: str
    registers: frozenset[str]
    makers: frozenset[str]
    id_slot: tuple[str, int]
    entry_slot: tuple[str, int]
    made_slot: tuple[str, int]
    #: A made id may name the module to import first (``make("pkg.envs:Grid-v0")``): the id is
    #: what follows the colon.
    module_prefix: bool
    source: str
