"""Text games played in process: TextWorld (``textworld.start``, its gym envs), ALFWorld's
TextWorld environment and the project's own games registered with TextArena.

``textworld.start(path, infos, wrappers)`` picks a backend by the file's extension (a ``.z8``:
``JerichoEnv``), wraps it (``TWInform7``'s state tracking and game data for a game TextWorld
generated, then the project's wrappers) and ``load``s the game: jericho's ``FrotzEnv`` copies
libfrotz to a temporary directory and ``dlopen``s the copy, reads the story file, and TextWorld
reads the game's ``.json`` (its knowledge base, quests and grammar). The wrapper chain it returns
is an ``Environment`` whose ``reset`` restarts the interpreter and runs the game to its first
prompt, and whose ``step(command)`` runs one command through the Z-machine (C, the GIL released)
and TextWorld's wrappers (Python, the GIL held); with ``admissible_commands`` requested, every
step also infers the game's state and generates the valid commands, most of the step. Measured
(``bench/bench_text_game_costs.py``, a cooking game on the 2-core machine): start 28-56 ms, reset
12-22 ms, a step 1-2 ms median and 4-6 ms mean, 20-37 ms with ``admissible_commands``.

``textworld.gym.make(id)`` builds the gym env ``register_game(s)`` registered: its ``reset``
loads the next game of the pool through ``textworld.start`` and resets it (a start per reset),
its ``step(commands)`` steps each game of the batch (in child processes for an asynchronous
batch of more than one game; the wait is then as long as the games' steps). ALFWorld's
``AlfredTWEnv.init_env`` registers its games with its wrappers and returns that gym env.

None of them has an async API; the engines hold per-game state, so only the start (a function of
its arguments) has an automatic recipe.

TextArena's ``ta.make(env_id)`` builds the class ``ta.register(id, entry_point)`` filed under the
id (a ``"module:Class"`` string is imported first) and wraps it in the registered wrappers, whose
``step`` calls the game's own: a game the project registers runs its own code there
(``REGISTRIES``; TextArena's bundled games are not entered).
"""

from __future__ import annotations

from asynclint.knowledge.api import BlockingApi, IdRegistry, many

_START = (
    "source: pkg textworld 1.7.0 textworld/helpers.py (start: _guess_backend, wrappers, env.load), "
    "envs/zmachine/jericho.py (JerichoEnv.load builds jericho.FrotzEnv), envs/wrappers/tw_inform7.py "
    "(StateTracking.load: Game.load of the .json); measured by bench/bench_text_game_costs.py"
)
_ENV = (
    "source: pkg textworld 1.7.0 textworld/core.py (Environment, Wrapper), envs/zmachine/jericho.py "
    "(reset: FrotzEnv.reset; step: FrotzEnv.step), envs/wrappers/tw_inform7.py (StateTracking.step); "
    "measured by bench/bench_text_game_costs.py"
)
_GYM = (
    "source: pkg textworld 1.7.0 textworld/gym/utils.py (make), gym/envs/textworld_batch.py "
    "(TextworldBatchGymEnv.reset: batch_env.load(gamefiles) -> GenericEnvironment.load -> textworld.start)"
)
#: What every TextWorld environment is typed as: the wrapper chain ``textworld.start`` returns.
_TW_ENV = "textworld.Environment"
#: The gym env of ``textworld.gym.make`` (``TextworldGymEnv`` is its one-game subclass).
_TW_GYM = "textworld.gym.envs.TextworldBatchGymEnv"
#: TextWorld's backends and wrappers: each is an ``Environment`` around the game it loads.
_BACKENDS = (
    "textworld.core.Environment textworld.core.Wrapper textworld.Wrapper textworld.envs.JerichoEnv "
    "textworld.envs.TextWorldEnv textworld.envs.TWInform7 textworld.envs.zmachine.jericho.JerichoEnv "
    "textworld.envs.tw.TextWorldEnv textworld.envs.wrappers.Filter textworld.envs.wrappers.filter.Filter "
    "textworld.envs.wrappers.Limit textworld.envs.wrappers.GenericEnvironment"
)

_STEP = "runs a command in a text game's interpreter"

APIS: tuple[BlockingApi, ...] = (
    *many("cpu", "game-start", "to-thread", "textworld.start", source=_START, what="starts a text game"),
    # ``load`` is the start's second half, on an environment the project built itself.
    *many("cpu", "game-start", None, "load", f"{_TW_ENV}.", source=_START, what="loads a text game"),
    *many("cpu", "engine-reset", None, "reset", f"{_TW_ENV}.", source=_ENV, what="restarts a text game"),
    *many("cpu", "game-step", None, "step", f"{_TW_ENV}.", source=_ENV, what=_STEP),
    *many("cpu", "game-start", None, "reset", f"{_TW_GYM}.", source=_GYM, what="starts the next text game"),
    *many("cpu", "game-step", None, "step", f"{_TW_GYM}.", source=_GYM, what=_STEP),
)

RETURNS: dict[str, str] = {
    "textworld.start()": _TW_ENV,
    "textworld.helpers.start()": _TW_ENV,
    f"{_TW_ENV}.copy()": _TW_ENV,
    **{backend: _TW_ENV for backend in _BACKENDS.split()},
    "textworld.gym.make()": _TW_GYM,
    "textworld.gym.utils.make()": _TW_GYM,
    "textworld.gym.envs.TextworldGymEnv": _TW_GYM,
    "textworld.gym.envs.textworld.TextworldGymEnv": _TW_GYM,
    "textworld.gym.envs.textworld_batch.TextworldBatchGymEnv": _TW_GYM,
    # source: pkg alfworld 0.4.2 alfworld/agents/environment/alfred_tw_env.py (AlfredTWEnv.init_env:
    # textworld.gym.register_games with ALFWorld's wrappers, then textworld.gym.make).
    "alfworld.agents.environment.AlfredTWEnv.init_env()": _TW_GYM,
    "alfworld.agents.environment.alfred_tw_env.AlfredTWEnv": "alfworld.agents.environment.AlfredTWEnv",
}

REGISTRIES: dict[str, IdRegistry] = {
    "textarena": IdRegistry(
        "textarena",
        frozenset(
            f"textarena{module}.{name}"
            for module in ("", ".envs.registration")
            for name in ("register", "register_with_versions")
        ),
        frozenset({"textarena.make", "textarena.envs.registration.make"}),
        ("id", 0),
        ("entry_point", 1),
        ("env_id", 0),
        module_prefix=False,
        source="source: pkg textarena 0.7.4 textarena/envs/registration.py (register, register_with_versions, make)",
    ),
}
