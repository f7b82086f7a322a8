"""Quantum kernels built, compiled and simulated in process: CUDA-Q and CUDA-QX's solvers.

``cudaq.get_state(kernel)`` (and ``sample``, ``observe``, ``run``) turns a kernel into a decorator
(``mk_decorator``: a builder kernel gets a fresh one every call), lowers its MLIR module and
JIT-compiles it (``prepare_call``), then runs the target's simulator: a statevector of 2^n
amplitudes, or shots sampled from one. No async API exists (``get_state_async``, ``sample_async``
return a C++ future whose ``get`` blocks). A kernel the project builds per rollout is compiled and
simulated per rollout: tens of milliseconds for a few qubits, CPU-heavy (medium).

``cudaq.make_kernel()`` starts a new MLIR module, and each ``exp_pauli`` appends a Pauli rotation
(a Pauli-word constant and a ``quake`` op, built through the MLIR Python bindings): tens of µs
each, a millisecond or so for a builder filled term by term (low). One gate
(``kernel.x``, ``qalloc``) is one op: not reported. ``State.amplitudes(labels)`` reads one amplitude
per basis label from the simulator's state (2^n labels for the whole vector): low.

CUDA-QX: ``create_molecule`` runs its default ``RESTPySCFDriver``: it starts the ``cudaq-pyscf``
server (FastAPI + PySCF) the first time and POSTs the geometry to it, which runs SCF (and CASCI
when asked) before it answers: seconds, waiting on another process. ``get_operator_pool`` generates
an operator pool (UCCSD: every single and double excitation) in C++: milliseconds for a dozen
qubits. ``vqe`` and ``adapt_vqe`` run an optimizer whose every step observes the kernel: seconds.
A kernel decorated with ``@cudaq.kernel`` at import is compiled at module load: cold, no entry.
"""

from __future__ import annotations

from asynclint.knowledge.api import BlockingApi, many

_CUDAQ = (
    "source: NVIDIA/cuda-quantum python/cudaq/runtime/state.py @117e97bc (get_state: mk_decorator(kernel)."
    "prepare_call lowers and JIT-compiles the module, get_state_impl simulates; get_state_async returns a "
    "future), python/cudaq/runtime/sample.py, observe.py, run.py (the same path); "
    "https://nvidia.github.io/cuda-quantum/latest/_sources/examples/python/executing_kernels.ipynb.txt"
)
_BUILDER = (
    "source: NVIDIA/cuda-quantum python/cudaq/kernel/kernel_builder.py (make_kernel: a PyKernel holding a new "
    "MLIR module in the Quake dialect; exp_pauli: a Pauli-word constant and an exp_pauli op per call); "
    "https://nvidia.github.io/cuda-quantum/0.8.0/api/languages/python_api.html (make_kernel, PyKernel, State)"
)
_SOLVERS = (
    "https://nvidia.github.io/cudaqx/components/solvers/introduction.html (molecule_options.driver: "
    "RESTPySCFDriver by default; get_operator_pool; vqe, adapt_vqe), cudaq_solvers/bin/cudaq-pyscf (the "
    "FastAPI + uvicorn server running PySCF the REST driver posts to); "
    "https://nvidia.github.io/cudaqx/api/solvers/python_api.html"
)
_KERNEL = "cudaq.PyKernel"
_STATE = "cudaq.State"

APIS: tuple[BlockingApi, ...] = (
    *many("cpu", "circuit-simulate", None, "get_state sample observe run", "cudaq.", source=_CUDAQ),
    *many("cpu", "cpu-light", None, "make_kernel", "cudaq.", source=_BUILDER),
    *many("cpu", "cpu-light", None, "exp_pauli", f"{_KERNEL}.", source=_BUILDER),
    *many("cpu", "cpu-light", None, "amplitudes", f"{_STATE}.", source=_BUILDER),
    *many(
        "http",
        "child-process",
        None,
        "create_molecule",
        "cudaq_solvers.",
        source=_SOLVERS,
        what="posts the molecule to the local cudaq-pyscf server (started on first use) and waits for PySCF's SCF",
    ),
    *many("cpu", "cpu-light", None, "get_operator_pool", "cudaq_solvers.", source=_SOLVERS),
    *many("cpu", "circuit-optimize", None, "vqe adapt_vqe", "cudaq_solvers.", source=_SOLVERS),
)

#: What the builder and the state query give, so their methods are known (``cudaq.Kernel`` is an alias).
RETURNS: dict[str, str] = {
    "cudaq.make_kernel()": _KERNEL,
    "cudaq.Kernel": _KERNEL,
    "cudaq.get_state()": _STATE,
}
