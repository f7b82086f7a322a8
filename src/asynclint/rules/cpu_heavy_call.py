"""ASL112: CPU-heavy calls (exec/eval/compile, sympy, math parsing, image codecs) on the loop."""

from __future__ import annotations

from asynclint.model import Severity
from asynclint.rules.base import BlockingCallRule


class CpuHeavyCall(BlockingCallRule):
    """GIL-heavy CPU work runs inline on the loop: `exec`/`eval`/`compile`, sympy, math parsing, image codecs.

    **Why is this bad?**
    Parsing and simplifying math with sympy, compiling model output or decoding images holds
    the GIL for milliseconds to seconds. Threads do not help CPU-bound Python; a process pool
    does. `PIL.Image.open` only reads a header (low); decoding, converting and resizing do the
    work (medium). Regular expressions are not reported: one over a whole transcript takes microseconds
    (`re.findall` on 10 KB: 7 µs), far less than the process-pool hop that would move it
    (175 µs), so rewriting it would make the code slower. Local ML models are reported here too
    (the `local_models` knowledge pack): loading one (`from_pretrained`, `transformers.pipeline`,
    `SentenceTransformer(...)`, `spacy.load`, `bert_score.score`, which loads its model on every
    call) is critical, low behind a lazy `is None` guard and not reported at start-up; running one
    (a pipeline, `generate`, `encode`, BLEURT) is high, raised where it repeats. torch and
    TensorFlow release the GIL, so for models a worker thread is the fix.

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
    back equal (`sympy.sympify`, `sympy.simplify`, `math_verify.verify`, ...), and with
    `--unsafe-fixes` for other functions (arguments and result are pickled; what the function
    changes stays in the worker). It declines for methods and locals; `exec`/`eval` (they run
    in the caller's namespace) and `compile` (a code object does not pickle) have no fix.
    """

    code = "ASL112"
    name = "cpu-heavy-call"
    category = "cpu"
    default_severity = Severity.MEDIUM
    message = "`{callee}` {what} {where}"
