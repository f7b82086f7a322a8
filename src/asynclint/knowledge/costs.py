"""The cost model: what a blocking call costs (its cost class) and how the evidence about its
payload moves it; the grade of a finding is its cost class raised by how often it really runs.

A cost class is named by the knowledge entry (``BlockingApi.cost``), or follows from its
category (:data:`CATEGORY_COSTS`). Classes whose cost depends on the size of what is passed
(serializing, parsing, copying) are *payload-graded*: the argument's shape and name decide
(:func:`payload_cost`). Numbers in the reasons were measured on the 2-core machines this
project runs on (``shared/FIELD_GUIDE.md``); a worker-thread hop costs about 41 µs, so a call
cheaper than that is not worth reporting at all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from asynclint.knowledge.frameworks import FREQUENT
from asynclint.model import Severity

C, H, M, L = Severity.CRITICAL, Severity.HIGH, Severity.MEDIUM, Severity.LOW


#: What raises a grade: running inside a loop, and the frequencies of a root that repeat.
REPETITIONS: frozenset[str] = FREQUENT | {"loop"}


@dataclass(frozen=True)
class CostClass:
    name: str
    #: The grade of one call; ``None``: cheaper inline than any way of moving it off the loop.
    severity: Severity | None
    #: The repetitions that raise the grade one level (of :data:`REPETITIONS`): where the cost
    #: adds up. Microsecond costs stay microseconds, however often they run (empty).
    raised_by: frozenset[str]
    reason: str
    #: What the call does, when that says more than its category's words ("does disk I/O").
    what: str = ""
    #: Why only some repetitions raise it, for the docs ("" when every one does, or none).
    raised_why: str = ""


#: A bounded local cost (a small file, one keyed row) adds up only where the calls run back to
#: back in one step of the loop: a sync reward for every rollout of a group. Once per turn or per
#: tool call it is a stall of milliseconds between two model calls of seconds, as it is once per
#: rollout; a loop inside one step writes the few files that step has.
_BACK_TO_BACK = frozenset({"group"})
_BOUNDED = "back to back for a group only: a few ms each, the stall does not grow per turn or tool call"

COST_CLASSES: dict[str, CostClass] = {
    cost.name: cost
    for cost in (
        CostClass("sleep", C, REPETITIONS, "sleeps the whole thread for as long as asked"),
        CostClass("network", C, REPETITIONS, "waits on a remote host: tens of milliseconds to seconds, unbounded"),
        CostClass("child-process", C, REPETITIONS, "waits for a child process: as long as the child runs"),
        CostClass("thread-wait", C, REPETITIONS, "waits for another thread or process: unbounded"),
        CostClass("process-start", M, REPETITIONS, "forks and execs a child process: about a millisecond"),
        CostClass("disk-content", H, _BACK_TO_BACK, "reads, writes, copies or deletes file contents: milliseconds "
                                                    "on a local disk", raised_why=_BOUNDED),
        CostClass("local-store", H, REPETITIONS, "queries a local database or in-process store: disk and CPU, "
                                                 "unbounded for a statement built at run time",
                  what="queries a local database or in-process store"),
        CostClass("local-lookup", H, _BACK_TO_BACK, "a fixed statement reading rows of one table by key: "
                                                    "sub-ms to ms of disk I/O", raised_why=_BOUNDED,
                  what="reads rows of a local database by key"),
        CostClass("client-build", H, REPETITIONS, "builds a TLS context and a connection pool: about 60 ms"),
        CostClass("disk-metadata", L, frozenset(), "one metadata syscall (exists, stat, mkdir, unlink): microseconds "
                                                   "on a local disk", what="makes a filesystem metadata call"),
        CostClass("lazy-open", L, frozenset(), "reads a header only; decoding happens on first use",
                  what="opens a file and reads its header"),
        CostClass("cpu-heavy", M, REPETITIONS, "CPU work holding the GIL: milliseconds to seconds"),
        CostClass("cpu-table", H, REPETITIONS, "fills an m x n table cell by cell in pure Python (edit distance, "
                                               "longest common subsequence): about 0.3 µs a cell, ~100 ms for two "
                                               "texts of 600 characters, growing with the product of their lengths",
                  what="fill a table cell by cell in pure Python"),
        CostClass("cpu-nested", M, REPETITIONS, "nested pure-Python loops whose counts each grow with the data: the "
                                                "steps multiply, milliseconds for a few hundred items each, seconds "
                                                "for a page",
                  what="multiply their steps with the size of the data in pure Python"),
        CostClass("payload-whole", H, REPETITIONS, "a whole state, trajectory, history, dataset or file's contents: "
                                                   "milliseconds, growing with the rollout"),
        CostClass("payload-growing", H, REPETITIONS - {"turn"}, "a history that grows every turn, re-processed inside "
                                                              "the turn: quadratic per rollout",
                  raised_why="loops only: its cost counts the turns"),
        CostClass("payload-whole-fast", M, REPETITIONS, "a whole rollout-sized payload, through a fast serializer"),
        CostClass("payload-unknown", L, frozenset(), "a payload of unknown size: cheap unless it is large"),
        CostClass("payload-small", None, frozenset(), "one reply, one message, a tool call's arguments or a short "
                                                      "literal: microseconds, less than a thread hop (41 µs)"),
        CostClass("trivial", L, frozenset(), "returns at once: microseconds (``time.sleep(0)`` only yields the GIL, "
                                             "``BEGIN`` only marks a transaction)", what="returns at once"),
        CostClass("configured", None, REPETITIONS, "graded by the project's configuration"),
    )
}

#: The cost class of a knowledge entry that does not name one, by its category.
CATEGORY_COSTS: dict[str, str] = {
    "sleep": "sleep",
    "http": "network",
    "llm": "network",
    "sdk": "network",
    "client": "client-build",
    "subprocess": "child-process",
    "open": "disk-content",
    "path": "disk-content",
    "fs": "disk-content",
    "copy": "payload",
    "serialization": "payload",
    "cpu": "cpu-heavy",
    "wait": "thread-wait",
    "browser": "network",
}

#: Payload-graded cost names a knowledge entry may carry: payload evidence -> cost class.
PAYLOAD_GRADES: dict[str, dict[str, str]] = {
    "payload": {
        "small": "payload-small",
        "unknown": "payload-unknown",
        "whole": "payload-whole",
        "growing": "payload-growing",
    },
    # orjson and friends: several times faster than json, one grade lower for the same payload.
    "payload-fast": {
        "small": "payload-small",
        "unknown": "payload-small",
        "whole": "payload-whole-fast",
        "growing": "payload-whole-fast",
    },
}

#: SQL graded by its text (the DB-API entries whose cost is ``statement``: ``execute`` and the
#: ``fetch*`` that reads the rows of the statement last run): evidence -> cost class. A statement
#: built or passed in at run time (model-written SQL, an f-string) is unbounded.
STATEMENT_GRADES: dict[str, str] = {
    "trivial": "trivial",
    "commit": "disk-content",  # an fsync, as ``connection.commit()``
    "rollback": "disk-metadata",  # as ``connection.rollback()``
    "lookup": "local-lookup",
    "query": "local-store",
    "built": "local-store",
}
#: A statement's first keyword that decides its evidence alone.
STATEMENT_LEADS: dict[str, str] = {
    "BEGIN": "trivial", "SAVEPOINT": "trivial", "COMMIT": "commit", "END": "commit", "ROLLBACK": "rollback",
}
#: Words of a ``SELECT`` that make it more than reading rows of one table by key: a join, a
#: full-text or pattern match, sorting, grouping, a union, a subquery's second ``SELECT``.
SCAN_WORDS: frozenset[str] = frozenset(
    "JOIN MATCH LIKE GLOB REGEXP ORDER GROUP UNION DISTINCT EXISTS IN".split()
)


#: Every cost a knowledge entry may name that evidence about the call settles: name -> evidence
#: -> cost class.
EVIDENCE_GRADES: dict[str, dict[str, str]] = {**PAYLOAD_GRADES, "statement": STATEMENT_GRADES}


def statement_evidence(sql: str | None) -> str:
    """A key of :data:`STATEMENT_GRADES` for the SQL text ``sql`` (``None``: built at run time)."""
    if sql is None:
        return "built"
    text = re.sub(r"--[^\n]*|/\*.*?\*/|'[^']*'", " ", sql, flags=re.S).upper()  # comments, string literals
    upper = re.findall(r"\w+|=", text)
    if not upper:
        return "query"
    if upper[0] in STATEMENT_LEADS:
        return STATEMENT_LEADS[upper[0]]
    tables = re.search(r"\bFROM\b(.*?)\bWHERE\b", text, flags=re.S)
    if (
        upper[0] == "SELECT" and upper.count("SELECT") == 1 and tables is not None and "," not in tables.group(1)
        and "=" in upper and not SCAN_WORDS.intersection(upper)
    ):
        return "lookup"
    return "query"


def describe_statement(evidence: str, sql: str | None) -> str:
    """The evidence in words, for messages."""
    if sql is None:
        return "a statement built at run time: unbounded"
    first = " ".join(sql.split())[:40]
    kind = {"lookup": "reads rows of one table by key", "trivial": "returns at once"}.get(
        evidence, "runs on the local database"
    )
    return f"`{first}`: {kind}"


#: Name tokens of a whole rollout-sized payload: the last token of a name, attribute or
#: string key decides (``state["trajectory"]`` and ``chat_history`` are whole,
#: ``state["answer"]`` and ``state_id`` are not).
WHOLE_TOKENS: frozenset[str] = frozenset(
    "trajectory trajectories completion completions messages history histories "
    "transcript transcripts rollout rollouts results records dataset datasets responses outputs logs "
    "documents corpus conversation conversations turns steps contents".split()
)
#: Whole only as the entire name: the rollout's ``state``; a ``game_state`` or ``board_state`` is
#: a small structure of the environment's own.
WHOLE_NAMES: frozenset[str] = frozenset({"state", "states", "rollout_state"})
#: Of those, the ones that grow every turn of a rollout: re-processing them inside a per-turn
#: hook costs a little more every turn.
GROWING_TOKENS: frozenset[str] = frozenset(
    "state trajectory completion messages history transcript conversation turns steps".split()
)
#: Name tokens of one small item: one reply, one message, one tool call's arguments. A rollout's
#: ``prompt`` is its input messages (a system prompt and a question, fixed for the rollout): a
#: message or two, not a history that grows (held-out labels: a deep copy or a ``model_dump`` of
#: one costs microseconds).
SMALL_TOKENS: frozenset[str] = frozenset(
    "content text reply answer arguments args argument line message msg action move guess tool_call prompt "
    "params parameters config settings chunk token key id name label value status error reason".split()
)
#: A getter's result is what its name says after this prefix (``env.get_state()`` is a state).
GETTER_PREFIX = "get_"
#: Methods whose result is the contents of a file or a stream: as large as the file.
CONTENT_READS: frozenset[str] = frozenset("read read_text read_bytes readlines".split())


def payload_evidence(shape: str, word: str) -> str:
    """``small``, ``whole`` or ``unknown`` for a payload argument of ``shape`` whose name,
    attribute or string key is ``word`` (see :func:`asynclint.analysis.index.argfacts.payload_of`)."""
    if shape in ("literal", "item", "match"):
        return "small"
    if shape == "read":
        return "whole"
    if shape == "display":  # ``{"ok": False, "error": reason}``: as large as the names it holds
        return "whole" if any(payload_evidence("name", name) == "whole" for name in word.split()) else "small"
    if shape == "call" and word.lower().startswith(GETTER_PREFIX):
        return payload_evidence("name", word[len(GETTER_PREFIX):])  # ``get_state()`` returns the state
    tokens = word.lower().rsplit("_", 1)
    last = tokens[-1]
    if last in WHOLE_TOKENS or word.lower() in WHOLE_TOKENS or word.lower() in WHOLE_NAMES:
        return "whole"
    if last in SMALL_TOKENS or word.lower() in SMALL_TOKENS:
        return "small"
    return "unknown"


def grows(word: str) -> bool:
    return word.lower().rsplit("_", 1)[-1] in GROWING_TOKENS


def describe_payload(shape: str, word: str, evidence: str) -> str:
    """The evidence in words, for messages: "`state` (a whole rollout-sized payload)"."""
    if shape == "literal":
        return "a short literal"
    if shape == "item":
        return f"one item of `{word}`" if word else "one item"
    if shape == "display":
        return "a short display" if evidence == "small" else f"a display holding `{word}`"
    if shape == "each" and evidence != "unknown":
        kind = "all of it, over the loop" if evidence == "whole" else "one small item at a time"
        return f"every item of `{word}` in turn ({kind})"
    if shape == "read":
        return "a file's contents"
    if shape == "match":
        return "a regex match cut out of a text"
    if not word:
        return "a payload of unknown size"
    kind = {"whole": "a whole rollout-sized payload", "small": "one small item", "unknown": "size unknown"}[evidence]
    return f"`{word}` ({kind})"


# -- loop nests in project code (rule ASL115) -------------------------------------------------

#: Name tokens of a rollout's messages and turns (the last token of a name, attribute or string
#: key decides, as for payloads): a loop over them runs tens of times, however long each message
#: is, so it does not make a loop nest grow with the payload. What is computed *from* them (the
#: text of the last reply) is sized by its characters, not by the count of messages.
FEW_ITEM_TOKENS: frozenset[str] = frozenset(
    "messages completion completions prompt prompts history histories conversation conversations turns steps "
    "trajectory trajectories tool_calls choices".split()
)
#: ``itertools`` functions whose items multiply: iterating one over data that is not a fixed few
#: constants is super-linear by itself (-> what it goes through, in words).
COMBINATORIAL: dict[str, str] = {
    "itertools.permutations": "every ordering",
    "itertools.combinations": "every combination",
    "itertools.combinations_with_replacement": "every combination",
    "itertools.product": "every tuple of the product",
}


#: Name tokens of one short string or a handful of symbols (``word1``, ``guess``, ``token``): a
#: loop over its characters runs a few times (an edit distance of two dictionary words is a few
#: dozen cells, microseconds).
SHORT_ITEM_TOKENS: frozenset[str] = frozenset("word token char letter digit symbol name key id label tag guess".split())


def few_items(word: str) -> bool:
    """A rollout's messages or turns (``completion``, ``state["messages"]``), or one short string
    (``word1``), by the name that holds them: a loop over it runs a few times."""
    lowered = word.lower().rstrip("0123456789")
    last = lowered.rsplit("_", 1)[-1]
    return lowered in FEW_ITEM_TOKENS or last in FEW_ITEM_TOKENS or last in SHORT_ITEM_TOKENS
