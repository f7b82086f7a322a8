"""Severity = cost class x frequency: the cost model's data, the grade arithmetic, facts on
findings, and baselines that fingerprint facts rather than words."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import check_text

from asynclint import baseline
from asynclint.analysis.index.records import ModuleSummary
from asynclint.config import Config
from asynclint.engine import SourceFile, summarize
from asynclint.grading import FREQUENCY_WORDS, SETTLED_BY, grade
from asynclint.knowledge.blocking import BUILTIN_APIS
from asynclint.knowledge.costs import (
    AUTOCOMMIT_WORDS,
    CATEGORY_COSTS,
    CODE_GRADES,
    COST_CLASSES,
    EVIDENCE_GRADES,
    PAYLOAD_GRADES,
    SCRIPT_GRADES,
    SCRIPT_WORDS,
    STATEMENT_GRADES,
    STATEMENT_WORDS,
    describe_statement,
    payload_evidence,
    script_evidence,
    statement_evidence,
)
from asynclint.model import Finding, MemberTwin, Severity
from asynclint.pipeline import check_sources
from asynclint.rules import ALL_RULES, phrasing

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def check_examples():
    paths = sorted(EXAMPLES.rglob("*.py"))
    sources = [
        SourceFile(
            str(p.relative_to(EXAMPLES)),
            p.read_text(encoding="utf-8"),
            module=".".join(p.relative_to(EXAMPLES).with_suffix("").parts),
            package="",
        )
        for p in paths
    ]
    return sources, check_sources(sources, Config(root=EXAMPLES))


def test_every_catalogue_entry_names_a_known_cost():
    known = set(COST_CLASSES) | set(EVIDENCE_GRADES)
    unknown = sorted({api.cost for api in BUILTIN_APIS} - known)
    assert not unknown, unknown
    assert set(CATEGORY_COSTS.values()) <= known
    for grades in PAYLOAD_GRADES.values():
        # ``constant``: a table may grade a literal the source wrote below one small item (a tokenizer's);
        # ``long``: a text holding a reasoning trace above one of unknown size (a tokenizer's, too)
        assert set(grades) - {"constant", "long"} == {"small", "unknown", "whole", "growing"}
        assert set(grades.values()) <= set(COST_CLASSES)
    assert set(EVIDENCE_GRADES["statement"].values()) <= set(COST_CLASSES)


@pytest.mark.parametrize(
    ("sql", "evidence"),
    [
        ("BEGIN", "trivial"),
        ("begin immediate", "trivial"),
        ("COMMIT", "commit"),
        ("SELECT body, subject FROM emails WHERE message_id = ?;", "lookup"),
        ("SELECT message_id, from_address FROM emails WHERE message_id = ?", "lookup"),  # FROM inside a name
        ("-- one row\nSELECT a FROM t WHERE id = ? AND kind = 'x'", "lookup"),
        ("SELECT a FROM t", "query"),  # no key: the whole table
        ("SELECT a FROM t WHERE body LIKE ?", "query"),
        ("SELECT e.id FROM emails e JOIN emails_fts f ON e.id = f.rowid WHERE f MATCH ?", "query"),
        ("SELECT a FROM t, u WHERE t.id = u.id", "query"),  # two tables
        ("SELECT a FROM t WHERE id = ? ORDER BY date", "query"),
        ("SELECT a FROM t WHERE id IN (SELECT id FROM u WHERE k = ?)", "query"),
        ("INSERT INTO t VALUES (?, ?)", "row-write"),
        ("INSERT OR REPLACE INTO documents (id, path) VALUES (?, ?)", "row-write"),
        ("INSERT INTO t VALUES (?, ?), (?, ?)", "query"),  # two rows
        ("INSERT INTO t (a) SELECT a FROM u", "query"),
        ("UPDATE t SET a = ? WHERE id = ?", "row-write"),
        ("UPDATE t SET a = a + 1", "query"),  # every row
        ("DELETE FROM t WHERE id = ?", "row-write"),
        ("DELETE FROM t WHERE body LIKE ?", "query"),
        ("DELETE FROM t", "query"),
        ("CREATE TABLE IF NOT EXISTS t (id TEXT PRIMARY KEY, created TEXT DEFAULT CURRENT_TIMESTAMP)", "schema"),
        ("create unique index if not exists t_id on t (id); CREATE TABLE IF NOT EXISTS u (a)", "schema"),
        ("CREATE TABLE t (id TEXT)", "ddl"),  # fails or creates: not a check, a table from its columns
        ("CREATE TEMP TABLE t (id TEXT); CREATE TABLE u (a)", "ddl"),
        ("CREATE TABLE t AS SELECT * FROM u", "query"),  # runs its query
        ("CREATE TABLE t (id TEXT) AS SELECT 1", "query"),
        ("CREATE INDEX t_id ON t (id)", "query"),  # reads every row of the table
        ("CREATE TABLE IF NOT EXISTS t (a); DROP TABLE u", "query"),
        (None, "built"),
    ],
)
def test_statement_evidence(sql, evidence):
    assert statement_evidence(sql) == evidence


def test_executemany_writes_a_row_per_item():
    """The same one-row ``INSERT`` run by ``executemany`` writes as many rows as it is handed."""
    insert = "INSERT INTO t (a) VALUES (?)"
    assert (statement_evidence(insert, "execute"), statement_evidence(insert, "executemany")) == ("row-write", "query")


@pytest.mark.parametrize(
    ("script", "evidence"),
    [
        ("return window.pageYOffset;", "quick"),
        ("Object.defineProperty(navigator, 'webdriver', {get: () => undefined})", "quick"),
        ("window.onkeydown = function(e) {e.preventDefault();};", "quick"),
        ("document.title = 'click here'; // then open the menu", "quick"),  # words in strings and comments
        ("document.body.click();", "page"),
        ("arguments[0].submit()", "page"),
        ("window.location = arguments[0]", "page"),
        ("return fetch('/api').then(r => r.json())", "page"),
        ("return (async () => 1)()", "page"),  # a promise, awaited by the driver
        (None, "built"),
    ],
)
def test_script_evidence(script, evidence):
    assert script_evidence(script) == evidence


@pytest.mark.parametrize(
    ("shape", "word", "evidence"),
    [
        ("literal", "", "small"),
        ("item", "messages", "small"),
        ("name", "state", "whole"),
        ("key", "trajectory", "whole"),
        ("key", "answer", "small"),
        ("name", "state_id", "small"),  # a name that merely contains "state"
        ("name", "game_state", "unknown"),  # the environment's own small structure
        ("name", "chat_history", "whole"),
        ("name", "blob", "unknown"),
        ("display", "reason error", "small"),
        ("display", "reason state", "whole"),
        ("read", "", "whole"),
        ("each", "messages", "whole"),
        ("call", "get_state", "unknown"),  # a library's getter: its own state (jericho's RAM), not the rollout's
        ("call", "get_answer", "small"),
        ("call", "get_game_state", "unknown"),
        # What a project function returns, before the graph settles it: as its name says (a getter: what it names).
        ("returned", "pkg.env.get_state|0", "whole"),
        ("returned", "<self>pkg.env.Env._last_json|", "unknown"),
        ("returned", "<self>pkg.env.Env.get_state|", "whole"),  # a method on self: its dotted name too
    ],
)
def test_payload_evidence(shape: str, word: str, evidence: str):
    assert payload_evidence(shape, word) == evidence


def test_frequency_raises_only_costs_that_add_up():
    assert grade(Severity.MEDIUM, "cpu-heavy", "turn", False, False).severity == Severity.HIGH
    # A few ms of local disk per turn, per tool call or per file of a step's loop stays a few ms
    # each time; back to back for a whole group it is one stall of the group's size.
    assert grade(Severity.HIGH, "disk-content", "turn", True, False).severity == Severity.HIGH
    assert grade(Severity.HIGH, "disk-content", "tool", False, False).severity == Severity.HIGH
    grouped = grade(Severity.HIGH, "disk-content", "group", False, False)
    assert (grouped.severity, grouped.escalation) == (Severity.CRITICAL, "runs per group, back to back")
    assert grade(Severity.HIGH, "local-store", "tool", False, False).severity == Severity.CRITICAL
    assert grade(Severity.LOW, "disk-metadata", "turn", True, False).severity == Severity.LOW
    assert grade(Severity.LOW, "payload-unknown", "group", False, False).severity == Severity.LOW
    rolled = grade(Severity.HIGH, "disk-content", "rollout", False, False)
    assert (rolled.severity, rolled.escalation) == (Severity.HIGH, "")
    # Already critical: nothing rose, so nothing may say "graded one level up".
    assert grade(Severity.CRITICAL, "network", "turn", True, False).escalation == ""
    # A history re-dumped per turn counts its turns already; a loop inside the turn still adds up.
    assert grade(Severity.HIGH, "payload-growing", "turn", False, False).severity == Severity.HIGH
    assert grade(Severity.HIGH, "payload-growing", "turn", True, False).severity == Severity.CRITICAL
    first = grade(Severity.CRITICAL, "network", "turn", True, True)
    assert (first.severity, first.frequency) == (Severity.LOW, "first-call")
    assert set(FREQUENCY_WORDS) >= {"rollout", "turn", "tool", "group", "call", "first-call"}


GROUP_LOOPS = """\
import httpx
import verifiers as vf


async def built_group(states, **kwargs) -> list[float]:
    for state in states:
        httpx.Client()  # group
        for name in state["names"]:
            httpx.Client()  # loop
    return [1.0] * len(states)


class GroupRubric(vf.Rubric):
    async def score_group(self, states):
        for state in states:
            httpx.Client()  # group


async def built_each(state, **kwargs) -> float:
    for name in state["names"]:
        httpx.Client()  # loop
    return 1.0


rubric = vf.Rubric(funcs=[built_group, built_each])
"""


def test_a_group_loop_raises_a_call_by_its_frequency_not_as_a_loop():
    """A call written in a group call's loop over the group (a group reward's, a rubric's
    ``score_group``) runs once per rollout of the group, back to back: the message says so, not
    "inside a loop". A loop of its own inside that one is a loop, as in a per-rollout reward."""
    result = check_text(GROUP_LOOPS)
    lines = GROUP_LOOPS.splitlines()
    said = {(lines[f.line - 1].rpartition("# ")[2], f.facts.escalation) for f in result.findings}
    assert said == {("group", "runs per group, back to back"), ("loop", "inside a loop")}
    assert len(result.findings) == 4


def test_graded_one_level_up_is_said_only_when_the_grade_rose():
    _, result = check_examples()
    assert result.findings
    for finding in result.findings:
        said = "graded one level up" in finding.message
        assert said == bool(finding.facts.escalation), finding.message


def test_findings_carry_their_facts():
    _, result = check_examples()
    by_callee = {(f.facts.callee, f.line): f for f in result.findings}
    [dump] = [f for (callee, _), f in by_callee.items() if callee == "json.dumps"]
    facts = dump.facts
    assert (facts.cost, facts.frequency, facts.context) == ("payload-whole", "rollout", "env loop")
    assert "trajectory" in facts.evidence and facts.root == facts.function == "trajectory_bytes"
    assert facts.knowledge == "catalogue"
    for finding in result.findings:
        assert finding.facts.function and finding.facts.root and finding.facts.frequency
        assert finding.facts.cost in COST_CLASSES


def test_a_payload_proven_small_is_shown_with_its_evidence_when_the_rule_is_graded_by_configuration():
    """A call whose payload is proven small makes no finding; the way to see why is to give the
    rule a severity in the configuration, which reports every hot call of it with the facts
    (README, "Payload provenance")."""
    text = (
        "import json\nimport verifiers as vf\n\n"
        "def last_reply(completion):\n    return completion[-1]['content']\n\n"
        "async def score(completion, state) -> float:\n"
        "    return float(bool(json.loads(last_reply(completion))))\n\n"
        "rubric = vf.Rubric(funcs=[score])\n"
    )
    assert not check_text(text).findings
    shown = check_text(text, config=Config(root=Path("."), severity={"ASL111": Severity.LOW})).findings
    [finding] = shown
    assert (finding.facts.size, finding.facts.evidence) == ("small", "what `last_reply` returns (one small item)")


def test_baseline_survives_rewording_every_message(monkeypatch: pytest.MonkeyPatch):
    sources, result = check_examples()
    recorded = baseline.parse(baseline.render(result.findings))
    for rule in ALL_RULES:
        monkeypatch.setattr(rule, "message", "reworded: " + rule.message)
    monkeypatch.setattr(phrasing, "where", lambda facts, memoized: f"somewhere in {facts.function}")
    _, reworded = check_examples()
    assert [f.message for f in reworded.findings] != [f.message for f in result.findings]
    new, known = recorded.split(reworded.findings)
    assert (new, known) == ((), len(result.findings))
    # A different callee at the same place is a new finding.
    changed = replace(reworded.findings[0], facts=replace(reworded.findings[0].facts, callee="other.call"))
    assert recorded.split([changed])[0] == (changed,)


def test_a_version_1_baseline_is_refused_with_a_way_out():
    with pytest.raises(baseline.BaselineError, match="--write-baseline"):
        baseline.parse(json.dumps({"asynclint_baseline": 1, "findings": []}))


def test_an_object_handed_over_is_graded_by_the_cost_model_whatever_its_cost_class(tmp_path: Path):
    """A configured entry with a payload-graded cost on a client handed to a judge rubric, whose
    judge a reward calls, is graded like any call whose payload is unknown (it used to raise
    ``KeyError``)."""
    from asynclint.config import load

    (tmp_path / "pyproject.toml").write_text(
        "[tool.asynclint]\n[[tool.asynclint.blocking-apis]]\n"
        'name = "myjudge.Client.**"\ncategory = "llm"\ncost = "payload"\n'
    )
    text = (
        "import verifiers as vf\nfrom myjudge import Client\n\n\n"
        "async def judged(judge, prompt, completion, answer, state):\n"
        "    return float('yes' in await judge(prompt, completion, answer, state))\n\n\n"
        "def load_environment():\n    return vf.JudgeRubric(judge_client=Client(), funcs=[judged])\n"
    )
    config = load(tmp_path / "pyproject.toml", tmp_path)
    [finding] = check_text(text, "env.py", config).findings
    assert (finding.code, finding.severity, finding.facts.cost) == ("ASL103", Severity.LOW, "payload-unknown")


def test_a_message_says_what_the_call_does_in_words_that_fit_it():
    """A SQLite commit is filed with the database clients (``sdk``) but costs an fsync of a local
    file: its entry's own words, not "waits on a database or remote service"; a payload's binding
    line stays inside the payload's parentheses, before "on the event loop"."""
    text = (
        "import json\nimport sqlite3\nimport verifiers as vf\n\n"
        "conn = sqlite3.connect('x.db')\n\n"
        "async def score(completion, state) -> float:\n"
        "    conn.commit()\n"
        "    data = state['trajectory']\n"
        "    return float(len(json.dumps(data)))\n\n"
        "rubric = vf.Rubric(funcs=[score])\n"
    )
    by_line = {f.line: f.message for f in check_text(text).findings}
    assert by_line[8].startswith("`sqlite3.connect.commit` commits a local database's transaction to disk (an fsync)")
    assert "remote service" not in by_line[8]
    assert "(a whole rollout-sized payload, as bound at line 9) on the event loop" in by_line[10]


def test_a_codec_says_it_encodes_and_a_binding_line_stays_in_parentheses():
    """base64's entries carry their own verb (ASL111's template says "serializes or parses"
    otherwise); a payload with no parenthesis of its own gets one for the line it was bound at."""
    text = (
        "import base64\nimport verifiers as vf\n\n"
        "class Renders(vf.MultiTurnEnv):\n"
        "    async def env_response(self, messages, state, **kwargs):\n"
        "        data = open(state['path'], 'rb').read()\n"
        "        return [{'role': 'user', 'content': base64.b64encode(data).decode()}], state\n"
    )
    [finding] = [f for f in check_text(text).findings if f.code == "ASL111"]
    assert finding.message.startswith("`base64.b64encode` encodes or decodes a file's contents (as bound at line 6)")


def test_every_evidence_table_but_the_payload_sizes_has_a_settler():
    """A cost a knowledge entry names whose class the call's evidence decides is settled by one
    grader of grading.SETTLED_BY, except the payload- and code-graded ones (settled by size): a new
    evidence table without a grader would grade every call of it as the table's own name."""
    assert set(SETTLED_BY) == set(EVIDENCE_GRADES) - set(PAYLOAD_GRADES) - set(CODE_GRADES)
    for name, table in EVIDENCE_GRADES.items():
        assert set(table.values()) <= set(COST_CLASSES), name


def test_every_written_statement_and_script_evidence_has_its_words():
    """A statement or script the code writes out is described by its evidence's words (the tables
    beside the grades); only one built at run time has none, it is described as built, and so is a
    script passed in that fills a new in-memory database (FILLED_SCRIPT): its text is not known."""
    for grades, words in ((STATEMENT_GRADES, STATEMENT_WORDS), (STATEMENT_GRADES, AUTOCOMMIT_WORDS)):
        assert set(words) == set(grades) - {"built", "filled"}
    assert set(SCRIPT_WORDS) == set(SCRIPT_GRADES) - {"built"}
    assert describe_statement("row-write", "INSERT INTO t VALUES (?)", AUTOCOMMIT_WORDS).endswith("(autocommit mode)")


FILE_OBJECTS = """
import json
import tempfile
import verifiers as vf


class E(vf.MultiTurnEnv):
    async def setup_state(self, state):
        with open(state["path"]) as f:
            state["task"] = json.load(f)
        with tempfile.NamedTemporaryFile("w", delete=False) as script:
            script.write(state["code"])
        return state
"""


def test_one_finding_per_file_object_names_what_is_done_through_it():
    """The opener's finding carries the reads, writes and parses made through its file object in
    the function (Facts.folded), graded by the costliest: a temporary file's creation is metadata
    (low), its write content I/O (high)."""
    result = check_text(FILE_OBJECTS)
    found = {(f.line, f.code): f for f in result.findings}
    assert sorted(found) == [(9, "ASL107"), (11, "ASL109")]
    opened, created = found[(9, "ASL107")], found[(11, "ASL109")]
    assert opened.facts.folded == ("json.load:10",)
    assert opened.message.endswith("and parses it with `json.load` at line 10")
    assert created.facts.folded == ("script.write:12",)
    assert created.severity == Severity.HIGH and created.facts.cost == "disk-metadata"
    assert created.message.endswith("and writes it with `script.write` at line 12")


def test_a_cache_on_disk_says_it_fills_on_a_miss():
    # grading/disk_cache.py grades the miss path; here the facts and words that say why.
    fixture = Path(__file__).parent / "fixtures" / "grading" / "disk_cache.py"
    text = fixture.read_text(encoding="utf-8")
    found = {f.line: f for f in check_text(text, fixture).findings}
    lines = text.splitlines()

    def at(written: str) -> Finding:
        return found[next(number for number, line in enumerate(lines, 1) if written in line)]

    fetched = at('example.com/{key}"')  # ``fetch_page``: a reader returned nothing, the rest writes the entry
    assert (fetched.facts.first_call, fetched.facts.cache_miss) == ("fetch_page", True)
    assert "on a cache miss only" in fetched.message and "fill the cache ahead of time" in fetched.message
    assert at('CACHE / f"{key}.profile.json"').facts.cache_miss  # the write behind ``if not force:``
    # The hit path's read, and a miss whose scratch directory is removed on every call: every call.
    hit = at("with path.open() as f")
    assert not hit.facts.cache_miss and hit.facts.first_call == ""
    scratch = at("example.com/s/{key}")
    assert scratch.facts.frequency == "turn" and not scratch.facts.cache_miss


@pytest.mark.parametrize(
    ("stem", "line", "setting"),
    [
        (
            "defaults_later",
            36,
            "`RecordingEnv.record`",
        ),  # ``self._recording``: ``start`` runs behind ``if self.record:``
        ("defaults_fields", 65, "`camera.config.record_video`"),  # ``self._recording``, set behind the field
        ("defaults_fields", 82, "`camera.config.record_video`"),  # a switch field read by its name
    ],
)
def test_a_feature_off_by_default_names_the_switch_that_turns_it_on(stem: str, line: int, setting: str):
    # grading/defaults_*.py grade these low; here the setting the message names: the switch a user
    # changes, not the attribute a method sets behind it.
    fixture = Path(__file__).parent / "fixtures" / "grading" / f"{stem}.py"
    found = {f.line: f for f in check_text(fixture.read_text(encoding="utf-8"), fixture).findings}
    assert found[line].facts.off_by_default
    assert f"only when {setting} is changed from its default (off by default)" in found[line].message


def test_a_setting_off_until_set_is_said_to_be_set():
    # ``if self._evidence_dir is not None:`` (grading/defaults_passed.py): a setting that is ``None`` until a
    # user sets it is "set", not "changed from its default".
    fixture = Path(__file__).parent / "fixtures" / "grading" / "defaults_passed.py"
    found = {f.line: f for f in check_text(fixture.read_text(encoding="utf-8"), fixture).findings}
    assert found[73].facts.off_by_default == "self._evidence_dir is not None"
    assert "only when `self._evidence_dir` is set (`None` by default): graded low" in found[73].message


def test_a_summary_keeps_only_the_writes_that_may_turn_a_switch_on():
    # The graph asks of a switch field's name only whether the project writes it a value that may
    # turn it on: a constant that keeps it off, or a value that reads the same name, is not kept.
    source = (
        "from dataclasses import dataclass\n\n"
        "@dataclass\nclass Config:\n    record_video: bool = False\n\n"
        "def load(record_video=False, fps=30, verbose=None, trace=None):\n"
        "    cfg = Config(record_video=bool(record_video))\n"
        "    cfg.debug = False\n"
        "    setattr(cfg, 'trace', trace)\n"
        "    return {'fps': fps, 'mode': 'fast', 'off': 0}\n"
    )
    summary = summarize(SourceFile("env.py", source, "env", ""), Config(root=Path(".")).catalogue())
    assert isinstance(summary, ModuleSummary)
    assert summary.switch_fields == (("record_video", "False"),)
    assert summary.field_writes == ("cfg", "fps", "mode")


def test_a_hook_parameter_is_what_the_framework_hands_it_whatever_its_name():
    """``env_response``'s second parameter is the rollout's state however the override names it, and
    the message says the framework's name for it; ``call_tool``'s are one tool call (not reported)."""
    text = (
        "import json\nimport verifiers as vf\n\n"
        "class Env(vf.MultiTurnEnv):\n"
        "    async def env_response(self, msgs, st, **kwargs):\n"
        "        json.dumps(st)\n"
        "        return [], st\n\n"
        "    async def call_tool(self, tool_json, max_chars=1024):\n"
        "        return str(json.loads(tool_json))[:max_chars]\n"
    )
    [finding] = [f for f in check_text(text).findings if f.code == "ASL111"]
    assert finding.line == 6 and finding.severity == Severity.HIGH
    assert "what the framework hands the hook as its `state`" in finding.message


SEARCH_HANDED = """
import functools
import json

import verifiers as vf


def _measure(items) -> int:
    return len(json.dumps(items))


def _plan(stops: tuple[str, ...], state: vf.State) -> int:
    @functools.lru_cache(maxsize=None)
    def best(remaining: tuple[str, ...]) -> int:
        value = 0
        for stop in remaining:
            value = max(value, _measure(state["trajectory"]) + best(tuple(s for s in remaining if s != stop)))
        return value

    return best(stops)


class PlanEnv(vf.MultiTurnEnv):
    async def env_response(self, messages: vf.Messages, state: vf.State):
        return [], state

    @vf.cleanup
    async def plan(self, state: vf.State) -> None:
        state["plan"] = _plan(tuple(m["content"] for m in state["completion"]), state)
        state["size"] = _measure(state["completion"])
"""


def test_a_helper_graded_through_the_caller_handing_it_a_whole_payload_keeps_a_searchs_frequency():
    """The chain through one caller (``Uses.hot_through``: ``best`` hands ``_measure`` the whole
    trajectory) runs the call as the hot walk does: per state and branch of the memoized search
    whose loop makes it, not per rollout as the cleanup handler above it."""
    result = check_text(SEARCH_HANDED)
    [measure] = [f for f in result.findings if f.facts.function == "_measure"]
    assert "`_plan.<locals>.best` hands `trajectory`" in measure.message
    assert measure.facts.frequency == "search" and measure.severity == Severity.CRITICAL


def test_a_call_on_either_of_two_clients_names_them_in_facts_and_message() -> None:
    """The receiver kept on ``self`` holds either client (fixture ``grading/either_instance.py``):
    the finding says it blocks whichever runs; a call on one client says nothing of members. The
    async twin named is the one every member's names (``httpx.AsyncClient``), each member's when
    they differ, none when a project member's own method blocks."""
    text = (Path(__file__).parent / "fixtures" / "grading" / "either_instance.py").read_text()
    found = {f.line: f for f in check_text(text, "either_instance.py").findings if f.code in ("ASL102", "ASL104")}
    pooled = found[68]
    assert pooled.facts.members == ("requests.Session", "httpx.Client")
    assert pooled.message.startswith(
        "`requests.Session.get` (whichever of `requests.Session` / `httpx.Client` runs) waits on the network"
    )
    assert pooled.message.endswith("; use one shared `httpx.AsyncClient` and await its methods")
    assert found[48].facts.members == ("either_instance.CachedPages", "requests.Session")
    assert found[48].facts.twin == "" and "; use" not in found[48].message
    assert found[50].facts.twin == pooled.facts.twin  # RetryingSession inherits requests.Session.get
    search = found[105]
    assert search.facts.members == ("exa_py.Exa", "tavily.TavilyClient")
    assert search.facts.twin == "" and search.facts.member_twins == (
        MemberTwin("`exa_py.AsyncExa` and await the call", ("exa_py.Exa",)),
        MemberTwin("`tavily.AsyncTavilyClient` and await the call", ("tavily.TavilyClient",)),
    )
    assert pooled.facts.member_twins == found[48].facts.member_twins == ()
    assert search.message.endswith(
        "; use `exa_py.AsyncExa` and await the call (for `exa_py.Exa`) / "
        "`tavily.AsyncTavilyClient` and await the call (for `tavily.TavilyClient`)"
    )
    # A parameter annotated either of two, which no project call types; one that a call types is not.
    assert found[77].facts.members == ("requests.Session", "httpx.Client")
    assert found[86].facts.members == ()
    single = check_text(
        "import requests\nimport verifiers as vf\n\n\nclass E(vf.MultiTurnEnv):\n"
        "    async def env_response(self, messages, state):\n"
        "        return requests.Session().get(state['url'])\n"
    ).findings
    assert single and all(f.facts.members == () and "whichever" not in f.message for f in single)


def test_a_table_of_a_librarys_callables_is_called_through_the_callable_itself() -> None:
    """``SEARCHES[kind](EXA, q)`` of ``{"search": Exa.search}`` runs ``exa_py.Exa.search``: named
    so, not as an item of it (``exa_py.Exa.search[]``, which the ``exa_py.Exa.**`` family matched),
    and no receiver's union (fixture ``grading/table_callables.py``); a library's own table is
    still called through its items."""
    text = (Path(__file__).parent / "fixtures" / "grading" / "table_callables.py").read_text()
    found = {f.line: f.facts for f in check_text(text, "table_callables.py").findings}
    assert {line: (facts.callee, facts.members) for line, facts in found.items()} == {
        25: ("requests.get", ()),
        26: ("exa_py.Exa.search", ()),
        29: ("swebench.harness.log_parsers.MAP_REPO_TO_PARSER[]", ()),
    }
