"""A baseline of known findings, so a CI gate can fail on new ones only.

A finding is identified by its facts, not where it is or how it is worded: its file, rule,
callee, the library function the project calls into (deep mode) and the functions on its
chain, from the entry point to the function the call is written in. Line numbers are left
out, so editing code above a known finding does not resurface it; rewording a message does
not either; changing the offending call or how it is reached does. Identical findings are
counted: a second copy of a known call is new.

Paths are relative to the project root (:mod:`asynclint.project`), so a baseline written in one
directory matches in any other. An entry no finding matches any more is *stale* (fixed, or
reached another way): reported, and dropped when the baseline is written again; entries of files
a run did not check are kept as they are.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from asynclint.model import Finding

#: 2: fingerprints of facts (version 1 hashed the message text, so a reworded message looked new).
FORMAT_VERSION = 2


class BaselineError(Exception):
    """The baseline file is not one this version can read; the message is one line."""


def fingerprint(finding: Finding) -> str:
    facts = finding.facts
    parts = [finding.path, finding.code, facts.callee, facts.entered, *(link.function for link in finding.chain)]
    if facts.members:  # a call on one of several classes is known by them too; others keep their prints
        parts.extend(facts.members)
    if facts.suppression:  # a suppression comment (ASL901) is known by what it says; others keep their prints
        parts.append(facts.suppression)
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:20]


def entry(finding: Finding) -> dict:
    return {
        "path": finding.path,
        "code": finding.code,
        "line": finding.line,
        "severity": finding.severity.label,
        "fingerprint": fingerprint(finding),
        "message": finding.message,
    }


@dataclass(frozen=True)
class Baseline:
    entries: tuple[dict, ...]

    @property
    def counts(self) -> Counter[str]:
        return Counter(e["fingerprint"] for e in self.entries)

    def split(self, findings: Sequence[Finding]) -> tuple[tuple[Finding, ...], int]:
        """-> (findings not in the baseline, how many were)."""
        remaining = self.counts
        new = []
        for finding in findings:
            key = fingerprint(finding)
            if remaining[key] > 0:
                remaining[key] -= 1
            else:
                new.append(finding)
        return tuple(new), len(findings) - len(new)

    def stale(self, findings: Sequence[Finding], checked: Callable[[dict], bool]) -> tuple[dict, ...]:
        """The entries no finding matches, among those ``checked`` says this run could have
        found (its file was checked, its rule reported there, at a severity shown)."""
        unmatched = self.counts
        unmatched.subtract(fingerprint(f) for f in findings)
        stale = []
        for item in self.entries:
            if unmatched[item["fingerprint"]] > 0 and checked(item):
                unmatched[item["fingerprint"]] -= 1
                stale.append(item)
        return tuple(stale)

    def kept(self, checked_paths: Iterable[str]) -> tuple[dict, ...]:
        """The entries of files this run did not check: writing the baseline leaves them alone."""
        paths = set(checked_paths)
        return tuple(item for item in self.entries if item.get("path") not in paths)


def render(findings: Iterable[Finding], kept: Iterable[dict] = ()) -> str:
    """The baseline file: sorted, one entry per finding, readable in a diff."""
    entries = sorted(
        [*kept, *(entry(f) for f in findings)],
        key=lambda e: (str(e.get("path", "")), int(e.get("line", 0) or 0), str(e.get("code", "")), e["fingerprint"]),
    )
    return json.dumps({"asynclint_baseline": FORMAT_VERSION, "findings": entries}, indent=2) + "\n"


def parse(text: str) -> Baseline:
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BaselineError(f"not JSON ({exc.msg} at line {exc.lineno})") from None
    except RecursionError:
        raise BaselineError("not an asynclint baseline (arrays or objects nested too deeply)") from None
    if isinstance(document, dict) and document.get("asynclint_baseline") == 1:
        raise BaselineError(
            "written by an older asynclint (its fingerprints hash message text): write it again with --write-baseline"
        )
    if not isinstance(document, dict) or document.get("asynclint_baseline") != FORMAT_VERSION:
        raise BaselineError(f'not an asynclint baseline (expected "asynclint_baseline": {FORMAT_VERSION})')
    entries = document.get("findings")
    if not isinstance(entries, list) or not all(
        isinstance(e, dict) and isinstance(e.get("fingerprint"), str) for e in entries
    ):
        raise BaselineError('"findings" must be a list of objects with a "fingerprint"')
    return Baseline(tuple(entries))
