"""ASL112: CPU-heavy calls (exec/eval/compile graded by what they run, sympy, math, images) on the loop."""

from __future__ import annotations

from asynclint.model import Severity
from asynclint.rules.base import BlockingCallRule


class CpuHeavyCall(BlockingCallRule):
    """GIL-heavy CPU work runs inline on the loop: `exec`/`eval`/`compile`, sympy, math parsing, image codecs.

    **Why is this bad?**
    Parsing and simplifying math with sympy, compiling model output or decoding images holds
    the GIL for milliseconds to seconds. Threads do not help CPU-bound Python; a process pool
    does. `PIL.Image.open` only reads a header (low); decoding, converting and resizing do the
    work (medium). `eval` and `compile` are graded by what they are handed, as a parse is: a
    constant, a regex match, a number or one short answer cut out of a reply (or an f-string of
    such parts) compiles and evaluates in 10-50 µs, cheaper inline than a process hop, and is not
    reported; text of unknown size is low; a whole file's contents is medium. `exec` runs a
    program, whose cost is what it does, not its length: a model-written solution or a dataset's
    grading module is medium however short it is (raised by repetition like other CPU work), and
    only a constant program is not reported. The finding's `size` fact says what the evidence
    concluded. Regular expressions are not reported: one over a whole transcript takes microseconds
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
