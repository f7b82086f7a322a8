"""What the names of ``typing``, ``dataclasses``, pydantic and attrs mean to the indexer reading
annotations and field declarations: which wrap a type, which are too general to type a receiver,
which hold items of a type, which declare a field. Qualified as the indexer resolves imports."""

from __future__ import annotations

#: ``x: T = field(...)`` declares a field of type ``T``; the call's own result says nothing.
FIELD_SPECIFIERS = frozenset(
    {"dataclasses.field", "pydantic.Field", "pydantic.fields.Field", "attrs.field", "attr.ib", "attr.attrib"}
)
#: Annotations wrapping the type of the value: ``Optional[T]``, ``Union[A, B]``, ``Annotated[T, m]``.
WRAPPING_ANNOTATIONS = frozenset(f"typing.{name}" for name in ("Optional", "Union", "Annotated", "ClassVar", "Final"))
#: Roots of annotations too general to type a receiver: ``dict``, ``Any``, ``Iterator[T]``, ``Self``.
VAGUE_ANNOTATIONS = frozenset({"builtins", "typing", "typing_extensions", "collections", "types", "abc"})
#: Annotations that say nothing of a value's type (an instance of them, as the indexer names it): a
#: name or attribute so annotated holds whatever the project stores in it (``persona: Any = None``,
#: then ``env.persona = Persona(...)``). ``dict`` or ``str`` say something: they are not here.
SAYS_NOTHING = frozenset({"typing.Any()", "typing_extensions.Any()", "builtins.object()"})
#: Containers whose last type argument is the type of the items ``x[key]`` reads.
CONTAINER_ANNOTATIONS = frozenset(
    {
        *(f"builtins.{name}" for name in ("dict", "list")),
        *(f"typing.{name}" for name in ("Dict", "List", "Mapping", "MutableMapping", "Sequence", "MutableSequence")),
        *(f"collections.abc.{name}" for name in ("Mapping", "MutableMapping", "Sequence", "MutableSequence")),
        "collections.defaultdict",
        "collections.OrderedDict",
        "typing.DefaultDict",
        "typing.OrderedDict",
    }
)
#: Declared types of a field that say nothing of its value (as the graph writes an instance of them):
#: ``make_api: Callable``, ``api: Any``. Such a field holds what the class's constructions pass there
#: (``Domain(make_api=make_api)``): :class:`asynclint.analysis.fills.Fills`.
OPEN_FIELD_TYPES = frozenset(
    {
        "typing.Any()",
        "typing_extensions.Any()",
        "builtins.object()",
        "collections.abc.Callable()",
        "typing.Callable()",
        "typing_extensions.Callable()",
    }
)
#: ``type[T]``: the annotated value is a class, not an instance.
CLASS_ANNOTATIONS = frozenset({"builtins.type", "typing.Type", "typing_extensions.Type"})
#: ``env_factory: Callable[[], Environment]``: what calling a maker taking nothing returns is its last
#: type argument, an instance of that class, as calling a ``type[Environment]`` builds one.
CALLABLE_ANNOTATIONS = frozenset({"typing.Callable", "collections.abc.Callable", "typing_extensions.Callable"})
#: ``cast(T, value)``: the value is declared a ``T``.
CASTS = frozenset({"typing.cast", "typing_extensions.cast"})
#: Bases making a class a ``TypedDict``, whose items are typed by its annotated fields.
TYPED_DICTS = frozenset({"typing.TypedDict", "typing_extensions.TypedDict"})
#: Bases making a class an enumeration: a field annotated with one holds one member, a scalar.
ENUM_BASES = frozenset(f"enum.{name}" for name in ("Enum", "IntEnum", "StrEnum", "Flag", "IntFlag", "ReprEnum"))
#: ``class Client(Protocol)``: a structural type. A value declared one is an instance of any class
#: defining the methods it declares, derived from it or not.
PROTOCOL_BASES = frozenset({"typing.Protocol", "typing_extensions.Protocol"})
#: The last part of a class name that says its instances hold a configuration (``BaseClientConfig``,
#: ``ServerSettings``): a memo keyed by a dump of one (``key = config.model_dump_json()``) fills
#: once per configuration, which a process has a few of, not once per rollout's data. (Not
#: ``Params``/``Options``: a tool's ``SearchParams`` or a request's ``RequestOptions`` is per call.)
CONFIGURATION_SUFFIXES = ("Config", "Configuration", "Settings")
#: Methods that dump the object they are called on (pydantic v2 and v1: a text, or a dict to dump
#: further), and functions that turn their first argument into a key (``json.dumps(c.model_dump())``).
KEY_DUMP_METHODS = frozenset({"model_dump_json", "model_dump", "json", "dict"})
KEY_DUMP_FUNCTIONS = frozenset(
    {"json.dumps", "dataclasses.asdict", "builtins.repr", "builtins.str", "builtins.hash", "builtins.id"}
)
#: Calls whose class arguments are types tested or declared, never classes the call may build
#: (``isinstance(src, (FredSource, NoaaSource))``, ``cast(Source, value)``).
TYPE_TESTS = frozenset(
    {
        "builtins.isinstance",
        "builtins.issubclass",
        "typing.TypeVar",
        "typing_extensions.TypeVar",
        "typing.NewType",
        *CASTS,
    }
)
