"""Recipes ``async-def`` and ``sync-def``: a framework hook written with the wrong keyword.

``async-def`` (ASL201): a v1 hook the framework awaits, written with ``def``, becomes
``async def``; its body is unchanged (blocking calls in it are then fixed as calls in an
``async def``, next round). ``sync-def`` (ASL202): a v0 ``update_tool_args`` written as
``async def``, which the framework calls without awaiting, becomes ``def`` -- only when its body
never awaits. Both are safe because the framework is the only caller; each declines when the
project calls the function itself, since those calls would break.
"""

from __future__ import annotations

import ast

import libcst as cst

from asynclint.fixers.base import Decline, Edit, Fix, FixerSpec
from asynclint.fixers.cst.names import block_names
from asynclint.fixers.project import FixProject
from asynclint.model import Finding

SPEC = (
    FixerSpec(
        "async-def",
        True,
        "make it `async def` (the framework awaits it)",
        definitions=("ASL201",),
        function="make_async",
    ),
    FixerSpec(
        "sync-def",
        True,
        "make it a plain `def` (the framework calls it without awaiting)",
        definitions=("ASL202",),
        function="make_sync",
    ),
)


def _function(finding: Finding, project: FixProject) -> cst.FunctionDef | Decline:
    if finding.path not in project.texts or not finding.chain:
        return Decline("the hook is not among the files being fixed")
    file = project.file(finding.path)
    function = file.function(finding.chain[0].function)
    if function is None or file.positions[function].start.line != finding.line:
        return Decline(f"cannot find `{finding.chain[0].function}` at line {finding.line}")
    return function


def make_async(finding: Finding, project: FixProject) -> Fix | Decline:
    function = _function(finding, project)
    if isinstance(function, Decline):
        return function
    name = function.name.value
    refused = project.redefinable(finding.path, finding.chain[0].function, "a coroutine")
    if refused is not None:
        return refused
    if any(
        isinstance(node, ast.Yield | ast.YieldFrom)
        for node in _own_nodes(project.texts[finding.path], function, project, finding)
    ):
        return Decline(f"`{name}` is a generator")
    return Fix(
        path=finding.path,
        edits=(Edit(function, function.with_changes(asynchronous=cst.Asynchronous())),),
        recipe="async-def",
        safe=True,
        title=f"made `{name}` `async def`, as the framework requires",
        claims=(finding,),
    )


def make_sync(finding: Finding, project: FixProject) -> Fix | Decline:
    function = _function(finding, project)
    if isinstance(function, Decline):
        return function
    name = function.name.value
    file = project.file(finding.path)
    problems = [
        p
        for p in block_names(
            file, list(function.body.body) if isinstance(function.body, cst.IndentedBlock) else []
        ).problems
        if "await" in p or "async" in p
    ]
    if problems:
        return Decline(f"`{name}` {problems[0]}, so it cannot simply become a plain `def`")
    refused = project.redefinable(finding.path, finding.chain[0].function, "a plain value where they may await")
    if refused is not None:
        return refused
    return Fix(
        path=finding.path,
        edits=(Edit(function, function.with_changes(asynchronous=None)),),
        recipe="sync-def",
        safe=True,
        title=f"made `{name}` a plain `def`, as the framework calls it without awaiting",
        claims=(finding,),
    )


def _own_nodes(text: str, function: cst.FunctionDef, project: FixProject, finding: Finding) -> list[ast.AST]:
    """The ``ast`` nodes of the function's own body (nested functions and lambdas left out)."""
    tree = ast.parse(text)
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.lineno == finding.line:
            found: list[ast.AST] = []
            stack: list[ast.AST] = list(node.body)
            while stack:
                item = stack.pop()
                found.append(item)
                if not isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
                    stack.extend(ast.iter_child_nodes(item))
            return found
    return []
