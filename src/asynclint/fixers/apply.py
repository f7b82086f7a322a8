"""A round's fixes written into the project's texts: which go together (edits that do not
overlap, identical fixes merged, one per reserved function), then each file's edits, imports and
module-level statements applied. Pure: parsed files and fixes in, texts out."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import libcst as cst

from asynclint.fixers.base import Edit, Fix, ModuleStatement
from asynclint.fixers.cst.imports import add_import, drop_unused_import
from asynclint.fixers.cst.parsed import ParsedFile
from asynclint.fixers.project import FixProject
from asynclint.model import Finding

#: Where an edit lies: (path, start, end), each a (line, column).
Span = tuple[str, tuple[int, int], tuple[int, int]]


def edit_spans(fix: Fix, project: FixProject) -> list[Span]:
    return [(edit_path(edit, fix), *project.file(edit_path(edit, fix)).span(edit.node)) for edit in fix.edits]


def edit_path(edit: Edit, fix: Fix) -> str:
    return edit.path or fix.path


def _reserves(fix: Fix, project: FixProject) -> list[Span]:
    file = project.file(fix.path)
    return [(fix.path, *file.span(node)) for node in fix.reserve]


def _overlap(a: Span, b: Span) -> bool:
    return a[0] == b[0] and a[1] < b[2] and b[1] < a[2]


def _signature(fix: Fix, project: FixProject) -> tuple:
    spans = edit_spans(fix, project)
    return tuple((span, _code(edit.replacement)) for span, edit in zip(spans, fix.edits, strict=True))


def _code(node: cst.CSTNode | cst.FlattenSentinel) -> str:
    nodes = list(node.nodes) if isinstance(node, cst.FlattenSentinel) else [node]
    return "".join(cst.Module([]).code_for_node(n) for n in nodes)


def _size(span: Span) -> tuple[int, int]:
    (l1, c1), (l2, c2) = span[1], span[2]
    return (l2 - l1, c2 - c1 if l1 == l2 else 10**6)


def without_overlaps(proposals: list[Fix], project: FixProject, reasons: dict[Finding, str]) -> list[Fix]:
    """Outer edits first (a ``with`` block before the calls inside it); identical fixes (two
    findings in one helper, offloaded by one edit) are merged; the rest wait a round.

    Of the fixes that reserve one function (each adds a statement the later ones reuse, such as
    ``loop = asyncio.get_running_loop()``), only the first in the source goes this round: a
    later call fixed first would bind it below the earlier call, which would then bind it again."""
    ordered = sorted(proposals, key=lambda fix: max(_size(span) for span in edit_spans(fix, project)), reverse=True)
    first_reserving: dict[Span, tuple[int, int]] = {}
    for fix in proposals:
        start = min(span[1] for span in edit_spans(fix, project))
        for span in _reserves(fix, project):
            first_reserving[span] = min(first_reserving.get(span, start), start)
    chosen: list[Fix] = []
    taken: list[Span] = []
    reserved: list[Span] = []
    signatures: dict[tuple, int] = {}
    for fix in ordered:
        signature = _signature(fix, project)
        if signature in signatures:
            index = signatures[signature]
            merged = tuple(dict.fromkeys(chosen[index].claims + fix.claims))  # each finding claimed once
            chosen[index] = replace(chosen[index], claims=merged)
            continue
        spans = edit_spans(fix, project)
        reserves = _reserves(fix, project)
        start = min(span[1] for span in spans)
        if (
            any(_overlap(span, other) for span in spans for other in taken)
            or any(_overlap(span, other) for span in reserves for other in reserved)
            or any(first_reserving[span] < start for span in reserves)
        ):
            for claim in fix.claims:
                reasons.setdefault(claim, "its edit overlapped another fix")
            continue
        signatures[signature] = len(chosen)
        chosen.append(fix)
        taken.extend(spans)
        reserved.extend(reserves)
    return chosen


def apply(fixes: list[Fix], project: FixProject, texts: dict[str, str]) -> dict[str, str]:
    updated = dict(texts)
    paths = dict.fromkeys(path for fix in fixes for path in (fix.path, *(edit_path(edit, fix) for edit in fix.edits)))
    for path in paths:
        updated[path] = _apply_to_file(project.file(path), fixes)
    return updated


class _Replace(cst.CSTTransformer):
    def __init__(self, replacements: dict[int, cst.CSTNode | cst.FlattenSentinel]):
        self.replacements = replacements

    # Any: a replacement may be another kind of node, which libcst's signature (the same kind
    # back) cannot say.
    def on_leave(self, original_node: cst.CSTNode, updated_node: cst.CSTNode) -> Any:
        return self.replacements.get(id(original_node), updated_node)


def _apply_to_file(file: ParsedFile, fixes: list[Fix]) -> str:
    """The fixes' edits in ``file`` with the imports they need there; the imports and module-level
    changes of the fixes made for it (a fix's other files only get the calls it rewrote there)."""
    edits = [edit for fix in fixes for edit in fix.edits if edit_path(edit, fix) == file.path]
    own = [fix for fix in fixes if fix.path == file.path]
    module = file.module.visit(_Replace({id(edit.node): edit.replacement for edit in edits}))
    needed = [wanted for fix in own for wanted in fix.imports] + [wanted for edit in edits for wanted in edit.imports]
    for wanted in dict.fromkeys(needed):
        module = add_import(module, wanted.module, wanted.name)
    for old in dict.fromkeys(old for fix in own for old in fix.unused_imports):
        module = drop_unused_import(module, old.module, old.name, old.alias)
    statements = list(dict.fromkeys(statement for fix in own for statement in fix.statements))
    if statements:
        module = _add_statements(module, statements, file.module_level_names())
    return module.code


def _add_statements(module: cst.Module, statements: list[ModuleStatement], bound: set[str]) -> cst.Module:
    """Module-level statements after the last import of the leading import block."""
    body = list(module.body)
    position = 0
    for index, existing in enumerate(body):
        if isinstance(existing, cst.SimpleStatementLine) and all(
            isinstance(small, cst.Import | cst.ImportFrom) for small in existing.body
        ):
            position = index + 1
        elif index == 0 and isinstance(existing, cst.SimpleStatementLine) and isinstance(existing.body[0], cst.Expr):
            position = 1  # the docstring
        elif isinstance(existing, cst.If | cst.Try):
            continue  # `if TYPE_CHECKING:` and guarded imports
        else:
            break
    for statement in statements:
        if statement.name in bound:
            continue
        at = max([position, *(_after_binding(body, name) for name in statement.after)])
        parsed = cst.parse_statement(statement.code + "\n")
        blank = 2 if isinstance(parsed, cst.FunctionDef | cst.ClassDef) else 1  # PEP 8 sets defs apart by two
        leading = [cst.EmptyLine(indent=False)] * blank
        if statement.comment:
            leading.append(cst.EmptyLine(comment=cst.Comment(f"# {statement.comment}")))
        if at < len(body):
            lines = list(body[at].leading_lines)
            empty = next((i for i, line in enumerate(lines) if line.comment is not None), len(lines))
            if empty < blank:
                body[at] = body[at].with_changes(leading_lines=[cst.EmptyLine(indent=False)] * (blank - empty) + lines)
        body.insert(at, parsed.with_changes(leading_lines=leading))
        bound.add(statement.name)
    return module.with_changes(body=body)


def _after_binding(body: Sequence[cst.BaseStatement], name: str) -> int:
    """The index just past the last top-level statement binding ``name`` (0 if none)."""
    at = 0
    for index, statement in enumerate(body):
        if name in ParsedFile.statement_bindings(statement):
            at = index + 1
    return at
