"""Unit tests for the report renderers (asynclint.report), one section per format."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import jsonschema
import pytest

from asynclint.baseline import fingerprint
from asynclint.model import ChainLink, Facts, FileError, Finding, FixInfo, RelatedLocation, Result, RuleMeta, Severity
from asynclint.report import FORMATS, render
from asynclint.report.concise import render_concise
from asynclint.report.github import render_github
from asynclint.report.json_report import render_json
from asynclint.report.rich_report import render_rich
from asynclint.report.sarif import artifact_location, render_sarif

DATA = Path(__file__).parent / "data"

HTTP_DOC = "# Blocking HTTP\n\nUse `httpx.AsyncClient` instead of `requests`."
RULES = (
    RuleMeta("ASY100", "blocking-http", "Sync HTTP request", Severity.CRITICAL, True, HTTP_DOC),
    RuleMeta("ASY110", "blocking-file-io", "Synchronous file I/O", Severity.HIGH, False),
    RuleMeta("ASY120", "cpu-heavy", "GIL-heavy computation", Severity.MEDIUM, False),
    RuleMeta("ASY130", "sleep-zero", "Negligible blocking call", Severity.LOW, False),
)

WEIRD_PATH = "src/we,ird:dir/mod.py"  # "," and ":" are delimiters in workflow-command properties
HTTP_CHAIN = (
    ChainLink("src/app/env.py", 10, "Env.setup_state"),
    ChainLink("src/app/env.py", 12, "Env.setup_state"),
    ChainLink("src/app/net.py", 40, "fetch_token"),
)
HTTP_MESSAGE = "`requests.get` blocks the event loop — ünïcode ✓"
CPU_MESSAGE = "100% of the loop;\nliterally %0A, and a [bold]markup[/bold] look-alike :: here"


def make_finding(path, span, code, rule, severity, message, chain=(), fix=None, facts=Facts(), related=()) -> Finding:
    """A finding whose ``span`` is ``(line, column, end_line, end_column)``."""
    return Finding(path, *span, code, rule, severity, message, chain, fix, facts, related=related)


HTTP_FACTS = Facts(
    callee="requests.get",
    function="fetch_token",
    root="Env.setup_state",
    root_kind="per-rollout hook",
    frequency="rollout",
    context="env loop",
    cost="network",
    evidence="waits on a remote host",
    via=("Env.setup_state",),
    knowledge="catalogue",
)

#: Places off the chain: one known to the column, one to the line only.
RELATED = (
    RelatedLocation("src/app/clients.py", 5, "the client handed to `JudgeRubric(judge_client=...)` is built here", 8),
    RelatedLocation(WEIRD_PATH, 22, "the client is handed to `JudgeRubric(judge_client=...)` here"),
)


FINDINGS = (
    make_finding(
        "src/app/env.py",
        (14, 9, 14, 38),
        "ASY100",
        "blocking-http",
        Severity.CRITICAL,
        HTTP_MESSAGE,
        HTTP_CHAIN,
        FixInfo(True, "Use `asyncio.to_thread`"),
        HTTP_FACTS,
    ),
    make_finding(
        "src/app/env.py",
        (30, 5, 31, 2),
        "ASY110",
        "blocking-file-io",
        Severity.HIGH,
        "`open()` reads the disk",
        related=RELATED,
    ),
    make_finding(
        WEIRD_PATH,
        (3, 1, 3, 12),
        "ASY120",
        "cpu-heavy",
        Severity.MEDIUM,
        CPU_MESSAGE,
        (ChainLink(WEIRD_PATH, 1, "Env.rollout"), ChainLink(WEIRD_PATH, 3, "Env.rollout")),
        FixInfo(False, "Offload to a process pool"),
    ),
    make_finding(WEIRD_PATH, (8, 5, 8, 20), "ASY130", "sleep-zero", Severity.LOW, "`time.sleep(0)`"),
)
ERROR = FileError("src/broken.py", "syntax error: unexpected ':' at 3:7")
RESULT = Result(FINDINGS, (ERROR,), 12, RULES)
CLEAN = Result((), (), 1, RULES)

ANSI = re.compile(r"\x1b\[")


# --- json ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def report_schema() -> dict:
    return json.loads((DATA / "asynclint-report.schema.json").read_text(encoding="utf-8"))


def test_json_validates_against_the_contract_schema(report_schema):
    document = json.loads(render_json(RESULT))
    jsonschema.Draft202012Validator(report_schema).validate(document)


def test_json_schema_is_strict(report_schema):
    # A schema that accepts anything would make the test above vacuous.
    document = json.loads(render_json(RESULT))
    document["findings"][0]["extra"] = 1
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(report_schema).validate(document)
    document = json.loads(render_json(RESULT))
    document["findings"][0]["severity"] = "CRITICAL"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(report_schema).validate(document)


def test_json_schema_names_every_frequency(report_schema):
    # The frequencies a finding can carry are grading's keys: a new one (a rollout's last turn, a
    # recovery hook) must reach the published contract, or a consumer validating reports rejects them.
    from asynclint.grading import FREQUENCY_WORDS

    assert report_schema["$defs"]["finding"]["properties"]["facts"] == {"$ref": "#/$defs/facts"}
    assert set(report_schema["$defs"]["facts"]["properties"]["frequency"]["enum"]) == {"", *FREQUENCY_WORDS}


def test_json_schema_enumerates_sizes_and_knowledge_from_their_sources(report_schema):
    # A size or knowledge kind added to the cost model or to Facts must reach the contract: a
    # configured `exec` of a constant is reported with size "constant", which the schema once lacked.
    from asynclint.knowledge.costs import PAYLOAD_SIZES
    from asynclint.model import KNOWLEDGE_KINDS

    facts = report_schema["$defs"]["facts"]["properties"]
    assert facts["size"]["enum"] == ["", *PAYLOAD_SIZES]
    assert facts["knowledge"]["enum"] == list(KNOWLEDGE_KINDS)


def test_json_round_trips_every_value():
    text = render_json(RESULT)
    document = json.loads(text)
    assert list(document) == ["version", "findings", "errors"]
    assert document["version"] == 14
    assert document["findings"][0] == {
        "path": "src/app/env.py",
        "line": 14,
        "column": 9,
        "end_line": 14,
        "end_column": 38,
        "code": "ASY100",
        "rule": "blocking-http",
        "severity": "critical",
        "message": HTTP_MESSAGE,
        "chain": [
            {"path": "src/app/env.py", "line": 10, "function": "Env.setup_state", "through": ""},
            {"path": "src/app/env.py", "line": 12, "function": "Env.setup_state", "through": ""},
            {"path": "src/app/net.py", "line": 40, "function": "fetch_token", "through": ""},
        ],
        "fix": {"safe": True, "title": "Use `asyncio.to_thread`"},
        "facts": {
            "callee": "requests.get",
            "read": False,
            "inherited_from": "",
            "members": [],
            "function": "fetch_token",
            "root": "Env.setup_state",
            "root_kind": "per-rollout hook",
            "root_note": "",
            "admitted": "",
            "assumed_from": "",
            "frequency": "rollout",
            "context": "env loop",
            "cost": "network",
            "evidence": "waits on a remote host",
            "size": "",
            "size_at": "",
            "escalation": "",
            "fallback": False,
            "off_by_default": "",
            "via": ["Env.setup_state"],
            "through": [],
            "first_call": "",
            "cache_miss": False,
            "library": "",
            "entered": "",
            "entered_library": "",
            "also_inside": [],
            "folded": [],
            "knowledge": "catalogue",
            "twin": "",
            "member_twins": [],
            "handed_to": "",
            "handed_through": "",
            "handed_at": "",
            "run_by_framework": False,
            "built_at": "",
            "sync_method": "",
            "sync_in": "",
            "async_from": "",
            "awaited": "",
            "suppression": "",
            "unused": [],
            "unknown": [],
        },
        "related": [],
    }
    assert list(document["findings"][0]) == [
        "path",
        "line",
        "column",
        "end_line",
        "end_column",
        "code",
        "rule",
        "severity",
        "message",
        "chain",
        "fix",
        "facts",
        "related",
    ]
    assert document["findings"][1]["chain"] == []
    assert document["findings"][1]["related"] == [
        {"path": "src/app/clients.py", "line": 5, "column": 8, "message": RELATED[0].message},
        {"path": WEIRD_PATH, "line": 22, "column": None, "message": RELATED[1].message},
    ]
    assert document["findings"][1]["fix"] is None
    assert document["findings"][2]["fix"] == {"safe": False, "title": "Offload to a process pool"}
    assert document["findings"][2]["message"] == CPU_MESSAGE
    assert [f["path"] for f in document["findings"]] == [f.path for f in FINDINGS]
    assert [f["severity"] for f in document["findings"]] == ["critical", "high", "medium", "low"]
    assert document["errors"] == [{"path": "src/broken.py", "message": ERROR.message}]


def test_json_layout():
    text = render_json(RESULT)
    assert text.endswith("}\n")
    assert text.splitlines()[1] == '  "version": 14,'
    assert render_json(Result()) == '{\n  "version": 14,\n  "findings": [],\n  "errors": []\n}\n'


# --- sarif --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def sarif_log() -> dict:
    return json.loads(render_sarif(RESULT))


def test_sarif_validates_against_the_official_schema(sarif_log):
    schema = json.loads((DATA / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
    jsonschema.Draft4Validator(schema).validate(sarif_log)
    jsonschema.Draft4Validator(schema).validate(json.loads(render_sarif(CLEAN)))


def test_sarif_driver_and_rules(sarif_log):
    assert sarif_log["$schema"] == "https://json.schemastore.org/sarif-2.1.0.json"
    assert sarif_log["version"] == "2.1.0"
    (run,) = sarif_log["runs"]
    driver = run["tool"]["driver"]
    assert driver["name"] == "asynclint"
    assert driver["informationUri"] == "https://github.com/asynclint/asynclint"
    assert isinstance(driver["version"], str) and driver["version"]
    assert [rule["id"] for rule in driver["rules"]] == ["ASY100", "ASY110", "ASY120", "ASY130"]
    http = driver["rules"][0]
    assert http["name"] == "blocking-http"
    assert http["shortDescription"] == {"text": "Sync HTTP request"}
    assert http["fullDescription"] == {"text": HTTP_DOC}
    assert http["help"] == {"text": HTTP_DOC, "markdown": HTTP_DOC}
    assert http["defaultConfiguration"] == {"level": "error"}
    assert http["properties"]["severity"] == "critical"
    assert http["properties"]["fixAvailable"] is True
    assert "asyncio" in http["properties"]["tags"]
    # Without a doc, the summary stands in and no markdown is claimed.
    assert driver["rules"][1]["help"] == {"text": "Synchronous file I/O"}
    assert [r["defaultConfiguration"]["level"] for r in driver["rules"]] == [
        "error",
        "error",
        "warning",
        "note",
    ]


def test_sarif_results(sarif_log):
    run = sarif_log["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    results = run["results"]
    assert [r["ruleId"] for r in results] == ["ASY100", "ASY110", "ASY120", "ASY130"]
    assert [r["level"] for r in results] == ["error", "error", "warning", "note"]
    for sarif_result in results:
        assert rules[sarif_result["ruleIndex"]]["id"] == sarif_result["ruleId"]
    first = results[0]
    assert first["message"] == {"text": HTTP_MESSAGE}
    assert first["locations"] == [
        {
            "physicalLocation": {
                "artifactLocation": {"uri": "src/app/env.py", "uriBaseId": "%SRCROOT%"},
                "region": {"startLine": 14, "startColumn": 9, "endLine": 14, "endColumn": 38},
            }
        }
    ]
    assert "fixes" not in first
    assert first["properties"] == {
        "severity": "critical",
        "chain": [
            {"path": "src/app/env.py", "line": 10, "function": "Env.setup_state", "through": ""},
            {"path": "src/app/env.py", "line": 12, "function": "Env.setup_state", "through": ""},
            {"path": "src/app/net.py", "line": 40, "function": "fetch_token", "through": ""},
        ],
        "facts": json.loads(render_json(RESULT))["findings"][0]["facts"],
    }
    assert first["properties"]["facts"]["cost"] == "network"
    (flow,) = first["codeFlows"]
    (thread,) = flow["threadFlows"]
    steps = thread["locations"]
    assert [s["location"]["message"]["text"] for s in steps] == [
        "enter `Env.setup_state`",
        "calls `fetch_token`",
        "blocking call in `fetch_token`",
    ]
    assert [s["location"]["physicalLocation"]["region"]["startLine"] for s in steps] == [10, 12, 40]
    assert [s["location"]["physicalLocation"]["artifactLocation"]["uri"] for s in steps] == [
        "src/app/env.py",
        "src/app/env.py",
        "src/app/net.py",
    ]
    assert [s["nestingLevel"] for s in steps] == [0, 0, 1]
    assert "relatedLocations" not in first
    assert results[1]["relatedLocations"] == [
        {
            "id": 1,
            "physicalLocation": {
                "artifactLocation": {"uri": "src/app/clients.py", "uriBaseId": "%SRCROOT%"},
                "region": {"startLine": 5, "startColumn": 8},
            },
            "message": {"text": RELATED[0].message},
        },
        {
            "id": 2,
            "physicalLocation": {
                "artifactLocation": {"uri": "src/we%2Cird%3Adir/mod.py", "uriBaseId": "%SRCROOT%"},
                "region": {"startLine": 22},
            },
            "message": {"text": RELATED[1].message},
        },
    ]
    assert "codeFlows" not in results[1]
    assert {k: v for k, v in results[1]["properties"].items() if k != "facts"} == {"severity": "high", "chain": []}
    weird = results[2]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert weird == {"uri": "src/we%2Cird%3Adir/mod.py", "uriBaseId": "%SRCROOT%"}


def test_sarif_file_errors_become_notifications(sarif_log):
    (invocation,) = sarif_log["runs"][0]["invocations"]
    assert invocation["executionSuccessful"] is False
    (notification,) = invocation["toolExecutionNotifications"]
    assert notification["level"] == "error"
    assert notification["message"] == {"text": ERROR.message}
    location = notification["locations"][0]["physicalLocation"]["artifactLocation"]
    assert location == {"uri": "src/broken.py", "uriBaseId": "%SRCROOT%"}

    clean = json.loads(render_sarif(CLEAN))["runs"][0]
    assert clean["invocations"] == [{"executionSuccessful": True, "toolExecutionNotifications": []}]
    assert clean["results"] == []


def test_sarif_describes_rules_missing_from_the_metadata():
    finding = make_finding("a.py", (1, 1, 1, 2), "ASY999", "mystery", Severity.LOW, "m")
    run = json.loads(render_sarif(Result((finding,), (), 1, RULES)))["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    index = run["results"][0]["ruleIndex"]
    assert rules[index] == {"id": "ASY999", "name": "mystery"}


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("src/app/env.py", {"uri": "src/app/env.py", "uriBaseId": "%SRCROOT%"}),
        ("src\\app\\env.py", {"uri": "src/app/env.py", "uriBaseId": "%SRCROOT%"}),
        ("my dir/x.py", {"uri": "my%20dir/x.py", "uriBaseId": "%SRCROOT%"}),
        ("/home/me/proj/x.py", {"uri": "file:///home/me/proj/x.py"}),
        ("C:\\proj\\x.py", {"uri": "file:///C:/proj/x.py"}),
    ],
)
def test_sarif_artifact_locations(path, expected):
    assert artifact_location(path) == expected


# --- github -------------------------------------------------------------------------------


def _unescape(text: str, escapes: tuple[tuple[str, str], ...]) -> str:
    for escaped, raw in escapes:
        text = text.replace(escaped, raw)
    return text


# The runner's unescaping, "%25" last so that an escaped "%" is never decoded twice.
DATA_ESCAPES = (("%0D", "\r"), ("%0A", "\n"), ("%25", "%"))
PROPERTY_ESCAPES = (("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ","), ("%25", "%"))


def _parse_command(line: str) -> tuple[str, dict[str, str], str]:
    """Parse a workflow command the way the Actions runner does."""
    assert line.startswith("::")
    head, _, data = line[2:].partition("::")
    command, _, props = head.partition(" ")
    properties = {}
    for pair in filter(None, props.split(",")):
        key, _, value = pair.partition("=")
        properties[key] = _unescape(value, PROPERTY_ESCAPES)
    return command, properties, _unescape(data, DATA_ESCAPES)


def test_github_commands_parse_back():
    text = render_github(RESULT)
    assert text.endswith("\n")
    lines = text.splitlines()
    # Newlines inside messages are escaped, so each command stays on one line.
    assert len(lines) == len(FINDINGS) + 1
    parsed = [_parse_command(line) for line in lines]

    assert parsed[0] == (
        "error",
        {
            "file": "src/app/env.py",
            "line": "14",
            "col": "9",
            "endLine": "14",
            "endColumn": "38",
            "title": "ASY100 (blocking-http)",
        },
        HTTP_MESSAGE + " [via Env.setup_state → fetch_token]",
    )
    # Multi-line ranges carry no columns (the runner would drop them with a warning).
    assert parsed[1] == (
        "error",
        {
            "file": "src/app/env.py",
            "line": "30",
            "endLine": "31",
            "title": "ASY110 (blocking-file-io)",
        },
        "`open()` reads the disk",
    )
    command, properties, message = parsed[2]
    assert command == "warning"
    assert properties["file"] == WEIRD_PATH
    assert message == CPU_MESSAGE + " [via Env.rollout]"
    assert parsed[3][0] == "notice"
    assert parsed[3][1]["col"] == "5" and parsed[3][1]["endColumn"] == "20"
    assert parsed[3][2] == "`time.sleep(0)`"
    assert parsed[4] == ("error", {"file": "src/broken.py"}, ERROR.message)


def test_github_escapes_raw_text():
    lines = render_github(RESULT).splitlines()
    assert "file=src/we%2Cird%3Adir/mod.py," in lines[2]
    assert "100%25 of the loop;%0Aliterally %250A" in lines[2]
    assert render_github(CLEAN) == ""


# --- concise ------------------------------------------------------------------------------


def test_concise_lines():
    assert render_concise(RESULT) == (
        "src/app/env.py:14:9: ASY100 [critical] " + HTTP_MESSAGE + "\n"
        "src/app/env.py:30:5: ASY110 [high] `open()` reads the disk\n"
        f"{WEIRD_PATH}:3:1: ASY120 [medium] {CPU_MESSAGE}\n"
        f"{WEIRD_PATH}:8:5: ASY130 [low] `time.sleep(0)`\n"
        "src/broken.py: error: syntax error: unexpected ':' at 3:7\n"
        "Found 4 findings (1 critical, 1 high, 1 medium, 1 low) in 12 files.\n"
        "1 file could not be analysed.\n"
    )


def test_concise_quiet_and_clean():
    assert render_concise(RESULT, quiet=True).splitlines()[-1] == (
        "src/broken.py: error: syntax error: unexpected ':' at 3:7"
    )
    assert render_concise(CLEAN) == "No findings in 1 file.\n"
    assert render_concise(CLEAN, quiet=True) == ""
    one = Result(FINDINGS[:1], (), 1)
    assert render_concise(one).splitlines()[-1] == "Found 1 finding (1 critical) in 1 file."


def test_statistics_in_ruffs_shape():
    findings = (
        *FINDINGS,
        make_finding("z.py", (1, 1, 1, 5), "ASY110", "blocking-file-io", Severity.CRITICAL, "m"),
        make_finding("z.py", (2, 1, 2, 5), "ASY110", "blocking-file-io", Severity.HIGH, "m"),
    )
    result = Result(findings, (), 3)
    text = (
        "3\tASY110\t[ ] blocking-file-io\n"
        "1\tASY100\t[*] blocking-http\n"
        "1\tASY120\t[ ] cpu-heavy\n"
        "1\tASY130\t[ ] sleep-zero\n"
        "Found 6 findings.\n"
        "[*] 1 fixable with `asynclint check --fix` (1 unsafe fix available with `--fix --unsafe-fixes`).\n"
    )
    assert render(result, "concise", show_statistics=True) == text
    assert render(result, "rich", show_statistics=True) == text  # the same lines: no table, no colour
    assert render(result, "concise", show_statistics=True, quiet=True) == "".join(text.splitlines(True)[:4])
    assert json.loads(render(result, "json", show_statistics=True))[0] == {
        "code": "ASY110",
        "name": "blocking-file-io",
        "count": 3,
        "fixable": False,
        "fixable_count": 0,
    }
    assert render(CLEAN, "concise", show_statistics=True) == "No findings in 1 file.\n"
    with pytest.raises(ValueError, match="--statistics has no sarif form"):
        render(result, "sarif", show_statistics=True)


# --- rich ---------------------------------------------------------------------------------


def test_rich_plain_output_has_everything():
    text = render_rich(RESULT, color=False)
    assert not ANSI.search(text)
    for expected in (
        "src/app/env.py",
        WEIRD_PATH,
        "ASY100",
        "ASY110",
        "ASY120",
        "ASY130",
        "critical",
        "ünïcode ✓",
        "enter `Env.setup_state`",
        "calls `fetch_token`",
        "blocking call in `fetch_token`",
        "src/app/net.py:40",
        "fix available (safe): Use `asyncio.to_thread`",
        "fix available (unsafe): Offload to a process pool",
        "[bold]markup[/bold]",  # printed verbatim, never interpreted as markup
        "src/broken.py: syntax error: unexpected ':' at 3:7",
        "Summary",
        "files checked",
        "Found 4 blocking calls in 2 of 12 files checked.",
        "1 file could not be analysed.",
    ):
        assert expected in text, expected
    # Each file gets one header, in result order.
    assert text.index("src/app/env.py ─") < text.index(f"{WEIRD_PATH} ─")
    assert text.count("src/app/env.py ─") == 1
    assert not any(line.endswith(" ") for line in text.splitlines())


def test_rich_finding_line_layout():
    lines = render_rich(RESULT, color=False, width=120).splitlines()
    assert lines[1].split() == ["14:9", "ASY100", "critical", *HTTP_MESSAGE.split()]
    # A direct chain (the entry point's def, then the call in it) repeats the message: not shown.
    assert not any("↳ enter `Env.rollout`" in line for line in lines)


def test_rich_notes_related_places_under_the_finding():
    lines = render_rich(RESULT, color=False, width=200).splitlines()
    opened = next(n for n, line in enumerate(lines) if "ASY110" in line)
    assert [line.strip() for line in lines[opened + 1 : opened + 3]] == [
        f"note: {RELATED[0].message}  src/app/clients.py:5:8",
        f"note: {RELATED[1].message}  {WEIRD_PATH}:22",
    ]
    assert sum("note:" in line for line in lines) == 2  # only the finding with related places


def test_rich_colour():
    text = render_rich(RESULT, color=True)
    assert "\x1b[1;31mcritical" in text  # critical is bold red
    assert "\x1b[33mmedium" in text


def test_rich_quiet_statistics_and_clean():
    quiet = render_rich(RESULT, color=False, quiet=True)
    assert "ASY100" in quiet
    assert "Summary" not in quiet and "Found 4" not in quiet
    clean = render_rich(CLEAN, color=False)
    assert clean == "No blocking calls found in 1 file.\n"
    assert render_rich(CLEAN, color=False, quiet=True) == ""


def test_rich_respects_width():
    text = render_rich(RESULT, color=False, width=60)
    assert max(len(line) for line in text.splitlines()) <= 60


# --- dispatch -----------------------------------------------------------------------------


def test_render_dispatches_every_format():
    assert FORMATS == ("rich", "json", "sarif", "github", "concise")
    assert render(RESULT, "json") == render_json(RESULT)
    assert render(RESULT, "sarif") == render_sarif(RESULT)
    assert render(RESULT, "github") == render_github(RESULT)
    assert render(RESULT, "concise", quiet=True) == render_concise(RESULT, quiet=True)
    rich_text = render_rich(RESULT, color=False, width=80)
    assert render(RESULT, "rich", color=False, width=80) == rich_text
    with pytest.raises(ValueError, match="unknown output format 'xml'"):
        render(RESULT, "xml")


def test_a_link_through_a_library_call_back_is_named_in_every_format():
    through = "tau2.evaluator.evaluator.evaluate_simulation"
    chain = (
        ChainLink("env.py", 17, "post_rollout"),
        ChainLink("env.py", 18, "post_rollout", through),
        ChainLink("env.py", 6, "_load_utf8"),
    )
    finding = make_finding("env.py", (6, 16, 6, 40), "ASY110", "blocking-file-io", Severity.HIGH, "`open()`", chain)
    result = Result((finding,), (), 1, RULES)
    said = f"calls `{through}`, which calls back `_load_utf8`"
    assert said in render_rich(result, color=False, width=200)
    sarif_steps = json.loads(render_sarif(result))["runs"][0]["results"][0]["codeFlows"][0]["threadFlows"][0]
    assert [step["location"]["message"]["text"] for step in sarif_steps["locations"]][1] == said
    assert [link["through"] for link in json.loads(render_json(result))["findings"][0]["chain"]] == ["", through, ""]
    assert render_github(result).rstrip().endswith(f"[via post_rollout → [{through}] → _load_utf8]")
    # A baseline taken before chains named the library still knows the finding.
    plain = dataclasses.replace(finding, chain=tuple(dataclasses.replace(link, through="") for link in chain))
    assert fingerprint(finding) == fingerprint(plain)


def test_a_union_receivers_members_are_a_fact_in_json_and_sarif_and_in_its_fingerprint():
    chain = (ChainLink("env.py", 16, "Env.env_response"), ChainLink("env.py", 18, "Env.env_response"))
    facts = Facts(callee="requests.Session.get", function="Env.env_response")
    plain = make_finding(
        "env.py", (18, 16, 18, 40), "ASL102", "sync-http-call", Severity.CRITICAL, "m", chain, facts=facts
    )
    members = ("requests.Session", "httpx.Client")
    union = dataclasses.replace(plain, facts=dataclasses.replace(facts, members=members))
    result = Result((union,), (), 1, RULES)
    assert json.loads(render_json(result))["findings"][0]["facts"]["members"] == list(members)
    sarif_facts = json.loads(render_sarif(result))["runs"][0]["results"][0]["properties"]["facts"]
    assert sarif_facts["members"] == list(members)
    # A finding on one class keeps the print baselines took before the fact existed (0.x, JSON v11).
    assert fingerprint(plain) == "c6373b0541fbd905125d"
    assert fingerprint(union) != fingerprint(plain)
