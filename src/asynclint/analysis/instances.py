"""What the project's classes say about their instances: whether a caller builds a fresh one (its
lazy initialisations then run per call), how large a model's dump is by its fields (nested project
models included), and which attributes an instance keeps at a default that switches a feature off."""

from __future__ import annotations

import re

from asynclint.analysis.graph_records import FunctionId, HotInfo
from asynclint.analysis.graph_state import GraphState
from asynclint.analysis.index.flags import FIELD, constant_value, guard_holds
from asynclint.analysis.index.records import FIELD_CLASS, FIELD_SCALARS, CallSite
from asynclint.knowledge.costs import payload_evidence, switched_off
from asynclint.knowledge.frameworks import STATE_MODELS
from asynclint.knowledge.typenames import ENUM_BASES


class Instances(GraphState):
    """Part of :class:`asynclint.analysis.graph.ProjectGraph`, which holds the state."""

    def built_by_caller(self, key: FunctionId, hot: HotInfo) -> bool:
        """The caller on ``hot``'s chain builds an instance of ``key``'s class, itself or by a factory it
        calls (``make(path).reset()``): a lazy initialisation of its attributes runs on every call."""
        cls = self.function(key).class_qualname
        if hot.parent is None or cls is None:
            return False
        return self._builds(FunctionId(hot.parent.function), key[0], cls, factories=1)

    def _builds(self, function: FunctionId, module: int, cls: str, factories: int) -> bool:
        """``function``, or a function it calls ``factories`` levels down, builds a ``cls`` of ``module``."""
        position, caller = function
        wanted = {f"{self.summaries[module].module}.{cls}"}
        for index, site in enumerate(self.summaries[position].calls):
            if site.caller != caller:
                continue
            if self.builds_at(position, index, site, wanted):
                return True
            if factories and any(
                callee != function
                and self.function(callee).name != "__init__"
                and self._builds(callee, module, cls, factories - 1)
                for callee in self.called_at(position, index)
            ):
                return True
        return False

    def builds_at(self, position: int, index: int, site: CallSite, wanted: set[str]) -> bool:
        """The call ``index`` of module ``position`` builds an instance of one of the classes
        ``wanted``: it calls one's ``__init__``, or names one (a dataclass writes no ``__init__``)."""
        if site.target is not None and self.canonical(site.target) in wanted:
            return True
        return not self.inits_at(position, index).isdisjoint(wanted)

    def inits_at(self, position: int, index: int) -> set[str]:
        """The classes whose ``__init__`` the call ``index`` of module ``position`` runs."""
        return {
            f"{self.summaries[callee[0]].module}.{called.class_qualname}"
            for callee in self.called_at(position, index)
            if (called := self.function(callee)).name == "__init__"
        }

    def model_payload(self, cls: str, seen: frozenset[str] = frozenset()) -> tuple[str, str] | None:
        """How large an instance of the project class ``cls`` is, by its annotated fields and
        its project ancestors': (``small`` -- scalar fields, enumerations and containers of scalars
        only, ``whole`` -- a container field named like a history, or ``unknown``; the field that
        says so, ``gmail.messages`` through a field holding another project class, sized by that
        class's fields in turn). ``None``: not a project class with fields."""
        fields = [
            field
            for ancestor in self.ancestors(cls)
            if (name := self.canonical(ancestor)) in self.classes
            for field in self.classes[name][1].fields
        ]
        # A framework's state model declares fields of its own (:data:`STATE_MODELS`).
        fields += [
            (field, "container")
            for ancestor in self.ancestors(cls)
            for field in STATE_MODELS.get(self.canonical(ancestor), ())
        ]
        if not fields:
            return None
        containers: list[str] = []
        for name, kind in fields:
            if kind == FIELD_SCALARS:
                # a few numbers or names (``timing: dict[str, float]``) unless the name says they are a
                # history (``messages: list[str]``)
                if payload_evidence("name", name) == "whole":
                    containers.append(name)
                continue
            if not kind.startswith(FIELD_CLASS):
                if kind == "container":
                    containers.append(name)
                continue
            nested_cls = self.canonical(kind.removeprefix(FIELD_CLASS))
            if any(self.canonical(base) in ENUM_BASES for base in self.ancestors(nested_cls)):
                continue  # one member of an enumeration: a scalar
            nested = self.model_payload(nested_cls, seen | {cls}) if nested_cls not in seen | {cls} else None
            if nested is None:
                containers.append(name)  # a library's class, or a cycle: nothing says
            elif nested[0] == "whole":
                return "whole", f"{name}.{nested[1]}"
            elif nested[0] == "unknown":
                containers.append(name)
        if not containers:
            return "small", ""
        whole = next((name for name in containers if payload_evidence("name", name) == "whole"), None)
        return ("whole", whole) if whole else ("unknown", containers[0])

    def state_model(self, key: FunctionId) -> str | None:
        """The project's model of the rollout's state in the code of ``key``'s class (for a function
        made inside a method, that method's class): the project subclass of a framework state model
        (:data:`~asynclint.knowledge.frameworks.STATE_MODELS`) that the class or an ancestor names in
        its generic arguments (``vf.Task[R6Data, R6State, R6TaskConfig]``). ``None`` when none does."""
        owner = self.function(key).enclosing_class
        if owner is None:
            return None
        for ancestor in self.ancestors(f"{self.summaries[key[0]].module}.{owner}"):
            name = self.canonical(ancestor)
            for argument in self.classes[name][1].type_args if name in self.classes else ():
                model = self.canonical(argument)
                if model in self.classes and any(
                    self.canonical(base) in STATE_MODELS for base in self.ancestors(model)
                ):
                    return model
        return None

    def default_off(self, key: FunctionId, site: CallSite) -> str:
        """The test that keeps ``site`` (written in method ``key``) from running while the
        instance keeps its defaults: a test of an attribute ``__init__`` sets from a parameter
        whose constant default switches a feature off (:func:`switched_off`) and that no project
        call sets to another constant (``if self.log_trajectories == "none": return``, the
        default ``"none"``), false with that default; "" when there is none. A project call passing its own parameter on
        counts with that parameter's default (``log=log`` in ``load_environment``). A string default
        that picks a mode (``interface="skill"``) switches nothing off: the other modes are
        configurations a user chooses at load. In a plain function, a test of an attribute of a
        parameter every caller hands its own ``self`` (``if not env_self.trace_dir: return``) is read
        with the defaults of the callers' instances, and said as ``self.trace_dir``."""
        if self.summaries[key[0]].library is not None:
            return ""
        function = self.function(key)
        cls = f"{self.summaries[key[0]].module}.{function.class_qualname}"
        built = self._built_off(cls) if function.class_qualname is not None else ""
        if not site.guards:
            return built
        if function.class_qualname is None:
            env, handed = self._handed_defaults(key, site.guards)
        else:
            env, handed = self._attribute_defaults(cls), []
        env = {**self.field_switches(), **env}
        off = next((guard for guard in site.guards if not guard_holds((guard,), env)), "") if env else ""
        for param in handed:
            off = re.sub(rf"\b{param}\.", "self.", off)
        # an attribute kept off by a setter behind a switch (:meth:`_kept_off`): the switch is the setting to name
        kept = self._kept_switches.get(cls, {}) if off and not handed else {}
        return next((why for attr, why in kept.items() if re.search(rf"{re.escape(attr)}\b", off)), off) or built

    def _built_off(self, cls: str) -> str:
        """The test that keeps every project construction of ``cls`` from running while the instances
        on the way keep their defaults (:meth:`default_off`), said of the class that builds it
        (``BIRDSQLEnv.describe_model``): with no instance, none of its methods runs (heldout14 bird's
        ``OpenAIDescriptionClient``, built only once ``describe_model`` is set). "" when a
        construction may run, when the project builds none (a library or a user may), when the
        framework or a value handed over may build it, or when a project subclass may be built."""
        found = self._built_switches.get(cls)
        if found is not None:
            return found
        self._built_switches[cls] = ""  # (a construction in the class's own code: not judged)
        if cls not in self.classes or self.subclasses(cls):
            return ""
        position, info = self.classes[cls]
        init = self.key_of(self.summaries[position].path, f"{info.qualname}.__init__")
        calls = self._calls_running(init) if init is not None and self._handed_to_none(init) else []
        whys = []
        for caller, site in calls:
            why = self.default_off(caller, site)
            owner = self.function(caller).class_qualname
            if owner is not None and f"{self.summaries[caller[0]].module}.{owner}" != cls:
                why = re.sub(r"\bself\.", f"{owner}.", why)
            whys.append(why)
        found = self._built_switches[cls] = whys[0] if whys and all(whys) else ""
        return found

    def field_switches(self) -> dict[str, object]:
        """``<field>.<name>`` (:data:`~asynclint.analysis.index.flags.FIELD`) -> its default, for the
        switch fields the project leaves off everywhere: class-level fields annotated ``bool`` with a
        default that switches a feature off (``record_video: bool = False``,
        ModuleSummary.switch_fields), every declaration of the name agreeing on it, and nothing in
        the project writing anything under the name but such constants or values that read it
        (``cfg.record_video = bool(record_video)`` in ``load_environment``, its parameter off by
        default; ModuleSummary.field_writes), nor builds a class with the field from positional
        arguments or an unpacked mapping (``CameraConfig(640, True)``, ``CameraConfig(**options)``:
        what they set is not written under the name). A test of ``<anything>.<name>`` reads it:
        the name is the project's switch, turned on only where a user turns it on."""
        if self._switches is None:
            declared: dict[str, set[str]] = {}
            written: set[str] = set()
            for summary in self.summaries:
                if summary.library is None:
                    for name, text in summary.switch_fields:
                        declared.setdefault(name, set()).add(text)
                    written.update(summary.field_writes)
            written.update(self._built_unnamed(frozenset(declared)))
            self._switches = {
                f"{FIELD}{name}": constant_value(next(iter(texts)))
                for name, texts in sorted(declared.items())
                if len(texts) == 1 and name not in written
            }
        return self._switches

    def _built_unnamed(self, names: frozenset[str]) -> set[str]:
        """The fields among ``names`` of the project classes (and their project ancestors) that a
        project call builds from positional arguments or an unpacked mapping."""
        found: set[str] = set()
        for summary in self.summaries:
            for site in summary.calls if summary.library is None else ():
                if site.target is None or not any(slot == "*" or slot.isdigit() for slot, _ in site.given):
                    continue
                cls = self.canonical(site.target)
                for ancestor in self.ancestors(cls) if cls in self.classes else ():
                    if (name := self.canonical(ancestor)) in self.classes:
                        found.update(field for field, _ in self.classes[name][1].fields if field in names)
        return found

    def _handed_defaults(self, key: FunctionId, guards: tuple[str, ...]) -> tuple[dict[str, object], list[str]]:
        """``<param>.<attribute>`` -> its default, for the parameters of plain function ``key`` that
        ``guards`` read attributes of and that every project call of ``key`` passes its own
        ``self`` (an instance keeping the defaults of :meth:`_attribute_defaults`; callers of
        different classes agree on a value or say nothing); with those parameters. Nothing for a
        function handed over as a value or a root: someone else calls those, with anything."""
        function = self.function(key)
        params = [param for param in function.params if any(re.search(rf"\b{param}\.", guard) for guard in guards)]
        if not params or key in self._root_keys or key in self._calls_of_functions()[1]:
            return {}, []
        calls = self._calls_running(key)
        env: dict[str, object] = {}
        handed = []
        for param in params:
            slots = (param, str(function.params.index(param)))
            found: dict[str, object] | None = None
            for caller, site in calls:
                passed = dict(site.passed_params)
                cls = self.function(caller).class_qualname
                if cls is None or next((passed[slot] for slot in slots if slot in passed), None) != "self":
                    found = {}
                    break
                own = self._attribute_defaults(f"{self.summaries[caller[0]].module}.{cls}")
                here = {f"{param}.{name.removeprefix('self.')}": value for name, value in own.items()}
                found = here if found is None else {k: v for k, v in found.items() if k in here and here[k] == v}
            if found:
                env.update(found)
                handed.append(param)
        return env, handed

    def _attribute_defaults(self, cls: str) -> dict[str, object]:
        """``self.<attribute>`` -> its default, for the flag attributes of ``cls`` and its project
        ancestors that every project construction leaves at that default (see :meth:`default_off`)."""
        found = self._defaults.get(cls)
        if found is not None:
            return found
        found = self._defaults[cls] = {}
        value: object
        for ancestor in self.ancestors(cls):
            name = self.canonical(ancestor)
            if name not in self.classes:
                continue
            position, info = self.classes[name]
            init = self.key_of(self.summaries[position].path, f"{info.qualname}.__init__")
            if init is None:
                found.update((key, value) for key, value in self._field_defaults(name).items() if key not in found)
            if init is None or not info.flag_attrs:
                continue
            function = self.function(init)
            defaults = dict(function.defaults)
            constructions = self._calls_running(init)
            for attr, param in info.flag_attrs:
                slots = (param, str(function.params.index(param) - 1))
                default = defaults.get(param) or self._passed_default(constructions, slots)
                if default is None or any(not self._passes(call, slots, default) for call in constructions):
                    continue
                value = constant_value(default)
                if switched_off(value):
                    found.setdefault(f"self.{attr}", value)
        for attr, value in self._kept_off(cls).items():
            found.setdefault(attr, value)
        return found

    def _field_defaults(self, cls: str) -> dict[str, object]:
        """``self.<field>`` -> its default, for the switch fields of dataclass ``cls``
        (ClassInfo.field_flags) that every project construction leaves at that default: the
        ``__init__`` the decorator writes takes them as parameters. A field of a project base
        shifts the positions: then only a keyword counts, and a construction passing any argument
        by position may set it."""
        info = self.classes[cls][1]
        if not info.field_flags:
            return {}
        inherited = any(
            self.canonical(base) in self.classes and self.classes[self.canonical(base)][1].fields
            for base in self.ancestors(cls)[1:]
        )
        constructions = self._constructions(cls)
        found: dict[str, object] = {}
        for field, default, position in info.field_flags:
            slots = (field, str(position) if position >= 0 and not inherited else field)
            if all(self._passes(call, slots, default) for call in constructions) and not (
                slots[1] == field and any(slot.isdigit() for _, site in constructions for slot, _ in site.given)
            ):
                found[f"self.{field}"] = constant_value(default)
        return found

    def _constructions(self, cls: str) -> list[tuple[FunctionId, CallSite]]:
        """Every project call that names the class ``cls`` (one writing no ``__init__``: no call
        runs one), with the function it is written in."""
        name = cls.rpartition(".")[2]
        return [
            (self._ids[position][site.caller], site)
            for position, summary in enumerate(self.summaries)
            if summary.library is None
            for site in summary.calls
            if site.target is not None
            and not site.read
            and site.target.rpartition(".")[2] == name  # (most calls name another class: no need to resolve)
            and self.canonical(site.target) == cls
        ]

    def _passed_default(self, calls: list[tuple[FunctionId, CallSite]], slots: tuple[str, str]) -> str | None:
        """For a parameter without a default (at ``slots``): the constant default of the parameter
        that the first of ``calls`` passes on as it is (``describe_model=describe_model`` in
        ``load_environment``, whose default is ``None``), for :meth:`_passes` to ask of every call."""
        if not calls:
            return None
        caller, site = calls[0]
        passed = dict(site.passed_params)
        own = next((passed[slot] for slot in slots if slot in passed), None)
        return dict(self.function(caller).defaults).get(own) if own is not None else None

    def _passes(self, call: tuple[FunctionId, CallSite], slots: tuple[str, str], default: str) -> bool:
        """Does a construction leave the parameter at ``slots`` at ``default``: not passed, passed
        that constant, or passed the caller's own parameter whose default is that constant."""
        caller, site = call
        given = dict(site.given)
        value = next((given[slot] for slot in slots if slot in given), None)
        if value is None:
            return "*" not in given  # (``**kwargs`` may carry it; a keyword written out cannot be in it too)
        if value:
            return value == default
        passed = dict(site.passed_params)
        own = next((passed[slot] for slot in slots if slot in passed), None)
        return own is not None and dict(self.function(caller).defaults).get(own) == default

    def _calls_running(self, key: FunctionId) -> list[tuple[FunctionId, CallSite]]:
        """Every project call that runs ``key`` (a class's construction for its ``__init__``), with
        the function it is written in: :meth:`calls_of` without the installed modules' calls, and
        a call that runs ``key`` twice once."""
        found = self._running_calls.get(key)
        if found is None:
            found = self._running_calls[key] = []
            last: tuple[FunctionId, CallSite] | None = None
            for call in self.calls_of(key):
                if call != last and not self.is_library(call[0]):
                    found.append(call)
                last = call
        return found

    def never_set(self, key: FunctionId, attr: str) -> bool:
        """Does ``self.<attr>`` stay ``None`` on every instance of the class of method ``key``? So
        when ``__init__`` sets it to ``None`` and each method that sets it to something else is one
        nothing runs: no project call (a ``with`` item runs ``__enter__``), not an entry point, not
        handed over as a value, not a method name called on a receiver the project does not settle
        (ClassInfo.set_later). A subclass may set it anywhere: then it may be set."""
        class_qualname = self.function(key).class_qualname
        if class_qualname is None:
            return False
        cls = f"{self.summaries[key[0]].module}.{class_qualname}"
        if cls not in self.classes or self.subclasses(cls):
            return False
        later = {name: (start, setters) for name, start, setters in self.classes[cls][1].set_later}
        if attr not in later or later[attr][0] != "None":
            return False
        calls = self._calls_of_functions()[0]
        return all(
            (setter := self.method_of(cls, method)) is not None
            and not calls.get(setter)
            and self._handed_to_none(setter)
            for method in later[attr][1]
        )

    def _handed_to_none(self, setter: FunctionId) -> bool:
        """Nothing but the project's calls runs method ``setter``: not an entry point, not handed over
        as a value, not a method name called on a receiver the project does not settle."""
        _, escaped, unresolved = self._calls_of_functions()
        return setter not in self._root_keys and setter not in escaped and self.function(setter).name not in unresolved

    def _kept_off(self, cls: str) -> dict[str, object]:
        """``self.<attribute>`` -> the constant ``__init__`` sets it to, for the attributes of ``cls``
        (its own, with no project subclass to set them anywhere) whose other setters run only where a
        feature is switched on: the project calls each one, every call sits behind a test that is
        false while the instances keep their defaults (:meth:`default_off`; ``if self.record:
        self.recorder.start()``), and nothing else runs it (:meth:`_handed_to_none`). So ``if not
        self._recording: return`` in ``stop`` keeps its rest off while ``start`` is never called. (A
        setter the project never calls is one it offers others: ``env.set_verbose()`` in a script.)"""
        if cls not in self.classes or self.subclasses(cls):
            return {}
        found: dict[str, object] = {}
        for attr, start, methods in self.classes[cls][1].set_later:
            setters = [self.method_of(cls, method) for method in methods]
            # (an attribute no method sets is dead code or set from outside the class: not judged)
            if setters and all(
                setter is not None
                and self._handed_to_none(setter)
                and (calls := self._calls_running(setter))
                and all(self.default_off(*call) for call in calls)
                for setter in setters
            ):
                found[f"self.{attr}"] = constant_value(start)
                caller, site = calls[0]
                # said of the caller's instance when that is another class's (``RecordingEnv.record``)
                owner = self.function(caller).class_qualname
                why = self.default_off(caller, site)
                if owner is not None and f"{self.summaries[caller[0]].module}.{owner}" != cls:
                    why = re.sub(r"\bself\.", f"{owner}.", why)
                self._kept_switches.setdefault(cls, {})[f"self.{attr}"] = why
        return found
