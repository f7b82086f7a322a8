"""Severity = cost class x frequency: the grade of one blocking call from its cost class and how
often the path to it really runs, with the facts that say why."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from asynclint.knowledge.blocking import BlockingApi
from asynclint.knowledge.costs import (
    ARCHIVE_GRADES,
    ARCHIVE_MEMBER_GRADES,
    AUTOCOMMIT_GRADES,
    AUTOCOMMIT_WORDS,
    CODE_GRADES,
    COST_CLASSES,
    FILE_CONTENTS_COSTS,
    FILE_PIECES,
    FORMED_SHAPES,
    FRAMEWORK_HANDED,
    HANDED_LONG,
    HANDED_SMALL,
    HANDED_UNSIZED,
    IMAGE_GRADES,
    MEMORY_GRADES,
    MEMORY_WORDS,
    PAYLOAD_GRADES,
    RESPONSE_DOCUMENT,
    RETURNS_UNSIZED,
    SCOPED_EVIDENCE,
    SCOPED_GRADES,
    SCRIPT_GRADES,
    SMALL_IMAGE,
    STATE_KEY,
    STATEMENT_GRADES,
    STATEMENT_WORDS,
    WALK_GRADES,
    describe_payload,
    describe_script,
    describe_statement,
    grows,
    long_text,
    named_state,
    payload_evidence,
    script_evidence,
    shown,
    statement_evidence,
    token_list,
)
from asynclint.knowledge.frameworks import (
    EXAMPLE_FREQUENCY,
    FREQUENT,
    ONCE_FREQUENCY,
    RARE_ROOT_FREQUENCIES,
    RECOVERY_FREQUENCY,
)
from asynclint.model import Severity

#: How often a root runs, in the words a finding uses (``Facts.frequency`` keeps the key).
FREQUENCY_WORDS: dict[str, str] = {
    "rollout": "per rollout",
    "turn": "per turn",
    "tool": "per tool call",
    "group": "per group, back to back",
    "group-call": "once per group",
    "search": "per state and branch of a memoized search, back to back",
    "call": "per call",
    "first-call": "first call only",
    "first-turn": "on a rollout's first turn only",
    EXAMPLE_FREQUENCY: "once per example (the first rollout of each group)",
    "last-turn": "on a rollout's last turn only",
    "failure": "only on the way to raising an error or after an attempt failed: once per failure",
    RECOVERY_FREQUENCY: "once per failure",
    ONCE_FREQUENCY: "once per process, when first needed",
}


#: Payloads sized by what they are called, when nothing traced says what they hold: the words the
#: evidence ends with, so that a reader sees the size is the author's name for it, not provenance.
NAMED_SHAPES: dict[str, str] = {"name": "by its name", "attr": "by its name", "key": "by its key"}


@dataclass(frozen=True)
class Cost:
    """The cost class of one call and the evidence it rests on."""

    name: str
    evidence: str
    #: The payload is a loop variable, so the cost already counts the whole loop.
    loop_counted: bool = False
    #: The payload is one turn's share of the rollout in a loop over the turns: the cost counts the loops on the way.
    turns_counted: bool = False
    #: For a payload- or code-graded call, what the evidence says of the payload's size (``constant``, ``small``,
    #: ``unknown``, ``whole``, ``growing``); "" for every other call.
    size: str = ""


#: The cost of a call to an API the project's configuration gives a severity (``blocking-apis``):
#: graded by that severity, whatever the evidence says.
CONFIGURED = Cost("configured", COST_CLASSES["configured"].reason)


@dataclass(frozen=True)
class Grade:
    severity: Severity
    frequency: str  # a key of FREQUENCY_WORDS
    escalation: str  # why the grade rose one level; empty when it did not


@dataclass(frozen=True)
class CallEvidence:
    """What the code shows about one call, for :func:`cost_of`. ``payload``: (shape, word) of what it
    is handed (:func:`asynclint.analysis.index.argfacts.payload_of`); ``frequency``: how often its root
    runs; ``model``: (class, evidence, field) when the payload is an instance of a project class whose
    fields say how large it is; ``statement``: the SQL the call runs or reads the rows of, or the
    script it runs in a page, when the code says it; ``passed``: when the payload is a helper's
    parameter, the framework hook's parameter every caller hands it ("" when some caller hands it
    anything else): only a framework's value is what its name says; ``bound_at``: the line of the
    local binding whose value the payload is (0: the call's own argument says); ``returned``: when
    the payload is what a project function returns, what its ``return`` statements are evidence of
    (``unknown``: the function's name says); ``method``: the method called (an ``executemany`` runs
    its statement once per item); ``entered``: the call is a ``with`` item's context expression (its
    ``__exit__`` runs at the block's end); ``installed``: a directory walk of a tree rooted in an
    installed one (thousands of files); ``unpacked``: (class, evidence, field) when the payload is a
    mapping the function unpacks into that project class (``WorldState(**data)``): it holds the
    class's fields, so they size it when nothing traced does; ``handed``: (caller, shape, word) when
    the payload is a helper's parameter and the chain graded runs through a call in ``caller`` that
    hands it that whole payload (``CheckContext.handed_whole``): it is that payload, whatever its name;
    ``looped``: the call runs inside a loop on the way from its root; ``returned_growth``: what a project
    function returns, the payload holds a prompt's token ids (``tokens``) or a whole payload that grows every
    turn (``growing``), or neither ("": ``CheckContext.returned_growth``)."""

    payload: tuple[str, str] = ("", "")
    frequency: str = ""
    model: tuple[str, str, str] | None = None
    statement: str | None = None
    passed: str | None = None
    bound_at: int = 0
    returned: str | None = None
    method: str | None = "execute"
    entered: bool = False
    installed: bool = False
    unpacked: tuple[str, str, str] | None = None
    handed: tuple[str, str, str] | None = None
    looped: bool = False
    returned_growth: str = ""


_GROWING = "(it grows every turn and is processed again inside the turn: quadratic per rollout)"
#: A prompt's token ids (or a trajectory step's prompt) handled in a loop once per rollout: the loop goes over the
#: turns, each turn's field holds the whole prompt at that turn, and together they are the trajectory's tokens
#: (session 26, turns22).
_TURNS = "(one turn's whole prompt, inside a loop over the turns: every turn's prompt, quadratic per rollout)"


#: A statement's grades and words by its entry's cost: on disk, in autocommit mode, in memory.
_STATEMENT_TABLES: dict[str, tuple[dict[str, str], dict[str, str]]] = {
    "statement": (STATEMENT_GRADES, STATEMENT_WORDS),
    "statement-autocommit": (AUTOCOMMIT_GRADES, AUTOCOMMIT_WORDS),
    "statement-memory": (MEMORY_GRADES, MEMORY_WORDS),
}


def _statement(api: BlockingApi, call: CallEvidence) -> Cost:
    evidence = statement_evidence(call.statement, call.method)
    grades, words = _STATEMENT_TABLES[api.cost]
    return Cost(grades[evidence], describe_statement(evidence, call.statement, words))


def _script(api: BlockingApi, call: CallEvidence) -> Cost:
    evidence = script_evidence(call.statement)
    return Cost(SCRIPT_GRADES[evidence], describe_script(evidence, call.statement))


def _archive(api: BlockingApi, call: CallEvidence) -> Cost:
    grade = ARCHIVE_GRADES["memory" if call.payload[0] == "memory" else "file"]
    return Cost(grade, COST_CLASSES[grade].reason)


def _archive_member(api: BlockingApi, call: CallEvidence) -> Cost:
    grade = ARCHIVE_MEMBER_GRADES["memory" if call.payload[0] == "memory" else "file"]
    return Cost(grade, COST_CLASSES[grade].reason)


def _image(api: BlockingApi, call: CallEvidence) -> Cost:
    grade = IMAGE_GRADES["small" if call.payload == SMALL_IMAGE else "other"]
    return Cost(grade, COST_CLASSES[grade].reason)


def _walk(api: BlockingApi, call: CallEvidence) -> Cost:
    grade = WALK_GRADES["installed" if call.installed else "other"]
    return Cost(grade, COST_CLASSES[grade].reason)


def _scoped(api: BlockingApi, call: CallEvidence) -> Cost:
    evidence = "entered" if call.entered else "kept"
    return Cost(SCOPED_GRADES[evidence], SCOPED_EVIDENCE[evidence])


#: Costs a knowledge entry names that the evidence about the call settles, other than a payload's
#: size (:data:`~asynclint.knowledge.costs.EVIDENCE_GRADES` says what each may become): how.
SETTLED_BY: dict[str, Callable[[BlockingApi, CallEvidence], Cost]] = {
    "statement": _statement,
    "statement-autocommit": _statement,
    "statement-memory": _statement,
    "script": _script,
    "archive": _archive,
    "archive-member": _archive_member,
    "image": _image,
    "disk-walk": _walk,
    "scoped": _scoped,
}


def cost_of(api: BlockingApi, call: CallEvidence) -> Cost:
    """The cost class of a call to ``api``, from what the code shows about the call (``call``)."""
    if api.severity is not None:
        return CONFIGURED
    settle = SETTLED_BY.get(api.cost)
    if settle is not None:
        return settle(api, call)
    payload, frequency, model, passed = call.payload, call.frequency, call.model, call.passed
    bound_at, returned, unpacked = call.bound_at, call.returned, call.unpacked
    grades = PAYLOAD_GRADES.get(api.cost) or CODE_GRADES.get(api.cost)
    if grades is None:
        return Cost(api.cost, COST_CLASSES[api.cost].reason)
    shape, word = payload
    framework = passed is not None and passed.startswith(FRAMEWORK_HANDED)
    if passed is not None and framework:
        passed = passed.removeprefix(FRAMEWORK_HANDED)
    origin = passed or word
    evidence = payload_evidence(shape, origin)
    if "constant" in grades and shape == "literal":
        evidence = "constant"  # code the source wrote: for ``exec``, the one program known to be cheap
    # A helper's parameter merely named like the whole state is not evidence of it. One named like one
    # small item (``value``, ``params``, ``tool_call``) still reads as one: tokens15 measured the
    # alternative (size unknown, low) on every split, and every labelled line it moved was one reply,
    # one tool call's arguments or a short setting that its callers' dispatch hides (bench/accuracy
    # README, ``tokens15``).
    named_only = passed == "" and evidence == "whole"
    if named_only:
        evidence = "unknown"
    if call.handed is not None:
        evidence, origin, named_only = "whole", call.handed[2], False
    if returned == RETURNS_UNSIZED:
        evidence = "unknown"  # the function's returns say nothing of the size: not its name either
    elif returned is not None and returned != "unknown":
        evidence = returned
    # The project's model of the rollout's state, named ``state``, is as large as its fields say: its
    # name is no evidence of the whole rollout when its class is known.
    if model is not None and (model[1] != "unknown" or named_state(word)):
        cls, evidence, field = model
        short = cls.rpartition(".")[2]
        text = (
            f"a `{short}` (its fields hold scalars only)"
            if evidence == "small"
            else f"a `{short}` holding `{field}`"
            if evidence == "whole"
            else f"a `{short}` (size unknown: its fields are containers such as `{field}`)"
        )
        return Cost(grades[evidence], text, size=evidence)
    # A text holding a reasoning trace is one turn's, of unknown size to a parser in C, but long to a
    # tokenizer: the only tables that name the size ``long``.
    long = "long" in grades and evidence == "unknown" and any(map(long_text, origin.split()))
    if long:
        evidence = "long"
    if unpacked is not None and unpacked[1] != "unknown" and evidence == "unknown":
        cls, evidence, field = unpacked
        short = cls.rpartition(".")[2]
        fields = "scalars only" if evidence == "small" else f"holding `{field}`"
        text = f"a mapping of a `{short}`'s fields ({fields}: the function unpacks it into one)"
        return Cost(grades[evidence], text, loop_counted=shape == "each", size=evidence)
    turns = call.returned_growth == "tokens" or any(map(token_list, origin.split()))
    turns = turns and evidence == "whole" and call.looped and frequency not in FREQUENT
    if evidence == "whole" and frequency == "turn" and shape != "read" and any(map(grows, origin.split())):
        evidence = "growing"
        text = f"`{shown(word)}` {_GROWING}"
    elif evidence == "whole" and frequency == "turn" and call.returned_growth:
        # a prompt's ids through what a helper returns (``**_tok_kwargs(tokens)``) grow as ``prompt_ids`` do, and
        # a history a helper returns (``return state["messages"]``) as the history read directly does
        evidence = "growing"
        text = f"{describe_payload(shape, word, 'whole')} {_GROWING}"
    elif turns:
        evidence = "growing"
        text = f"{describe_payload(shape, word, 'whole')} {_TURNS}"
    else:
        text = describe_payload(shape, word, evidence)
    if call.handed is not None:
        caller, handed_shape, handed_word = call.handed
        handed = describe_payload(handed_shape, handed_word, "whole")
        if evidence == "growing":
            handed = f"`{shown(handed_word)}` {_GROWING}"
        text = f"`{shown(word)}`, which `{caller}` hands {handed}"
    elif passed == HANDED_SMALL:
        text += ", as every call of the function hands it"
    elif passed == HANDED_UNSIZED:
        text = f"`{shown(word)}` (size unknown: every call of the function hands it what a project function returns)"
    elif passed == HANDED_LONG:
        size = "a long text" if long else "size unknown"
        text = f"`{shown(word)}` ({size}: a caller hands it a model's reply with its reasoning trace)"
    elif framework:
        text += f", what the framework hands the hook as its `{passed}`"
    elif passed and passed != word:
        text += f", the hook's `{passed}` handed on"
    elif named_only:
        text = f"`{shown(word)}` (size unknown: a helper's parameter, not the framework's value of that name)"
    if returned in ("small", "whole") and STATE_KEY in word:
        # inside the parentheses: after them it would read "...of the state on the event loop"
        note = f"as the project fills {'those keys' if word.count(STATE_KEY) > 1 else 'that key'} of the state"
        text = f"{text[:-1]}, {note})" if text.endswith(")") else f"{text}, {note}"
    if bound_at:  # inside the parentheses too: after them it runs into "on the event loop"
        note = f"as bound at line {bound_at}"
        text = f"{text[:-1]}, {note})" if text.endswith(")") else f"{text} ({note})"
    elif shape in NAMED_SHAPES and passed is None and returned is None and evidence in ("whole", "growing"):
        text += f", {NAMED_SHAPES[shape]}"  # nothing the code shows about the value: the author's word for it
    cls = grades[evidence]
    if evidence == "small" and shape in FORMED_SHAPES.get(api.cost, ()):
        cls = grades["constant"]
    # a file's contents (or each piece of them, over a loop), a document a web API hands back
    if shape == "read" or word in (RESPONSE_DOCUMENT, FILE_PIECES):
        cls = FILE_CONTENTS_COSTS.get(cls, cls)
    return Cost(cls, text, loop_counted=shape == "each", turns_counted=turns, size=evidence)


def grade(
    base: Severity,
    cost: str,
    frequency: str,
    in_loop: bool,
    first_call: bool,
    failing: bool = False,
    fallback: bool = False,
    off_by_default: bool = False,
) -> Grade:
    """``base`` (the cost class's grade, or the configured one) raised by repetition: inside a
    loop, once per turn, per tool call or per group, where the cost class says the cost adds up
    (``CostClass.raised_by``). Code that runs on a first call only is low, however costly: it
    stalls the rollouts in flight once. So is code that runs only on the way to raising (``failing``:
    a diagnostic read before the call fails): once per failing call, and the rollout fails anyway. A
    fallback (``fallback``: it runs only when an attempt before it raised) is not raised: what repeats
    is the attempt, not it. A feature off by default (``off_by_default``: a test of the instance's
    defaults keeps it from running) is low: it costs only where a user turns it on, and the message
    says which setting does."""
    if first_call:
        return Grade(min(base, Severity.LOW), "first-call", "")
    if failing:
        return Grade(min(base, Severity.LOW), "failure", "")
    if frequency in RARE_ROOT_FREQUENCIES:  # once per failure or per process: low, like an error path
        return Grade(min(base, Severity.LOW), frequency, "")
    if off_by_default:
        return Grade(min(base, Severity.LOW), frequency, "")
    raised_by = COST_CLASSES[cost].raised_by
    if base >= Severity.CRITICAL or fallback:
        return Grade(base, frequency, "")
    if in_loop and "loop" in raised_by:
        return Grade(base.escalated(), frequency, "inside a loop")
    if frequency in raised_by:
        return Grade(base.escalated(), frequency, f"runs {FREQUENCY_WORDS[frequency]}")
    return Grade(base, frequency, "")
