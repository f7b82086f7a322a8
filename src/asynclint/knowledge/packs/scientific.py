"""Numerical solvers run inline, graded by what they are handed.

``scipy.optimize.linear_sum_assignment`` solves the assignment problem with a shortest augmenting
path algorithm in C++ (``_lsap``): cubic in the side of the cost matrix -- microseconds for a
few dozen rows, seconds for thousands. The matrix is usually built right there from two lists,
so its size is rarely known: graded by its argument, like a parser (unknown: low).
"""

from __future__ import annotations

from asynclint.knowledge.api import BlockingApi, many

_SCIPY = (
    "source: pkg scipy 1.17.1 scipy/optimize/__init__.py (linear_sum_assignment from the compiled _lsap: "
    "solve_rectangular_linear_sum_assignment, Crouse's shortest augmenting path)"
)

APIS: tuple[BlockingApi, ...] = (
    *many("cpu", "payload", None, "linear_sum_assignment", "scipy.optimize.", source=_SCIPY),
    *many("cpu", "payload", None, "linear_sum_assignment", "scipy.optimize._lsap.", source=_SCIPY),
)
