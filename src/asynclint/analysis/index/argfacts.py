"""What a call's arguments and the code around it say, read from the syntax alone: the payload a
serializer or copier is handed (its shape and the name that says what it is), keys of the
rollout's state (literals and loops over a fixed few constants are :mod:`.literals`; annotations are
:mod:`.annotations`, the tests around a statement :mod:`.guards`).
:mod:`asynclint.analysis.index.recording` records these per call site; the cost model
(:mod:`asynclint.knowledge.costs`) and the graph read them."""

from __future__ import annotations

import ast
from collections.abc import Callable, Collection, Iterable

from asynclint.analysis.index.built_models import BUILT, built, fields_of
from asynclint.analysis.index.callshapes import (
    array_payload,
    delimited_blocks,
    opens_response,
    opens_stream,
    power_count,
    prints_file,
    regex_scan,
    small_image,
)
from asynclint.analysis.index.flags import constant_text
from asynclint.analysis.index.helpers import (
    COMPREHENSIONS,
    first_item,
    last_name,
    slice_count,
    suffix_past,
)
from asynclint.analysis.index.literals import entries, fixed_iterable, literal
from asynclint.analysis.index.narrowed import text_branch
from asynclint.analysis.index.payload_reads import (
    Known,
    attribute_path,
    display_word,
    evidence_of,
    field_read,
    formats_text,
    handed_field,
    held_params,
    is_handed,
    joined,
    names_a_place,
    names_source,
    read_cap,
    reads_body,
    small_field_of_each,
    string_value,
)
from asynclint.knowledge.costs import (
    ARGUMENT_SIZED,
    COMMAND_OUTPUTS,
    CONTENT_READS,
    CUT,
    FEW,
    FILE_PIECES,
    GROWN,
    INFO_COLUMN,
    MATCH_LISTS,
    MEMORY_FILES,
    MODEL_DUMPS,
    MODEL_REPLY,
    PARSER_ARGUMENT_SIZED,
    PARSER_RECEIVER,
    READ_LIMITS,
    RECEIVER_SIZED,
    RESPONSE_BODIES,
    RESPONSE_BODY,
    RESPONSE_OPENERS,
    RETURNED_SLOTS,
    SMALL_IMAGE,
    SOURCE_FILE,
    STATE_KEY,
    STREAM_PIECE_ATTRIBUTES,
    STREAM_PIECE_METHODS,
    SUFFIX,
    cut_word,
    few_items,
    payload_evidence,
    prior,
    sized_by_name,
)
from asynclint.knowledge.frameworks import ROLLOUT_STATE_NAMES

#: Calls whose result is their argument in another shape (or numbered): look through them for the payload.
_PASS_THROUGH = frozenset({"str", "list", "dict", "tuple", "repr", "bytes", "enumerate"})
#: Mapping reads by a string key: ``state.get("answer", "{}")`` says what it is like ``state["answer"]``.
_KEY_READS = frozenset({"get", "pop", "setdefault"})
#: Methods of a regex match: a piece cut out of one text (``re.search(r"\{.*\}", reply).group()``).
_MATCH_PARTS = frozenset({"group", "groups", "groupdict"})

_NOTHING: Known = {}
#: The indexer's answer, from the types it infers, to "is this call one of a project function, and what is
#: it handed?" (the ``word`` of a ``returned`` payload, :func:`returned_word`) and "is this read (a call,
#: an attribute, awaited or not) of an HTTP response's body?" (:data:`RESPONSE_BODY`), "is it a model API's completion
#: call?" (:data:`~asynclint.knowledge.costs.MODEL_REPLY`), "does it build an instance
#: of a class?" (:data:`~asynclint.analysis.index.built_models.BUILT`), or ``None``.
Returned = Callable[[ast.expr], "str | None"]


def returned_word(callee: str, small_slots: Iterable[str], handed: Iterable[tuple[str, str]] = ()) -> str:
    """The ``word`` of a ``returned`` payload: the callee as the graph resolves it, the slots
    (positions, keywords) of the arguments proven small at the call, and the slots the calling
    function hands its own parameters in (``slot=param``), which the graph sizes by what its callers
    hand: a callee returning (a part of) its parameter passes either on."""
    passed = ",".join(f"{slot}={param}" for slot, param in handed)
    return f"{callee}{RETURNED_SLOTS}{','.join(small_slots)}" + (f"{RETURNED_SLOTS}{passed}" if passed else "")


def payload_of(
    node: ast.Call, receiver: ast.expr | None, known: Known | None = None, returned: Returned | None = None
) -> tuple[str, str]:
    """(shape, word) of what a serializer, parser or copier is handed: the receiver when the
    call is a method of data (``trajectory.model_dump()``), else the first argument.

    Shapes: ``literal`` (a constant, a display of constants, or no argument), ``display`` (a display of
    names: ``word`` lists them), ``item`` (``messages[-1]``: one element of ``word``), ``read``
    (a file's or stream's contents), ``match`` (a regex match cut out of a text), ``memory`` (an
    in-memory file, ``io.BytesIO(...)``: size unknown, but no I/O to read it), ``name`` / ``attr`` /
    ``key`` / ``call`` (``word`` is the name, attribute, string key or called function that says what it is),
    ``each`` (a loop variable: every item of ``word`` in turn, as much as the whole over the loop),
    ``cut`` (a slice keeping a constant count of ``word``'s items or characters, :data:`CUT`),
    ``returned`` (what a project function returns, ``word`` from :func:`returned_word`: the graph
    settles it from the function's ``return`` statements), ``""`` unknown. A name in ``known``
    (bound earlier in the function) stands for what it was bound to; ``returned`` says which calls
    are of project functions. :func:`asynclint.knowledge.costs.payload_evidence` reads them."""
    if returned is not None and last_name(node.func) == "json" and (body := returned(node)) in RESPONSE_BODIES:
        return ("call", body)  # ``response.json()`` parses the body the request read: as large as sent
    if isinstance(receiver, ast.Call) and last_name(node.func) in MODEL_DUMPS and built(receiver, returned):
        receiver = fields_of(receiver)  # ``Item(id=call_id, output=text).model_dump()``: as large as it is handed
    arg = payload_argument(node, receiver)
    return _payload(arg, 0, known or _NOTHING, returned) if arg is not None else ("literal", "")


def payload_argument(node: ast.Call, receiver: ast.expr | None) -> ast.expr | None:
    """What :func:`payload_of` reads: the receiver of a method of data, else the first argument."""
    return (
        receiver
        if receiver is not None
        else node.args[0]
        if node.args
        else (node.keywords[0].value if node.keywords and node.keywords[0].arg else None)
    )


def payload_of_value(value: ast.expr, known: Known | None = None, returned: Returned | None = None) -> tuple[str, str]:
    """The payload of an expression bound to a name, for when the name is passed later."""
    return _payload(value, 0, known or _NOTHING, returned)


def bound_payload(name: str, value: ast.expr, payload: tuple[str, str], params: Collection[str]) -> bool:
    """Is ``payload`` (of ``value``) worth keeping for ``name`` bound to it? When it decides the
    size (proven small, or whole), or when it is a parameter passed on (whose callers' values
    decide it). Otherwise the name is read as it always was: by what it is called -- also when
    the name says whole and the value is an item picked by a run-time key (``state =
    self.states[rollout_id]``: one item of something, but the author says it is a whole state).
    A name that says whole does not outweigh what the value was computed from, though, when
    that is known: provenance first, names second."""
    shape, word = payload
    if (
        isinstance(value, ast.Subscript)
        and constant_text(value.slice) is None
        and shape == "item"
        and payload_evidence("name", name) == "whole"
    ):
        return False
    if shape == "key" and word.partition(".")[0] == INFO_COLUMN:
        return True  # a row's info, or a field of it: the project's rows size it
    if shape == "key" and word.startswith(STATE_KEY):
        return True  # a key of the rollout's state: what the project stores there sizes it
    if handed_field(payload, params):
        return True  # a field of a handed mapping, whatever the local it is bound to is called
    if shape == "call" and (word in MATCH_LISTS or word in RESPONSE_BODIES):
        return True  # ``re.findall(pattern, reply)``'s items are pieces the pattern formed; a response's body
    if isinstance(value, ast.Call) and regex_scan(value) is not None:
        return True  # ``m = re.search(r"(.*)", text)``: what its pattern lets through, as its text says
    if shape == "returned":
        # What a project function returns is settled by the graph, but a name that says what it holds
        # (``state = self.load()``) keeps saying it, as it did before returns were traced.
        return payload_evidence("name", name) == "unknown"
    if (
        evidence_of(payload) != "unknown"
        or shape in ("memory", GROWN, CUT, SUFFIX)
        or (shape in ("name", "each") and word in params)
    ):
        return True
    # A parse, dump or copy of something the function shows (``results = json.loads(out.stdout)``) is
    # as large as that something: of unknown size, it is not a whole payload because of the name it
    # is given (the name may still say it is one small item). So is one of two values it shows
    # (``state = fields if known else item``: verifiers 0.3.1 ``message_hash`` names one provider item
    # ``state``; split 12 carla bridge.py:201 read it as the rollout's state).
    traced = (isinstance(value, ast.Call) and payload != ("call", last_name(value.func))) or isinstance(
        value, (ast.IfExp, ast.BoolOp)
    )
    return traced and shape != "" and payload_evidence("name", name) == "whole"


def built_payload(value: ast.expr, payload: tuple[str, str], params: Iterable[str]) -> tuple[str, str]:
    """What a name bound to ``value`` (of ``payload``) holds: a comprehension over things of unknown
    size (``messages = [m.to_dict() for m in world.gmail.messages]``) is a collection built item by
    item, as an accumulator filled in a loop (:data:`asynclint.knowledge.costs.GROWN`), whatever the
    name it is given says. Over a parameter, it is what the callers hand (``[f.strip() for f in
    fields.split(",")]`` of a tool's argument), as the parameter is."""
    shape, word = payload
    if shape == "name" and word in params:
        return payload
    if isinstance(value, COMPREHENSIONS) and shape in _NAMED and word and evidence_of(payload) == "unknown":
        return (GROWN, word)
    return payload


_NAMED = frozenset({"name", "attr", "key", "call", "item"})


def loop_source(iterable: ast.expr, known: Known | None = None, returned: Returned | None = None) -> tuple[str, str]:
    """The payload of what a loop over ``iterable`` goes over, all of it: a literal for a fixed
    few constants (``enumerate(x)``, ``sorted(x)``... go over ``x``)."""
    if fixed_iterable(iterable):
        return ("literal", "")
    return _payload(_unwrapped(iterable), 0, known or _NOTHING, returned)


def _unwrapped(iterable: ast.expr) -> ast.expr:
    """What a loop over ``iterable`` goes over: ``x`` of ``enumerate(x)``, ``sorted(x)``, ``x or ()``..."""
    if (
        isinstance(iterable, ast.BoolOp)
        and isinstance(iterable.op, ast.Or)
        and all(literal(value) is not None for value in iterable.values[1:])
    ):
        return _unwrapped(iterable.values[0])  # an empty default for a missing collection
    if (
        isinstance(iterable, ast.Call)
        and isinstance(iterable.func, ast.Name)
        and iterable.func.id in ("enumerate", "reversed", "sorted", "list")
        and iterable.args
    ):
        return iterable.args[0]
    return iterable


def loop_item(
    iterable: ast.expr,
    known: Known | None = None,
    returned: Returned | None = None,
    scalars: frozenset[str] = frozenset(),
) -> tuple[str, str]:
    """The payload of a loop variable over ``iterable``: a literal for a fixed few constants, one
    small ``item`` of a parameter in ``scalars`` (annotated as a collection of scalars: ``for system
    in systems`` with ``systems: list[str]``), else ``each`` item of what it goes over."""
    over = _unwrapped(iterable)
    if isinstance(over, ast.Name) and over.id in scalars:
        return ("item", over.id)
    if (piece := _stream_piece(over)) is not None:
        return ("item", piece)
    shape, word = loop_source(iterable, known, returned)
    if shape in ("literal", "", "returned") or evidence_of((shape, word)) == "small":
        return (shape, word)  # an item of one small thing is smaller still
    if shape == "read" and not word:
        return ("each", FILE_PIECES)  # ``for line in path.read_text().splitlines()``: the file, over the loop
    return ("each", word)


def _stream_piece(over: ast.expr) -> str | None:
    """The stream a loop over ``over`` reads one piece of a reply from (``response.aiter_lines()``,
    ``reply.chunks``; :data:`asynclint.knowledge.costs.STREAM_PIECE_METHODS`), or ``None``."""
    if isinstance(over, ast.Call) and isinstance(over.func, ast.Attribute) and over.func.attr in STREAM_PIECE_METHODS:
        return f"{attribute_path(over.func)}()"
    if isinstance(over, ast.Attribute) and over.attr in STREAM_PIECE_ATTRIBUTES:
        return attribute_path(over)
    return None


def _payload(arg: ast.expr, depth: int, known: Known, returned: Returned | None = None) -> tuple[str, str]:
    if depth > 8:
        return ("", "")
    if isinstance(arg, ast.Constant) or literal(arg) is not None and not formats_text(arg):
        return ("literal", "")
    if returned is not None and reads_body(arg) and (body := returned(arg)) in RESPONSE_BODIES:
        return ("call", body)  # ``await response.text()``: as large as the server sent (or its request asks)
    if isinstance(arg, ast.JoinedStr):  # ``f"({weeks}, {days})"``: as large as what it formats
        parts = [
            _payload(part.value, depth + 1, known, returned)
            for part in arg.values
            if isinstance(part, ast.FormattedValue)
        ]
        if names_a_place(arg) and all(evidence_of(part) != "whole" for part in parts):
            return ("literal", "")  # ``f"{run_dir}/inputs/target.fasta"``: a path or URL put together from its parts
        return joined(parts)
    if (power := power_count(arg)) is not None:  # ``dim = 1 << n_qubits``: a number, an array's side
        return power
    if isinstance(arg, ast.BinOp) and isinstance(arg.op, (ast.Add, ast.Mod)):  # ``head + text``, ``"%s" % text``
        return joined((_payload(arg.left, depth + 1, known, returned), _payload(arg.right, depth + 1, known, returned)))
    if (
        isinstance(arg, ast.BinOp)
        and isinstance(arg.op, ast.Mult)
        and any(
            isinstance(side, ast.Constant) and isinstance(side.value, (str, bytes)) for side in (arg.left, arg.right)
        )
    ):
        return ("literal", "")  # ``"-" * width``: a constant the source wrote, repeated
    if isinstance(arg, (ast.Dict, ast.List, ast.Tuple, ast.Set)):
        children = [*arg.keys, *arg.values] if isinstance(arg, ast.Dict) else list(arg.elts)
        held = [_payload(child, depth + 1, known, returned) for child in children if child is not None]
        words = " ".join(word for word in map(display_word, held) if word)
        grown = next((payload for payload in held if payload[0] == GROWN), None)
        if grown is not None and payload_evidence("display", words) != "whole":
            return grown  # ``{"ok": True, "results": results}``: as large as the collection it holds
        return ("display", words) if entries(arg) <= FEW else ("", "")
    if isinstance(arg, ast.Name):
        return known.get(arg.id, ("name", arg.id))
    if isinstance(arg, ast.Attribute):
        owner = arg.value
        if isinstance(owner, ast.Name) and f"{owner.id}.{arg.attr}" in known:  # ``self.state``, ``state: str``
            return known[f"{owner.id}.{arg.attr}"]  # a scalar field of its class (PayloadsHeld._known)
        if isinstance(owner, ast.Name) and evidence_of(known.get(owner.id, ("", ""))) == "small":
            if not sized_by_name(arg.attr):
                return known[owner.id]  # a field of one small item
        if arg.attr in COMMAND_OUTPUTS and (printed := _payload(arg.value, depth + 1, known, returned))[0] == "read":
            return printed  # ``results.stdout`` of ``cat path``: the file's contents
        return ("attr", attribute_path(arg))
    if isinstance(arg, ast.BoolOp):  # ``tool_call.arguments or "{}"``
        return joined(_payload(value, depth + 1, known, returned) for value in arg.values)
    if isinstance(arg, ast.IfExp):
        narrowed = text_branch(arg)  # ``completion[-1]["content"] if isinstance(completion, list) else completion``
        return joined(
            ("item", branch.id)
            if branch is narrowed and few_items(branch.id)
            else _payload(branch, depth + 1, known, returned)
            for branch in (arg.body, arg.orelse)
        )
    if isinstance(arg, ast.Subscript):
        key = arg.slice
        container = _payload(arg.value, depth + 1, known, returned)
        if (
            isinstance(key, ast.Slice)
            and prior(suffix_past(key) or "")
            and (evidence_of(container) != "small" or is_handed(container, known))
        ):
            return (SUFFIX, container[1])  # ``text[len(seen):]``: what a turn added to a value that grows
        if evidence_of(container) == "small" and not sized_by_name(string_value(key)):
            return container  # a part of one small item
        if isinstance(key, ast.Slice):
            count = slice_count(key)
            if count is None:
                return container  # ``messages[1:]``, ``text[:limit]``: part of the same kind
            text = container[0] == "read" or container[1] in RESPONSE_BODIES  # a file's contents, a reply's body
            cut = container[1] or ("contents" if text else "")
            return (CUT, cut_word(cut, count, text))  # ``read_text()[:8000]``: at most that many
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            return field_read(container, key.value, arg.value, known)
        if handed_field(container, held_params(known)):
            return container  # ``channels[name]`` of a field of a handed mapping: a part of that field
        if container[0] == "call" and container[1] in MATCH_LISTS:
            return ("match", "")  # ``re.findall(r"(\d+)", reply)[-1]``: one piece the pattern cut out
        return ("item", container[1])  # ``messages[-1]``, ``self.gold[example_id]``: one of them
    if isinstance(arg, (ast.Starred, ast.Await)):  # ``await self.collect()``: what the coroutine returns
        return _payload(arg.value, depth + 1, known, returned)
    if isinstance(arg, COMPREHENSIONS):
        source = _payload(arg.generators[0].iter, depth + 1, known, returned)
        if small_field_of_each(arg) and few_items(source[1]):
            return ("item", source[1])  # ``[t.exit_status for t in turns]``: a short field of each of a few turns
        return source  # as large as what it goes over
    if isinstance(arg, ast.Call):
        return _call_payload(arg, depth, known, returned)
    return ("", "")


def _call_payload(arg: ast.Call, depth: int, known: Known, returned: Returned | None) -> tuple[str, str]:
    func = arg.func
    name = last_name(func)
    if prints_file(arg):
        return ("read", "")  # a shell command printing a file: its result holds the contents
    if name in MEMORY_FILES:
        return ("memory", "")  # ``io.BytesIO(data)``: a file whose contents are already in memory
    if small_image(arg):
        return SMALL_IMAGE  # ``Image.new("RGB", (100, 100), c)``: a small image at a size the source wrote
    if (array := array_payload(arg, known)) is not None:
        return array  # ``numpy.zeros((dim, dim))`` with ``dim = 1 << n``
    if (scan := regex_scan(arg)) is not None and (scan[0] or name not in MATCH_LISTS):
        # ``re.search(r"(\d+)", text)`` is one number; ``re.search(r"(.*)", text)`` as large as the text when
        # its size is known (one reply: small, not formed), else a match as the code cut it (bench/accuracy
        # README ``bodies15``: a text of unknown size is a reply more often than not, and validated after)
        text = _payload(scan[1], depth + 1, known, returned) if scan[0] else ("match", "")
        if evidence_of(text) == "whole" and few_items(text[1]) and delimited_blocks(arg):
            return ("item", text[1])  # ``<tool>(.*?)</tool>`` of a join of the messages: inside one of them
        return ("match", "") if evidence_of(text) == "unknown" else text
    if arg.args and isinstance(func, ast.Name) and func.id in _PASS_THROUGH:
        return _payload(arg.args[0], depth + 1, known, returned)
    if (picked := first_item(arg)) is not None:
        # ``next(w for w in state["workflow_states"] if ...)``: one item of what it goes over
        over = _payload(picked, depth + 1, known, returned)
        return ("item", over[1]) if over[0] != "literal" else over
    if len(arg.args) > ARGUMENT_SIZED.get(name, len(arg.args)):
        sized = arg.args[ARGUMENT_SIZED[name]]
        return _payload(sized, depth + 1, known, returned)  # ``json.loads(reply)``: a reply's worth
    if isinstance(func, ast.Name) and func.id == "getattr" and len(arg.args) >= 2:
        attribute = arg.args[1]
        if isinstance(attribute, ast.Constant) and isinstance(attribute.value, str):
            read = ast.Attribute(arg.args[0], attribute.value, ast.Load())  # ``getattr(m, "content", "")``
            return joined(_payload(part, depth + 1, known, returned) for part in (read, *arg.args[2:3]))
    if opens_stream(arg):
        return ("read", "")  # ``yaml.safe_load(open(path))``: a parser handed a stream reads it whole
    if isinstance(func, ast.Attribute):
        if func.attr in CONTENT_READS:
            held = known.get(func.value.id, ("", "")) if isinstance(func.value, ast.Name) else ("", "")
            if opens_response(func.value) or held[0] == "call" and held[1] in RESPONSE_OPENERS:
                return ("call", RESPONSE_BODY)  # ``urlopen(req).read()``, ``with urlopen(req) as resp: resp.read()``
            if (cap := read_cap(arg)) is not None:  # ``f.read(4096)``, ``runtime.read(p, max_bytes=128_000)``
                return (CUT, cut_word("contents", cap, text=True))
            if any(keyword.arg in READ_LIMITS for keyword in arg.keywords):
                return ("call", func.attr)  # ``read(p, max_bytes=self.config.limit)``: bounded by a setting
            return ("read", SOURCE_FILE if names_source(func.value) else "")
        if func.attr in RECEIVER_SIZED:
            return _payload(func.value, depth + 1, known, returned)
        if func.attr == "join" and arg.args:  # ``"\n".join(lines)``: as large as the lines
            return _payload(arg.args[0], depth + 1, known, returned)
        if (
            func.attr in PARSER_ARGUMENT_SIZED
            and arg.args
            and (last_name(func.value).lower().endswith(PARSER_RECEIVER))
        ):
            return _payload(arg.args[0], depth + 1, known, returned)  # ``self.parser.parse(text)``: cut out of the text
        if func.attr in _KEY_READS and arg.args:
            receiver = _payload(func.value, depth + 1, known, returned)
            if evidence_of(receiver) == "small" and not sized_by_name(string_value(arg.args[0])):
                return receiver  # a value of one small mapping
            key = arg.args[0]
            if isinstance(key, ast.Constant) and isinstance(key.value, str):
                return field_read(receiver, key.value, func.value, known)
            if handed_field(receiver, held_params(known)):
                return receiver  # ``all_messages.get(channel, [])``: a part of that field, by a run-time key
            if receiver[0] == "name" and receiver[1] not in ROLLOUT_STATE_NAMES:
                # ``run_history.get(kind)``: one value picked by a run-time key, as ``run_history[kind]``
                # is (above), not as large as the name the caller binds it to
                return ("item", receiver[1])
        if func.attr in _MATCH_PARTS:  # a piece of a match: as large as the text when its pattern lets any through
            match = func.value
            scanned = isinstance(match, ast.Call) and regex_scan(match) is not None
            bound = isinstance(match, ast.Name) and known.get(match.id, ("name", match.id)) != ("name", match.id)
            return _payload(match, depth + 1, known, returned) if scanned or bound else ("match", "")
    word = returned(arg) if returned is not None else None
    if word == MODEL_REPLY:
        return ("call", word)  # ``await client.chat.completions.create(...)``: one completion object
    word = word.removeprefix(BUILT) or None if word is not None else None
    if word is not None:
        return ("returned", word)  # ``self._last_json(text)``: what that function returns
    if isinstance(func, ast.Attribute):
        return ("call", func.attr)
    if isinstance(func, ast.Name):
        return ("call", func.id)
    return ("", "")


def argument_facts(node: ast.Call, receiver: ast.expr | None, known: Known, returned: Returned | None = None) -> dict:
    return {
        "literals": tuple(literal(a) for a in node.args[:4]),
        "kwargs": tuple(
            (k.arg, repr(k.value.value)) for k in node.keywords if k.arg and isinstance(k.value, ast.Constant)
        ),
        "payload": payload_of(node, receiver, known, returned),
    }
