"""The project as fixers see it: its texts parsed on demand, this round's findings and call
graph, and where along a finding's chain its call can leave the loop (:class:`Site`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Protocol

import libcst as cst

from asynclint.analysis.api import CallGraph, FunctionId
from asynclint.analysis.index.records import CallSite
from asynclint.fixers.base import Decline, Fix
from asynclint.fixers.callsites import aliased_calls, called_by_name, calls_at, held_call
from asynclint.fixers.cst.parsed import FunctionNode, ParsedFile, is_async, is_generator
from asynclint.knowledge.frameworks import RESULT_AWAITED, TRANSPARENT_DECORATORS, root_awaited
from asynclint.knowledge.programs import ANY_NAME
from asynclint.knowledge.twins import TwinCall
from asynclint.model import Finding, FixRequest


@dataclass(frozen=True, eq=False)
class Site:
    """The call a fix rewrites and the function it is written in.

    ``placement``: ``direct`` (the offending call, in ``async def``), ``helper`` (the call of the
    sync function that leads to it, in the nearest ``async def`` on the chain) or ``root`` (no
    ``async def`` on the chain; the root, a callable the framework awaits, becomes one; a root
    that is a ``lambda`` whose value the framework awaits returns the awaitable instead).
    """

    file: ParsedFile
    call: cst.Call | cst.Attribute  # an attribute for a property read (``driver.title``)
    function: FunctionNode  # a ``lambda`` only as a ``root``
    placement: str
    helper: str | None = None  # the sync function whose call is offloaded
    callee: FunctionId | None = None  # that function in the project graph, when :meth:`FixProject.sites` found it
    # Every project function the offloaded call may run, when the name does not fix it: each public
    # method ``getattr(api, name)(...)`` can pick, each function a registry's field holds
    # (``LEDGER.prepare(...)``): what runs in the thread is any of them.
    dispatched: tuple[FunctionId, ...] = ()

    @property
    def offending(self) -> bool:
        """The call is the finding's own call, not the call of a helper that leads to it."""
        return self.helper is None

    def did(self, done: str, how: str = "") -> str:
        """A fix's title at this site: ``done`` and ``how`` (``ran `f` in a worker thread``, `` with
        `asyncio.to_thread` ``); at a ``root`` site, first that the root was made ``async def``,
        and ``how`` left out; at a ``lambda`` root, that it returns the awaitable."""
        if self.placement == "root":
            if self.returns:
                return f"{done}{how}, returned by the `lambda` for the framework to await"
            return f"made `{self.name}` `async def` and {done}"
        return done + how

    @property
    def returns(self) -> bool:
        """A ``lambda`` root: it returns the offloaded call's awaitable (it cannot await)."""
        return isinstance(self.function, cst.Lambda)

    @property
    def name(self) -> str:
        """The function's name as a message shows it (a ``lambda`` has none)."""
        return self.function.name.value if isinstance(self.function, cst.FunctionDef) else "lambda"


def call_of(site: Site) -> cst.Call | Decline:
    """The site's call, for a recipe that rewrites calls: a property read (``driver.title``) is
    none, and the recipe does not apply to it."""
    if isinstance(site.call, cst.Call):
        return site.call
    return Decline(f"`{site.file.code(site.call)}` is a property read, not a call", applicable=False)


class FixProject:
    """What fixers may look at: the project's texts, parsed on demand (one parse per file per
    round), plus project-wide answers (who calls a function)."""

    def __init__(
        self,
        texts: Mapping[str, str],
        findings: tuple[Finding, ...] = (),
        graph: CallGraph | None = None,
        twins: Mapping[str, TwinCall] = MappingProxyType({}),
    ):
        self.texts = texts
        self.findings = findings  # this round's, for fixers that look at their neighbours
        self.graph = graph  # the call graph those findings came from
        self.twins = twins  # async twins discovered in installed packages, by sync API (twin-call)
        self._files: dict[str, ParsedFile] = {}
        self._by_line: dict[str, dict[int, list[Finding]]] | None = None

    def findings_in(self, path: str, first: int, last: int) -> list[Finding]:
        """This round's findings in ``path`` starting on lines ``first`` to ``last`` (indexed once,
        so a fixer asking about its neighbours does not go through every finding of the project)."""
        if self._by_line is None:
            self._by_line = {}
            for finding in self.findings:
                self._by_line.setdefault(finding.path, {}).setdefault(finding.line, []).append(finding)
        lines = self._by_line.get(path, {})
        if last - first > len(lines):
            return [f for line, found in sorted(lines.items()) if first <= line <= last for f in found]
        return [f for line in range(first, last + 1) for f in lines.get(line, ())]

    def file(self, path: str) -> ParsedFile:
        parsed = self._files.get(path)
        if parsed is None:
            parsed = self._files[path] = ParsedFile(path, self.texts[path])
        return parsed

    def parsed(self) -> dict[str, ParsedFile]:
        return self._files

    def redefinable(self, path: str, qualname: str, becomes: str) -> Decline | None:
        """Why the function cannot switch between ``def`` and ``async def`` (``None`` if it can):
        a decorator not known to hand the function through unchanged (``lru_cache`` would cache
        the coroutine, which cannot be awaited twice), or any use in the project besides its
        registration with the framework -- calls, ``map(f, ...)``, imports by tests -- each of
        which would get ``becomes`` instead of what it gets now."""
        graph = self.graph
        key = graph.key_of(path, qualname) if graph else None
        name = qualname.rpartition(".")[2]
        if graph is None or key is None:
            return Decline(f"cannot tell where else `{name}` is used")
        wrapped = [d for d in graph.function(key).decorators if d not in TRANSPARENT_DECORATORS]
        if wrapped:
            return Decline(f"`{name}` is decorated with `@{wrapped[0]}`, which would wrap {becomes}")
        uses = graph.uses(key)
        if uses:
            where = ", ".join(map(str, uses[:3]))
            more = f" and {len(uses) - 3} more" if len(uses) > 3 else ""
            return Decline(f"`{name}` is also used by the project ({where}{more}); those uses would get {becomes}")
        return None

    def locate(self, finding: Finding) -> tuple[ParsedFile, cst.Call | cst.Attribute] | Decline:
        """The finding's call, or for a property read (``driver.title``) the attribute read."""
        if finding.path not in self.texts:
            return Decline(f"{finding.path} is not among the files being fixed")
        file = self.file(finding.path)
        if finding.facts.read:
            read = file.expression_at(finding.line, finding.column, finding.end_line, finding.end_column)
            if not isinstance(read, cst.Attribute):
                return Decline(
                    f"no attribute read at {finding.line}:{finding.column} (the file changed since it was checked?)"
                )
            return file, read
        request = finding.fix_request
        if request is not None and request.applier:
            return self._applier_call(finding, file, request)
        call = file.call_at(finding.line, finding.column, finding.end_line, finding.end_column)
        if call is None:
            return Decline(f"no call at {finding.line}:{finding.column} (the file changed since it was checked?)")
        return file, call

    def _applier_call(
        self, finding: Finding, file: ParsedFile, request: FixRequest
    ) -> tuple[ParsedFile, cst.Call] | Decline:
        """For a callee handed to an applier (``map(requests.get, urls)``): the applier's call,
        which places the finding in its function so that a sync helper's call on the chain can be
        offloaded; the call itself is never rewritten (a thread would return the lazy ``map``)."""
        reason = _applied_reason(finding.facts.entered or finding.facts.callee, request.applier)
        if request.placement != "helper":
            return Decline(reason)
        handed = file.expression_at(finding.line, finding.column, finding.end_line, finding.end_column)
        applier = file.parent(file.parent(handed))
        return (file, applier) if isinstance(applier, cst.Call) else Decline(reason)

    def site(self, finding: Finding) -> Site | Decline:
        """Where the finding's call can be taken off the loop (see :class:`Site`). A finding on the
        project's own code (a loop nest, ``facts.knowledge == "code"``) has no call of its own: the
        call of the sync function it is in, in the nearest ``async def`` on the chain."""
        if finding.facts.knowledge == "code":
            helper = self._own_call_site(finding) or self._helper_site(finding)
            if helper is None and self.placement(finding) == "root":
                if finding.fix_request is None:  # the root's own work: no call of it (rules/ownwork.py)
                    return Decline(
                        f"the work is written in `{finding.facts.function}`, which the framework calls: move it "
                        "into a top-level function, called from there, and fix again"
                    )
                # a sync root the framework awaits, made `async def`, with its call on the chain
                return self._root_site(finding, None)
            if helper is None:
                return Decline(
                    f"no `async def` on the chain calls `{finding.facts.function}`: move the work into a top-level "
                    "function and run it in a process pool from an `async def`"
                )
            return helper
        located = self.locate(finding)
        if isinstance(located, Decline):
            return located
        file, call = located
        function = _evaluated_in(file, call)
        if isinstance(function, cst.ClassDef):
            return Decline(f"the call runs in the body of class `{function.name.value}`, where `await` cannot go")
        if function is None:
            return Decline("the call is not inside a function")
        placement = self.placement(finding)
        if isinstance(function, cst.Lambda) and placement != "root":
            return Decline("the call is inside a `lambda`, which cannot await")
        if placement == "direct" and isinstance(function, cst.FunctionDef):
            if not is_async(function):
                return Decline(f"`{function.name.value}` is not `async def` (the file changed since it was checked?)")
            return Site(file, call, function, "direct")
        # No placement: also an async def calling the sync function through a parameter.
        helper = self._helper_site(finding) if placement in ("helper", None) else None
        return helper or self._root_site(finding, (file, call, function))

    def _own_call_site(self, finding: Finding) -> Site | None:
        """A project function's own work reported at a call that hands it the payload (ASL117's
        walk, ASL119's dump), when that call is written in ``async def``: the call itself leaves
        the loop. ``None`` for work reported at a loop (ASL115, ASL116), or a call in a sync
        function (its callers' calls are the sites then)."""
        if finding.path not in self.texts:
            return None
        file = self.file(finding.path)
        call = file.call_at(finding.line, finding.column, finding.end_line, finding.end_column)
        function = _evaluated_in(file, call) if call is not None else None
        if call is None or not isinstance(function, cst.FunctionDef) or not is_async(function):
            return None
        return Site(file, call, function, "direct")

    def _helper_site(self, finding: Finding) -> Site | Decline | None:
        """The call, in the nearest ``async def`` on the finding's chain, of the sync function that
        leads to the finding (``None``: no ``async def`` on the chain), where the call graph says
        the chain's call is."""
        graph, key = self.graph, self._written_in(finding)
        if graph is None or key is None:
            return Decline(f"cannot tell which calls lead to `{finding.facts.function}` (no call graph)")
        for caller, sites, callee in reversed(graph.chain_calls(key)):
            path, qualname = graph.path_of(caller), graph.function(caller).qualname
            if path not in self.texts:
                continue  # a file not being fixed
            if graph.function(caller).is_async:
                file = self.file(path)
                function = file.function(qualname, graph.function(caller).line)
                if function is None:
                    return Decline(f"cannot find `{qualname}` in {path}")
                helper = graph.function(callee).qualname
                found = calls_at(file, sites, helper)
                if not found and len(sites) == 1 and sites[0].method == ANY_NAME:
                    return self._call_site(graph, caller, sites[0], "helper", callee)
                if not found and (held := held_call(file, sites, graph, caller)) is not None:
                    return Site(file, held[0], function, "helper", file.code(held[0].func), callee, held[1])
                applier = next((site.applier for site in sites if site.applier), "")
                if not found and applier:
                    return Decline(_applied_reason(helper, applier) + f" in `{qualname}`")
                param = next((site.param[0] for site in sites if site.param is not None), "")
                if not found and param:
                    return Decline(
                        f"`{helper}` is handed to `{qualname}`, which calls it as its parameter `{param}`: "
                        "that call runs whatever callers hand it, and offloading it would change them all"
                    )
                if len(found) != 1:
                    what = "no call" if not found else f"{len(found)} calls"
                    line = f" on line {sites[0].line}" if sites else ""
                    return Decline(f"ambiguous: {what} of `{helper}`{line} of `{qualname}`")
                return Site(file, found[0], function, "helper", helper=helper, callee=callee)
        return None

    def placement(self, finding: Finding) -> str | None:
        """Where the finding's call can leave the loop (``direct``, ``helper``, ``root`` or None:
        see :class:`Site`), as the call graph answered while checking: its fix request carries
        the answer. A finding that asked for no fix (an awaited call) asks this round's graph."""
        request = finding.fix_request
        if request is not None and request.kind == "call":
            return request.placement
        key = self._written_in(finding)
        return self.graph.placement(key) if self.graph is not None and key is not None else None

    def _written_in(self, finding: Finding) -> FunctionId | None:
        """The project function the finding's call is written in, in the graph (a finding inside
        an installed library is shown, and fixed, where the project calls into it)."""
        link = next((link for link in reversed(finding.chain) if link.path == finding.path), None)
        return self.graph.key_of(finding.path, link.function, link.line) if self.graph is not None and link else None

    def direct_site(self, finding: Finding, why: str = "the call is not written in `async def`") -> Site | Decline:
        """The finding's own call, for a recipe that rewrites it only where it is written in
        ``async def``: anywhere else it declines with ``why``, as not applicable (the next
        candidate is tried)."""
        site = self.site(finding)
        if isinstance(site, Decline) or site.placement == "direct":
            return site
        return Decline(why, applicable=False)

    def sites(self, finding: Finding) -> tuple[Site, ...] | Decline:
        """Every place the finding's call must leave the loop for the finding to be gone.

        Written in ``async def``: the call itself. Otherwise every hot route to the sync function
        it is in, not only the chain's: each call of a sync function on the way, written in an
        ``async def`` (a helper called twice, or from two coroutines), and each sync root the
        framework awaits, made ``async`` (with its call of the next function, or the call itself)."""
        primary = self.site(finding)
        if isinstance(primary, Decline) or primary.placement == "direct":
            return primary if isinstance(primary, Decline) else (primary,)
        graph, start = self.graph, self._written_in(finding)
        if graph is None or start is None:
            return (primary,)
        found: list[Site] = []
        roots: list[FunctionId] = []
        seen, queue = {start}, [start]
        while queue:
            key = queue.pop(0)
            if (hot := graph.hot_info(key)) is not None and hot.parent is None:
                roots.append(key)  # a sync root: no `async def` above it on this route
            for caller, call_site in graph.callers(key):
                if graph.hot_info(caller) is None:
                    continue
                if graph.function(caller).is_async:
                    site = self._call_site(graph, caller, call_site, "helper", key)
                    if isinstance(site, Decline):
                        return site
                    found.append(site)
                elif caller not in seen:
                    seen.add(caller)
                    queue.append(caller)
        for root in roots:
            made = self._root_sites(finding, graph, root, start)
            if isinstance(made, Decline):
                return made
            found.extend(made)
        return tuple(found) or (primary,)

    def _call_site(
        self, graph: CallGraph, caller: FunctionId, call_site: CallSite, placement: str, callee: FunctionId
    ) -> Site | Decline:
        path, qualname = graph.path_of(caller), graph.function(caller).qualname
        helper = graph.function(callee).qualname
        if path not in self.texts:
            return Decline(f"`{helper}` is also called on the loop by `{qualname}` in {path}, a file not being fixed")
        file = self.file(path)
        function = (
            self._root_node(graph, caller)
            if placement == "root"
            else file.function(qualname, graph.function(caller).line)
        )
        if isinstance(function, Decline):
            return function
        call = file.call_at(call_site.line, call_site.col, call_site.end_line, call_site.end_col)
        if function is None or call is None:
            return Decline(f"cannot find the call of `{helper}` in `{qualname}` at {path}:{call_site.line}")
        if call_site.method == ANY_NAME:  # ``getattr(api, name)(...)``: the thread runs whichever it picks
            dispatched = called_by_name(file, (call_site,), graph, caller)
            if isinstance(dispatched, str):
                return Decline(
                    f"`{helper}` is one of the methods `{qualname}` calls by name at {path}:{call_site.line}: "
                    + dispatched
                )
            return Site(file, call, function, placement, file.code(dispatched[0].func), callee, dispatched[1])
        if not calls_at(file, (call_site,), helper) and (held := held_call(file, (call_site,), graph, caller)):
            return Site(file, held[0], function, placement, file.code(held[0].func), callee, held[1])
        return Site(file, call, function, placement, helper=helper, callee=callee)

    def _root_sites(
        self, finding: Finding, graph: CallGraph, root: FunctionId, start: FunctionId
    ) -> list[Site] | Decline:
        """A sync root on a route to the finding's function, made ``async``: its calls of the
        functions on the way (or, when it is that function, the finding's own call)."""
        qualname, path = graph.function(root).qualname, graph.path_of(root)
        if not root_awaited(graph.hot_of(root).root_hook):
            return Decline(f"no `async def` on the way from `{qualname}`, and the framework does not await it")
        if unawaited := graph.root_unawaited(root):
            return Decline(f"no `async def` on the way from `{qualname}`, which cannot become one: {unawaited}")
        if root == start:
            located = self.locate(finding)
            if isinstance(located, Decline):
                return located
            file, call = located
            function = self._root_node(graph, root)
            if isinstance(function, Decline):
                return function
            checked = self._redefinable_root(path, qualname, function) or _returned(function, call)
            return checked or [Site(file, call, function, "root")]
        sites = []
        for callee, call_site in graph.callees(root):
            if callee == start or graph.reaches(callee, start):
                site = self._call_site(graph, root, call_site, "root", callee)
                if isinstance(site, Decline):
                    return site
                sites.append(site)
        if not sites:
            return Decline(f"cannot find the call that leads from `{qualname}` to the blocking call")
        function = sites[0].function
        returned = _returned(function, *(site.call for site in sites))
        return self._redefinable_root(path, qualname, function) or returned or sites

    def _redefinable_root(self, path: str, qualname: str, function: FunctionNode) -> Decline | None:
        """Why the root cannot become ``async def`` (a ``lambda``: return an awaitable), if it cannot."""
        becomes = "an awaitable" if isinstance(function, cst.Lambda) else "a coroutine"
        refused = self.redefinable(path, qualname, becomes)
        if refused is None and isinstance(function, cst.FunctionDef) and is_generator(function):
            refused = Decline(f"`{function.name.value}` is a generator")
        return refused

    def _root_node(self, graph: CallGraph, root: FunctionId) -> FunctionNode | Decline:
        """The root's ``def``, or the ``lambda`` it is when its framework awaits what it returns
        (RESULT_AWAITED: the lambda returns the awaitable; it cannot be made ``async``)."""
        function, path = graph.function(root), graph.path_of(root)
        file = self.file(path)
        if function.name != "<lambda>":
            found = file.function(function.qualname, function.line)
            return found if found is not None else Decline(f"cannot find `{function.qualname}`")
        hook = graph.hot_of(root).root_hook
        if hook not in RESULT_AWAITED:
            return Decline(
                f"the root is a `lambda` (a {hook.kind}), and the framework does not await what it returns: "
                "it cannot become `async def`"
            )
        node = file.lambda_at(function.line, function.col)
        return node if node is not None else Decline(f"cannot find the `lambda` at {path}:{function.line}")

    def _root_site(
        self, finding: Finding, located: tuple[ParsedFile, cst.Call | cst.Attribute, FunctionNode] | None
    ) -> Site | Decline:
        """The chain's root made ``async def``, with its call of the next function on the chain
        (or, when the finding's call is written in the root, that call: ``located``, the file,
        call and function it is written in; ``None`` for work of the project's own code, which
        the root's call moves)."""
        root_link = finding.chain[0]
        fix, request = finding.fix, finding.fix_request
        if request is not None and request.unawaited:
            return Decline(
                f"no `async def` on the chain, and `{root_link.function}` cannot become one: {request.unawaited}"
            )
        if fix is None and request is not None and request.root_awaited:
            # The root could become `async def`; what is missing is a recipe for the call itself.
            return Decline(
                f"the knowledge base names no fix recipe for `{request.target}` called from a framework hook"
            )
        if fix is None or not fix.root_awaited:
            return Decline(f"no `async def` on the chain, and the framework does not await `{root_link.function}`")
        graph, key = self.graph, self._written_in(finding)
        if graph is None or key is None:
            return Decline(f"cannot tell which calls lead from `{root_link.function}` (no call graph)")
        calls = graph.chain_calls(key)
        root = calls[0][0] if calls else key
        path, qualname = graph.path_of(root), graph.function(root).qualname
        if path not in self.texts:
            return Decline(f"cannot find `{qualname}`")
        root_file = self.file(path)
        root_def = self._root_node(graph, root)
        if isinstance(root_def, Decline):
            return root_def
        refused = self._redefinable_root(path, qualname, root_def)
        if refused is not None:
            return refused
        if calls:
            _, sites, callee = calls[0]
            helper = graph.function(callee).qualname
            found = calls_at(root_file, sites, helper)
            if not found and isinstance(root_def, cst.FunctionDef):
                found = aliased_calls(root_file, root_def, sites, graph, root)
            held = None if found else held_call(root_file, sites, graph, root)
            if (
                not found
                and held is None
                and not isinstance(by_name := called_by_name(root_file, sites, graph, root), str)
            ):
                held = by_name
            if held is not None:  # the field's call, or the call by name: whichever function it runs
                picked, ran = held
                helper = root_file.code(picked.func)
                return _returned(root_def, picked) or Site(root_file, picked, root_def, "root", helper, callee, ran)
        elif located is None:
            return Decline(f"the work is written in `{qualname}` itself: no call of it can move")
        elif len(finding.chain) > 2:  # the root's own call into an installed library (deep mode)
            helper = finding.chain[2].function
            found = calls_at(root_file, (), helper, located[1])
        else:
            file, call, _ = located
            return _returned(root_def, call) or Site(file, call, root_def, "root")
        if len(found) != 1:
            name = root_def.name.value if isinstance(root_def, cst.FunctionDef) else "lambda"
            return Decline(f"ambiguous: cannot single out the call of `{helper}` in `{name}`")
        return _returned(root_def, found[0]) or Site(root_file, found[0], root_def, "root", helper=helper)


def _returned(function: FunctionNode, *calls: cst.CSTNode) -> Decline | None:
    """Why a ``lambda`` root cannot return the awaitable of its ``calls`` instead of their value
    (``None`` when it can, or for a ``def``): only a single call that is the lambda's whole body is
    replaced by its awaitable; a call whose value the lambda uses (``float(f(x))``) would need an
    ``await`` it cannot hold."""
    if isinstance(function, cst.FunctionDef) or (len(calls) == 1 and calls[0] is function.body):
        return None
    what = "its calls' values" if len(calls) > 1 else "the call's value"
    return Decline(f"the `lambda` root does more with {what} than return it, and a `lambda` cannot await")


def _evaluated_in(file: ParsedFile, node: cst.CSTNode) -> FunctionNode | cst.ClassDef | None:
    """The function (or class body) whose code evaluates ``node``: a default value, decorator or
    annotation of a nested ``def`` is evaluated by the code around that ``def``."""
    child = node
    for ancestor in file.ancestors(node):
        if isinstance(ancestor, cst.FunctionDef | cst.Lambda | cst.ClassDef) and child is ancestor.body:
            return ancestor
        child = ancestor
    return None


def findings_within(project: FixProject, file: ParsedFile, node: cst.CSTNode, but: Finding) -> tuple[Finding, ...]:
    """The other findings whose call lies inside ``node``."""
    (start, end) = file.span(node)
    return tuple(
        f
        for f in project.findings_in(file.path, start[0], end[0])
        if f is not but and start <= (f.line, f.column - 1) and (f.end_line, f.end_column - 1) <= end
    )


def _applied_reason(callee: str, applier: str) -> str:
    """Why a callable handed to an applier (``map(requests.get, urls)``) is not offloaded alone."""
    return (
        f"`{callee}` is handed to `{applier}`, which calls it once per item: no call of it is written "
        f"to offload; offload the whole `{applier}(...)` call"
    )


class Fixer(Protocol):
    """A recipe: one finding and the project in, a fix or a decline out (see :mod:`asynclint.fixers.base`)."""

    def __call__(self, finding: Finding, project: FixProject) -> Fix | Decline: ...
