"""What a function's names hold, as the walk binds them: the payload of an expression (how large
the value it gives is, and the evidence), what an assignment, a loop or a ``with`` leaves a name
holding, and what a ``return`` gives the callers (ModuleSummary.returned)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from contextlib import contextmanager
from typing import cast

from asynclint.analysis.index.argfacts import (
    Known,
    bound_payload,
    built_payload,
    entries,
    evidence_of,
    joined,
    literal,
    loop_item,
    payload_of_value,
    returned_word,
)
from asynclint.analysis.index.built_models import BUILT, builds_class
from asynclint.analysis.index.helpers import call_slots, may_be_project, slice_count
from asynclint.analysis.index.replies import reply_size
from asynclint.analysis.index.scopes import IndexerState
from asynclint.analysis.index.values import Inst, Marker, SelfMethod, SelfRef, Sym
from asynclint.analysis.index.walks import walk
from asynclint.knowledge.costs import (
    FEW,
    HTTP_RESPONSES,
    MODEL_REPLIES,
    MODEL_REPLY,
    RESPONSE_BODY,
    SCALAR_FIELD,
    STATE_KEY,
    item_word,
    sized_by_name,
)

#: Payload shapes of a local holding a parameter or a part of it (in the same size, a loop's item, a field, an item).
PART_SHAPES = frozenset({"name", "each", "key", "item"})
#: Methods reading a part of a mapping: its value at a key, its items, its values.
PART_READS = frozenset({"get", "items", "values"})
#: Payload shapes sized by a name alone (a local, a key, an attribute, a loop's item).
NAMED_SHAPES = frozenset({"name", "key", "attr", "each"})


class PayloadsHeld(IndexerState):
    """Part of the walk (:class:`asynclint.analysis.index.walker.Indexer`, which holds the state)."""

    #: ``id`` of the expression a recorded call is handed as its payload (``json.dumps(x)``'s ``x``) while its
    #: facts are read, else 0: a method of a project instance is followed there only (:meth:`_returned`).
    direct_payload: int
    #: While one call is recorded (``Recording.record_call``), the payloads of its arguments read so far
    #: by ``id`` (each fact of the call reads them again; nothing binds a name meanwhile), else ``None``.
    payloads_read: dict[int, tuple[ast.expr, tuple[str, str]]] | None

    #: (function, local) -> the word of the ``returned`` payload of the project call the local is bound
    #: to, where its name says more than that payload and so decides its size (``argfacts.bound_payload``:
    #: ``full_history = format_sessions(...)``): handed to a helper, the graph settles it first
    #: (CallFacts.large_args), the name only where the returns say nothing.
    named_results: dict[tuple[int, str], str]

    def _bound_at(self, arg: ast.expr | None) -> int:
        """The line of the binding whose value the payload ``arg`` reads (the outermost name in it
        that the function bound to a value saying its size), or 0 when the call's own text says."""
        names = (n.id for n in walk(arg) if isinstance(n, ast.Name)) if arg is not None else ()
        payloads, params = self.frame.payloads, self.frame.params
        # a parameter as it is (how every one starts, see definitions) is bound by no statement here
        held = next((n for n in names if n in payloads and not (n in params and payloads[n] == ("name", n))), None)
        return self.frame.bound_at.get(held, 0) if held is not None else 0

    def _passed_params(self, node: ast.Call) -> tuple[tuple[str, str], ...]:
        """CallSite.passed_params of a call: a parameter, or a name or expression holding it as it
        is or in the same size (``text = completion.strip(); helper(text)``). Not a constant few of it
        (``helper(text[:200])``): a text named small is read as its part, but the part is no longer what
        the callers hand."""
        params = self.frame.params
        return tuple(
            (slot, word)
            for slot, arg in call_slots(node)
            for shape, word in [self._payload_of(arg)]
            if shape == "name" and word in params and not _cut_to_few(arg)
        )

    def _small_arguments(self, node: ast.Call) -> tuple[str, ...]:
        """CallSite.small_args of a call."""
        params = self.frame.params
        return tuple(
            slot
            for slot, payload in self._slot_payloads(node)
            if not (payload[0] == "name" and payload[1] in params) and evidence_of(payload) == "small"
        )

    def _part_params(self, node: ast.Call) -> tuple[tuple[str, str], ...]:
        """CallFacts.part_params of a call: (slot, parameter) of each argument that is a part of a parameter
        still holding what the callers hand -- a field, an item, a slice, a value read with ``.get``, or a
        local bound to a loop's item over one of those (``for key, value in override.items()``,
        ``entry.get("resource")`` for each entry of ``transaction["entry"]``) -- not the parameter as it is
        (``passed_params``). A part is no larger than what the callers hand the parameter."""
        return tuple((slot, param) for slot, arg in call_slots(node) if (param := self._part_of(arg, 0)))

    def _part_of(self, arg: ast.expr, depth: int) -> str:
        """The parameter ``arg`` is a part of (see :meth:`_part_params`), or ""."""
        unbound, payloads = self.frame.unbound, self.frame.payloads
        if isinstance(arg, ast.Name):
            if arg.id in unbound:
                return arg.id if depth else ""  # the parameter as it is: ``passed_params``
            shape, word = payloads.get(arg.id, ("", ""))
            root = word.partition(".")[0]
            # a local holding the parameter as it is (``query = json.loads(query_json)``) is a part only read into
            held = shape in PART_SHAPES and (depth or shape != "name") and root in unbound
            held = held and payloads.get(root) == ("name", root)
            return root if held and not word.startswith(STATE_KEY) else ""
        if isinstance(arg, (ast.Subscript, ast.Attribute)):
            return self._part_of(arg.value, depth + 1)
        if isinstance(arg, ast.Call) and isinstance(arg.func, ast.Attribute) and arg.func.attr in PART_READS:
            return self._part_of(arg.func.value, depth + 1)
        return ""

    def _named_small(self, node: ast.Call) -> tuple[str, ...]:
        """CallFacts.named_small of a call: the slots of ``small_args`` whose payload is small by a name
        alone (``self.config``, ``value``): the author's word for one small item, not a structure shown."""
        params = self.frame.params
        return tuple(
            slot
            for slot, (shape, word) in self._slot_payloads(node)
            if shape in NAMED_SHAPES
            and not (shape == "name" and word in params)
            and evidence_of((shape, word)) == "small"
        )

    def _large_arguments(self, node: ast.Call) -> tuple[tuple[str, str, str, str], ...]:
        """CallFacts.large_args of a call. Not a parameter, nor a name still holding what the callers hand
        (``completion = first_reply(completion)``: theirs to size), nor a loop's item (``for message in
        completion``: one item per call, whole only summed over the loop), nor a file's contents (a
        document of the project's, graded where it is read: bounded, not a payload that grows with the
        rollout, FILE_CONTENTS_COSTS)."""
        handed, results = self.frame.params | self.frame.unbound, self.named_results
        large = []
        for slot, (shape, word) in self._slot_payloads(node):
            if shape == "name" and (result := results.get((self.frame.func, word))):
                large.append((slot, "returned", result, word))  # the returns first, then the name
            elif (
                not (shape == "name" and word in handed)
                and shape not in ("each", "read")
                and (
                    shape == "returned"
                    or STATE_KEY in word
                    or evidence_of((shape, word)) == "whole"
                    or sized_by_name(word.rpartition(".")[2])  # a reasoning trace: not as small as a helper's ``text``
                )
            ):
                large.append((slot, shape, word, ""))
        return tuple(large)

    def _slot_payloads(self, node: ast.Call) -> list[tuple[str, tuple[str, str]]]:
        return [(slot, self._payload_of(arg)) for slot, arg in call_slots(node)]

    def _payload_of(self, value: ast.expr, known: Known | None = None) -> tuple[str, str]:
        """The payload of ``value`` (``argfacts.payload_of_value``) with what the function's names hold."""
        read = self.payloads_read if known is None and not self.direct_payload else None
        if read is None:
            return payload_of_value(value, self._known() if known is None else known, self._returned)
        found = read.get(id(value))
        if found is None:
            # the node is kept with its payload: no other expression takes its ``id`` while the memo lives
            found = read[id(value)] = (value, payload_of_value(value, self._known(), self._returned))
        return found[1]

    def _known(self) -> Known:
        """What the function's names hold, and the scalar fields of its class read on ``self``
        (``self.state`` of a class annotating ``state: str``, as ``"self.state"``: no name has a dot)."""
        fields = self.class_fields.get(self.frame.cls or "", ()) if self.frame.kind == "function" else ()
        scalars = {f"self.{name}": (SCALAR_FIELD, name) for name, kind in fields if kind == "scalar"}
        return {**self.frame.payloads, **scalars} if scalars else self.frame.payloads

    def _bind_loop_item(self, target: ast.expr, iterable: ast.expr) -> None:
        # a parameter's annotation says what its items are while no statement here binds it again
        scalars = self.frame.scalar_items & self.frame.params
        item = loop_item(iterable, self.frame.payloads, self._returned, scalars)
        counted = (
            isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name) and iterable.func.id == "enumerate"
        )
        if item[0] == "returned":  # one item of what a project function gives: a generator's is one it yields
            # ``for name, args in tool_calls(c)``: the second element of the item (for a function that
            # returns, what the word without the mark says, as before: the first is left to its name)
            pair = isinstance(target, ast.Tuple) and len(target.elts) == 2 and isinstance(target.elts[1], ast.Name)
            item = ("returned", item_word(item[1], "[1]" if pair and not counted else ""))
        if isinstance(target, ast.Name):
            self._hold(target.id, item, iterable.lineno)
        elif isinstance(target, ast.Tuple) and len(target.elts) == 2 and isinstance(target.elts[1], ast.Name):
            # ``for i, m in enumerate(messages)``: the second name is the item.
            self._hold(target.elts[1].id, item, iterable.lineno)
        elif isinstance(target, ast.Tuple) and len(target.elts) == 2 and isinstance(target.elts[1], ast.Tuple):
            # ``for i, (inputs, outputs) in enumerate(zip(...))``: parts of the item, whatever they are called
            for element in target.elts[1].elts:
                if isinstance(element, ast.Name):
                    self._hold(element.id, item, iterable.lineno)

    @contextmanager
    def _one_item_each(self, source: tuple[str, str]) -> Iterator[None]:
        """While a statement after which every path leaves the loop going over ``source`` is walked
        (it runs once per entry to the loop, see Statements.visit_stmt), the loop's variable holds
        the one item the loop stopped at, not each item in turn: ``for record in records: if
        record.id == rid: data = record.model_dump(); ...; return ...`` dumps one record (main
        automationbench salesforce/base.py:112, labelled low)."""
        each, one = ("each", source[1]), ("item", source[1])
        names = [name for name, held in self.frame.payloads.items() if held == each]
        self.frame.payloads.update(dict.fromkeys(names, one))
        try:
            yield
        finally:
            payloads = self.frame.payloads
            payloads.update((name, each) for name in names if payloads.get(name) == one)

    def _hold(self, name: str, payload: tuple[str, str], line: int) -> None:
        """``name`` holds ``payload`` from the binding at ``line`` on."""
        self.named_results.pop((self.frame.func, name), None)
        self.frame.payloads[name] = payload
        self.frame.bound_at[name] = line

    def _bind_payload(self, target: ast.expr, value: ast.expr, held: tuple[str, str], line: int, before: Known) -> None:
        """What ``target = <a value whose payload is held>`` leaves a name holding: a name the value
        when that says how large it is (else nothing: its own name says); a mapping or list
        given an item keeps what it held if the item is small, and holds a whole one if it is
        whole (``response["history"] = history``); names unpacked from one small item are parts
        of it (``weeks, days = match.groups()``)."""
        if isinstance(target, ast.Name):
            held = built_payload(value, held, self.frame.params)
            if bound_payload(target.id, value, held, self.frame.params):
                self._hold(target.id, held, line)
            elif held[0] == "returned":
                self.named_results[(self.frame.func, target.id)] = held[1]
            else:
                self.named_results.pop((self.frame.func, target.id), None)
        elif isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
            name, evidence = target.value.id, evidence_of(held)
            # filled item by item in a loop, it grows with the loop (as it always was read); one constant
            # key set again in a loop (``while ref(r) in seen: r["id"] = next_id()``: split 26 fhir
            # store.py:572) is still one entry -- unless the value reads the mapping it is stored in
            # (``acc["log"] = acc["log"] + m["content"]``: one entry that accumulates)
            once = not self.frame.loop_depth or (
                isinstance(target.slice, ast.Constant)
                and not any(isinstance(node, ast.Name) and node.id == name for node in walk(value))
            )
            if evidence == "small" and name in before and once:
                self.frame.payloads[name] = before[name]
            elif evidence == "whole":
                self._hold(name, held, line)
        elif isinstance(target, ast.Tuple) and evidence_of(held) == "small":
            for element in target.elts:  # ``weeks, days = match.groups()``: parts of one small item
                if isinstance(element, ast.Name):
                    self._hold(element.id, held, line)

    def _still_passed(self, target: ast.expr, value: ast.expr, held: tuple[str, str]) -> bool:
        """Does a parameter rebound to ``value`` (of payload ``held``) still hold only what a caller
        hands: itself, its aliases or a default (``cells = cells or values or "{}"``, of parameters
        not rebound yet), or a call whose result is as large as it (``text = text.strip()``)? Asked
        before the binding."""
        unbound = self.frame.unbound
        if not isinstance(target, ast.Name) or target.id not in unbound or held != ("name", target.id):
            return False
        if isinstance(value, ast.BoolOp) and isinstance(value.op, ast.Or):
            return all(
                literal(alias) is not None or (isinstance(alias, ast.Name) and alias.id in unbound)
                for alias in value.values
            )
        return isinstance(value, ast.Call)

    def _note_returned(self, value: ast.expr) -> None:
        """Record the payload a ``return`` gives (ModuleSummary.returned): a parameter returned as
        it is or in the same size as ``("param", name)``."""
        shape, word = self._returned_payload(value)
        returned = ("param", word) if shape == "name" and word in self.frame.params else (shape, word)
        if returned not in self.frame.returned:
            self.frame.returned.append(returned)
        starred = isinstance(value, ast.Tuple) and any(isinstance(element, ast.Starred) for element in value.elts)
        if isinstance(value, ast.Tuple) and not starred and self.frame.kind == "function":
            # ``return (copy.deepcopy(self.env.get_state()), copy.deepcopy(self.state))``: each slot for a
            # caller's ``state[1]`` (ModuleSummary.returned_fields, keyed ``[0]``, ``[1]``)
            self.returned_fields.extend(
                (self.frame.func, value.lineno, f"[{index}]", *self._payload_of(element))
                for index, element in enumerate(value.elts)
            )

    def _note_yielded(self, value: ast.expr, line: int) -> None:
        """Record the payload a ``yield`` statement gives, and each element of a tuple it yields
        (ModuleSummary.yielded_fields): a loop over the generator's call holds one such item at a time."""
        if self.frame.kind != "function":
            return
        self.yielded_fields.append((self.frame.func, line, "", *self._payload_of(value)))
        if isinstance(value, ast.Tuple) and not any(isinstance(element, ast.Starred) for element in value.elts):
            self.yielded_fields.extend(
                (self.frame.func, line, f"[{index}]", *self._payload_of(element))
                for index, element in enumerate(value.elts)
            )

    def _returned_payload(self, value: ast.expr) -> tuple[str, str]:
        """The payload a ``return`` gives. A display is judged by everything in it, not read as a
        few small fields as a call's own argument is (``return (copy.deepcopy(self.env_state),
        self.history)``): what a function returns reaches every caller, so it is small only when
        each element is proven small."""
        if isinstance(value, (ast.Dict, ast.List, ast.Tuple, ast.Set)) and literal(value) is None:
            children = [*value.keys, *value.values] if isinstance(value, ast.Dict) else list(value.elts)
            if entries(value) <= FEW:
                return joined(self._payload_of(child) for child in children if child is not None)
        return self._payload_of(value)

    def _returned(self, node: ast.expr) -> str | None:
        """The word of a ``returned`` payload for a call of a function the project may define (a
        plain function, or a method on ``self``), one of :data:`RESPONSE_BODIES` for a read of an HTTP
        response's body (``argfacts.Returned``), :data:`MODEL_REPLY` for a model API's completion call,
        else ``None``; prefixed :data:`BUILT` for a call building an instance of a class no catalogue
        entry names."""
        read = node.value if isinstance(node, ast.Await) else node
        if isinstance(read, ast.Attribute) or isinstance(read, ast.Call) and isinstance(read.func, ast.Attribute):
            owner = read.value if isinstance(read, ast.Attribute) else cast(ast.Attribute, read.func).value
            if self._a_response(owner):
                return self._reply_size(owner)
        if not isinstance(node, ast.Call):
            return None
        if self._a_model_reply(node):
            return MODEL_REPLY  # ``await client.chat.completions.create(...)``: one completion object
        func = self.infer(node.func)
        built = (
            BUILT
            if builds_class(func) and not (isinstance(func, Sym) and self.catalogue.match(func.name, None))
            else ""
        )
        if isinstance(func, Sym) and may_be_project(func.name) and self.catalogue.match(func.name, None) is None:
            callee = func.name
        elif (
            isinstance(func, SelfRef)
            and func.cls != Marker.STATE
            and len(func.path) == 1
            and func.path[0].isidentifier()
        ):
            callee = str(SelfMethod(func.cls, func.path[0]))
        elif (
            isinstance(func, Inst)
            and id(node) == self.direct_payload
            and _instance_method(func.name)
            and self.catalogue.match(func.name, None) is None
        ):
            # ``json.dumps(_DESKS[desk_id].refund_history(order_id))`` on a ``dict[str, RefundDesk]``: what the
            # method returns, settled by the graph from its ``return``s, not what its name says. Only as the
            # call's own payload: inside a display (``{"ticket": ticket.to_display_dict()}``) the display's
            # names still decide, as they did (main automationbench: 17 such displays read whole by a
            # ``self.state`` or ``self.status`` field of the record they return)
            callee = func.name
        else:
            return built or None
        small = [slot for slot, payload in self._slot_payloads(node) if evidence_of(payload) == "small"]
        return built + returned_word(callee, small, self._passed_params(node))

    def _reply_size(self, response: ast.expr) -> str:
        """The word of a read of ``response``'s body: what the request that gave it asked for
        (``replies.reply_size``), :data:`RESPONSE_BODY` when the walk cannot see the request."""
        request = self.frame.requests.get(response.id) if isinstance(response, ast.Name) else response
        if isinstance(request, ast.Await):
            request = request.value
        if not isinstance(request, ast.Call):
            return RESPONSE_BODY
        return reply_size(request, self.frame.displays, self.attr_counts.get(self.frame.cls or "", {}))

    def _a_model_reply(self, call: ast.Call) -> bool:
        """Does ``call`` return one completion object of a model API (:data:`MODEL_REPLIES`), as the walk types it?"""
        value = self.infer(call)
        if isinstance(value, SelfRef) and len(value.path) > 1:  # ``self.judge_client.chat.completions.create()``
            client = self.class_attrs.get(value.cls, {}).get(value.path[0])
            value = Inst(".".join((client.name, *value.path[1:])), "self") if isinstance(client, Inst) else None
        return isinstance(value, Inst) and value.name.replace("()", "") in MODEL_REPLIES

    def _a_response(self, node: ast.expr) -> bool:
        """Does ``node`` hold an HTTP response (:data:`HTTP_RESPONSES`), as far as the walk can type it?"""
        value = self.infer(node)
        if isinstance(value, SelfRef) and len(value.path) == 2:  # ``self.client.get(url)``, the client set here
            client = self.class_attrs.get(value.cls, {}).get(value.path[0])
            value = Inst(f"{client.name}.{value.path[1]}", "self") if isinstance(client, Inst) else None
        return isinstance(value, Inst) and value.name.replace("()", "") in HTTP_RESPONSES


def _cut_to_few(arg: ast.expr) -> bool:
    """Is ``arg`` a slice keeping a constant few items of what it is applied to (``text[:200]``)?"""
    return isinstance(arg, ast.Subscript) and isinstance(arg.slice, ast.Slice) and slice_count(arg.slice) is not None


def _instance_method(name: str) -> bool:
    """``pkg.Desk().refund_history``: a method of an instance of a class the project may define, called on it."""
    owner, _, method = name.rpartition(".")
    return owner.endswith("()") and method.isidentifier() and may_be_project(owner)
