"""An environment that reaches the framework's helpers through its public alias paths."""

import aliasfw as af
from aliasfw.files import load_prompt as read_prompt
from aliasfw.helpers import load_prompt
from aliasfw.utils import net_utils
from aliasfw.utils.net_utils import fetch_config, parse_url


async def setup_state(state: dict) -> dict:
    state["config"] = fetch_config(state["url"])  # expect: ASL102 critical
    state["host"] = parse_url(state["url"])[1]  # pure: nothing blocks inside
    state["prompt"] = load_prompt(state["path"])  # expect: ASL107 high
    state["again"] = net_utils.fetch_config(state["url"])  # expect: ASL102 critical
    state["forwarded"] = af.load_prompt(state["path"])  # expect: ASL107 high
    state["aliased"] = read_prompt(state["path"])  # expect: ASL107 high
    return state
