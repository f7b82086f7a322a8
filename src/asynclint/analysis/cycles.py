"""A memo of a question that may come back to itself (what a dotted name denotes, through values
naming each other; what type a parameter receives, through calls handing it round), whose answers
do not depend on the order the questions are asked in."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

Question = TypeVar("Question", bound=Hashable)
Answer = TypeVar("Answer")

_UNSET = object()


class CycleMemo(Generic[Question, Answer]):
    """The answers of ``compute(name)``, which may ask for other names and, through a cycle, for one
    still being answered. That one is answered ``cycle(name)`` (a cycle says nothing more: a name
    denotes itself, a parameter handed round is untyped).

    Kept as they are, such answers would depend on the order of asking: with ``a`` asked first, ``b``
    (asked inside ``a``) would keep an answer made with ``a`` unsettled, and with ``b`` first, the other
    way round -- so no answer could be kept across an edit that changes which name is asked first.
    Instead the questions of a cycle (a strongly connected component, found as Tarjan's algorithm
    does: an answer that read a question below it in progress only stands for that question) are
    settled together when the lowest of them is answered: each is asked once more as if it were the
    first question, with none of the others kept, and each keeps that answer. A name is then given
    the same answer whatever was asked before it."""

    __slots__ = ("answers", "_compute", "_cycle", "_depth", "_low", "_provisional", "_settling")

    def __init__(self, compute: Callable[[Question], Answer], cycle: Callable[[Question], Answer]) -> None:
        self.answers: dict[Question, Answer] = {}
        self._compute = compute
        self._cycle = cycle
        self._depth: dict[Question, int] = {}  # the questions being answered -> their place on the stack
        self._low: list[int] = []  # per question being answered: the lowest place its answer read
        self._provisional: list[Question] = []  # answered only for the question below them in a cycle
        self._settling: frozenset[Question] = frozenset()  # the cycle being settled: none of it kept yet

    def ask(self, name: Question) -> Answer:
        kept = self.answers.get(name, _UNSET)
        if kept is not _UNSET:
            return kept  # type: ignore[return-value]  # not the sentinel, so an answer
        depth = self._depth.get(name)
        if depth is not None:  # a cycle: every answer above ``depth`` stands only for this question
            if depth < self._low[-1]:
                self._low[-1] = depth
            return self._cycle(name)
        depth = self._depth[name] = len(self._low)
        self._low.append(depth)
        mark = len(self._provisional)
        try:
            found = self._compute(name)
        finally:
            del self._depth[name]
            low = self._low.pop()
        if low < depth:  # part of a cycle through a question below: its answer stands for that one only
            if low < self._low[-1]:
                self._low[-1] = low
            self._provisional.append(name)
        elif name in self._settling:
            del self._provisional[mark:]  # asked alone (``_settle``): the caller keeps the answer
        elif len(self._provisional) > mark:
            cycle = [name, *self._provisional[mark:]]
            del self._provisional[mark:]
            self._settle(cycle)
            found = self.answers[name]
        else:
            self.answers[name] = found
        return found

    def _settle(self, cycle: list[Question]) -> None:
        """Each question of ``cycle`` asked alone, on a stack of its own, with none of the cycle's
        answers kept until all are made."""
        outer = self._depth, self._low, self._settling
        # A member of a cycle being settled around this one (met through a question whose reads
        # changed with the answers so far) is left to that settling: kept now, it would be read
        # by the members asked after it there.
        cycle = [name for name in cycle if name not in outer[2]]
        self._settling = frozenset(cycle) | outer[2]
        settled: dict[Question, Answer] = {}
        try:
            for name in cycle:
                self._depth, self._low = {}, []
                settled[name] = self.ask(name)
        finally:
            self._depth, self._low, self._settling = outer
        self.answers.update(settled)
