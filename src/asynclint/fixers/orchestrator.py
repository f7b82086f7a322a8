"""Apply fixes to a project in memory: lint, ask the fixers, apply what does not overlap,
verify, repeat to a fixed point. Pure: texts in, new texts and a report out.

Verification, per round: every changed file must compile, and re-linting the whole project (the
engine, in memory) must show each finding a fix claimed gone -- the same rule, function and
callee, counted, whatever its line or the route that reaches it -- no finding gone that no fix
claimed and no edit lay on the route of, and no new finding more severe than the ones it
removed. A batch that fails is split in halves down to single fixes; a fix that fails alone is
reported and never applied. Edits that overlap in one round wait for the next, where the code
they target has been re-linted (often the first fix has removed the second finding too).
"""

from __future__ import annotations

import traceback
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

import libcst as cst

from asynclint import fixers
from asynclint.analysis.api import CallGraph
from asynclint.analysis.index.records import ModuleSummary
from asynclint.config import Config
from asynclint.engine import SourceFile, project_graph, summarize
from asynclint.fixers.apply import apply, edit_path, edit_spans, without_overlaps
from asynclint.fixers.base import Decline, Fix, builds_a_stream
from asynclint.fixers.cst.awaits import cancellation_window
from asynclint.fixers.project import FixProject
from asynclint.model import FileError, Finding, Result, Severity
from asynclint.pipeline import check_project
from asynclint.suppressions import rewritten_suppressed_line, suppressed_lines
from asynclint.twin_discovery import DiscoveredTwin, twin_calls, with_discovered

#: Rounds of lint -> fix -> verify; each round fixes everything that does not overlap, so real
#: files settle in two or three.
MAX_ROUNDS = 10

Key = tuple[str, str, str, str]  # (path, code, function, callee): a finding, whatever its line or chain


def finding_key(finding: Finding) -> Key:
    """What stays the same for a finding while fixes move lines around it or change the route by
    which its call is reached: its call site (the file and the function the call is written in)
    and its callee -- facts of the call, never the message (which names the route) nor whether a
    fix is planned (a rerouted finding may lose or gain one). A finding on the project's own
    work (ASL115-ASL119) has no callee, and its fix request's target is no stand-in: it names the
    function or the call to offload only while an ``async def`` calls it, so it appears when a fix
    makes the root ``async def``. Two findings can share a key (two sleeps in one function, two
    nests): compare counts."""
    function = finding.facts.function or next(
        (link.function for link in reversed(finding.chain) if link.path == finding.path), ""
    )
    return (finding.path, finding.code, function, finding.facts.callee)


@dataclass(frozen=True)
class Applied:
    """One fix made, for the report."""

    path: str  # the file changed
    finding: Finding  # the finding it was made for, as ``check`` reported it
    recipe: str
    safe: bool
    title: str
    note: str = ""
    also: tuple[str, ...] = ()  # other files the same fix changed (a helper's callers elsewhere)

    @property
    def paths(self) -> tuple[str, ...]:
        return (self.path, *self.also)


@dataclass(frozen=True)
class Left:
    """A finding still there at the end, and why."""

    finding: Finding
    reason: str


@dataclass(frozen=True)
class FixOutcome:
    original: dict[str, str]
    texts: dict[str, str]  # every file, fixed or not
    applied: tuple[Applied, ...]
    left: tuple[Left, ...]
    errors: tuple[FileError, ...]
    rounds: int
    checked: tuple[Finding, ...] = ()  # the findings in the original texts, before any fix
    #: A finding of any round -> the same finding as ``check`` reported it in the original texts.
    origins: Mapping[Finding, Finding] = field(default_factory=dict)
    #: The findings below ``config.min_severity`` in the original texts: not tried, but said.
    below: tuple[Finding, ...] = ()

    @property
    def changed(self) -> dict[str, str]:
        return {path: text for path, text in self.texts.items() if text != self.original[path]}

    def as_checked(self, findings: Sequence[Finding]) -> list[Finding]:
        """``findings`` (from any round) as ``check`` reported them in the original texts; one
        that was not there (a fix made it) keeps its own place."""
        return [self.origins.get(finding, finding) for finding in findings]

    @property
    def resolved(self) -> tuple[Finding, ...]:
        """Findings ``check`` reported that no fix claimed and that are gone all the same: their
        route ran through code another fix changed (verification accepts nothing else). With the
        fixed and the left, they add up to what ``check`` reported: all in original positions."""
        fixed = {applied.finding for applied in self.applied}
        left = set(self.as_checked([item.finding for item in self.left]))
        return tuple(finding for finding in self.checked if finding not in fixed and finding not in left)

    @property
    def introduced(self) -> tuple[Left, ...]:
        """Findings left that ``check`` did not report before: a fix made them (never one more
        severe than what it removed), placed in the fixed texts."""
        checked = set(self.checked)
        return tuple(item for item in self.left if self.origins.get(item.finding, item.finding) not in checked)


@dataclass(frozen=True)
class _Linted:
    result: Result
    graph: CallGraph  # the call graph the findings came from (who calls what, for the fixers)


class _Linter:
    """The engine over the current texts, re-indexing only files that changed."""

    def __init__(
        self,
        sources: Sequence[SourceFile],
        config: Config,
        libraries: Sequence[ModuleSummary] = (),
        twins: Sequence[DiscoveredTwin] = (),
    ):
        self.config, self.catalogue = config, with_discovered(config.catalogue(), twins)
        self.sources = {source.path: source for source in sources}
        self.libraries = list(libraries)  # deep mode: installed modules, never edited
        self._summaries: dict[str, tuple[str, ModuleSummary | FileError]] = {}

    def lint(self, texts: dict[str, str], *, every_severity: bool = False) -> _Linted:
        summaries: list[ModuleSummary] = []
        errors: list[FileError] = []
        for path, text in texts.items():
            cached = self._summaries.get(path)
            if cached is None or cached[0] != text:
                cached = self._summaries[path] = (
                    text,
                    summarize(replace(self.sources[path], text=text), self.catalogue),
                )
            summarized = cached[1]
            if isinstance(summarized, FileError):
                errors.append(summarized)
            else:
                summaries.append(summarized)
        # Deep mode: installed modules join the project for the analysis, never for editing.
        every = [*summaries, *self.libraries]
        graph = project_graph(every, self.config)
        config = replace(self.config, min_severity=Severity.LOW) if every_severity else self.config
        return _Linted(check_project(every, texts, config, self.catalogue, errors, graph), graph)


def fix_sources(
    sources: Sequence[SourceFile],
    config: Config,
    *,
    unsafe: bool = False,
    libraries: Sequence[ModuleSummary] = (),
    twins: Sequence[DiscoveredTwin] = (),
    only: Callable[[Finding], bool] | None = None,
) -> FixOutcome:
    """Fix every finding at or above ``config.min_severity`` that a fixer can, to a fixed point.
    ``libraries``: deep mode's summaries of installed modules, so blocking code inside them is
    fixed where the project calls in; ``twins``: deep mode's sync/async twins discovered in the
    installed packages the project imports (found as ``check`` finds them, rewritten by twin-call).
    ``only``: the findings to fix and report (the others are still checked: a fix must not make
    one worse)."""
    original = {source.path: source.text for source in sources}
    texts = dict(original)
    linter = _Linter(sources, config, libraries, twins)
    rewrites = twin_calls(twins)
    applied: list[Applied] = []
    reasons: dict[Finding, str] = {}  # by the finding as checked
    # Linted once at every severity, to say what the threshold leaves out; fixed at the threshold.
    linted = linter.lint(texts, every_severity=True)
    below = tuple(f for f in linted.result.findings if f.severity < config.min_severity and (only is None or only(f)))
    shown = tuple(f for f in linted.result.findings if f.severity >= config.min_severity)
    result = replace(linted.result, findings=shown)
    linted = replace(linted, result=result)
    checked = result.findings
    origins = {finding: finding for finding in checked}
    broken = {error.path for error in result.errors}
    rounds, settled = 0, False
    while rounds < MAX_ROUNDS:
        rounds += 1
        project = FixProject(
            {path: text for path, text in texts.items() if path not in broken}, result.findings, linted.graph, rewrites
        )
        found: dict[Finding, str] = {}  # this round's reasons, by this round's findings
        wanted = [finding for finding in result.findings if only is None or only(finding)]
        proposals = _propose(wanted, project, unsafe, found)
        chosen = without_overlaps(proposals, project, found)
        verified = _verified(chosen, project, texts, result, linter, found)
        reasons.update((origins[finding], reason) for finding, reason in found.items())
        if verified is None:
            settled = True
            break
        claimed = {claim for fix in verified.fixes for claim in fix.claims}
        for fix in verified.fixes:
            also = tuple(dict.fromkeys(edit_path(edit, fix) for edit in fix.edits if edit_path(edit, fix) != fix.path))
            applied.extend(
                Applied(fix.path, origins[claim], fix.recipe, fix.safe, fix.title, fix.note, also)
                for claim in fix.claims
            )
        texts, linted = verified.texts, verified.linted
        origins = _follow(result.findings, claimed, linted.result.findings, origins)
        result = linted.result
    unfinished = f"not reached in {MAX_ROUNDS} rounds of fixes; run `asynclint fix` again"
    left = tuple(
        Left(finding, reasons.get(origins[finding], "no automatic fix for this call") if settled else unfinished)
        for finding in result.findings
        if only is None or only(finding)
    )
    return FixOutcome(original, texts, tuple(applied), left, result.errors, rounds, tuple(checked), origins, below)


def _follow(
    before: Sequence[Finding], claimed: set[Finding], after: Sequence[Finding], origins: Mapping[Finding, Finding]
) -> dict[Finding, Finding]:
    """``origins`` carried over one round of fixes: the findings no fix claimed are still there,
    in the same order among those with the same key (their lines may have moved); a finding
    with nothing to match was made by the round (or reached by a new route) and is its own."""
    waiting: dict[Key, list[Finding]] = {}
    for finding in sorted(before, key=Finding.sort_key):
        if finding not in claimed:
            waiting.setdefault(finding_key(finding), []).append(finding)
    carried = {}
    for finding in sorted(after, key=Finding.sort_key):
        queue = waiting.get(finding_key(finding))
        carried[finding] = origins[queue.pop(0)] if queue else finding
    return carried


def _propose(findings: Sequence[Finding], project: FixProject, unsafe: bool, reasons: dict[Finding, str]) -> list[Fix]:
    """One fix per finding where some fixer can; the reason recorded where none can."""
    proposals: list[Fix] = []
    for finding in findings:
        if finding.path not in project.texts:
            continue
        if finding.fix is None:
            reasons[finding] = _why_no_fix(finding, project)
            continue
        recipe, twin = finding.fix.recipe, bool(finding.facts.twin)  # the knowledge names an async twin
        names = fixers.candidates(recipe, unsafe, twin)
        declines: list[Decline] = []
        for name in names:
            outcome = _run_fixer(name, finding, project)
            if isinstance(outcome, Fix) and not outcome.safe and not unsafe:
                # a safe recipe that found this particular rewrite unsafe (its note says why)
                outcome = Decline(f"unsafe fix, needs --unsafe-fixes: {outcome.note or outcome.title}")
            if isinstance(outcome, Fix) and (leak := _cancellation_leak(outcome, project)):
                outcome = Decline(leak)
            if isinstance(outcome, Fix):
                marked = _rewrites_suppressed(outcome, project)
                if marked is not None:
                    outcome = Decline(marked)
            if isinstance(outcome, Fix):
                proposals.append(_with_inner_claims(outcome, findings, project))
                break
            declines.append(outcome)
        else:
            reasons[finding] = _decline_reason(fixers.candidates(recipe, True, twin), names, declines)
    return proposals


def _cancellation_leak(fix: Fix, project: FixProject) -> str:
    """Why the fix must not be applied because an ``await`` it adds is a point where a
    cancellation leaks a resource ("" when none is): see :func:`cancellation_window`. Checked here,
    for every recipe, where an edit adds an ``await`` to a statement of an ``async def``."""
    for edit in fix.edits:
        if isinstance(edit.node, cst.FunctionDef):
            continue  # a sync function made `async def`: it had no awaits to be cancelled at before
        adds_await = _awaits(edit.replacement) > _awaits(edit.node)
        if adds_await and (why := cancellation_window(project.file(edit_path(edit, fix)), edit.node)):
            return why
    return ""


def _awaits(node: cst.CSTNode | cst.FlattenSentinel) -> int:
    class Count(cst.CSTVisitor):
        found = 0

        def visit_Await(self, node: cst.Await) -> None:
            self.found += 1

        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return False  # a helper defined in the edit awaits nothing where it is defined

        def visit_Lambda(self, node: cst.Lambda) -> bool:
            return False

    count = Count()
    for part in node.nodes if isinstance(node, cst.FlattenSentinel) else [node]:
        part.visit(count)
    return count.found


def _rewrites_suppressed(fix: Fix, project: FixProject) -> str | None:
    """Why ``fix`` must not be made: it would rewrite a line a suppression comment covers (or
    part a comment from the line below it it covers). Someone decided about that line; a fix
    never overrides the decision, whichever rule the comment names."""
    texts = {path: project.texts[path] for path in dict.fromkeys(edit_path(edit, fix) for edit in fix.edits)}
    if not any(suppressed_lines(text) for text in texts.values()):
        return None
    try:
        after = apply([fix], project, {**project.texts})
    except Exception:  # libcst refuses to render it: verification reports that
        return None
    for path, before in texts.items():
        line = rewritten_suppressed_line(before, after[path])
        if line is not None:
            # Quoted, not numbered: the lines move as other fixes land, and a dry run writes nothing.
            where = "" if path == fix.path else f" in {path}"
            return (
                f"its edit would rewrite `{before.splitlines()[line - 1].strip()}`{where}, a line a "
                "suppression comment covers (marked lines are left as written)"
            )
    return None


def _run_fixer(name: str, finding: Finding, project: FixProject) -> Fix | Decline:
    try:
        return fixers.load(name)(finding, project)
    except Exception as exc:  # a fixer bug must cost one fix, not the run
        where = traceback.extract_tb(exc.__traceback__)[-1]
        return Decline(f"internal error in the {name} fixer ({type(exc).__name__}: {exc} at line {where.lineno})")


def _decline_reason(every: Sequence[str], tried: Sequence[str], declines: list[Decline]) -> str:
    """The reason to show: the first decline from a recipe that applied to this code (one that
    merely did not fit its shape says little), and whether an unsafe recipe (of ``every`` that
    could be tried) was not tried."""
    skipped = [name for name in every if name not in tried and not fixers.SPECS[name].safe]
    relevant = [decline for decline in declines if decline.applicable]
    if not relevant and skipped:
        return f"unsafe fix, needs --unsafe-fixes: {fixers.SPECS[skipped[0]].unsafe_because}"
    reason = relevant[0].reason if relevant else declines[-1].reason if declines else "no fixer applies"
    if skipped:
        reason += f" (an unsafe recipe exists: --unsafe-fixes tries `{skipped[0]}`)"
    return reason


def _why_no_fix(finding: Finding, project: FixProject) -> str:
    """For a finding ``check`` shows without a fix: where the analysis gives up, in words."""
    if finding.facts.suppression:  # ASL901: the comment is the user's decision to edit
        return "no automatic fix: edit the suppression comment (fix never rewrites a line one covers)"
    if finding.facts.run_by_framework:  # the framework's own method calls the client, unawaited
        owner = finding.facts.handed_to.partition(".")[0]
        return (
            f"no automatic fix: `{finding.facts.root}` is the framework's own method and calls the client "
            f"without awaiting it (an async client would not be awaited); subclass `{owner}` and override "
            f"`{finding.facts.handed_through}`, or hand it to another class"
        )
    if len(finding.chain) < 2:  # a definition's finding: no call on a hot path to rewrite
        return "no automatic fix: the knowledge base names no fix recipe for this finding"
    applied = finding.fix_request is not None and finding.fix_request.applier
    if finding.chain[-1].path not in project.texts and not applied:  # deep mode: inside an installed package
        return (
            "no automatic fix: the blocking code runs inside the awaited library coroutine; "
            "only the library can take it off the loop"
        )
    site = project.site(finding)
    if isinstance(site, Decline):
        return f"no automatic fix: {site.reason}"
    if streams := builds_a_stream(finding.facts.callee):
        return f"no automatic fix: {streams}"
    return "no automatic fix: the knowledge base names no fix recipe for this API"


def _with_inner_claims(fix: Fix, findings: Sequence[Finding], project: FixProject) -> Fix:
    if not fix.claims_inside:
        return fix
    spans = edit_spans(fix, project)
    inner = tuple(
        finding
        for finding in findings
        if finding not in fix.claims
        and any(
            span[0] == finding.path
            and span[1] <= (finding.line, finding.column - 1)
            and (finding.end_line, finding.end_column - 1) <= span[2]
            for span in spans
        )
    )
    return replace(fix, claims=fix.claims + inner)


@dataclass(frozen=True)
class _Verified:
    fixes: list[Fix]
    texts: dict[str, str]  # the project with them applied
    linted: _Linted  # and linted


def _verified(
    chosen: list[Fix],
    project: FixProject,
    texts: dict[str, str],
    before: Result,
    linter: _Linter,
    reasons: dict[Finding, str],
) -> _Verified | None:
    """The fixes whose result compiles and re-lints clean of what they claimed (the whole batch
    when it can), with the texts and findings that result. A batch that fails is split in halves,
    down to single fixes, and a fix that fails alone is declined: with one bad fix among n, that
    takes about 2 log2(n) re-lints, where retrying each fix alone took n (fixing a file with
    thousands of findings went quadratic)."""
    if not chosen:
        return None
    groups = _passing(chosen, project, texts, before, linter, reasons)
    if not groups:
        return None
    if len(groups) == 1:
        return groups[0]
    together = _check([fix for group in groups for fix in group.fixes], project, texts, before, linter)
    # groups that pass apart but clash together: the first now, the rest next round
    return together if isinstance(together, _Verified) else groups[0]


def _passing(
    fixes: list[Fix],
    project: FixProject,
    texts: dict[str, str],
    before: Result,
    linter: _Linter,
    reasons: dict[Finding, str],
) -> list[_Verified]:
    """Groups of ``fixes``, each verified together, leaving out (with the reason) each fix that
    fails on its own."""
    outcome = _check(fixes, project, texts, before, linter)
    if isinstance(outcome, _Verified):
        return [outcome]
    if len(fixes) == 1:
        for claim in fixes[0].claims:
            reasons[claim] = f"the `{fixes[0].recipe}` fix failed verification and was not applied: {outcome}"
        return []
    half = len(fixes) // 2
    return [
        *_passing(fixes[:half], project, texts, before, linter, reasons),
        *_passing(fixes[half:], project, texts, before, linter, reasons),
    ]


def _check(
    fixes: list[Fix], project: FixProject, texts: dict[str, str], before: Result, linter: _Linter
) -> _Verified | str:
    """The verified outcome of applying these fixes, or why they must not be applied."""
    try:
        after_texts = apply(fixes, project, texts)
    except Exception as exc:  # libcst refuses to render an invalid tree
        return f"the edited code cannot be rendered ({type(exc).__name__}: {exc})"
    for path, text in after_texts.items():
        if text == texts[path]:
            continue
        try:
            compile(text, path, "exec", dont_inherit=True)
        except (SyntaxError, ValueError) as exc:
            return f"the result does not compile ({exc})"
    linted = linter.lint(after_texts)
    after = linted.result
    if len(after.errors) > len(before.errors):
        return f"the result cannot be analysed ({after.errors[0].message})"
    old, new = Counter(map(finding_key, before.findings)), Counter(map(finding_key, after.findings))
    unique = dict.fromkeys(claim for fix in fixes for claim in fix.claims)  # two fixes may claim one finding
    claims = {finding_key(claim): claim for claim in unique}
    claimed = Counter(map(finding_key, unique))
    for key, count in claimed.items():
        if new[key] > old[key] - count:
            claim = claims[key]
            return f"`{claim.code}` at {claim.path}:{claim.line} is still reported after the edit"
    if vanished := _unexplained(fixes, project, before.findings, old - new, claimed):
        return (
            f"`{vanished.code}` at {vanished.path}:{vanished.line} disappeared without any fix claiming it"
            " or any edit on its route: the edit changed more than it says"
        )
    worst = max((claim.severity for fix in fixes for claim in fix.claims), default=Severity.LOW)
    for finding in after.findings:
        key = finding_key(finding)
        if new[key] > old[key] and finding.severity > worst:
            return f"it would add a {finding.severity.label} `{finding.code}` finding ({finding.message})"
    return _Verified(fixes, after_texts, linted)


def _unexplained(
    fixes: list[Fix], project: FixProject, before: Sequence[Finding], gone: Counter, claimed: Counter
) -> Finding | None:
    """A finding that disappeared although no fix claimed it, and nothing explains it: neither
    its call nor a call on its route (a link of its chain) lies in code the fixes edited (a
    helper offloaded by another finding's fix takes its other blocking calls off the loop too).
    Such a batch is suspect: it is retried one fix at a time, and a fix that does it alone is
    declined."""
    spans = [span for fix in fixes for span in edit_spans(fix, project)]

    def on_route(finding: Finding) -> bool:
        links = [(link.path, link.line) for link in finding.chain[1:]] + [(finding.path, finding.line)]
        return any(span[0] == path and span[1][0] <= line <= span[2][0] for span in spans for path, line in links)

    waiting: dict[Key, list[Finding]] = {}
    for finding in before:
        waiting.setdefault(finding_key(finding), []).append(finding)
    for key, count in gone.items():
        unclaimed = count - claimed[key]
        if unclaimed <= 0:
            continue
        candidates = waiting.get(key, [])
        if sum(on_route(finding) for finding in candidates) < unclaimed:
            return next((finding for finding in candidates if not on_route(finding)), candidates[0])
    return None
