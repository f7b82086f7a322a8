"""What the tests and bindings around a statement say, for the walk
(:class:`asynclint.analysis.index.walker.Indexer`): lazy initialisations that run once, attributes
kept at a default that switches a feature off, and the kinds of a class's annotated fields."""

from __future__ import annotations

import ast
import copy
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from asynclint.analysis.index.annotations import scalar_annotation, scalar_container
from asynclint.analysis.index.diskcache import fills_file, statements_after
from asynclint.analysis.index.flags import attribute_owners, branch_flags, constant_text, constant_value, param_test
from asynclint.analysis.index.guards import (
    ending_branch,
    file_guard,
    guard_holder,
    guard_target,
    instance_guard,
    looked_up,
    presence_stripped,
    stores,
    waits_until,
)
from asynclint.analysis.index.helpers import UNBOUND, none_test
from asynclint.analysis.index.memokeys import KeyReads, guarded_key, key_reads
from asynclint.analysis.index.records import FIELD_CLASS, FIELD_SCALARS
from asynclint.analysis.index.scopes import IndexerState
from asynclint.analysis.index.stateready import ready_state_key
from asynclint.analysis.index.switchedlocals import switched_tests
from asynclint.analysis.index.values import Inst, Marker, SelfRef
from asynclint.analysis.index.walks import walk
from asynclint.knowledge.asyncio_apis import MISSING_KEY_ERRORS, MODULE_LOADERS
from asynclint.knowledge.costs import switched_off
from asynclint.knowledge.frameworks import TERMINAL_STATE_KEYS
from asynclint.knowledge.typenames import CONFIGURATION_SUFFIXES, KEY_DUMP_FUNCTIONS, KEY_DUMP_METHODS


class Conditions(IndexerState):
    """Part of :class:`asynclint.analysis.index.walker.Indexer`, which holds the state."""

    def _visit_branches(self, node: ast.IfExp) -> None:
        """``json.loads(info) if isinstance(info, str) else info``: a test of a parameter guards each
        branch as an ``if`` does (CallSite.guards), for the graph to judge with what a chain hands it."""
        self.visit_expr(node.test)
        tested = param_test(node.test, self.frame.flags) or param_test(
            node.test, self.frame.testable - attribute_owners(node.test)
        )
        for branch, guard in ((node.body, tested), (node.orelse, f"not ({tested})" if tested else None)):
            self.frame.guards += [guard] if guard else []
            self.visit_expr(branch)
            if guard:
                self.frame.guards.pop()

    def _attribute_test(self, test: ast.expr, modes: bool = False, depth: int = 0) -> str | None:
        """The source of an ``if`` test that reads an attribute of ``self`` (``self.log ==
        "none"``), for the graph to evaluate with the attribute's default (ClassInfo.flag_attrs):
        asked of an ``if`` without ``else`` (a feature added when the test holds) or one whose
        body returns (``if self.log == "none": return``: the rest is the feature). Also an
        attribute of a parameter of a plain function (``if not env_self.trace_dir: return`` in a
        helper the methods hand ``self``; ``getattr(env_self, "trace_dir", None)`` reads as
        ``env_self.trace_dir``), which the graph evaluates with the defaults of the instances the
        callers hand it. ``modes``: an ``if`` with an ``else``, which picks one of two modes: only a
        comparison of an attribute with a string constant (``self.judge == "gpt"``) counts, which the
        graph settles only when the attribute's default switches a feature off (``judge=None``).
        Without ``modes``, a test of a field of any object the function holds and no parameter
        (``camera.config.record_video``) counts too: the graph reads a switch field by its name
        (ModuleSummary.switch_fields). ``depth``: how many switched locals led here (:func:`switched_tests`)."""
        test = self._bound_reads(_getattr_as_attribute(test), depth)
        parts = [node for node in walk(test) if _mode_comparison(node)] if modes else [test]
        for part in parts:
            for node in walk(part):
                if (
                    isinstance(node, ast.Attribute)
                    and isinstance(node.value, ast.Name)
                    and self._flag_owner(node.value)
                ):
                    return ast.unparse(test)
        if modes or any(isinstance(node, ast.Name) and node.id in self.frame.params for node in walk(test)):
            return None
        called = {id(node.func) for node in walk(test) if isinstance(node, ast.Call)}
        fields = any(isinstance(node, ast.Attribute) and id(node) not in called for node in walk(test))
        return ast.unparse(test) if fields else None

    def _ending_branch(self, body: list[ast.stmt]) -> bool:
        """Is ``body`` a branch of the function's stop check that ends the rollout (:func:`ending_branch`)?"""
        if self.frame.kind != "function":
            return False
        function = self.functions[self.frame.func]
        return ending_branch(function.name, function.decorators, body)

    def _terminal_keys(self) -> frozenset[str]:
        """The keys of the rollout's state that say it has ended, in the code being walked: the
        framework's, and those the stop checks of the class it is in answer from (in a method or a
        function nested in one)."""
        if not self.ending_keys:
            return TERMINAL_STATE_KEYS
        cls = next((frame.cls for frame in reversed(self.frames) if frame.cls), None)
        return self.ending_keys.get(cls, TERMINAL_STATE_KEYS) if cls else TERMINAL_STATE_KEYS

    def _bound_reads(self, test: ast.expr, depth: int = 0) -> ast.expr:
        """``test`` with each local that the function binds once, in a statement of its own body, to
        a read of an attribute (``limit = self.policy.max_rollouts_per_example``) or a test of one
        (``cacheable = self.cache is not None and name != "run_python"``) written as that read:
        ``if limit <= 0: return`` tests the field as ``if self.policy.max_rollouts_per_example
        <= 0: return`` would (heldout4's artifact managers prune old rollouts only past a limit
        that is 0, off, by default; heldout25's toolkit caches only when given a cache). A local that
        holds something only where a switch is on is read as that switch's test (:func:`switched_tests`)."""
        own, nullable = self.frame.own, self.frame.nullable - self.frame.params  # (a parameter holds what is passed)
        test = switched_tests(test, own, nullable, lambda tested: self._attribute_test(tested, depth=depth + 1), depth)
        names = {node.id for node in walk(test) if isinstance(node, ast.Name) and node.id not in self.frame.params}
        reads = {
            stmt.targets[0].id: value
            for stmt in self.frame.own
            if isinstance(stmt, ast.Assign)
            and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)
            and stmt.targets[0].id in names
            and _attribute_test_value(value := _getattr_as_attribute(stmt.value))
        }
        if reads:
            bound = [
                node.id
                for stmt in self.frame.own
                for node in walk(stmt)
                if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)) and node.id in reads
            ]
            reads = {name: value for name, value in reads.items() if bound.count(name) == 1}
        if not reads:
            return test

        class Rewrite(ast.NodeTransformer):
            def visit_Name(self, node: ast.Name) -> ast.expr:
                return copy.deepcopy(reads[node.id]) if node.id in reads else node

        return Rewrite().visit(copy.deepcopy(test))

    def _flag_owner(self, name: ast.Name) -> bool:
        """``self`` of a method, or a parameter of a plain function still holding what was passed."""
        owner = self.lookup(name.id)
        if isinstance(owner, SelfRef):
            return not owner.path and owner.cls != Marker.STATE
        function = self.functions[self.frame.func] if self.frame.kind == "function" else None
        return function is not None and function.class_qualname is None and name.id in self.frame.params

    def _note_attribute_source(self, target: ast.expr, value: ast.expr | None) -> None:
        """Note what ``target`` binds attributes of ``self`` to (see ClassInfo.flag_attrs): a flag
        parameter of ``__init__`` (``self.log = log``), or anything else ("")."""
        for node in walk(target):
            if not isinstance(node, ast.Attribute) or not isinstance(node.ctx, ast.Store):
                continue
            owner = self._own_attribute(node)
            if owner is None:
                continue
            in_init = self.frame.kind == "function" and self.functions[self.frame.func].name == "__init__"
            flag = self._flag_source(value) if in_init and node is target else ""
            self.attr_sources.setdefault(owner, set()).add(flag)
            if self.frame.kind == "function":
                # a constant that switches something off (``None``, ``False``, 0, ``""``), or "" for anything else
                text = constant_text(value) if node is target else None
                off = text if text is not None and switched_off(constant_value(text)) else ""
                self.attr_setters.setdefault(owner, set()).add((self.functions[self.frame.func].name, off))

    def _flag_source(self, value: ast.expr | None) -> str:
        """The ``__init__`` parameter an attribute is bound to as a flag (ClassInfo.flag_attrs): a
        parameter never bound again as it is (``self.log = log``; ``self.save_dir = save_dir`` of a
        parameter without a default, which every construction settles by passing on its own
        parameter's default, ``save_dir=save_dir`` in ``load_environment`` with ``None``), or any
        parameter behind a test of itself that gives a constant switching something off when it is
        off (``self.describe_model = str(describe_model).strip() if describe_model else None``: off
        while the parameter is; the same written as an ``if`` statement, :func:`branch_flags`); else ""."""
        if isinstance(value, ast.Name) and value.id in self.frame.testable:
            return value.id
        if value is not None and (param := branch_flags(self.frame.own, self.frame.testable).get(id(value))):
            return param  # ``if p is None: self.x = None`` / ``else: self.x = f(p)``: the statement's form
        if (
            isinstance(value, ast.IfExp)
            and isinstance(value.test, ast.Name)
            and value.test.id in self.frame.params
            and (text := constant_text(value.orelse)) is not None
            and switched_off(constant_value(text))
        ):
            return value.test.id
        return ""

    def _required_attribute(self, stmt: ast.If) -> str:
        """The attribute of ``self`` that ``stmt`` raises unless set: ``if self._pool is None: raise
        RuntimeError(...)`` or ``if not self._pool: raise ...``, no ``else`` (CallFacts.requires)."""
        if stmt.orelse or not isinstance(stmt.body[-1], ast.Raise):
            return ""
        test = stmt.test
        compared = none_test(test)
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            tested = test.operand
        elif compared is not None and compared[1]:
            tested = compared[0]
        else:
            return ""
        owner = self._own_attribute(tested)
        return owner[1] if owner is not None else ""

    def _field_kind(self, annotation: ast.expr) -> str:
        """ClassSummary.fields' kind of a field annotated ``annotation``: ``scalar``, a class
        named alone (``meta: WorldMeta``, ``Optional[Meta]``; the graph sizes it by that class's
        own fields, when the project defines it) as :data:`FIELD_CLASS` + its name, a container of
        scalars (``dict[str, float]``) as :data:`FIELD_SCALARS`, else ``container``."""
        if scalar_annotation(annotation):
            return "scalar"
        if scalar_container(annotation):
            return FIELD_SCALARS
        named = annotation
        if isinstance(named, ast.BinOp) and isinstance(named.op, ast.BitOr):  # ``Meta | None``
            if scalar_annotation(named.right):
                named = named.left
            elif scalar_annotation(named.left):
                named = named.right
        if isinstance(named, (ast.Name, ast.Attribute)):
            value = self.annotation_type(named)
            if isinstance(value, Inst):
                return f"{FIELD_CLASS}{value.name.removesuffix('()')}"
        return "container"

    def file_tested(self, test: ast.expr) -> ast.expr:
        """``test``, or the ``not path.exists()`` of a test whether a file is missing or stale
        (:func:`~asynclint.analysis.index.guards.file_guard`), written in the ``if`` or bound to the
        name it tests (``needs_regen = not out.exists() or ...``, then ``if needs_regen:``)."""
        bound = self.frame.file_tests.get(test.id) if isinstance(test, ast.Name) else None
        return bound if bound is not None else file_guard(test) or test

    def _lazy_guard(self, test: ast.expr, body: list[ast.stmt]) -> bool:
        """``if self._x is None:`` / ``if not _CACHE:`` / ``if key not in self._memo:`` /
        ``if not path.exists():`` around code that fills what it tests, where that outlives the
        call (an attribute, a module-level name): the block runs on the first call only. A name
        bound to ``self._memo.get(key)`` and tested ``is None`` is read as ``key not in
        self._memo``. One operand of an ``and`` is enough (``if self.network_access and not
        self._installed:``): once the block has filled what it tests, the whole test is false."""
        if self.frame.kind != "function":
            return False
        if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
            return any(self._lazy_guard(part, body) for part in test.values)
        target = guard_target(test, ready=False)
        if isinstance(target, ast.Name) and target.id in self.frame.lookups:
            holder, key = self.frame.lookups[target.id]
            return self._keyed_fill(holder, key, body)
        lookup = looked_up(target) if isinstance(target, ast.Call) else None
        if lookup is not None:  # ``if cls._cache.get(key) is None:``, the lookup written in the test
            return self._keyed_fill(*lookup, body)
        guarded = guard_holder(target)
        if guarded == "<exists>":  # creates the file it looked for (a download, a cache on disk), and keeps it
            return fills_file(self._disk_caches, body, statements_after(body, self.frame.own))
        if guarded is None:
            return False
        if self._handed_in(guarded):
            return stores(body, guarded)
        if not (self._fixed_key(test) or self._builds_per_key(guarded, body)):
            return False
        return self._persistent(guarded) and stores(body, guarded)

    @contextmanager
    def memo_miss(self, handler: ast.ExceptHandler, attempt: list[ast.stmt]) -> Iterator[None]:
        """Walk ``handler`` as the miss of a memo when it is one: ``try: return cache[key]`` /
        ``except KeyError: value = build(); cache[key] = value`` (anyio's ``get_async_backend``) is
        the ``if key not in cache:`` of :meth:`_lazy_guard` written the other way round, and is
        read as that test would be: once when the key is fixed or the cache keeps objects built per
        configuration, per distinct input otherwise."""
        test = _missed_entry(handler, attempt, self._denoted)
        once, memo = self.lazy_fill(test, handler.body) if test is not None else (False, None)
        per_instance = (
            once and test is not None and instance_guard(test, self.shared_attrs.get(self.frame.cls or "", ()))
        )
        keyed = memo.rollout if memo is not None and not once else ""
        self.frame.keyed += [keyed] if keyed else []
        self.frame.once += once
        self.frame.instance_once += per_instance
        self.frame.memo_keys += [memo.params if memo else ()] if once else []
        yield
        self.frame.once -= once
        self.frame.instance_once -= per_instance
        del self.frame.memo_keys[len(self.frame.memo_keys) - once :]
        del self.frame.keyed[len(self.frame.keyed) - bool(keyed) :]

    def lazy_fill(self, test: ast.expr, body: list[ast.stmt]) -> tuple[bool, KeyReads | None]:
        """Is ``body`` under ``test`` a lazy fill (:meth:`_lazy_guard`), and what its key reads, for a
        keyed one. A key read from the rollout's state (``sid = state["info"]["sandbox_id"]``) misses
        once per rollout: no first-call-only fill, whatever the cache holds."""
        if not self._lazy_guard(test, body):
            return False, None
        return self._keyed_once(test, body)

    def _ready_fill(self, test: ast.expr, rest: list[ast.stmt]) -> tuple[bool, KeyReads | None]:
        """:meth:`lazy_fill` for a ready-return (``if key in cache: return cache[key]``, then the
        fill): is ``rest`` done once for all calls (:meth:`_ready_once`), and what its key reads."""
        if not self._ready_once(test, rest):
            return False, None
        return self._keyed_once(presence_stripped(test), rest)

    def _keyed_once(self, test: ast.expr, fill: list[ast.stmt]) -> tuple[bool, KeyReads | None]:
        """A one-time fill under ``test``, judged by its key: none, a configuration's dump or a module
        loaded by name -> once, no key recorded; a key read from the rollout's own value -> not once
        at all (it misses once per rollout), and so is one minted for the call (a uuid: it never hits);
        otherwise once, with the parameters the key reads."""
        key = guarded_key(test, self.frame.lookups)
        if key is None or self._configuration_key(key) or self._loads_modules(fill):
            return True, None  # a module per key: the installed ones bound the keys, whoever picks them
        memo = key_reads(key, self.frame.own, self.frame.bindings, self.frame.params)
        return not (memo.rollout or memo.minted), memo

    def _ready_return(self, stmt: ast.If, rest: list[ast.stmt]) -> bool:
        if self.frame.kind != "function" or stmt.orelse or not isinstance(stmt.body[-1], ast.Return):
            return False
        return self._ready_once(stmt.test, rest) or ready_state_key(stmt, self.frame.lookups) is not None

    def _ready_once(self, test: ast.expr, rest: list[ast.stmt]) -> bool:
        """Does a ready-return's ``test`` find done what ``rest`` does once for all calls?"""
        test = presence_stripped(test)
        guarded = guard_holder(guard_target(test, ready=True))
        if guarded == "<exists>":  # ``if path.exists(): return path`` -- the rest makes the file, once
            return fills_file(self._disk_caches, rest)
        if waits_until(test, rest):
            return True  # ``if server_up(): return`` -- the rest starts it and waits until it is up
        if guarded is None:
            return False
        if self._handed_in(guarded):
            return stores(rest, guarded)
        if not (self._fixed_key(test) or self._builds_per_key(guarded, rest)):
            return False  # (a client per endpoint is once per key, as under ``if url not in _CLIENTS:``)
        return self._persistent(guarded) and stores(rest, guarded)

    def _visit_ready(self, stmt: ast.If, rest: list[ast.stmt], cache_miss: bool = False) -> None:
        """The rest of a body after a ready-return (``if self._index is not None: return
        self._index``): it builds what the test looks at once -- once per instance when that is an
        attribute of ``self``, as a lazy initialisation's block (``guards.instance_guard``).
        ``cache_miss``: the test looked for an entry of a cache on disk (``diskcache.cache_miss``).
        A test of a key of the rollout's state instead, ``rest`` runs while the state lacks it; a
        cache keyed by the rollout's own value (``if row in _DIRS: return _DIRS[row]`` with ``row =
        state["info"]["row_id"]``), once per rollout; one keyed by parameters records them
        (``CallSite.memo_key``), as a lazy fill's block does."""
        test = stmt.test
        once, memo = (True, None) if cache_miss else self._ready_fill(test, rest)
        key = None if once or memo is not None else ready_state_key(stmt, self.frame.lookups)
        if key is not None:
            self.frame.state_ready.append(key)
            self.visit_body(rest)
            self.frame.state_ready.pop()
            return
        if not once:  # a cache keyed by the rollout's own value: the rest runs once per example or rollout
            keyed = memo.rollout if memo is not None else ""
            self.frame.keyed += [keyed] if keyed else []
            self.visit_body(rest)
            del self.frame.keyed[len(self.frame.keyed) - bool(keyed) :]
            return
        shared = self.shared_attrs.get(self.frame.cls or "", ())
        per_instance = instance_guard(presence_stripped(test), shared, ready=True)
        self.frame.once += 1
        self.frame.instance_once += per_instance
        self.frame.memo_keys.append(memo.params if memo else ())
        self.frame.cache_miss += cache_miss
        self.visit_body(rest)
        self.frame.once -= 1
        self.frame.instance_once -= per_instance
        self.frame.memo_keys.pop()
        self.frame.cache_miss -= cache_miss

    def _keyed_fill(self, holder: ast.expr, key: ast.expr, body: list[ast.stmt]) -> bool:
        """Does ``body`` fill ``holder[key]`` once for all calls: a dict that outlives the call,
        keyed by something fixed or holding objects built per configuration (or a dict handed in),
        that ``body`` stores into."""
        if self._handed_in(holder):
            return stores(body, holder)
        once = self._fixed_name_key(key) or self._configuration_key(key) or self._builds_per_key(holder, body)
        return once and self._persistent(holder) and stores(body, holder)

    def _fixed_key(self, test: ast.expr) -> bool:
        """A cache looked up by a key made of the call's own arguments or locals (``if query in
        _cache``) fills once per distinct input -- per rollout, as far as anyone can tell. A
        constant key, or one made of module-level names and ``self``, fills once; so does a dump of a
        configuration (:meth:`_configuration_key`), once per configuration."""
        inner = test.operand if isinstance(test, ast.UnaryOp) else test
        if not (isinstance(inner, ast.Compare) and isinstance(inner.ops[0], (ast.In, ast.NotIn))):
            return True
        return self._fixed_name_key(inner.left) or self._configuration_key(inner.left)

    def _fixed_name_key(self, key: ast.expr) -> bool:
        """``key`` reads no argument or local of the call (``self`` and its attributes aside)."""
        return not any(
            isinstance(name, ast.Name)
            and name.id in self.frame.bindings
            and not isinstance(self.frame.bindings[name.id], SelfRef)
            for name in walk(key)
        )

    def _configuration_key(self, key: ast.expr) -> bool:
        """``key`` is a dump of an object whose class holds a configuration (``key =
        config.model_dump_json()`` with ``config: BaseClientConfig``, bound once in the function's
        own body, or written in place; ``json.dumps``/``repr``/``hash`` of one): verifiers'
        ``InterceptionServer._client`` keeps one client per endpoint configuration. A process runs
        with a few configurations, whatever the rollouts' data: the fill runs once per
        configuration, as a setting's key does. (A dump of the rollout's data -- a message, a tool
        call's arguments -- is no configuration's and still fills per distinct input.)"""
        if isinstance(key, ast.Name):
            bound = [
                stmt.value
                for stmt in self.frame.own
                if isinstance(stmt, ast.Assign)
                and any(isinstance(target, ast.Name) and target.id == key.id for target in stmt.targets)
            ]
            if len(bound) != 1:
                return False
            key = bound[0]
        while isinstance(key, ast.Call):
            if isinstance(key.func, ast.Attribute) and key.func.attr in KEY_DUMP_METHODS:
                key = key.func.value
            elif key.args and self._denoted(key.func) in KEY_DUMP_FUNCTIONS:
                key = key.args[0]
            else:
                return False
        dumped = self.infer(key) if isinstance(key, (ast.Name, ast.Attribute)) else None
        return isinstance(dumped, Inst) and dumped.name.removesuffix("()").endswith(CONFIGURATION_SUFFIXES)

    def _handed_in(self, holder: ast.expr) -> bool:
        """An optional dict the caller hands in and keeps (``cache: dict | None = None``, never
        bound again here): a registry the caller holds across calls, which this function fills per
        key (a verifier per task type). Filled once per key, however the key is made. (A parameter
        without that default, the rollout's ``state`` above all, is the call's own data.)"""
        return (
            isinstance(holder, ast.Name)
            and holder.id in self.frame.params
            and (holder.id, "None") in self.functions[self.frame.func].defaults
        )

    def _builds_per_key(self, guarded: ast.expr, body: list[ast.stmt]) -> bool:
        """``if key not in _CLIENTS: _CLIENTS[key] = openai.OpenAI(base_url=...)`` (or ``client =
        openai.OpenAI(...)``; ``_CLIENTS[key] = client``): a keyed cache of objects of a known class
        (a client, a tokenizer). One is built per configuration and every rollout with that
        configuration reuses it, so the fill runs once per key, whatever the key is made of. A
        value computed from the key (a page fetched, a file read, a parsed text) fills once per
        distinct input instead: per call, as far as anyone can tell. A module imported by name
        (``module = import_module(f"pkg.backends.{name}")``; ``_BACKENDS[name] = module.Backend``,
        anyio's ``get_async_backend``) is loaded once per module: a registry of what is installed."""
        want = ast.unparse(guarded)
        assigns = [n for stmt in body for n in walk(stmt) if isinstance(n, ast.Assign)]
        built = {
            target.id
            for node in assigns
            if self._builds_object(node.value) or self._loads_module(node.value)
            for target in node.targets
            if isinstance(target, ast.Name)
        }
        return any(
            isinstance(target, ast.Subscript)
            and ast.unparse(target.value) == want
            and (
                self._builds_object(node.value)
                or self._loads_module(node.value)
                or (isinstance(node.value, ast.Name) and node.value.id in built)
                or (
                    isinstance(node.value, ast.Attribute)
                    and isinstance(node.value.value, ast.Name)
                    and node.value.value.id in built
                )
            )
            for node in assigns
            for target in node.targets
        )

    def _loads_modules(self, body: list[ast.stmt]) -> bool:
        """``body`` binds a name to a module it loads by name (``importlib.import_module(...)``)."""
        return any(isinstance(n, ast.Assign) and self._loads_module(n.value) for stmt in body for n in walk(stmt))

    def _loads_module(self, value: ast.expr) -> bool:
        """``importlib.import_module(...)``: a module, loaded once per process whatever names it."""
        return isinstance(value, ast.Call) and self._denoted(value.func) in MODULE_LOADERS

    def _builds_object(self, value: ast.expr) -> bool:
        """A call that builds an object of a known class (``openai.OpenAI(...)``)."""
        return (
            isinstance(value, ast.Call)
            and isinstance(built := self.infer(value), Inst)
            and not built.name.endswith("()")
        )

    def _persistent(self, guarded: ast.expr) -> bool:
        """Outlives the call: ``self.x``, ``cls.x``, ``Class.x``, or a name not local to it (an
        attribute of a local object, ``conn.ready``, lives as long as the object)."""
        while isinstance(guarded, ast.Attribute):
            guarded = guarded.value
        if not isinstance(guarded, ast.Name):
            return False
        local = self.frame.bindings.get(guarded.id, UNBOUND) if guarded.id not in self.frame.globals else UNBOUND
        return local is UNBOUND or isinstance(local, SelfRef)


def _missed_entry(
    handler: ast.ExceptHandler, attempt: list[ast.stmt], denoted: Callable[[ast.expr], str | None]
) -> ast.expr | None:
    """``key not in cache`` for a ``handler`` catching only ``KeyError`` (or ``LookupError``) after an
    ``attempt`` that only reads ``cache[key]`` (``return cache[key]``, ``value = cache[key]``): the
    handler runs when the entry is missing."""
    caught = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type] if handler.type else []
    if not caught or any(denoted(kind) not in MISSING_KEY_ERRORS for kind in caught) or len(attempt) != 1:
        return None
    read = attempt[0].value if isinstance(attempt[0], (ast.Return, ast.Assign)) else None
    if not (isinstance(read, ast.Subscript) and isinstance(read.value, (ast.Name, ast.Attribute))):
        return None
    return ast.Compare(left=read.slice, ops=[ast.NotIn()], comparators=[read.value])


def _mode_comparison(node: ast.AST) -> bool:
    """``<x> == "code"`` / ``"code" != <x>``: a comparison with a string constant."""
    return (
        isinstance(node, ast.Compare)
        and len(node.ops) == 1
        and isinstance(node.ops[0], (ast.Eq, ast.NotEq))
        and any(
            isinstance(side, ast.Constant) and isinstance(side.value, str) for side in (node.left, *node.comparators)
        )
    )


def _attribute_test_value(value: ast.expr) -> bool:
    """``value`` reads an attribute (:func:`_attribute_read`), or tests one with comparisons,
    ``and``/``or``/``not`` and nothing that runs code (``self.cache is not None and name != "x"``)."""
    if _attribute_read(value):
        return True
    return (
        isinstance(value, (ast.Compare, ast.BoolOp, ast.UnaryOp))
        and not any(isinstance(node, (ast.Call, ast.NamedExpr, ast.Await)) for node in walk(value))
        and any(isinstance(node, ast.expr) and _attribute_read(node) for node in walk(value))
    )


def _attribute_read(value: ast.expr) -> bool:
    """``value`` reads an attribute of a name, maybe through others (``self.policy.limit``)."""
    while isinstance(value, ast.Attribute):
        value = value.value
        if isinstance(value, ast.Name):
            return True
    return False


def _getattr_as_attribute(test: ast.expr) -> ast.expr:
    """``test`` with each ``getattr(obj, "name", <constant>)`` read as ``obj.name``: the default only
    answers for an instance that lacks the attribute, and the graph knows the instances' defaults."""

    class Rewrite(ast.NodeTransformer):
        def visit_Call(self, node: ast.Call) -> ast.expr:
            name = node.args[1].value if _constant_getattr(node) else None  # type: ignore[attr-defined]
            if isinstance(name, str):
                return ast.Attribute(node.args[0], name, ast.Load())
            self.generic_visit(node)
            return node

    if not any(isinstance(node, ast.Call) and _constant_getattr(node) for node in walk(test)):
        return test  # nothing to rewrite: no copy
    rewritten: ast.expr = Rewrite().visit(copy.deepcopy(test))
    return rewritten


def _constant_getattr(node: ast.Call) -> bool:
    """``getattr(obj, "name", <constant>)``, ``obj`` a name or an attribute."""
    return (
        isinstance(node.func, ast.Name)
        and node.func.id == "getattr"
        and len(node.args) == 3
        and not node.keywords
        and isinstance(node.args[0], (ast.Name, ast.Attribute))
        and isinstance(node.args[1], ast.Constant)
        and isinstance(node.args[1].value, str)
        and node.args[1].value.isidentifier()
        and isinstance(node.args[2], ast.Constant)
    )
