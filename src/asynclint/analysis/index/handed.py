"""The records of what a module's calls hand over rather than call: callables passed as arguments
(:class:`FunctionRef`) and objects passed by keyword (:class:`Handoff`). Part of a
:class:`~asynclint.analysis.index.records.ModuleSummary`, cached with it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from asynclint.analysis.index.values import SelfPath


@dataclass(frozen=True, slots=True)
class RefFacts:
    """The facts of a handed callable that few have (:attr:`FunctionRef.rare`): kept apart, so
    that each of the others carries one empty slot for them instead of four (a large project has
    about one handed callable for every three call sites; on the standard library and the async
    packages under 1 % set any of these)."""

    #: Decoded as one object per distinct value (``asynclint.cache``): plain values.
    SHARED: ClassVar[bool] = True

    function: int | None = None  # a lambda written as the argument: its index in the functions
    #: Registered on an object built with hand-overs, or in the call making them: those hand-overs.
    handed: tuple[int, ...] = ()
    #: Named by a string reference and shipped elsewhere to run (``ProgramConfig(fn="m:f",
    #: sandbox=True)``): where it runs instead of this process.
    away: str | None = None
    #: The keywords of that call that a registration's settings read (``Toolset(objects=...,
    #: write=True)``): keyword -> the literal's ``repr``, or ``frameworks.UNKNOWN`` for any other value.
    settings: tuple[tuple[str, str], ...] = ()


_NO_REF_FACTS = RefFacts()


@dataclass(frozen=True, slots=True)
class FunctionRef:
    """A callable passed as an argument rather than called where it is written. Make one with
    :meth:`of`, which keeps the rare facts apart (:class:`RefFacts`); read them as attributes."""

    caller: int
    target: str | None
    line: int
    offloaded: bool
    passed_to: str | None  # resolved target of the call it is passed to
    self_ref: SelfPath | None = None
    slot: str = ""  # keyword name, or positional index as a string
    passed_to_method: str | None = None  # method name of that call (``add_reward_func``)
    passed_to_self: SelfPath | None = None  # that call's unresolved self target
    #: The 1-based character columns of the argument (0: not recorded, a lambda or a string reference).
    col: int = 0
    end_col: int = 0
    #: The rare facts, ``None`` when every one is at its default (see :class:`RefFacts`).
    rare: RefFacts | None = None

    @classmethod
    def of(
        cls,
        caller: int,
        target: str | None,
        line: int,
        offloaded: bool,
        passed_to: str | None,
        self_ref: SelfPath | None = None,
        slot: str = "",
        passed_to_method: str | None = None,
        passed_to_self: SelfPath | None = None,
        *,
        function: int | None = None,
        handed: tuple[int, ...] = (),
        away: str | None = None,
        settings: tuple[tuple[str, str], ...] = (),
    ) -> FunctionRef:
        facts = RefFacts(function, handed, away, settings)
        rare = None if facts == _NO_REF_FACTS else facts
        return cls(
            caller, target, line, offloaded, passed_to, self_ref, slot, passed_to_method, passed_to_self, rare=rare
        )

    @property
    def function(self) -> int | None:
        return None if self.rare is None else self.rare.function

    @property
    def handed(self) -> tuple[int, ...]:
        return () if self.rare is None else self.rare.handed

    @property
    def away(self) -> str | None:
        return None if self.rare is None else self.rare.away

    @property
    def settings(self) -> tuple[tuple[str, str], ...]:
        return () if self.rare is None else self.rare.settings


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
