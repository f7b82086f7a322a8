"""Functions the project assigns to another module's attribute (``_telecom_env.load_file =
_load_file_utf8``): where a library calls that attribute, it calls the project's function
instead (see ``BlockingApi.calls_attributes``)."""

from __future__ import annotations

import ast
from collections.abc import Callable


def module_patches(tree: ast.Module, denoted: Callable[[ast.expr], str | None]) -> tuple[tuple[str, str], ...]:
    """(the attribute assigned, dotted, the dotted name of the value) for every assignment of a
    named value to an attribute of a name the module binds to a module or other dotted object,
    wherever it is written; ``denoted`` names what an expression denotes at the module's level
    (an import inside a function is not seen, nor is a ``self`` attribute: neither is a module)."""
    found: list[tuple[str, str]] = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.value, ast.Name)):
            continue
        target = node.targets[0]
        if not (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)):
            continue
        owner, value = denoted(target.value), denoted(node.value)
        if owner and value:
            found.append((f"{owner}.{target.attr}", value))
    return tuple(dict.fromkeys(found))
