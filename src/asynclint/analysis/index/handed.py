"""The records of what a module's calls hand over rather than call: callables passed as arguments
(:class:`FunctionRef`) and objects passed by keyword (:class:`Handoff`). Part of a
:class:`~asynclint.analysis.index.records.ModuleSummary`, cached with it."""

from __future__ import annotations

from dataclasses import dataclass

from asynclint.analysis.index.values import SelfPath


@dataclass(frozen=True, slots=True)
class FunctionRef:
    """A callable passed as an argument rather than called where it is written."""

    caller: int
    target: str | None
    line: int
    offloaded: bool
    passed_to: str | None  # resolved target of the call it is passed to
    self_ref: SelfPath | None = None
    slot: str = ""  # keyword name, or positional index as a string
    passed_to_method: str | None = None  # method name of that call (``add_reward_func``)
    passed_to_self: SelfPath | None = None  # that call's unresolved self target
    function: int | None = None  # a lambda written as the argument: its index in the functions
    #: Registered on an object built with hand-overs, or in the call making them: those hand-overs.
    handed: tuple[int, ...] = ()
    #: Named by a string reference and shipped elsewhere to run (``ProgramConfig(fn="m:f",
    #: sandbox=True)``): where it runs instead of this process.
    away: str | None = None
    #: The keywords of that call that a registration's settings read (``Toolset(objects=...,
    #: write=True)``): keyword -> the literal's ``repr``, or ``frameworks.UNKNOWN`` for any other value.
    settings: tuple[tuple[str, str], ...] = ()
    #: The 1-based character columns of the argument (0: not recorded, a lambda or a string reference).
    col: int = 0
    end_col: int = 0


@dataclass(frozen=True, slots=True)
class Handoff:
    """An object passed by keyword: ``JudgeRubric(judge_client=OpenAI())``."""

    caller: int
    passed_to: str | None
    slot: str
    value: str  # dotted type of the object, or (``named``) the name of a value defined elsewhere
    line: int
    col: int
    end_line: int
    end_col: int
    named: bool = False  # ``judge_client=JUDGE`` imported: an instance only if JUDGE is a value
    #: ``judge_client=self.client``: always left for the graph, which answers both what it holds
    #: and where it was built (:meth:`~asynclint.analysis.resolution.Resolution.built_at`).
    self_ref: SelfPath | None = None
    passed_to_self: SelfPath | None = None  # ``super().__init__(judge_client=...)``
    #: (line, column) of the call that built the object, when this module shows it: written as the
    #: argument (``judge_client=OpenAI()``) or bound to the name passed (``client = OpenAI()``).
    built: tuple[int, int] | None = None
