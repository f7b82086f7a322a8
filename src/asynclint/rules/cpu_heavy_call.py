"""ASL112: CPU-heavy calls (exec/eval/compile, big regexes, sympy, image codecs) on the loop."""

from __future__ import annotations

from asynclint.knowledge.blocking import LARGE_TEXT_HINTS
from asynclint.model import Severity
from asynclint.rules.base import Candidate, Rule


class CpuHeavyCall(Rule):
    """GIL-heavy CPU work runs inline on the loop: `exec`/`eval`/`compile`, sympy, image codecs, regexes over transcripts.

    **Why is this bad?**
    Parsing and simplifying math with sympy, compiling model output, decoding images or
    running a regex over a whole transcript holds the GIL for milliseconds to seconds.
    Threads do not help CPU-bound Python; a process pool does. Regexes are only flagged when
    the text looks large (a state, transcript, history, log), not on a short completion.

    **Example**
    ```python
    import sympy

    async def correct(completion: str, answer: str) -> float:
        return float(sympy.simplify(sympy.sympify(completion) - sympy.sympify(answer)) == 0)
    ```

    **Use instead**
    ```python
    import asyncio
    from concurrent.futures import ProcessPoolExecutor

    import sympy

    POOL = ProcessPoolExecutor(max_workers=2)

    def _equal(a: str, b: str) -> bool:
        return sympy.simplify(sympy.sympify(a) - sympy.sympify(b)) == 0

    async def correct(completion: str, answer: str) -> float:
        loop = asyncio.get_running_loop()
        return float(await loop.run_in_executor(POOL, _equal, completion, answer))
    ```

    **Fix**
    A module-level `ProcessPoolExecutor` and `await loop.run_in_executor(pool, fn, *args)`
    with a picklable top-level `fn` (keyword arguments go through `functools.partial`).
    `asynclint fix` writes it as a safe fix for pure library functions whose result pickles
    back equal (`re.findall`, `sympy.sympify`, `math_verify.verify`, ...), and with
    `--unsafe-fixes` for other functions (arguments and result are pickled; what the function
    changes stays in the worker). It declines for methods and locals, for `exec`/`eval` (the
    caller's namespace), `compile`, and `re.search`/`match`/`finditer` (a `Match` does not pickle).
    """

    code = "ASL112"
    name = "cpu-heavy-call"
    category = "cpu"
    default_severity = Severity.MEDIUM
    message = "`{callee}` runs CPU-heavy work on the event loop {where}"

    def grade(self, candidate: Candidate) -> Severity | None:
        if candidate.target.startswith("re.") and not candidate.mentions(LARGE_TEXT_HINTS):
            return None  # a regex over a short string is cheap
        return candidate.api.severity
