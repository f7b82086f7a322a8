"""Call chains' constants in the hot set (``HotInfo.given``): few states per function, and what
an object passed settles."""

from __future__ import annotations

import ast
from functools import partial

from conftest import graph_of

from asynclint.analysis.given import MAX_GIVEN, builtin_instance
from asynclint.analysis.index.flags import PASSED_OBJECT, InstanceOf, guard_holds
from asynclint.knowledge.adapters import PARSED_REWARD_ARGUMENTS

MODES = ("a", "b", "c", "d", "e", "f", "g", "h")
CALLS = "".join(f"        render('x', mode={mode!r}, count={n})\n" for n, mode in enumerate(MODES))

SOURCE = f"""
import time

import verifiers as vf


def render(text: str, mode: str = "plain", count: int = 0) -> str:
    if mode == "slow":
        time.sleep(0.1)
    if count > 3:
        time.sleep(0.2)
    return text


class ModesEnv(vf.MultiTurnEnv):
    async def env_response(self, messages, state):
{CALLS}
        return [], state
"""


def test_distinct_constants_per_function_are_capped():
    graph = graph_of(SOURCE)
    key = next(key for key in graph.hot if graph.function(key).name == "render")
    given = {state.given for state in graph.states if state.function == key}
    # Each mode a state up to the cap; the calls beyond it share the state every caller's constants decide.
    assert len(given) == MAX_GIVEN + 1
    assert () in given
    assert all(name == "mode" for values in given for name, _ in values)  # a count is not carried


def test_an_object_passed_is_not_none_and_nothing_else_is_known():
    env = {"shared": ast.literal_eval(PASSED_OBJECT)}
    assert not guard_holds(("not (shared is not None)",), env)
    assert not guard_holds(("shared is None",), env)
    assert not guard_holds(("shared == None",), env)
    assert guard_holds(("shared is not None",), env)
    # Its truth and its value are unknown: the code behind them may run.
    assert guard_holds(("not shared",), env)
    assert guard_holds(("shared == 'x'",), env)
    assert guard_holds(("shared and flag",), {**env, "flag": True})
    assert not guard_holds(("shared and flag",), {**env, "flag": False})


def test_a_parsed_reward_argument_answers_its_isinstance_tests():
    """verifiers hands a reward its row's ``info`` as a dict: a test of a text is false, of a mapping true,
    of a class the builtins do not name unknown (the branch may run)."""
    info = {"info": InstanceOf(partial(builtin_instance, PARSED_REWARD_ARGUMENTS["info"]))}
    assert not guard_holds(("isinstance(info, str)",), info)
    assert not guard_holds(("isinstance(info, (str, bytes))",), info)
    assert guard_holds(("not (isinstance(info, str))",), info)
    assert not guard_holds(("not (isinstance(info, Mapping))",), info)
    assert not guard_holds(("not (isinstance(info, (list, dict)))",), info)
    assert guard_holds(("isinstance(info, TaskInfo)",), info)
