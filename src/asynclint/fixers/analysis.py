"""Shared libcst analysis the fixers ask (convention 4): parse a file once, find a finding's call
by its recorded position, enclosing function, async or not, names a block binds and reads, where
along the chain a call can leave the loop, fresh names, await-with-the-right-parentheses, and
what a name means at a place (so a fix writes a module as the file imports it, or declines).

Positions: findings carry 1-based lines and 1-based *character* columns of the call as ``ast``
sees it (outer parentheses excluded); libcst's ``PositionProvider`` gives 1-based lines and
0-based character columns, also without the call's own parentheses.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType

import libcst as cst
from libcst.metadata import (
    BuiltinAssignment,
    ExpressionContext,
    ExpressionContextProvider,
    GlobalScope,
    ImportAssignment,
    MetadataWrapper,
    ParentNodeProvider,
    PositionProvider,
    Scope,
    ScopeProvider,
)

from asynclint.fixers.base import Decline, Import, ModuleStatement
from asynclint.hotpaths import FuncKey, ProjectGraph
from asynclint.index import CallSite
from asynclint.knowledge.asyncio_apis import (
    ACQUIRES,
    EVENT_LOOP_LIBRARIES,
    LOOP_ATTRIBUTES,
    LOOP_NAMES,
    SLEEPS,
    THREAD_RUNNERS,
)
from asynclint.knowledge.frameworks import TRANSPARENT_DECORATORS, root_awaited
from asynclint.knowledge.twins import TwinCall
from asynclint.model import Finding

FunctionNode = cst.FunctionDef | cst.Lambda


class ParsedFile:
    """One libcst parse of one file, with the metadata every fixer needs."""

    def __init__(self, path: str, text: str):
        self.path, self.text = path, text
        # Freshly parsed and never shared, so the wrapper need not deep-copy it first.
        self.wrapper = MetadataWrapper(cst.parse_module(text), unsafe_skip_copy=True)
        self.module = self.wrapper.module
        self.positions = self.wrapper.resolve(PositionProvider)
        self.parents = self.wrapper.resolve(ParentNodeProvider)
        self._contexts: Mapping[cst.CSTNode, ExpressionContext] | None = None
        self._scopes: Mapping[cst.CSTNode, Scope | None] | None = None
        self._calls: dict[tuple[int, int, int, int], cst.Call] | None = None
        self._functions: dict[str, cst.FunctionDef] | None = None
        self._names: set[str] | None = None
        self._of_types: dict[tuple[type, ...], list[cst.CSTNode]] = {}
        self._library: str | Decline | None = None
        self._lines: list[str] | None = None
        self._calls_by_line: dict[int, list[cst.Call]] | None = None

    # -- positions ----------------------------------------------------------------------------

    def call_at(self, line: int, column: int, end_line: int, end_column: int) -> cst.Call | None:
        """The call spanning 1-based ``line``/``column`` to ``end_line``/``end_column`` (end
        exclusive). Both ends matter: ``Path(p).write_text(s)`` and ``Path(p)`` start together."""
        if self._calls is None:
            self._calls = {}
            for node, where in self.positions.items():
                if isinstance(node, cst.Call):
                    key = (where.start.line, where.start.column + 1, where.end.line, where.end.column + 1)
                    self._calls.setdefault(key, node)
        return self._calls.get((line, column, end_line, end_column))

    def expression_at(self, line: int, column: int, end_line: int, end_column: int) -> cst.BaseExpression | None:
        """The outermost expression spanning exactly those 1-based positions (end exclusive)."""
        for node, where in self.positions.items():
            if isinstance(node, cst.BaseExpression) and (
                where.start.line,
                where.start.column + 1,
                where.end.line,
                where.end.column + 1,
            ) == (line, column, end_line, end_column):
                return node
        return None

    def nodes_of(self, *types: type) -> list:
        """Every node of these types, in document order, found in one walk per file and set of
        types: each fixer asking for the file's calls or imports would otherwise walk all of it,
        which made fixing a file quadratic in its findings."""
        found = self._of_types.get(types)
        if found is None:
            found = self._of_types[types] = [node for node in self.positions if isinstance(node, types)]
        return found

    def line(self, number: int) -> str:
        """The text of the 1-based line ``number``."""
        if self._lines is None:
            self._lines = self.text.splitlines()
        return self._lines[number - 1]

    def calls_starting_on(self, line: int) -> list[cst.Call]:
        """The calls whose first token is on the 1-based ``line``."""
        if self._calls_by_line is None:
            self._calls_by_line = {}
            for node in self.nodes_of(cst.Call):
                self._calls_by_line.setdefault(self.positions[node].start.line, []).append(node)
        return self._calls_by_line.get(line, [])

    def span(self, node: cst.CSTNode) -> tuple[tuple[int, int], tuple[int, int]]:
        where = self.positions[node]
        return (where.start.line, where.start.column), (where.end.line, where.end.column)

    def code(self, node: cst.CSTNode) -> str:
        return self.module.code_for_node(node)

    # -- structure ----------------------------------------------------------------------------

    def parent(self, node: cst.CSTNode) -> cst.CSTNode | None:
        return self.parents.get(node)

    def ancestors(self, node: cst.CSTNode) -> Iterator[cst.CSTNode]:
        parent = self.parents.get(node)
        while parent is not None:
            yield parent
            parent = self.parents.get(parent)

    def enclosing_function(self, node: cst.CSTNode) -> FunctionNode | None:
        return next((a for a in self.ancestors(node) if isinstance(a, cst.FunctionDef | cst.Lambda)), None)

    def enclosing_class(self, node: cst.CSTNode) -> cst.ClassDef | None:
        """The nearest class around ``node`` (through the method it is written in)."""
        return next((a for a in self.ancestors(node) if isinstance(a, cst.ClassDef)), None)

    def in_generator_expression(self, node: cst.CSTNode, stop: cst.CSTNode) -> bool:
        """Inside a generator expression (an ``await`` there makes it an async generator)."""
        for ancestor in self.ancestors(node):
            if ancestor is stop:
                return False
            if isinstance(ancestor, cst.GeneratorExp):
                return True
        return False

    def statement_of(self, node: cst.CSTNode) -> cst.BaseStatement | None:
        """The statement holding ``node`` that sits directly in a block (so statements can be
        inserted before it); ``None`` for an ``elif`` test and similar headers."""
        child: cst.CSTNode = node
        for ancestor in self.ancestors(node):
            if isinstance(ancestor, cst.IndentedBlock | cst.Module) and isinstance(child, cst.BaseStatement):
                return child
            if isinstance(ancestor, cst.If) and child is ancestor.orelse:
                return None  # an elif: nothing can go between it and its if
            child = ancestor
        return None

    def qualname(self, function: cst.FunctionDef) -> str:
        parts = [function.name.value]
        for ancestor in self.ancestors(function):
            if isinstance(ancestor, cst.FunctionDef):
                parts[:0] = [ancestor.name.value, "<locals>"]
            elif isinstance(ancestor, cst.ClassDef):
                parts.insert(0, ancestor.name.value)
        return ".".join(parts)

    def function(self, qualname: str) -> cst.FunctionDef | None:
        if self._functions is None:
            self._functions = {}
            for node in self.positions:
                if isinstance(node, cst.FunctionDef):
                    self._functions.setdefault(self.qualname(node), node)
        return self._functions.get(qualname)

    def context(self, node: cst.CSTNode) -> ExpressionContext | None:
        if self._contexts is None:
            self._contexts = self.wrapper.resolve(ExpressionContextProvider)
        return self._contexts.get(node)

    def scope(self, node: cst.CSTNode) -> Scope | None:
        """The scope ``node`` is evaluated in (libcst's scope analysis, resolved on first use)."""
        if self._scopes is None:
            self._scopes = self.wrapper.resolve(ScopeProvider)
        return self._scopes.get(node)

    def all_names(self) -> set[str]:
        """Every identifier written anywhere in the file (for picking names nothing shadows)."""
        if self._names is None:
            self._names = {node.value for node in self.positions if isinstance(node, cst.Name)}
        return self._names

    def fresh_name(self, base: str, taken: set[str] = frozenset()) -> str:
        names = self.all_names() | set(taken)
        if base not in names:
            return base
        number = 2
        while f"{base}_{number}" in names:
            number += 1
        return f"{base}_{number}"

    def module_level_names(self) -> set[str]:
        """Names bound by top-level statements: imports, defs, classes, assignments."""
        return {name for statement in self.module.body for name in self.statement_bindings(statement)}

    @staticmethod
    def statement_bindings(statement: cst.CSTNode) -> set[str]:
        bound: set[str] = set()
        if isinstance(statement, cst.FunctionDef | cst.ClassDef):
            bound.add(statement.name.value)
        elif isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                if isinstance(small, cst.Import):
                    for alias in small.names:
                        bound.add(_alias_name(alias, dotted_first=True))
                elif isinstance(small, cst.ImportFrom) and not isinstance(small.names, cst.ImportStar):
                    bound.update(_alias_name(alias) for alias in small.names)
                elif isinstance(small, cst.Assign | cst.AnnAssign):
                    targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else [small.target]
                    bound.update(t.value for t in targets if isinstance(t, cst.Name))
        return bound


def _alias_name(alias: cst.ImportAlias, dotted_first: bool = False) -> str:
    if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
        return alias.asname.name.value
    name = cst.Module([]).code_for_node(alias.name)
    return name.split(".")[0] if dotted_first else name


def is_async(function: FunctionNode) -> bool:
    return isinstance(function, cst.FunctionDef) and function.asynchronous is not None


def dotted(node: cst.BaseExpression) -> str | None:
    """``a.b.c`` for a chain of names and attributes, else ``None``."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        base = dotted(node.value)
        return f"{base}.{node.attr.value}" if base else None
    return None


def last_name(node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        return node.attr.value
    return None


# --- names a block binds and reads ----------------------------------------------------------


@dataclass(frozen=True)
class BlockNames:
    bound: frozenset[str]  # names the block binds in its function's scope
    read: frozenset[str]  # names the block reads (anywhere inside, nested scopes included)
    unconditional: frozenset[str]  # bound by the block's own top-level statements
    problems: tuple[str, ...]  # constructs that cannot move into another function


class _BlockScan(cst.CSTVisitor):
    """Names bound and read by statements, and the constructs that tie them to their function."""

    def __init__(self, file: ParsedFile):
        self.file = file
        self.bound: set[str] = set()
        self.read: set[str] = set()
        self.problems: list[str] = []
        self._nested = 0  # inside a nested function, lambda, class or comprehension
        self._loops = 0

    def _bind(self, name: str) -> None:
        if not self._nested:
            self.bound.add(name)

    def visit_Name(self, node: cst.Name) -> None:
        context = self.file.context(node)
        if context is ExpressionContext.LOAD:
            self.read.add(node.value)
            if node.value in ("super", "locals", "vars", "__class__") and not self._nested:
                self.problems.append(f"uses `{node.value}`, which means something else in a helper")
        elif context in (ExpressionContext.STORE, ExpressionContext.DEL):
            self._bind(node.value)

    def visit_Arg(self, node: cst.Arg) -> bool:
        node.value.visit(self)  # a keyword's name is not a variable
        return False

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        node.value.visit(self)  # nor is an attribute's
        return False

    def _enter_scope(self, node: cst.CSTNode) -> None:
        if isinstance(node, cst.FunctionDef | cst.ClassDef):
            self._bind(node.name.value)
        self._nested += 1

    def _leave_scope(self, node: cst.CSTNode) -> None:
        self._nested -= 1

    visit_FunctionDef = visit_ClassDef = visit_Lambda = _enter_scope  # type: ignore[assignment]
    leave_FunctionDef = leave_ClassDef = leave_Lambda = _leave_scope  # type: ignore[assignment]
    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _enter_scope  # type: ignore[assignment]
    leave_ListComp = leave_SetComp = leave_DictComp = leave_GeneratorExp = _leave_scope  # type: ignore[assignment]

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        if isinstance(node.target, cst.Name):  # a walrus in a comprehension binds in the function
            self.bound.add(node.target.value)

    def visit_ImportAlias(self, node: cst.ImportAlias) -> None:
        self._bind(_alias_name(node, dotted_first=True))

    def visit_For(self, node: cst.For) -> None:
        if node.asynchronous is not None and not self._nested:
            self.problems.append("contains `async for`")
        self._loops += 1

    def leave_For(self, node: cst.For) -> None:
        self._loops -= 1

    def visit_While(self, node: cst.While) -> None:
        self._loops += 1

    def leave_While(self, node: cst.While) -> None:
        self._loops -= 1

    def visit_With(self, node: cst.With) -> None:
        if node.asynchronous is not None and not self._nested:
            self.problems.append("contains `async with`")

    def visit_Break(self, node: cst.Break) -> None:
        if not self._nested and not self._loops:
            self.problems.append("contains `break` for a loop outside it")

    def visit_Continue(self, node: cst.Continue) -> None:
        if not self._nested and not self._loops:
            self.problems.append("contains `continue` for a loop outside it")

    def visit_Await(self, node: cst.Await) -> None:
        if not self._nested:
            self.problems.append("contains `await`")

    def visit_Return(self, node: cst.Return) -> None:
        if not self._nested:
            self.problems.append("contains `return`")

    def visit_Yield(self, node: cst.Yield) -> None:
        if not self._nested:
            self.problems.append("contains `yield`")

    def visit_Global(self, node: cst.Global) -> None:
        self.problems.append("declares `global` names")

    def visit_Nonlocal(self, node: cst.Nonlocal) -> None:
        self.problems.append("declares `nonlocal` names")


def block_names(file: ParsedFile, statements: list[cst.CSTNode]) -> BlockNames:
    scan = _BlockScan(file)
    for statement in statements:
        statement.visit(scan)
    unconditional: set[str] = set()
    for statement in statements:
        if isinstance(statement, cst.SimpleStatementLine):
            top = _BlockScan(file)
            statement.visit(top)
            unconditional |= top.bound
        elif isinstance(statement, cst.If | cst.While):
            unconditional |= _walrus_always(statement.test)  # the test always runs: `if (n := ...)`
    return BlockNames(frozenset(scan.bound), frozenset(scan.read), frozenset(unconditional), tuple(scan.problems))


def _walrus_always(expression: cst.BaseExpression) -> set[str]:
    """Names a walrus binds whenever ``expression`` is evaluated: not behind ``and``/``or``'s
    right operand, a conditional expression's branches, a lambda or a comprehension."""
    if isinstance(expression, cst.NamedExpr):
        bound = {expression.target.value} if isinstance(expression.target, cst.Name) else set()
        return bound | _walrus_always(expression.value)
    if isinstance(expression, cst.BooleanOperation):
        return _walrus_always(expression.left)
    if isinstance(expression, cst.IfExp):
        return _walrus_always(expression.test)
    if isinstance(expression, cst.Lambda | cst.ListComp | cst.SetComp | cst.DictComp | cst.GeneratorExp):
        return set()
    found: set[str] = set()
    for child in expression.children:
        if isinstance(child, cst.BaseExpression):
            found |= _walrus_always(child)
        elif isinstance(child, cst.Arg | cst.Element | cst.DictElement | cst.ComparisonTarget | cst.Index):
            found |= set().union(*(_walrus_always(c) for c in child.children if isinstance(c, cst.BaseExpression)))
    return found


def names_read(
    file: ParsedFile, nodes: list[cst.CSTNode], skip: cst.CSTNode | None = None, also_skip: list[cst.CSTNode] = ()
) -> set[str]:
    """Names read anywhere in ``nodes``, leaving out the subtrees ``skip`` and ``also_skip``."""
    return _scan_skipping(file, nodes, (skip, *also_skip)).read


def names_bound(file: ParsedFile, nodes: list[cst.CSTNode], skip: cst.CSTNode | None = None) -> set[str]:
    """Names ``nodes`` bind in their own scope, leaving out the subtree ``skip``."""
    return _scan_skipping(file, nodes, (skip,)).bound


def _scan_skipping(file: ParsedFile, nodes: list[cst.CSTNode], skip: tuple[cst.CSTNode | None, ...]) -> _BlockScan:
    skipped = {id(node) for node in skip if node is not None}

    class Scan(_BlockScan):
        def on_visit(self, node: cst.CSTNode) -> bool:
            return id(node) not in skipped and super().on_visit(node)

    scan = Scan(file)
    for node in nodes:
        node.visit(scan)
    return scan


def names_bound_in(file: ParsedFile, function: cst.FunctionDef) -> set[str]:
    """Parameters and every name the function's own scope binds."""
    scan = _BlockScan(file)
    function.body.visit(scan)
    params = {
        p.name.value for p in (*function.params.params, *function.params.posonly_params, *function.params.kwonly_params)
    }
    for star in (function.params.star_arg, function.params.star_kwarg):
        if isinstance(star, cst.Param):
            params.add(star.name.value)
    return scan.bound | params


# --- where a call can leave the loop --------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Site:
    """The call a fix rewrites and the function it is written in.

    ``placement``: ``direct`` (the offending call, in ``async def``), ``helper`` (the call of the
    sync function that leads to it, in the nearest ``async def`` on the chain) or ``root`` (no
    ``async def`` on the chain; the root, a callable the framework awaits, becomes one).
    """

    file: ParsedFile
    call: cst.Call
    function: cst.FunctionDef
    placement: str
    helper: str | None = None  # the sync function whose call is offloaded
    callee: FuncKey | None = None  # that function in the project graph, when :meth:`FixProject.sites` found it

    @property
    def offending(self) -> bool:
        """The call is the finding's own call, not the call of a helper that leads to it."""
        return self.helper is None


class FixProject:
    """What fixers may look at: the project's texts, parsed on demand (one parse per file per
    round), plus project-wide answers (who calls a function)."""

    def __init__(
        self,
        texts: Mapping[str, str],
        findings: tuple[Finding, ...] = (),
        graph: ProjectGraph | None = None,
        twins: Mapping[str, TwinCall] = MappingProxyType({}),
    ):
        self.texts = texts
        self.findings = findings  # this round's, for fixers that look at their neighbours
        self.graph = graph  # the call graph those findings came from
        self.twins = twins  # async twins discovered in installed packages, by sync API (twin-call)
        self._files: dict[str, ParsedFile] = {}
        self._by_line: dict[str, dict[int, list[Finding]]] | None = None

    def findings_in(self, path: str, first: int, last: int) -> list[Finding]:
        """This round's findings in ``path`` starting on lines ``first`` to ``last`` (indexed once,
        so a fixer asking about its neighbours does not go through every finding of the project)."""
        if self._by_line is None:
            self._by_line = {}
            for finding in self.findings:
                self._by_line.setdefault(finding.path, {}).setdefault(finding.line, []).append(finding)
        lines = self._by_line.get(path, {})
        if last - first > len(lines):
            return [f for line, found in sorted(lines.items()) if first <= line <= last for f in found]
        return [f for line in range(first, last + 1) for f in lines.get(line, ())]

    def file(self, path: str) -> ParsedFile:
        parsed = self._files.get(path)
        if parsed is None:
            parsed = self._files[path] = ParsedFile(path, self.texts[path])
        return parsed

    def parsed(self) -> dict[str, ParsedFile]:
        return self._files

    def redefinable(self, path: str, qualname: str, becomes: str) -> Decline | None:
        """Why the function cannot switch between ``def`` and ``async def`` (``None`` if it can):
        a decorator not known to hand the function through unchanged (``lru_cache`` would cache
        the coroutine, which cannot be awaited twice), or any use in the project besides its
        registration with the framework -- calls, ``map(f, ...)``, imports by tests -- each of
        which would get ``becomes`` instead of what it gets now."""
        key = self.graph.key_of(path, qualname) if self.graph else None
        name = qualname.rpartition(".")[2]
        if key is None:
            return Decline(f"cannot tell where else `{name}` is used")
        wrapped = [d for d in self.graph.function(key).decorators if d not in TRANSPARENT_DECORATORS]
        if wrapped:
            return Decline(f"`{name}` is decorated with `@{wrapped[0]}`, which would wrap {becomes}")
        uses = self.graph.uses(key)
        if uses:
            where = ", ".join(map(str, uses[:3]))
            more = f" and {len(uses) - 3} more" if len(uses) > 3 else ""
            return Decline(f"`{name}` is also used by the project ({where}{more}); those uses would get {becomes}")
        return None

    def locate(self, finding: Finding) -> tuple[ParsedFile, cst.Call | cst.Attribute] | Decline:
        """The finding's call, or for a property read (``driver.title``) the attribute read."""
        if finding.path not in self.texts:
            return Decline(f"{finding.path} is not among the files being fixed")
        file = self.file(finding.path)
        if finding.facts.read:
            read = file.expression_at(finding.line, finding.column, finding.end_line, finding.end_column)
            if not isinstance(read, cst.Attribute):
                return Decline(f"no attribute read at {finding.line}:{finding.column} (the file changed since it was checked?)")
            return file, read
        call = file.call_at(finding.line, finding.column, finding.end_line, finding.end_column)
        if call is None:
            return Decline(f"no call at {finding.line}:{finding.column} (the file changed since it was checked?)")
        return file, call

    def site(self, finding: Finding) -> Site | Decline:
        """Where the finding's call can be taken off the loop (see :class:`Site`)."""
        located = self.locate(finding)
        if isinstance(located, Decline):
            return located
        file, call = located
        function = _evaluated_in(file, call)
        if isinstance(function, cst.ClassDef):
            return Decline(f"the call runs in the body of class `{function.name.value}`, where `await` cannot go")
        if function is None:
            return Decline("the call is not inside a function")
        if isinstance(function, cst.Lambda):
            return Decline("the call is inside a `lambda`, which cannot await")
        if is_async(function):
            return Site(file, call, function, "direct")
        chain = finding.chain
        for position in range(len(chain) - 2, 0, -1):  # the call sites, nearest caller first
            link, callee = chain[position], chain[position + 1].function
            if link.path not in self.texts:
                continue  # inside an installed package (deep mode) or a file not being fixed
            caller_file = self.file(link.path)
            caller = caller_file.function(link.function)
            if caller is None:
                return Decline(f"cannot find `{link.function}` in {link.path}")
            if is_async(caller):
                found = _calls_of(caller_file, caller, link.line, callee)
                if len(found) != 1:
                    what = "no call" if not found else f"{len(found)} calls"
                    return Decline(f"ambiguous: {what} of `{callee}` on line {link.line} of `{link.function}`")
                return Site(caller_file, found[0], caller, "helper", helper=callee)
        return self._root_site(finding, file, call, function)

    def sites(self, finding: Finding) -> tuple[Site, ...] | Decline:
        """Every place the finding's call must leave the loop for the finding to be gone.

        Written in ``async def``: the call itself. Otherwise every hot route to the sync function
        it is in, not only the chain's: each call of a sync function on the way, written in an
        ``async def`` (a helper called twice, or from two coroutines), and each sync root the
        framework awaits, made ``async`` (with its call of the next function, or the call itself)."""
        primary = self.site(finding)
        if isinstance(primary, Decline) or primary.placement == "direct":
            return primary if isinstance(primary, Decline) else (primary,)
        graph = self.graph
        # the project function the call is written in (a finding inside an installed library is
        # shown, and fixed, where the project calls into it)
        written_in = next((link.function for link in reversed(finding.chain) if link.path == finding.path), None)
        start = graph.key_of(finding.path, written_in) if graph and written_in else None
        if start is None:
            return (primary,)
        found: list[Site] = []
        roots: list[FuncKey] = []
        seen, queue = {start}, [start]
        while queue:
            key = queue.pop(0)
            if graph.hot.get(key) is not None and graph.hot[key].parent is None:
                roots.append(key)  # a sync root: no `async def` above it on this route
            for caller, call_site in graph.callers(key):
                if caller not in graph.hot:
                    continue
                if graph.function(caller).is_async:
                    site = self._call_site(graph, caller, call_site, "helper", key)
                    if isinstance(site, Decline):
                        return site
                    found.append(site)
                elif caller not in seen:
                    seen.add(caller)
                    queue.append(caller)
        for root in roots:
            made = self._root_sites(finding, graph, root, start)
            if isinstance(made, Decline):
                return made
            found.extend(made)
        return tuple(found) or primary

    def _call_site(
        self, graph: ProjectGraph, caller: FuncKey, call_site: CallSite, placement: str, callee: FuncKey
    ) -> Site | Decline:
        path, qualname = graph.summaries[caller[0]].path, graph.function(caller).qualname
        helper = graph.function(callee).qualname
        if path not in self.texts:
            return Decline(f"`{helper}` is also called on the loop by `{qualname}` in {path}, a file not being fixed")
        file = self.file(path)
        function = file.function(qualname)
        call = file.call_at(call_site.line, call_site.col, call_site.end_line, call_site.end_col)
        if function is None or call is None:
            return Decline(f"cannot find the call of `{helper}` in `{qualname}` at {path}:{call_site.line}")
        return Site(file, call, function, placement, helper=helper, callee=callee)

    def _root_sites(
        self, finding: Finding, graph: ProjectGraph, root: FuncKey, start: FuncKey
    ) -> list[Site] | Decline:
        """A sync root on a route to the finding's function, made ``async``: its calls of the
        functions on the way (or, when it is that function, the finding's own call)."""
        qualname, path = graph.function(root).qualname, graph.summaries[root[0]].path
        if not root_awaited(graph.hot[root].root_hook):
            return Decline(f"no `async def` on the way from `{qualname}`, and the framework does not await it")
        if root == start:
            located = self.locate(finding)
            if isinstance(located, Decline):
                return located
            file, call = located
            function = file.function(qualname)
            if function is None:
                return Decline(f"cannot find `{qualname}`")
            checked = self._redefinable_root(path, qualname, function)
            return checked or [Site(file, call, function, "root")]
        sites = []
        for callee, call_site in graph.callees(root):
            if callee == start or graph.reaches(callee, start):
                site = self._call_site(graph, root, call_site, "root", callee)
                if isinstance(site, Decline):
                    return site
                sites.append(site)
        if not sites:
            return Decline(f"cannot find the call that leads from `{qualname}` to the blocking call")
        return self._redefinable_root(path, qualname, sites[0].function) or sites

    def _redefinable_root(self, path: str, qualname: str, function: cst.FunctionDef) -> Decline | None:
        refused = self.redefinable(path, qualname, "a coroutine")
        if refused is None and is_generator(function):
            refused = Decline(f"`{function.name.value}` is a generator")
        return refused

    def _root_site(
        self, finding: Finding, file: ParsedFile, call: cst.Call, function: cst.FunctionDef
    ) -> Site | Decline:
        chain = finding.chain
        root_link = chain[0]
        fix = finding.fix
        if fix is None or not fix.root_awaited:
            return Decline(f"no `async def` on the chain, and the framework does not await `{root_link.function}`")
        root_file = self.file(root_link.path) if root_link.path in self.texts else None
        root = root_file.function(root_link.function) if root_file else None
        if root_file is None or root is None:
            return Decline(f"cannot find `{root_link.function}`")
        name = root.name.value
        refused = self.redefinable(root_link.path, root_link.function, "a coroutine")
        if refused is not None:
            return refused
        if is_generator(root):
            return Decline(f"`{name}` is a generator")
        if len(chain) == 2:
            return Site(file, call, function, "root")
        found = _calls_of(root_file, root, chain[1].line, chain[2].function)
        if len(found) != 1:
            return Decline(f"ambiguous: cannot single out the call of `{chain[2].function}` in `{name}`")
        return Site(root_file, found[0], root, "root", helper=chain[2].function)


def _evaluated_in(file: ParsedFile, node: cst.CSTNode) -> FunctionNode | cst.ClassDef | None:
    """The function (or class body) whose code evaluates ``node``: a default value, decorator or
    annotation of a nested ``def`` is evaluated by the code around that ``def``."""
    child = node
    for ancestor in file.ancestors(node):
        if isinstance(ancestor, cst.FunctionDef | cst.Lambda | cst.ClassDef) and child is ancestor.body:
            return ancestor
        child = ancestor
    return None


def findings_within(project: FixProject, file: ParsedFile, node: cst.CSTNode, but: Finding) -> tuple[Finding, ...]:
    """The other findings whose call lies inside ``node``."""
    (start, end) = file.span(node)
    return tuple(
        f
        for f in project.findings_in(file.path, start[0], end[0])
        if f is not but
        and start <= (f.line, f.column - 1)
        and (f.end_line, f.end_column - 1) <= end
    )


def _calls_of(file: ParsedFile, function: cst.FunctionDef, line: int, callee: str) -> list[cst.Call]:
    """Calls on ``line`` inside ``function`` (not in nested functions) naming ``callee``'s last part."""
    short = callee.rpartition(".")[2]
    found = []
    for node in file.calls_starting_on(line):
        if (
            last_name(node.func) == short
            and file.enclosing_function(node) is function
        ):
            found.append(node)
    return found


def is_generator(function: cst.FunctionDef) -> bool:
    class Finder(cst.CSTVisitor):
        found = False

        def visit_Yield(self, node: cst.Yield) -> None:
            self.found = True

        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return node is function

        def visit_Lambda(self, node: cst.Lambda) -> bool:
            return False

    finder = Finder()
    function.visit(finder)
    return finder.found


# --- where an await may go ----------------------------------------------------------------


def acquired_names(file: ParsedFile, statement: cst.CSTNode) -> tuple[set[str], str]:
    """The names ``statement`` binds to something only an explicit release gives back (see
    :data:`~asynclint.knowledge.asyncio_apis.ACQUIRES`), and the call that acquires it."""
    if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
        return set(), ""
    small = statement.body[0]
    if not isinstance(small, cst.Assign | cst.AnnAssign) or small.value is None:
        return set(), ""
    acquired = _acquired_by(file, small.value)
    if not acquired:
        return set(), ""
    targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else [small.target]
    names: set[str] = set()
    for target in targets:  # `fd, path = tempfile.mkstemp()`
        parts = [element.value for element in target.elements] if isinstance(target, cst.Tuple | cst.List) else [target]
        names.update(part.value for part in parts if isinstance(part, cst.Name))
    return names, acquired


def _acquired_by(file: ParsedFile, value: cst.BaseExpression) -> str:
    """The acquiring callee ``value`` calls, directly or handed to a thread runner
    (``await asyncio.to_thread(tempfile.mkdtemp)``), "" if none."""
    if isinstance(value, cst.Await):
        value = value.expression
    if not isinstance(value, cst.Call):
        return ""
    if found := _acquires(file, value):
        return found
    first = value.args[0].value if value.args else None
    if first is None:
        return ""
    if isinstance(first, cst.Call):  # `functools.partial(tempfile.NamedTemporaryFile, delete=False)`
        return _acquired_by(file, first)
    handed = value.with_changes(func=first, args=value.args[1:])  # `to_thread(NamedTemporaryFile, delete=False)`
    return _acquires(file, handed)


def _resolved_name(file: ParsedFile, func: cst.BaseExpression) -> str:
    name = dotted(func)
    if name is None:
        return ""
    head, _, rest = name.partition(".")
    target = binding(file, head, func).target
    return ".".join(filter(None, (target, rest))) if target is not None else ""


def _acquires(file: ParsedFile, call: cst.Call) -> str:
    name = _resolved_name(file, call.func)
    if name not in ACQUIRES:
        return ""
    condition = ACQUIRES[name]
    if not condition:
        return name
    keyword, _, literal = condition.partition("=")
    given = next((arg.value for arg in call.args if arg.keyword is not None and arg.keyword.value == keyword), None)
    return name if given is not None and file.code(given) == literal else ""


def cancellation_window(file: ParsedFile, node: cst.CSTNode) -> str:
    """Why an ``await`` added at ``node`` would leak a resource if the task were cancelled there
    ("" when it would not): ``node``'s statement acquires it, or comes after the statement that
    does, in the same block (or an enclosing one), before the ``try`` whose ``finally`` or
    handler releases it. Until that ``try`` is entered nothing releases it, and an ``await`` is
    where a cancellation is delivered."""
    child: cst.CSTNode | None = node if isinstance(node, cst.BaseStatement) else file.statement_of(node)
    while child is not None:
        block = file.parent(child)
        if not isinstance(block, cst.IndentedBlock | cst.Module):
            return ""
        body = list(block.body)
        index = next((i for i, statement in enumerate(body) if statement is child), None)
        if index is None:
            return ""
        for before in range(index, -1, -1):
            names, acquired = acquired_names(file, body[before])
            if not names:
                continue
            for later in body[index + 1 :]:
                if isinstance(later, cst.Try) and _releases(file, later, names):
                    name = min(names)
                    return (
                        f"an `await` there would come between `{acquired}` (line"
                        f" {file.span(body[before])[0][0]}) and the `try` that releases `{name}`"
                        f" (line {file.span(later)[0][0]}): a cancellation there would leak it"
                    )
        owner = file.parent(block)
        if owner is None or isinstance(owner, cst.FunctionDef | cst.ClassDef | cst.Module):
            return ""
        child = file.statement_of(owner)  # the `if`, `with`, loop or `try` holding this block
    return ""


def _releases(file: ParsedFile, statement: cst.Try, names: set[str]) -> bool:
    """The ``try``'s ``finally`` or a handler reads one of ``names``."""
    parts: list[cst.CSTNode] = [*statement.handlers]
    if statement.finalbody is not None:
        parts.append(statement.finalbody)
    return bool(names_read(file, parts) & names)


# --- building the replacement ------------------------------------------------------------------


#: Lines the fixers write are wrapped when they would pass this length (or the original line's).
LINE_LENGTH = 100


def awaited(file: ParsedFile, call: cst.Call, value: cst.BaseExpression) -> cst.Await:
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


def _fit(file: ParsedFile, call: cst.Call, value: cst.Call) -> cst.Call:
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


def site_edit(
    site: Site, replacement: cst.BaseExpression, prelude: tuple[cst.BaseStatement, ...] = (), hoist: bool = True
):
    """The edit putting ``replacement`` where the site's call is.

    At a ``root`` site the root function becomes ``async def`` in the same edit. ``prelude``
    statements go just before the call's statement. When the call sits inside a larger
    expression and the line would grow past :data:`LINE_LENGTH`, the awaited value is first
    stored in a local (``matches = await ...``), as a person would write it -- only where that
    cannot change what runs first (see :func:`_hoistable`), and unless ``hoist`` is false (the
    statement has another call to replace)."""
    from asynclint.fixers.base import Edit

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
    updated = statement.deep_replace(call, replacement)
    first, *rest = before
    return Edit(
        statement,
        cst.FlattenSentinel(
            [
                first.with_changes(leading_lines=statement.leading_lines),
                *rest,
                updated.with_changes(leading_lines=[]),
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
    name = last_name(call.func) or "result"
    return _RESULT_NAMES.get(name, f"{name.strip('_')}_result")


def _too_long(file: ParsedFile, call: cst.Call, replacement: cst.BaseExpression) -> bool:
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


def _hoistable(file: ParsedFile, call: cst.Call, statement: cst.BaseStatement) -> bool:
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
    value = assign.body[0].value
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


# --- imports ----------------------------------------------------------------------------------


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
    for index, statement in enumerate(body):
        if _import_key(statement) is not None:
            block.append(index)
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
    section = [i for i in block if _is_stdlib(_import_key(body[i])[1]) == stdlib]
    if section:
        after = [i for i in section if _import_key(body[i]) > key]
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
        small = statement.body[0]
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


def _asname(alias: cst.ImportAlias) -> str | None:
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
        kept = [a for a in names if not (render(a.name) == wanted and _asname(a) == alias)]
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
                    if _alias_name(alias, dotted_first=True) == name:
                        return (Import(file.code(alias.name), None, _asname(alias)),)
            elif isinstance(small, cst.ImportFrom) and small.module is not None and not small.relative:
                if isinstance(small.names, cst.ImportStar):
                    continue
                for alias in small.names:
                    if _alias_name(alias) == name:
                        return (Import(file.code(small.module), file.code(alias.name), _asname(alias)),)
    return ()


# --- what a name means at a place, and how to refer to a module there -----------------------------


@dataclass(frozen=True)
class Binding:
    """What ``name`` means at one place, by Python's scoping rules (libcst's scope analysis)."""

    name: str
    #: The dotted name every binding visible there imports (``import time`` -> ``time``,
    #: ``from time import sleep`` -> ``time.sleep``, ``import a.b`` -> ``a``, ``import a.b as c``
    #: -> ``a.b``); ``None`` when something else binds it too (a parameter, an assignment, a def).
    target: str | None
    local: bool = False  # bound in the scope of a function (or class) rather than the module's
    unconditional: bool = False  # one of those imports always runs first: a top-level statement of its scope
    free: bool = True  # nothing binds it there, not even a builtin
    what: str = ""  # what else binds it, in words, for a decline reason


def binding(file: ParsedFile, name: str, at: cst.CSTNode) -> Binding:
    """What ``name`` means where ``at`` (a node of the parsed module) is evaluated."""
    scope = file.scope(at)
    assignments = list(scope[name]) if scope is not None else []
    if not assignments:
        return Binding(name, None)
    if all(isinstance(a, BuiltinAssignment) for a in assignments):
        return Binding(name, None, free=False, what="a builtin")
    targets, unconditional = set(), False
    local = not any(isinstance(a.scope, GlobalScope) for a in assignments)
    for assignment in assignments:
        if not isinstance(assignment, ImportAssignment):
            return Binding(name, None, local, free=False, what=_what_binds(file, assignment))
        targets.add(_import_target(file, assignment.node, name))
        unconditional = unconditional or _runs_first(file, assignment.node, at, local)
    if len(targets) != 1:
        return Binding(name, None, local, free=False, what="imported from different places")
    return Binding(name, targets.pop(), local, unconditional, free=False)


def _import_target(file: ParsedFile, statement: cst.Import | cst.ImportFrom, name: str) -> str:
    if isinstance(statement, cst.Import):
        for alias in statement.names:
            if _alias_name(alias, dotted_first=True) == name:
                spelled = file.code(alias.name)
                return spelled if alias.asname else spelled.split(".")[0]
    elif not isinstance(statement.names, cst.ImportStar):
        dots = "." * len(statement.relative)  # relative imports never match an absolute name
        source = f"{file.code(statement.module)}." if statement.module is not None else ""
        for alias in statement.names:
            if _alias_name(alias) == name:
                return f"{dots}{source}{file.code(alias.name)}"
    return f"<{name}>"


def _runs_first(file: ParsedFile, statement: cst.CSTNode, at: cst.CSTNode, local: bool) -> bool:
    """The import is a top-level statement of its scope (not under ``if``/``try``/``with``), and,
    inside a function, written above ``at``."""
    line = file.parent(statement)
    block = file.parent(line) if line is not None else None
    if isinstance(block, cst.Module):
        return True
    if not local or not isinstance(block, cst.IndentedBlock) or not isinstance(file.parent(block), cst.FunctionDef):
        return False
    return file.positions[statement].start.line < file.positions[at].start.line


def _what_binds(file: ParsedFile, assignment) -> str:
    node = assignment.node
    where = f" (line {file.positions[node].start.line})" if node in file.positions else ""
    if isinstance(node, cst.Param):
        return f"a parameter{where}"
    if isinstance(node, cst.FunctionDef | cst.ClassDef):
        return f"a {'class' if isinstance(node, cst.ClassDef) else 'function'}{where}"
    return f"{'a module-level' if isinstance(assignment.scope, GlobalScope) else 'a local'} variable{where}"


def modules_behind(file: ParsedFile, name: str, at: cst.CSTNode) -> frozenset[str]:
    """The top-level modules ``name`` comes from where ``at`` is evaluated: the module an import
    binding it imports from (``import asyncio as aio`` -> ``asyncio``), and for a variable, the
    modules of the names read by the values assigned to it, followed through other variables
    (``loop = aio.get_running_loop()``; ``runner = loop``). An awaited value is what the coroutine
    returned, not the module's object (``results = await asyncio.gather(...)`` is data): names
    inside an ``await`` are not followed. Empty for what no assignment tells (a parameter, a
    ``def``, a builtin, a name nothing binds)."""
    return frozenset(_modules_behind(file, name, at, set()))


def event_loop_use(file: ParsedFile, node: cst.CSTNode) -> str:
    """What in ``node`` (code about to move to a worker thread) ties it to the event loop, in words
    ("" when nothing does): the first name bound to asyncio, anyio or trio (under any alias, or a
    name imported from them) or to a value obtained from them (``loop = aio.get_running_loop()``),
    else a name or attribute spelled as the loop where nothing in the file says what it is (a
    parameter ``loop``, ``self._loop``)."""
    found: list[str] = []

    class Uses(cst.CSTVisitor):
        def on_visit(self, node: cst.CSTNode) -> bool:
            return not found and super().on_visit(node)

        def visit_Name(self, node: cst.Name) -> None:
            if file.context(node) is ExpressionContext.LOAD and (use := _loop_name(file, node)):
                found.append(use)

        def visit_Arg(self, node: cst.Arg) -> bool:
            node.value.visit(self)  # a keyword's name is not a variable
            return False

        def visit_Attribute(self, node: cst.Attribute) -> bool:
            node.value.visit(self)  # nor is an attribute's
            if not found and node.attr.value in LOOP_ATTRIBUTES:
                found.append(f"`{file.code(node)}`")
            elif not found and isinstance(node.value, cst.Name) and node.value.value in ("self", "cls"):
                cls = file.enclosing_class(node)
                bound = loop_bound_attributes(file, cls) if cls is not None else {}
                if node.attr.value in bound:
                    found.append(f"`{file.code(node)}` ({bound[node.attr.value]})")
            return False

    node.visit(Uses())
    return found[0] if found else ""


def loop_bound_attributes(file: ParsedFile, cls: cst.ClassDef) -> dict[str, str]:
    """Attributes of ``cls``'s instances (or the class) holding objects of the event loop, each
    with where it comes from in words: assigned (in any method, or in the class body) a value
    built from asyncio, anyio or trio or obtained from the loop (``self._done = asyncio.Event()``,
    ``self.fut = loop.create_future()``, ``done: asyncio.Event = field(...)``), also an item of
    a container kept on ``self`` (``self.events[k] = asyncio.Event()``). Code that sets such an
    event or puts into such a queue must stay on the loop's thread."""
    bound: dict[str, str] = {}

    def attribute_of_self(target: cst.BaseExpression) -> str | None:
        while isinstance(target, cst.Subscript):
            target = target.value
        receiver = target.value if isinstance(target, cst.Attribute) else None
        if isinstance(receiver, cst.Name) and receiver.value in ("self", "cls"):
            return target.attr.value
        return None

    class Stores(cst.CSTVisitor):
        def _store(self, target: cst.BaseExpression, *values: cst.BaseExpression | None) -> None:
            name = attribute_of_self(target)
            if name is None and isinstance(target, cst.Name):
                statement = file.statement_of(target)  # a class attribute, written in the class body
                if statement is not None and file.parent(file.parent(statement)) is cls:
                    name = target.value
            if name is None or name in bound:
                return
            for value in values:
                if value is not None and (origin := _loop_origin(file, value)):
                    bound[name] = origin
                    return

        def visit_Assign(self, node: cst.Assign) -> None:
            for target in node.targets:
                self._store(target.target, node.value)

        def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
            self._store(node.target, node.value, node.annotation.annotation)

    cls.body.visit(Stores())
    return bound


def _loop_origin(file: ParsedFile, value: cst.BaseExpression) -> str:
    """Where ``value`` (outside any ``await``) gets an object of the event loop from, in words ("" if
    nowhere): a name bound to asyncio/anyio/trio or to a value obtained from them, or the loop."""
    for read in _names_read_in(file, value):
        libraries = sorted(_modules_behind(file, read.value, read, set()) & EVENT_LOOP_LIBRARIES)
        if libraries:
            return f"built from `{libraries[0]}`"
        if read.value in LOOP_NAMES and binding(file, read.value, read).target is None:
            return "obtained from the event loop"

    class LoopAttribute(cst.CSTVisitor):
        found = False

        def visit_Await(self, node: cst.Await) -> bool:
            return False

        def visit_Attribute(self, node: cst.Attribute) -> None:
            self.found = self.found or node.attr.value in LOOP_ATTRIBUTES

    finder = LoopAttribute()
    value.visit(finder)
    return "obtained from the event loop" if finder.found else ""


def _loop_name(file: ParsedFile, name: cst.Name) -> str:
    libraries = sorted(modules_behind(file, name.value, name) & EVENT_LOOP_LIBRARIES)
    bound = binding(file, name.value, name)
    if libraries and bound.target is not None:
        return f"`{name.value}`" if name.value == libraries[0] else f"`{name.value}` (from `{libraries[0]}`)"
    if libraries:
        return f"`{name.value}`, obtained from `{libraries[0]}`"
    return f"`{name.value}`" if name.value in LOOP_NAMES and bound.target is None else ""


def _modules_behind(file: ParsedFile, name: str, at: cst.CSTNode, seen: set[int]) -> set[str]:
    scope = file.scope(at)
    found: set[str] = set()
    for assignment in scope[name] if scope is not None else ():
        if id(assignment) in seen or isinstance(assignment, BuiltinAssignment):
            continue
        seen.add(id(assignment))
        if isinstance(assignment, ImportAssignment):
            target = _import_target(file, assignment.node, name)
            if not target.startswith((".", "<")):  # a relative import is the project's own
                found.add(target.split(".")[0])
            continue
        value = _assigned_value(file, assignment.node)
        for read in _names_read_in(file, value) if value is not None else ():
            found |= _modules_behind(file, read.value, read, seen)
    return found


def _assigned_value(file: ParsedFile, target: cst.CSTNode) -> cst.BaseExpression | None:
    """The expression whose value (or an element of it) the name ``target`` is bound to: an
    assignment's value, a ``with`` item's context manager, a ``for`` loop's iterable."""
    if not isinstance(target, cst.Name):
        return None  # a def, a class, a parameter
    for ancestor in file.ancestors(target):
        if isinstance(ancestor, cst.Assign | cst.AnnAssign | cst.AugAssign | cst.NamedExpr):
            return ancestor.value
        if isinstance(ancestor, cst.WithItem):
            return ancestor.item
        if isinstance(ancestor, cst.For | cst.CompFor):
            return ancestor.iter
        if isinstance(ancestor, cst.BaseSuite | cst.BaseStatement | cst.ExceptHandler | cst.Lambda | cst.Param):
            return None
    return None


def _names_read_in(file: ParsedFile, expression: cst.BaseExpression) -> list[cst.Name]:
    """The variables ``expression`` reads (not attribute or keyword names), outside ``await``."""
    found: list[cst.Name] = []

    class Reads(cst.CSTVisitor):
        def visit_Await(self, node: cst.Await) -> bool:
            return False

        def visit_Name(self, node: cst.Name) -> None:
            if file.context(node) is ExpressionContext.LOAD:
                found.append(node)

        def visit_Attribute(self, node: cst.Attribute) -> bool:
            node.value.visit(self)
            return False

        def visit_Arg(self, node: cst.Arg) -> bool:
            node.value.visit(self)
            return False

    expression.visit(Reads())
    return found


@dataclass(frozen=True)
class Reference:
    """How to write a module (or a name in it) at the places a fix edits, and the imports that needs."""

    code: str  # ``asyncio``, ``aio``, ``ProcessPoolExecutor``, ``concurrent.futures.ProcessPoolExecutor``
    imports: tuple[Import, ...] = ()


def reference(
    file: ParsedFile, module: str, name: str | None = None, at: tuple[cst.CSTNode, ...] = ()
) -> Reference | Decline:
    """An expression referring to ``module`` (or ``module.name``) wherever the nodes ``at`` are
    (the module itself when empty), for every fixer to write instead of a hard-coded name.

    An existing import is reused, under whatever name it binds (``import asyncio as aio`` ->
    ``aio``; ``import concurrent.futures`` -> ``concurrent.futures.ProcessPoolExecutor``), where
    nothing shadows it. Otherwise ``import module`` / ``from module import name`` is added,
    provided the name it binds is free in the module and at every place. When the name means
    something else there (a parameter called ``asyncio``, ``asyncio = None``), the fix declines
    rather than inventing an alias: like ruff's fixes, it does not rename around a clash, and the
    reason says how to make room (import it under a name of your choosing)."""
    wanted = f"{module}.{name}" if name else module
    places = tuple(at) or (file.module,)
    for local, code, target in _import_candidates(file, module, name):
        bindings = [binding(file, local, place) for place in places]
        if not all(b.target == target for b in bindings):
            continue
        if all(b.unconditional for b in bindings):
            return Reference(code)
        if not any(b.local for b in bindings) and local == (name or module.split(".")[0]) and code == (name or module):
            # only imported under a condition (`if TYPE_CHECKING:`): import it for real as well
            return Reference(code, (Import(module, name),))
    local = name or module.split(".")[0]
    for place in (file.module, *places):
        bound = binding(file, local, place)
        if not bound.free and not (name is None and bound.target == local and not bound.local):
            where = "in this module" if place is file.module else "where the fix would write it"
            instead = f"`import {module} as ...`" if name is None else f"`from {module} import {name} as ...`"
            return Decline(
                f"`{local}` is {bound.what} {where}, not `{wanted}`: import it under another name ({instead}) and"
                " fix again"
            )
    return Reference(name or module, (Import(module, name),))


def concurrency_library(file: ParsedFile) -> str | Decline:
    """The event-loop library the module's code runs under, from what it imports (any scope):
    asyncio when it imports asyncio (code using asyncio's own primitives runs on an asyncio loop,
    anyio's asyncio backend included), else trio, else anyio (whose runner works under either
    backend); a module importing none of them is taken to run under asyncio, as before.
    Declines when it imports both asyncio and trio: which loop runs a given function is unknown."""
    if file._library is not None:
        return file._library
    imported = set()
    for node in file.nodes_of(cst.Import, cst.ImportFrom):
        if isinstance(node, cst.Import):
            imported.update(file.code(alias.name).split(".")[0] for alias in node.names)
        elif isinstance(node, cst.ImportFrom) and node.module is not None and not node.relative:
            imported.add(file.code(node.module).split(".")[0])
    libraries = imported & EVENT_LOOP_LIBRARIES
    if {"asyncio", "trio"} <= libraries:
        file._library = Decline("the module imports both asyncio and trio: cannot tell which event loop runs this code")
    else:
        file._library = next((library for library in ("asyncio", "trio", "anyio") if library in libraries), "asyncio")
    return file._library


def asyncio_only(file: ParsedFile, recipe: str) -> Decline | None:
    """A decline for a recipe written only for asyncio (an executor of the running loop, an
    asyncio client) in a module that runs under trio or anyio."""
    library = concurrency_library(file)
    if isinstance(library, Decline):
        return library
    if library != "asyncio":
        return Decline(f"the module runs under {library}; the {recipe} recipe is written for asyncio")
    return None


@dataclass(frozen=True)
class Runner:
    """How to run a sync call in a worker thread in one file: ``asyncio.to_thread``,
    ``trio.to_thread.run_sync`` or ``anyio.to_thread.run_sync``, written as the file imports it."""

    code: str
    imports: tuple[Import, ...]
    keywords: bool  # passes keyword arguments on (else they are bound with ``functools.partial``)
    file: ParsedFile

    def offload(self, call: cst.Call) -> tuple[cst.Call, tuple[Import, ...]] | Decline:
        """``runner(f, *args, **kwargs)`` for the call ``f(*args, **kwargs)``, with the imports it
        needs; for a runner that takes no keyword arguments, ``runner(functools.partial(f, *args,
        **kwargs))`` (the arguments are still evaluated on the loop, in the same order)."""
        if self.keywords or all(arg.keyword is None and arg.star != "**" for arg in call.args):
            return offload_call(call, self.code, (call.func,)), self.imports
        functools = reference(self.file, "functools", at=(call,))
        if isinstance(functools, Decline):
            return functools
        bound = offload_call(call, f"{functools.code}.partial", (call.func,))
        runner = cst.Call(func=cst.parse_expression(self.code), args=[cst.Arg(bound)])
        return runner, tuple(dict.fromkeys((*self.imports, *functools.imports)))

    def lambda_(self, body: cst.BaseExpression) -> cst.Call:
        """``runner(lambda: body)``: ``body`` evaluated whole in the thread."""
        return cst.Call(
            func=cst.parse_expression(self.code), args=[cst.Arg(cst.Lambda(params=cst.Parameters(), body=body))]
        )


def thread_runner(file: ParsedFile, at: tuple[cst.CSTNode, ...]) -> Runner | Decline:
    """The worker-thread runner of the module's event-loop library (see
    :func:`concurrency_library`), referable at the nodes ``at``."""
    library = concurrency_library(file)
    if isinstance(library, Decline):
        return library
    module, function, keywords = THREAD_RUNNERS[library]
    found = reference(file, module, at=at)
    if isinstance(found, Decline):
        return found
    return Runner(f"{found.code}.{function}", found.imports, keywords, file)


def sleep_reference(file: ParsedFile, at: tuple[cst.CSTNode, ...]) -> Reference | Decline:
    """``asyncio.sleep``, ``trio.sleep`` or ``anyio.sleep``, as the module's library has it."""
    library = concurrency_library(file)
    if isinstance(library, Decline):
        return library
    module, function = SLEEPS[library]
    found = reference(file, module, at=at)
    return found if isinstance(found, Decline) else Reference(f"{found.code}.{function}", found.imports)


def module_level_name_of(file: ParsedFile, code: str) -> str | None:
    """A module-level name bound to exactly the expression ``code`` (``HTTP = httpx.AsyncClient()``)."""
    for statement in file.module.body:
        if isinstance(statement, cst.SimpleStatementLine) and isinstance(statement.body[0], cst.Assign):
            assign = statement.body[0]
            if (
                len(assign.targets) == 1
                and isinstance(assign.targets[0].target, cst.Name)
                and file.code(assign.value) == code
            ):
                return assign.targets[0].target.value
    return None


@dataclass(frozen=True)
class Getter:
    """A module-level function building one object on its first call, and what adding it takes."""

    name: str
    imports: tuple[Import, ...] = ()
    statements: tuple[ModuleStatement, ...] = ()  # empty when the file has it already


def cached_getter(file: ParsedFile, code: str, base: str, comment: str) -> Getter | Decline:
    """``@functools.cache def <name>(): return <code>``, for one object (a client) shared by every
    call and built on the first, not at import: its constructor may read what is not set yet when
    the module is imported (an API key), and builds it when the code it replaces did. The file's
    own getter returning exactly ``code`` (an earlier round's) is reused; else one named from
    ``base`` is added."""
    for statement in file.module.body:
        if (
            isinstance(statement, cst.FunctionDef)
            and not statement.params.params
            and statement.asynchronous is None
            and [last_name(d.decorator) for d in statement.decorators] == ["cache"]
            and isinstance(statement.body, cst.IndentedBlock)
            and len(statement.body.body) == 1
            and file.code(statement.body.body[0]).strip() == f"return {code}"
        ):
            return Getter(statement.name.value)
    functools = reference(file, "functools")
    if isinstance(functools, Decline):
        return functools
    name = file.fresh_name(base)
    made = ModuleStatement(name, f"@{functools.code}.cache\ndef {name}():\n    return {code}", comment)
    return Getter(name, functools.imports, (made,))


def _import_candidates(file: ParsedFile, module: str, name: str | None) -> list[tuple[str, str, str]]:
    """(name bound, code to write, what the name must be bound to) for the file's imports of
    ``module.name`` (first) and of ``module``, in any scope: :func:`reference` checks each where
    it would be used."""
    direct, via_module = [], []
    parent, _, leaf = module.rpartition(".")
    for node in file.nodes_of(cst.Import, cst.ImportFrom):
        if isinstance(node, cst.Import):
            for alias in node.names:
                spelled, asname = file.code(alias.name), _asname(alias)
                if spelled != module:
                    continue
                if asname:
                    via_module.append((asname, f"{asname}.{name}" if name else asname, module))
                else:
                    head = module.split(".")[0]
                    via_module.append((head, f"{module}.{name}" if name else module, head))
        elif isinstance(node, cst.ImportFrom) and node.module is not None and not node.relative:
            if isinstance(node.names, cst.ImportStar):
                continue
            source = file.code(node.module)
            for alias in node.names:
                imported, bound = file.code(alias.name), _alias_name(alias)
                if name is not None and source == module and imported == name:
                    direct.append((bound, bound, f"{module}.{name}"))
                elif source == parent and imported == leaf:
                    via_module.append((bound, f"{bound}.{name}" if name else bound, module))
    return list(dict.fromkeys(direct + via_module))
