"""The HTML report (``--html``): rendered from a real short run and from a comparison, checked for
its sections, its site rows against the JSON report, escaping, and that it fetches nothing."""

from __future__ import annotations

import json
import re
from html import escape
from html.parser import HTMLParser
from pathlib import Path

import pytest
from conftest import profile_json, run

from asynclint.profiler.attribution import analyze
from asynclint.profiler.compare import compare
from asynclint.profiler.html import TOP_SITES, lag_chart, render_compare_html, render_html
from asynclint.profiler.records import LagTimeline, Recording, Sample, Stall
from asynclint.profiler.report import OutputsDigest, ProfileReport, Settings, StaticSummary, to_dict
from asynclint.profiler.session import html_call_tree

SCRIPT = "<script>alert(1)</script>"
#: What would make a browser fetch something: a src/href/url()/@import pointing at the network.
REMOTE = re.compile(
    r"""(?:\b(?:src|href|action|poster)\s*=\s*["']?\s*(?:https?:)?//|url\(\s*["']?\s*(?:https?:)?//"""
    r"""|@import)""",
    re.IGNORECASE,
)


class Page(HTMLParser):
    """What the tests look at: headings, table rows, script and style content, unclosed tags."""

    VOID = frozenset({"meta", "br", "wbr", "img", "input", "link", "hr", "rect", "line", "source"})

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.headings: list[str] = []
        self.rows: list[list[str]] = []
        self.scripts = 0
        self.open: list[str] = []
        self._heading: list[str] | None = None
        self._cell: list[str] | None = None
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        if tag == "script":
            self.scripts += 1
        if tag not in self.VOID:
            self.open.append(tag)
        if tag == "h2":
            self._heading = []
        elif tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_startendtag(self, tag, attrs):
        if tag == "script":
            self.scripts += 1

    def handle_endtag(self, tag):
        if tag not in self.VOID:
            assert self.open and self.open[-1] == tag, f"</{tag}> closes {self.open[-1:]}"
            self.open.pop()
        if tag == "h2" and self._heading is not None:
            self.headings.append("".join(self._heading).strip())
            self._heading = None
        elif tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append(" ".join("".join(self._cell).split()))
            self._cell = None

    def handle_data(self, data):
        for part in (self._heading, self._cell):
            if part is not None:
                part.append(data)


def check_page(text: str) -> Page:
    page = Page(text)
    assert page.open == [], page.open
    assert not REMOTE.search(text), REMOTE.search(text)
    assert page.scripts == 0  # the page itself runs nothing; pyinstrument's tree runs in its sandboxed frame
    return page


def _code(name: str, path: str = "/srv/project/app.py"):
    namespace: dict = {}
    exec(compile("def work():\n    pass\n", path, "exec"), namespace)
    return namespace["work"].__code__.replace(co_name=name, co_qualname=name)


def test_user_controlled_strings_render_as_text():
    path = f"/srv/{SCRIPT}/app.py"
    stack = ((_code(SCRIPT, path), 1), (_code("step", path), 2))
    stall = Stall(due=10.5, duration=0.030, samples=(Sample(10.51, stack),), gc_time=0.0)
    recording = Recording(
        lags=(0.0001, 0.030),
        stalls=(stall,),
        started=10.0,
        wall=1.0,
        interval=0.002,
        threshold=0.005,
        method="signal",
        notes=(f"a note {SCRIPT}",),
        timeline=(0.0001, None, 0.030),
        timeline_s=0.3,
    )
    report = ProfileReport(
        target=f"app.py:{SCRIPT}",
        kind="callable",
        settings=Settings(4, 4, None, 50.0, 0, 5.0, 2.0, "signal"),
        rollouts=4,
        wall_s=1.0,
        analysis=analyze(recording, user_roots=("/srv",)),
        outputs=OutputsDigest.of((SCRIPT,), 0),
        static=StaticSummary(1, 0),
        first_error=SCRIPT,
    )
    doc = to_dict(report)
    assert doc["sites"][0]["function"] == SCRIPT
    text = render_html(doc, html_call_tree(recording))
    check_page(text)
    assert SCRIPT not in text and "<script" not in text.lower()  # the call tree's own scripts sit in srcdoc
    assert escape(SCRIPT) in text
    page = Page(text)
    assert any(SCRIPT in cell for row in page.rows for cell in row)  # shown, as text, in the sites table


def _one_stall_doc(path: str, stall_s: float) -> dict:
    """The JSON report of a run whose loop one function at ``path`` held for ``stall_s``."""
    stack = ((_code("handler", path), 1), (_code("step", path), 2))
    stall = Stall(due=10.5, duration=stall_s, samples=(Sample(10.51, stack),), gc_time=0.0)
    recording = Recording(
        lags=(0.0001, stall_s),
        stalls=(stall,),
        started=10.0,
        wall=4.0,
        interval=0.002,
        threshold=0.005,
        method="signal",
        notes=(),
        timeline=(0.0001, None, stall_s),
        timeline_s=1.0,
    )
    report = ProfileReport(
        target="app.py:main",
        kind="callable",
        settings=Settings(4, 4, None, 50.0, 0, 5.0, 2.0, "signal"),
        rollouts=4,
        wall_s=4.0,
        analysis=analyze(recording, user_roots=(path.rsplit("/", 1)[0],)),
        outputs=OutputsDigest.of(("ok",), 0),
        static=StaticSummary(1, 0),
        first_error=None,
    )
    return to_dict(report)


@pytest.mark.parametrize("stall_s", [0.05, 0.999, 1.0, 2.5, 10.0, 40.0])
def test_the_unit_of_the_lag_axis_clears_the_numbers_of_the_top_tick(stall_s: float):
    chart = lag_chart(_one_stall_doc("/srv/project/app.py", stall_s))
    texts = [
        (float(y), float(x), anchor, text)
        for x, y, anchor, text in re.findall(
            r'<text x="([\d.]+)" y="([\d.]+)" font-size="10"(?: text-anchor="(\w+)")? fill="#667">([^<]*)</text>', chart
        )
    ]
    unit = [entry for entry in texts if entry[3] == "ms"]
    ticks = [entry for entry in texts if re.fullmatch(r"[\d.]+", entry[3])]
    assert len(unit) == 1 and ticks, texts
    highest = min(y for y, *_ in ticks)
    assert any(float(text) >= 1000 for *_, text in ticks) == (stall_s >= 1.0)
    # Both 10 px text: the unit's baseline a full line plus a gap above the top tick's baseline.
    assert unit[0][0] + 10 + 2 <= highest, (unit, ticks)


def test_a_long_path_is_shortened_in_the_middle_and_whole_in_its_tooltip():
    path = "/srv/" + "/".join(f"package_with_a_long_name_{n}" for n in range(12)) + "/handler_module.py"
    doc = _one_stall_doc(path, 0.03)
    shown = doc["sites"][0]["path"]
    assert len(shown) > 200
    text = render_html(doc, None)
    page = check_page(text)
    row = next(row for row in page.rows if "handler" in " ".join(row))
    assert shown not in row[0] and row[0].startswith(shown[:10]) and row[0].endswith("handler_module.py:1"), row[0]
    assert len(row[0]) < 80
    assert f'title="{escape(shown)}:1"' in text
    # the caller's path too
    assert shown + ":2" not in " ".join(row) and f'title="{escape(shown)}:2"' in text


@pytest.mark.parametrize(
    "path",
    [
        "/srv/project/examples/wiki_qa/rewards.py",
        "/srv/" + "/".join(f"package_{n}" for n in range(12)) + "/handler_module.py",
    ],
)
def test_a_site_s_location_wraps_only_after_a_path_separator(path: str):
    text = render_html(_one_stall_doc(path, 0.03), None)
    check_page(text)
    locations = re.findall(r'<code class="loc"[^>]*>(.*?)</code>', text)
    assert locations, text
    for location in locations:
        *directories, name = location.split("<wbr>")
        # A break opportunity after every directory and nowhere else: not inside a name, not before ":line".
        assert all(part.endswith("/") and "/" not in part[:-1] for part in directories), location
        assert "/" not in name and re.fullmatch(r"[\w.]+\.py:\d+", name), location
    # The browser must not break inside a segment either (``overflow-wrap: anywhere`` did: "rewards.py" / ":78").
    rule = re.search(r"td code\.loc\{([^}]*)\}", text)
    assert rule and "overflow-wrap:normal" in rule.group(1) and "word-break:normal" in rule.group(1), rule


def test_the_lag_timeline_stays_bounded_and_keeps_each_bucket_s_maximum():
    timeline = LagTimeline(100.0, points=64, width=0.01)
    for beat in range(50_000):  # 100 s of 2 ms beats
        timeline.add(100.0 + beat * 0.002, 0.5 if beat == 31_234 else 0.001)
    series = timeline.series()
    assert len(series) <= 64 and timeline.width >= 100 / 64
    assert max(v for v in series if v is not None) == 0.5
    assert series.index(0.5) == int(31_234 * 0.002 / timeline.width)
    held = LagTimeline(0.0, points=8, width=1.0)
    held.add(0.5, 0.001)
    held.add(3.5, 2.9)  # the loop was held from 0.6 s: no beat ran in buckets 1 and 2
    assert held.series() == (0.001, None, None, 2.9)


@pytest.mark.slow
def test_the_page_of_a_real_run(workdir: Path):  # noqa: F811
    report = profile_json(workdir, "workload.py:stalls", "run.json", "--html", "run.html")
    timeline = report["lag"]["timeline"]
    assert 0 < len(timeline["max_ms"]) <= 2000 and timeline["bucket_s"] > 0
    assert max(v for v in timeline["max_ms"] if v is not None) == pytest.approx(report["lag"]["max_ms"], abs=0.01)
    text = (workdir / "run.html").read_text()
    page = check_page(text)
    assert page.headings[:3] == ["Lag over time", "Heartbeats by lag", "Where the loop was held"]
    assert "The worst stalls' call trees" in page.headings
    assert "<svg" in text and "<iframe" in text and "block_sleep" in text
    # One table row per site, in the JSON report's order, with its finding and share of blocked time.
    rows = [row for row in page.rows if len(row) == 8 and row[0] != "site"]
    assert len(rows) == min(len(report["sites"]), TOP_SITES) > 0
    for row, site in zip(rows, report["sites"], strict=False):
        assert row[0].startswith(f"{site['path']}:{site['line']}") and row[1].startswith(site["function"])
        share = site["total_ms"] / report["lag"]["blocked_ms"]
        assert row[6] == f"{share:.1%}"
        if site["finding"]:
            assert row[7].startswith(f"{site['finding']['code']} {site['finding']['severity']}")
        for caller in site["chain"]:
            assert f"← {caller['function']} {caller['path']}:{caller['line']}" in row[1]
    # The histogram lists every bucket with its count.
    counts = {row[0]: row[1] for row in page.rows if len(row) == 3}
    for bucket in report["lag"]["histogram"]:
        assert counts[bucket["bucket"]] == f"{bucket['count']:,}"


@pytest.mark.slow
def test_the_compare_page_shows_both_runs_and_reads_older_reports(workdir: Path):  # noqa: F811
    before = profile_json(workdir, "workload.py:stalls", "before.json")
    # An older report (version 2, no lag timeline) with different outputs, as --compare has read before.
    after = json.loads((workdir / "before.json").read_text())
    after["asynclint_profile"] = 2
    del after["lag"]["timeline"]
    after["outputs"]["sha256"] = "0" * 64
    after["outputs"]["values"][3] = SCRIPT
    fixed_site = next(site for site in after["sites"] if site["cause"] == "user")
    fixed_site["total_ms"] = 0.0
    (workdir / "after.json").write_text(json.dumps(after))
    result = run("profile", "--compare", "before.json", "after.json", "--html", "compare.html", cwd=workdir)
    assert result.returncode == 1, result.stderr  # the outputs differ
    text = (workdir / "compare.html").read_text()
    page = check_page(text)
    assert "Sites: stall time before and after" in page.headings
    assert {"Lag over time: before.json", "Lag over time: after.json"} <= set(page.headings)
    assert "1 of 64 outputs differ; first at rollout 3" in text and SCRIPT not in text
    assert "No lag timeline: this report (version 2)" in text and text.count("<svg") == 1
    changes = compare(before, after, "before.json", "after.json").sites
    rows = [row for row in page.rows if len(row) == 7 and row[0] != "site"]
    assert len(rows) == min(len(changes), TOP_SITES)
    fixed = next(
        row for row in rows if row[:2] == [f"{fixed_site['path']}:{fixed_site['line']}", fixed_site["function"]]
    )
    assert fixed[6] == "none left" and fixed[4] == "0.0 ms"
    assert render_compare_html(before, after, compare(before, after)) != text  # names come from the command line
    after["lag"]["timeline"] = {"bucket_s": "x", "max_ms": ["nan"]}  # hand-edited: left out, not a crash
    assert "No lag timeline" in render_compare_html(before, after, compare(before, after))
