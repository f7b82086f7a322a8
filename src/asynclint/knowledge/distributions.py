"""Distributions whose top-level module has another name than they do (``pip install pillow``,
``import PIL``): what a project declares in its requirements is a distribution, what its guarded
import tests is a module (``analysis.index.importflags``). A distribution absent here imports as its
own name, normalised (``RestrictedPython``, ``math-verify`` as ``math_verify``). Keys are PEP
503-normalised. A namespace package's distributions (``google-*``) are not here: a guarded import's
flag is keyed by its top-level module, which they share.
Sources: each project's packaging (its wheel's ``top_level.txt``)."""

from __future__ import annotations

DISTRIBUTION_MODULES: dict[str, tuple[str, ...]] = {
    "pillow": ("PIL",),
    "pyyaml": ("yaml",),
    "opencv-python": ("cv2",),
    "opencv-python-headless": ("cv2",),
    "opencv-contrib-python": ("cv2",),
    "scikit-learn": ("sklearn",),
    "scikit-image": ("skimage",),
    "beautifulsoup4": ("bs4",),
    "python-dotenv": ("dotenv",),
    "python-dateutil": ("dateutil",),
    "attrs": ("attr", "attrs"),
    "pymupdf": ("fitz", "pymupdf"),
    "faiss-cpu": ("faiss",),
    "faiss-gpu": ("faiss",),
}


def modules_of(distribution: str) -> tuple[str, ...]:
    """The top-level modules ``distribution`` (PEP 503-normalised) installs: its own name unless
    :data:`DISTRIBUTION_MODULES` says otherwise."""
    return DISTRIBUTION_MODULES.get(distribution, (distribution,))
