"""The names a module exports lazily (PEP 562): a module-level ``__getattr__`` that imports them
from the tables the module writes, read as exports the way an import would be.

Packages that keep ``import pkg`` cheap do this (selenium 4.x's ``selenium.webdriver``:
``_LAZY_IMPORTS = {"Chrome": ("selenium.webdriver.chrome.webdriver", "WebDriver")}``; LangChain's
``_dynamic_imports = {"AIMessage": "ai"}``; scientific-python's ``lazy_loader`` tables
``{"submodule": ["name", ...]}``). Without them deep mode stops at the package: the class the
project builds, ``webdriver.Chrome``, is defined nowhere it reads."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from asynclint.analysis.index.walks import walk


def lazy_exports(tree: ast.Module, module: str, package: str) -> Iterator[tuple[str, str]]:
    """(name, dotted target) for each name a table read by the module's ``__getattr__`` maps.
    ``package``: what a relative module name in a table is relative to."""
    readers = _getattr_readers(tree.body)
    if not readers:
        return
    read = {node.id for reader in readers for node in walk(reader) if isinstance(node, ast.Name)}
    top = module.partition(".")[0]
    for name, table in _tables(tree.body):
        if name in read:
            yield from _entries(table, top, package)


def _getattr_readers(body: list[ast.stmt]) -> list[ast.AST]:
    """``def __getattr__`` at module level, or the value bound to it (``__getattr__, __dir__,
    __all__ = lazy.attach(__name__, submod_attrs=_SUBMOD_ATTRS)``)."""
    readers: list[ast.AST] = []
    for node in body:
        if isinstance(node, ast.FunctionDef) and node.name == "__getattr__":
            readers.append(node)
        elif isinstance(node, ast.Assign) and any(
            isinstance(bound, ast.Name) and bound.id == "__getattr__"
            for target in node.targets
            for bound in walk(target)
        ):
            readers.append(node.value)
    return readers


def _tables(body: list[ast.stmt]) -> Iterator[tuple[str, ast.Dict]]:
    for node in body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            target, value = node.target, node.value
        else:
            continue
        if isinstance(target, ast.Name) and isinstance(value, ast.Dict):
            yield target.id, value


def _text(node: ast.AST | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _module(name: str, top: str, package: str) -> str:
    """A table's module name as a dotted path: absolute when it starts with the module's own
    top-level package, else relative to ``package`` (a leading dot, or LangChain's bare ``"ai"``)."""
    if name.startswith("."):
        return f"{package}.{name.lstrip('.')}" if name.strip(".") else package
    if name == top or name.startswith(f"{top}."):
        return name
    return f"{package}.{name}"


def _entries(table: ast.Dict, top: str, package: str) -> Iterator[tuple[str, str]]:
    for key_node, value in zip(table.keys, table.values, strict=True):
        key = _text(key_node)
        if key is None:
            continue
        if isinstance(value, ast.Tuple | ast.List) and value.elts and all(_text(e) is not None for e in value.elts):
            names = [_text(e) or "" for e in value.elts]
            if isinstance(value, ast.Tuple) and len(names) == 2:  # name -> (module, attribute)
                yield key, f"{_module(names[0], top, package)}.{names[1]}"
            else:  # submodule -> [names it defines]
                yield from ((name, f"{_module(key, top, package)}.{name}") for name in names)
        elif (text := _text(value)) is not None and text != "__module__":  # LangChain's: the package itself
            target = _module(text, top, package)
            # ``"chrome": "selenium.webdriver.chrome"`` names the submodule; ``"AIMessage": "ai"``
            # the module that defines the name.
            yield key, target if target.rpartition(".")[2] == key else f"{target}.{key}"
