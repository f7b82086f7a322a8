"""The classic stack, also addressable as ``aliasfw.<module>``."""

from .utils.file_utils import load_prompt
from .utils.net_utils import fetch_config

__all__ = ["fetch_config", "load_prompt"]
