"""The walk over definitions: imports, classes and functions (the frames their bodies are
walked in), and what annotations declare."""

from __future__ import annotations

import ast
from dataclasses import replace

from asynclint.analysis.index.annotations import scalar_items, tuple_annotation, unquoted
from asynclint.analysis.index.callable_aliases import named_alias
from asynclint.analysis.index.datafields import DATACLASS_DECORATORS, field_flags
from asynclint.analysis.index.features import large_columns
from asynclint.analysis.index.flags import constant_defaults, none_bound, stored_names
from asynclint.analysis.index.frames import Frame
from asynclint.analysis.index.guards import shared_containers
from asynclint.analysis.index.helpers import FUNCTION_DEFS, vague
from asynclint.analysis.index.records import Function
from asynclint.analysis.index.replies import instance_counts
from asynclint.analysis.index.scopes import IndexerState
from asynclint.analysis.index.stateready import stored_state_keys
from asynclint.analysis.index.stopkeys import class_stop_keys
from asynclint.analysis.index.values import ELEMENT, Inst, Marker, Rooted, SelfRef, Sym, Value
from asynclint.knowledge.blocking import RETURNS
from asynclint.knowledge.costs import LARGE_COLUMN
from asynclint.knowledge.frameworks import PASSED_NAMES, TERMINAL_STATE_KEYS
from asynclint.knowledge.functions import PROPERTIES
from asynclint.knowledge.typenames import CALLABLE_ANNOTATIONS, CONTAINER_ANNOTATIONS, VAGUE_ANNOTATIONS

#: The annotations whose ``typing.get_origin`` is ``list`` (a bare ``list`` is one too).
LIST_TYPES = frozenset({"builtins.list", "typing.List"})


class Definitions(IndexerState):
    """Part of the walk (:class:`asynclint.analysis.index.walker.Indexer`, which holds the state)."""

    def visit_import(self, node: ast.Import | ast.ImportFrom) -> None:
        bindings = self.frame.bindings
        if isinstance(node, ast.Import):
            for alias in node.names:
                self.imported.add(self._absolute(alias.name))
                self._record_slow_import(node, self._absolute(alias.name))
                if alias.asname:
                    bindings[alias.asname] = Sym(self._absolute(alias.name))
                else:
                    top = alias.name.split(".", 1)[0]
                    bindings[top] = Sym(self._absolute(top))
            return
        base = self._absolute(node.module or "")
        if node.level:
            parts = self.package.split(".") if self.package else []
            if node.level > 1:
                parts = parts[: len(parts) - (node.level - 1)]
            base = ".".join([*parts, *([node.module] if node.module else [])])
        self.imported.add(base)
        self._record_slow_import(node, base)
        for alias in node.names:
            if alias.name != "*":
                self.imported.add(f"{base}.{alias.name}" if base else alias.name)
            if alias.name == "*":
                if self.frame.kind == "module" and base not in self.stars:
                    self.stars.append(base)  # looked up for names bound nowhere (see lookup)
                continue
            name = f"{base}.{alias.name}" if base else alias.name
            bindings[alias.asname or alias.name] = Sym(RETURNS.get(name, name))  # StrictRedis is Redis

    def _record_slow_import(self, node: ast.Import | ast.ImportFrom, module: str) -> None:
        """An import in a function of a package the knowledge base says is slow to import: the
        function's first call in the process runs it (a call site of the entry), unless the module
        imports that package at its top level (then the package is loaded with the module). Only the
        project's own: an installed library's lazy imports (pandas' of its submodules, of pyarrow for
        its string dtype) load what the project's use of it has mostly loaded already."""
        api = self.catalogue.match_import(module)
        if api is None or self.library:
            return
        if self.frame.kind == "module":
            self.top_imports.add(api.pattern)
        elif self.frame.kind == "function" and api.pattern not in self.top_imports:
            self.record_import(node, module, api)

    def _absolute(self, name: str) -> str:
        """An absolute import's module as the project names it (see ``module_names.module_names``)."""
        top, dot, rest = name.partition(".")
        return self.imports[top] + dot + rest if top in self.imports else name

    def visit_class(self, node: ast.ClassDef) -> None:
        dataclass = False
        for decorator in node.decorator_list:
            self.visit_expr(decorator)
            value = self.infer(decorator.func if isinstance(decorator, ast.Call) else decorator)
            dataclass = dataclass or isinstance(value, Sym) and value.name in DATACLASS_DECORATORS
        for base in node.bases:
            self.visit_expr(base)
        qualname = f"{self.frame.qualprefix}{node.name}"
        global_qn = f"{self.module}.{qualname}"
        type_args: list[str]
        bases, type_args = [], []
        for base in node.bases:
            if isinstance(base, ast.Subscript):  # ``vf.Toolset[vf.SharedToolsetConfig]``
                arguments = base.slice.elts if isinstance(base.slice, ast.Tuple) else [base.slice]
                type_args.extend(value.name for value in map(self.infer, arguments) if isinstance(value, Sym))
                base = base.value
            value = self.infer(base)
            if isinstance(value, Sym):
                bases.append(value.name)
            else:
                self.unnamed_bases.add(global_qn)
        self.class_bases[global_qn] = tuple(bases)
        self.class_type_args[global_qn] = tuple(type_args)
        self.class_lines[global_qn] = node.lineno
        self.shared_attrs[global_qn] = shared_containers(node)
        # before its methods are walked: a test of one of these keys anywhere in them ends the rollout
        inherited = (self.stop_keys[base] for base in bases if base in self.stop_keys)
        self.stop_keys[global_qn] = checks = class_stop_keys(node, self._decorator_name, inherited)
        if any(checks.values()):
            self.ending_keys[global_qn] = TERMINAL_STATE_KEYS.union(*checks.values())
        self.attr_counts[global_qn] = instance_counts(node)
        self.class_methods.setdefault(global_qn, [])
        written_init = any(isinstance(stmt, FUNCTION_DEFS) and stmt.name == "__init__" for stmt in node.body)
        if dataclass and not written_init:
            self.class_field_flags[global_qn] = field_flags(node)
        self.frame.bindings[node.name] = Sym(global_qn)
        self.frames.append(Frame("class", self.frame.func, f"{qualname}.", cls=global_qn))
        self.visit_body(node.body)
        for name, value in self.frame.bindings.items():
            if name not in self.class_methods[global_qn] and value is not None:
                self._set_class_attr(global_qn, name, value)
        self.frames.pop()

    def _decorator_name(self, decorator: ast.expr) -> str:
        """What a decorator is, resolved (``@vf.stop(priority=1)`` -> ``verifiers.stop``)."""
        value = self.infer(decorator.func if isinstance(decorator, ast.Call) else decorator)
        # Not resolved (a parameter's ``@mcp.tool(name="x")``): as written, a factory without
        # its arguments, which say nothing of what the decorator is (``mcp.tool()``).
        written = f"{ast.unparse(decorator.func)}()" if isinstance(decorator, ast.Call) else ast.unparse(decorator)
        return value.name if isinstance(value, (Sym, Inst)) else written

    def visit_function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        decorators = []
        for decorator in node.decorator_list:
            self.visit_expr(decorator)
            decorators.append(self._decorator_name(decorator))
        for default in (*node.args.defaults, *(d for d in node.args.kw_defaults if d is not None)):
            self.visit_expr(default)
        outer = self.frame
        qualname = f"{outer.qualprefix}{node.name}"
        global_qn = f"{self.module}.{qualname}"
        cls = outer.cls if outer.kind == "class" else None
        index = len(self.functions)
        self.functions.append(
            Function(
                qualname=qualname,
                name=node.name,
                line=node.lineno,
                is_async=isinstance(node, ast.AsyncFunctionDef),
                kind="function",
                class_qualname=cls[len(self.module) + 1 :] if cls else None,
                decorators=tuple(decorators),
                col=self._col(node.lineno, node.col_offset),
                params=tuple(arg.arg for arg in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs)),
                defaults=constant_defaults(node.args),
                returns_list=self._returns_list(node.returns),
            )
        )
        self.state_stores.extend((index, key) for key in sorted(stored_state_keys(node)))
        if cls is not None:
            self.class_methods[cls].append(node.name)
            outer.bindings.pop(node.name, None)
            if not PROPERTIES.isdisjoint(decorators):
                self.class_properties.setdefault(cls, set()).add(node.name)
        else:
            outer.bindings[node.name] = Sym(global_qn)
        # Flags are parameters with a constant default, never bound again in the body (a loop
        # may bind one after the test): their tests are the ones the callers settle.
        stored = stored_names(node.body)
        flags = frozenset(name for name, _ in self.functions[index].defaults) - stored
        frame = Frame("function", index, f"{qualname}.<locals>.", cls=cls, flags=flags, own=tuple(node.body))
        self._row_tests.read(node)  # before its calls are recorded: they carry its tests of row keys
        params = [*node.args.posonlyargs, *node.args.args]
        frame.params = frozenset(arg.arg for arg in [*params, *node.args.kwonlyargs]) - stored
        frame.unbound = {arg.arg for arg in [*params, *node.args.kwonlyargs]}
        # A parameter holds what it is handed (argfacts: a key read out of one is a field of it).
        frame.payloads = {name: ("name", name) for name in frame.params}
        # a module's small constant, where the function binds no name of its own over it
        local = stored | frame.params
        frame.payloads.update((name, ("literal", "")) for name in self._literals - local)
        frame.scalar_items = frozenset(
            arg.arg for arg in [*params, *node.args.kwonlyargs] if scalar_items(arg.annotation)
        )
        static = "builtins.staticmethod" in decorators
        receiver = {params[0].arg} if params and cls is not None and not static else set()
        frame.testable = flags | (frame.params - receiver)
        frame.nullable = none_bound(node.body)
        handed_modules = self._module_params.get(node.name, {}) if outer.kind == "module" else {}
        for position, arg in enumerate([*params, *node.args.kwonlyargs]):
            if position == 0 and cls is not None and not static:
                frame.bindings[arg.arg] = SelfRef(cls, ())
            elif arg.annotation is None and arg.arg in PASSED_NAMES:  # what a framework hands a reward
                frame.bindings[arg.arg] = Inst(str(Rooted(Marker.PASSED, (arg.arg,))), "param")
            else:
                frame.bindings[arg.arg] = self.annotation_type(arg.annotation)
                self.note_generic(frame, arg.arg, arg.annotation)  # ``jobs: asyncio.Queue[Job]``
                if vague(frame.bindings[arg.arg]) and (module := handed_modules.get(arg.arg)):
                    frame.bindings[arg.arg] = Sym(self._absolute(module))  # every call hands it this module
                elif vague(frame.bindings[arg.arg]):
                    frame.untyped.add(arg.arg)
                elif isinstance(frame.bindings[arg.arg], Sym) and self._callable_annotation(arg.annotation):
                    frame.makers.add(arg.arg)
                if (declared := self._declared(arg.annotation)) is not None:
                    frame.declared[arg.arg] = declared
                if node.name == "__init__" and arg.arg in frame.untyped and (alias := self._alias(arg.annotation)):
                    self.alias_uses.append((f"{qualname}({arg.arg})", alias))  # ``judge: Optional[RewardFn]``
        for star in (node.args.vararg, node.args.kwarg):
            if star is not None:
                frame.bindings[star.arg] = None
        unions = (
            ()
            if self.library
            else tuple(
                (arg.arg, names)
                for arg in [*params, *node.args.kwonlyargs]
                if arg.arg in frame.untyped and len(names := self._annotated_members(arg.annotation)) > 1
            )
        )
        if unions:
            self.functions[index] = replace(self.functions[index], param_unions=unions)
        # Nested functions first, so a closure sees a sibling defined below it (``def ready():
        # init()`` before ``def init(): ...``): it runs after both are defined.
        for stmt in node.body:
            if isinstance(stmt, FUNCTION_DEFS):
                frame.bindings.setdefault(stmt.name, Sym(f"{self.module}.{qualname}.<locals>.{stmt.name}"))
        declared = self._declared(node.returns)  # names in annotations mean what they mean outside
        elements = [self._declared(element) for element in tuple_annotation(node.returns)]
        self.frames.append(frame)
        self.visit_body(node.body)
        # a cast of a column to a large type, read where the function's own imports are bound
        self.row_fields.extend((column, LARGE_COLUMN, "", index) for column in large_columns(node.body, self.infer))
        self._record_loops(node, index, frame)
        self._export_elements(f"{qualname}()", frame.elements, elements)  # the function's names still bound
        self.frames.pop()
        self._export_returns(f"{qualname}()", frame.returns, declared, self.union_members(node.returns))
        if alias := self._alias(node.returns):
            self.alias_uses.append((f"{qualname}()", alias))  # ``def make_judge(...) -> RewardFn``
        if frame.returned:
            self.returned.append((index, tuple(frame.returned)))

    def _alias(self, annotation: ast.expr | None) -> str | None:
        """The global name of the one name ``annotation`` declares (``Optional[RewardFn]``), when it
        may be a callable alias: one of this module's, or one imported from its own package."""
        name = named_alias(annotation)
        if name is None:
            return None
        if name.id in self._aliases:
            return f"{self.module}.{name.id}"
        value = self.lookup(name.id)
        own = isinstance(value, Sym) and value.name.partition(".")[0] == self.module.partition(".")[0]
        return value.name if own and isinstance(value, Sym) else None

    def _callable_annotation(self, annotation: ast.expr | None) -> bool:
        """``Callable[[], Task]`` (``typing``'s or ``collections.abc``'s), quoted or not."""
        node = unquoted(annotation) if annotation is not None else None
        if not isinstance(node, ast.Subscript):
            return False
        outer = self.infer(node.value)
        return isinstance(outer, Sym) and outer.name in CALLABLE_ANNOTATIONS

    def _annotated_members(self, annotation: ast.expr | None) -> tuple[str, ...]:
        """The classes a union annotation names, each an instance (``LocalJudge | OpenAI``)."""
        members = self.union_members(annotation) if annotation is not None else []
        if not all(isinstance(member, Inst) for member in members):
            return ()
        return tuple(dict.fromkeys(member.name for member in members if isinstance(member, Inst)))

    def _item_annotation(self, annotation: ast.expr) -> Value:
        """``dict[str, X]``, ``list[X]``, ``Mapping[str, X]`` -> an instance of ``X``, the items' type."""
        if not isinstance(annotation, ast.Subscript):
            return None
        outer = self.infer(annotation.value)
        if not (isinstance(outer, Sym) and outer.name in CONTAINER_ANNOTATIONS):
            return None
        arguments = annotation.slice.elts if isinstance(annotation.slice, ast.Tuple) else [annotation.slice]
        return self._declared(arguments[-1])

    def _export_elements(self, key: str, returned: list[tuple[Value, ...] | ast.expr], declared: list[Value]) -> None:
        """``return model, processor`` in every ``return`` of the function called as ``key``: each
        element exported as ``key.<i>`` (see ``ELEMENT``), for ``model, processor = load()`` written
        anywhere in the project. A ``return`` handing on another function's tuple (``return
        _load_other(path)``) gives that function's elements (``_load_other().<i>``); an element the
        ``return``s leave open, or a ``return`` read no further, is what ``-> tuple[A, B]`` declares
        (``declared``, [] without one)."""
        widths = {len(elements) for elements in returned if isinstance(elements, tuple)}
        width = len(declared) or next(iter(widths), 0)
        if not width or widths - {width}:
            return
        read = [elements if isinstance(elements, tuple) else self._unpacked(elements, width) for elements in returned]
        if None in read and not declared:
            return
        for position in range(width):
            column = [values[position] for values in read if values is not None] if None not in read else []
            self._export_returns(f"{key}{ELEMENT.format(position)}", column, declared[position] if declared else None)

    def _declared(self, annotation: ast.expr | None) -> Value:
        """The type an annotation declares, when it says more than a builtin or ``typing`` does
        (``-> dict``, ``-> Any``, ``-> Iterator[str]`` name no receiver worth a lookup)."""
        value = self.annotation_type(annotation)
        if isinstance(value, (Inst, Sym)) and value.name.partition(".")[0] not in VAGUE_ANNOTATIONS:
            return value
        return None

    def _returns_list(self, annotation: ast.expr | None) -> bool:
        """``-> list``, ``-> list[float]``, ``-> List[float]``: what ``typing.get_origin`` of the
        evaluated annotation calls ``list``. A quoted one, or any under ``from __future__ import
        annotations``, stays a string, which is no list."""
        if annotation is None or self._postponed:
            return False
        outer = self.infer(annotation.value if isinstance(annotation, ast.Subscript) else annotation)
        return isinstance(outer, Sym) and outer.name in LIST_TYPES
