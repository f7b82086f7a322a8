"""Simulators stepped in process: the NetHack Learning Environment, gym-sokoban, and any class the
project drives as gymnasium's protocol says (``reset()`` then ``step(action)``).

NLE's ``Nethack`` (and the gymnasium ``NLE`` env around it) makes a temporary directory per
instance, copies ``libnethack.so`` into it and ``dlopen``s the copy (so that several games can
live in one process), then starts the game: hundreds of milliseconds per construction.
``reset`` ends the game and generates a new dungeon; ``step`` runs the C game loop to the next
input and fills the observation arrays, a fraction of a millisecond. No async API exists. The
construction is file copying and a ``dlopen``, which release the GIL: a worker thread frees the
loop. ``reset`` and ``step`` run the game on an engine that lives in this process and holds
state, so there is no automatic recipe (as for the engines of the ``games`` pack).

gym-sokoban's ``SokobanEnv`` generates its room when it is built (``reset=True`` by default) and
on every ``reset``: ``room_utils.generate_room`` lays out a topology, then searches depth first
for the box positions farthest from the targets by playing the game backwards, in pure Python.
Measured once on this project's 2-core machine (``Sokoban-v0``, 7 resets): 0.4 to 5.5 s, median
1.3 s. A ``step`` moves the player and renders the default ``rgb_array`` observation: 6-9 ms
(0.1 ms with ``observation_mode="tiny_rgb_array"``). ``gym.make("Sokoban-v0")`` builds one (a
room generated on the loop). Its ``Boxoban-*`` ids build a ``BoxobanEnv``, whose construction and
``reset`` read a room from a file of 1,000 levels instead (downloading the level set first where
it is missing): file reads.

``PROTOCOLS``: a class the analysis cannot read (its package is not installed, or it wraps an
engine in native code) whose instances the project both ``reset``s and ``step``s is a
simulator: gymnasium's ``Env`` protocol, read from use. Its construction builds an engine of
unknown size (graded high), ``reset`` generates an episode (high), and ``step`` is one engine
step, which adds up only in a loop of steps.
"""

from __future__ import annotations

from asynclint.knowledge.api import BlockingApi, Protocol, entry, many

_NLE = "source: pkg nle 1.3.0 nle/nethack/nethack.py (Nethack: TemporaryDirectory, _new_dl copies libnethack.so)"
_NLE_ENV = "source: pkg nle 1.3.0 nle/env/base.py (NLE(gym.Env) builds nethack.Nethack), nle/env/tasks.py"
_GYMNASIUM = "https://gymnasium.farama.org/api/env/ (Env.reset, Env.step; gymnasium 1.x)"
#: gymnasium environments registered by nle/env/__init__.py, classes of nle/env/tasks.py.
_TASKS = (
    "NetHackScore NetHackStaircase NetHackStaircasePet NetHackOracle NetHackGold NetHackEat NetHackScout "
    "NetHackChallenge"
)
_CLASSES = (
    ("nle.nethack.Nethack", _NLE),
    ("nle.nethack.nethack.Nethack", _NLE),
    ("nle.env.NLE", _NLE_ENV),
    ("nle.env.base.NLE", _NLE_ENV),
    *((f"nle.env.tasks.{task}", _NLE_ENV) for task in _TASKS.split()),
)

_SOKOBAN = (
    "source: pkg gym-sokoban 0.0.6 gym_sokoban/envs/sokoban_env.py (SokobanEnv.__init__ and reset: "
    "room_utils.generate_room, reverse_playing, depth_first_search; step renders rgb_array)"
)
_SOKOBAN_ENV = "gym_sokoban.envs.SokobanEnv"
_SOKOBAN_ROOM = "generates a Sokoban room by a search in pure Python"
_BOXOBAN = (
    "source: pkg gym-sokoban 0.0.6 gym_sokoban/envs/boxoban_env.py (BoxobanEnv.__init__ resets; reset "
    "downloads deepmind/boxoban-levels into .sokoban_cache when it is missing, then select_room lists a "
    "level directory and reads one file of 1,000 levels)"
)
_BOXOBAN_ENV = "gym_sokoban.envs.boxoban_env.BoxobanEnv"
_BOXOBAN_LEVELS = "reads a file of Boxoban levels (downloading the level set first where it is missing)"

APIS: tuple[BlockingApi, ...] = (
    *(
        api
        for cls, source in _CLASSES
        for api in (
            entry(cls, "cpu", "engine-start", "to-thread", source=source),
            *many("cpu", "engine-reset", None, "reset", f"{cls}.", source=source),
            *many("cpu", "engine-step", None, "step", f"{cls}.", source=source),
        )
    ),
    # ``reset=False`` builds the env without a room (the first ``reset`` generates it).
    BlockingApi(
        _SOKOBAN_ENV,
        "cpu",
        "engine-reset",
        "to-thread",
        source=_SOKOBAN,
        what=_SOKOBAN_ROOM,
        off_with=frozenset({"reset=False"}),
    ),
    *many("cpu", "engine-reset", None, "reset", f"{_SOKOBAN_ENV}.", source=_SOKOBAN, what=_SOKOBAN_ROOM),
    *many("cpu", "cpu-heavy", None, "step render", f"{_SOKOBAN_ENV}.", source=_SOKOBAN),
    # A Boxoban room is a level read from disk, not generated.
    *many("fs", "disk-content", "to-thread", _BOXOBAN_ENV, source=_BOXOBAN, what=_BOXOBAN_LEVELS),
    *many("fs", "disk-content", "to-thread", "reset", f"{_BOXOBAN_ENV}.", source=_BOXOBAN, what=_BOXOBAN_LEVELS),
    *many("cpu", "cpu-heavy", None, "step render", f"{_BOXOBAN_ENV}.", source=_SOKOBAN),
)

#: gym-sokoban's classes, each a ``SokobanEnv`` (gym_sokoban/envs/sokoban_env*.py).
_SOKOBAN_CLASSES = (
    "sokoban_env.SokobanEnv sokoban_env_fixed_targets.FixedTargetsSokobanEnv "
    "sokoban_env_pull.PushAndPullSokobanEnv sokoban_env_two_player.TwoPlayerSokobanEnv"
)
RETURNS: dict[str, str] = {
    **{f"gym_sokoban.envs.{path}": _SOKOBAN_ENV for path in _SOKOBAN_CLASSES.split()},
    **{f"gym_sokoban.envs.{path.partition('.')[2]}": _SOKOBAN_ENV for path in _SOKOBAN_CLASSES.split()[1:]},
    # The Boxoban-* ids' classes (sokoban_env_variations.py), exported by gym_sokoban.envs.
    **{f"gym_sokoban.envs.{cls}": _BOXOBAN_ENV for cls in "Boxban_Env0 Boxban_Env0_val Boxban_Env0_test".split()},
    **{f"gym_sokoban.envs.{cls}": _BOXOBAN_ENV for cls in "Boxban_Env1 Boxban_Env1_val".split()},
    "gym_sokoban.envs.boxoban_env.BoxobanEnv": _BOXOBAN_ENV,
}

_IDS = (
    "source: pkg nle 1.3.0 nle/env/__init__.py (registers NetHackScore-v0 ... NetHackChallenge-v0); "
    "pkg minihack 0.1.6 minihack/envs/__init__.py (MiniHack-* ids; MiniHack(NetHackStaircase)); "
    "pkg gym-sokoban 0.0.6 gym_sokoban/envs/available_envs.json (Sokoban-*, FixedTarget-Sokoban-*, "
    "PushAndPull-Sokoban-*, TwoPlayer-Sokoban-*: SokobanEnv subclasses; Boxoban-* reads level files instead)"
)
#: Environment ids whose ``make`` builds an NLE engine: prefixes of the ``repr`` of the id
#: (see :data:`asynclint.knowledge.blocking.BUILT`). Other ids build gymnasium's generic ``Env``.
_NLE_IDS = {
    "'NetHack*": "nle.env.NLE",
    "'MiniHack-*": "nle.env.NLE",
    **{f"'{kind}Sokoban-*": _SOKOBAN_ENV for kind in ("", "FixedTarget-", "PushAndPull-", "TwoPlayer-")},
    "'Boxoban-*": _BOXOBAN_ENV,
}

#: ``gymnasium.make(id, ...)`` / ``gym.make(id, ...)`` build what their id names (source: _IDS).
BUILT: dict[str, tuple[str, int | None, dict[str, str]]] = {
    "gymnasium.make": ("id", 0, _NLE_IDS),
    "gym.make": ("id", 0, _NLE_IDS),
}

_PROTOCOL = f"{_GYMNASIUM}: the protocol, read from use (an instance both reset and stepped)"

PROTOCOLS: dict[str, Protocol] = {
    "simulator": Protocol(
        "simulator",
        frozenset({"reset", "step"}),
        entry("<simulator>", "cpu", "engine-build", None, source=_PROTOCOL),
        (
            ("reset", entry("<simulator>.reset", "cpu", "engine-reset", None, source=_PROTOCOL)),
            ("step", entry("<simulator>.step", "cpu", "engine-step", None, source=_PROTOCOL)),
        ),
    ),
}
