"""Plain records shared by the engine, the rules, the reporters and the CLI."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Literal, get_args


class Severity(enum.IntEnum):
    """How badly an offender stalls the loop; ordered so that ``max``/``>=`` work."""

    LOW = 1  # technically blocking, negligible in practice
    MEDIUM = 2  # GIL-heavy CPU work
    HIGH = 3  # disk, deepcopy, large serialization, client construction
    CRITICAL = 4  # network or child-process waits: unbounded stalls

    @classmethod
    def parse(cls, text: str) -> Severity:
        try:
            return cls[text.strip().upper()]
        except KeyError:
            choices = ", ".join(s.label for s in cls)
            raise ValueError(f"unknown severity {text!r} (expected one of: {choices})") from None

    @property
    def label(self) -> str:
        return self.name.lower()

    def escalated(self) -> Severity:
        return Severity(min(self + 1, Severity.CRITICAL))


@dataclass(frozen=True)
class ChainLink:
    """One step of the proof that a call runs on the loop.

    The first link is the hot entry point (its ``def`` line); every following link is a call
    site inside ``function``; the last link is the offending call itself. ``through``: the
    installed library function a middle link's call runs, which calls the next link's function
    back (tau2's ``evaluate_simulation`` calling the ``load_file`` the project patched), or ``""``
    when the call runs the next function itself. Never part of a baseline fingerprint.
    """

    path: str
    line: int
    function: str
    through: str = ""


def split_place(at: str) -> tuple[str, int, int | None]:
    """``"env.py:91:40"`` -> ``("env.py", 91, 40)``; a place written without its column
    (``"env.py:91"``, as reports before JSON v5 did) has ``None`` for it."""
    head, _, last = at.rpartition(":")
    path, _, line = head.rpartition(":")
    if path and line.isdigit():
        return path, int(line), int(last)
    return head, int(last), None


@dataclass(frozen=True)
class RelatedLocation:
    """Another place a finding's story passes through, off its chain (the chain is the path the
    loop takes to the call; the fixers read it): where the client it blocks on was built, where
    it was handed to the framework. Rendered from the finding's facts
    (:func:`asynclint.rules.phrasing.related`); reporters show it as SARIF ``relatedLocations``,
    the JSON report's ``related`` and a ``note:`` line."""

    path: str
    line: int
    message: str  # what happens there, in words: "the client is built here"
    column: int | None = None  # 1-based; ``None``: the facts give the line only


@dataclass(frozen=True)
class FixInfo:
    """The automatic fix ``asynclint fix`` would try for a finding (see :mod:`asynclint.fixers`).

    ``safe`` and ``title`` are the JSON contract. The remaining fields are the facts the fixers
    read (convention 6: findings carry facts, fixers read the same facts) and are not
    serialized: the knowledge entry's recipe, the resolved callee, and whether the hot root is
    a callable the framework awaits when it is a coroutine function (so it may become ``async``).
    """

    safe: bool
    title: str
    recipe: str = ""
    target: str = ""
    root_awaited: bool = False


@dataclass(frozen=True)
class FixRequest:
    """What a fix of a finding starts from, recorded while checking; the fixers' registry turns
    it into the :class:`FixInfo` reports show (:func:`asynclint.fixers.attach`)."""

    kind: str  # "call", "handoff" (an object handed to the framework), "definition" (how a hook is written)
    recipe: str = ""  # the knowledge entry's recipe
    target: str = ""  # the callee, or the type of the object handed over
    placement: str | None = None  # direct | helper | root | None: see CallGraph.placement
    #: The root is a callable the framework awaits when it is a coroutine, in every release the
    #: project admits (it may become ``async def``); ``unawaited`` says why not when only its
    #: release forbids it (knowledge.frameworks.UNAWAITED_RESULTS).
    root_awaited: bool = False
    unawaited: str = ""
    #: The callee is handed to this applier (``map(requests.get, urls)``, ``CallSite.applier``):
    #: no call of it is written, so only a helper's call on the chain can be offloaded.
    applier: str = ""


#: What says a call blocks (``Facts.knowledge``): the built-in catalogue and its packs, the
#: project's configuration, a twin deep mode discovered, an installed package's source read by
#: deep mode, or the project's own code read as it is. The JSON contract enumerates these values.
Knowledge = Literal["catalogue", "configuration", "discovered", "deep", "code"]
KNOWLEDGE_KINDS: tuple[Knowledge, ...] = get_args(Knowledge)


@dataclass(frozen=True)
class MemberTwin:
    """The async twin the knowledge names for some of a receiver's classes (``Facts.members``)."""

    twin: str  # as ``Facts.twin`` words it: "`tavily.AsyncTavilyClient` and await the call"
    members: tuple[str, ...]  # the classes it replaces: ("tavily.TavilyClient",)


@dataclass(frozen=True)
class Facts:
    """What a finding rests on, as data: messages, JSON, SARIF and baseline fingerprints are
    all derived from these (see ``docs/json-format.md`` for each field)."""

    callee: str = ""  # the blocking call, as resolved (``json.dumps``); empty for a definition
    #: ``callee`` is a property read, not called (``selenium.webdriver.Chrome.title``): its getter blocks.
    read: bool = False
    #: ``callee`` is a method the class the project holds inherits (``selenium.webdriver.Chrome.get``):
    #: the base class defining it (``selenium.webdriver.Remote``); empty when the class defines it.
    inherited_from: str = ""
    #: The receiver holds an instance of one of several classes (``requests.Session() if pooled
    #: else httpx.Client()``), each of whose methods blocks: those classes, ``callee`` named on the
    #: first the knowledge base names; () for a receiver of one class.
    members: tuple[str, ...] = ()
    function: str = ""  # the function the call is written in
    root: str = ""  # the entry point the framework (or asyncio) runs
    root_kind: str = ""  # how it is run: "per-turn hook", "sync reward function"
    root_note: str = ""  # what the framework does with it: "run by the framework on every tool call"
    #: The project's requirement of the framework when it admits releases that run the root another
    #: way (``verifiers>=0.1.0``: before 0.1.2 a reward ran in a worker thread), and the first release
    #: whose way the finding assumes (``0.1.2``, read as on the loop); both empty when all agree.
    admitted: str = ""
    assumed_from: str = ""
    frequency: str = ""  # rollout | turn | tool | group | call | first-call | failure
    context: str = ""  # where it runs: "env loop", "shared tool server"
    cost: str = ""  # cost class (asynclint.knowledge.costs)
    evidence: str = ""  # what the cost class rests on, in words
    #: Serializing, parsing, copying, compiling and evaluating code: what the evidence says of the
    #: payload's size (``unknown``, ``whole``, ``growing``; ``small`` and ``constant`` are not
    #: reported unless configured, except ``exec`` of a short program), and where the
    #: function bound the value the payload is, when that decided it ("env.py:12").
    size: str = ""
    size_at: str = ""
    escalation: str = ""  # why the grade rose one level; empty when it did not
    #: The call runs only when an attempt before it raised (an ``except`` handler, or after a ``try``
    #: whose body returns): repetition around it is the attempt's, so it did not raise the grade.
    fallback: bool = False
    #: The test (as written, ``not (self.log == 'none')``) that keeps the call from running while the
    #: instances on the way keep their defaults: a feature off by default, graded low.
    off_by_default: str = ""
    via: tuple[str, ...] = ()  # the functions between the root and ``function``
    #: The installed library function each step of the way from ``root`` to ``function`` runs, which
    #: calls the step's next function back (``ChainLink.through``): one per step (``len(via) + 1``),
    #: ``""`` for a direct call; ``()`` when no step goes through a library.
    through: tuple[str, ...] = ()
    first_call: str = ""  # the memoized or lazily initialising function that runs it once
    #: With ``first_call``: its one-time step is a cache on disk's miss path (a reader found no file
    #: for the key): it runs once per key per machine, until the cache is filled.
    cache_miss: bool = False
    library: str = ""  # "huggingface_hub 2.4.0": the blocking call is inside this library
    entered: str = ""  # the library function the project calls into
    entered_library: str = ""  # the library that function belongs to
    also_inside: tuple[str, ...] = ()  # codes of the other blocking calls behind the same call
    #: An opener's content calls on its file object in the same function, ``callee:line`` each
    #: (``json.load:9``): one finding per file object, graded by the costliest of them.
    folded: tuple[str, ...] = ()
    knowledge: Knowledge = "catalogue"  # what says it blocks (KNOWLEDGE_KINDS)
    #: The async alternative the knowledge names: "`exa_py.AsyncExa` and await the call"; with
    #: ``members``, the one every member's names, else empty.
    twin: str = ""
    #: With ``members`` whose twins differ, each twin and the members it replaces; () otherwise.
    member_twins: tuple[MemberTwin, ...] = ()
    #: A client handed to a framework object and called through it: the object's class and slot
    #: (``JudgeRubric.judge_client``), the object's method the project calls that calls the client
    #: (``judge``; empty when the project calls the client itself), where it was handed over.
    handed_to: str = ""
    handed_through: str = ""
    handed_at: str = ""  # "env.py:91:40" (path:line:column, 1-based)
    #: The root is ``handed_through`` itself, a method of the holder the framework runs by itself
    #: (no project line calls it): the finding sits at the hand-over, and no edit of the project's
    #: lines fixes it (an async client would never be awaited there).
    run_by_framework: bool = False
    built_at: str = ""  # where the client handed over was built: "clients.py:5:10" (may be ``handed_at``)
    #: The framework method the project calls (``JudgeRubric.judge``) is a sync one in the
    #: project's release of the framework (``verifiers 0.1.2``), async from ``async_from`` on.
    sync_method: str = ""
    sync_in: str = ""
    async_from: str = ""
    #: The call is awaited and blocks all the same: what it does synchronously before it yields.
    awaited: str = ""
    #: A suppression comment that hides nothing (ASL901): the comment as written, the rules it
    #: lists that hid no finding (``ignore`` for a bare one) and the entries that name no rule.
    suppression: str = ""
    unused: tuple[str, ...] = ()
    unknown: tuple[str, ...] = ()


@dataclass(frozen=True)
class Finding:
    path: str
    line: int  # 1-based line of the offending call's first token
    column: int  # 1-based character column
    end_line: int
    end_column: int  # 1-based, one past the last character (SARIF convention)
    code: str
    rule: str
    severity: Severity
    message: str
    chain: tuple[ChainLink, ...] = ()
    fix: FixInfo | None = None
    facts: Facts = field(default_factory=Facts)
    fix_request: FixRequest | None = None
    #: Places off the chain the facts name (rendered from them; never part of a fingerprint).
    related: tuple[RelatedLocation, ...] = ()

    def sort_key(self) -> tuple:
        return (self.path, self.line, self.column, self.code)


@dataclass(frozen=True)
class FileError:
    """A file that could not be analysed; the rest of the run goes on."""

    path: str
    message: str


@dataclass(frozen=True)
class RuleMeta:
    """What reporters and docs need to know about a rule (no behaviour)."""

    code: str
    name: str
    summary: str
    default_severity: Severity
    fix_available: bool
    doc: str = ""


@dataclass(frozen=True)
class Result:
    findings: tuple[Finding, ...] = ()
    errors: tuple[FileError, ...] = ()
    files_checked: int = 0
    rules: tuple[RuleMeta, ...] = field(default=(), compare=False)
    #: The project files checked (paths as findings show them), analysed or not.
    paths: tuple[str, ...] = field(default=(), compare=False)
    #: The absolute project root the findings' relative paths start from ("" when not on disk).
    root: str = field(default="", compare=False)
    #: Warnings about the run itself, one line each (a cache directory refused, ...).
    notes: tuple[str, ...] = ()


class Lines(enum.Enum):
    """How a field of a finding's records holds lines of a checked file (:data:`LINES`)."""

    #: A line of the file the record's own ``path`` names.
    OWN = "own"
    #: The line a finding's span ends on: a line the summary holds (a loop's last), or its first
    #: line's plus the span of a call (which a line moved above it leaves as it is).
    END = "end"
    #: A place, ``path:line`` or ``path:line:column`` (``Facts.size_at``, ``Facts.handed_at``).
    PLACE = "place"
    #: ``callee:line`` each: lines of the file the blocking call is written in (the finding's, or an
    #: installed library's when ``Facts.library`` says the call is inside one).
    CALLED = "called"
    #: Words that name lines: ``at line N`` (of the file the blocking call is written in, as
    #: ``CALLED``) and places (``path:line:column``).
    TEXT = "text"


#: Where a finding's records hold lines of the checked files -- what an edit that only moves lines
#: renumbers (:mod:`asynclint.renumber`): record -> field -> how. A field missing here is kept as
#: it is, so a record that gains a field holding a line (or words naming one) lists it here
#: (``tests/test_cache.py`` fails otherwise).
LINES: dict[type, dict[str, Lines]] = {
    Finding: {"line": Lines.OWN, "end_line": Lines.END, "message": Lines.TEXT},
    ChainLink: {"line": Lines.OWN},
    RelatedLocation: {"line": Lines.OWN},
    Facts: {
        "evidence": Lines.TEXT,
        "size_at": Lines.PLACE,
        "handed_at": Lines.PLACE,
        "built_at": Lines.PLACE,
        "folded": Lines.CALLED,
    },
}
