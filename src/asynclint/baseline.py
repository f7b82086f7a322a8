"""A baseline of known findings, so a CI gate can fail on new ones only.

A finding is identified by its facts, not where it is or how it is worded: its file, rule,
callee, the library function the project calls into (deep mode) and the functions on its
chain, from the entry point to the function the call is written in. Line numbers are left
out, so editing code above a known finding does not resurface it; rewording a message does
not either; changing the offending call or how it is reached does. Identical findings are
counted: a second copy of a known call is new.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from asynclint.model import Finding

#: 2: fingerprints of facts (version 1 hashed the message text, so a reworded message looked new).
FORMAT_VERSION = 2


class BaselineError(Exception):
    """The baseline file is not one this version can read; the message is one line."""


def fingerprint(finding: Finding) -> str:
    facts = finding.facts
    parts = [finding.path, finding.code, facts.callee, facts.entered, *(link.function for link in finding.chain)]
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:20]


@dataclass(frozen=True)
class Baseline:
    counts: Counter[str]

    def split(self, findings: Sequence[Finding]) -> tuple[tuple[Finding, ...], int]:
        """-> (findings not in the baseline, how many were)."""
        remaining = Counter(self.counts)
        new = []
        for finding in findings:
            key = fingerprint(finding)
            if remaining[key] > 0:
                remaining[key] -= 1
            else:
                new.append(finding)
        return tuple(new), len(findings) - len(new)


def render(findings: Iterable[Finding]) -> str:
    """The baseline file: sorted, one entry per finding, readable in a diff."""
    entries = [
        {"path": f.path, "code": f.code, "line": f.line, "fingerprint": fingerprint(f), "message": f.message}
        for f in sorted(findings, key=Finding.sort_key)
    ]
    return json.dumps({"asynclint_baseline": FORMAT_VERSION, "findings": entries}, indent=2) + "\n"


def parse(text: str) -> Baseline:
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BaselineError(f"not JSON ({exc.msg} at line {exc.lineno})") from None
    except RecursionError:
        raise BaselineError("not an asynclint baseline (arrays or objects nested too deeply)") from None
    if isinstance(document, dict) and document.get("asynclint_baseline") == 1:
        raise BaselineError("written by an older asynclint (its fingerprints hash message text): "
                            "write it again with --write-baseline")
    if not isinstance(document, dict) or document.get("asynclint_baseline") != FORMAT_VERSION:
        raise BaselineError(f"not an asynclint baseline (expected \"asynclint_baseline\": {FORMAT_VERSION})")
    entries = document.get("findings")
    if not isinstance(entries, list) or not all(
        isinstance(e, dict) and isinstance(e.get("fingerprint"), str) for e in entries
    ):
        raise BaselineError("\"findings\" must be a list of objects with a \"fingerprint\"")
    return Baseline(Counter(e["fingerprint"] for e in entries))
