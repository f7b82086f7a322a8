"""Fixture specifications: each ``tests/fixtures/<rule stem>.py`` states its findings exactly.

A line that must be flagged ends with ``# expect: CODE severity[, CODE severity...]``; every
other line is clean on purpose. The first test checks the set of (line, code, severity) both
ways; the others rewrite each expectation into a suppression (inline ``asynclint: ignore``,
inline ``noqa``, or a comment line of its own above) and check that nothing is left.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from pathlib import Path

import jsonschema
import pytest
from conftest import Expectation, check_text, expect_comments, expectations

from asynclint.config import Config
from asynclint.model import Finding
from asynclint.report.json_report import JSON_FORMAT_VERSION, finding_to_dict
from asynclint.rules import ALL_RULES

FIXTURES = Path(__file__).parent / "fixtures"

Suppression = Callable[[tuple[str, ...]], str]  # codes -> the comment that hides them


def fixture_files() -> list[Path]:
    """Every fixture module: one per rule, and ``grading/`` (one per grading dimension: payload,
    filesystem, repetition, first calls); ``*.fixed.py`` goldens belong to the fixers' tests."""
    found = [*FIXTURES.glob("*.py"), *(FIXTURES / "grading").glob("*.py")]
    return sorted(path for path in found if path.is_file() and not path.name.endswith(".fixed.py"))


@functools.cache  # the expectations and the JSON contract read the same findings
def run(path: Path, text: str) -> tuple[Finding, ...]:
    """``text`` checked alone, as the module named after the fixture."""
    result = check_text(text, path, Config(root=FIXTURES))
    assert not result.errors, result.errors
    return result.findings


def describe(entries: set[Expectation], lines: list[str], messages: dict[Expectation, str]) -> str:
    rows = []
    for entry in sorted(entries):
        line, code, severity = entry
        rows.append(f"  line {line}: {code} {severity}    | {lines[line - 1].strip()}")
        if entry in messages:
            rows.append(f"      {messages[entry]}")
    return "\n".join(rows)


def rewrite(text: str, suppression: Suppression, above: bool = False) -> str:
    """Replace each ``# expect:`` comment by ``suppression(codes)``: at the end of the same line,
    or on a comment line of its own just above it, indented like it."""
    lines = text.splitlines(keepends=True)
    for comment in sorted(expect_comments(text), key=lambda c: c.line, reverse=True):
        original = lines[comment.line - 1]
        code = original[: comment.col].rstrip()
        ending = original[len(original.rstrip("\r\n")) :]
        if above:
            indent = original[: len(original) - len(original.lstrip())]
            lines[comment.line - 1 : comment.line] = [f"{indent}{suppression(comment.codes)}{ending}", code + ending]
        else:
            lines[comment.line - 1] = f"{code}  {suppression(comment.codes)}{ending}"
    return "".join(lines)


def ignore_comment(codes: tuple[str, ...]) -> str:
    return f"# asynclint: ignore[{','.join(codes)}]"


def noqa_comment(codes: tuple[str, ...]) -> str:
    return f"# noqa: {', '.join(codes)}"


def assert_clean(path: Path, text: str) -> None:
    assert not expect_comments(text)
    left = run(path, text)
    lines = text.splitlines()
    assert not left, f"{path.name}: suppressions did not hide:\n" + describe(
        {(f.line, f.code, f.severity.label) for f in left}, lines, {}
    )


FIXTURE_PARAMS = [pytest.param(path, id=path.relative_to(FIXTURES).as_posix()) for path in fixture_files()]


@pytest.mark.parametrize("path", FIXTURE_PARAMS)
def test_findings_match_expectations(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    expected = expectations(text)
    findings = run(path, text)
    actual = {(f.line, f.code, f.severity.label) for f in findings}
    if actual != expected:
        lines = text.splitlines()
        messages = {(f.line, f.code, f.severity.label): f.message for f in findings}
        report = [f"{path.name}: findings differ from the # expect: comments"]
        if expected - actual:
            report += ["missing (expected, not reported):", describe(expected - actual, lines, {})]
        if actual - expected:
            report += ["unexpected (reported, not expected):", describe(actual - expected, lines, messages)]
        pytest.fail("\n".join(report), pytrace=False)


@pytest.mark.parametrize("path", FIXTURE_PARAMS)
def test_findings_follow_the_json_contract(path: Path) -> None:
    # Every fact a rule records is a value the published schema allows: a new frequency or source
    # of knowledge reaches tests/data/asynclint-report.schema.json (and docs/json-format.md) with it.
    findings = run(path, path.read_text(encoding="utf-8"))
    document = {"version": JSON_FORMAT_VERSION, "findings": [finding_to_dict(f) for f in findings], "errors": []}
    jsonschema.Draft202012Validator(REPORT_SCHEMA).validate(json.loads(json.dumps(document)))


REPORT_SCHEMA = json.loads(
    (Path(__file__).parent / "data" / "asynclint-report.schema.json").read_text(encoding="utf-8")
)


@pytest.mark.parametrize("path", FIXTURE_PARAMS)
def test_inline_ignore_hides_every_expectation(path: Path) -> None:
    assert_clean(path, rewrite(path.read_text(encoding="utf-8"), ignore_comment))


@pytest.mark.parametrize("path", FIXTURE_PARAMS)
def test_inline_noqa_hides_every_expectation(path: Path) -> None:
    assert_clean(path, rewrite(path.read_text(encoding="utf-8"), noqa_comment))


@pytest.mark.parametrize("suppression", [ignore_comment, noqa_comment], ids=["ignore", "noqa"])
@pytest.mark.parametrize("path", FIXTURE_PARAMS)
def test_suppression_on_the_line_above_hides_every_expectation(path: Path, suppression: Suppression) -> None:
    assert_clean(path, rewrite(path.read_text(encoding="utf-8"), suppression, above=True))


def test_every_rule_has_a_fixture_that_exercises_it() -> None:
    stems = {path.stem: path for path in fixture_files()}
    for rule in ALL_RULES:
        stem = rule.__module__.rpartition(".")[2]
        assert stem in stems, f"{rule.code} ({rule.name}): no tests/fixtures/{stem}.py"
        codes = {code for _, code, _ in expectations(stems[stem].read_text(encoding="utf-8"))}
        assert rule.code in codes, f"tests/fixtures/{stem}.py has no '# expect: {rule.code} <severity>' line"


def test_expect_comments_parse_and_rewrite() -> None:
    text = 'def f():\n    g("# expect: ASL999 low")  # expect: ASL101 critical, ASL111 low\n'
    assert expectations(text) == {(2, "ASL101", "critical"), (2, "ASL111", "low")}
    call = '    g("# expect: ASL999 low")'
    assert rewrite(text, ignore_comment) == f"def f():\n{call}  # asynclint: ignore[ASL101,ASL111]\n"
    assert rewrite(text, noqa_comment) == f"def f():\n{call}  # noqa: ASL101, ASL111\n"
    assert rewrite(text, ignore_comment, above=True) == f"def f():\n    # asynclint: ignore[ASL101,ASL111]\n{call}\n"
    with pytest.raises(AssertionError, match="malformed"):
        expect_comments("g()  # expect ASL101 critical\n")
    with pytest.raises(AssertionError, match="malformed"):
        expect_comments("g()  # expect: ASL101 severe\n")
