"""An environment holding a class a pack knows by its re-export (``jericho.FrotzEnv``)."""

from jericho import FrotzEnv

GAME = FrotzEnv("zork1.z5")


async def env_response(messages: list, state: dict) -> list:
    GAME.load(state["story"])  # expect: ASL112 medium
    state["score"] = GAME.get_score()  # pure: nothing blocks inside
    GAME.save_transcript(state["path"])  # expect: ASL107 high
    return messages
