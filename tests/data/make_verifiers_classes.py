"""Write the list of verifiers' framework classes and the hooks the framework runs per rollout.

Reads an installed ``verifiers`` source tree with ``ast`` (nothing is imported) and prints, for
every public class deriving from a framework root -- v0 ``Environment``/``Rubric``/``Parser``,
v1 ``Env``/``Task``/``Taskset``/``Harness``/``Judge`` -- its family and the public methods it
defines that the framework's own code reaches through ``self.method(...)`` from the family's
entry points (what ``run_rollout`` or ``score_rollout`` call, transitively). A user's override
of one of those runs where the framework calls it: on the loop, per rollout.

``tests/test_framework_tables.py`` checks ``asynclint.knowledge.frameworks`` against the output
kept in ``tests/data/verifiers-classes.txt``, so the fast suite never imports verifiers.
Regenerate after a verifiers upgrade::

    python tests/data/make_verifiers_classes.py "$(python -c 'import verifiers, os; print(os.path.dirname(verifiers.__file__))')" \\
        > tests/data/verifiers-classes.txt
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from pathlib import Path

#: Family -> (its root classes, the methods through which the framework enters it per rollout).
FAMILIES: dict[tuple[str, str], tuple[frozenset[str], frozenset[str]]] = {
    ("v0", "env"): (frozenset({"Environment"}), frozenset({"rollout", "run_rollout", "run_group"})),
    ("v0", "rubric"): (frozenset({"Rubric"}), frozenset({"score_rollout", "score_group", "cleanup"})),
    ("v0", "parser"): (frozenset({"Parser"}), frozenset({"parse", "parse_answer"})),
    ("v1", "env"): (frozenset({"Env"}), frozenset({"setup", "run", "finalize"})),
    ("v1", "task"): (frozenset({"Task"}), frozenset({"setup", "finalize", "runtime_env", "toolsets", "key", "hash"})),
    ("v1", "taskset"): (frozenset({"Taskset"}), frozenset()),
    ("v1", "harness"): (frozenset({"Harness"}), frozenset({"setup", "launch", "resume", "session", "cleanup"})),
    ("v1", "judge"): (frozenset({"Judge"}), frozenset({"score", "parse", "build_messages"})),
}


@dataclass
class Cls:
    name: str
    module: str
    side: str  # v0 | v1
    bases: list[str]
    methods: dict[str, set[str]]  # method -> names called as self.<name>(...)


def _base_name(node: ast.expr) -> str:
    if isinstance(node, ast.Subscript):  # Judge[Verdict, Config]
        node = node.value
    return ast.unparse(node).rpartition(".")[2]


def _self_calls(function: ast.AST) -> set[str]:
    called = set()
    for node in ast.walk(function):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "self"
        ):
            called.add(node.func.attr)
    return called


def read(root: Path) -> list[Cls]:
    found = []
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root.parent).with_suffix("").parts
        if "tests" in parts or "test" in parts:
            continue
        module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        side = "v1" if module.startswith("verifiers.v1") else "v0"
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError):
            continue
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                methods = {
                    item.name: _self_calls(item)
                    for item in node.body
                    if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))
                }
                found.append(Cls(node.name, module, side, [_base_name(b) for b in node.bases], methods))
    return found


def families(classes: list[Cls]) -> dict[str, tuple[str, str]]:
    """Class (side:name) -> its family, following base names within the same side."""
    by_name = {(c.side, c.name): c for c in classes}
    result: dict[str, tuple[str, str]] = {}

    def family_of(cls: Cls, seen: frozenset[str]) -> tuple[str, str] | None:
        for (side, kind), (roots, _) in FAMILIES.items():
            if side == cls.side and cls.name in roots:
                return side, kind
        for base in cls.bases:
            parent = by_name.get((cls.side, base))
            if parent is not None and base not in seen:
                found = family_of(parent, seen | {cls.name})
                if found:
                    return found
        return None

    for cls in classes:
        found = family_of(cls, frozenset())
        if found:
            result[f"{cls.side}:{cls.name}"] = found
    return result


def reached(classes: list[Cls], members: dict[str, tuple[str, str]], family: tuple[str, str]) -> set[str]:
    """Methods of the family the framework reaches from its entry points through ``self``."""
    calls: dict[str, set[str]] = {}
    for cls in classes:
        if members.get(f"{cls.side}:{cls.name}") == family:
            for method, called in cls.methods.items():
                calls.setdefault(method, set()).update(called)
    todo = [m for m in FAMILIES[family][1] if m in calls]
    seen = set(todo)
    while todo:
        for callee in calls.get(todo.pop(), ()):
            if callee in calls and callee not in seen:
                seen.add(callee)
                todo.append(callee)
    return seen


def main(root: Path) -> None:
    classes = read(root)
    members = families(classes)
    hooks = {family: reached(classes, members, family) for family in FAMILIES}
    version = "unknown"
    for info in root.parent.glob("verifiers-*.dist-info"):
        version = info.name.removeprefix("verifiers-").removesuffix(".dist-info")
    print(f"# verifiers {version}: side family class module: hooks (generated by tests/data/make_verifiers_classes.py)")
    for cls in sorted(classes, key=lambda c: (c.side, c.name, c.module)):
        family = members.get(f"{cls.side}:{cls.name}")
        if family is None or cls.name.startswith("_"):
            continue
        own = sorted(m for m in cls.methods if m in hooks[family] and not m.startswith("_"))
        print(f"{cls.side} {family[1]} {cls.name} {cls.module}: {' '.join(own)}".rstrip())


if __name__ == "__main__":
    main(Path(sys.argv[1]))
