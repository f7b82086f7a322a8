"""The framework tables against verifiers itself.

``tests/data/verifiers-classes.txt`` lists every public framework class of the verifiers release
it was made from (``tests/data/make_verifiers_classes.py`` reads the installed source with
``ast``) and the methods of each that the framework's own code calls per rollout. Every one of
them must be known here, under its public and its defining module name, with its hooks: a user's
subclass of a class missing from the tables would look like a plain class, its hooks cold.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from asynclint.knowledge.frameworks import DECORATORS, HOOK_CLASSES, framework_class, public_name

LISTING = Path(__file__).parent / "data" / "verifiers-classes.txt"
PUBLIC = {"v0": "verifiers", "v1": "verifiers.v1"}
FAMILIES = {  # family in the listing -> the table's position in HOOK_CLASSES
    ("v0", "env"): 0,
    ("v0", "rubric"): 1,
    ("v0", "parser"): 2,
    ("v1", "task"): 3,
    ("v1", "harness"): 4,
    ("v1", "env"): 5,
    ("v1", "taskset"): 6,
    ("v1", "judge"): 7,
}


def listed() -> list[tuple[str, str, str, str, list[str]]]:
    rows = []
    for line in LISTING.read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        head, _, hooks = line.partition(":")
        side, family, name, module = head.split()
        rows.append((side, family, name, module, hooks.split()))
    return rows


ROWS = listed()


def test_the_listing_covers_every_family() -> None:
    assert {(side, family) for side, family, *_ in ROWS} == set(FAMILIES)


@pytest.mark.parametrize(("side", "family", "name", "module", "hooks"), ROWS, ids=[f"{r[0]}-{r[2]}" for r in ROWS])
def test_every_framework_class_is_known_with_its_hooks(side, family, name, module, hooks) -> None:
    table = HOOK_CLASSES[FAMILIES[side, family]]
    for qualname in (f"{PUBLIC[side]}.{name}", f"{module}.{name}"):
        assert framework_class(qualname) is table, qualname
    missing = [hook for hook in hooks if hook not in table.methods and hook not in table.cold]
    assert not missing, f"{name}: the framework calls {missing} per rollout"


@pytest.mark.parametrize(
    ("written", "public"),
    [
        ("verifiers.legacy.stop", "verifiers.stop"),
        ("verifiers.decorators.cleanup", "verifiers.cleanup"),
        ("verifiers.legacy.decorators.teardown", "verifiers.teardown"),
        ("verifiers.v1.utils.decorators.tool", "verifiers.v1.tool"),
        ("verifiers.v1.reward", "verifiers.v1.reward"),
        ("verifiers.legacy.envs.multiturn_env.MultiTurnEnv", "verifiers.envs.multiturn_env.MultiTurnEnv"),
        ("otherlib.legacy.stop", "otherlib.legacy.stop"),
    ],
)
def test_names_are_compared_by_their_public_path(written: str, public: str) -> None:
    assert public_name(written) == public
    if public in DECORATORS:
        assert public_name(written) in DECORATORS
