"""One libcst parse of one file and what every fixer asks of it: positions, parents, the
enclosing function, scopes, fresh names; plus the small node helpers (``dotted``, ``last_name``).

Positions: findings carry 1-based lines and 1-based *character* columns of the call as ``ast``
sees it (outer parentheses excluded); libcst's ``PositionProvider`` gives 1-based lines and
0-based character columns, also without the call's own parentheses.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Set as AbstractSet

import libcst as cst
from libcst.metadata import (
    ExpressionContext,
    ExpressionContextProvider,
    MetadataWrapper,
    ParentNodeProvider,
    PositionProvider,
    Scope,
    ScopeProvider,
)

from asynclint.fixers.base import Decline

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
        self._functions: dict[str, list[cst.FunctionDef]] | None = None
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

    def parent(self, node: cst.CSTNode | None) -> cst.CSTNode | None:
        """``None`` for the module, and for ``None`` (so a chain of parents reads straight)."""
        return self.parents.get(node) if node is not None else None

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

    def lambda_at(self, line: int, column: int) -> cst.Lambda | None:
        """The ``lambda`` whose keyword is at 1-based ``line`` and ``column`` (as the index records it)."""
        for node in self.nodes_of(cst.Lambda):
            where = self.positions[node].start
            if (where.line, where.column + 1 + len(node.lpar)) == (line, column):
                return node
        return None

    def function(self, qualname: str, line: int | None = None) -> cst.FunctionDef | None:
        """The ``def`` of ``qualname``; of a name defined twice (``def search`` in each branch of
        an ``if``), the one whose ``def`` is on ``line`` when it is given, else the first."""
        if self._functions is None:
            self._functions = {}
            for node in self.positions:
                if isinstance(node, cst.FunctionDef):
                    self._functions.setdefault(self.qualname(node), []).append(node)
        found = self._functions.get(qualname, [])
        on_line = [node for node in found if self.positions[node.name].start.line == line]
        return next(iter(on_line or found), None)

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

    def fresh_name(self, base: str, taken: AbstractSet[str] = frozenset()) -> str:
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
                        bound.add(alias_name(alias, dotted_first=True))
                elif isinstance(small, cst.ImportFrom) and not isinstance(small.names, cst.ImportStar):
                    bound.update(alias_name(alias) for alias in small.names)
                elif isinstance(small, cst.Assign | cst.AnnAssign):
                    targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else [small.target]
                    bound.update(t.value for t in targets if isinstance(t, cst.Name))
        return bound


def alias_name(alias: cst.ImportAlias, dotted_first: bool = False) -> str:
    if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
        return alias.asname.name.value
    name = cst.Module([]).code_for_node(alias.name)
    return name.split(".")[0] if dotted_first else name


def is_async(function: FunctionNode) -> bool:
    return isinstance(function, cst.FunctionDef) and function.asynchronous is not None


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
