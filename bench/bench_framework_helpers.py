#!/usr/bin/env python
"""What verifiers' own sync helpers cost per call on a whole completion: the survey's framework rows.

``bench/survey_imports.py`` counts, after the ``State().get`` reads and message constructors, these
verifiers helpers as the framework's most frequent sync calls on hot paths: ``Parser.parse_answer``
(43 sites in 7 environments), ``XMLParser.parse``/``parse_answer``, ``MaybeThinkParser.parse_answer``,
``utils.message_utils.concat_messages``/``normalize_messages``/``maybe_normalize_messages`` and
``utils.data_utils.extract_boxed_answer``. None has a knowledge entry; this measures whether any
should, against ``json.dumps`` of the same completion (ASL111's payload class, reported only when
the payload is the whole state or a growing history). The completion is synthetic but sized like a
long rollout: ``--turns`` assistant/user pairs of ``--chars`` characters each, the answer in the
last assistant message (``<answer>`` tags, a ``\\boxed{}``). Each is the median of ``--repeat`` calls.
Needs verifiers importable (the venv's; per release, the helpers' shape is the same from 0.1.x on).

Usage::

    python bench/bench_framework_helpers.py --turns 20 --chars 4000
"""

from __future__ import annotations

import argparse
import json

from costbench import timed  # bench/, the script's own directory, is sys.path[0]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=20)
    parser.add_argument("--chars", type=int, default=4000)
    parser.add_argument("--repeat", type=int, default=50)
    args = parser.parse_args(argv)
    import verifiers as vf
    from verifiers.utils.data_utils import extract_boxed_answer
    from verifiers.utils.message_utils import concat_messages, normalize_messages

    body = ("The step computes the sum of the series term by term. " * (args.chars // 55 + 1))[: args.chars]
    completion = []
    for turn in range(args.turns):
        completion.append({"role": "assistant", "content": f"<think>{body}</think> tool call {turn}"})
        completion.append({"role": "user", "content": body})
    completion.append({"role": "assistant", "content": f"<reasoning>{body}</reasoning><answer>\\boxed{{42}}</answer>"})
    last = completion[-1]["content"]
    xml = vf.XMLParser(["reasoning", "answer"], answer_field="answer")
    plain = vf.Parser()
    think = vf.MaybeThinkParser()
    rows = [
        ("json.dumps(completion)  [ASL111's payload]", lambda: json.dumps(completion)),
        ("Parser().parse_answer(completion)", lambda: plain.parse_answer(completion)),
        ("MaybeThinkParser().parse_answer(completion)", lambda: think.parse_answer(completion)),
        ("XMLParser.parse_answer(completion)", lambda: xml.parse_answer(completion)),
        ("XMLParser.parse(last message)", lambda: xml.parse(last)),
        ("extract_boxed_answer(last message)", lambda: extract_boxed_answer(last)),
        ("concat_messages([completion, completion])", lambda: concat_messages([completion, completion])),
        ("normalize_messages(completion)", lambda: normalize_messages(completion)),
    ]
    timings = [(label, timed(call, args.repeat)) for label, call in rows]
    base = timings[0][1]
    size = sum(len(m["content"]) for m in completion)
    print(f"verifiers {vf.__version__}: a completion of {len(completion)} messages, {size // 1024} KB of text")
    print(f"{'call':48} {'median ms':>10} {'x json.dumps':>13}")
    for label, ms in timings:
        print(f"{label:48} {ms:10.4f} {ms / base:13.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
