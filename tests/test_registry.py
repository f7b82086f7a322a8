"""The registry's table of rule codes is the rules', and reading a configuration imports no analysis."""

from __future__ import annotations

import ast
import subprocess
import sys

from asynclint.registry import RULES, expand, rule_code
from asynclint.rules import ALL_RULES


def test_rule_table_is_the_rules():
    # Fails when a rule is added, renamed or re-coded: copy the rules' codes and names into
    # asynclint.registry.RULES (the order of the codes).
    assert RULES == {rule.code: rule.name for rule in ALL_RULES}


def test_selectors_expand_as_before():
    assert expand(["ALL"]) == set(RULES)
    assert expand(["blocking-sleep", "ASL11"]) == {
        "ASL101",
        "ASL110",
        "ASL111",
        "ASL112",
        "ASL113",
        "ASL114",
        "ASL115",
        "ASL116",
        "ASL117",
        "ASL118",
        "ASL119",
    }
    assert rule_code("asl101") == "ASL101" and rule_code("blocking-sleep") == "ASL101"
    assert rule_code("ASL999") is None


def test_reading_a_configuration_imports_no_analysis(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[tool.asynclint]\nselect = ["ASL1"]\nignore = ["blocking-sleep"]\n'
        '[tool.asynclint.severity]\nsync-http-call = "low"\n'
    )
    probe = (
        "import sys; from pathlib import Path; from asynclint.config import load\n"
        f"config = load(Path({str(tmp_path / 'pyproject.toml')!r}), Path('.'))\n"
        "assert 'ASL101' not in config.enabled_codes() and 'ASL102' in config.enabled_codes()\n"
        "print(sorted(m for m in sys.modules if m.startswith('asynclint.')))"
    )
    loaded = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert "asynclint.rules" not in loaded and not any(
        m.startswith("asynclint.analysis") for m in ast.literal_eval(loaded)
    )
