"""The CARLA driving simulator's Python client (``carla``): a server driven over RPC.

Every call of ``carla.Client`` and of the objects it hands out goes through LibCarla's
``client::detail::Client``, which sends an RPC in one of two ways: ``CallAndWait`` waits for the
server's answer (a network round trip, and for some calls the server's work: loading a map,
simulating a frame), ``AsyncCall`` sends and returns at once. So ``World.tick`` (a tick cue, then a
wait until the episode's stream reports that frame), ``apply_settings`` (which waits for the frame
too), ``spawn_actor``, ``get_blueprint_library``, ``get_settings``, ``Actor.destroy`` and
``Client.load_world`` block; ``apply_control``, ``set_transform``, ``set_target_velocity``,
``set_weather``, ``apply_batch`` are sent without waiting, and the snapshot getters
(``get_location``, ``get_transform``, ``get_velocity``, ``get_snapshot``) read the last frame the
client streamed in: neither is entered. ``Client.get_world`` and ``World.get_map`` are not entered
either: the first call on a client opens the episode / fetches the map, later ones return what
the client holds (the map is fetched again only after it changed), and projects make the first
call where they connect. ``get_actors`` and ``get_random_location_from_navigation`` are: the
first fetches the descriptions of the actors the client has not seen (all of them on a fresh
client), the second downloads the navigation mesh on its first call. ``Vehicle.set_autopilot``
builds a Traffic Manager handle for the port and registers the vehicle with it; a
``TrafficManager``'s methods talk to the Traffic Manager, which is a server of its own when
another client started it. No async API exists; a worker thread frees the loop (the client is
shared by the threads of one process)."""

from __future__ import annotations

from asynclint.knowledge.api import BlockingApi, many

_CLIENT_CPP = (
    "source: github carla-simulator/carla LibCarla/source/carla/client/detail/Client.cpp (0.9.x, commit "
    "01ed348: version, load_new_episode, get_episode_info, get_map_info, get_actor_definitions, "
    "get_episode_settings, set_episode_settings, spawn_actor, destroy_actor, tick_cue, ... are CallAndWait; "
    "set_actor_*, apply_control_*, set_weather_parameters, apply_batch are AsyncCall)"
)
_SIMULATOR_CPP = (
    "source: github carla-simulator/carla LibCarla/source/carla/client/detail/Simulator.cpp (0.9.x, commit "
    "06b3a24: Tick sends the tick cue and waits for the frame, SetEpisodeSettings waits for the frame, "
    "LoadEpisode waits for the new episode, GetCurrentEpisode validates versions and waits for a tick)"
)
_VEHICLE_CPP = (
    "source: github carla-simulator/carla LibCarla/source/carla/client/Vehicle.cpp (0.9.x, commit 03d569a: "
    "SetAutopilot builds a TrafficManager and registers the vehicle; GetPhysicsControl is CallAndWait)"
)
_CACHED = (
    "source: github OpenHUTB/carla_cpp (CARLA 0.9.15 with comments) LibCarla/source/carla/client/detail/"
    "Simulator.cpp (GetCurrentMap fetches only without a cached map or after the map changed; "
    "GetReadyCurrentEpisode only while no episode is open, GetRandomLocationFromNavigation builds the "
    "navigation on its first call), Episode.cpp (GetActors fetches the ids the client has not seen)"
)
_TM = (
    "source: github carla-simulator/carla LibCarla/source/carla/trafficmanager/TrafficManagerRemote.cpp "
    "(each method forwards to TrafficManagerClient), TrafficManagerClient.h (each an rpclib call that waits)"
)
_WHAT = "sends an RPC to the CARLA server and waits for its answer"

#: ``carla.Client`` methods that wait on the server (``set_timeout``, ``get_client_version``,
#: ``apply_batch``, ``stop_recorder`` and ``set_replayer_time_factor`` do not; ``get_world``
#: does on a client's first call only, see _CACHED).
_CLIENT_CALLS = (
    "get_server_version load_world reload_world generate_opendrive_world get_available_maps "
    "apply_batch_sync get_trafficmanager start_recorder replay_file show_recorder_file_info "
    "show_recorder_collisions show_recorder_actors_blocked"
)
#: ``carla.World`` methods that wait on the server (``set_weather`` is an AsyncCall; ``get_snapshot``
#: and ``on_tick`` read or subscribe to the client's own stream; ``get_map`` returns the client's
#: cached map, see _CACHED).
_WORLD_CALLS = (
    "tick wait_for_tick get_settings apply_settings get_blueprint_library spawn_actor try_spawn_actor "
    "get_spectator get_weather"
)
#: ``carla.World`` methods that fetch on a client's first use, then read what it holds.
_FIRST_CALLS = "get_actors get_random_location_from_navigation"
#: Actor classes whose ``destroy`` is a ``destroy_actor`` CallAndWait.
_ACTORS = "Actor Vehicle Walker Sensor ServerSideSensor ClientSideSensor TrafficLight TrafficSign WalkerAIController"
#: ``carla.Vehicle`` methods that wait (``apply_control``, ``apply_physics_control`` are AsyncCall).
_VEHICLE_CALLS = "set_autopilot get_physics_control"

APIS: tuple[BlockingApi, ...] = (
    *many("sdk", "network", "to-thread", _CLIENT_CALLS, "carla.Client.", source=_CLIENT_CPP, what=_WHAT),
    *many("sdk", "network", "to-thread", _WORLD_CALLS, "carla.World.", source=_SIMULATOR_CPP, what=_WHAT),
    # They wait on a client that has not yet fetched what they need: every fresh client.
    *many("sdk", "network", "to-thread", _FIRST_CALLS, "carla.World.", source=_CACHED, what=_WHAT),
    *(
        api
        for actor in _ACTORS.split()
        for api in many("sdk", "network", "to-thread", "destroy", f"carla.{actor}.", source=_CLIENT_CPP, what=_WHAT)
    ),
    # ``spawn_actor`` is declared to return ``carla.Actor`` but hands out the blueprint's subclass:
    # a vehicle's methods called on what it returned are the vehicle's.
    *(
        api
        for cls in ("Vehicle", "Actor")
        for api in many("sdk", "network", "to-thread", _VEHICLE_CALLS, f"carla.{cls}.", source=_VEHICLE_CPP, what=_WHAT)
    ),
    BlockingApi(
        "carla.TrafficManager.**", "sdk", "network", "to-thread", frozenset({"get_port"}), source=_TM, what=_WHAT
    ),
)

RETURNS: dict[str, str] = {
    **{f"carla.Client.{method}()": "carla.World" for method in ("get_world", "load_world", "reload_world")},
    "carla.Client.get_trafficmanager()": "carla.TrafficManager",
    "carla.World.spawn_actor()": "carla.Actor",
    "carla.World.try_spawn_actor()": "carla.Actor",
    "carla.World.get_map()": "carla.Map",
}
