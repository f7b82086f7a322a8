"""Image processing run inline: OpenCV's filters and inpainting over a whole image; Pillow images built in memory.

OpenCV's Python functions are generated wrappers that call the C++ function inside ``ERRWRAP2``,
which releases the GIL for the call (``PyAllowThreads``; opencv ``modules/python/src2``): a
worker thread really frees the loop. ``cv2.Canny`` runs a Sobel pass, non-maximum suppression and
hysteresis over every pixel (a full-page screenshot of a few million pixels: milliseconds to tens
of them); ``cv2.inpaint`` fills the masked pixels by a fast-marching (Telea) or Navier-Stokes
scheme that visits every masked pixel and its neighbourhood (tens to hundreds of milliseconds for
large masks). Both are graded as CPU work, like the ``imdecode``/``resize`` of the core catalogue.
An image Pillow builds from memory (``Image.frombytes`` of a screenshot's pixels, ``fromarray``,
``new``, ``frombuffer``) is a ``PIL.Image.Image`` like an opened one: its ``save``/``convert``/
``resize`` are the core catalogue's (a PNG encode of a full screen: tens of milliseconds).
"""

from __future__ import annotations

from asynclint.knowledge.api import BlockingApi, many

_OPENCV = (
    "source: pkg opencv-python-headless 5.0.0.93 cv2/__init__.pyi (Canny, inpaint, GaussianBlur, medianBlur, "
    "bilateralFilter); opencv modules/python/src2 ERRWRAP2 (PyAllowThreads around the call)"
)

_PILLOW = "source: pkg pillow 13.0.0 PIL/Image.py (frombytes, frombuffer, fromarray, new -> Image)"

APIS: tuple[BlockingApi, ...] = (
    *many(
        "cpu", "cpu-heavy", "to-thread", "Canny inpaint GaussianBlur medianBlur bilateralFilter", "cv2.", source=_OPENCV
    ),
)

#: Images built in memory are typed like an opened one (the core catalogue's ``PIL.Image.open``).
RETURNS: dict[str, str] = {
    f"PIL.Image.{function}()": "PIL.Image.open" for function in ("frombytes", "frombuffer", "fromarray", "new")
}
