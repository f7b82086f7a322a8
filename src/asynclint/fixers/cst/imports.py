"""Adding and dropping imports where an isort user would put them, and the import binding a name."""

from __future__ import annotations

import libcst as cst

from asynclint.fixers.base import Import
from asynclint.fixers.cst.parsed import ParsedFile, alias_name


def _import_key(statement: cst.CSTNode) -> tuple[bool, str, str] | None:
    """(is a ``from`` import, module, first name) for a one-import statement line, else None."""
    if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
        return None
    small = statement.body[0]
    render = cst.Module([]).code_for_node
    if isinstance(small, cst.Import):
        return (False, render(small.names[0].name), "")
    if isinstance(small, cst.ImportFrom) and small.module is not None and not small.relative:
        if small.module.value == "__future__" if isinstance(small.module, cst.Name) else False:
            return None
        first = "" if isinstance(small.names, cst.ImportStar) else render(small.names[0].name)
        return (True, render(small.module), first)
    return None


def _has_import(module: cst.Module, wanted_module: str, name: str | None) -> bool:
    render = module.code_for_node
    for statement in module.body:
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        for small in statement.body:
            if name is None and isinstance(small, cst.Import):
                if any(render(a.name) == wanted_module and a.asname is None for a in small.names):
                    return True
            if name is not None and isinstance(small, cst.ImportFrom) and small.module is not None:
                if (
                    render(small.module) == wanted_module
                    and not small.relative
                    and not isinstance(small.names, cst.ImportStar)
                ):
                    if any(render(a.name) == name and a.asname is None for a in small.names):
                        return True
    return False


def _is_preamble(statement: cst.CSTNode, index: int) -> bool:
    """The module docstring (first statement) or a ``from __future__`` import."""
    if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
        return False
    small = statement.body[0]
    if (
        index == 0
        and isinstance(small, cst.Expr)
        and isinstance(small.value, cst.SimpleString | cst.ConcatenatedString)
    ):
        return True
    return (
        isinstance(small, cst.ImportFrom) and isinstance(small.module, cst.Name) and small.module.value == "__future__"
    )


def _is_stdlib(module: str) -> bool:
    import sys

    return module.split(".")[0] in sys.stdlib_module_names


def add_import(module: cst.Module, wanted_module: str, name: str | None = None) -> cst.Module:
    """Add ``import m`` / ``from m import n`` unless it is there, where an isort user would put
    it: in the top block of imports, in its section (standard library or not), in order
    (``import`` lines before ``from`` lines, then by module)."""
    if _has_import(module, wanted_module, name):
        return module
    if name is not None:
        merged = _merge_from_import(module, wanted_module, name)
        if merged is not None:
            return merged
    code = f"import {wanted_module}" if name is None else f"from {wanted_module} import {name}"
    new = cst.parse_statement(code + "\n")
    key = (name is not None, wanted_module, name or "")
    stdlib = _is_stdlib(wanted_module)
    body = list(module.body)
    block: list[int] = []  # indices of the leading import lines
    keys: dict[int, tuple[bool, str, str]] = {}  # their import keys
    for index, statement in enumerate(body):
        statement_key = _import_key(statement)
        if statement_key is not None:
            block.append(index)
            keys[index] = statement_key
        elif index == 0 and isinstance(statement, cst.SimpleStatementLine) and isinstance(statement.body[0], cst.Expr):
            continue  # module docstring
        elif isinstance(statement, cst.SimpleStatementLine) and isinstance(statement.body[0], cst.ImportFrom):
            continue  # from __future__ / relative imports
        else:
            break
    if not block:  # after the docstring and any `from __future__` import, which must stay first
        insert_at = 0
        while insert_at < len(body) and _is_preamble(body[insert_at], insert_at):
            insert_at += 1
        if insert_at < len(body) and not body[insert_at].leading_lines:
            body[insert_at] = body[insert_at].with_changes(leading_lines=[cst.EmptyLine(indent=False)])
        body.insert(insert_at, new.with_changes(leading_lines=[cst.EmptyLine(indent=False)] if insert_at else []))
        return module.with_changes(body=body)
    section = [i for i in block if _is_stdlib(keys[i][1]) == stdlib]
    if section:
        after = [i for i in section if keys[i] > key]
        if after:  # take the place (and the leading blank lines / comments) of the next one
            index = after[0]
            following = body[index]
            body[index] = following.with_changes(leading_lines=[])
            body.insert(index, new.with_changes(leading_lines=following.leading_lines))
        else:
            body.insert(section[-1] + 1, new)
    elif stdlib:  # a new first section
        first = body[block[0]]
        body[block[0]] = first.with_changes(leading_lines=[cst.EmptyLine()])
        body.insert(block[0], new.with_changes(leading_lines=first.leading_lines))
    else:
        body.insert(block[-1] + 1, new.with_changes(leading_lines=[cst.EmptyLine()]))
    return module.with_changes(body=body)


def _merge_from_import(module: cst.Module, wanted_module: str, name: str) -> cst.Module | None:
    """Add ``name`` to an existing one-line ``from wanted_module import ...``, in order."""
    for index, statement in enumerate(module.body):
        key = _import_key(statement)
        if key is None or not key[0] or key[1] != wanted_module:
            continue
        # A key that says ``from`` comes of a line holding one ``from ... import``.
        assert isinstance(statement, cst.SimpleStatementLine)
        small = statement.body[0]
        assert isinstance(small, cst.ImportFrom)
        if isinstance(small.names, cst.ImportStar) or small.lpar is not None:
            continue
        names = [alias.with_changes(comma=cst.MaybeSentinel.DEFAULT) for alias in small.names]
        names.append(cst.ImportAlias(name=cst.Name(name)))
        names.sort(key=lambda alias: module.code_for_node(alias).lower())
        separated = [
            alias.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))) for alias in names[:-1]
        ]
        updated = statement.with_changes(body=[small.with_changes(names=[*separated, names[-1]])])
        return module.with_changes(body=[*module.body[:index], updated, *module.body[index + 1 :]])
    return None


def alias_asname(alias: cst.ImportAlias) -> str | None:
    return alias.asname.name.value if alias.asname is not None and isinstance(alias.asname.name, cst.Name) else None


def drop_unused_import(module: cst.Module, from_module: str, name: str | None, alias: str | None) -> cst.Module:
    """Remove ``import from_module`` / ``from from_module import name`` (``as alias``) when the
    name it binds appears nowhere else in the file (other than after a dot) -- not in code,
    strings (``__all__``) or comments: a textual test that errs on the side of keeping it."""
    import re

    bound = alias or name or from_module.split(".")[0]
    if len(re.findall(rf"(?<![.\w]){re.escape(bound)}\b", module.code)) > 1:  # `x.name` is not a use
        return module
    render = module.code_for_node
    body = list(module.body)
    for index, statement in enumerate(body):
        if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
            continue
        small = statement.body[0]
        if isinstance(small, cst.Import) and name is None:
            names = small.names
        elif (
            isinstance(small, cst.ImportFrom)
            and name is not None
            and small.module is not None
            and not small.relative
            and render(small.module) == from_module
            and not isinstance(small.names, cst.ImportStar)
        ):
            names = small.names
        else:
            continue
        wanted = name if name is not None else from_module
        kept = [a for a in names if not (render(a.name) == wanted and alias_asname(a) == alias)]
        if len(kept) == len(names):
            continue
        if not kept:
            following = body[index + 1] if index + 1 < len(body) else None
            if following is not None and not following.leading_lines and statement.leading_lines:
                body[index + 1] = following.with_changes(leading_lines=statement.leading_lines)
            del body[index]
        else:
            kept[-1] = kept[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
            body[index] = statement.with_changes(body=[small.with_changes(names=kept)])
        return module.with_changes(body=body)
    return module


def import_binding(file: ParsedFile, name: str) -> tuple[Import, ...]:
    """The top-level import that binds ``name`` (``import requests as r``, ``from time import
    sleep``), as an :class:`~asynclint.fixers.base.Import` to drop once nothing uses it."""
    for statement in file.module.body:
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        for small in statement.body:
            if isinstance(small, cst.Import):
                for alias in small.names:
                    if alias_name(alias, dotted_first=True) == name:
                        return (Import(file.code(alias.name), None, alias_asname(alias)),)
            elif isinstance(small, cst.ImportFrom) and small.module is not None and not small.relative:
                if isinstance(small.names, cst.ImportStar):
                    continue
                for alias in small.names:
                    if alias_name(alias) == name:
                        return (Import(file.code(small.module), file.code(alias.name), alias_asname(alias)),)
    return ()
