"""What every part of the :class:`~asynclint.analysis.graph.ProjectGraph` may use of the others:
the state its ``__init__`` sets up, and the methods one part calls on another.

Annotations only, for the type checker: nothing here exists at run time (the attributes are set
by ``ProjectGraph.__init__`` and the hot set's propagation, where their meanings are written; the
methods are those of the parts named beside them), so the parts inherit no behaviour from it. A
part that changes one of these methods' signatures changes the stub too, or mypy reports the
override."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence

    from asynclint.analysis.graph_records import (
        Estimate,
        FunctionId,
        Given,
        HotInfo,
        HotState,
        SlotRegistrations,
        TypeName,
    )
    from asynclint.analysis.index.records import (
        CallSite,
        ClassInfo,
        Function,
        FunctionRef,
        ModuleSummary,
        Place,
        WorkLoop,
    )
    from asynclint.analysis.index.values import Rooted
    from asynclint.knowledge.catalogue import Catalogue
    from asynclint.knowledge.frameworks import Hook, HookClass


class GraphState:
    summaries: Sequence[ModuleSummary]
    _versions: dict[str, str]
    _offloaded: frozenset[Hook]
    _read_in_process: dict[FunctionId, HookClass]
    _framework_settings: dict[str, int]
    _producers: frozenset[str]
    _memoizers: frozenset[str]
    _registrations_by_slot: dict[str, SlotRegistrations]
    _hot_patterns: tuple[str, ...]
    _cold_patterns: tuple[str, ...]
    modules: dict[str, list[int]]
    defs: dict[str, list[FunctionId]]
    classes: dict[str, tuple[int, ClassInfo]]
    exports: dict[str, dict[str, str]]
    values: dict[str, str | Rooted]
    built: dict[str, tuple[str, int, int]]
    callables: dict[str, tuple[str | Rooted, ...]]
    returns: dict[str, tuple[str | Rooted, ...]]
    declared: set[str]
    runners: dict[str, int]
    importers: dict[str, int]
    _portions: dict[str, str] | None
    stars: dict[str, tuple[str, ...]]
    public: dict[str, tuple[str, ...] | None]
    state_types: dict[str, str]
    injected: dict[str, str]
    injected_payloads: dict[str, set[tuple[str, str]]]
    _tools: frozenset[FunctionId]
    states: dict[HotState, HotInfo]
    _contexts: dict[str, dict[str, Hook]]
    _direct_callers: dict[FunctionId, list[tuple[FunctionId, CallSite]]] | None
    hot: dict[FunctionId, HotInfo]
    _roots_of_modules: frozenset[str]
    _canonical: dict[str, str]
    _package_names: frozenset[str] | None
    _ancestors: dict[str, list[str]]
    _mro: dict[str, list[str]]
    _tables: dict[str, HookClass | None]
    _subclasses: dict[str, list[str]] | None
    _overrides: dict[tuple[str, str], list[FunctionId]]
    _edges: dict[FunctionId, list[tuple[FunctionId, CallSite]]]
    _by_path: dict[str, list[int]] | None
    _callers: dict[FunctionId, list[tuple[FunctionId, CallSite]]] | None
    _calls_index: tuple[dict[FunctionId, list[CallSite]], dict[FunctionId, list[int]], frozenset[str]] | None
    _external: tuple[Catalogue, frozenset[str]] | None
    _hot_callers: dict[FunctionId, list[tuple[FunctionId, CallSite]]] | None
    _hot_or_library_callers: dict[FunctionId, list[tuple[FunctionId, CallSite]]] | None
    _arguments: dict[FunctionId, list[tuple[FunctionId, CallSite]]] | None
    _param_types: dict[tuple[FunctionId, str], str | None]
    _root_keys: frozenset[FunctionId]
    _project_calls: tuple[dict[FunctionId, list[CallSite]], set[FunctionId], set[str]] | None
    _fixed: dict[FunctionId, dict[str, object]]
    _tested_params: dict[FunctionId, frozenset[str]]
    _givens: dict[FunctionId, set[Given]]
    _called_names: dict[FunctionId, frozenset[str]]
    _handed_refs: dict[int, dict[int, tuple[FunctionRef, ...]]]
    _hot_states: dict[FunctionId, list[HotInfo]]
    _names_read: frozenset[str] | None
    _names_asked: bool
    _elsewhere_found: tuple[frozenset[int], frozenset[int]] | None
    _row_keys: frozenset[str] | None
    _defaults: dict[str, dict[str, object]]
    _running_calls: dict[FunctionId, list[tuple[FunctionId, CallSite]]]
    _attrs: dict[str, dict[str, str | Rooted]]
    _keepers: dict[str, list[str]]
    _resolved: dict[str, str]
    _calls_by_caller: dict[FunctionId, list[CallSite]]
    _ids: list[tuple[FunctionId, ...]]
    _site_targets: list[list[str | None] | None]
    _site_callees: list[list[list[FunctionId] | None] | None]
    _sizes: dict[str, tuple[str, ...]] | None
    _settings: dict[str, int] | None
    _loops_by_function: dict[FunctionId, list[tuple[int, WorkLoop]]] | None
    _work: dict[FunctionId, Estimate]
    _copies: dict[FunctionId, dict[tuple[int, int], bool]] | None
    _work_depth: int

    if TYPE_CHECKING:
        # Resolution
        def canonical(self, name: str) -> str: ...
        def resolve(self, name: str) -> str: ...
        def functions_for(self, target: str | None) -> list[FunctionId]: ...
        def functions_denoted(self, target: str | None, depth: int = 0) -> list[FunctionId]: ...
        def resolve_self(self, cls: TypeName, path: tuple[str, ...]) -> str | None: ...
        def resolve_self_ref(self, self_ref: tuple[str, tuple[str, ...]]) -> str | None: ...
        def resolve_state(self, path: tuple[str, ...]) -> str | None: ...
        def constructor_param(self, cls: str, path: tuple[str, ...]) -> tuple[FunctionId, str] | None: ...
        def called_back(self, caller: FunctionId, site: CallSite, target: str | None) -> list[FunctionId]: ...
        def dispatched(self, item: str) -> list[FunctionId]: ...
        def fetched_from_table(self, target: str | None) -> list[FunctionId]: ...
        def loop_items_called(self, target: str | None) -> list[FunctionId]: ...
        def call_target(self, site: CallSite, caller: FunctionId | None = None) -> str | None: ...
        def target_at(self, position: int, index: int) -> str | None: ...
        def called_at(self, position: int, index: int, typed: bool = False) -> list[FunctionId]: ...
        def _declared_class(self, site: CallSite, target: str | None) -> str | None: ...

        # Hierarchy
        def ancestors(self, cls: str) -> list[TypeName]: ...
        def mro(self, cls: str) -> list[str]: ...
        def method_of(self, cls: str, name: str) -> FunctionId | None: ...
        def built_base(self, cls: str, skip: int = 0) -> str | None: ...
        def framework_table(self, cls: str) -> HookClass | None: ...
        def receiver_table(self, ref: FunctionRef) -> HookClass | None: ...
        def overrides(self, cls: str, method: str) -> list[FunctionId]: ...
        def subclasses(self, cls: str) -> list[str]: ...

        # DeclaredHooks
        def hook_of(self, position: int, function: Function) -> tuple[Hook | None, bool]: ...
        def _matches(self, patterns: tuple[str, ...], name: str) -> bool: ...
        def _in_test_file(self, position: int) -> bool: ...
        def _cold_by_decorator(self, function: Function) -> bool: ...

        # HotSet
        def registration(self, ref: FunctionRef) -> Hook | None: ...
        def _edges_of(self, key: FunctionId) -> list[tuple[FunctionId, CallSite]]: ...
        def _memoizer(self, key: FunctionId) -> str | None: ...
        def _calls_of_functions(self) -> tuple[dict[FunctionId, list[CallSite]], set[FunctionId], set[str]]: ...

        # Instances
        def never_set(self, key: FunctionId, attr: str) -> bool: ...

        # GivenArgs
        def runs(self, key: FunctionId, site: CallSite) -> bool: ...
        def fixed_params(self, key: FunctionId) -> dict[str, object]: ...
        def state_env(self, key: FunctionId, info: HotInfo) -> dict[str, object]: ...
        def given_to(self, caller: FunctionId, info: HotInfo, site: CallSite, callee: FunctionId) -> Given: ...
        def handed_edges(self, key: FunctionId, info: HotInfo) -> list[tuple[FunctionId, CallSite]]: ...
        def _slots(self, key: FunctionId) -> dict[str, str]: ...

        # Work
        def work(self, key: FunctionId) -> Estimate: ...
        def loops_of(self, key: FunctionId) -> list[tuple[int, WorkLoop]]: ...
        def _project_settings(self) -> dict[str, int]: ...
        def awaits_in(self, key: FunctionId, loop: WorkLoop) -> bool: ...

        # Groups
        def group_root(self, key: FunctionId, hook: Hook) -> tuple[Hook, tuple[str, ...]]: ...
        def group_passed(self, info: HotInfo, site: CallSite, callee: FunctionId) -> tuple[str, ...]: ...
        def group_loop(self, key: FunctionId, place: Place, info: HotInfo) -> tuple[Hook | None, bool]: ...
        def grouped(self, key: FunctionId, place: Place, info: HotInfo) -> HotInfo: ...
        def in_loop_at(self, key: FunctionId, place: CallSite, hot: HotInfo) -> bool: ...

        # Programs
        def _elsewhere(self) -> tuple[frozenset[int], frozenset[int]]: ...

        # RowKeys
        def row_keys(self) -> frozenset[str]: ...
        def runs_elsewhere(self, key: FunctionId) -> bool: ...
        def _environment_names(self) -> frozenset[str] | None: ...

        # Uses
        def key_of(self, path: str, qualname: str) -> FunctionId | None: ...
        def function(self, key: FunctionId) -> Function: ...
        def is_library(self, key: FunctionId) -> bool: ...
        def calls_of(self, key: FunctionId) -> list[tuple[FunctionId, CallSite]]: ...
        def unsettled_methods(self) -> frozenset[str]: ...
        def _call_index(
            self,
        ) -> tuple[dict[FunctionId, list[CallSite]], dict[FunctionId, list[int]], frozenset[str]]: ...
        def path(self, key: FunctionId, hot: HotInfo | None = None) -> list[tuple[FunctionId, int]]: ...
