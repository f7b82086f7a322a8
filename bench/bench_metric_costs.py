#!/usr/bin/env python
"""What one call of a text metric costs on the loop: sacrebleu's sentence and corpus scores.

The ``metrics`` knowledge pack grades sacrebleu's scores by the size of the text they are given;
this measures the sizes that grading assumes. Side by side in one run, on synthetic text of
realistic shape (sentences of 25 words drawn from a fixed vocabulary, a reference per
hypothesis): one ``sentence_chrf`` and one ``sentence_bleu`` of a sentence pair, and
``corpus_chrf``/``corpus_bleu`` of 100 and 1,000 pairs. Each is the median of ``--repeat``
timings of one call (the first call, which builds sacrebleu's tokenizer caches, is timed apart).
Needs sacrebleu importable (``pip install sacrebleu``, or ``--path`` to a directory holding it).

Usage::

    python bench/bench_metric_costs.py
    python bench/bench_metric_costs.py --path /tmp/sacrebleu-target --repeat 50
"""

from __future__ import annotations

import argparse
import random
import time

from costbench import add_target_option, import_measured, timed  # bench/, the script's own directory, is sys.path[0]


def sentences(count: int, rng: random.Random) -> list[str]:
    words = [f"w{n}{'abcdefgh'[n % 8] * (n % 7)}" for n in range(3000)]
    return [" ".join(rng.choice(words) for _ in range(25)) + "." for _ in range(count)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_target_option(parser, "sacrebleu")
    parser.add_argument("--repeat", type=int, default=20, help="timed calls per measurement (default 20)")
    args = parser.parse_args(argv)
    imported = import_measured(args.path, "sacrebleu")
    if imported is None:
        return 2
    (sacrebleu,) = imported
    rng = random.Random(0)
    hyps, refs = sentences(1000, rng), sentences(1000, rng)
    start = time.perf_counter()
    sacrebleu.sentence_chrf(hyps[0], [refs[0]])
    first = (time.perf_counter() - start) * 1000
    rows = [
        ("sentence_chrf, 1 pair", lambda: sacrebleu.sentence_chrf(hyps[1], [refs[1]])),
        ("sentence_bleu, 1 pair", lambda: sacrebleu.sentence_bleu(hyps[1], [refs[1]])),
        ("corpus_chrf, 100 pairs", lambda: sacrebleu.corpus_chrf(hyps[:100], [refs[:100]])),
        ("corpus_bleu, 100 pairs", lambda: sacrebleu.corpus_bleu(hyps[:100], [refs[:100]])),
        ("corpus_chrf, 1000 pairs", lambda: sacrebleu.corpus_chrf(hyps, [refs])),
        ("corpus_bleu, 1000 pairs", lambda: sacrebleu.corpus_bleu(hyps, [refs])),
    ]
    print(f"sacrebleu {sacrebleu.__version__}; first sentence_chrf call {first:.2f} ms")
    base = None
    for name, call in rows:
        ms = timed(call, args.repeat if "1000" not in name else max(3, args.repeat // 5))
        base = base or ms
        print(f"{name:26} {ms:9.3f} ms   {ms / base:7.1f}x sentence_chrf")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
