"""Text metrics scored inline: sacrebleu's BLEU, chrF and TER.

Pure Python over the strings they are given, graded by how much text that is (measured by
``bench/bench_metric_costs.py``, sacrebleu 2.6.0, sentences of 25 words on the 2-core machine):
a ``sentence_*`` score of one hypothesis against its references is a short step (``sentence_chrf``
about 0.4 ms, ``sentence_bleu`` 0.14 ms), cheaper inline than any move off the loop; a
``corpus_*`` score walks every pair (``corpus_chrf`` of 100 pairs 58 ms, of 1,000 pairs 0.7 s;
``corpus_bleu`` about a third of that), CPU work whose only effect is its result, so a process
pool moves it. ``compat``'s functions build the metric object (``BLEU``, ``CHRF``, ``TER``) and
call its ``sentence_score``/``corpus_score``; the object's own methods cost the same.
"""

from __future__ import annotations

from asynclint.knowledge.api import BlockingApi, many

_SACREBLEU = "source: pkg sacrebleu 2.6.0 sacrebleu/compat.py, sacrebleu/metrics/base.py (Metric.*_score)"
_MODULES = ("sacrebleu.", "sacrebleu.compat.")
_CLASSES = tuple(
    f"{module}{cls}."
    for cls, module in (
        ("BLEU", "sacrebleu."),
        ("CHRF", "sacrebleu."),
        ("TER", "sacrebleu."),
        ("BLEU", "sacrebleu.metrics."),
        ("CHRF", "sacrebleu.metrics."),
        ("TER", "sacrebleu.metrics."),
        ("BLEU", "sacrebleu.metrics.bleu."),
        ("CHRF", "sacrebleu.metrics.chrf."),
        ("TER", "sacrebleu.metrics.ter."),
    )
)

APIS: tuple[BlockingApi, ...] = (
    *(
        api
        for module in _MODULES
        for api in (
            *many("cpu", "cpu-light", None, "sentence_bleu sentence_chrf sentence_ter", module, source=_SACREBLEU),
            *many(
                "cpu",
                "cpu-heavy",
                "pure-process-pool",
                "corpus_bleu corpus_chrf corpus_ter raw_corpus_bleu",
                module,
                source=_SACREBLEU,
            ),
        )
    ),
    *(
        api
        for cls in _CLASSES
        for api in (
            *many("cpu", "cpu-light", None, "sentence_score", cls, source=_SACREBLEU),
            *many("cpu", "cpu-heavy", "pure-process-pool", "corpus_score", cls, source=_SACREBLEU),
        )
    ),
)
