"""``python -m asynclint``."""

import os
import sys

# `python -m` puts the working directory first on sys.path, so a project's own `click.py` (or
# any module asynclint imports) would be imported instead of the real one. asynclint never needs
# the working directory there: `profile` puts a target's own directory on the path itself.
# (An `asynclint.py` in the working directory still shadows this package: Python finds it before
# any of this runs; the `asynclint` command, or `python -P -m asynclint`, is immune.)
if sys.path and sys.path[0] in ("", os.getcwd()):
    del sys.path[0]

from asynclint.cli import run  # noqa: E402 (after the path is made safe)

if __name__ == "__main__":
    run()
