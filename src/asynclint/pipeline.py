"""One pipeline for every command: check a project (engine), then plan each finding's fix
(fixers' registry) and describe the rules (registry) -- the engine never asks the fixers."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from asynclint import fixers
from asynclint.analysis.graph import ProjectGraph
from asynclint.analysis.index.records import ModuleSummary
from asynclint.config import Config
from asynclint.engine import SourceFile, check, summarize
from asynclint.knowledge.catalogue import Catalogue
from asynclint.metadata import all_rule_meta
from asynclint.model import FileError, Result


def check_project(
    summaries: Sequence[ModuleSummary],
    texts: Mapping[str, str],
    config: Config,
    catalogue: Catalogue,
    errors: Sequence[FileError] = (),
    graph: ProjectGraph | None = None,
) -> Result:
    """:func:`asynclint.engine.check`, each finding with the fix ``asynclint fix`` would try."""
    result = check(summaries, texts, config, catalogue, errors, graph)
    return replace(result, findings=fixers.attach(result.findings), rules=all_rule_meta())


def check_sources(sources: Sequence[SourceFile], config: Config) -> Result:
    """Check in-memory sources as one project (tests, editors): no disk, no cache."""
    catalogue = config.catalogue()
    summaries: list[ModuleSummary] = []
    errors: list[FileError] = []
    for source in sources:
        outcome = summarize(source, catalogue)
        if isinstance(outcome, FileError):
            errors.append(outcome)
        else:
            summaries.append(outcome)
    return check_project(summaries, {s.path: s.text for s in sources}, config, catalogue, errors)
