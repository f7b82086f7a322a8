"""Game and simulation engines stepped inline: gymnasium, gym, jericho, BALROG, python-chess's engines.

A ``step`` or ``reset`` runs the engine in the calling thread: microseconds for a toy control
task, milliseconds and more for an emulator or a rendered game, so they are CPU of some size.
``make`` builds the environment (imports its module the first time, loads its assets). None of
them has an async API; a stateful environment cannot move to a worker process, and most engines
hold the GIL, so there is no automatic recipe. jericho's Z-machine is a C library loaded with
``ctypes.cdll``, whose calls release the GIL: its work really runs in parallel from a worker
thread. ``FrotzEnv(story_file)`` copies the library to a temporary directory, loads it and reads
the game file. BALROG's ``make_env`` builds one of its games (NetHack, MiniHack, BabyAI,
Crafter, TextWorld, Baba Is AI) in process and wraps it in ``EnvWrapper``, a ``gymnasium.Wrapper``.
python-chess's ``chess.engine.SimpleEngine`` drives a UCI/XBoard engine (Stockfish) in a child
process: every command is handed to a background event loop and the calling thread waits on the
future for the engine's answer (``analyse``/``play``: the whole search, often a second). The
library's own async API is the twin: ``await chess.engine.popen_uci(...)`` gives a protocol whose
``analyse``/``play`` are coroutines. (Board moves and legality checks are pure Python and cheap.)
"""

from __future__ import annotations

from asynclint.knowledge.api import BlockingApi, IdRegistry, entry, many

_GYMNASIUM = "source: pkg gymnasium 1.4.0 gymnasium/core.py (Env, Wrapper), envs/registration.py (make)"
_GYM = "source: pkg gym 0.26.2 gym/core.py (Env, Wrapper), gym/envs/registration.py (make)"
_JERICHO = "source: pkg jericho 3.3.1 jericho/jericho.py (FrotzEnv: ctypes.cdll calls into libfrotz)"
#: Engine calls; ``close`` only releases resources, ``seed`` (gym) sets a generator.
_ENGINE = "step reset render"
_WRAPPERS = "Wrapper ObservationWrapper ActionWrapper RewardWrapper"
#: FrotzEnv methods that load a game (``load``, ``copy``) or search the emulator
#: (``get_valid_actions`` tries every candidate action against saved states: seconds). One
#: ``step``/``reset`` runs the C interpreter to the next prompt, well under the cost of the other
#: engines' steps, and is left out: reporting it would be noise.
_FROTZ = "load copy get_valid_actions"
_BALROG = (
    "source: balrog-ai/BALROG@af7d1f1 (GitHub; not on PyPI) balrog/environments/__init__.py (make_env), "
    "env_wrapper.py (EnvWrapper(gymnasium.Wrapper))"
)
_BALROG_ENV = "balrog.environments.env_wrapper.EnvWrapper"
_CHESS = "source: pkg chess 1.11.2 chess/engine.py (class SimpleEngine: future.result() per command; async popen_uci)"
_CHESS_ENGINE = "chess.engine.SimpleEngine"
_CHESS_TWIN = (
    "`transport, engine = await chess.engine.popen_uci(...)` and await `engine.analyse(...)`/`engine.play(...)`"
)
#: SimpleEngine methods that send a command and wait for the engine's answer; ``close`` only
#: schedules the shutdown on the background loop, and ``options``/``id`` read cached handshake data.
_CHESS_COMMANDS = "analyse play analysis configure ping quit communicate send_opponent_information send_game_result"
#: Constructors: start the engine process and wait for its handshake (``uci``/``uciok``).
_CHESS_STARTS = "popen popen_uci popen_xboard"

APIS: tuple[BlockingApi, ...] = (
    *many("cpu", "cpu-heavy", None, _ENGINE, "gymnasium.Env.", source=_GYMNASIUM),
    *many("cpu", "cpu-heavy", None, "make make_vec", "gymnasium.", source=_GYMNASIUM),
    *many("cpu", "cpu-heavy", None, _ENGINE, "gym.Env.", source=_GYM),
    entry("gym.make", "cpu", "cpu-heavy", None, frozenset(), _GYM),
    entry("jericho.FrotzEnv", "fs", "disk-content", "to-thread", frozenset(), _JERICHO),
    *many("cpu", "cpu-heavy", "to-thread", _FROTZ, "jericho.FrotzEnv.", source=_JERICHO),
    # ``make_env`` builds one of BALROG's games in process (NetHack loads and copies its native
    # library, TextWorld compiles its game file): an engine of unknown size, and each ``reset``
    # generates a new world; a ``step`` is gymnasium's generic engine step.
    entry("balrog.environments.make_env", "cpu", "engine-build", None, frozenset(), _BALROG),
    entry(f"{_BALROG_ENV}.reset", "cpu", "engine-reset", None, frozenset(), _BALROG),
    *many("cpu", "cpu-heavy", None, "step render", f"{_BALROG_ENV}.", source=_BALROG),
    *many(
        "subprocess", "child-process", "to-thread", _CHESS_STARTS, f"{_CHESS_ENGINE}.", source=_CHESS, twin=_CHESS_TWIN
    ),
    *many(
        "subprocess",
        "child-process",
        "to-thread",
        _CHESS_COMMANDS,
        f"{_CHESS_ENGINE}.",
        source=_CHESS,
        twin=_CHESS_TWIN,
    ),
)

RETURNS: dict[str, str] = {
    "gymnasium.make()": "gymnasium.Env",
    "gymnasium.make_vec()": "gymnasium.Env",
    "gymnasium.core.Env": "gymnasium.Env",
    **{f"gymnasium.{wrapper}": "gymnasium.Env" for wrapper in _WRAPPERS.split()},
    **{f"gymnasium.core.{wrapper}": "gymnasium.Env" for wrapper in _WRAPPERS.split()},
    "gym.make()": "gym.Env",
    "gym.core.Env": "gym.Env",
    **{f"gym.{wrapper}": "gym.Env" for wrapper in _WRAPPERS.split()},
    **{f"gym.core.{wrapper}": "gym.Env" for wrapper in _WRAPPERS.split()},
    "jericho.jericho.FrotzEnv": "jericho.FrotzEnv",
    "balrog.environments.make_env()": _BALROG_ENV,
    "jericho.FrotzEnv.copy()": "jericho.FrotzEnv",
    **{f"{_CHESS_ENGINE}.{start}()": _CHESS_ENGINE for start in _CHESS_STARTS.split()},
}

#: ``gymnasium.register(id="Grid-v0", entry_point="pkg.envs:GridEnv")`` then ``gymnasium.make("Grid-v0")``
#: per rollout: ``make`` loads the entry point (importing a ``"module:attr"`` string's module),
#: calls it with the registered and the given keyword arguments and wraps the result in cheap
#: checkers (PassiveEnvChecker, OrderEnforcing, TimeLimit), whose ``step``/``reset`` call the
#: environment's own. gym 0.26 has the same two functions and the same ``"module:Env-v0"`` ids.
REGISTRIES: dict[str, IdRegistry] = {
    "gymnasium": IdRegistry(
        "gymnasium",
        frozenset({"gymnasium.register", "gymnasium.envs.registration.register"}),
        frozenset({"gymnasium.make", "gymnasium.envs.registration.make"}),
        ("id", 0),
        ("entry_point", 1),
        ("id", 0),
        module_prefix=True,
        source="source: pkg gymnasium 1.4.0 gymnasium/envs/registration.py (register, make, _find_spec)",
    ),
    "gym": IdRegistry(
        "gym",
        frozenset({"gym.register", "gym.envs.register", "gym.envs.registration.register"}),
        frozenset({"gym.make", "gym.envs.make", "gym.envs.registration.make"}),
        ("id", 0),
        ("entry_point", 1),
        ("id", 0),
        module_prefix=True,
        source="source: pkg gym 0.26.2 gym/envs/registration.py (register, make)",
    ),
}
