"""DSPy modules: building one is local work, calling one is a language-model request.

A DSPy module (``dspy.Predict``, ``dspy.ChainOfThought``, ...) is built from a signature: the
constructor derives the signature's class (``ChainOfThought`` prepends a reasoning field, a new
pydantic model class) and wraps a ``Predict`` -- local work well under a few milliseconds, which
does not add up to a stall between two model calls. Calling a module (``module(...)``,
``forward``) formats the prompt with the adapter and sends it through the configured ``dspy.LM``,
which calls litellm's sync ``completion`` in the calling thread: a model round trip, seconds.
``acall``/``aforward`` (DSPy 2.6 on) are the async twins.
"""

from __future__ import annotations

from asynclint.knowledge.api import entry

_DSPY = "source: pkg dspy 2.6 dspy/predict/predict.py, chain_of_thought.py, primitives/module.py (__call__ -> forward)"
_TWIN = "`await module.acall(...)` (DSPy's async call of the module)"
_MODULES = ("Predict", "ChainOfThought", "ReAct", "ProgramOfThought", "MultiChainComparison")

APIS = (
    *(entry(f"dspy.{module}", "cpu", "cpu-light", None, frozenset(), _DSPY) for module in _MODULES),
    *(
        entry(f"dspy.{module}.{call}", "llm", "network", "to-thread", frozenset(), _DSPY, _TWIN)
        for module in _MODULES
        for call in ("__call__", "forward")
    ),
)
