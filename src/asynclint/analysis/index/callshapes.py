"""What a call's own syntax says before any payload is read: the key of the rollout's state it reads
(``state["driver"]``, ``state.get("driver")``), the file or HTTP response it opens, whether it encodes
its argument as JSON or copies it, the text a regex written in it lets through, and the literal
switches it is given (:mod:`asynclint.analysis.index.argfacts` reads payloads with them)."""

from __future__ import annotations

import ast
import math
import re
from collections.abc import Callable, Mapping

from asynclint.analysis.index.helpers import KEY_READS, last_name
from asynclint.knowledge.costs import (
    COMMAND_BOUNDS,
    COPIERS,
    COPY_METHODS,
    DEEP_COPIERS,
    EXPONENTIAL,
    FILE_PRINTERS,
    IMAGE_BUILDERS,
    LAZY_CLOSED,
    LITERAL_OPENED,
    POWER_MARK,
    REGEX_MATCH_LISTS,
    REGEX_MATCHES,
    RESPONSE_OPENERS,
    SHAPED_ARRAYS,
    SMALL_ARRAY,
    SMALL_IMAGE_PIXELS,
    UNBOUNDED_REGEX,
)
from asynclint.knowledge.frameworks import ROLLOUT_STATE_NAMES


def state_key(node: ast.expr) -> str | None:
    """``state["driver"]`` -> ``"driver"``: a key of the rollout's state."""
    if (
        isinstance(node, ast.Subscript)
        and isinstance(node.value, ast.Name)
        and node.value.id in ROLLOUT_STATE_NAMES
        and isinstance(node.slice, ast.Constant)
        and isinstance(node.slice.value, str)
    ):
        return node.slice.value
    return None


def key_read(node: ast.Call) -> str | None:
    """``x.get("k")``, ``x.pop("k", None)``, ``x.setdefault("k", d)`` -> ``"k"``: the key a mapping read names."""
    func = node.func
    if (
        isinstance(func, ast.Attribute)
        and func.attr in KEY_READS
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    ):
        return node.args[0].value
    return None


def constant_key(node: ast.expr) -> str | None:
    """The constant string key of ``x["k"]`` or ``x.get("k"[, default])``: the key a mapping's item is
    read by (a row's field, a called table value ``spec["factory"]()``)."""
    if isinstance(node, ast.Subscript):
        key = node.slice
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" and node.args:
        key = node.args[0]
    else:
        return None
    return key.value if isinstance(key, ast.Constant) and isinstance(key.value, str) else None


def state_get(node: ast.Call) -> str | None:
    """``state.get("driver")``, ``state.pop("driver", None)``, ``state.setdefault("driver", d)`` -> ``"driver"``."""
    func = node.func
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in ROLLOUT_STATE_NAMES:
        return key_read(node)
    return None


def dumped(node: ast.Call) -> bool:
    """``json.dumps(x)`` and the like: an encoding of its first argument."""
    return last_name(node.func) in ("dumps", "dump_json")


def opens_response(node: ast.expr) -> str:
    """``urllib.request.urlopen(req)``: an HTTP response (its ``read()`` is one reply's body) -> the opener, else ""."""
    name = last_name(node.func) if isinstance(node, ast.Call) else ""
    return name if name in RESPONSE_OPENERS else ""


def prints_file(node: ast.Call) -> bool:
    """Does the call run a shell command that prints a whole file (``execute_command(sid, "cat
    /testbed/test_output.txt")``, ``run(["cat", path])``)? Its result holds the file's contents."""
    for arg in (*node.args, *(keyword.value for keyword in node.keywords)):
        if isinstance(arg, (ast.List, ast.Tuple)) and arg.elts:
            first = arg.elts[0]
            if isinstance(first, ast.Constant) and first.value in FILE_PRINTERS:
                return True
        text = arg.value if isinstance(arg, ast.Constant) else None
        if isinstance(arg, ast.JoinedStr):  # ``f"cat {path}"``: its literal parts
            text = "".join(str(part.value) for part in arg.values if isinstance(part, ast.Constant))
        if isinstance(text, str) and text.split(" ", 1)[0] in FILE_PRINTERS and " " in text.strip():
            if not any(bound in text for bound in COMMAND_BOUNDS):
                return True
    return False


def opens_stream(node: ast.expr) -> bool:
    """``open(path)``, ``io.open(...)``, ``path.open()``, ``gzip.open(...)``: a file object, whose
    contents a parser it is handed reads whole (``yaml.safe_load(f)`` is ``yaml.safe_load(f.read())``)."""
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    return (isinstance(func, ast.Name) and func.id == "open") or (
        isinstance(func, ast.Attribute) and func.attr == "open" and not node.keywords and len(node.args) <= 2
    )


def switch_literals(call: ast.Call) -> tuple[str, ...]:
    """The call's arguments given a literal ``False`` or ``0``, each as ``slot=False`` / ``slot=0``
    (slot: the keyword, or the position): what ``BlockingApi.off_with`` matches, a switch that
    turns the blocking work off (``acquire(blocking=False)``, ``event.wait(0)``)."""
    slots = [(keyword.arg, keyword.value) for keyword in call.keywords if keyword.arg]
    slots += [(str(position), value) for position, value in enumerate(call.args)]
    return tuple(
        f"{slot}=False" if value.value is False else f"{slot}=0"
        for slot, value in slots
        if isinstance(value, ast.Constant)
        and (value.value is False or (type(value.value) in (int, float) and value.value == 0))
    )


def given_positions(call: ast.Call) -> tuple[str, ...]:
    """The positions the call's positional arguments fill (``0``, ``1``, ...), up to a ``*args``
    (whose length is not known): what a position in ``BlockingApi.blocks_with`` matches."""
    given = next((position for position, arg in enumerate(call.args) if isinstance(arg, ast.Starred)), len(call.args))
    return tuple(map(str, range(given)))


#: How a constant or an enum member is named (PEP 8): what an argument that selects a mode is written as.
CONSTANT_NAME = re.compile(r"[A-Z][A-Z0-9_]*")
#: The longest string read as a mode's value (``"all_with_nl_assertions"``): longer text is data.
MODE_TEXT = 40


def constant_arguments(call: ast.Call, read: Callable[[ast.expr], str | None]) -> tuple[str, ...]:
    """The call's arguments given a named constant (``EvaluationType.NL_ASSERTIONS``, ``MODE``: an
    upper-case name, the last of a dotted one) or a short string (a ``str`` Enum's value written
    out: ``"nl_assertions"``), each as ``slot=NAME`` or ``slot='text'`` (slot: the keyword, or the
    position): what ``BlockingApi.heavier_with`` matches. ``read``: the dotted name or the string
    an argument stands for where the module shows it (``MODE = EvaluationType.NL_ASSERTIONS`` at
    its top: its dotted name; ``MODE = "nl_assertions"``: the string's ``repr``), else ``None``,
    and its spelling counts."""
    slots = [(keyword.arg, keyword.value) for keyword in call.keywords if keyword.arg]
    slots += [(str(position), value) for position, value in enumerate(call.args)]
    return tuple(f"{slot}={token}" for slot, value in slots if (token := _mode_token(value, read)) is not None)


def _mode_token(value: ast.expr, read: Callable[[ast.expr], str | None]) -> str | None:
    if isinstance(value, ast.Constant):
        text = value.value if isinstance(value.value, str) and len(value.value) <= MODE_TEXT else None
        return repr(text) if text is not None else None
    if not isinstance(value, ast.Name | ast.Attribute):
        return None
    meant = read(value)
    if meant is not None and meant.startswith("'"):  # a name bound to a string
        return meant if len(meant) <= MODE_TEXT + 2 else None
    name = (meant or (value.attr if isinstance(value, ast.Attribute) else value.id)).rpartition(".")[2]
    return name if CONSTANT_NAME.fullmatch(name) else None


def regex_scan(node: ast.Call) -> tuple[bool, ast.expr] | None:
    """``re.search(r"(.*)", text)``, a search of :data:`REGEX_MATCHES` or :data:`REGEX_MATCH_LISTS` with a
    pattern written in the call -> (does the pattern let text of any length and form through
    (:data:`UNBOUNDED_REGEX`), the text searched), else ``None``."""
    func, args = node.func, node.args
    if (
        isinstance(func, ast.Attribute)
        and isinstance(func.value, ast.Name)
        and func.value.id == "re"
        and func.attr in REGEX_MATCHES | REGEX_MATCH_LISTS
        and len(args) >= 2
        and isinstance(args[0], ast.Constant)
        and isinstance(args[0].value, str)
    ):
        return UNBOUNDED_REGEX.search(args[0].value) is not None, args[1]
    return None


def delimited_blocks(node: ast.Call) -> bool:
    """Every piece of the pattern written in a :func:`regex_scan` call that lets any text through is
    lazy and closed by a literal, and a literal opens the first (``<tool>(.*?)</tool>``,
    :data:`~asynclint.knowledge.costs.LAZY_CLOSED`): each match is one block between two delimiters."""
    pattern = node.args[0].value if node.args and isinstance(node.args[0], ast.Constant) else None
    if not isinstance(pattern, str):
        return False
    pieces = list(UNBOUNDED_REGEX.finditer(pattern))
    return (
        bool(pieces)
        and LITERAL_OPENED.search(pattern[: pieces[0].start()]) is not None
        and all(LAZY_CLOSED.match(pattern, piece.start()) for piece in pieces)
    )


def reference(node: ast.expr) -> str | None:
    """The dotted name a ``"module:attr"`` string refers to (``"pkg.search:lookup"`` ->
    ``pkg.search.lookup``), as ``import_config_ref`` reads it; ``None`` for anything else."""
    if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
        return None
    module, colon, attribute = node.value.partition(":")
    parts = [*module.split("."), *attribute.split(".")]
    return f"{module}.{attribute}" if colon and all(part.isidentifier() for part in parts) else None


def slot_argument(call: ast.Call, keyword: str, position: int) -> ast.expr | None:
    """The argument ``call`` passes a parameter by ``keyword`` or at ``position``, if it is written
    (none when a ``*args`` before it leaves the position open)."""
    passed = next((k.value for k in call.keywords if k.arg == keyword), None)
    if passed is not None or len(call.args) <= position:
        return passed
    return None if any(isinstance(a, ast.Starred) for a in call.args[: position + 1]) else call.args[position]


def copy_kind(call: ast.Call, target: str | None) -> bool | None:
    """Whether ``call`` (of ``target``, resolved) copies a container it is handed: ``True`` deeply,
    ``False`` shallowly, ``None``: no copy. ``dict(x)``, ``list(x)``, ``set(x)``, ``copy.copy(x)``,
    ``x.copy()`` (a project ``copy()`` answers for itself in the graph); ``copy.deepcopy(x)``."""
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr in COPY_METHODS and not call.args and not call.keywords:
        return False
    if len(call.args) != 1 or call.keywords or isinstance(call.args[0], (ast.Constant, ast.Starred)):
        return None
    if target in DEEP_COPIERS:
        return True
    return False if target in COPIERS else None


def small_image(node: ast.Call) -> bool:
    """``Image.new("RGB", (100, 100), color)``: an image built at a size the source writes out, of at
    most :data:`~asynclint.knowledge.costs.SMALL_IMAGE_PIXELS` pixels (``IMAGE_BUILDERS``)."""
    func = node.func
    written = f"{last_name(func.value)}.{func.attr}" if isinstance(func, ast.Attribute) else ""
    position = IMAGE_BUILDERS.get(written)
    if position is None or len(node.args) <= position or not isinstance(size := node.args[position], ast.Tuple):
        return False
    sides = [side.value for side in size.elts if isinstance(side, ast.Constant) and type(side.value) is int]
    return len(sides) == len(size.elts) == 2 and 0 < sides[0] * sides[1] <= SMALL_IMAGE_PIXELS


def power_of_two(node: ast.expr) -> bool:
    """``1 << n`` or ``2 ** n`` of a value the source does not write out."""
    return (
        isinstance(node, ast.BinOp)
        and isinstance(node.left, ast.Constant)
        and not isinstance(node.right, ast.Constant)
        and (type(node.op), node.left.value) in {(ast.LShift, 1), (ast.Pow, 2)}
    )


def power_count(node: ast.expr) -> tuple[str, str] | None:
    """The payload of ``1 << n``: a number (``literal``), marked as a power of two (:data:`POWER_MARK`)."""
    return ("literal", f"{POWER_MARK}{ast.unparse(node)}") if power_of_two(node) else None


def array_payload(node: ast.Call, known: Mapping[str, tuple[str, str]]) -> tuple[str, str] | None:
    """The payload of ``numpy.zeros((dim, dim))`` (``SHAPED_ARRAYS``): :data:`EXPONENTIAL` with a side that
    is a power of two of an input, written there or bound to a name ``known`` holds (:data:`POWER_MARK`);
    a literal at a size the source writes out of at most :data:`SMALL_ARRAY` entries (``numpy.eye(3)``)."""
    if last_name(node.func) not in SHAPED_ARRAYS or not node.args:
        return None
    shape = node.args[0]
    sides = shape.elts if isinstance(shape, (ast.Tuple, ast.List)) else [shape]
    for side in sides:
        if power_of_two(side):
            return (EXPONENTIAL, ast.unparse(side))
        bound = known.get(side.id, ("", "")) if isinstance(side, ast.Name) else ("", "")
        if bound[1].startswith(POWER_MARK):
            return (EXPONENTIAL, bound[1].removeprefix(POWER_MARK))
    written = [side.value for side in sides if isinstance(side, ast.Constant) and type(side.value) is int]
    if not written or len(written) != len(sides):
        return None
    square = last_name(node.func) in ("eye", "identity")  # ``eye(3)``: 3 x 3
    return ("literal", "") if math.prod(written) * (written[0] if square else 1) <= SMALL_ARRAY else None
