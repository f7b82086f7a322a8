"""Messages rendered from a finding's facts: the words are here, the facts are in the finding."""

from __future__ import annotations

import re

from asynclint.grading import FREQUENCY_WORDS
from asynclint.knowledge.frameworks import EVAL_TABLE, EXAMPLE_FREQUENCY, GROUP_SIZE_SETTING, GroupSize, version_caveat
from asynclint.knowledge.programs import BY_NAME
from asynclint.model import Facts, RelatedLocation, split_place

#: The message of a read of a lazy stream (:data:`asynclint.knowledge.streams.LAZY_STREAMS`).
STREAM_READ = "`{callee}` {what} {where}"


def call_message(template: str, facts: Facts, what: str, memoized: tuple[str, str] | None, verb: str = "") -> str:
    """The message of a blocking call on a hot path, from its rule's ``template`` (``Rule.message``):
    ``what`` the call does, or the ``verb`` a template completes with its payload."""
    # A payload-graded call names its payload; the file variants (``json.load(f)``) read a file.
    payload = facts.evidence if facts.cost.startswith("payload") else "a file"
    if facts.cost == "stream-read":
        # The read of a stream an offloaded call returned, whichever rule files the call: the wait
        # the rule's words name (the network's, a subprocess's) was the worker's.
        template = STREAM_READ
    on_loop = " on the event loop"
    if facts.awaited:  # an async API that does sync work before it yields
        awaited = f"`{facts.entered}`" if facts.library else "it"
        on_loop += f" although {awaited} is awaited (it {facts.awaited})"
    text = template.format(
        callee=facts.callee,
        what=what + on_loop,
        verb=verb,
        on_loop=on_loop,
        where=where(facts, memoized),
        payload=payload,
    )
    if facts.inherited_from:  # every call template opens with the callee quoted
        named = f"`{facts.callee}`"
        text = text.replace(named, f"{named} (inherited from `{facts.inherited_from}`)", 1)
    if facts.members:  # a receiver of one of several classes: the call blocks whichever is held
        named = f"`{facts.callee}`"
        either = " / ".join(f"`{member}`" for member in facts.members)
        text = text.replace(named, f"{named} (whichever of {either} runs)", 1)
    if facts.folded:
        text += folded(facts.folded)
    if facts.read:
        text = f"reading the property {text}"
    if facts.library:
        through = f", through {facts.library}" if facts.library != facts.entered_library else ""
        text = f"inside `{facts.entered}` ({facts.entered_library}{through}): {text}"
    elif facts.twin and not facts.handed_through:
        # (Inside a library, the twin of what it calls is not the project's fix.)
        text += f"; use {facts.twin}"
    elif facts.member_twins and not facts.handed_through:
        text += "; use " + " / ".join(
            f"{each.twin} (for {' / '.join(f'`{cls}`' for cls in each.members)})" for each in facts.member_twins
        )
    if facts.sync_method:
        distribution = facts.sync_in.partition(" ")[0]
        handed = ""
        if facts.handed_to:
            owner, _, slot = facts.handed_to.partition(".")
            handed = f" (the client handed to `{owner}` as `{slot}` at {facts.handed_at})"
        return (
            f"`{facts.sync_method}` is a sync method in {facts.sync_in} (async from {facts.async_from} on), "
            f"so the call blocks: {text}{handed}; upgrade to {distribution} >= {facts.async_from}, "
            "or offload the call"
        )
    if facts.handed_to:
        owner, _, slot = facts.handed_to.partition(".")
        handed = f"the client handed to `{owner}` as `{slot}` at {facts.handed_at}"
        if facts.run_by_framework:
            text = (
                f"`{facts.root}`, which the framework runs itself, calls the client handed here to `{owner}` as "
                f"`{slot}`, without awaiting: {text}; "
                f"override `{facts.handed_through}` in a subclass that awaits an async client, or use another class"
            )
        elif facts.handed_through:  # the framework awaits the client's calls: handing it an async one is the fix
            text = f"`{owner}.{facts.handed_through}` calls {handed}: {text}; hand it an async client"
        else:
            text += f" ({handed})"
    return text


#: What a content call does with the file object its finding's opener opened, by the callee's last name.
_CONTENT_VERBS = (
    (("load", "loads", "safe_load", "full_load", "reader", "DictReader", "parse"), "parses it with"),
    (("dump", "safe_dump", "writer", "DictWriter"), "serializes into it with"),
    (("write", "writelines", "writestr", "truncate", "flush"), "writes it with"),
    (("read", "readline", "readlines", "read_text", "read_bytes"), "reads it with"),
    (("copyfileobj",), "copies it with"),
)


def folded(contents: tuple[str, ...]) -> str:
    """Said after an opener's message: what its function does with the file object, and where
    (``Facts.folded``: ``callee:line`` each) -- ``and parses it with `json.load` at line 6``."""
    said = []
    for content in contents:
        callee, _, line = content.rpartition(":")
        name = callee.rpartition(".")[2]
        verb = next((verb for names, verb in _CONTENT_VERBS if name in names), "uses it in")
        said.append(f"{verb} `{callee}` at line {line}")
    return " and " + ", and ".join(said)


def related(facts: Facts) -> tuple[RelatedLocation, ...]:
    """The places off the chain a finding's facts name, in the order the story happens: where the
    client was built, then where it was handed to the framework (one place when it is built in the
    hand-over, ``judge_client=OpenAI()``)."""
    if not facts.handed_at:
        return ()
    owner, _, slot = facts.handed_to.partition(".")
    handed = f"handed to `{owner}({slot}=...)`"
    if facts.run_by_framework:  # the finding sits at the hand-over: only where it was built is elsewhere
        built = facts.built_at != facts.handed_at and facts.built_at
        return (_location(facts.built_at, f"the client {handed} is built here"),) if built else ()
    if facts.built_at == facts.handed_at:
        return (_location(facts.handed_at, f"the client is built and {handed} here"),)
    handed_here = _location(facts.handed_at, f"the client is {handed} here")
    if not facts.built_at:
        return (handed_here,)
    return (_location(facts.built_at, f"the client {handed} is built here"), handed_here)


def _location(at: str, message: str) -> RelatedLocation:
    path, line, column = split_place(at)
    return RelatedLocation(path, line, message, column)


def where(facts: Facts, memoized: tuple[str, str] | None) -> str:
    """In which function, reached from which entry point, where that runs and how often."""
    entry = f"{facts.root_kind} `{facts.root}`"
    if facts.function == facts.root and not facts.via and not facts.through:
        text = f"in {entry}"
    else:
        steps = facts.through or ("",) * (len(facts.via) + 1)
        text = f"in `{facts.function}`, called from {entry}{_through(steps[0])}"
        if facts.via:
            text += " via " + " → ".join(
                f"`{name}`{_through(step)}" for name, step in zip(facts.via, steps[1:], strict=True)
            )
    notes = (facts.root_note, version_caveat(facts.admitted, facts.assumed_from) if facts.admitted else "")
    if any(notes):
        text += ", " + "; ".join(filter(None, notes))
    return f"{text} ({_how_often(facts, memoized)})"


def _through(library_function: str) -> str:
    """Said after a step of the way whose call runs ``library_function``, which calls the next one back."""
    if library_function == BY_NAME:
        return " (dispatched by name)"
    return f" through `{library_function}`" if library_function else ""


def _how_often(facts: Facts, memoized: tuple[str, str] | None) -> str:
    if facts.frequency == "first-call":
        if facts.cache_miss:
            return (
                f"{facts.context}, on a cache miss only: `{facts.first_call}` computes it when its cache on disk "
                "has no file for the key and writes one, once per key per machine; it stalls every rollout in "
                f"flight once -- fill the cache ahead of time (call `{facts.first_call}` for each key at start-up "
                "or in a set-up script) to take it off the loop"
            )
        if memoized is not None and memoized[0] == facts.first_call:
            why = f"`{memoized[0]}` is memoized by `{memoized[1]}`"
        else:
            why = f"`{facts.first_call}` builds it lazily"
        return (
            f"{facts.context}, on the first call only: {why}; it stalls every rollout in flight once "
            f"-- call `{facts.first_call}` at start-up (`load_environment`, `__init__`) to take it off the loop"
        )
    if facts.frequency == EXAMPLE_FREQUENCY and facts.first_call:
        return f"{facts.context}, once per example (the first rollout of each group; cached by `{facts.first_call}`)"
    text = f"{facts.context}, {FREQUENCY_WORDS.get(facts.frequency, facts.frequency)}"
    if facts.fallback:
        return f"{text}; only when an attempt before it failed: not graded up for repetition"
    if facts.off_by_default:
        named = list(dict.fromkeys(_settings(facts.off_by_default)))
        settings = ", ".join(f"`{name}`" for name in named)
        if named and all(_none_tested(name, facts.off_by_default) for name in named):
            return (
                f"{text}; only when {settings} {'is' if len(named) == 1 else 'are'} set (`None` by default): graded low"
            )
        return f"{text}; only when {settings} is changed from its default (off by default): graded low"
    if facts.escalation.startswith("runs "):
        return f"{text}: graded one level up"
    if facts.escalation:
        return f"{text}; {facts.escalation}: graded one level up"
    return text


def also_inside(codes: tuple[str, ...]) -> str:
    """Said after a library finding that stands for several blocking calls behind one call."""
    kinds = ", ".join(sorted(set(codes)))
    return f" (and {len(codes)} more blocking call{'s' if len(codes) > 1 else ''} inside: {kinds})"


def suppression_message(facts: Facts) -> str:
    """Why a suppression comment is dead weight (ASL901): what it lists that hides nothing."""
    reasons = []
    if facts.unused == ("ignore",) and not facts.unknown:
        reasons.append("no finding on the line it covers")
    elif facts.unused:
        listed = ", ".join(f"`{part}`" for part in facts.unused)
        reasons.append(f"{listed} {'hides' if len(facts.unused) == 1 else 'hide'} no finding on the line it covers")
    if facts.unknown:
        listed = ", ".join(f"`{part}`" for part in facts.unknown)
        reasons.append(f"{listed} {'is' if len(facts.unknown) == 1 else 'are'} no asynclint rule code or name")
    return f"`{facts.suppression}` suppresses nothing: {'; '.join(reasons)}"


def group_size(size: GroupSize) -> str:
    """A group's size and what says so: "a group of 3 rollouts (verifiers' default
    `rollouts_per_example`)"."""
    source = {
        "eval-table": f"`{GROUP_SIZE_SETTING}` = {size.count} in `[{EVAL_TABLE}]`",
        "project": f"`{GROUP_SIZE_SETTING}` = {size.count}",
        "default": f"verifiers' default `{GROUP_SIZE_SETTING}`",
    }[size.source]
    return f"a group of {size.count} rollouts ({source})"


def _none_tested(setting: str, test: str) -> bool:
    """Does ``test`` compare ``setting`` with ``None`` (``self._evidence_dir is not None``)? Then it is a
    setting that is off until set, not one changed from another value."""
    return re.search(rf"(?<![\w.]){re.escape(setting)} is (not )?None\b", test) is not None


def _settings(test: str) -> list[str]:
    """The settings an off-by-default test reads: its dotted names that are not called
    (``self.log``, ``camera.config.record_video``; not ``path.exists`` in ``path.exists()``)."""
    return [
        found.group()
        for found in re.finditer(r"\b[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+", test)
        if not test[found.end() :].lstrip().startswith("(")
    ]
