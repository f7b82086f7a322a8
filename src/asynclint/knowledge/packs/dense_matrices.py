"""Dense linear algebra run inline: numpy's and scipy's eigendecompositions, matrix exponentials and Kronecker
products, graded by the matrix they are handed.

``numpy.linalg.eigvalsh`` (and ``eigh``, ``eig``, ``eigvals``; scipy.linalg's of the same names)
calls LAPACK on the whole matrix: cubic in its side, so 8x the time each time the side doubles.
``scipy.linalg.expm`` (a Padé approximant with scaling and squaring) is a handful of matrix
products and a solve: cubic too. ``numpy.kron(a, b)`` allocates and fills the product of the
two sizes. On a matrix of a few dozen rows (a task's small table) each is microseconds; on one
whose side is a power of two of an input -- a quantum register's operator, ``numpy.zeros((dim,
dim))`` with ``dim = 1 << n_qubits``, 4,096 x 4,096 at 12 qubits -- it is milliseconds at 8
qubits and seconds at 12. Measured here (numpy 2.4.6, this project's loaded 2-core machine, BLAS
threads competing with other processes): ``eigvalsh`` of 64 x 64 0.5 ms, of 256 x 256 2.6 s,
``eigh`` 5.2 s; unloaded LAPACK does 256 x 256 in a few ms. A matrix whose size the code does not
show is graded low (a payload of unknown size); one built at a power of two of an input medium
(:data:`~asynclint.knowledge.costs.EXPONENTIAL`: "where unsure, the lower" -- the input is a
register of a handful of qubits far more often than of twelve). Neither numpy nor scipy releases
the GIL for all of it, and no async API exists: no automatic fix.
"""

from __future__ import annotations

from asynclint.knowledge.api import BlockingApi, many

_NUMPY = (
    "source: pkg numpy 2.4.6 numpy/linalg/_linalg.py (eigvalsh, eigh, eig, eigvals: LAPACK through "
    "_umath_linalg on the whole matrix), numpy/lib/_shape_base_impl.py (kron: an array of the product of the "
    "shapes, filled by an outer product); measured here: eigvalsh of 64 x 64 0.5 ms, of 256 x 256 2.6 s on "
    "the loaded 2-core machine"
)
_SCIPY = (
    "source: pkg scipy 1.17.1 scipy/linalg/_matfuncs.py (expm: Pade approximant with scaling and squaring, "
    "matrix products and a solve), scipy/linalg/_decomp.py (eigh, eigvalsh, eig, eigvals: LAPACK)"
)

APIS: tuple[BlockingApi, ...] = (
    *many("cpu", "payload-matrix", None, "eigvalsh eigh eig eigvals", "numpy.linalg.", source=_NUMPY),
    *many("cpu", "payload-matrix", None, "kron", "numpy.", source=_NUMPY),
    *many("cpu", "payload-matrix", None, "expm eigvalsh eigh eig eigvals", "scipy.linalg.", source=_SCIPY),
)
