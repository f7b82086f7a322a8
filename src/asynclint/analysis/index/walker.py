"""Per-file summary: one ``ast`` parse and one walk -> definitions, bindings and call sites.

Why the stdlib ``ast`` and not libcst here: detection needs names, scopes and positions, not
round-trippable formatting, and ``ast.parse`` is ~10x faster than ``libcst.parse_module``. The
fixers parse with libcst only the files they rewrite and locate nodes by the positions recorded
here. Everything in a :class:`ModuleSummary` is plain data, so summaries can be computed in
worker processes and cached by content hash.

Name resolution is deliberately simple and flow-ordered: a name means what its latest binding
in the enclosing function (then module, then builtins, then what a star import may bring) says
at the point of use. Values are tracked only as far as the knowledge base cares: which
module/function a name denotes (:class:`Sym`), which type of object an expression is
(:class:`Inst`), which attribute of ``self`` it reads (:class:`SelfRef`, settled once the whole
class has been seen), or which callables a list holds (:class:`Refs`).

Types are dotted names. A call's result is ``callee()`` unless the knowledge base names the
instance after its producer (``sqlite3.connect``, ``openai.OpenAI``): what a project function
returns is only known once every summary is read, so the project graph settles ``make()``,
``pkg.Judge()`` (an instance of a project class) and ``JUDGE.chat.completions.create()`` (a
response, never the client) from the summaries' exports.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence

from asynclint.analysis.index.annotations import module_parameters, tuple_return_annotations
from asynclint.analysis.index.applied import applied_decorators
from asynclint.analysis.index.attr_evidence import attribute_members, settle_conflicts, stored_outside
from asynclint.analysis.index.bodies import Bodies, functions
from asynclint.analysis.index.callable_aliases import callable_aliases
from asynclint.analysis.index.clocks import module_numbers
from asynclint.analysis.index.conditions import Conditions
from asynclint.analysis.index.corpora import Built, built_collections, walked_names
from asynclint.analysis.index.definitions import Definitions
from asynclint.analysis.index.diskcache import DiskCaches, disk_caches
from asynclint.analysis.index.docexamples import documented_rewards
from asynclint.analysis.index.exponents import exponential_collections, merged
from asynclint.analysis.index.expressions import Expressions
from asynclint.analysis.index.factories import HandedValues
from asynclint.analysis.index.fileobjects import tie_buffered_writes, tie_file_objects
from asynclint.analysis.index.frames import Frame
from asynclint.analysis.index.generics import GenericAccessors
from asynclint.analysis.index.grammar import without_type_params
from asynclint.analysis.index.helpers import (
    PYTHON_VERSION,
    callable_runners,
    exported_name,
    has_main_block,
    path_importers,
    public_names,
)
from asynclint.analysis.index.importflags import flag_guards, import_flags
from asynclint.analysis.index.inference import Inference
from asynclint.analysis.index.iteration import Iteration
from asynclint.analysis.index.lazy_exports import lazy_exports
from asynclint.analysis.index.literals import module_literals
from asynclint.analysis.index.patches import module_patches
from asynclint.analysis.index.products import product_builders
from asynclint.analysis.index.recording import Recording
from asynclint.analysis.index.records import (
    CallSite,
    ClassInfo,
    Function,
    FunctionRef,
    Handoff,
    IndexError_,
    LoopNest,
    ModuleSummary,
    WorkLoop,
)
from asynclint.analysis.index.registered_lists import RegisteredLists
from asynclint.analysis.index.return_exports import ReturnExports
from asynclint.analysis.index.rowkeys import RowShapes
from asynclint.analysis.index.rowtests import RowTests, row_tests
from asynclint.analysis.index.runner_tuples import element_runners
from asynclint.analysis.index.scopes import Scopes
from asynclint.analysis.index.selfrefs import SelfReferences
from asynclint.analysis.index.shadowed import prune_shadowed
from asynclint.analysis.index.sizes import module_mappings, module_settings, module_sizes, resolved_sizes
from asynclint.analysis.index.statements import Statements
from asynclint.analysis.index.streams import consumed_streams
from asynclint.analysis.index.switches import switches
from asynclint.analysis.index.values import Inst, Refs, Rooted, SelfRef, Sym, Value
from asynclint.analysis.index.walks import remembered_walks
from asynclint.knowledge.catalogue import Catalogue


class Indexer(
    Iteration,
    Statements,
    Definitions,
    Conditions,
    Expressions,
    HandedValues,
    RegisteredLists,
    Recording,
    Inference,
    GenericAccessors,
    ReturnExports,
    Scopes,
    SelfReferences,
):
    """One walk over one file's tree; its parts live in the modules of this package."""

    def __init__(
        self,
        source: str,
        path: str,
        module: str,
        package: str,
        catalogue: Catalogue,
        imports: Sequence[tuple[str, str]] = (),
        library: bool = False,
    ):
        self.source = source
        # An installed package read by deep mode: what its attributes and parameters may hold of
        # several classes is not read as a union (an alternative its configuration picks, httpx's
        # transport pool a proxy only when one is set, would be followed as if it ran).
        self.library = library
        self.path = path
        self.module = module
        self.package = package
        self.catalogue = catalogue
        self.imports = dict(imports)  # top-level name -> the project module it means here
        self._project_roots = frozenset(module.partition(".")[0] for module in self.imports.values())
        self.functions: list[Function] = [Function("<module>", "<module>", 1, False, "module")]
        self.calls: list[CallSite] = []
        self.refs: list[FunctionRef] = []
        self.handoffs: list[Handoff] = []
        self.nests: list[LoopNest] = []
        self.work_loops: list[WorkLoop] = []
        self.work_sizes: dict[str, tuple[str, ...]] = {}
        self.work_numbers: dict[str, float] = {}
        self.products: dict[str, int] = {}  # the module's product builders (:mod:`.products`)
        #: Class, function or module -> what it builds over a whole source (:mod:`.corpora`).
        self.collections: dict[str, dict[str, Built]] = {}
        self.walked: frozenset[str] = frozenset()  # every name of those
        self.work_copies: list[tuple[int, int, int, bool]] = []
        self._built: dict[int, tuple[int, ...]] = {}  # id of a call node -> the hand-overs it makes
        self._handed_values: dict[int, Value] = {}  # hand-over index -> what was handed
        self._kept_value: ast.expr | None = None  # the value of an assignment to self.x / a global
        self._entered: ast.expr | None = None  # the context expression of the ``with`` item being visited
        #: id of a call node -> the coroutine consumer it is passed to, and the loop that consumer
        #: names (see CallSite.loop)
        self._consumed: dict[int, tuple[str, str | Rooted]] = {}
        #: Identifiers read as a name or an attribute anywhere in the module (ModuleSummary.loaded).
        self.loaded: set[str] = set()
        self.values: list[tuple[str, str | Rooted]] = []
        self.class_attrs: dict[str, dict[str, Value]] = {}
        #: (class, attribute) -> the type an annotated assignment of ``self.<attribute>`` declares.
        self.declared_attrs: dict[tuple[str, str], Value] = {}
        #: (class, attribute) -> every value assigned to it, in order (``settle_conflicts``).
        self.attr_assigned: dict[tuple[str, str], list[Value]] = {}
        self.outside_stores: list[tuple[str, str, Value]] = []
        self.class_methods: dict[str, list[str]] = {}
        self.class_bases: dict[str, tuple[str, ...]] = {}
        self.unnamed_bases: set[str] = set()
        self.class_type_args: dict[str, tuple[str, ...]] = {}
        self.class_field_flags: dict[str, tuple[tuple[str, str, int], ...]] = {}
        self.class_fields: dict[str, list[tuple[str, str]]] = {}
        #: (class, attribute) -> what its assignments in the class's methods bind it to: the
        #: ``__init__`` flag parameter, or "" for anything else (see ClassInfo.flag_attrs).
        self.attr_sources: dict[tuple[str, str], set[str]] = {}
        self.attr_generics: dict[str, dict[str, frozenset[str]]] = {}
        #: (class, attribute) -> (method, the constant that switches something off it is bound to, or
        #: "") per assignment (see ClassInfo.set_later).
        self.attr_setters: dict[tuple[str, str], set[tuple[str, str]]] = {}
        #: Class -> attribute -> (line, column) of the call that built what it holds (``None``:
        #: assigned from more than one place).
        self.class_built: dict[str, dict[str, tuple[int, int] | None]] = {}
        self.state_values: dict[str, str] = {}  # see ModuleSummary.state_values
        self.injected: dict[str, str | Rooted] = {}  # see ModuleSummary.injected
        self.injected_payloads: list[tuple[str, str, str]] = []  # see ModuleSummary.injected_payloads
        self._tuple_returns: dict[str, list[ast.expr]] = {}  # see annotations.tuple_return_annotations
        self._runners: dict[str, int] = {}  # see helpers.callable_runners
        self._element_runners: dict[str, tuple[int, int]] = {}  # see runner_tuples.element_runners
        self._importers: dict[str, int] = {}  # see helpers.path_importers
        self._aliases: frozenset[str] = frozenset()  # see callable_aliases.callable_aliases
        self.alias_uses: list[tuple[str, str]] = []  # see ModuleSummary.alias_uses
        self.registered: list[tuple[str, str, str]] = []  # see ModuleSummary.registered
        self._disk_caches = DiskCaches()  # see diskcache.disk_caches
        self._import_flags: dict[str, str] = {}  # see importflags.flag_guards
        #: ``from __future__ import annotations``: annotations stay strings at run time.
        self._postponed = False
        self.class_lines: dict[str, int] = {}
        self.shared_attrs: dict[str, frozenset[str]] = {}
        #: Per class: the keys of the rollout's state each of its stop checks answers from (stopkeys.class_stop_keys).
        self.stop_keys: dict[str, dict[str, frozenset[str]]] = {}
        #: The classes whose stop checks answer from some: the framework's terminal keys and theirs.
        self.ending_keys: dict[str, frozenset[str]] = {}
        self.attr_counts: dict[str, dict[str, int]] = {}
        self.callables: list[tuple[str, tuple[str | Rooted, ...]]] = []
        self.returns: list[tuple[str, tuple[str | Rooted, ...]]] = []  # see ModuleSummary.returns
        self.declared: list[str] = []  # see ModuleSummary.declared
        self.returned: list[tuple[int, tuple[tuple[str, str], ...]]] = []  # see ModuleSummary.returned
        self.row_fields: list[tuple[str, str, str, int]] = []  # see ModuleSummary.row_fields
        self.factories: set[tuple[str, str]] = set()  # see ModuleSummary.factories
        self.stored_out: set[tuple[str, str]] = set()  # see ModuleSummary.stored_out
        self._row_tests = RowTests()  # tests of the rollout's row's keys (rowtests.row_tests)
        self._bodies = Bodies()  # each function's statements and nodes, read once for every pass
        self.state_fields: list[tuple[str, str]] = []  # see ModuleSummary.state_fields
        self.state_stores: list[tuple[int, str]] = []  # see ModuleSummary.state_stores
        self.state_payloads: list[tuple[str, str, str]] = []  # see ModuleSummary.state_payloads
        self.returned_fields: list[tuple[int, int, str, str, str]] = []  # see ModuleSummary.returned_fields
        self.yielded_fields: list[tuple[int, int, str, str, str]] = []  # see ModuleSummary.yielded_fields
        self.named_results: dict[tuple[int, str], str] = {}  # see PayloadsHeld.named_results
        self.direct_payload = 0  # see PayloadsHeld.direct_payload
        self.payloads_read: dict[int, tuple[ast.expr, tuple[str, str]]] | None = None  # see PayloadsHeld
        self.class_properties: dict[str, set[str]] = {}
        self.pending: list[int] = []  # indexes of calls with a SelfRef target
        self._method_returns: dict[str, str | Rooted] = {}  # "mod.Cls.method()" -> type; known once all is read
        self._chains: dict[str, list[str]] = {}
        self.stars: list[str] = []
        self.star_names: dict[tuple[int, str], str] = {}  # see Scopes._starred
        self.imported: set[str] = set()
        self.top_imports: set[str] = set()
        #: Module-level names a function fills under ``global`` -> what each assignment there
        #: builds ("" for anything else): exported as the name's type when they agree.
        self._global_fills: dict[str, set[str]] = {}
        #: ``self.<attr>`` reads: (caller, class, attribute, in a loop?, lambdas) -> the first one
        self._reads: dict[tuple, ast.Attribute] = {}
        #: Lambdas handed to a call whose body is being walked: (function index, loop depth at the lambda).
        self._lambdas: list[tuple[int, int]] = []
        self._ascii = source.isascii()
        self._lines: list[bytes] | None = None
        self.frames: list[Frame] = []

    def run(self, tree: ast.Module) -> ModuleSummary:
        module_frame = Frame("module", 0, "")
        self.frames.append(module_frame)
        self._tuple_returns = tuple_return_annotations(tree, self.module)
        self._runners = callable_runners(tree, self.module)
        self._element_runners = element_runners(tree, self.module)
        # (a module that never writes ``import_module`` has none: most, and the search walks every function)
        self._importers = path_importers(tree, self.module) if "import_module" in self.source else {}
        self._aliases = callable_aliases(tree)
        self._disk_caches = disk_caches(tree)
        own_flags = import_flags(tree)
        self._import_flags = flag_guards(tree, self.package, own_flags)
        self._module_params = module_parameters(tree, self.source)
        self._mappings = module_mappings(tree)
        self._literals = module_literals(tree)
        defined, lines = list(functions(tree.body)), self.source.splitlines()
        self._row_tests = row_tests(tree, lines, self._bodies)
        self._postponed = any(
            isinstance(node, ast.ImportFrom)
            and node.module == "__future__"
            and any(alias.name == "annotations" for alias in node.names)
            for node in tree.body
        )
        self._prebind(tree.body)
        self.work_sizes = module_sizes(tree)
        self.work_numbers = module_numbers(tree)
        self.products = product_builders(tree, self.source)
        self.collections = built_collections(tree, self._denoted)
        exponential, words = exponential_collections(tree, self._denoted)
        merged(self.collections, exponential)
        self.walked = walked_names(self.collections) | words
        filled = self._bind_filled_globals(tree.body)
        self.visit_body(tree.body)
        switch_fields, field_writes = switches(tree)
        rows = RowShapes(self._denoted, self._bodies)
        indexes = {(function.line, function.name): index for index, function in enumerate(self.functions)}
        rows.read(defined, indexes, self.source, lines)
        exports = tuple((name, value.name) for name, value in module_frame.bindings.items() if isinstance(value, Sym))
        bound = set(module_frame.bindings)
        exports += tuple(export for export in lazy_exports(tree, self.module, self.package) if export[0] not in bound)
        for name, value in module_frame.bindings.items():
            if isinstance(value, Inst) and value == filled.get(name):
                fills = self._global_fills.get(name, set())
                if len(fills) == 1 and (built := next(iter(fills))):
                    self.values.append((name, built))  # ``_model = None``, then ``global _model; _model = X()``
            elif isinstance(value, Inst):
                self.values.append((name, value.name))
            elif isinstance(value, Refs):
                self._export_callables(name, (value,))
        for cls, attr, value in stored_outside(self.outside_stores, self.class_lines, self.callables, self.module):
            self._set_class_attr(cls, attr, value)
        settle_conflicts(self.class_attrs, self.attr_assigned)
        for cls, attrs in self.class_attrs.items():
            for attr, value in attrs.items():
                if isinstance(value, Refs):  # ``self.checks = {"len": check_len}``, for ``Scorer().checks[k](x)``
                    self._export_callables(f"{cls[len(self.module) + 1 :]}().{attr}", (value,))
        self._method_returns = {f"{self.module}.{name}": type_ for name, type_ in self.values if name.endswith("()")}
        self._settle_self_refs()
        self._settle_reads()
        tie_file_objects(defined, self._bodies, self.functions, self.calls, self._col, self.catalogue)
        tie_buffered_writes(defined, self._bodies, self.functions, self.calls, self._col)
        consumed_streams(defined, self.functions, self.calls, self.refs, self._col)
        applied_decorators(tree, self.module, self.functions, self.refs, self._col)
        classes = tuple(
            ClassInfo(
                qualname=qn[len(self.module) + 1 :],
                line=self.class_lines[qn],
                bases=self.class_bases.get(qn, ()),
                unnamed_bases=qn in self.unnamed_bases,
                methods=tuple(self.class_methods.get(qn, ())),
                attrs=tuple(
                    (attr, exported)
                    for attr, value in self.class_attrs.get(qn, {}).items()
                    if (exported := _attribute_type(value)) is not None
                ),
                properties=tuple(sorted(self.class_properties.get(qn, ()))),
                type_args=self.class_type_args.get(qn, ()),
                fields=tuple(self.class_fields.get(qn, ())),
                flag_attrs=tuple(
                    (attr, next(iter(sources)))
                    for (owner, attr), sources in sorted(self.attr_sources.items())
                    if owner == qn and len(sources) == 1 and "" not in sources
                ),
                field_flags=tuple(
                    flag
                    for flag in self.class_field_flags.get(qn, ())
                    if (qn, flag[0]) not in self.attr_sources  # (a method sets it: no switch)
                ),
                built=tuple(
                    (attr, *site) for attr, site in sorted(self.class_built.get(qn, {}).items()) if site is not None
                ),
                set_later=tuple(
                    (attr, start, tuple(sorted({method for method, value in setters if value != start})))
                    for (owner, attr), setters in sorted(self.attr_setters.items())
                    if owner == qn and (start := _initial_off(setters))
                ),
                unions=tuple(
                    (attr, members)
                    for attr, value in self.class_attrs.get(qn, {}).items()
                    if not self.library
                    and (members := attribute_members(value, self.attr_assigned.get((qn, attr), [])))
                ),
                generics=tuple(
                    (attr, tuple(sorted(accessors))) for attr, accessors in self.attr_generics.get(qn, {}).items()
                ),
            )
            for qn in self.class_lines
        )
        return ModuleSummary(
            self.path,
            self.module,
            tuple(self.functions),
            classes,
            tuple(self.calls),
            tuple(self.refs),
            tuple(self.handoffs),
            exports,
            tuple(self.values),
            tuple(self.callables),
            tuple(self.stars),
            public_names(tree.body),
            state_values=tuple(sorted(self.state_values.items())),
            injected=tuple(sorted(self.injected.items())),
            injected_payloads=tuple(sorted(set(self.injected_payloads))),
            runners=tuple(sorted(self._runners.items())),
            importers=tuple(sorted(self._importers.items())),
            registered=tuple(self.registered),
            callable_aliases=tuple(sorted(self._aliases)),
            alias_uses=tuple(self.alias_uses),
            patched=module_patches(tree, self._denoted),
            flags=tuple(sorted(own_flags.items())),
            returns=tuple(self.returns),
            declared=tuple(self.declared),
            returned=tuple(self.returned),
            built=tuple(
                sorted(
                    (name, *site)
                    for name, site in module_frame.built.items()
                    if isinstance(module_frame.bindings.get(name), Inst)
                )
            ),
            loaded=tuple(sorted(self.loaded)),
            imported=tuple(sorted(self.imported)),
            main_block=has_main_block(tree.body),
            nests=tuple(self.nests),
            row_fields=tuple(self.row_fields),
            state_fields=tuple(sorted(set(self.state_fields))),
            state_stores=tuple(self.state_stores),
            state_payloads=tuple(sorted(set(self.state_payloads))),
            returned_fields=tuple(sorted(set(self.returned_fields))),
            yielded_fields=tuple(sorted(set(self.yielded_fields))),
            work_loops=tuple(self.work_loops),
            copies=tuple(self.work_copies),
            row_shapes=tuple(rows.shapes),
            settings=tuple(sorted(module_settings(tree).items())),
            sizes=resolved_sizes(self.work_sizes, self.module, self._denoted),
            switch_fields=switch_fields,
            field_writes=field_writes,
            factories=tuple(sorted(self.factories)),
            stored_out=tuple(sorted(self.stored_out)),
            documented=documented_rewards(tree) if not self.library else (),
        )

    def _denoted(self, expr: ast.expr) -> str | None:
        """The dotted name ``expr`` denotes where the walk is (``itertools.product``), if any."""
        value = self.infer(expr)
        return value.name if isinstance(value, Sym) else None


def index_source(
    source: str,
    path: str,
    module: str,
    package: str,
    catalogue: Catalogue,
    imports: Sequence[tuple[str, str]] = (),
    library: bool = False,
) -> ModuleSummary:
    """Summarise one file. Raises :class:`IndexError_` with a one-line message on bad input.
    ``imports`` maps top-level names to the project modules they mean from this file; ``library``:
    the file is an installed package's, read by deep mode."""
    try:
        tree = ast.parse(source, filename=path)
    except SyntaxError as exc:
        if exc.lineno is None:  # not a grammar error: null bytes (other versions: ValueError)
            raise IndexError_(f"cannot parse: {exc.msg}") from None
        # The grammar is the running interpreter's: a file written for a newer Python fails here.
        # PEP 695's forms (3.12) are read through an in-place rewrite; for anything else the
        # message says which Python read it.
        tree, source = _newer_grammar(source, path, exc)
    except ValueError as exc:
        raise IndexError_(f"cannot parse: {exc}") from None
    except (MemoryError, RecursionError):  # the parser's own stack overflows on absurd nesting
        raise IndexError_("expression nesting too deep to parse") from None
    try:
        prune_shadowed(tree)  # a first copy of a function or method defined again is never run
        with remembered_walks(tree):  # the tree stays as it is from here on
            return Indexer(source, path, module, package, catalogue, imports, library).run(tree)
    except RecursionError:
        raise IndexError_("expression nesting too deep to analyse") from None


def _attribute_type(value: Value) -> str | Rooted | None:
    """What a class's summary says its ``self.<attr>`` holds: a dotted type name, "" for a value
    nothing types (a parameter, an unknown call's result, a table of callables) -- a nearer class
    setting it hides its bases' -- or ``None`` for a ``super()`` path, which names nothing."""
    if isinstance(value, (Inst, Sym, SelfRef)):
        exported = exported_name(value)
        if exported is None and isinstance(value, SelfRef) and value.path:
            return None  # a `super()` path
        return exported or ""
    return ""


def _newer_grammar(source: str, path: str, error: SyntaxError) -> tuple[ast.Module, str]:
    """The tree of ``source`` with PEP 695's syntax rewritten (:mod:`.grammar`), and the text
    it was parsed from; :class:`IndexError_` with ``error`` when that does not parse either."""
    rewritten = without_type_params(source)
    if rewritten is not None:
        try:
            return ast.parse(rewritten, filename=path), rewritten
        except SyntaxError:
            pass
    raise IndexError_(f"syntax error at line {error.lineno}: {error.msg} (read as Python {PYTHON_VERSION})") from None


def _initial_off(setters: set[tuple[str, str]]) -> str:
    """The constant ``__init__`` binds an attribute to, when that is its only binding there and one
    that switches something off (see ClassInfo.set_later); "" otherwise."""
    start = {value for method, value in setters if method == "__init__"}
    return next(iter(start)) if len(start) == 1 else ""
