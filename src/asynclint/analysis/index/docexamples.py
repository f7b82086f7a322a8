"""What a module's docstrings show its functions are for: the code examples in them (an indented
block, or ``>>>`` lines) are parsed, and a call of one of the module's top-level functions written
inside a framework's reward registration (``vf.Rubric(funcs=[env_reward_fn(make_env)])``, after the
example's own ``import verifiers as vf``) documents that function's result as a reward the user
registers (``ModuleSummary.documented``, read by :mod:`asynclint.analysis.adapters`)."""

from __future__ import annotations

import ast
import inspect
import textwrap
from collections.abc import Iterator

from asynclint.analysis.index.walks import walk
from asynclint.knowledge.adapters import REWARD_ADDERS, REWARD_REGISTRARS


def documented_rewards(tree: ast.Module) -> tuple[str, ...]:
    """The module's top-level functions whose result one of its docstrings' examples registers as a reward."""
    own = {node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}
    found: set[str] = set()
    for owner in (tree, *(node for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)))):
        text = ast.get_docstring(owner)
        if not text or "(" not in text:
            continue
        for example in _examples(text):
            found.update(name for name in _registered_calls(example) if name in own)
    return tuple(sorted(found))


def _examples(text: str) -> Iterator[ast.Module]:
    """The docstring's code: each indented block (and each run of ``>>>`` lines) that parses."""
    block: list[str] = []
    for line in [*inspect.cleandoc(text).splitlines(), ""]:
        stripped = line.lstrip()
        if stripped.startswith((">>> ", "... ")):
            block.append(stripped[4:])
        elif (line.startswith((" ", "\t")) and stripped) or (block and not stripped):
            block.append(line)  # an indented line, or a blank one inside the block
        else:
            if block:
                parsed = _parsed(block)
                if parsed is not None:
                    yield parsed
            block = []
    if block and (parsed := _parsed(block)) is not None:
        yield parsed


def _parsed(lines: list[str]) -> ast.Module | None:
    try:
        return ast.parse(textwrap.dedent("\n".join(lines)))
    except (SyntaxError, ValueError):
        return None


def _registered_calls(example: ast.Module) -> Iterator[str]:
    """Names of functions called inside a reward registration of ``example``."""
    aliases: dict[str, str] = {}
    for node in walk(example):
        if isinstance(node, ast.Import):
            for alias in node.names:
                top = alias.name.partition(".")[0]
                aliases[alias.asname or top] = alias.name if alias.asname else top
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            aliases.update({(a.asname or a.name): f"{node.module}.{a.name}" for a in node.names})
    for node in walk(example):
        if not isinstance(node, ast.Call):
            continue
        for value in _reward_slots(node, aliases):
            for inner in walk(value):
                if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name):
                    yield inner.func.id


def _reward_slots(call: ast.Call, aliases: dict[str, str]) -> list[ast.expr]:
    """The arguments of ``call`` that hold rewards, when it registers them."""
    if isinstance(call.func, ast.Attribute) and call.func.attr in REWARD_ADDERS:
        return call.args[:1]
    name = _dotted(call.func, aliases)
    slots = REWARD_REGISTRARS.get(name or "", ())
    held = [keyword.value for keyword in call.keywords if keyword.arg in slots]
    held.extend(arg for position, arg in enumerate(call.args) if str(position) in slots)
    return held


def _dotted(node: ast.expr, aliases: dict[str, str]) -> str | None:
    if isinstance(node, ast.Name):
        return aliases.get(node.id)
    if isinstance(node, ast.Attribute):
        outer = _dotted(node.value, aliases)
        return f"{outer}.{node.attr}" if outer else None
    return None
