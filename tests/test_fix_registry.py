"""The fixer registry: the recipe modules declare their ``SPEC``s; ``check`` reads them from the
table generated from those modules (it imports no recipe module), so a bytecode-only install works."""

from __future__ import annotations

import compileall
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from asynclint import fixers
from asynclint.fixers import specs

REGENERATE = os.environ.get("ASYNCLINT_REGENERATE") == "1"


def test_the_generated_table_holds_what_the_recipe_modules_declare():
    declared = fixers.declared_specs()
    path = Path(specs.__file__)
    if REGENERATE:
        path.write_text(fixers.specs_source(declared), encoding="utf-8")
    assert path.read_text(encoding="utf-8") == fixers.specs_source(declared), (
        "regenerate with `ASYNCLINT_REGENERATE=1 python -m pytest tests/test_fix_registry.py`"
    )
    assert specs.DECLARED == declared
    assert {spec.module for spec in declared} >= {"to_thread", "asyncio_sleep", "redefine", "async_client"}
    for spec in declared:
        assert callable(fixers.load(spec.recipe)), spec


def test_a_bytecode_only_install_finds_every_recipe_without_importing_libcst(tmp_path):
    package = tmp_path / "asynclint"
    shutil.copytree(Path(fixers.__file__).parent.parent, package, ignore=shutil.ignore_patterns("__pycache__"))
    assert compileall.compile_dir(package, legacy=True, quiet=1)  # module.pyc beside module.py
    for source in package.rglob("*.py"):
        source.unlink()
    assert not any(package.rglob("*.py")) and (package / "fixers" / "to_thread.pyc").is_file()
    code = (
        "import json, sys\n"
        "from asynclint import fixers\n"
        "assert fixers.__file__.endswith('.pyc'), fixers.__file__\n"
        "seen = [[spec.recipe, spec.module] for spec in fixers.SPECS.values()]\n"
        "assert 'libcst' not in sys.modules\n"
        "assert fixers.load('to-thread').__module__ == 'asynclint.fixers.to_thread'\n"
        "print(json.dumps(seen))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(tmp_path), "PYTHONDONTWRITEBYTECODE": "1"},
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [[spec.recipe, spec.module] for spec in fixers.SPECS.values()]


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
