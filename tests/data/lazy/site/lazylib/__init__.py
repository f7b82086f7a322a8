"""A package exporting lazily in the three shapes real ones use (read, never imported): a
name -> (module, attribute) table (selenium), a name -> module table (LangChain's
``_dynamic_imports``), and a module -> [names] table bound by ``lazy_loader.attach``."""

import importlib

import lazy_loader as lazy

_LAZY_IMPORTS = {"Fetcher": ("lazylib.parts.fetching", "Fetcher")}
_dynamic_imports = {"load_rows": "parts.rows"}
_SUBMOD_ATTRS = {"parts.clocks": ["pause", "now"]}
_UNREAD = {"snooze": ("lazylib.parts.clocks", "pause")}  # no __getattr__ reads it: not an export

__getattr__, __dir__, __all__ = lazy.attach(__name__, submod_attrs=_SUBMOD_ATTRS)
_attach_getattr = __getattr__


def __getattr__(name):  # noqa: F811
    if name in _LAZY_IMPORTS:
        module, attribute = _LAZY_IMPORTS[name]
        return getattr(importlib.import_module(module), attribute)
    if name in _dynamic_imports:
        return getattr(importlib.import_module(f".{_dynamic_imports[name]}", __name__), name)
    return _attach_getattr(name)
