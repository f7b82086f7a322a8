"""Functions returning a tuple one element of which is what calling a callable they are handed
returns (``result = await func(*args); return result, False``): which parameter, which element."""

from __future__ import annotations

import ast

from asynclint.analysis.index.helpers import (
    _bound_once,
    _called_name,
    _returned_values,
    is_none,
    last_name,
    module_functions,
)


def element_runners(tree: ast.Module, module: str) -> dict[str, tuple[int, int]]:
    """Functions and methods of the module whose returned tuples hold, at one element, what calling
    one of their parameters returns -- written there, or a name bound once to it -- and ``None`` in
    the others (``return None, True`` after a failure): qualified name -> (the parameter's position
    among a call's arguments, ``self`` not counted; the element). A guarded runner
    (``_try_or_abort(exec_id, self.engine.get_image, path)``) hands its caller the callable's result
    beside a flag, so ``image, error = await ...`` is what ``get_image`` returns."""
    found: dict[str, tuple[int, int]] = {}
    for qualname, node, method in module_functions(tree, module):
        params = [arg.arg for arg in (*node.args.posonlyargs, *node.args.args)]
        if method and not any(last_name(d) == "staticmethod" for d in node.decorator_list):
            params = params[1:]  # the receiver
        returned = _returned_values(node)
        if not returned or not all(isinstance(value, ast.Tuple) for value in returned):
            continue
        bound = _bound_once(node)
        runs = {
            (params.index(name), element)
            for element in range(min(len(value.elts) for value in returned))  # type: ignore[attr-defined]
            if (name := _run_at(returned, element, bound)) is not None and name in params
        }
        if len(runs) == 1:
            found[qualname] = runs.pop()
    return found


def _run_at(returned: list[ast.expr], element: int, bound: dict) -> str | None:
    """The callable every returned tuple holds the result of at ``element`` (``None`` allowed in
    some), if one does."""
    names = set()
    for value in returned:
        item = value.elts[element]  # type: ignore[attr-defined]
        if isinstance(item, ast.Name) and item.id in bound and bound[item.id][1] is None:
            item = bound[item.id][0]
        if not is_none(item):
            names.add(_called_name(item))
    return names.pop() if len(names) == 1 else None
