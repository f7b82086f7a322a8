"""The project's own cartesian products (analysis/index/products.py): which functions build one."""

from __future__ import annotations

import ast
import textwrap

from asynclint.analysis.index.products import product_builders


def _builders(source: str) -> dict[str, int]:
    source = textwrap.dedent(source)
    return product_builders(ast.parse(source), source)


def test_a_cross_join_and_a_returned_product_are_builders() -> None:
    found = _builders(
        """
        import itertools as it
        from itertools import product as prod

        def cartesian(lists):
            res = [[]]
            for lst in lists:
                res = [r + [x] for r in res for x in lst]
            return res

        def grounded(kind, pools):
            return list(it.product(*pools))

        def tuples(pools):
            return prod(*pools)
        """
    )
    assert found == {"cartesian": 0, "grounded": 1, "tuples": 0}


def test_near_misses_are_not() -> None:
    found = _builders(
        """
        import itertools

        def flat(lists):
            res = []
            for lst in lists:
                res = [r + [x] for r in res for x in lst]
            return None  # the product is not what it returns

        def pairs(xs, ys):
            return [(x, y) for x in xs for y in ys]  # two pools, both handed in: a nest where it loops

        def chained(pools):
            return itertools.chain(*pools)

        class Grounder:
            def cartesian(self, lists):
                res = [[]]
                for lst in lists:
                    res = [r + [x] for r in res for x in lst]
                return res
        """
    )
    assert found == {}


def test_a_name_defined_twice_counts_only_if_both_build_one() -> None:
    source = """
        def combos(lists):
            res = [()]
            for lst in lists:
                res = [r + (x,) for r in res for x in lst]
            return res

        def outer():
            def combos(lists):
                return [lists for _ in lists for _ in lists]
            return combos
        """
    assert _builders(source) == {}


def test_a_recursion_on_the_rest_of_the_pools_is_a_builder() -> None:
    found = _builders(
        """
        def cart(pools):
            if not pools:
                yield ()
                return
            for x in pools[0]:
                for rest in cart(pools[1:]):
                    yield (x, *rest)

        def combos(kind, pools):
            if not pools:
                return [[]]
            return [[x] + rest for x in pools[0] for rest in combos(kind, pools[1:])]

        def walk(nodes):
            for child in nodes[0]:
                walk(nodes[1:])  # a call per tuple, but nothing iterates what it builds
        """
    )
    assert found == {"cart": 0, "combos": 1}
