"""Tests around a statement read from the syntax alone: lazy-initialisation guards (what a "not
built yet" test looks at), first-turn and terminal-state tests of the rollout's state, handlers
that fail, waits that outlive the call, and stores of a guarded name. The walk
(:mod:`asynclint.analysis.index.statements`, :mod:`asynclint.analysis.index.conditions`) decides
frequencies from them."""

from __future__ import annotations

import ast
from collections.abc import Callable, Collection, Container, Mapping
from typing import Literal

from asynclint.analysis.index.callshapes import state_get, state_key
from asynclint.analysis.index.helpers import GROWING, SCOPES, none_test
from asynclint.analysis.index.stopkeys import answers_true, stop_check
from asynclint.analysis.index.walks import scope_nodes, walk
from asynclint.knowledge.asyncio_apis import (
    FAILURE_ERRORS,
    PARSING_BUILTINS,
    PARSING_CATEGORIES,
    SIGNATURE_ERRORS,
    THROTTLE_ERRORS,
    THROTTLE_MARKERS,
    TIMEOUT_ERRORS,
    WAIT_FAILURES,
)
from asynclint.knowledge.catalogue import Catalogue
from asynclint.knowledge.frameworks import (
    FAILURE_RESULT_KEYS,
    ROLLOUT_STATE_NAMES,
    TERMINAL_METHODS,
    TERMINAL_STATE_KEYS,
)

#: What :func:`guard_target` answers for a test of whether a file exists.
Exists = Literal["<exists>"]


def guard_target(test: ast.expr, ready: bool) -> ast.expr | Exists | None:
    """What a lazy-initialisation test looks at: ``x is None`` / ``not x`` / ``k not in x`` /
    ``not hasattr(o, "x")`` (``ready=False``: the test says "not built yet"), or ``x is not
    None`` / ``x`` / ``k in x`` (``ready=True``: "built already"). ``"<exists>"`` for a file
    looked for with ``exists``/``is_file``/``isfile``."""
    negated = isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)
    inner = test.operand if negated and isinstance(test, ast.UnaryOp) else test
    if isinstance(inner, ast.Compare) and len(inner.ops) == 1:
        op, right = inner.ops[0], inner.comparators[0]
        if isinstance(right, ast.Constant) and right.value is None and not negated:
            if isinstance(op, ast.IsNot if ready else ast.Is):
                return inner.left
        if isinstance(op, ast.In if ready != negated else ast.NotIn) and not (ready and negated):
            return right
        return None
    if isinstance(inner, ast.Call) and negated != ready:
        func = inner.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if name == "hasattr" and len(inner.args) == 2 and isinstance(inner.args[1], ast.Constant):
            owner, attr = inner.args[0], inner.args[1].value
            return ast.Attribute(owner, attr, ast.Load()) if isinstance(attr, str) else None
        if name in ("exists", "is_file", "isfile", "is_dir", "isdir"):
            return "<exists>"
        return inner  # ``not state.get("ready")``: what the call looks up
    if isinstance(inner, (ast.Name, ast.Attribute)) and negated != ready:
        return inner
    return None


def file_guard(test: ast.expr) -> ast.expr | None:
    """The ``not path.exists()`` of a test whether a file is missing or stale, make's rule: ``not
    out.exists() or any(src.stat().st_mtime > out.stat().st_mtime for src in sources)``. Once the
    block under it has written the file, the file exists and is newer than every source, so the
    whole test stays false until a source is edited: the block runs on a first call, as under the
    ``not path.exists()`` alone. ``None`` for any other test (an ``or`` with a flag or a size check
    may hold again on a later call)."""
    if not (isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or)):
        return None
    missing = [part for part in test.values if guard_target(part, ready=False) == "<exists>"]
    out = _looked_for(missing[0]) if len(missing) == 1 else None
    if out is None or not all(part is missing[0] or _stale(part, out) for part in test.values):
        return None
    return missing[0]


def _looked_for(test: ast.expr) -> str | None:
    """``ast.dump`` of the path a ``not path.exists()`` / ``not os.path.exists(path)`` looks for."""
    call = test.operand if isinstance(test, ast.UnaryOp) else test
    if not isinstance(call, ast.Call):
        return None
    if call.args:
        return ast.dump(call.args[0])
    return ast.dump(call.func.value) if isinstance(call.func, ast.Attribute) else None


def _stale(test: ast.expr, out: str) -> bool:
    """``src.stat().st_mtime > out.stat().st_mtime`` (or ``os.path.getmtime``, or ``out ... < src
    ...``), alone or in an ``any`` over the sources: the file looked for (``out``, dumped) is the
    older side. Written the other way round (``out`` newer than a source) or between two other
    files, the test holds again after the block has written ``out``: no first-call guard."""
    if isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and test.func.id == "any" and len(test.args) == 1:
        inner = test.args[0]
        test = inner.elt if isinstance(inner, ast.GeneratorExp) else inner
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return False
    if isinstance(test.ops[0], (ast.Gt, ast.GtE)):
        newer, older = _mtime_of(test.left), _mtime_of(test.comparators[0])
    elif isinstance(test.ops[0], (ast.Lt, ast.LtE)):
        older, newer = _mtime_of(test.left), _mtime_of(test.comparators[0])
    else:
        return False
    return older == out and newer is not None and newer != out


def _mtime_of(node: ast.expr) -> str | None:
    """``ast.dump`` of the path whose modification time ``node`` reads (``p.stat().st_mtime``,
    ``os.path.getmtime(p)``), else ``None``."""
    if isinstance(node, ast.Attribute) and node.attr in ("st_mtime", "st_mtime_ns"):
        stat = node.value
        if isinstance(stat, ast.Call) and isinstance(stat.func, ast.Attribute) and stat.func.attr == "stat":
            return ast.dump(stat.args[0]) if stat.args else ast.dump(stat.func.value)
        return None
    func = node.func if isinstance(node, ast.Call) else None
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    return ast.dump(node.args[0]) if name == "getmtime" and isinstance(node, ast.Call) and node.args else None


def instance_guard(test: ast.expr, shared: Container[str] = (), ready: bool = False) -> bool:
    """A lazy-initialisation test of an attribute of ``self`` (``if self.env is None:``; with
    ``ready``, the test of a ready-return, ``if self._configured: return``): what it fills lives as
    long as the instance, so the block runs once per instance, not once per process -- unless the
    attribute is a container the class body binds and the instances share (``shared``, see
    :func:`shared_containers`)."""
    target = guard_holder(guard_target(test, ready=ready))
    return (
        isinstance(target, ast.Attribute)
        and isinstance(target.value, ast.Name)
        and target.value.id == "self"
        and target.attr not in shared
    )


def shared_containers(node: ast.ClassDef) -> frozenset[str]:
    """Attributes the class body binds to an empty or literal dict, list or set (``_tokenizers:
    dict[str, T] = {}``) that no method binds again through ``self``: one container the instances
    share, so a lazy fill of it (``if key not in self._tokenizers:``) runs once per process, not once
    per instance."""
    shared = set()
    for stmt in node.body:
        target = (
            stmt.target
            if isinstance(stmt, ast.AnnAssign)
            else stmt.targets[0]
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
            else None
        )
        value = stmt.value if isinstance(stmt, (ast.Assign, ast.AnnAssign)) else None
        if isinstance(target, ast.Name) and isinstance(value, (ast.Dict, ast.List, ast.Set)):
            shared.add(target.id)
    for child in walk(node):
        targets = (
            child.targets
            if isinstance(child, ast.Assign)
            else [child.target]
            if isinstance(child, (ast.AnnAssign, ast.AugAssign))
            else []
        )
        for target in targets:
            if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self":
                shared.discard(target.attr)
    return frozenset(shared)


def looked_up(value: ast.expr) -> tuple[ast.expr, ast.expr] | None:
    """``self._cache.get(key)`` / ``cache.get(key, None)``: the dict looked in and the key (a
    name bound to it and tested ``is None`` asks whether the dict holds the key)."""
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "get"):
        return None
    if value.keywords or not value.args or len(value.args) > 2:
        return None
    if len(value.args) == 2 and not (isinstance(value.args[1], ast.Constant) and value.args[1].value is None):
        return None  # a default other than None: ``is None`` no longer means "missing"
    if not isinstance(value.func.value, (ast.Name, ast.Attribute)):
        return None
    return value.func.value, value.args[0]


def presence_stripped(test: ast.expr) -> ast.expr:
    """``cache is not None and key in cache`` read as ``key in cache``: the first part only says a
    cache was handed in at all (``cache: dict | None = None``)."""
    if not (isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) and len(test.values) == 2):
        return test
    present, member = test.values
    tested = none_test(present)
    if not (
        tested is not None
        and not tested[1]
        and isinstance(member, ast.Compare)
        and len(member.ops) == 1
        and isinstance(member.ops[0], ast.In)
        and ast.unparse(member.comparators[0]) == ast.unparse(tested[0])
    ):
        return test
    return member


def guard_holder(guarded: ast.expr | Exists | None) -> ast.expr | Exists | None:
    """What a guard on one constant item tests the filling of: ``_model["model"] is None`` fills
    ``_model`` (a dict kept outside the call as a holder), as ``self._model is None`` fills
    ``self``'s attribute."""
    if isinstance(guarded, ast.Subscript) and isinstance(guarded.slice, ast.Constant):
        return guarded.value
    return guarded


def first_turn_guard(
    test: ast.expr, body: list[ast.stmt], lookups: Mapping[str, tuple[ast.expr, ast.expr]] | None = None
) -> bool:
    """``if not state.get("ready"):`` / ``if "game" not in state:`` / ``if state["env"] is None:``
    around code that sets that key of the rollout's state: it runs on a rollout's first turn. One
    operand of an ``and`` is enough (``if "game" not in state and messages:``). So does a local
    bound to ``state.get("k")`` (``lookups``: ``b = state.get("backend")`` then ``if b is None:``,
    a lazy build the rollout's state caches: built on the first turn, read on every other)."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return any(first_turn_guard(part, body, lookups) for part in test.values)
    guarded = guard_target(test, ready=False)
    key = None
    if isinstance(guarded, ast.Name) and lookups and guarded.id in lookups:
        holder, read = lookups[guarded.id]
        rollout = isinstance(holder, ast.Name) and holder.id in ROLLOUT_STATE_NAMES
        key = read.value if rollout and isinstance(read, ast.Constant) and isinstance(read.value, str) else None
    elif isinstance(guarded, ast.Call):
        key = state_get(guarded)
    elif isinstance(guarded, ast.Subscript):
        key = state_key(guarded)
    elif isinstance(guarded, ast.Name) and guarded.id in ROLLOUT_STATE_NAMES:  # ``"k" not in state``
        inner = test.operand if isinstance(test, ast.UnaryOp) else test
        left = inner.left if isinstance(inner, ast.Compare) else None
        key = left.value if isinstance(left, ast.Constant) and isinstance(left.value, str) else None
    return key is not None and any(
        state_key(target) == key
        for node in (n for stmt in body for n in walk(stmt))
        if isinstance(node, ast.Assign)
        for target in node.targets
    )


def ends_raising(body: list[ast.stmt]) -> bool:
    """Does ``body`` (a branch) end with a ``raise``, with no other way out (a ``return``,
    ``break`` or ``continue`` in it)? What it runs, runs once per failing call."""
    exits = (ast.Return, ast.Break, ast.Continue)
    return (
        bool(body)
        and isinstance(body[-1], ast.Raise)
        and not any(isinstance(node, exits) for stmt in body for node in walk(stmt))
    )


def failing_handler(
    handler: ast.ExceptHandler, attempt: list[ast.stmt], denoted: Callable[[ast.expr], str | None], known: Catalogue
) -> bool:
    """An ``except`` handler whose last statement raises, or returns the failure as the call's
    result: the exception it caught (``return {"error": str(e)}``, ``return f"Error: {e}"``) or a
    dict with a failure key (``"error"``: frameworks.FAILURE_RESULT_KEYS, ``dict(error=...)`` too).
    Either way it runs once per failing call. A handler that waits out an API's throttling
    (:func:`throttle_handler`) runs under a group's normal load: never one. A handler that returns
    anything else (a retry prompt, a default) recovers and may run on every call -- unless it catches only timeouts
    (:data:`~asynclint.knowledge.asyncio_apis.TIMEOUT_ERRORS`, by the names ``denoted``
    resolves), with at most the other ways a wait fails beside them (``WAIT_FAILURES``): it runs
    after a wait already ran out of time or broke, once per failure; or only the error a wrong
    call signature raises, calling the attempt's callee again with other keyword arguments
    (:func:`signature_retry`): a shim for another release of a library; or only failures
    (``FAILURE_ERRORS``: ``except Exception:``, a bare ``except:``, ``OSError``), never an
    exception a normal path raises (``KeyError``, ``StopIteration``, a parse's ``ValueError``),
    when it is no branch of the normal path (:func:`normal_branch`)."""
    caught = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type] if handler.type else []
    if not handler.body:
        return False
    last = handler.body[-1]
    kinds = {denoted(kind) for kind in caught} if caught else {"builtins.BaseException"}
    if not isinstance(last, ast.Raise) and throttle_handler(handler, kinds):
        return False
    if isinstance(last, ast.Raise) or (kinds & TIMEOUT_ERRORS and kinds <= TIMEOUT_ERRORS | WAIT_FAILURES):
        return True
    if kinds <= SIGNATURE_ERRORS and signature_retry(handler, attempt):
        return True
    if isinstance(last, ast.Return) and last.value is not None:
        for node in walk(last.value):
            if handler.name and isinstance(node, ast.Name) and node.id == handler.name:
                return True
            if isinstance(node, ast.Dict) and any(
                isinstance(key, ast.Constant) and key.value in FAILURE_RESULT_KEYS for key in node.keys
            ):
                return True
            if (  # ``dict(error=...)``
                isinstance(node, ast.Call)
                and denoted(node.func) == "builtins.dict"
                and any(keyword.arg in FAILURE_RESULT_KEYS for keyword in node.keywords)
            ):
                return True
    return kinds <= FAILURE_ERRORS | TIMEOUT_ERRORS and not normal_branch(handler, attempt, denoted, known)


def throttle_handler(handler: ast.ExceptHandler, kinds: Collection[str | None]) -> bool:
    """Does ``handler`` wait out an API's throttling (:data:`THROTTLE_ERRORS` caught, or the
    failure's text tested for a marker of :data:`THROTTLE_MARKERS`, ``"429"``)? Routine under a
    group's load: not a failure path."""
    if not THROTTLE_ERRORS.isdisjoint(kinds):
        return True
    texts = (
        node.value.lower()
        for node in (n for stmt in handler.body for n in walk(stmt))
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    )
    return any(marker in text for text in texts for marker in THROTTLE_MARKERS)


def signature_retry(handler: ast.ExceptHandler, attempt: list[ast.stmt]) -> bool:
    """Does ``handler`` call again what ``attempt`` (its ``try``'s body) calls, written the same,
    with other keyword arguments (``create(model=m, timeout=t)`` then ``create(model=m)``)?"""
    attempted: dict[str, set[frozenset[str | None]]] = {}
    for node in (n for stmt in attempt for n in walk(stmt)):
        if isinstance(node, ast.Call):
            attempted.setdefault(ast.dump(node.func), set()).add(frozenset(k.arg for k in node.keywords))
    for node in (n for stmt in handler.body for n in walk(stmt)):
        if isinstance(node, ast.Call) and (tried := attempted.get(ast.dump(node.func))):
            if frozenset(k.arg for k in node.keywords) not in tried:
                return True
    return False


def normal_branch(
    handler: ast.ExceptHandler, attempt: list[ast.stmt], denoted: Callable[[ast.expr], str | None], known: Catalogue
) -> bool:
    """Is a broad ``handler`` after ``attempt`` (its ``try``'s body) a branch of the normal path? So
    when the attempt raises by itself (``if self._conn is None: raise RuntimeError(...)``: a test
    of the code's own, caught as an ``else``); when it parses or evaluates data, a call the
    catalogue files under :data:`~asynclint.knowledge.asyncio_apis.PARSING_CATEGORIES`
    (``json.loads``, ``sympy.parse_expr``) or a builtin of
    :data:`~asynclint.knowledge.asyncio_apis.PARSING_BUILTINS` (``float(answer)``): input that does
    not parse is as common as a model answering off format; and when the handler falls back,
    computing by calls what the attempt was to give (``raw = lint(paths)`` / ``except Exception:
    raw = [...]; raw.append(scan(path))``, a retry with fewer parameters, ``return compute()``
    after ``return fetch()``): a second way to the same result, taken on every call where the
    first is missing (a tool not installed, a parameter a model refuses) -- a mode, not a failure."""
    for node in (n for stmt in attempt for n in walk(stmt)):
        if isinstance(node, ast.Raise):
            return True
        if isinstance(node, ast.Call) and (target := denoted(node.func)):
            api = known.match(target, None)
            if target in PARSING_BUILTINS or (api is not None and api.category in PARSING_CATEGORIES):
                return True
    given = {name for node in (n for stmt in attempt for n in walk(stmt)) for name in _gives(node)}
    for node in (n for stmt in handler.body for n in walk(stmt)):
        func = node.func if isinstance(node, ast.Call) else None
        if isinstance(func, ast.Attribute) and func.attr in GROWING and ast.unparse(func.value) in given:
            return True  # ``raw.append(scan(path))``: fills the attempt's result
        value = getattr(node, "value", None) if _gives(node) & given else None
        if isinstance(value, ast.expr) and any(isinstance(part, ast.Call) for part in walk(value)):
            return True
    return False


def _gives(node: ast.AST) -> set[str]:
    """What a statement gives its function: the targets it assigns (as source text), ``<return>``
    for a ``return`` of a value."""
    if isinstance(node, ast.Assign):
        return {ast.unparse(target) for target in node.targets}
    if isinstance(node, ast.AnnAssign) and node.value is not None:
        return {ast.unparse(node.target)}
    if isinstance(node, ast.Return) and node.value is not None:
        return {"<return>"}
    return set()


def terminal_guard(test: ast.expr, keys: Container[str] = TERMINAL_STATE_KEYS) -> bool:
    """``if state["terminated"]:`` / ``if state.get("done") and ...:`` / ``if await
    self.is_completed(state):``: a test that holds once the rollout has ended (one part of an
    ``and`` is enough; a negation or an ``or`` holds on other turns too). ``keys``: the state's keys
    that say so where the test is (the framework's, and those its class's stop checks answer from,
    :mod:`asynclint.analysis.index.stopkeys`)."""
    if isinstance(test, ast.BoolOp):
        return isinstance(test.op, ast.And) and any(terminal_guard(value, keys) for value in test.values)
    if isinstance(test, ast.Await):
        test = test.value
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Is, ast.Eq)):
        right = test.comparators[0]
        if not (isinstance(right, ast.Constant) and right.value is True):
            return False
        test = test.left  # ``state["done"] is True``
    if isinstance(test, ast.Subscript):
        return state_key(test) in keys
    if not isinstance(test, ast.Call):
        return False
    if (key := state_get(test)) is not None:
        return key in keys
    func = test.func
    return isinstance(func, ast.Attribute) and func.attr in TERMINAL_METHODS and isinstance(func.value, ast.Name)


def ending_branch(function: str, decorators: tuple[str, ...], body: list[ast.stmt]) -> bool:
    """A branch of a stop check (verifiers' ``is_completed``, a ``@vf.stop`` condition) that ends
    in ``return True``: the rollout ends with that answer, so the branch runs on its last turn, once
    per rollout, however often the check is asked (``self.save_rollout(state); return True``)."""
    return stop_check(function, decorators) and answers_true(body)


def ends_rollout(body: list[ast.stmt], keys: Container[str] = TERMINAL_STATE_KEYS) -> bool:
    """A branch that sets a key saying the rollout has ended (:func:`ending_store`, one of its own
    statements, not a nested one; ``keys`` as :func:`terminal_guard`'s): the stop check after the
    turn ends the rollout, so the branch runs on its last turn, once per rollout, however often the
    hook around it runs (``if name == "claim_done": state["task_done"] = True; await
    self._evaluate(url)``). Not when a statement before the store may return: the branch runs on
    the turns that leave there too (``if dropped: if reconnected: return ...; state["done"] =
    True``); what follows the store still runs once (the walk's ``visit_body``)."""
    for stmt in body:
        if ending_store(stmt, keys):
            return True
        if any(isinstance(node, ast.Return) for node in scope_nodes([stmt], SCOPES)):
            return False
    return False


def ending_store(stmt: ast.stmt, keys: Container[str] = TERMINAL_STATE_KEYS) -> bool:
    """``state["task_done"] = True``: a store of ``True`` under a key of ``keys`` (the keys that say
    the rollout has ended, as :func:`terminal_guard`'s)."""
    return (
        isinstance(stmt, ast.Assign)
        and isinstance(stmt.value, ast.Constant)
        and stmt.value.value is True
        and any(state_key(target) in keys for target in stmt.targets)
    )


def waits_until(test: ast.expr, rest: list[ast.stmt]) -> bool:
    """After ``if test: return``, does ``rest`` wait in a loop until ``test`` holds and return
    then (``if is_port_open(h, p): return`` / start the server / ``while ...: if
    is_port_open(h, p): return; time.sleep(0.2)``)? What it waits for outlives the call (a
    server started, a file written): the next call returns at the first test, so the rest runs
    once. The test must be the same call, as written."""
    if not isinstance(test, ast.Call):
        return False
    want = ast.unparse(test)
    return any(
        isinstance(node, ast.If) and isinstance(node.body[-1], ast.Return) and ast.unparse(node.test) == want
        for loop in (n for stmt in rest for n in walk(stmt) if isinstance(n, (ast.While, ast.For)))
        for node in walk(loop)
    )


def stores(body: list[ast.stmt], guarded: ast.expr) -> bool:
    """Does ``body`` assign ``guarded`` (or one of its items)? Compared as source text, which
    ignores load/store contexts."""
    want = ast.unparse(guarded)
    for node in (n for stmt in body for n in walk(stmt)):
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
            targets = [node.target]
        else:
            continue
        for part in (p for target in targets for p in walk(target)):
            if isinstance(part, ast.Subscript):
                part = part.value  # ``cache[key] = ...`` fills ``cache``
            if isinstance(part, (ast.Name, ast.Attribute)) and ast.unparse(part) == want:
                return True
    return False


#: What a missing package raises at its import.
IMPORT_ERRORS = frozenset({"ImportError", "ModuleNotFoundError"})


def import_fallback(handler: ast.ExceptHandler, attempt: list[ast.stmt]) -> list[ast.stmt]:
    """The statements of ``handler`` that bind names, less the placeholders it binds for a missing
    package: after ``try: import wandb`` / ``except ImportError: wandb = None`` the name holds the
    module wherever the package is installed, and only there do its calls run (split 16's three
    auto-rl environments log to wandb this way)."""
    caught = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type] if handler.type else []
    if not any(isinstance(kind, ast.Name) and kind.id in IMPORT_ERRORS for kind in caught):
        return handler.body
    imported = {
        (alias.asname or alias.name).split(".")[0]
        for stmt in attempt
        if isinstance(stmt, (ast.Import, ast.ImportFrom))
        for alias in stmt.names
    }
    return [
        stmt
        for stmt in handler.body
        if not (
            isinstance(stmt, ast.Assign)
            and isinstance(stmt.value, ast.Constant)
            and all(isinstance(target, ast.Name) and target.id in imported for target in stmt.targets)
        )
    ]
