"""The one walk of a function's loops (analysis/index/loopwalk.py): trip counts for every loop,
nests for the functions with loops inside loops, and what each reads."""

from __future__ import annotations

import textwrap

from asynclint.analysis.index.walker import index_source
from asynclint.knowledge.catalogue import Catalogue


def _summary(source: str):
    return index_source(textwrap.dedent(source), "m.py", "m", "", Catalogue())


def test_a_while_inside_a_for_is_a_loop_of_its_own_inside_it():
    summary = _summary(
        """
        def f(items):
            for item in (1, 2, 3):
                tick = 0
                while tick < 4:
                    tick += 1
        """
    )
    outer, inner = summary.work_loops
    assert (outer.parent, outer.trips, outer.header) == (-1, ("3",), "for item in (1, 2, 3)")
    assert (inner.parent, inner.trips, inner.header) == (0, ("4",), "while tick < 4")


def test_a_nest_over_the_same_list_is_found_and_a_keyword_argument_is_not_read_for_nests():
    summary = _summary(
        """
        def pairs(words):
            for a in words:
                for b in words:
                    print(a, b)

        def keyed(words):
            for a in words:
                print(a, sep=[b for b in words])
        """
    )
    assert [nest.line for nest in summary.nests] == [3]  # ``keyed``'s comprehension is a keyword argument
    assert [loop.line for loop in summary.work_loops] == [3, 4, 8, 9]  # but its trips are counted


def test_the_bindings_of_a_function_defined_in_the_body_are_not_the_outer_functions():
    summary = _summary(
        """
        def f():
            n = 3

            def g():
                n = 5
                return n

            for _ in range(n):
                pass
        """
    )
    assert [loop.trips for loop in summary.work_loops] == [("3",)]


def test_a_nest_records_the_parameters_or_the_fields_of_them_its_counts_come_from():
    summary = _summary(
        """
        def grid(data):
            cells = data.metadata["grid"]
            n = len(cells)
            for i in range(n * n):
                for j in range(n):
                    print(i, j)

        def secret(info):
            body = info.get("secret")[3:]
            for a in range(len(body)):
                for b in range(a, len(body)):
                    print(body[a:b])

        def mixed(board, reply):
            text = reply.strip()
            for a in range(len(board)):
                for b in range(len(text)):
                    print(a, b)

        import itertools

        def searched(digits):
            for order in itertools.permutations(digits):
                print(order)
        """
    )
    assert [nest.sized_by for nest in summary.nests] == [
        ("data.metadata.grid",),
        ("info.secret",),
        ("board", "reply"),
        (),  # combinatorial: not the data's size, whatever the data
    ]


def test_a_loop_over_what_the_rollouts_history_gives_grows_every_turn():
    summary = _summary(
        """
        def f(completion, state, info):
            texts = extract(completion)
            for text in texts:
                print(text)
            for step in state.get("trajectory", []):
                print(step)
            calls, _ = parse(state)
            for call in calls:
                print(call)
            for check in info["checks"]:
                print(check)
        """
    )
    assert {loop.header: loop.history for loop in summary.work_loops} == {
        "for text in texts": True,
        "for step in state.get('trajectory', [])": True,
        "for call in calls": False,  # the state read for its keys, not its name
        "for check in info['checks']": False,
    }
