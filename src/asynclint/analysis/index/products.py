"""The project's own cartesian products, read from one module's syntax: the functions that build or
return the product of the pools they are handed (a cross join), and what a loop over one goes
through, for the loop nests (:mod:`.nests`).

A loop over the product of ``k`` pools runs the product of their sizes: ``objects ** arity`` when
every pool holds the objects of a type, exponential in the number of pools. ``itertools.product``
says so in its name (:data:`asynclint.knowledge.costs.COMBINATORIAL`); a project function says so by
its shape (:func:`product_builders`), wherever it is defined in the module (SERE's ``cartesian``,
local to the method that grounds every action):

- it returns ``itertools.product(*pools)`` (also in ``list(...)``) of a parameter ``pools``;
- it crosses an accumulator with each pool in turn and returns it: ``res = [[]]``, then ``for lst in
  pools: res = [r + [x] for r in res for x in lst]`` -- that loop is a nest of its own (the
  accumulator grows by a factor of each pool's size), reported in the builder.

A loop over what such a call returns (``combos = cartesian(pools)``, ``for args in combos``) goes
over every tuple of the product when the pools are sized by the data: the pools a local list is
filled with (``pools.append(by_type.get(typ) or [s for s in world.objects if ...])``), or a
parameter's. Pools filled per item of a loop around the product (one pool per parameter of each
action) make the product that loop's, once per item: the nest is reported at that loop's header.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from typing import Protocol

from asynclint.analysis.index.helpers import COMPREHENSIONS, SCOPES, short_source
from asynclint.analysis.index.walks import stack_nodes, walk
from asynclint.knowledge.costs import COMBINATORIAL_COUNTS

_Function = ast.FunctionDef | ast.AsyncFunctionDef
#: The words a loop over a product of pools is described with, and those of its builder's own loop.
EVERY_TUPLE = "every tuple of the product of the pools in"
CROSSED = "every tuple of the product, one factor per pool of"


#: A line with two ``for`` (a comprehension over two sequences, the cross join's shape).
_TWO_FORS = re.compile(r" for [^\n]+ in [^\n]+ for [^\n]+ in ")


@dataclass(frozen=True)
class Product:
    """A loop over a product of pools: what it goes over, in words; the parameters sizing it; and the
    loop around it, in the function, whose every item fills the pools anew (``None``: none)."""

    why: str
    origin: tuple[tuple[str, ...], ...] = ()
    anchor: ast.AST | None = None


def product_builders(tree: ast.Module, source: str) -> dict[str, int]:
    """Function name -> the position of the parameter holding the pools, for the functions of the
    module (at any depth) that return the cartesian product of those pools (see the module's
    docstring). A name defined twice is one only if every definition is one. The text says first
    whether a module may hold one (a product's call, two ``for ... in`` on a line): most do not,
    and are not walked again."""
    if "product(*" not in source and "[1:])" not in source and not _TWO_FORS.search(source):
        return {}
    products = {dotted for dotted, kind in COMBINATORIAL_COUNTS.items() if kind == "product"}
    written, functions, shaped = set(products), [], False
    for node in walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            functions.append(node)
        elif isinstance(node, (ast.ListComp, ast.GeneratorExp)) and len(node.generators) > 1:
            shaped = True
        elif isinstance(node, ast.Slice) and isinstance(node.lower, ast.Constant) and node.lower.value == 1:
            shaped = True
        elif isinstance(node, ast.Return) and _returned_product(node.value, written) is not None:
            shaped = True
        elif isinstance(node, ast.Import):
            written |= {
                f"{a.asname or a.name}.{d.partition('.')[2]}"
                for a in node.names
                for d in products
                if a.name == "itertools"
            }
        elif isinstance(node, ast.ImportFrom) and node.module == "itertools":
            written |= {a.asname or a.name for a in node.names if f"itertools.{a.name}" in products}
    found: dict[str, int | None] = {}
    for function in functions if shaped else ():
        position = _pools_parameter(function, frozenset(written))
        found[function.name] = position if found.get(function.name, position) == position else None
    return {name: position for name, position in found.items() if position is not None}


def crossing_loop(function: _Function) -> ast.For | ast.comprehension | None:
    """The loop of a builder that crosses its accumulator with each pool in turn (``for lst in
    lists: res = [r + [x] for r in res for x in lst]``), when the function returns the accumulator;
    or that goes over the first pool while the function calls itself on the rest (``for x in
    pools[0]: for rest in cart(pools[1:]): yield (x, *rest)``, also as one comprehension)."""
    own = _own(function.body)
    returned = {n.value.id for n in own if isinstance(n, ast.Return) and isinstance(n.value, ast.Name)}
    params = {a.arg for a in (*function.args.posonlyargs, *function.args.args)}
    iterated = [node.iter for node in own if isinstance(node, (ast.For, ast.comprehension))]
    rest = {pools for node in iterated if (pools := _on_rest(node, function.name)) in params}
    for node in own:
        if not isinstance(node, (ast.For, ast.comprehension)):
            continue
        if _first_of(node.iter) in rest:
            return node
        if (
            isinstance(node, ast.For)
            and isinstance(node.iter, ast.Name)
            and node.iter.id in params
            and isinstance(node.target, ast.Name)
            and any(_crosses(stmt, node.target.id) in returned for stmt in _own(node.body))
        ):
            return node
    return None


def _on_rest(node: ast.AST, name: str) -> str:
    """The pools ``node`` calls function ``name`` on all but the first of (``cart(pools[1:])``), or ""."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name):
        return ""
    for arg in node.args:
        if isinstance(arg, ast.Subscript) and isinstance(arg.slice, ast.Slice) and isinstance(arg.value, ast.Name):
            lower, upper = arg.slice.lower, arg.slice.upper
            if isinstance(lower, ast.Constant) and lower.value == 1 and upper is None and arg.slice.step is None:
                return arg.value.id
    return ""


def _first_of(node: ast.expr) -> str:
    """The name ``node`` takes the first item of (``pools[0]``), or ""."""
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and isinstance(node.slice, ast.Constant):
        return node.value.id if node.slice.value == 0 else ""
    return ""


class _Walk(Protocol):
    """What :func:`product_over` asks of the nests' walk (:class:`.nests.Nests`)."""

    node: _Function
    products: dict[str, int]
    assigned: dict[str, list[tuple[ast.expr | None, int]]]

    def items(self, node: ast.expr) -> _Kind: ...


class _Kind(Protocol):
    @property
    def kind(self) -> str: ...


def product_over(iterable: ast.expr, walk: _Walk, around: list[ast.AST]) -> Product | None:
    """The product a loop over ``iterable`` goes through, when its pools are sized by the data: a
    builder's own crossing loop, a call of a builder, or a name bound once to one; ``None`` otherwise.
    ``around``: the loops around it in the function, outermost first."""
    function, builders = walk.node, walk.products
    if not builders:
        return None
    crossing = crossing_loop(function) if function.name in builders else None
    if crossing is not None and iterable is crossing.iter:
        over = iterable.id if isinstance(iterable, ast.Name) else _first_of(iterable)
        return Product(f"{CROSSED} `{over}`", ((over,),))
    call = iterable
    if isinstance(iterable, ast.Name):
        bound = walk.assigned.get(iterable.id, [])
        call = bound[0][0] if len(bound) == 1 and bound[0][0] is not None else iterable
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in builders):
        return None
    position = builders[call.func.id]
    pools = call.args[position] if position < len(call.args) else None
    if not isinstance(pools, ast.Name):
        return None
    built = f"{EVERY_TUPLE} `{pools.id}` (`{short_source(call)}`)"
    filled = walk.assigned.get(pools.id)
    if not filled:  # a parameter's pools: the caller's data
        params = function.args
        names = {a.arg for a in (*params.posonlyargs, *params.args, *params.kwonlyargs)}
        return Product(built, ((pools.id,),)) if pools.id in names else None
    members = [member for value, _ in filled for member in _members(value, pools.id, function)]
    # A pool named first (``pool = by_type.get(t) or [...]``, then ``pools.append(pool)``): what it holds.
    members += [held for m in members if isinstance(m, ast.Name) for held, _ in walk.assigned.get(m.id, []) if held]
    alternatives = [alt for m in members for alt in (m.values if isinstance(m, ast.BoolOp) else (m,))]
    heavy = next((member for member in alternatives if walk.items(member).kind == "sized"), None)
    if heavy is None:
        return None
    first = min(line for _, line in filled)
    anchor = next((node for node in around if node.lineno <= first <= (node.end_lineno or 0)), None)  # type: ignore[attr-defined]
    why = f"{built}, each pool one of `{short_source(heavy)}`"
    if isinstance(anchor, (ast.For, ast.AsyncFor)):
        why += f", filled anew per item of `for {short_source(anchor.target)} in {short_source(anchor.iter)}`"
    return Product(why, (), anchor)


def _pools_parameter(function: _Function, products: frozenset[str]) -> int | None:
    params = [a.arg for a in (*function.args.posonlyargs, *function.args.args)]
    if params[:1] in (["self"], ["cls"]):
        return None
    loop = crossing_loop(function)
    if loop is not None:
        return params.index(loop.iter.id if isinstance(loop.iter, ast.Name) else _first_of(loop.iter))
    for node in _own(function.body):
        pools = _returned_product(node.value, products) if isinstance(node, ast.Return) else None
        if pools is not None and pools in params:
            return params.index(pools)
    return None


def _returned_product(value: ast.expr | None, products: Collection[str]) -> str | None:
    """The name ``value`` returns the product of the items of (``itertools.product(*pools)``, also in
    ``list(...)``), or ``None``."""
    if isinstance(value, ast.Call) and _written(value.func) in ("list", "tuple") and len(value.args) == 1:
        value = value.args[0]
    if not (isinstance(value, ast.Call) and len(value.args) == 1 and isinstance(value.args[0], ast.Starred)):
        return None
    pools = value.args[0].value
    return pools.id if isinstance(pools, ast.Name) and _written(value.func) in products else None


def _crosses(stmt: ast.AST, pool: str) -> str:
    """The accumulator ``stmt`` crosses with ``pool`` (``res = [r + [x] for r in res for x in pool]``), or ""."""
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)):
        return ""
    value, name = stmt.value, stmt.targets[0].id
    if not isinstance(value, COMPREHENSIONS) or len(value.generators) < 2:
        return ""
    over = {g.iter.id for g in value.generators if isinstance(g.iter, ast.Name)}
    return name if {name, pool} <= over else ""


def _members(value: ast.expr | None, pools: str, function: _Function) -> Iterator[ast.expr]:
    """The pools a list of pools holds: its display's elements, a comprehension's element, and what
    the function appends to it."""
    found: list[ast.expr] = []
    if isinstance(value, (ast.List, ast.Tuple)):
        found += value.elts
    elif isinstance(value, (ast.ListComp, ast.GeneratorExp)):
        found.append(value.elt)
    for node in walk(function):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "append"
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == pools
            and len(node.args) == 1
        ):
            found.append(node.args[0])
    yield from found


def _own(body: list[ast.stmt]) -> list[ast.AST]:
    """The nodes of ``body`` outside nested functions and classes (a stack walk's order: the first
    loop found is the one read)."""
    return stack_nodes(body, SCOPES, enter=True)


def _written(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        return f"{func.value.id}.{func.attr}"
    return ""
