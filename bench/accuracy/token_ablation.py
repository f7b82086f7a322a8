#!/usr/bin/env python
"""What the name tokens of the payload-size tables change on the labelled lines.

``knowledge/costs.py`` sizes a payload partly by its name (``SMALL_TOKENS``, ``WHOLE_TOKENS`` with
``WHOLE_NAMES``). This script checks a split twice in one process, as the tables are and with one
table emptied, and prints every line whose reported grade moves, with its label, the verdict (closer
to the label or further) and the token that sized it: the word the finding's message names (its last
dotted part, or that part's last ``_`` token) when the emptied table holds it, else ``?word`` (a
value sized through provenance that started from a name). One run per table, not one per token: a
run per token and environment took over 40 minutes for main on a loaded 2-core machine (tokens15).

    python bench/accuracy/token_ablation.py --split main --table SMALL_TOKENS

Stdlib + asynclint only.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_accuracy import RANK, SPLITS, environment_dirs, load_corpus, load_labels, run_asynclint  # noqa: E402

#: Each table and the ones emptied with it (the entire name ``state`` is whole with the tokens).
TABLES = {"SMALL_TOKENS": ("SMALL_TOKENS",), "WHOLE_TOKENS": ("WHOLE_TOKENS", "WHOLE_NAMES")}


def install(tables: dict[str, frozenset]) -> None:
    """Bind every asynclint module's copy of each table (``from costs import WHOLE_NAMES`` copies
    the name) to ``tables``."""
    for module in list(sys.modules.values()):
        if not getattr(module, "__name__", "").startswith("asynclint"):
            continue
        for name, table in tables.items():
            if name in vars(module):
                setattr(module, name, table)


def grades(envs) -> dict[tuple[str, str, int], tuple[str, str]]:
    reported, _, _ = run_asynclint(envs, True)
    return {(r.repo, r.path, r.line): (r.grade, r.message) for r in reported}


def token_of(message: str, tokens: frozenset[str]) -> str:
    """The token of ``tokens`` that sized the payload a finding's message names first after its callee."""
    words = re.findall(r"`([^`]+)`", message)
    word = words[1] if len(words) > 1 else words[0] if words else "?"
    last = word.rpartition(".")[2].lower()
    return next((t for t in (last, last.rsplit("_", 1)[-1]) if t in tokens), f"?{word}")


def verdict(was: str, now: str, label: str | None) -> str:
    if label is None:
        return "unlabelled"
    gap_was, gap_now = abs(RANK[was] - RANK[label]), abs(RANK[now] - RANK[label])
    return "better" if gap_now < gap_was else "worse" if gap_now > gap_was else "sideways"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--split", action="append", choices=sorted(SPLITS), help="repeatable (default: main)")
    ap.add_argument("--table", choices=sorted(TABLES), default="SMALL_TOKENS")
    args = ap.parse_args(argv)
    from asynclint.knowledge import costs

    emptied = TABLES[args.table]
    originals = {name: getattr(costs, name) for name in emptied}
    tokens = frozenset().union(*originals.values())
    per_token: dict[str, list[str]] = defaultdict(list)
    counts: dict[str, Counter] = defaultdict(Counter)
    for split in args.split or ["main"]:
        sample, labels_file, corpus = SPLITS[split]
        labels = load_labels(labels_file)
        envs = environment_dirs(Path(corpus), load_corpus(sample), sample.name)
        install(originals)
        before = grades(envs)
        install(dict.fromkeys(emptied, frozenset()))
        after = grades(envs)
        install(originals)
        for key in sorted(before.keys() | after.keys()):
            was, now = before.get(key, ("none", ""))[0], after.get(key, ("none", ""))[0]
            if was == now:
                continue
            label = labels[key].label if key in labels else None
            token = token_of((before.get(key) or after[key])[1], tokens)
            seen = verdict(was, now, label)
            counts[token][seen] += 1
            per_token[token].append(f"{split} {key[1]}:{key[2]} label {label} {was} -> {now} ({seen})")
    for token in sorted(per_token, key=lambda t: -len(per_token[t])):
        c = counts[token]
        print(
            f"{token}: better {c['better']}, worse {c['worse']}, sideways {c['sideways']}, unlabelled {c['unlabelled']}"
        )
        for row in per_token[token]:
            print(f"    {row}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
