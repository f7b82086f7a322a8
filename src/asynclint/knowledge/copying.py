"""What builtin calls and methods do with the values they are given -- read them and keep
nothing, or build something new of their parts -- and the methods through which a class takes
over its own copying: read by the ``deepcopy-memo`` recipe to tell whether a field of an object
can be shared by its deep copies (nothing changes it after ``__init__``)."""

from __future__ import annotations

#: Calls that read their argument and keep nothing of it.
CONSUMERS = frozenset(
    f"builtins.{name}"
    for name in "len isinstance issubclass id bool hash repr str print format any all callable hasattr".split()
) | frozenset({"copy.deepcopy", "json.dumps", "pickle.dumps"})
#: Calls whose result holds parts of their argument (a new container of the same items).
PART_BUILDERS = frozenset(
    f"builtins.{name}" for name in "list tuple set frozenset dict sorted reversed enumerate zip iter min max".split()
) | frozenset({"copy.copy"})  # not `next`: it advances an iterator
#: What makes a value a container (iterating it reads it) rather than an iterator (iterating it
#: advances it, so copies sharing it would share its position).
CONTAINERS = frozenset(
    f"builtins.{name}" for name in "list tuple set frozenset dict sorted str bytes".split()
) | frozenset({"types.MappingProxyType"})
#: Methods of the builtin types that only read their receiver and return new data.
FRESH_METHODS = frozenset(
    "count index find rfind rindex startswith endswith lower upper casefold strip lstrip rstrip split rsplit "
    "splitlines partition rpartition replace format format_map join encode decode hex isdigit isalpha isalnum "
    "isspace islower isupper isdecimal isnumeric isidentifier title capitalize center ljust rjust zfill "
    "removeprefix removesuffix isdisjoint issubset issuperset".split()
)
#: Methods of the builtin types that only read their receiver and return parts of it.
PART_METHODS = frozenset("get keys values items copy union intersection difference symmetric_difference".split())

#: Methods through which a class decides how its instances are copied or pickled.
COPY_HOOKS = frozenset({"__deepcopy__", "__reduce__", "__reduce_ex__", "__getstate__", "__setstate__"})

#: Builtins that reach an object's fields by a computed name (``getattr(self, name)``,
#: ``vars(self)``): in a class that uses them on itself, which fields are read or changed cannot
#: be told from the code, so the ``deepcopy-memo`` recipe shares none.
DYNAMIC_ACCESS = frozenset({"getattr", "setattr", "delattr", "vars"})
