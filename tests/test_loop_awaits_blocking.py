"""ASL120 reads the findings of the other rules: what hides a finding does not hide the cost it repeats."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from asynclint.config import Config
from asynclint.engine import SourceFile
from asynclint.model import Severity
from asynclint.pipeline import check_sources

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "loop_awaits_blocking.py"
PARSE = "return parse_expr(expected).equals(parse_expr(predicted))  # expect: ASL112 medium, ASL112 medium"
LOOP = "for message in completion:  # expect: ASL120 high"


def _found(text: str, config: Config) -> set[tuple[int, str, Severity]]:
    source = SourceFile(FIXTURE.name, text, module="loop_awaits_blocking", package="")
    return {(f.line, f.code, f.severity) for f in check_sources([source], config).findings}


def _line(text: str, wanted: str) -> int:
    return next(number for number, line in enumerate(text.splitlines(), 1) if wanted in line)


def test_a_suppressed_or_hidden_call_still_makes_the_loop_around_its_coroutine_reported():
    text = FIXTURE.read_text(encoding="utf-8")
    assert PARSE in text and LOOP in text
    parse, loop = _line(text, PARSE), _line(text, LOOP)
    config = Config(root=FIXTURE.parent)
    assert {(parse, "ASL112", Severity.MEDIUM), (loop, "ASL120", Severity.HIGH)} <= _found(text, config)
    # The call's own finding suppressed: one call is accepted, the loop repeating it is still reported.
    suppressed = text.replace(PARSE, PARSE.partition("#")[0] + "# asynclint: ignore[ASL112]")
    found = _found(suppressed, config)
    assert (parse, "ASL112", Severity.MEDIUM) not in found and (loop, "ASL120", Severity.HIGH) in found
    # Below the threshold, or its rule switched off by the configuration: the same.
    for hidden in (
        replace(config, min_severity=Severity.HIGH),
        replace(config, ignore=("ASL112",)),
        replace(config, select=("ASL120",)),
    ):
        found = _found(text, hidden)
        assert not any(line == parse for line, _, _ in found) and (loop, "ASL120", Severity.HIGH) in found
    assert {code for _, code, _ in _found(text, replace(config, select=("ASL120",)))} == {"ASL120"}


def test_the_loop_names_the_one_call_grade_and_what_raised_the_call_above_it():
    text = FIXTURE.read_text(encoding="utf-8")
    source = SourceFile(FIXTURE.name, text, module="loop_awaits_blocking", package="")
    found = check_sources([source], Config(root=FIXTURE.parent)).findings
    client = _line(text, "httpx.Client()  # expect: ASL105 critical")
    loop = next(f for f in found if f.code == "ASL120" and "fetch_each" in f.message)
    inner = next(f for f in found if f.line == client)
    # The client's own grade is raised by its hook's turns; one call of it is a grade lower.
    assert inner.severity == Severity.CRITICAL and inner.facts.escalation
    assert f"(loop_awaits_blocking.py:{client}, high for one call, critical: {inner.facts.escalation})" in loop.message
    # A call graded without a raise is named by its grade alone.
    parse = next(f for f in found if f.code == "ASL120" and f.line == _line(text, LOOP))
    assert "medium for one call)" in parse.message
