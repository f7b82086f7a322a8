"""Answer graders run inline: mathruler, verifiers' own helpers, BFCL's checkers, KernelGuard.

``mathruler.grader.grade_answer`` normalizes both answers and, unless they match as strings,
parses them with sympy and simplifies their difference (milliseconds to seconds; the module's
own comment: "sympy might hang"). verifiers v1's ``verify_boxed_math_answer`` parses and
verifies with math-verify, and ``image_data_url`` encodes a whole image as PNG: both are CPU
work whose only effect is the result, so a process pool moves them without changing anything. An
image the source builds at a small literal size (``Image.new("RGB", (100, 100), color)``) encodes in
about a millisecond, low however often it runs (``costs.IMAGE_GRADES``).
``Judge.complete`` (and ``evaluate``, which calls it) is a coroutine, but it builds a new
``AsyncOpenAI`` client with its own ``httpx.AsyncClient`` on every call before it sends
anything: the TLS context and pool are built synchronously, on the loop, although it is
awaited.

BFCL (``bfcl_eval``) checks function calls in process. ``execute_multi_turn_func_call`` imports
the API classes a test entry involves, builds and loads them the first time (kept in the
module's globals under the model's and the entry's name, reused on later turns) and runs
``eval`` on each call string against them: a short CPU step per turn. ``multi_turn_checker``
does that for every step of every turn of the model's answer and again for the ground truth,
then compares the results and the instances' states: milliseconds. ``ast_checker`` compares one
decoded call with the expected ones, type by type: a short step. Their state lives in the
module's globals, so a worker thread, not a process pool, keeps what they see.

``kernelguard.analyze_code`` screens a submitted GPU kernel for reward hacks in pure Python: it
parses the source with ``ast`` and indexes it (``build_submission_facts``), then runs each of its
~60 detectors (regexes and AST walks) over it, classifies the matches and hashes the code:
87 ms at best for a 2 KB ``load_inline`` submission on a loaded 2-core machine. Its tables are
module globals the caller may set first (``SCORE_CONFIG``), so a worker thread keeps what it sees.
"""

from __future__ import annotations

from asynclint.knowledge.api import BlockingApi, entry, many

_MATHRULER = "source: pkg mathruler 0.1.0 mathruler/grader.py (grade_answer -> are_equal_under_sympy)"
_VF = "source: pkg verifiers 0.3.1"
_BFCL = "source: pkg bfcl-eval 2026.3.23 bfcl_eval/eval_checker/"
_BFCL_EXECUTE = (
    "multi_turn_eval/multi_turn_utils.py (execute_multi_turn_func_call: importlib, _load_scenario, eval per call)"
)
_KERNELGUARD = (
    "source: pkg kernelguard 0.3.2 kernelguard.py (analyze_code, line 9305: build_submission_facts, every "
    "CODE_DETECTORS entry, classify, code_hash); measured here: 87 ms min, 114 ms median, 2 KB submission"
)
JUDGE_TWIN = "one `openai.AsyncOpenAI` built at start-up and `await client.chat.completions.create(...)`"

APIS: tuple[BlockingApi, ...] = (
    entry("mathruler.grader.grade_answer", "cpu", "cpu-heavy", "pure-process-pool", frozenset(), _MATHRULER),
    *(
        entry(
            f"verifiers.v1.{name}",
            "cpu",
            "cpu-heavy",
            "pure-process-pool",
            frozenset(),
            f"{_VF} verifiers/v1/utils/score.py (math_verify parse + verify)",
        )
        for name in ("verify_boxed_math_answer", "utils.score.verify_boxed_math_answer")
    ),
    # graded by the image it is handed: one the source builds at a small literal size is about a millisecond
    entry(
        "verifiers.v1.utils.image.image_data_url",
        "cpu",
        "image",
        "pure-process-pool",
        frozenset(),
        f"{_VF} verifiers/v1/utils/image.py (image.save(PNG) + base64)",
    ),
    # verifiers' own judges inherit ``complete`` (and ``evaluate``, which calls it); RubricJudge's
    # ``grade_batch`` calls it once per batch (0.3.1 v1/judges/rubric.py:194-233), 0.4.0's
    # DecisionJudge overrides ``evaluate`` with a ``build_async_openai`` of its own (pkg verifiers
    # 0.4.0 v1/judges/decision.py:39-59; judge.py:166-203 still builds one per ``complete``).
    *(
        api
        for judge, methods in (
            ("Judge", "complete evaluate"),
            ("ReferenceJudge", "complete evaluate"),
            ("RubricJudge", "complete evaluate grade_batch"),
            ("DecisionJudge", "complete evaluate"),
        )
        for api in many(
            "client",
            "client-build",
            None,
            methods,
            f"verifiers.v1.{judge}.",
            source=f"{_VF} verifiers/v1/judge.py (complete: async with build_async_openai(...)), "
            "v1/clients/base.py (AsyncOpenAI(http_client=httpx.AsyncClient(...))), v1/judges/; "
            "pkg verifiers 0.4.0 v1/judges/decision.py",
            twin=JUDGE_TWIN,
            awaited="makes a new `AsyncOpenAI` and `httpx.AsyncClient` on every call, before it sends anything",
        )
    ),
    entry(
        "bfcl_eval.eval_checker.multi_turn_eval.multi_turn_checker.multi_turn_checker",
        "cpu",
        "cpu-heavy",
        "to-thread",
        frozenset(),
        f"{_BFCL}multi_turn_eval/multi_turn_checker.py (execute_multi_turn_func_call "
        f"for the model's and the ground truth's calls of every turn, then the states compared), {_BFCL_EXECUTE}",
    ),
    entry(
        "bfcl_eval.eval_checker.multi_turn_eval.multi_turn_utils.execute_multi_turn_func_call",
        "cpu",
        "cpu-light",
        "to-thread",
        frozenset(),
        _BFCL + _BFCL_EXECUTE,
    ),
    entry(
        "bfcl_eval.eval_checker.ast_eval.ast_checker.ast_checker",
        "cpu",
        "cpu-light",
        "to-thread",
        frozenset(),
        f"{_BFCL}ast_eval/ast_checker.py (one call's parameters type-checked against the expected values)",
    ),
    entry("kernelguard.analyze_code", "cpu", "cpu-heavy", "to-thread", frozenset(), _KERNELGUARD),
)

#: A project's judge (``class ThemeJudge(vf.Judge[float])``, a prompt and a ``parse`` of its own)
#: still calls the ``evaluate`` and ``complete`` verifiers defines, which build the client per call.
SUBCLASSED = frozenset(f"verifiers.v1.{judge}" for judge in ("Judge", "ReferenceJudge", "RubricJudge", "DecisionJudge"))
