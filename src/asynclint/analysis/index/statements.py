"""The walk over statements: bodies, assignments, imports, classes and functions."""

from __future__ import annotations

import ast
from typing import cast

from asynclint.analysis.index.argfacts import evidence_of, loop_source
from asynclint.analysis.index.branches import leaves, merged_branches, typed_over_nothing
from asynclint.analysis.index.callshapes import opens_response, opens_stream, state_key
from asynclint.analysis.index.diskcache import cache_miss, looks_for_file
from asynclint.analysis.index.flags import attribute_owners, param_test, stored_names
from asynclint.analysis.index.guards import (
    ending_store,
    ends_raising,
    ends_rollout,
    failing_handler,
    file_guard,
    first_turn_guard,
    import_fallback,
    instance_guard,
    looked_up,
    terminal_guard,
)
from asynclint.analysis.index.helpers import (
    FUNCTION_DEFS,
    RETURNED_LAMBDA,
    TRY_STATEMENTS,
    is_call_result,
    lambda_name,
    none_over_instance,
    stored_value,
    vague,
)
from asynclint.analysis.index.importflags import flag_test
from asynclint.analysis.index.literals import few_iterations
from asynclint.analysis.index.loop_exits import counts_attempts, loop_exits
from asynclint.analysis.index.nests import starts_nest
from asynclint.analysis.index.sizes import literal_count
from asynclint.analysis.index.statefields import hands_back, items_added, project_key, stored_evidence
from asynclint.analysis.index.targets import Targets
from asynclint.analysis.index.values import (
    ITEM_SUFFIX,
    Inst,
    SelfRef,
    Sym,
    Value,
)
from asynclint.knowledge.blocking import EXIT_STACKS, FEW_RESULTS
from asynclint.knowledge.frameworks import ROLLOUT_STATE_NAMES
from asynclint.knowledge.typenames import FIELD_SPECIFIERS


class Statements(Targets):
    """Part of the walk (:class:`asynclint.analysis.index.walker.Indexer`, which holds the state)."""

    # -- statements -------------------------------------------------------------------------

    def _prebind(self, body: list[ast.stmt]) -> None:
        """Module-level names first, so functions see definitions and imports made below them."""
        for stmt in body:
            if isinstance(stmt, (ast.Import, ast.ImportFrom)):
                self.visit_import(stmt)
            elif isinstance(stmt, (*FUNCTION_DEFS, ast.ClassDef)):
                self.frame.bindings[stmt.name] = Sym(f"{self.module}.{stmt.name}")
            elif isinstance(stmt, ast.Assign) and (name := lambda_name(stmt)) is not None:
                self.frame.bindings[name] = Sym(f"{self.module}.{name}")
            elif isinstance(stmt, ast.Assign):
                value = self.infer(stmt.value)
                for target in stmt.targets:
                    self.bind(target, value)
                    self._note_built(target, stmt.value, value)
            elif isinstance(stmt, ast.If):
                self._prebind(stmt.body)
                self._prebind(stmt.orelse)
            elif isinstance(stmt, ast.Try):
                self._prebind(stmt.body)
                self._prebind([kept for handler in stmt.handlers for kept in import_fallback(handler, stmt.body)])
                self._prebind(stmt.orelse)
                self._prebind(stmt.finalbody)

    def visit_body(self, body: list[ast.stmt]) -> None:
        for position, stmt in enumerate(body):
            self.visit_stmt(stmt)
            rest = body[position + 1 :]
            if (
                rest
                and isinstance(stmt, ast.If)
                and ((missed := cache_miss(self._disk_caches, body, position)) or self._ready_return(stmt, rest))
            ):
                self._visit_ready(stmt, rest, missed or looks_for_file(stmt.test, ready=True))
                return
            if (
                rest
                and isinstance(stmt, ast.If)
                and not stmt.orelse
                and isinstance(stmt.body[-1], ast.Return)
                and (tested := self._attribute_test(stmt.test))
            ):
                # ``if self.log == "none": return``: the rest runs when the test is false.
                self.frame.guards.append(f"not ({tested})")
                self.visit_body(rest)
                self.frame.guards.pop()
                return
            if rest and ending_store(stmt, self._terminal_keys()):
                # ``state["done"] = True``: the rest runs once the rollout has ended, on its last turn
                self.frame.last_turn += 1
                self.visit_body(rest)
                self.frame.last_turn -= 1
                return
            if rest and isinstance(stmt, TRY_STATEMENTS) and stmt.handlers and isinstance(stmt.body[-1], ast.Return):
                # ``try: return parse(text)`` / ``except ValueError: ...``: the rest is a fallback.
                self.frame.fallback += 1
                self.visit_body(rest)
                self.frame.fallback -= 1
                return

    def visit_branch(self, body: list[ast.stmt]) -> None:
        """A branch of an ``if``: one that ends by raising (``if not line: detail = err.read(); raise
        ...``) runs only on the way to failing, like a handler that raises."""
        raising = ends_raising(body)
        self.frame.failing += raising
        self.visit_body(body)
        self.frame.failing -= raising

    def _module_alias(self, target: ast.expr) -> str | None:
        """``sys.modules["pkg.name"] = other`` (or ``sys.modules[__name__ + ".name"]``) at the
        top of package ``pkg``: a public alias module, ``pkg.name`` answering for ``other``."""
        if self.frame.kind != "module" or not isinstance(target, ast.Subscript):
            return None
        if not (isinstance(owner := self.infer(target.value), Sym) and owner.name == "sys.modules"):
            return None
        key = target.slice
        if (
            isinstance(key, ast.BinOp)
            and isinstance(key.op, ast.Add)
            and isinstance(key.left, ast.Name)
            and key.left.id == "__name__"
            and isinstance(key.right, ast.Constant)
            and isinstance(key.right.value, str)
        ):
            key = ast.Constant(f"{self.module}{key.right.value}")
        if not isinstance(key, ast.Constant) or not isinstance(key.value, str):
            return None
        package, _, name = key.value.rpartition(".")
        return name if package == self.module and name.isidentifier() else None

    def _counted(self, node: ast.expr) -> int | None:
        """How many items (or, an integer, how much) ``node`` stands for where its syntax does not
        say: a module constant's display or integer (not shadowed by a local), a library call's
        result the knowledge bounds (:data:`~asynclint.knowledge.blocking.FEW_RESULTS`)."""
        if isinstance(node, ast.Name):
            holder = next((frame for frame in reversed(self.frames) if node.id in frame.bindings), None)
            if holder is None or holder.kind == "module":
                return literal_count(self.work_sizes.get(node.id))
        value = self.infer(node)
        return FEW_RESULTS.get(value.name) if isinstance(value, Inst) else None

    def visit_stmt(self, node: ast.stmt) -> None:
        loops = self.frame.loops
        leaves = loops[-1][1].get(id(node)) if loops else None
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Yield) and node.value.value is not None:
            self._note_yielded(node.value.value, node.lineno)
        if leaves is None:
            self._visit_stmt(node)
            return
        # Run at most once per entry to the loop (again only after a failure): not repeated by it.
        depth = self.frame.loop_depth
        self.frame.loop_depth = 0 if leaves else depth - loops[-1][0]
        with self._one_item_each(loops[-1][2]):  # and on one of the loop's items, not each in turn
            self._visit_stmt(node)
        self.frame.loop_depth = depth

    def _rollout_state(self, name: str) -> bool:
        """The local ``name`` (``state``) is the rollout's state where the function stands: a hook's
        parameter it binds again, or what a method hands back (``return completion, state``: a
        rollout of its own) -- not a helper's dict that happens to share the name."""
        frame = self.frame
        return name in frame.params or (frame.cls is not None and hands_back(frame.own, name))

    def _store_state_value(self, key: str, value: Value) -> None:
        """``value`` is stored under the rollout state's ``key`` (ModuleSummary.state_values)."""
        exported = stored_value(value)
        if exported:
            # Two different types stored under one key: typed as neither.
            known = self.state_values.setdefault(key, exported)
            if known != exported:
                self.state_values[key] = ""

    def _visit_stmt(self, node: ast.stmt) -> None:
        if isinstance(node, FUNCTION_DEFS):
            self.visit_function(node)
        elif isinstance(node, ast.ClassDef):
            self.visit_class(node)
        elif isinstance(node, ast.Assign) and (name := lambda_name(node)) and self.frame.kind != "class":
            self.visit_lambda(cast(ast.Lambda, node.value), name=name)
        elif isinstance(node, ast.Assign):
            if self.frame.conditional and any(self._keeps(target) for target in node.targets):
                self._kept_value = node.value
            before = dict(self.frame.payloads)
            held = self._payload_of(node.value, before)
            for target in node.targets:
                self.mark_submitted(target, node.value)
            self.visit_expr(node.value)
            self._kept_value = None
            value = self.infer(node.value)
            for target in node.targets:
                elements = self._unpacked(node.value, len(target.elts) if isinstance(target, ast.Tuple) else 0)
                self.visit_target(target, node.value)
                self._note_attribute_source(target, node.value)
                self.note_store(target, node.value)
                self._switch_mode(target, node.value)
                self._note_new_store(target, value)
                if self.frame.waiting[0] == id(node.value):  # ``ready, _, _ = select.select([pipe], ...)``
                    first = target.elts[0] if isinstance(target, ast.Tuple) and target.elts else None
                    result = first.id if isinstance(first, ast.Name) else ""
                    self.frame.selected.update(dict.fromkeys(self.frame.waiting[1], result))
                if none_over_instance(target, node.value, self.frame.bindings):
                    continue  # ``x = Model(...)`` in one branch, ``x = None`` in the other
                passed_on = self._still_passed(target, node.value, held)
                self.bind(target, self._received(target, node.value) or self._declared_param(target, value))
                self._note_fields(target, node.value)
                self._note_built(target, node.value, value)
                self._bind_payload(target, node.value, held, node.lineno, before)
                if passed_on and isinstance(target, ast.Name):
                    self.frame.unbound.add(target.id)  # still what a caller hands (CheckContext.passed_payload)
                self.register_stored(target, node.value, value)
                if isinstance(target, ast.Name):
                    if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
                        self.frame.constants[target.id] = node.value.value
                    else:
                        self.frame.constants.pop(target.id, None)
                    if located := self.installed_root(node.value):  # ``root = Path(numpy.__file__).parent``
                        self.frame.installed[target.id] = located
                    else:
                        self.frame.installed.pop(target.id, None)
                    if (lookup := looked_up(node.value)) is not None:
                        self.frame.lookups[target.id] = lookup
                    else:
                        self.frame.lookups.pop(target.id, None)
                    if (missing := file_guard(node.value)) is not None:
                        self.frame.file_tests[target.id] = missing
                    else:
                        self.frame.file_tests.pop(target.id, None)
                if isinstance(value, Sym) and (alias := self._module_alias(target)) is not None:
                    self.frame.bindings[alias] = value  # read as ``from x import y as alias``
                if elements is not None and isinstance(target, ast.Tuple) and len(target.elts) == len(elements):
                    for element, typed in zip(target.elts, elements, strict=True):
                        if typed is not None:
                            self.bind(element, typed)
                if isinstance(target, ast.Subscript) and self._injecting():
                    self._inject(target.slice, value)
                    self._inject_payload(target.slice, node.value)
                key = state_key(target)
                stored_key = project_key(key)
                if stored_key is not None and (evidence := stored_evidence(stored_key, node.value, self._payload_of)):
                    self.state_fields.append((stored_key, evidence))
                if stored_key is not None:
                    self.state_payloads.append((stored_key, *self._payload_of(node.value)))
                if key is not None:
                    self._store_state_value(key, value)
                elif (
                    isinstance(target, ast.Name)
                    and target.id in ROLLOUT_STATE_NAMES
                    and isinstance(node.value, ast.Dict)
                    and self._rollout_state(target.id)
                ):
                    # ``state = {"answer": answer, "sandbox": sandbox}``: a rollout that builds its own state
                    for stored_at, stored in zip(node.value.keys, node.value.values, strict=True):
                        if isinstance(stored_at, ast.Constant) and isinstance(stored_at.value, str):
                            self._store_state_value(stored_at.value, self.infer(stored))
        elif isinstance(node, ast.AnnAssign):
            before = dict(self.frame.payloads)
            held = self._payload_of(node.value, before) if node.value is not None else ("", "")
            if node.value is not None:
                self.visit_expr(node.value)
            value = self.infer(node.value) if node.value is not None else None
            if isinstance(node.value, (ast.List, ast.Tuple)) and not node.value.elts:
                pass  # ``funcs: list[Any] = []``: what the appends add, as for ``funcs = []``
            elif value is None or (isinstance(value, Inst) and value.name.removesuffix("()") in FIELD_SPECIFIERS):
                value = self.annotation_type(node.annotation)
            elif isinstance(value, SelfRef):
                # ``env: AsyncEnv = state.get("env")``: the annotation says what a value read from
                # an attribute or the rollout's state is, where the graph may not find out.
                value = self.annotation_type(node.annotation) or value
            elif not is_call_result(node.value):
                # ``task_class: type[TaskEval] = registry[name]``: what the author declares beats
                # what an item or attribute read guesses; a call written there says what it built.
                value = self._declared(node.annotation) or value
            self.visit_target(node.target)
            self._note_attribute_source(node.target, node.value)
            if (own := self._own_attribute(node.target)) is not None and (declared := self._declared(node.annotation)):
                self.declared_attrs[own] = declared
            if isinstance(node.target, ast.Name):  # ``result: Result | None = self._cache.get(key)``
                if node.value is not None and (lookup := looked_up(node.value)) is not None:
                    self.frame.lookups[node.target.id] = lookup
                else:
                    self.frame.lookups.pop(node.target.id, None)
            if node.value is not None or self.frame.kind == "class" or isinstance(node.target, ast.Attribute):
                self.bind(node.target, value)
                self._note_fields(node.target, node.value)
                self._note_built(node.target, node.value, value)
                if node.value is not None:
                    self._bind_payload(node.target, node.value, held, node.lineno, before)
                if isinstance(node.target, ast.Name):  # ``CURRENT: ContextVar["Session"] = ContextVar("s")``
                    self.note_generic(self.frame, node.target.id, node.annotation)
            owner = self._own_attribute(node.target) or (
                (self.frame.cls, node.target.id)
                if self.frame.kind == "class" and self.frame.cls and isinstance(node.target, ast.Name)
                else None
            )
            if owner is not None:  # ``self.envs: dict[str, DockerEnvironment] = {}``
                per_item = self._item_annotation(node.annotation)
                item_type = self.note_generic_attr(owner, node.annotation)  # ``self._ready: asyncio.Queue[Sandbox]``
                if per_item is None and not vague(item_type):
                    per_item = item_type
                if per_item is not None:
                    self._set_class_attr(owner[0], f"{owner[1]}{ITEM_SUFFIX}", per_item)
            if self.frame.kind == "class" and self.frame.cls and isinstance(node.target, ast.Name):
                field = (node.target.id, self._field_kind(node.annotation))
                self.class_fields.setdefault(self.frame.cls, []).append(field)
        elif isinstance(node, ast.AugAssign):
            added = self._payload_of(node.value)
            self.visit_expr(node.value)
            self.visit_target(node.target)
            self._note_attribute_source(node.target, None)
            if isinstance(node.target, ast.Name):
                self.frame.unbound.discard(node.target.id)  # ``text += more``: no longer what was passed
                self.frame.file_tests.pop(node.target.id, None)  # ``stale |= force``: may hold again
            if isinstance(node.target, ast.Name) and evidence_of(added) != "small":
                # ``text += more``: as large as what was added, when that is not small
                self.frame.payloads.pop(node.target.id, None)
                if evidence_of(added) == "whole":
                    self._hold(node.target.id, added, node.lineno)
            if isinstance(node.op, ast.Add) and isinstance(node.target, ast.Name):
                self._grow(node.target, self.infer(node.value))  # rewards += [extra]
            if isinstance(node.op, ast.Add) and (grown_key := project_key(state_key(node.target))) is not None:
                self.state_fields.append((grown_key, items_added(node.value, self._payload_of)))  # state[k] += [x]
        elif isinstance(node, (ast.For, ast.AsyncFor)):
            self.visit_expr(node.iter)
            self.bind(node.target, self._item_type(node.iter))
            each, over = self._counted_item(node.target, node.iter)
            if each is not node.target:  # ``for i, fn in enumerate(fns)``: ``fn`` is an item of ``fns``
                self.bind(each, self._item_type(over))
            if isinstance(each, ast.Name) and isinstance(over, ast.Name) and over.id in self.frame.untyped:
                self.frame.param_items[each.id] = over.id  # ``for rule in pipeline: rule(x)``
            self._bind_loop_item(node.target, node.iter)
            self.frame.nested |= starts_nest(node.iter, self.frame.loop_depth, self.products, self.walked)
            self._note_loop(node)
            repeats = int(not few_iterations(node.iter, self._counted))  # three items are not a loop that adds up
            self.frame.loop_depth += repeats
            self.frame.unbound -= stored_names(node.body)  # bound later in the body: the next pass reads that
            source = loop_source(node.iter, self.frame.payloads, self._returned)
            self.frame.loops.append((repeats, loop_exits(node.body, counts_attempts(node)), source))
            self.visit_body(node.body)
            self.frame.loops.pop()
            self.frame.loop_depth -= repeats
            self.visit_body(node.orelse)
        elif isinstance(node, ast.While):
            self._note_loop(node)
            self.frame.loop_depth += 1
            self.frame.unbound -= stored_names(node.body)
            self.visit_expr(node.test)
            self.frame.loops.append((1, loop_exits(node.body), ("", "")))
            self.visit_body(node.body)
            self.frame.loops.pop()
            self.frame.loop_depth -= 1
            self.visit_body(node.orelse)
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            for item in node.items:
                self._entered = item.context_expr
                self.visit_expr(item.context_expr)
                self._entered = None
                self.record_protocol(item.context_expr, isinstance(node, ast.AsyncWith), exiting=False)
                if item.optional_vars is not None:
                    entered = self._enter_type(item.context_expr)
                    self.bind(item.optional_vars, entered)
                    if isinstance(item.optional_vars, ast.Name) and isinstance(entered, Inst):
                        if entered.name.removesuffix("()") in EXIT_STACKS:  # ``with ExitStack() as stack``
                            self.frame.stacks.add(item.optional_vars.id)
                    if isinstance(item.optional_vars, ast.Name) and isinstance(item.context_expr, ast.Call):
                        # ``async with session.get(url, params=...) as resp``: the request its body answers
                        self.frame.requests[item.optional_vars.id] = item.context_expr
                if isinstance(item.optional_vars, ast.Name) and opens_stream(item.context_expr):
                    self._hold(item.optional_vars.id, ("read", ""), node.lineno)  # ``with open(p) as f``
                elif isinstance(item.optional_vars, ast.Name) and (opener := opens_response(item.context_expr)):
                    self._hold(item.optional_vars.id, ("call", opener), node.lineno)  # ``with urlopen(r) as resp``
            self.visit_body(node.body)
            for item in reversed(node.items):
                self.record_protocol(item.context_expr, isinstance(node, ast.AsyncWith), exiting=True)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            if self.frame.kind != "module":
                self.visit_import(node)
        elif isinstance(node, ast.Return) and isinstance(node.value, ast.Lambda) and self.frame.kind == "function":
            # ``return lambda completion: ...``: a function of its own, as ``f = lambda ...`` then
            # ``return f`` makes one, which runs where the factory's result is called or registered
            self.visit_lambda(node.value, name=RETURNED_LAMBDA)
            self.frame.returns.append(self.frame.bindings[RETURNED_LAMBDA])
        elif isinstance(node, ast.Return) and node.value is not None:
            self.visit_expr(node.value)
            returned = self.infer(node.value)
            if returned is not None or not self.frame.fallback:
                # ``except TimeoutError: return expr`` hands back what it was given when the attempt
                # failed: the attempt's ``return simplify(expr)`` says what the function gives.
                self.frame.returns.append(returned)
            if isinstance(node.value, ast.Tuple) and not any(isinstance(e, ast.Starred) for e in node.value.elts):
                self.frame.elements.append(tuple(map(self.infer, node.value.elts)))  # ``return a, b``
            else:
                self.frame.elements.append(node.value)  # ``return load(path)``: see _export_elements
            self._note_returned(node.value)
            if self.frame.kind == "function":
                display = node.value if isinstance(node.value, ast.Dict) else ast.Dict(keys=[], values=[])
                # ``{"notes": [], **extra}``: what the mapping spread after a key holds may replace its value
                spread = max((index for index, key in enumerate(display.keys) if key is None), default=-1)
                fields = zip(display.keys[spread + 1 :], display.values[spread + 1 :], strict=True)
                self.returned_fields.append((self.frame.func, node.lineno, "", "", ""))  # a return, fields or not
                self.returned_fields.extend(
                    (self.frame.func, node.lineno, written.value, *self._payload_of(value))
                    for written, value in fields
                    if isinstance(written, ast.Constant) and isinstance(written.value, str)
                )
            if isinstance(node.value, ast.Dict) and self._injecting():  # ``return {**tool_args, "env": env}``
                for written, injected in zip(node.value.keys, node.value.values, strict=True):
                    if written is not None:
                        self._inject(written, self.infer(injected))
                        self._inject_payload(written, injected)
        elif isinstance(node, ast.If):
            self.visit_expr(node.test)
            self.frame.conditional += 1
            lazy_test = self.file_tested(node.test)
            lazy, memo = self.lazy_fill(lazy_test, node.body)
            first_turn = not lazy and first_turn_guard(node.test, node.body, self.frame.lookups)
            ending = self._terminal_keys()
            last_turn = terminal_guard(node.test, ending) or self._ending_branch(node.body)
            last_turn = last_turn or ends_rollout(node.body, ending)
            per_instance = lazy and instance_guard(node.test, self.shared_attrs.get(self.frame.cls or "", ()))
            missed = lazy and looks_for_file(lazy_test, ready=False)
            # a cache keyed by the rollout's state: not one-time, but once per example or rollout
            keyed = memo.rollout if memo is not None and not lazy else ""
            self.frame.keyed += [keyed] if keyed else []
            self.frame.once += lazy
            self.frame.instance_once += per_instance
            self.frame.memo_keys += [memo.params if memo else ()] if lazy else []
            self.frame.cache_miss += missed
            self.frame.first_turn += first_turn
            self.frame.last_turn += last_turn
            # (an attribute's test with an ``else`` picks one of two modes: neither is a feature switched
            # on, unless it compares the attribute with a string, ``self.judge == "gpt"``, and the
            # default switches the feature off, ``judge=None``: the graph settles that)
            tested = param_test(node.test, self.frame.flags)
            if not tested:
                tested = self._attribute_test(node.test, modes=bool(node.orelse))
            if not tested:  # another parameter, tested as itself (its attributes are the lines above's)
                tested = param_test(node.test, self.frame.testable - attribute_owners(node.test))
            if not tested:  # a dict parameter's key (``if workspace_dir:``), a guarded import's flag (``if HAS_X:``)
                tested = self._row_tests.tests.get(id(node.test)) or flag_test(node.test, self._import_flags)
            guards = self.frame.guards
            guards += [tested] if tested else []
            before, lines = dict(self.frame.payloads), dict(self.frame.bound_at)
            # ``if ready:`` (a select's result): not empty inside; ``if not ready: raise``: after it.
            nonempty = (
                node.test.id
                if isinstance(node.test, ast.Name) and node.test.id not in self.frame.known_nonempty
                else ""
            )
            if nonempty:
                self.frame.known_nonempty.add(nonempty)
            bound = dict(self.frame.bindings)
            with self.narrowed(node.test):
                self.visit_branch(node.body)
            bound_body = dict(self.frame.bindings)
            if nonempty:
                self.frame.known_nonempty.discard(nonempty)
            test = node.test
            if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not) and isinstance(test.operand, ast.Name):
                if leaves(node.body):
                    self.frame.known_nonempty.add(test.operand.id)
            body, body_lines = self.frame.payloads, self.frame.bound_at
            self.frame.payloads, self.frame.bound_at = dict(before), dict(lines)
            self.frame.once -= lazy
            self.frame.instance_once -= per_instance
            del self.frame.memo_keys[len(self.frame.memo_keys) - lazy :]
            del self.frame.keyed[len(self.frame.keyed) - bool(keyed) :]
            self.frame.cache_miss -= missed
            self.frame.first_turn -= first_turn
            self.frame.last_turn -= last_turn
            if tested:
                guards[-1] = f"not ({tested})"
            self.visit_branch(node.orelse)
            if not leaves(node.body) and not leaves(node.orelse):
                self.frame.bindings.update(typed_over_nothing(bound, bound_body, self.frame.bindings))
            # After a branch that always leaves (return, raise, continue, break), only the other goes on.
            if leaves(node.body) != leaves(node.orelse):
                if not leaves(node.body):
                    self.frame.payloads, self.frame.bound_at = body, body_lines
            else:
                orelse, orelse_lines = self.frame.payloads, self.frame.bound_at
                self.frame.payloads = merged_branches(body, orelse, self.frame.params)
                self.frame.bound_at = {  # the line of the branch whose value was kept
                    name: body_lines.get(name, 0) if body.get(name) == payload else orelse_lines.get(name, 0)
                    for name, payload in self.frame.payloads.items()
                }
            del guards[len(guards) - bool(tested) :]
            self.frame.conditional -= 1
            if not self.frame.requires and any(node is statement for statement in self.frame.own):
                self.frame.requires = self._required_attribute(node)  # not in a ``try``: a handler may catch it
        elif isinstance(node, ast.Global):
            self.frame.globals.update(node.names)
            for name in node.names:
                self.frame.bindings.pop(name, None)
        elif isinstance(node, ast.Raise):  # what ``raise failure(...) from exc`` calls runs on the way to failing
            self.frame.failing += 1
            for part in filter(None, (node.exc, node.cause)):
                self.visit_expr(part)
            self.frame.failing -= 1
        else:
            for part_name, value in ast.iter_fields(node):
                if part_name == "body" and isinstance(node, TRY_STATEMENTS):
                    self.visit_body(value)  # ``try: if not env.trace_dir: return ...``: a guard for the rest
                    continue
                for child in value if isinstance(value, list) else [value]:
                    self._visit_child(child, node)

    def _visit_child(self, child: object, owner: ast.stmt) -> None:
        """One child node of a statement the walk has no rule for (see :meth:`visit_stmt`)."""
        if isinstance(child, ast.stmt):
            self.visit_stmt(child)
        elif isinstance(child, ast.expr):
            self.visit_expr(child)
        elif isinstance(child, ast.ExceptHandler):
            if child.type is not None:
                self.visit_expr(child.type)
            if child.name:
                self.frame.bindings[child.name] = None
                self.frame.untyped.discard(child.name)
                self.frame.unbound.discard(child.name)
            # A handler that fails, returns the failure as its result, or catches only failures or timeouts.
            failing = failing_handler(child, getattr(owner, "body", []), self._denoted, self.catalogue)
            self.frame.failing += failing
            self.frame.fallback += 1  # runs when the attempt in the ``try`` raised
            with self.memo_miss(child, getattr(owner, "body", [])):  # ``except KeyError:`` filling ``cache[key]``
                self.visit_body(import_fallback(child, getattr(owner, "body", [])))
            self.frame.fallback -= 1
            self.frame.failing -= failing
        elif isinstance(child, ast.match_case):
            self.visit_body(child.body)
