"""A model built in the expression that dumps it (``Item(id=call_id, output=text).model_dump()``):
as large as the values its constructor is handed, read as a display of them -- a small record from one
message's fields, a whole one when a field holds the history or a whole prompt's token ids, whatever
the class. Only for a dump (:data:`asynclint.knowledge.costs.MODEL_DUMPS`): a library's engine built
inline (``SequenceMatcher(None, a, b).ratio()``, ``Template(text).render()``) costs its own work, which
one reply's worth of arguments does not bound. :func:`asynclint.analysis.index.argfacts.payload_of`
reads it; the walk says which calls build a class (:func:`builds_class`)."""

from __future__ import annotations

import ast
from collections.abc import Callable

from asynclint.analysis.index.values import Refs, Sym, Value

#: The prefix of the walk's answer (``argfacts.Returned``) for a call that builds an instance of a class:
#: what follows is its answer for any other call (a project function's ``returned`` word, or nothing).
BUILT = "<built>"


def built(call: ast.Call, returned: Callable[[ast.expr], str | None] | None) -> bool:
    """Does ``call`` build an instance of a class, as the walk (``returned``) says?"""
    answer = returned(call) if returned is not None else None
    return answer is not None and answer.startswith(BUILT)


def builds_class(callee: Value) -> bool:
    """Is ``callee`` (the walk's value of a call's function) a class, by the name it is written under
    (PEP 8's CapWords: ``NeMoGymEasyInputMessage``, not ``JSON_LOADS``), or any one of several classes
    (``cls = TrainingItem if tokens else Item``)?"""
    if isinstance(callee, Refs):
        return bool(callee.items) and all(isinstance(item, Sym) and builds_class(item) for item in callee.items)
    if not isinstance(callee, Sym):
        return False
    name = callee.name.rpartition(".")[2]
    return name[:1].isupper() and not name.isupper()


def fields_of(call: ast.Call) -> ast.List:
    """The values ``call`` hands the constructor, as one display: positions, keywords and the mappings
    it spreads (``**_tok_kwargs(tokens)``: as large as what that helper returns)."""
    values = [*call.args, *(keyword.value for keyword in call.keywords)]
    return ast.List(elts=values, ctx=ast.Load())
