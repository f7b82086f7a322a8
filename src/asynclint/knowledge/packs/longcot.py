"""LongCoT (``longcot``): its answer verifier and question loader, run inline.

``verify`` dispatches on the question's template to a checker that runs in process while holding
the GIL: a math answer is split into components, each parsed with sympy's ``parse_expr`` (with
transformations) and compared by ``sympy.simplify`` of the difference; a chemistry answer's SMILES
are canonicalised with RDKit; a chess answer replays moves on a python-chess board; a logic
puzzle (Sokoban, Sudoku, Hanoi, BlocksWorld, ...) is simulated move by move: milliseconds to
seconds per answer, and ``verify_batch`` does it per answer. A math or chemistry answer the
checker rejects goes to a Gemini fallback judge (a network call) only when the options enable it
and an API key is set. The private ``longcot._verify._math`` helpers environments import to match
answers component by component do the same sympy work: ``_parse_expression`` parses one
component, ``_compare_component`` parses two and simplifies their difference.
A math answer's components (``_answer_components`` of the stored answer) are 2 to 4 in the bundled
questions: a loop over them (or a ``zip`` with a reply's components) is a few parses, not a loop over data.
``load_questions`` reads and parses the package's bundled JSON question files, every call.
longcot has no async API.
"""

from __future__ import annotations

from asynclint.knowledge.api import BlockingApi, entry, many

_SOURCE = "source: LongHorizonReasoning/longcot@39190f0 (GitHub; package dir src/ installed as longcot)"

APIS: tuple[BlockingApi, ...] = (
    # Re-exported as longcot.verify / verify_batch (__init__.py).
    *many(
        "cpu",
        "cpu-heavy",
        "process-pool",
        "verify verify_batch _verifier.verify _verifier.verify_batch",
        "longcot.",
        source=f"{_SOURCE} src/_verifier.py (verify: _math.verify_math, _chemistry.verify_smiles or "
        "_VERIFIERS[template]; verify_batch: verify per answer), src/_verify/_math.py (parse_expr, "
        "sp.simplify), _chemistry.py (rdkit Chem.MolFromSmiles/MolToSmiles), _chess.py (chess.Board), "
        "logic/ (puzzle simulators)",
    ),
    *many(
        "cpu",
        "cpu-heavy",
        "pure-process-pool",
        "_parse_expression _compare_component",
        "longcot._verify._math.",
        source=f"{_SOURCE} src/_verify/_math.py (_parse_expression: parse_expr(text, local_dict, "
        "transformations, evaluate=True); _compare_component: _parse_expression of both, "
        "sp.simplify(expected - predicted), expr.equals)",
    ),
    # Re-exported as longcot.load_questions (__init__.py).
    *(
        entry(
            f"longcot.{name}",
            "fs",
            "disk-content",
            "to-thread",
            frozenset(),
            f"{_SOURCE} src/_loader.py (load_questions: resources.files('longcot') / data / domain / "
            "difficulty.json read_text + json.loads per domain and difficulty)",
        )
        for name in ("load_questions", "_loader.load_questions")
    ),
)

#: What ``_answer_components`` returns: the stored answer's list items (or a top-level comma split of a
#: string): counted in the bundled data (src/data/math/easy.json: 13 answers of 3 components, 89 of 4;
#: medium.json: 2 of 2, 19 of 3, 129 of 4; asl120b, session 25, read the mirror; hard.json is not in it).
#: A reply's components (``_extract_predicted_math_components``) are not bounded by themselves, but a
#: ``zip`` with the answer's stops at 4.
FEW_RESULTS: dict[str, int] = {
    "longcot._verify._math._answer_components()": 4,
}
