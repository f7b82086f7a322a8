"""One finding per file object: the content calls on a file object opened in the same function
(``json.load(f)``, ``f.write(...)`` in ``with open(p) as f:``), tied to the call that opens it.

The opener's line is where the block's I/O is reported and where the fix moves the whole block off
the loop (as flake8-async's ASYNC230 anchors at ``open()``): its finding is graded by the costliest
of its own cost and its content calls', which are not reported on their own lines. A file object
whose opener the function does not show (a parameter, ``self._log``) keeps its calls' findings.
An archive's member calls (``tar.extractfile(m)``) keep their own lines, graded by what the archive
was opened on: the opener's payload (a buffer in memory) is carried to them.

The parse of the text read through such a file object is the same cost, the read and the parse
(``json.loads(f.read())``, ``text = f.read()`` then a project parser handed ``text``, ``json.loads(line)``
in ``for line in f:``): it is tied to the opener too, while the name still holds the text as read
(``text = text[:100]`` unties it).

A write on a file object opened elsewhere that the next statement flushes (``self._file.write(line)``
then ``self._file.flush()``) only fills the object's buffer: it is tied to the flush the same way.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Sequence
from dataclasses import replace

from asynclint.analysis.index.bodies import Bodies, FunctionBody
from asynclint.analysis.index.helpers import SCOPES, TRY_STATEMENTS
from asynclint.analysis.index.records import CallSite, Function
from asynclint.analysis.index.walks import walk
from asynclint.knowledge.blocking import (
    ARCHIVE_MEMBER_COST,
    ARCHIVE_OPENERS,
    BUFFER_FLUSHES,
    BUFFERED_WRITES,
    CHILD_STREAMS,
    FILE_DESCRIPTORS,
    FILE_OPENER_METHODS,
    FILE_OPENERS,
    ITEM_WRAPPERS,
    OPENERS,
)
from asynclint.knowledge.catalogue import Catalogue

#: ``ast`` column (bytes) -> the 1-based character column call sites record, on a line.
Column = Callable[[int, int], int]


def tie_file_objects(
    nodes: Sequence[ast.FunctionDef | ast.AsyncFunctionDef],
    bodies: Bodies,
    defined: Sequence[Function],
    calls: list[CallSite],
    column: Column,
    catalogue: Catalogue,
) -> None:
    """Set ``opened_at`` on each content call of ``calls`` made on a file object its function
    opens, and ``contents`` on the opener (in place). ``nodes``: the module's function
    definitions, ``defined`` their records."""
    indexes = {(function.line, function.name): index for index, function in enumerate(defined)}
    by_function: dict[int, dict[tuple[int, int], int]] = {}
    for index, site in enumerate(calls):
        if site.api is not None or _may_open(site):
            by_function.setdefault(site.caller, {})[(site.line, site.col)] = index
    for index, site in enumerate(calls):
        if _handed_contents(site):  # (never in a catalogued call's place: a ``with``'s ``__exit__`` has its opener's)
            by_function.setdefault(site.caller, {}).setdefault((site.line, site.col), index)
    for node in nodes:
        caller = indexes.get((node.lineno, node.name))
        sites = by_function.get(caller) if caller is not None else None
        if not sites or not any(_opens(calls[index]) or _archive(calls[index]) for index in sites.values()):
            continue
        tied = _FileObjects(calls, sites, column, catalogue)
        tied.walk(bodies(node))
        for opener, members in tied.members.items():
            site = calls[opener]
            if site.payload[0] == "memory":  # an archive on a buffer: its members are in memory too
                for index, _ in members:
                    calls[index] = replace(calls[index], payload=site.payload).with_facts(payload_at=site.payload_at)
                continue
            # On a file, the members read or written through the archive alone are its file's I/O:
            # one finding per file object, at the opener (members extracted to or added from a path
            # touch other files and keep their own lines).
            own = [(index, written) for index, written in members if _archive_member(calls[index], catalogue)]
            if own:
                tied.contents.setdefault(opener, []).extend(own)
        for opener in tied.streamed - tied.contents.keys():
            site = calls[opener]
            calls[opener] = site.with_facts(streamed=True)
        for opener, contents in tied.contents.items():
            site = calls[opener]
            at = (site.line, site.col)
            for index, _ in contents:
                content = calls[index]
                calls[index] = content.with_facts(opened_at=at)
            written = tuple((calls[index].line, calls[index].col, callee) for index, callee in contents)
            calls[opener] = site.with_facts(contents=written)


def tie_buffered_writes(
    nodes: Sequence[ast.FunctionDef | ast.AsyncFunctionDef],
    bodies: Bodies,
    defined: Sequence[Function],
    calls: list[CallSite],
    column: Column,
) -> None:
    """Tie each ``write`` on a file object that the next statement flushes (``self._file.write(line)``
    then ``self._file.flush()``, the object opened elsewhere) to that flush, as a content call to its
    opener (in place): the write fills the object's buffer, the flush is the syscall that writes it out."""
    indexes = {(function.line, function.name): index for index, function in enumerate(defined)}
    # The calls grouped by function once, not a pass over the module's calls per function.
    by_function: dict[int, dict[tuple[int, int], int]] = {}
    for index, site in enumerate(calls):
        by_function.setdefault(site.caller, {})[(site.line, site.col)] = index
    for node in nodes:
        caller = indexes.get((node.lineno, node.name))
        if caller is None:
            continue
        sites = by_function.get(caller, {})
        for block in bodies(node).blocks:
            for first, second in zip(block, block[1:], strict=False):
                written, flushed = _method_call(first, BUFFERED_WRITES), _method_call(second, BUFFER_FLUSHES)
                if written is None or flushed is None or ast.dump(written[1]) != ast.dump(flushed[1]):
                    continue
                write = sites.get((written[0].lineno, column(written[0].lineno, written[0].col_offset)))
                flush = sites.get((flushed[0].lineno, column(flushed[0].lineno, flushed[0].col_offset)))
                if write is None or flush is None or calls[write].api is None or calls[flush].api is None:
                    continue
                write_facts, flush_site = calls[write].rare, calls[flush]
                if write_facts is not None and write_facts.opened_at is not None:
                    continue  # (opened here: its opener carries it)
                calls[write] = calls[write].with_facts(opened_at=(flush_site.line, flush_site.col))
                tied = (calls[write].line, calls[write].col, ast.unparse(written[0].func))
                held = flush_site.rare.contents if flush_site.rare is not None else ()
                calls[flush] = flush_site.with_facts(contents=(*held, tied))


def _method_call(stmt: ast.stmt, methods: frozenset[str]) -> tuple[ast.Call, ast.expr] | None:
    """The call of one of ``methods`` that the expression statement ``stmt`` is, with its receiver."""
    call = stmt.value if isinstance(stmt, ast.Expr) else None
    if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr in methods:
        return call, call.func.value
    return None


def _may_open(site: CallSite) -> bool:
    """An ``open`` method of a receiver only the graph types (a project function's ``Path``): its
    contents are tied to it here, and folded into it only once it resolves to a file opener."""
    return site.api is None and site.method in FILE_OPENER_METHODS


def _handed_contents(site: CallSite) -> bool:
    """A project call handed a file's whole contents (``parse_log(f.read())``): a parser of the
    project's own, tied to the opener when the text is read through a file object opened here."""
    return site.api is None and site.payload[0] == "read"


def _opens(site: CallSite) -> bool:
    return site.api in FILE_OPENERS or _may_open(site)


def _archive(site: CallSite) -> bool:
    return site.api in ARCHIVE_OPENERS


def _archive_member(site: CallSite, catalogue: Catalogue) -> bool:
    """A call that reads or writes only its archive (``zf.writestr(...)``, ``tar.extractfile(m)``:
    ``knowledge.blocking.ARCHIVE_MEMBER_COST``), not another file."""
    return site.api is not None and catalogue.get(site.api).cost == ARCHIVE_MEMBER_COST


class _FileObjects(ast.NodeVisitor):
    """One function's walk in source order: which name holds which opener's file object at each
    point (the latest binding wins), and the catalogued calls made on one."""

    def __init__(self, calls: list[CallSite], sites: dict[tuple[int, int], int], column: Column, catalogue: Catalogue):
        self.calls = calls
        self.catalogue = catalogue
        self.sites = sites  # (line, column) -> index into ``calls``, for the function's known calls
        self.column = column
        self.bound: dict[str, int] = {}  # name -> the opener whose file object it holds
        # name -> the opener whose file object's text (or a line of it) it holds, as read
        self.texts: dict[str, int] = {}
        self.contents: dict[int, list[tuple[int, str]]] = {}  # opener -> (content call, its callee as written)
        self.streamed: set[int] = set()  # openers whose file object a child process is handed
        # archive opener -> the calls made on its archive object, each with its callee as written
        self.members: dict[int, list[tuple[int, str]]] = {}

    def _site(self, node: ast.Call) -> int | None:
        return self.sites.get((node.lineno, self.column(node.lineno, node.col_offset)))

    def _opener(self, node: ast.expr) -> int | None:
        """The opener whose file object ``node`` is: a name bound to one, or the opening call itself (or
        its descriptor, ``f.fileno()``)."""
        if isinstance(node, ast.Name):
            return self.bound.get(node.id)
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in FILE_DESCRIPTORS
            and not node.args
        ):
            return self._opener(node.func.value)  # ``f.fileno()``: the same file, by its descriptor
        if isinstance(node, ast.Call) and (index := self._site(node)) is not None:
            return index if _opens(self.calls[index]) or _archive(self.calls[index]) else None
        return None

    def _text(self, node: ast.expr) -> int | None:
        """The opener whose file object's whole text ``node`` is: ``f.read()``, or a name bound to it."""
        if isinstance(node, ast.Name):
            return self.texts.get(node.id)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "read":
            opener = None if node.args or node.keywords else self._opener(node.func.value)
            return opener if opener is not None and _opens(self.calls[opener]) else None  # (not an archive's)
        return None

    def _bind(self, target: ast.expr, value: ast.expr | None) -> None:
        opener = self._opener(value) if isinstance(value, ast.Call) else None
        text = self._text(value) if isinstance(value, ast.Call) else None
        for name in walk(target):
            if isinstance(name, ast.Name):
                self.bound.pop(name.id, None)
                self.texts.pop(name.id, None)
        if isinstance(target, ast.Name) and opener is not None:
            self.bound[target.id] = opener
        if isinstance(target, ast.Name) and text is not None:
            self.texts[target.id] = text

    def walk(self, body: FunctionBody) -> None:
        """The function's own statements in source order, each without the blocks it holds (their
        statements are the function's too); an ``except`` type or a ``case`` guard just before the
        first statement of the block it heads."""
        heads: dict[int, ast.expr] = {}
        for stmt in body.statements:
            for handler in getattr(stmt, "handlers", ()):
                if handler.type is not None:
                    heads[id(handler.body[0])] = handler.type
            for case in getattr(stmt, "cases", ()):
                if case.guard is not None:
                    heads[id(case.body[0])] = case.guard
        for stmt in body.statements:
            if (head := heads.get(id(stmt))) is not None:
                self.visit(head)
            self._header(stmt)

    def _header(self, stmt: ast.stmt) -> None:
        """``stmt`` itself, or a compound statement's parts outside its blocks."""
        if isinstance(stmt, SCOPES) or isinstance(stmt, TRY_STATEMENTS):
            return  # another scope: its calls are its own; a ``try`` has no parts of its own
        if isinstance(stmt, (ast.With, ast.AsyncWith)):
            for item in stmt.items:
                self.visit(item.context_expr)
                if item.optional_vars is not None:
                    self._bind(item.optional_vars, item.context_expr)
        elif isinstance(stmt, (ast.For, ast.AsyncFor)):
            self.visit(stmt.iter)
            self._iterate(stmt.target, stmt.iter)
        elif isinstance(stmt, (ast.If, ast.While)):
            self.visit(stmt.test)
        elif isinstance(stmt, ast.Match):
            self.visit(stmt.subject)
        else:
            self.visit(stmt)

    def _iterate(self, target: ast.expr, over: ast.expr) -> None:
        """``target`` takes each item of ``over``: a line as read when ``over`` is a file object (``for line in f``),
        or its place in the tuple when ``over`` wraps one (``for index, line in enumerate(f)``, ITEM_WRAPPERS)."""
        self._bind(target, None)
        if isinstance(over, ast.Call) and isinstance(over.func, ast.Name) and isinstance(target, ast.Tuple):
            arity, place = ITEM_WRAPPERS.get(over.func.id, (0, 0))
            if over.args and len(target.elts) == arity:
                target, over = target.elts[place], over.args[0]
        opener = self._opener(over)
        if isinstance(target, ast.Name) and opener is not None and _opens(self.calls[opener]):
            self.texts[target.id] = opener

    def _comprehension(self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp) -> None:
        """Its loops' names hold their items inside it only (``[json.loads(line) for line in f]``)."""
        bound, texts = dict(self.bound), dict(self.texts)
        for generator in node.generators:
            self.visit(generator.iter)
            self._iterate(generator.target, generator.iter)
            for test in generator.ifs:
                self.visit(test)
        for part in (node.key, node.value) if isinstance(node, ast.DictComp) else (node.elt,):
            self.visit(part)
        self.bound, self.texts = bound, texts

    visit_ListComp = visit_SetComp = visit_GeneratorExp = visit_DictComp = _comprehension

    def visit_Lambda(self, node: ast.Lambda) -> None:
        return None  # another function: its calls are its own

    def visit_Assign(self, node: ast.Assign) -> None:
        self.visit(node.value)
        for target in node.targets:
            self._bind(target, node.value)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self.visit(node.value)
            self._bind(node.target, node.value)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self.visit(node.value)
        self._bind(node.target, None)  # ``text += more``: no longer the text as read

    def visit_NamedExpr(self, node: ast.NamedExpr) -> None:
        self.visit(node.value)
        self._bind(node.target, node.value)

    def visit_Call(self, node: ast.Call) -> None:
        self.generic_visit(node)
        index = self._site(node)
        if index is None or self.calls[index].api in OPENERS or _may_open(self.calls[index]):
            return  # not a catalogued call, or an opener (``tarfile.open(fileobj=f)`` opens its own)
        receiver = [node.func.value] if isinstance(node.func, ast.Attribute) else []
        if receiver and (archive := self._opener(receiver[0])) is not None and _archive(self.calls[archive]):
            self.members.setdefault(archive, []).append((index, ast.unparse(node.func)))
            return
        if (parser := self._parser(node, index)) is not None:
            self.contents.setdefault(parser, []).append((index, ast.unparse(node.func)))
            return
        if self.calls[index].api is None:
            return  # a project call handed another text
        api = self.catalogue.get(self.calls[index].api or "")
        # Handed the file object, a parser or a copier reads or writes it (``json.load(f)``,
        # ``shutil.copyfileobj(f, out)``); anything else only holds it (``subprocess.run(stdin=f)``).
        handed = api.category == "serialization" or api.cost == "disk-content"
        if api.category == "subprocess":
            for keyword in node.keywords:
                if keyword.arg in CHILD_STREAMS and (opener := self._opener(keyword.value)) is not None:
                    self.streamed.add(opener)
        arguments = [*node.args, *(keyword.value for keyword in node.keywords)] if handed else []
        for held in (*receiver, *arguments):
            opener = self._opener(held)
            if opener is not None:
                self.contents.setdefault(opener, []).append((index, ast.unparse(node.func)))
                return

    def _parser(self, node: ast.Call, index: int) -> int | None:
        """The opener whose file object's text ``node`` parses: a catalogued parser's or a project
        call's argument (``json.loads(f.read())``, ``parse_log(text)`` of ``text = f.read()``)."""
        site = self.calls[index]
        project = _handed_contents(site)
        if not project and (site.api is None or self.catalogue.get(site.api).category != "serialization"):
            return None
        for held in (*node.args, *(keyword.value for keyword in node.keywords)):
            if (opener := self._text(held)) is not None:
                # The opener's grade carries a project parser's walk (ASL117: medium, below the
                # read's own) raised as the opener is; not one repeated in a loop the opener is not in.
                return opener if not (project and site.in_loop) or self.calls[opener].in_loop else None
        return None
