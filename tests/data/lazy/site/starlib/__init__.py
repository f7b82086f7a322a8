"""Star-imports its API from many modules, as litellm's ``__init__`` does (read, never imported)."""


from .images import *
from .chat import *
from .files import *
from .more import *
from .other import *
