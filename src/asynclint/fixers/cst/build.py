"""Building replacements: an awaited call with the right parentheses, the edit at a site (a
long line's value stored first) and the fix made of it, a call handed to a runner, and an
``open`` call's mode."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import libcst as cst

from asynclint.fixers.base import Edit, Fix, Import
from asynclint.fixers.cst.bindings import binding
from asynclint.fixers.cst.names import names_bound_in
from asynclint.fixers.cst.parsed import ParsedFile, dotted, last_name
from asynclint.fixers.project import Site
from asynclint.model import Finding

#: Lines the fixers write are wrapped when they would pass this length (or the original line's).
LINE_LENGTH = 100


def awaited(file: ParsedFile, call: cst.Call | cst.Attribute, value: cst.BaseExpression) -> cst.Await:
    """``await value`` standing where ``call`` was: the call's own parentheses move onto the
    ``await``, and parentheses are added where ``await`` would otherwise bind wrongly
    (``f(a).attr`` -> ``(await ...).attr``, also as a subscript's or call's target). A line
    made too long is wrapped the way black would: arguments on their own line(s)."""
    if isinstance(value, cst.Call):
        value = _fit(file, call, value)
    node = cst.Await(expression=value, lpar=call.lpar, rpar=call.rpar)
    parent = file.parent(call)
    needs_parens = (
        (isinstance(parent, cst.Attribute) and parent.value is call)
        or (isinstance(parent, cst.Subscript) and parent.value is call)
        or (isinstance(parent, cst.Call) and parent.func is call)
    )
    if needs_parens and not call.lpar:
        node = node.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    return node


def _fit(file: ParsedFile, call: cst.Call | cst.Attribute, value: cst.Call) -> cst.Call:
    (start_line, _), (end_line, _) = file.span(call)
    old = file.code(call)
    new = file.code(value)
    if start_line != end_line or "\n" in new or not value.args:
        return value
    parent = file.parent(call)
    if not isinstance(parent, cst.Expr | cst.Assign | cst.AnnAssign | cst.AugAssign | cst.Return):
        return value  # broken inside a larger expression it reads worse: see site_edit's hoisting
    line = _code_part(file.line(start_line), file.span(call)[1][1])
    if len(line) - len(old) + len(new) + len("await ") <= max(LINE_LENGTH, len(line)):
        return value
    return _layout(file, value, line[: len(line) - len(line.lstrip())])


def _layout(file: ParsedFile, value: cst.Call, block_indent: str) -> cst.Call:
    """``value``'s arguments on one continuation line, or one per line when that is too long."""
    step = file.module.default_indent
    if not value.args:
        return value

    def broken(extra: str) -> cst.ParenthesizedWhitespace:
        return cst.ParenthesizedWhitespace(
            first_line=cst.TrailingWhitespace(), indent=True, last_line=cst.SimpleWhitespace(extra)
        )

    args = [arg.with_changes(whitespace_after_arg=cst.SimpleWhitespace("")) for arg in value.args]
    one_line = ", ".join(file.code(arg.with_changes(comma=cst.MaybeSentinel.DEFAULT)) for arg in args)
    if len(block_indent) + len(step) + len(one_line) <= LINE_LENGTH:
        args = [arg.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))) for arg in args[:-1]] + [
            args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT, whitespace_after_arg=broken(""))
        ]
    else:  # one argument per line, with the trailing comma black would add
        args = [arg.with_changes(comma=cst.Comma(whitespace_after=broken(step))) for arg in args[:-1]] + [
            args[-1].with_changes(comma=cst.Comma(whitespace_after=broken("")))
        ]
    return value.with_changes(args=args, whitespace_before_args=broken(step))


def _code_part(line: str, end: int) -> str:
    """The line without its trailing comment (a comment is no reason to wrap code)."""
    import io
    import tokenize

    try:
        for token in tokenize.generate_tokens(io.StringIO(line.lstrip()).readline):
            if token.type == tokenize.COMMENT:
                return line[: len(line) - len(line.lstrip()) + token.start[1]].rstrip()
    except (tokenize.TokenError, SyntaxError, IndentationError):
        pass
    return line


def awaited_fix(
    site: Site,
    value: cst.BaseExpression,
    recipe: str,
    title: str,
    claims: tuple[Finding, ...],
    *,
    safe: bool = True,
    imports: tuple[Import, ...] = (),
    unused_imports: tuple[Import, ...] = (),
    note: str = "",
) -> Fix:
    """The fix putting ``await value`` where the site's call is (:func:`awaited`, :func:`site_edit`):
    in its own file, the root made ``async def`` at a ``root`` site (say so in ``title``: :meth:`Site.did`)."""
    return Fix(
        path=site.file.path,
        edits=(site_edit(site, awaited(site.file, site.call, value)),),
        recipe=recipe,
        safe=safe,
        title=title,
        imports=imports,
        unused_imports=unused_imports,
        claims=claims,
        note=note,
    )


def site_edit(
    site: Site, replacement: cst.BaseExpression, prelude: tuple[cst.BaseStatement, ...] = (), hoist: bool = True
) -> Edit:
    """The edit putting ``replacement`` where the site's call is.

    At a ``root`` site the root function becomes ``async def`` in the same edit. ``prelude``
    statements go just before the call's statement. When the call sits inside a larger
    expression and the line would grow past :data:`LINE_LENGTH`, the awaited value is first
    stored in a local (``matches = await ...``), as a person would write it -- only where that
    cannot change what runs first (see :func:`_hoistable`), and unless ``hoist`` is false (the
    statement has another call to replace)."""

    if isinstance(site.function, cst.Lambda):
        # The lambda's whole body (FixProject checked): it returns the awaitable, which its
        # framework awaits (RESULT_AWAITED); a lambda cannot hold `await`.
        returned = replacement.expression if isinstance(replacement, cst.Await) else replacement
        return Edit(site.call, returned.with_changes(lpar=site.call.lpar, rpar=site.call.rpar))
    if site.placement == "root":
        updated = site.function.deep_replace(site.call, replacement)
        return Edit(site.function, updated.with_changes(asynchronous=cst.Asynchronous()))
    file, call = site.file, site.call
    statement = file.statement_of(call)
    hoist = hoist and statement is not None and _too_long(file, call, replacement) and _hoistable(file, call, statement)
    if not prelude and not hoist:
        return Edit(call, replacement)
    if statement is None:
        raise ValueError("statements can only be inserted before a statement in a block")
    before = list(prelude)
    if hoist:
        local = file.fresh_name(_result_name(call), names_bound_in(file, site.function))
        value = replacement.with_changes(lpar=[], rpar=[]) if isinstance(replacement, cst.Await) else replacement
        assign = cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(cst.Name(local))], value)])
        before.append(_wrapped(file, statement, assign))
        replacement = cst.Name(local)
    rewritten = statement.deep_replace(call, replacement)
    first, *rest = before
    # Every statement is a simple line or a compound statement, each with its leading lines.
    assert isinstance(statement, cst.SimpleStatementLine | cst.BaseCompoundStatement)
    return Edit(
        statement,
        cst.FlattenSentinel(
            [
                first.with_changes(leading_lines=statement.leading_lines),
                *rest,
                rewritten.with_changes(leading_lines=[]),
            ]
        ),
    )


#: A result's name from the function that produced it, for values stored before use.
_RESULT_NAMES = {
    "sympify": "expression",
    "simplify": "simplified",
    "parse_expr": "expression",
    "parse_latex": "expression",
    "loads": "data",
    "load": "data",
    "dumps": "encoded",
    "read_text": "text",
    "read_bytes": "data",
    "deepcopy": "copied",
    "run": "completed",
    "listdir": "names",
}


def _result_name(call: cst.Call | cst.Attribute) -> str:
    """``data`` for ``json.loads(...)``, ``title`` for a property read (``driver.title``)."""
    if isinstance(call, cst.Attribute):
        return call.attr.value
    name = last_name(call.func)
    if name is None:  # a call of a call (``getattr(api, name)(...)``): nothing to name it after
        return "result"
    return _RESULT_NAMES.get(name, f"{name.strip('_')}_result")


def _too_long(file: ParsedFile, call: cst.Call | cst.Attribute, replacement: cst.BaseExpression) -> bool:
    (start_line, _), (end_line, end_col) = file.span(call)
    new = file.code(replacement)
    if start_line != end_line or "\n" in new:
        return False
    line = _code_part(file.line(start_line), end_col)
    grown = len(line) - len(file.code(call)) + len(new)
    return grown > max(LINE_LENGTH, len(line))


def runs_nothing(node: cst.CSTNode) -> bool:
    """No call, ``await``, ``yield`` or walrus inside: evaluating it cannot observe or change
    what a call evaluated before or after it does (attribute and item reads are taken as plain)."""

    class Finder(cst.CSTVisitor):
        found = False

        def on_visit(self, node: cst.CSTNode) -> bool:
            if isinstance(node, cst.Call | cst.Await | cst.Yield | cst.NamedExpr):
                self.found = True
            return not self.found

    finder = Finder()
    node.visit(finder)
    return not finder.found


def _hoistable(file: ParsedFile, call: cst.Call | cst.Attribute, statement: cst.BaseStatement) -> bool:
    """Whether ``call`` can be evaluated before the rest of its statement without changing what
    runs, or in which order: it must run unconditionally (no ``and``/``or``/``if``-expression,
    comprehension or lambda around it), and nothing evaluated before it may run code (see
    :func:`runs_nothing`). Only one-line simple statements are rewritten this way."""
    if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
        return False
    child: cst.CSTNode = call
    for parent in file.ancestors(call):
        if parent is statement:
            return True
        if isinstance(
            parent,
            cst.BooleanOperation
            | cst.IfExp
            | cst.Lambda
            | cst.ListComp
            | cst.SetComp
            | cst.DictComp
            | cst.GeneratorExp,
        ):
            return False
        for sibling in parent.children:
            if sibling is child:
                break
            if isinstance(parent, cst.Assign | cst.AnnAssign) and sibling is not getattr(parent, "value", None):
                continue  # assignment targets are stored after the value is computed
            if not runs_nothing(sibling):
                return False
        child = parent
    return False


def _wrapped(
    file: ParsedFile, statement: cst.BaseStatement, assign: cst.SimpleStatementLine
) -> cst.SimpleStatementLine:
    """The hoisted assignment, its call's arguments on their own line(s) when it is too long."""
    start = file.span(statement)[0][1]
    small = assign.body[0]
    assert isinstance(small, cst.Assign)  # built by the caller as ``local = value``
    value = small.value
    call = value.expression if isinstance(value, cst.Await) else value
    if not isinstance(call, cst.Call) or start + len(file.code(assign).rstrip()) <= LINE_LENGTH:
        return assign
    laid_out = _layout(file, call, " " * start)
    new_value = value.with_changes(expression=laid_out) if isinstance(value, cst.Await) else laid_out
    return assign.with_changes(body=[assign.body[0].with_changes(value=new_value)])


def offload_call(call: cst.Call, runner: str, leading: tuple[cst.BaseExpression, ...]) -> cst.Call:
    """``runner(*leading, <the call's arguments>)``: the call's arguments keep their own
    formatting, and a call written over several lines stays laid out that way::

        subprocess.run(            ->   asyncio.to_thread(
            cmd, text=True,                 subprocess.run,
        )                                   cmd, text=True,
                                        )
    """
    layout = call.whitespace_before_args
    multiline = isinstance(layout, cst.ParenthesizedWhitespace)
    # after the new leading arguments: the call's own line break, without the comment it may carry
    separator = layout.with_changes(first_line=cst.TrailingWhitespace()) if multiline else cst.SimpleWhitespace(" ")
    heads = [cst.Arg(value=value, comma=cst.Comma(whitespace_after=separator)) for value in leading]
    if not call.args:
        heads[-1] = heads[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    return cst.Call(
        func=cst.parse_expression(runner),
        args=[*heads, *call.args],
        whitespace_before_args=layout if multiline else cst.SimpleWhitespace(""),
    )


#: Characters of an ``open`` mode string; one that writes contains one of ``_WRITING``.
_MODE_CHARACTERS, _WRITING = frozenset("rwxabt+U"), frozenset("wax+")


def opens_for_writing(file: ParsedFile, call: cst.Call) -> bool:
    """Whether an ``open`` call (``open``, ``io.open``, ``gzip.open``, ``Path.open``, ...) may
    open its file for writing: its mode says so, or cannot be read from the call (a variable,
    ``*args``/``**kwargs``), so it may."""
    mode = _open_mode(file, call)
    return mode is None or bool(_WRITING & set(mode))


def _open_mode(file: ParsedFile, call: cst.Call) -> str | None:
    """The mode given as ``mode=`` or at its position (the second argument of a function,
    ``open(path, mode)``; the first of a method, ``Path(p).open(mode)``), ``"r"`` when none is,
    ``None`` when it is not a literal mode string."""
    receiver = dotted(call.func.value) if isinstance(call.func, cst.Attribute) else ""
    # `gzip.open(...)`: a module's function (the name binds an import); `Path(p).open(...)`, `path.open(...)`: a method
    method = receiver is None or (receiver != "" and binding(file, receiver.split(".")[0], call).target is None)
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == "mode":
            return _literal_mode(arg.value)
    for index, arg in enumerate(arg for arg in call.args if arg.keyword is None):
        if arg.star:  # `*args` or `**kwargs` may hold it
            return None
        if index == (0 if method else 1):
            return _literal_mode(arg.value)
    return "r"


def _literal_mode(value: cst.BaseExpression) -> str | None:
    mode = value.evaluated_value if isinstance(value, cst.SimpleString) else None
    return mode if isinstance(mode, str) and mode and set(mode) <= _MODE_CHARACTERS else None


class Replacing(cst.CSTTransformer):
    """Several nodes of one tree replaced at once (``deep_replace`` finds only the first)."""

    def __init__(self, replacements: Mapping[int, cst.CSTNode]):
        self.replacements = replacements

    # Any: a replacement may be another kind of node, which libcst's signature (the same kind
    # back) cannot say.
    def on_leave(self, original_node: cst.CSTNode, updated_node: cst.CSTNode) -> Any:
        return self.replacements.get(id(original_node), updated_node)
