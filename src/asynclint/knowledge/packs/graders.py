"""Answer graders that run sympy or math-verify inline: mathruler, verifiers' own helpers.

``mathruler.grader.grade_answer`` normalizes both answers and, unless they match as strings,
parses them with sympy and simplifies their difference (milliseconds to seconds; the module's
own comment: "sympy might hang"). verifiers v1's ``verify_boxed_math_answer`` parses and
verifies with math-verify, and ``image_data_url`` encodes a whole image as PNG: both are CPU
work whose only effect is the result, so a process pool moves them without changing anything.
``Judge.complete`` (and ``evaluate``, which calls it) is a coroutine, but it builds a new
``AsyncOpenAI`` client with its own ``httpx.AsyncClient`` on every call before it sends
anything: the TLS context and pool are built synchronously, on the loop, although it is
awaited.
"""

from __future__ import annotations

from asynclint.knowledge.api import BlockingApi, entry, many

_MATHRULER = "source: pkg mathruler 0.1.0 mathruler/grader.py (grade_answer -> are_equal_under_sympy)"
_VF = "source: pkg verifiers 0.3.1"
JUDGE_TWIN = "one `openai.AsyncOpenAI` built at start-up and `await client.chat.completions.create(...)`"

APIS: tuple[BlockingApi, ...] = (
    entry("mathruler.grader.grade_answer", "cpu", "cpu-heavy", "pure-process-pool", frozenset(), _MATHRULER),
    *(
        entry(f"verifiers.v1.{name}", "cpu", "cpu-heavy", "pure-process-pool", frozenset(),
              f"{_VF} verifiers/v1/utils/score.py (math_verify parse + verify)")
        for name in ("verify_boxed_math_answer", "utils.score.verify_boxed_math_answer")
    ),
    entry("verifiers.v1.utils.image.image_data_url", "cpu", "cpu-heavy", "pure-process-pool", frozenset(),
          f"{_VF} verifiers/v1/utils/image.py (image.save(PNG) + base64)"),
    *many("client", "client-build", None, "complete evaluate", "verifiers.v1.Judge.",
          source=f"{_VF} verifiers/v1/judge.py (complete: async with build_async_openai(...)), "
                 "v1/clients/base.py (AsyncOpenAI(http_client=httpx.AsyncClient(...)))",
          twin=JUDGE_TWIN,
          awaited="makes a new `AsyncOpenAI` and `httpx.AsyncClient` on every call, before it sends anything"),
)
