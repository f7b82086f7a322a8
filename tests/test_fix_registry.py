"""The fixer registry is discovered from the recipe modules' ``SPEC``s, read from their source."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

from asynclint import fixers
from asynclint.fixers import FixerSpec, _declared


def test_each_spec_read_from_source_is_the_one_the_module_declares():
    # The registry parses SPEC without importing the module; importing it must give the same specs.
    recipe_modules = set()
    for info in pkgutil.iter_modules(fixers.__path__):
        if info.ispkg:
            continue
        module = importlib.import_module(f"asynclint.fixers.{info.name}")
        declared = getattr(module, "SPEC", None)
        if declared is None:
            continue
        recipe_modules.add(info.name)
        declared = declared if isinstance(declared, tuple) else (declared,)
        assert tuple(fixers.SPECS[spec.recipe] for spec in declared) == tuple(
            FixerSpec(**{**vars(spec), "module": info.name}) for spec in declared
        )
        for spec in declared:
            assert callable(getattr(module, spec.function)), spec
    assert {spec.module for spec in fixers.SPECS.values()} == recipe_modules


def test_a_spec_is_read_up_to_the_next_statement_and_a_module_without_one_is_no_recipe():
    source = (
        '"""A recipe."""\nfrom asynclint.fixers.base import ON_THE_CHAIN, FixerSpec\n\n'
        'SPEC = (\n    FixerSpec(\n        "one",\n        True,\n        "does one"\n        " thing",\n'
        '        answers=("to-thread",),\n        placements=ON_THE_CHAIN,\n    ),\n'
        '    FixerSpec("two", False, "does two", function="fix_two"),\n)\n\n\ndef fix(finding, project):\n    pass\n'
    )
    one, two = _declared(source)
    assert one == FixerSpec(
        "one", True, "does one thing", answers=("to-thread",), placements=("direct", "helper", "root")
    )
    assert two == FixerSpec("two", False, "does two", function="fix_two")
    assert _declared('"""Not a recipe: SPEC is only mentioned."""\n    SPEC = 1\n') == ()


def test_a_spec_takes_literals_only():
    with pytest.raises(ValueError):
        _declared('SPEC = FixerSpec("x", True, TITLE)\n')


@pytest.mark.parametrize(
    ("recipe", "tried"),
    [
        # an API's own rewrite first, then a whole `with` block moved off the loop, then the generic fixers
        ("asyncio-sleep", ("asyncio-sleep", "to-thread")),
        ("to-thread", ("with-block", "to-thread")),
        ("async-subprocess", ("with-block", "to-thread")),
        ("async-client", ("async-client", "with-block", "to-thread")),
        ("hoist-client", ("with-block", "hoist-client")),
        ("deepcopy-memo", ("deepcopy-memo", "to-thread")),
        ("process-pool", ("process-pool",)),
        ("pure-process-pool", ("pure-process-pool",)),
        ("handoff-client", ("handoff-client",)),
    ],
)
def test_the_fixers_each_recipe_tries_follow_their_priorities(recipe, tried):
    assert fixers.CANDIDATES[recipe] == tried
    assert fixers.candidates(recipe, unsafe=True, twin=True) == (
        tried if recipe == "handoff-client" else _twin_before_safe(tried)
    )


def _twin_before_safe(tried: tuple[str, ...]) -> tuple[str, ...]:
    first_safe = next((at for at, name in enumerate(tried) if fixers.SPECS[name].safe), len(tried))
    return (*tried[:first_safe], "twin-call", *tried[first_safe:])


def test_every_recipe_the_knowledge_base_names_has_a_fixer_and_definitions_theirs():
    from asynclint.knowledge.blocking import RECIPES

    assert set(RECIPES) <= set(fixers.CANDIDATES)
    assert fixers.DEFINITION_RECIPES == {"ASL201": "async-def", "ASL202": "sync-def"}
