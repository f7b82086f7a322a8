"""The records of a module's loops that the project graph weighs: nests whose counts grow with the
data (:class:`LoopNest`) and loops with their trip counts (:class:`WorkLoop`). Part of a
:class:`~asynclint.analysis.index.records.ModuleSummary`, cached with it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class LoopNest:
    """Loops nested in one function whose iteration counts each grow with the data it handles
    (:mod:`asynclint.analysis.index.nests`): super-linear pure-Python work; or one loop over a
    whole corpus the module built. One per outermost such loop, its heaviest nest."""

    function: int  # index into ModuleSummary.functions
    line: int  # the outermost counted loop: its ``for`` (or comprehension) up to its iterable's end
    col: int
    end_line: int
    end_col: int
    #: Each counted loop, outermost first, in words: "`for i in range(1, m + 1)` (`m = len(response)`)".
    levels: tuple[str, ...]
    steps: int  # how many factors of the data multiply: 2 for a pair of loops, 3 for three; 1 for a whole walk
    table: str = ""  # the 2-D table the nest fills cell by cell (``dp``), if any
    #: A level goes over a collection built over a whole source (a corpus: :mod:`.corpora`); with
    #: one step, the loop walks that corpus once per call.
    whole: bool = False
    #: What sizes every counted loop: parameters, or fields read from them, dotted (``secret``,
    #: ``data.metadata.grid``; :mod:`asynclint.analysis.index.nest_origins`); empty when one is sized
    #: by something else, or the nest is combinatorial or a recursion.
    sized_by: tuple[str, ...] = ()
    #: The flag tests around its outermost loop and whether it sits in a lazy initialisation, as
    #: for a call (``CallSite.guards``, ``CallSite.once``): the chains that reach it are judged by them.
    guards: tuple[str, ...] = ()
    once: bool = False
    #: The parameters the keys of the caches around it read, when every one-time step around it is a
    #: cache keyed by them (``CallSite.memo_key``): the graph asks whether the rollout hands them.
    memo_key: tuple[str, ...] = ()
    #: A level goes over a collection exponential in a count the data gives (:mod:`.exponents`):
    #: "calls" when each of its items calls the project's code or numpy, "items" otherwise.
    exponential: str = ""


@dataclass(frozen=True, slots=True)
class WorkLoop:
    """A loop of a function (``for``, ``while``, a comprehension's generator) with its trip count where
    the code bounds it (:mod:`asynclint.analysis.index.work`): the project graph multiplies the work
    of the calls inside it by that count (:mod:`asynclint.analysis.work`)."""

    function: int  # index into ModuleSummary.functions
    parent: int  # index into ModuleSummary.work_loops of the loop around it in the function; -1: none
    line: int  # the whole loop, for the calls inside it (1-based character columns)
    col: int
    end_line: int
    end_col: int
    #: What the loop goes over, evaluated once before it (a ``for``'s iterable): calls there are
    #: the enclosing loop's (line, col, end line, end col); all zero for a ``while``.
    outside: tuple[int, int, int, int]
    #: Its trip count as factors that multiply: digits, or the dotted name of a module constant
    #: whose size (its length, or the integer itself) the graph looks up in ``ModuleSummary.sizes``.
    #: Empty: the code does not bound it (counted once: unknown counts are not guessed large).
    trips: tuple[str, ...]
    header: str  # ``for move in LEGAL_MOVES``, ``while tick < max_ticks``, as written (short)
    bound: str  # what bounds it, for messages: ``LEGAL_MOVES``, ``max_ticks_per_round``
    #: Statements each iteration runs itself (those of loops inside it aside), at least 1: the
    #: steps an iteration costs besides its calls.
    statements: int = 1
    #: The flag tests around it, whether it sits in a lazy initialisation and the parameters its
    #: caches' keys read (see LoopNest).
    guards: tuple[str, ...] = ()
    once: bool = False
    memo_key: tuple[str, ...] = ()
    #: The function's parameters whose items it goes through, one per iteration (``for s in states``,
    #: ``zip(states, scores)``, ``range(len(states))``, or a local holding an item per item of one):
    #: a loop over a group reward's lists is the loop over the group's rollouts.
    over: tuple[str, ...] = ()
    #: It goes over the rollout's history, which grows every turn (``for text in
    #: assistant_texts(completion)``, ``state["trajectory"]``): what it repeats adds up per turn.
    history: bool = False
    #: The parameter whose text it walks piece by piece, doing work with each piece (``for line in
    #: log.splitlines()``; :mod:`asynclint.analysis.index.textwalks`): its count is that text's
    #: length, which the calls decide. "" for none.
    pieces: str = ""
    #: It goes over the pieces of one text, whatever holds the text (``for block in re.findall(fence,
    #: reply)``, a local or a parameter; :meth:`.textwalks.TextWalks.cuts`): what each iteration does to
    #: its piece, the loop does once to that text.
    cut: bool = False
    #: The parameter whose items it serializes or copies one by one, made into a value of their own
    #: first (``for step in trajectory: step["completion"].model_dump()``;
    #: :mod:`asynclint.analysis.index.itemdumps`): together the whole collection. "" for none.
    dumps: str = ""
    #: Its count is a ceiling the body leaves early: a clock run to a time limit by a fixed step whose
    #: body ``break``s or returns when the outcome is decided (``while time < TIME_LIMIT``).
    ceiling: bool = False
