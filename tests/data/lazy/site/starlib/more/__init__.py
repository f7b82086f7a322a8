from .tools import *
