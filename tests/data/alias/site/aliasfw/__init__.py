"""A stand-in for a framework that moved its classic stack to ``aliasfw.legacy`` and still
answers at the historical paths, the way verifiers 0.3 does (read, never imported):

* a meta-path finder aliases every ``aliasfw.<module>`` to ``aliasfw.legacy.<module>`` in
  ``sys.modules`` (``from aliasfw.utils.net_utils import fetch_config`` loads
  ``aliasfw/legacy/utils/net_utils.py``; there is no ``aliasfw/utils`` directory);
* a module ``__getattr__`` forwards ``aliasfw.X`` to ``aliasfw.legacy.X``;
* a star import under ``TYPE_CHECKING`` gives type checkers the same view;
* ``sys.modules`` makes ``aliasfw.files`` another name of the legacy file helpers.
"""

import pkgutil
import sys
from functools import cache
from importlib import import_module
from importlib.abc import Loader, MetaPathFinder
from importlib.machinery import ModuleSpec
from importlib.util import find_spec
from typing import TYPE_CHECKING

from aliasfw.legacy.utils import file_utils as _file_utils


@cache
def _legacy_modules() -> frozenset:
    spec = find_spec("aliasfw.legacy")
    if spec is None or spec.submodule_search_locations is None:
        return frozenset()
    return frozenset(module.name for module in pkgutil.iter_modules(spec.submodule_search_locations))


class LegacyAliasFinder(MetaPathFinder, Loader):
    _prefix = "aliasfw."
    _legacy_prefix = "aliasfw.legacy."

    def find_spec(self, fullname, path=None, target=None):
        if not fullname.startswith(self._prefix):
            return None
        top = fullname.removeprefix(self._prefix).split(".", 1)[0]
        if top == "legacy" or top not in _legacy_modules():
            return None
        legacy_spec = find_spec(self._legacy_prefix + fullname.removeprefix(self._prefix))
        if legacy_spec is None:
            return None
        spec = ModuleSpec(fullname, self, origin=legacy_spec.origin,
                          is_package=legacy_spec.submodule_search_locations is not None)
        spec.submodule_search_locations = legacy_spec.submodule_search_locations
        return spec

    def create_module(self, spec):
        return import_module(self._legacy_prefix + spec.name.removeprefix(self._prefix))

    def exec_module(self, module):
        pass


if not any(isinstance(finder, LegacyAliasFinder) for finder in sys.meta_path):
    sys.meta_path.insert(0, LegacyAliasFinder())


sys.modules[__name__ + ".files"] = _file_utils


def __getattr__(name: str):
    return getattr(import_module("aliasfw.legacy"), name)


if TYPE_CHECKING:
    from aliasfw.legacy import *
