"""The branch of a conditional expression in which a test of its type narrows a name to a text.

verifiers hands a reward or a parser the completion as a list of messages (chat) or as the one
reply's text (completion format), and code written for both picks by the type:
``completion[-1]["content"] if isinstance(completion, list) else completion``. In the branch where
the test rules the list out, the name is the reply's text, one message's worth, however the name
sizes a list of messages (split 21 toolhop ``parser.parse(...)`` then ``json.loads(parsed.tool)``).
"""

from __future__ import annotations

import ast

#: The builtin types a test of which tells a list of messages from one text.
_SEQUENCES = frozenset({"list", "tuple"})
_TEXTS = frozenset({"str"})


def text_branch(node: ast.IfExp) -> ast.Name | None:
    """The branch of ``node`` that is a name its ``isinstance`` test narrows to a text: the
    ``else`` of ``isinstance(x, list)``, the body of ``isinstance(x, str)``."""
    test = node.test
    if not (
        isinstance(test, ast.Call)
        and isinstance(test.func, ast.Name)
        and test.func.id == "isinstance"
        and len(test.args) == 2
        and isinstance(test.args[0], ast.Name)
    ):
        return None
    name, kinds = test.args[0].id, _type_names(test.args[1])
    if kinds and kinds <= _SEQUENCES:
        branch = node.orelse
    elif kinds and kinds <= _TEXTS:
        branch = node.body
    else:
        return None
    return branch if isinstance(branch, ast.Name) and branch.id == name else None


def _type_names(node: ast.expr) -> frozenset[str]:
    names = node.elts if isinstance(node, ast.Tuple) else [node]
    if not all(isinstance(name, ast.Name) for name in names):
        return frozenset()
    return frozenset(name.id for name in names if isinstance(name, ast.Name))
