"""The pure core: summaries -> project graph -> rules -> findings.

Nothing here reads files, prints, exits or plans fixes: :mod:`asynclint.pipeline` feeds it and
attaches the fixes, and the CLI shows the :class:`~asynclint.model.Result`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from asynclint.analysis.graph import ProjectGraph
from asynclint.analysis.index.records import IndexError_, ModuleSummary
from asynclint.analysis.index.walker import index_source
from asynclint.config import Config
from asynclint.knowledge.catalogue import Catalogue
from asynclint.model import FileError, Finding, Result
from asynclint.rules import ALL_RULES, phrasing, rules_anywhere
from asynclint.rules.context import CheckContext


@dataclass(frozen=True)
class SourceFile:
    path: str  # as shown to the user
    text: str
    module: str  # dotted module name, from the package layout
    package: str  # the package relative imports resolve against
    imports: Sequence[tuple[str, str]] = ()  # see asynclint.module_names.ModuleName


def summarize(source: SourceFile, catalogue: Catalogue) -> ModuleSummary | FileError:
    try:
        return index_source(source.text, source.path, source.module, source.package, catalogue, source.imports)
    except IndexError_ as exc:
        return FileError(source.path, str(exc))


def project_graph(
    summaries: Sequence[ModuleSummary], config: Config, catalogue: Catalogue | None = None
) -> ProjectGraph:
    """The call graph ``check`` reads (summaries in path order); the fixers ask it too."""
    ordered = sorted(summaries, key=lambda s: s.path)
    catalogue = catalogue or config.catalogue()
    graph = ProjectGraph(
        ordered,
        config.hot_roots,
        config.cold_roots,
        config.registrations,
        catalogue,
        config.memoizers,
        config.framework_versions,
        config.framework_settings,
        config.declared_packages,
    )
    if config.follow_imports:
        # Deep mode asks each graph first where hot code calls into installed code: the follower
        # to read those modules next, and the check of the graph the follower built last (its
        # summaries are the check's: not built again). Asked of every deep graph, so that one
        # asked by the follower and one built for the check answer the rules alike -- what
        # ``resolve`` remembers of a cycle of values depends on which name was asked first.
        graph.external_calls(catalogue)
    return graph


def check(
    summaries: Sequence[ModuleSummary],
    texts: Mapping[str, str],
    config: Config,
    catalogue: Catalogue,
    errors: Sequence[FileError] = (),
    graph: ProjectGraph | None = None,
) -> Result:
    """Findings of every enabled rule over the whole project, order-independent, without fix
    plans (:func:`asynclint.pipeline.check_project` adds them). ``graph``: :func:`project_graph`
    of the same summaries, when the caller has built it already."""
    graph = graph or project_graph(summaries, config, catalogue)
    context = CheckContext(graph, texts, config, catalogue)
    findings: list[Finding] = []
    inside_libraries: list[Finding] = []
    # Each file's configuration picks its own rules (CheckContext.keep). A rule that reads the
    # others' findings (ASL120) sees them whether they are reported or not: the configuration
    # switching a rule off hides its findings, as a suppression does, so it runs for the reader
    # and what it yields is dropped.
    reported = rules_anywhere(config)
    run = ALL_RULES if any(rule.reads_findings for rule in reported) else reported
    for rule in sorted(run, key=lambda rule: (rule.runs_last, rule.reads_findings)):
        for finding in rule().check(context):
            if rule in reported:
                (inside_libraries if finding.facts.library else findings).append(finding)
    findings.extend(_one_per_call(inside_libraries, findings))
    findings.sort(key=Finding.sort_key)
    return Result(
        findings=tuple(findings),
        errors=tuple(sorted(errors, key=lambda e: e.path)),
        files_checked=sum(1 for s in summaries if s.library is None) + len(errors),
        paths=tuple(sorted({*(s.path for s in summaries if s.library is None), *(e.path for e in errors)})),
    )


def _one_per_call(findings: list[Finding], catalogued: list[Finding]) -> list[Finding]:
    """Offenders inside an installed library, one finding per project call into it: the worst
    (then the one with the shortest chain), naming how many more there are. One call, one
    fix: offload the call. None where the knowledge base already reports that call as badly
    (``catalogued``: ``vf.Judge(config).complete(...)`` is its entry's finding, not also the
    ``httpx.AsyncClient`` deep mode reads inside it): the catalogue is trusted first."""
    known: dict[tuple[str, int, int], int] = {}
    for finding in catalogued:
        place = (finding.path, finding.line, finding.column)
        known[place] = max(known.get(place, finding.severity), finding.severity)
    by_call: dict[tuple[str, int, int], list[Finding]] = {}
    for finding in findings:
        by_call.setdefault((finding.path, finding.line, finding.column), []).append(finding)
    kept = []
    for place, group in by_call.items():
        group.sort(key=lambda f: (-f.severity, len(f.chain), f.code, f.message))
        worst, others = group[0], group[1:]
        if known.get(place, -1) >= worst.severity:
            continue
        if others:
            facts = replace(worst.facts, also_inside=tuple(sorted(f.code for f in others)))
            worst = replace(worst, facts=facts, message=worst.message + phrasing.also_inside(facts.also_inside))
        kept.append(worst)
    return kept
