"""Project call graph: which functions run on the event loop, and the shortest chain proving it.

Hot roots are the entry points something outside the project runs on the loop: framework hooks
and the callables registered with the framework, coroutines started as tasks of their own
(``asyncio.create_task``, ``gather``, ``TaskGroup.create_task``), loop callbacks, configured
entry points, and every ``async def`` that no project code calls or awaits (a server's handler,
a callback some library awaits). A coroutine the project awaits is hot only through its callers,
so its chain starts at the real entry point; one run by ``asyncio.run`` is a program's entry
point, cold like the code that starts the loop. Cold roots (``load_environment``, ``__init__``,
teardown, test functions) stay cold unless a hot function also reaches them. A function is hot
when a hot function calls it directly -- not when it is only handed to ``asyncio.to_thread`` or
an executor. Calls resolve across modules through imports, re-exports and star imports,
``self.method()`` through base classes defined anywhere in the project, and to the overrides of
the method in the project's subclasses (class-hierarchy analysis: ``self`` may be any of them).
Values resolve across modules from the summaries' exports (:meth:`ProjectGraph.resolve`):
module-level instances, what functions and methods return, attributes set on ``self`` in any
class of the MRO, properties, and the callables that lists and factories hold.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Mapping, Sequence
from sys import intern

from asynclint.analysis.background import Background
from asynclint.analysis.cycles import CycleMemo
from asynclint.analysis.fills import Fills
from asynclint.analysis.given import GivenArgs
from asynclint.analysis.graph_records import (
    OVERLOAD,
    Estimate,
    FunctionId,
    Given,
    HotInfo,
    HotState,
    RegisteredElsewhere,
    by_slot,
)
from asynclint.analysis.groups import Groups
from asynclint.analysis.handovers import Handovers
from asynclint.analysis.hierarchy import Hierarchy
from asynclint.analysis.hooks import DeclaredHooks
from asynclint.analysis.hot import HotSet
from asynclint.analysis.index.importflags import flagged_name, installed_name
from asynclint.analysis.index.loops import WorkLoop
from asynclint.analysis.index.records import CallSite, ClassInfo, FunctionRef, ModuleSummary
from asynclint.analysis.index.values import CallPart, Marker, Rooted
from asynclint.analysis.instances import Instances
from asynclint.analysis.parameters import untyped
from asynclint.analysis.programs import Programs
from asynclint.analysis.rows import RowKeys
from asynclint.analysis.uses import Uses
from asynclint.analysis.warming import Warming
from asynclint.analysis.work import Work
from asynclint.knowledge.catalogue import Catalogue
from asynclint.knowledge.distributions import modules_of
from asynclint.knowledge.frameworks import REGISTRATIONS, Hook, HookClass, Registration, offloaded_hooks
from asynclint.knowledge.functions import MEMOIZERS


class ProjectGraph(
    Handovers,
    Fills,
    Hierarchy,
    DeclaredHooks,
    HotSet,
    Background,
    Warming,
    GivenArgs,
    Groups,
    Instances,
    Programs,
    RowKeys,
    Uses,
    Work,
):
    """The project's summaries read as one program; built once, then asked."""

    def __init__(
        self,
        summaries: Sequence[ModuleSummary],
        hot_roots: Iterable[str] = (),
        cold_roots: Iterable[str] = (),
        registrations: Iterable[Registration] = (),
        catalogue: Catalogue | None = None,
        memoizers: Iterable[str] = (),
        framework_versions: Iterable[tuple[str, str]] = (),
        framework_settings: Iterable[tuple[str, int]] = (),
        declared_packages: Iterable[str] = (),
    ):
        self.summaries = summaries
        #: The framework's evaluation defaults the project sets (``Config.framework_settings``).
        self._framework_settings = dict(framework_settings)
        #: "X is installed" for each distribution the project declares (``Config.declared_packages``),
        #: as the guards of a guarded import's flag name it (``importflags.installed_name``).
        self._installed: dict[str, object] = {
            installed_name(module): True for package in declared_packages for module in modules_of(package)
        }
        #: The project's releases of the frameworks (``Config.framework_versions``): whether a class
        #: is served in a process of its own may depend on them (``HookClass.in_process``).
        self._versions = dict(framework_versions)
        #: Hooks the project's release of the framework runs in worker threads (OFFLOADED_HOOKS):
        #: what is registered as one is no hot root.
        self._offloaded = offloaded_hooks(self._versions)
        #: Registered callables that run on the loop by the in-process reading of their class's
        #: releases -> that class's table (:meth:`HotSet.in_process_reading`).
        self._read_in_process: dict[FunctionId, HookClass] = {}
        #: Rewards returned by an exported factory no project code calls -> that factory's name
        #: (:meth:`Adapters.exported_by`).
        self._exported_by: dict[FunctionId, str] = {}
        known = catalogue or Catalogue()
        self._producers = known.producers
        #: The knowledge base's entry of a name (:meth:`Catalogue.match`): a library function one
        #: names is graded by it, never read into (:meth:`HotSet._runs`).
        self._entry_of = known.match
        self._memoizers = MEMOIZERS.union(memoizers)
        #: The configured registrations, then the framework's, by slot (see HotSet.registration).
        self._registrations_by_slot = by_slot((*registrations, *REGISTRATIONS))
        self._hot_patterns = tuple(hot_roots)
        self._cold_patterns = tuple(cold_roots)
        self.modules: dict[str, list[int]] = {}
        #: Qualified name -> every definition of it, first one first. A name defined twice (under
        #: ``if``/``else``, or by two files given the same module name) may run either: calls go
        #: to all of them.
        self.defs: dict[str, tuple[FunctionId, ...]] = {}
        self.classes: dict[str, tuple[int, ClassInfo]] = {}
        self.exports: dict[str, dict[str, str]] = {}
        self.values: dict[str, str | Rooted] = {}
        #: Module-level values -> (path, line, column) of the call that built them.
        self.built: dict[str, tuple[str, int, int]] = {}
        self.callables: dict[str, tuple[str | Rooted, ...]] = {}
        #: Calls of functions whose returns differ -> each returned value (see :meth:`_settled`).
        self.returns: dict[str, tuple[str | Rooted, ...]] = {}
        #: Calls whose type is what the function's signature declares (see ModuleSummary.declared).
        self.declared: set[str] = set()
        #: Functions returning what calling one of their parameters returns -> its position (see
        #: ModuleSummary.runners): a call of one handed callables elsewhere is typed by them.
        self.runners: dict[str, int] = {}
        #: Functions returning what a dotted path they are handed names -> its position (see
        #: ModuleSummary.importers): a call of one with a constant path is what the path names.
        self.importers: dict[str, int] = {}
        #: A registry's id as a maker's path part names it (``<made:gymnasium|Grid-v0>``) -> what the
        #: project files under it (ModuleSummary.registered; "" when its registrations differ).
        self.registered: dict[str, str] = {}
        #: Library module attributes -> the project functions assigned to them (ModuleSummary.patched):
        #: a library call that calls the attribute runs them (Handovers.called_back).
        self.patched: dict[str, tuple[str, ...]] = {}
        #: Those attributes as the library module's own calls name them (Handovers.patched_global).
        self._patched_globals: dict[str, dict[str, tuple[str, ...]]] | None = None
        #: Literal keys of the project's dict displays -> the classes and functions filed under them
        #: (ModuleSummary.factories): what a call of an item fetched by that key runs (Marker.KEYED).
        self.keyed: dict[str, tuple[str, ...]] = {}
        self.stars: dict[str, tuple[str, ...]] = {}
        self.public: dict[str, tuple[str, ...] | None] = {}
        #: Keys of the rollout's state -> the type every hook stores under it ("" when they differ).
        self.state_types: dict[str, str] = {}
        #: Parameter names -> what ``update_tool_args`` passes registered tools there ("" when they differ).
        self.injected: dict[str, str | Rooted] = {}
        #: The same names -> every payload ``update_tool_args`` passes there (shape, word).
        self.injected_payloads: dict[str, set[tuple[str, str]]] = {}
        #: Functions registered as tools: the ones ``update_tool_args`` passes arguments to.
        self._tools: frozenset[FunctionId] = frozenset()
        #: Installed libraries' functions the project registers (a tool, a reward): no project function runs them.
        self._elsewhere_registered: list[RegisteredElsewhere] = []
        #: One key per function of each summary, by position and index: the tables that name a
        #: function once per call of it (callers, arguments, loops) hold this one, not a pair each
        #: (56 bytes a pair: tens of MB of a large project's graph).
        self._ids = [
            tuple(FunctionId((position, index)) for index in range(len(summary.functions)))
            for position, summary in enumerate(summaries)
        ]
        for position, summary in enumerate(summaries):
            for key, type_ in summary.state_values:
                self.state_types[key] = type_ if self.state_types.get(key, type_) == type_ else ""
            for key, stored in summary.injected:
                self.injected[key] = stored if self.injected.get(key, stored) == stored else ""
            if summary.library is None:
                for key, shape, word in summary.injected_payloads:
                    self.injected_payloads.setdefault(key, set()).add((shape, word))
            self.values.update((f"{summary.module}.{name}", type_) for name, type_ in summary.values)
            self.built.update(
                (f"{summary.module}.{name}", (summary.path, line, col)) for name, line, col in summary.built
            )
            self.callables.update((f"{summary.module}.{name}", items) for name, items in summary.callables)
            self.returns.update((f"{summary.module}.{name}", items) for name, items in summary.returns)
            self.declared.update(f"{summary.module}.{name}" for name in summary.declared)
            self.runners.update(summary.runners)
            self.importers.update(summary.importers)
            for key, value in summary.factories if summary.library is None else ():
                if key and value not in self.keyed.get(key, ()):
                    self.keyed[key] = (*self.keyed.get(key, ()), value)
            for attribute, value in summary.patched if summary.library is None else ():
                self.patched[attribute] = (*self.patched.get(attribute, ()), value)
            for flag, top in summary.flags:  # a flag another module imports: as its own test of it
                if installed_name(top) in self._installed:
                    self._installed[flagged_name(f"{summary.module}.{flag}")] = True
            for registry, id_, entry in summary.registered:
                made = str(CallPart("made", (registry, id_)))
                self.registered[made] = entry if self.registered.get(made, entry) == entry else ""
            self.modules.setdefault(summary.module, []).append(position)
            self._merge_exports(summary)
            if summary.stars:
                self.stars[summary.module] = (*self.stars.get(summary.module, ()), *summary.stars)
            if summary.public is not None:
                self.public.setdefault(summary.module, summary.public)
            for index, function in enumerate(summary.functions):
                if function.kind == "function" and OVERLOAD.isdisjoint(function.decorators):
                    function_id = self._ids[position][index]
                    # interned: the calls that name it hold the same string (decoding interns them)
                    name = intern(f"{summary.module}.{function.qualname}")
                    # a tuple, not a list: one per function, and a list keeps a separate array of its items
                    self.defs[name] = (*self.defs.get(name, ()), function_id)
            for info in summary.classes:
                self.classes.setdefault(f"{summary.module}.{info.qualname}", (position, info))
        for positions in self.modules.values():
            if len(positions) > 1:
                self._keep_definitions(positions)
        self.states: dict[HotState, HotInfo] = {}
        self._contexts: dict[str, dict[str, Hook]] = {}
        self._direct_callers: dict[FunctionId, array[int]] | None = None
        # class -> only rollout code builds its instances (Warming._built_per_rollout)
        self._rollout_built: dict[str, bool] = {}
        self._builders: dict[str, list[tuple[int, int]]] | None = None  # see Warming._building
        self.hot: dict[FunctionId, HotInfo] = {}
        self._filled = None
        self._field_tables = set()
        self._canonical: dict[str, str] = {}
        self._exporters: dict[str, tuple[str, ...]] | None = None  # see Exports.exported_as
        self._package_names: frozenset[str] | None = None
        self._portions = self._namespace_portions()  # see Exports._portion
        self._roots_of_modules = frozenset(module.partition(".")[0] for module in self.modules)
        #: The first parts of the names :meth:`Exports._portion` knows that name no module: a name
        #: starting so may still be a library's (a ``datasets/`` of scripts beside ``datasets``).
        self._portion_tops = frozenset(name.partition(".")[0] for name in self._portions) - self._roots_of_modules
        self._ancestors: dict[str, list[str]] = {}
        self._mro: dict[str, list[str]] = {}
        self._tables: dict[str, HookClass | None] = {}
        self._frameworks_own: dict[FunctionId, bool] = {}  # see Hierarchy.frameworks_own
        self._subclasses: dict[str, list[str]] | None = None
        self._overrides: dict[tuple[str, str], list[FunctionId]] = {}
        self._implementers: dict[str, list[str]] = {}
        self._built_classes: frozenset[str] | None = None  # see Hierarchy.built_classes
        self._edges: dict[FunctionId, array[int] | tuple[()]] = {}  # see HotSet._edge_items
        self._by_path: dict[str, list[int]] | None = None
        self._callers: dict[FunctionId, array[int]] | None = None
        self._calls_index: tuple[dict[FunctionId, array[int]], frozenset[str]] | None = None
        self._external: tuple[Catalogue, Mapping[str, frozenset[str | None]]] | None = None  # see Uses.external_calls
        self._hot_callers: dict[FunctionId, array[int]] | None = None
        self._hot_or_library_callers: dict[FunctionId, array[int]] | None = None
        self._arguments: dict[FunctionId, array[int]] | None = None
        self._root_keys: frozenset[FunctionId] = frozenset()
        self._filled_keys: frozenset[str] = frozenset()
        self._project_calls: tuple[dict[FunctionId, array[int]], set[FunctionId], set[str]] | None = None
        self._fixed: dict[FunctionId, dict[str, object]] = {}
        self._tested_params: dict[FunctionId, frozenset[str]] = {}  # see GivenArgs._tested
        self._givens: dict[FunctionId, set[Given]] = {}  # see GivenArgs.given_to
        self._called_names: dict[FunctionId, frozenset[str]] = {}  # see GivenArgs._called_params
        self._handed_refs: dict[int, dict[int, tuple[FunctionRef, ...]]] = {}  # see GivenArgs._refs_at
        self._hot_states: dict[FunctionId, list[HotInfo]] = {}  # see GivenArgs.hot_at
        self._defaults: dict[str, dict[str, object]] = {}  # see HotSet._attribute_defaults
        self._switches: dict[str, object] | None = None  # see Instances.field_switches
        self._kept_switches: dict[str, dict[str, str]] = {}  # see Instances._kept_off
        self._built_switches: dict[str, str] = {}  # see Instances._built_off
        self._running_calls: dict[FunctionId, list[tuple[FunctionId, CallSite]]] = {}  # Instances._calls_running
        self._names_read: frozenset[str] | None = None  # see HotSet._unreferenced
        self._names_asked = False
        self._handed_out: frozenset[str] | None = None  # see Programs.handed_to_libraries
        self._elsewhere_found: tuple[frozenset[int], frozenset[int]] | None = None  # see Programs._elsewhere
        self._recorded_loops: dict[str, bool] = {}  # see Background.recorded_own_loop
        self._target_fallbacks: dict[str | None, tuple[FunctionId, ...]] = {}  # see HotSet._fetched_or_looped
        self._callers_of_all: (
            tuple[dict[FunctionId, array[int]], dict[FunctionId, set[FunctionId]], list[int]] | None
        ) = None  # see Background._project_callers
        self._row_keys: frozenset[str] | None = None  # see RowKeys.row_keys
        self._attrs = {name: dict(info.attrs) for name, (_, info) in self.classes.items()}
        #: Parameter names -> the classes (in ``_attrs``' order) with an attribute set from a parameter
        #: of that name (Resolution.constructor_stores: a scan of every class per argument typing a
        #: parameter was a fifth of building a large project's graph).
        self._keepers: dict[str, list[str]] = {}
        for owner, attrs in self._attrs.items():
            params = (Rooted.read(value, Marker.PARAM) for value in attrs.values())
            for name in {param.path[0] for param in params if param is not None and len(param.path) == 1}:
                self._keepers.setdefault(name, []).append(owner)
        self._resolved: CycleMemo[str, str] = CycleMemo(self._denote, str)  # in a cycle, a name denotes itself
        self._param_types: CycleMemo[tuple[FunctionId, str], str | None] = CycleMemo(self._typed_param, untyped)
        self._makers_handed: dict[FunctionId, list[FunctionRef]] | None = None
        self._site_targets: list[list[str | None] | None] = [None] * len(summaries)
        self._site_callees: list[list[Sequence[FunctionId] | None] | None] = [None] * len(summaries)
        self._site_runs: list[list[Sequence[FunctionId] | None] | None] = [None] * len(summaries)  # HotSet._targets
        self._singles: dict[FunctionId, tuple[FunctionId, ...]] = {}  # see Hierarchy.only
        self._undefined: dict[str, tuple[FunctionId, ...]] = {}  # see Resolution._definitions
        #: The work estimate (:mod:`asynclint.analysis.work`): module constants' sizes, each
        #: function's loops, and the estimates made so far (filled on demand).
        self._sizes: dict[str, tuple[str, ...]] | None = None
        self._settings: dict[str, int] | None = None
        self._loops_by_function: dict[FunctionId, list[tuple[int, WorkLoop]]] | None = None
        self._work: dict[FunctionId, Estimate] = {}
        self._copies: dict[FunctionId, dict[tuple[int, int], bool]] | None = None
        self._work_depth = 0
        self._alias_params = self._callable_aliases(summaries)
        self._propagate()

    def _merge_exports(self, summary: ModuleSummary) -> None:
        """File ``summary``'s module-level names into its module's table. Two files given one
        module name (``env.py`` beside a package ``env/`` whose ``__init__`` loads it by path and
        re-exports ``Env = _impl.Env``) each mean their own definitions by their names: a name one
        file defines is never overwritten by a name another only imports or assigns, whichever
        file comes first -- the module's own code reads it, and ``self`` in its methods is typed by it."""
        known = self.exports.get(summary.module)
        if known is None:
            self.exports[summary.module] = dict(summary.exports)
            return
        prefix = f"{summary.module}."
        for name, target in dict(summary.exports).items():
            if known.get(name) != prefix + name or target == prefix + name:
                known[name] = target

    def _keep_definitions(self, positions: Sequence[int]) -> None:
        """The module-level values of files sharing one module name, as :meth:`_merge_exports`
        keeps their exports: a class or function one file defines stays what its name denotes
        where another file only assigns that name (``ArcAgi3Env = _impl.ArcAgi3Env``)."""
        for position in positions:
            summary = self.summaries[position]
            own = dict(summary.values)
            defined = {info.qualname for info in summary.classes if "." not in info.qualname}
            defined.update(f.qualname for f in summary.functions if f.kind == "function" and "." not in f.qualname)
            for name in defined:
                key = f"{summary.module}.{name}"
                if name in own:
                    self.values[key] = own[name]
                else:
                    self.values.pop(key, None)

    def _callable_aliases(self, summaries: Sequence[ModuleSummary]) -> dict[str, str]:
        """``RewardFn = Callable[...]``: calling the alias (``RewardFn()``, a value of its type) runs
        what the functions declared to return it return (a ``callables`` table); -> constructor
        parameters declared to hold one (``pkg.Rubric.__init__(judge)``) -> the alias."""
        aliases = {f"{summary.module}.{name}" for summary in summaries for name in summary.callable_aliases}
        params: dict[str, str] = {}
        for summary in summaries:
            for use, named in summary.alias_uses:
                alias = self.canonical(named)
                if alias not in aliases:
                    continue
                if use.endswith("()"):
                    table = f"{alias}()"
                    self.callables[table] = (*self.callables.get(table, ()), f"{summary.module}.{use}")
                else:
                    params[f"{summary.module}.{use}"] = alias
        return params
