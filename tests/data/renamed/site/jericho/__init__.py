"""jericho 3.3.1's shape: the package re-exports the class its module defines."""

from .jericho import FrotzEnv

__all__ = ["FrotzEnv"]
