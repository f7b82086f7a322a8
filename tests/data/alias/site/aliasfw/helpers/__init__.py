"""A public alias module: the legacy file helpers under a shorter name."""

from aliasfw.legacy.utils.file_utils import *
