"""Where a dotted name is defined: re-exports followed through ``__init__`` modules, star
imports (``__all__`` or public names), public alias modules, namespace portions below a
package's directory and top-level modules spelled through the namespace directories above them.
Part of :class:`asynclint.analysis.graph.ProjectGraph`; what names denote once found is
:mod:`asynclint.analysis.resolution`."""

from __future__ import annotations

import functools
import sys
from collections.abc import Iterator, Mapping
from pathlib import PurePath

from asynclint.analysis.graph_records import MAX_ALIAS_HOPS
from asynclint.analysis.graph_state import GraphState
from asynclint.knowledge.blocking import RETURNS
from asynclint.knowledge.frameworks import FRAMEWORK_PACKAGES


class Exports(GraphState):
    """Part of :class:`asynclint.analysis.graph.ProjectGraph`, which holds the state."""

    def canonical(self, name: str) -> str:
        """Follow re-exports: ``pkg.helper`` imported into ``pkg/__init__`` (or brought there by
        ``from .mod import *``) -> ``pkg.mod.helper``."""
        found = self._canonical.get(name)
        if found is None:
            found = self._canonical[name] = self._follow_exports(name)
        return found

    def exported_as(self, name: str) -> tuple[str, ...]:
        """The public spellings of canonical ``name``: ``selenium.webdriver.chrome.webdriver.
        WebDriver.get`` is also ``selenium.webdriver.Chrome.get`` where ``selenium.webdriver``
        exports the class under that name. The knowledge base names library APIs as users write
        them; deep mode, reading a package's exports, resolves them to where they are defined."""
        names, rest = self._exported_head(name)
        return tuple(f"{public}{rest}" for public in names)

    def known(self, table: Mapping[str, str], name: str) -> str | None:
        """``table``'s value for ``name`` or, failing that, for its first public spelling that has one."""
        found = table.get(name)
        if found is None:
            # Spelled one at a time and not kept: resolution asks this of every library attribute
            # it walks, and kept, the spellings of every name asked grew faster than the tree
            # (8.7 MB of a 504-file check's 83.5, 2.7x for twice the files; round mem29).
            names, rest = self._exported_head(name)
            found = next(filter(None, (table.get(f"{public}{rest}") for public in names)), None)
        return found

    def _exported_head(self, name: str) -> tuple[tuple[str, ...], str]:
        """The names ``name``'s longest exported head is exported under (the exporters' shared
        tuple) and the rest of ``name`` after that head (``()`` first where it is an instance
        of it), or no names."""
        if self._exporters is None:
            exporters: dict[str, list[str]] = {}
            for module, table in self.exports.items():
                for exported, target in table.items():
                    if f"{module}.{exported}" != target:
                        exporters.setdefault(self.canonical(target), []).append(f"{module}.{exported}")
            self._exporters = {target: tuple(sorted(names)) for target, names in exporters.items()}
        end = len(name)
        while end > 0:
            head = name[:end]
            names = self._exporters.get(head.removesuffix("()"))  # the class, or an instance of it
            if names:
                return names, name[end - 2 :] if head.endswith("()") else name[end:]
            end = name.rfind(".", 0, end)
        return (), ""

    def _follow_exports(self, name: str) -> str:
        for _ in range(MAX_ALIAS_HOPS):
            if self._defined(name):
                return name
            head, _, tail = name.rpartition(".")
            module, rest = head, [tail]
            while module and module not in self.modules:
                module, _, part = module.rpartition(".")
                rest.insert(0, part)
            exported = self.exports.get(module, {}).get(rest[0]) if module else None
            if exported is None and module in self.stars and not self._defined(f"{module}.{rest[0]}"):
                exported = self._star_export(module, rest[0])  # its own names win over star imports
            if exported is None and len(rest) > 1 and module in self.stars:
                exported = self._star_submodule(module, rest[0])
            if exported is None:  # nothing the module names: perhaps a namespace portion below it
                # (a module of its own is itself, never a stray top-level module's spelling of it)
                portion = self._portion(name) if name not in self.modules else None
                if portion is None:
                    return name
                name = portion
                continue
            if exported == f"{module}.{rest[0]}":  # a re-export written as its own name (renamed_to)
                exported = next((alias for alias in renamed_to(exported) if self._defined(alias)), None)
                if exported is None:
                    return name
            name = ".".join([exported, *rest[1:]])
        return name

    def _defined(self, name: str) -> bool:
        return name in self.defs or name in self.classes or name in self.values or name in self.callables

    def _star_submodule(self, package: str, name: str) -> str | None:
        """A public alias module: ``package.name.x``, where ``package`` has no submodule ``name``
        but star-imports a package that has one, is that one's (``aliasfw.utils.net_utils`` ->
        ``aliasfw.legacy.utils.net_utils`` under ``from aliasfw.legacy import *``). verifiers 0.3
        answers for its v0 modules at their old paths so, through a meta-path finder no static
        reading can run; the star import is what its package states."""
        packages = self._packages()
        if f"{package}.{name}" in packages:
            return None  # a submodule of its own, loaded or not
        for source in reversed(self.stars[package]):
            if f"{source}.{name}" in packages:
                return f"{source}.{name}"
        return None

    def _portion(self, name: str) -> str | None:
        """``pkg.tasks.maze.scripts.verifier.X`` -> ``verifier.X`` when ``tasks/maze/scripts/
        verifier.py`` lies below package ``pkg``'s directory with no ``__init__.py`` between: read
        as the top-level ``verifier`` (its directory is an import root of its own, the scripts there
        importing each other by bare names), it is also the namespace portion a relative import in
        ``pkg`` reaches (``from .tasks.maze.scripts.verifier import X``). Outside any package,
        ``core.desktop.X`` -> ``desktop.X`` (:func:`_spellings`)."""
        head = name
        while head:
            found = self._portions.get(head)
            if found is not None:
                return found + name[len(head) :]
            head = head.rpartition(".")[0]
        return None

    def _namespace_portions(self) -> dict[str, str]:
        """Each top-level module of the project below a package's directory -> the dotted name the
        package reaches it by, and each one outside any package -> the names the namespace
        directories above it spell it by (see :meth:`_portion`; a name two modules are spelled by
        means neither)."""
        packages = {
            PurePath(summary.path).parent: summary.module
            for summary in self.summaries
            if summary.library is None and PurePath(summary.path).name == "__init__.py"
        }
        portions: dict[str, str] = {}
        spelled: dict[str, str | None] = {}
        for summary in self.summaries:
            # Top-level: no dot before the mark of a root shared by several (``utils@env_a``,
            # asynclint.module_names.ROOT_MARK).
            if summary.library is not None or "." in summary.module.partition("@")[0]:
                continue
            path = PurePath(summary.path)
            path = path.parent if path.name == "__init__.py" else path.with_suffix("")
            package = next((parent for parent in path.parents if parent in packages), None)
            if package is not None:
                portions.setdefault(".".join((packages[package], *path.relative_to(package).parts)), summary.module)
                continue
            for name in _spellings(path):
                spelled[name] = summary.module if spelled.get(name, summary.module) == summary.module else None
        for name, module in spelled.items():
            if module is not None:
                portions.setdefault(name, module)
        return portions

    def _packages(self) -> frozenset[str]:
        """Every module read and every package above one."""
        if self._package_names is None:
            names: set[str] = set()
            for module in self.modules:
                parts = module.split(".")
                names.update(".".join(parts[:end]) for end in range(1, len(parts) + 1))
            self._package_names = frozenset(names)
        return self._package_names

    def _star_export(self, module: str, name: str, depth: int = 0) -> str | None:
        """Where ``from m import *`` in ``module`` gets ``name`` from: the last star-imported
        project module that defines or imports it, and exports it (``__all__``, else not private)."""
        for source in reversed(self.stars.get(module, ())):
            if source not in self.modules or depth > MAX_ALIAS_HOPS:
                continue
            public = self.public.get(source)
            if (name not in public) if public is not None else name.startswith("_"):
                continue
            if self._defined(f"{source}.{name}") or name in self.exports.get(source, {}):
                return f"{source}.{name}"
            further = self._star_export(source, name, depth + 1)
            if further is not None:
                return further
        return None


def _spellings(path: PurePath) -> Iterator[str]:
    """The dotted names a top-level module at ``path`` (no suffix) is imported by from the
    directories above its own, each a namespace package (PEP 420): ``core/desktop`` is
    ``core.desktop`` to the script that puts ``core``'s parent on ``sys.path`` (``sys.path.insert(0,
    str(Path(__file__).parents[1]))``) or runs from there. Up to the first directory no import can
    spell (``00-envs``), and never under a standard-library or framework name: those are found
    before any directory a script adds."""
    parts = [path.name]
    for directory in path.parents:
        if not directory.name.isidentifier():
            return
        parts.insert(0, directory.name)
        if directory.name in sys.stdlib_module_names or directory.name in FRAMEWORK_PACKAGES:
            return
        yield ".".join(parts)


@functools.cache
def renamed_to(public: str) -> tuple[str, ...]:
    """The names :data:`~asynclint.knowledge.blocking.RETURNS` renames to ``public``: where a library
    defines a class the knowledge base calls by its re-export (``jericho.jericho.FrotzEnv`` for
    ``jericho.FrotzEnv``). The index writes such a re-export under the public name, so a package's
    ``from .jericho import FrotzEnv`` reads as the package's own name, not as the way to the class."""
    return tuple(name for name, renamed in RETURNS.items() if renamed == public and not name.endswith(")"))
