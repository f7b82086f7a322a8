"""Counting and wording shared by the human-readable renderers."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from asynclint.knowledge.programs import BY_NAME
from asynclint.model import ChainLink, Finding, Severity


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def severity_counts(findings: Iterable[Finding]) -> list[tuple[Severity, int]]:
    """Non-zero counts per severity, worst first."""
    counts = Counter(finding.severity for finding in findings)
    return [(sev, counts[sev]) for sev in sorted(counts, reverse=True)]


def severity_breakdown(findings: Iterable[Finding]) -> str:
    """E.g. ``1 critical, 2 high``."""
    return ", ".join(f"{count} {sev.label}" for sev, count in severity_counts(findings))


@dataclass(frozen=True)
class RuleStat:
    code: str
    rule: str
    findings: tuple[Finding, ...]


def rule_statistics(findings: tuple[Finding, ...]) -> list[RuleStat]:
    """Findings grouped per code, most frequent first, ties by code."""
    groups: dict[str, list[Finding]] = {}
    for finding in findings:
        groups.setdefault(finding.code, []).append(finding)
    stats = [RuleStat(code, group[0].rule, tuple(group)) for code, group in groups.items()]
    return sorted(stats, key=lambda stat: (-len(stat.findings), stat.code))


@dataclass(frozen=True)
class ChainStep:
    link: ChainLink
    text: str  # e.g. "calls `helper`", with the function name in backticks
    depth: int  # call depth below the entry point


def chain_steps(chain: tuple[ChainLink, ...]) -> list[ChainStep]:
    """Describe each link of a proof chain (see ``ChainLink``) as a step a reader can follow.

    The first link is the entry point's ``def``; a middle link is a call site inside its
    function, whose callee is the next link's function (or, for a link ``through`` a library
    function, whose callee calls the next link's function back); the last link is the offending call.
    """
    steps: list[ChainStep] = []
    depth = 0
    for position, link in enumerate(chain):
        if position and link.function != chain[position - 1].function:
            depth += 1
        if position == 0:
            text = f"enter `{link.function}`"
        elif position == len(chain) - 1:
            text = f"blocking call in `{link.function}`"
        elif link.through == BY_NAME:
            text = f"calls `{chain[position + 1].function}`, dispatched by name"
        elif link.through:
            text = f"calls `{link.through}`, which calls back `{chain[position + 1].function}`"
        else:
            text = f"calls `{chain[position + 1].function}`"
        steps.append(ChainStep(link, text, depth))
    return steps
