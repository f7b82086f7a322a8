"""Documents rendered by a child process: pdf2image.

``convert_from_path`` and ``convert_from_bytes`` (which writes the bytes to a temporary file and
converts that) run poppler's ``pdftoppm`` with ``subprocess.Popen`` and wait for it in
``communicate``, then decode every page with PIL; ``pdfinfo_from_*`` run ``pdfinfo``. No async
API; the calls hold no lock of the caller's, so a worker thread is the fix.
"""

from __future__ import annotations

from asynclint.knowledge.api import BlockingApi, many

_PDF2IMAGE = "source: pkg pdf2image 1.17.0 pdf2image/pdf2image.py (Popen(pdftoppm/pdfinfo) + communicate)"

APIS: tuple[BlockingApi, ...] = (
    *many(
        "subprocess",
        "child-process",
        "to-thread",
        "convert_from_path convert_from_bytes pdfinfo_from_path pdfinfo_from_bytes",
        "pdf2image.",
        source=_PDF2IMAGE,
    ),
    *many(
        "subprocess",
        "child-process",
        "to-thread",
        "convert_from_path convert_from_bytes pdfinfo_from_path pdfinfo_from_bytes",
        "pdf2image.pdf2image.",
        source=_PDF2IMAGE,
    ),
)

#: The pages come back as a list of PIL images (decoded by PIL from pdftoppm's output).
ITEMS: dict[str, str] = {
    f"{module}.{function}()": "PIL.Image.open"
    for module in ("pdf2image", "pdf2image.pdf2image")
    for function in ("convert_from_path", "convert_from_bytes")
}
