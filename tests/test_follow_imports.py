"""Deep mode (``--follow-imports``): blocking code inside installed packages, reported at the
project's call into them.

``tests/fixtures/deep/site`` stands for a site-packages directory (two distributions with
their ``.dist-info``: ``slowlib`` 1.2.0, declaring its packages in ``top_level.txt``, and
``otherlib`` 0.3, only in its ``RECORD``); ``tests/fixtures/deep/project`` is the project,
whose ``# expect:`` lines state the findings of deep mode at the default depth. Nothing in
either is ever imported.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
from pathlib import Path

import pytest
from conftest import expectations, run as run_cli

from asynclint.config import Config, ConfigError, load
from asynclint.model import ChainLink, Result
from asynclint.report import render
from asynclint.runner import CACHE_DIR, run_check

DEEP = Path(__file__).parent / "fixtures" / "deep"
ENV = "deep_env/env.py"


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the fixture tree (caches and version bumps must not touch the original),
    with the project as the working directory."""
    shutil.copytree(DEEP, tmp_path / "deep", ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.chdir(tmp_path / "deep" / "project")
    return tmp_path / "deep"


def deep_check(tree: Path, *, depth: int | None = None, follow: bool = True, cache: bool = False) -> Result:
    config = dataclasses.replace(Config(root=tree / "project"), follow_imports=follow)
    if depth is not None:
        config = dataclasses.replace(config, follow_depth=depth)
    result = run_check(["."], config, use_cache=cache, search_path=[str(tree / "site")])
    assert not result.errors, result.errors
    return result


def found(result: Result) -> set[tuple[int, str, str]]:
    assert {f.path for f in result.findings} <= {ENV}, "library files are never reported themselves"
    return {(f.line, f.code, f.severity.label) for f in result.findings}


def expected(tree: Path) -> set[tuple[int, str, str]]:
    return expectations((tree / "project" / ENV).read_text(encoding="utf-8"))


def test_deep_mode_finds_exactly_the_expected_offenders(tree: Path) -> None:
    assert found(deep_check(tree)) == expected(tree)


def test_without_deep_mode_the_library_calls_look_clean(tree: Path) -> None:
    assert found(deep_check(tree, follow=False)) == set()


def test_depth_bounds_how_far_calls_are_followed(tree: Path) -> None:
    # level1 (slowlib) -> level2 (otherlib) -> time.sleep: otherlib is a second hop away.
    two_packages_deep = {e for e in expected(tree) if e[1] == "ASL101"}  # level1() is called twice
    assert found(deep_check(tree, depth=1)) == expected(tree) - two_packages_deep


def test_chain_crosses_into_the_library(tree: Path) -> None:
    site = (tree / "site").resolve().as_posix()
    finding = next(f for f in deep_check(tree).findings if f.code == "ASL102" and f.line == 14)
    assert finding.chain == (
        ChainLink(ENV, 12, "handle"),
        ChainLink(ENV, 14, "handle"),
        ChainLink(f"{site}/slowlib/_client.py", 17, "Client.query"),
        ChainLink(f"{site}/slowlib/_client.py", 20, "Client._post"),
    )
    assert finding.message.startswith("inside `slowlib.Client.query` (slowlib 1.2.0): `requests.post`")
    assert (finding.column, finding.end_column) == (5, 22)  # the project's call, not the library's


def test_message_names_both_packages_when_the_offender_is_further_away(tree: Path) -> None:
    finding = next(f for f in deep_check(tree).findings if f.code == "ASL101")
    assert finding.message.startswith("inside `slowlib.chain.level1` (slowlib 1.2.0, through otherlib 0.3):")
    assert [link.function for link in finding.chain] == ["handle", "handle", "level1", "level2"]


def test_one_finding_per_call_into_a_library_naming_the_rest(tree: Path) -> None:
    # Client(url): requests.get in Client.__init__, and open + json.load in the base class's (one
    # finding per file object: the json.load is the open's).
    finding = next(f for f in deep_check(tree).findings if f.line == 13)
    assert finding.code == "ASL102" and "in `Client.__init__`" in finding.message
    assert finding.message.endswith("(and 1 more blocking call inside: ASL107)")


def test_suppression_at_the_project_call_hides_library_findings(tree: Path) -> None:
    env = tree / "project" / ENV
    env.write_text(
        env.read_text().replace(
            'client.query("q")  # expect: ASL102 critical', 'client.query("q")  # asynclint: ignore[ASL102]'
        )
    )
    assert found(deep_check(tree)) == expected(tree)


def test_library_summaries_are_cached_per_distribution_and_version(tree: Path) -> None:
    first = deep_check(tree, cache=True)
    cached = sorted(p.name.rsplit("-", 2)[0] for p in (tree / "project" / CACHE_DIR / "libraries").glob("*.jsonl"))
    assert cached == ["otherlib-0.3", "slowlib-1.2.0"]
    assert deep_check(tree, cache=True).findings == first.findings

    # A new version is analysed afresh...
    (tree / "site" / "slowlib-1.2.0.dist-info").rename(tree / "site" / "slowlib-1.3.0.dist-info")
    assert found(deep_check(tree, cache=True)) == found(first)
    # ...and so is a file edited under the same version (an editable install, a patched file).
    util = tree / "site" / "slowlib" / "util.py"
    util.write_text(util.read_text().replace("return Path(path).read_text()", "return str(path)"))
    assert {f.code for f in deep_check(tree, cache=True).findings if f.line == 24} == set()
    # Both versions stay cached: two environments may share one project directory.
    cached = sorted(p.name.rsplit("-", 2)[0] for p in (tree / "project" / CACHE_DIR / "libraries").glob("*.jsonl"))
    assert cached == ["otherlib-0.3", "slowlib-1.2.0", "slowlib-1.3.0"]


def test_config_keys(tmp_path: Path) -> None:
    assert load(None, tmp_path).follow_imports is True  # on unless switched off
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text("[tool.asynclint]\nfollow-imports = false\nfollow-depth = 3\n")
    config = load(pyproject, tmp_path)
    assert (config.follow_imports, config.follow_depth) == (False, 3)
    for bad in ("follow-imports = 1", "follow-depth = 0", "follow-depth = true", "follow-depth = 99"):
        pyproject.write_text(f"[tool.asynclint]\n{bad}\n")
        with pytest.raises(ConfigError, match="follow-"):
            load(pyproject, tmp_path)


def test_cli_follows_the_interpreters_search_path(tmp_path: Path) -> None:
    shutil.copytree(DEEP, tmp_path / "deep", ignore=shutil.ignore_patterns("__pycache__"))
    project = tmp_path / "deep" / "project"
    # The installed packages first, then whatever asynclint the caller's PYTHONPATH names.
    site = os.pathsep.join(filter(None, [str(tmp_path / "deep" / "site"), os.environ.get("PYTHONPATH")]))
    plain = run_cli("check", "--format", "concise", "--no-cache", ".", cwd=project, env={"PYTHONPATH": site})
    assert plain.returncode == 0, plain.stdout
    deep = run_cli("check", "--format", "concise", "--follow-imports", ".", cwd=project, env={"PYTHONPATH": site})
    assert deep.returncode == 1
    assert "deep_env/env.py:14:5: ASL102 [critical] inside `slowlib.Client.query` (slowlib 1.2.0)" in deep.stdout
    shallow = run_cli("check", "--format", "concise", "--follow-depth", "1", ".", cwd=project, env={"PYTHONPATH": site})
    assert "ASL101" not in shallow.stdout and "ASL102" in shallow.stdout
    bad = run_cli("check", "--follow-depth", "0", ".", cwd=project)
    assert bad.returncode == 2 and "--follow-depth" in bad.stderr


def test_an_awaited_library_coroutine_that_blocks_says_so_at_the_await(tree: Path) -> None:
    by_line = {f.line: f for f in deep_check(tree).findings}
    awaited = by_line[16]  # `out = await fetch_all([url])`: subprocess.run inside the coroutine
    assert awaited.facts.awaited and "although `slowlib.fetch_all` is awaited" in awaited.message
    assert [link.function for link in awaited.chain] == ["handle", "handle", "fetch_all"]
    assert by_line[13].facts.awaited == ""  # `Client(url)`: a plain call, nothing awaited


def test_the_fix_shown_is_the_one_for_the_projects_line(tree: Path) -> None:
    """A finding reported at the project's call offers what applies there: offloading that call
    (or, from a sync reward the framework awaits, making the reward async first); nothing for an
    awaited library coroutine, whatever the blocking call inside would get."""
    fixes = {f.line: f.fix for f in deep_check(tree).findings}
    assert fixes[16] is None  # `await fetch_all(...)`: time.sleep inside would get asyncio.sleep
    for line in (13, 14, 19):
        assert fixes[line] is not None and fixes[line].recipe == "to-thread", fixes[line]
        assert fixes[line].title.startswith("Run it in a worker thread")
    assert fixes[24].title.startswith("Make the framework callable `async def`, then run it in a worker thread")
    assert fixes[44] is None  # `map(read_cache, paths)`: no call of `read_cache` is written to offload


def test_fix_offloads_the_calls_check_offers_to_offload(tree: Path) -> None:
    # The installed packages first, then whatever asynclint the caller's PYTHONPATH names.
    site = os.pathsep.join(filter(None, [str(tree / "site"), os.environ.get("PYTHONPATH")]))
    elsewhere = tree / "cache-elsewhere"
    diff = run_cli(
        "fix",
        "--diff",
        "--severity",
        "low",
        "--follow-imports",
        "--cache-dir",
        str(elsewhere),
        ".",
        cwd=tree / "project",
        env={"PYTHONPATH": site},
    )
    assert diff.returncode == 1, diff.stderr
    assert list((elsewhere / "libraries").glob("slowlib-*.jsonl")) and not (tree / "project" / CACHE_DIR).exists()
    assert "+    client = await asyncio.to_thread(Client, url)" in diff.stdout
    assert "+    await asyncio.to_thread(level1)" in diff.stdout
    assert "+async def cached_answer(" in diff.stdout
    assert not [line for line in diff.stdout.splitlines() if line.startswith("+") and "fetch_all" in line]
    dry = run_cli(
        "fix", "--dry-run", "--severity", "low", "--follow-imports", ".", cwd=tree / "project", env={"PYTHONPATH": site}
    )
    assert (
        "deep_env/env.py:16:17: ASL106 [critical] left: no automatic fix: the blocking code runs inside the "
        "awaited library coroutine" in dry.stdout
    )
    assert (
        "deep_env/env.py:44:21: ASL108 [high] left: no automatic fix: `slowlib.util.read_cache` is handed to "
        "`map`, which calls it once per item" in dry.stdout
    ), dry.stdout
    plain = run_cli("fix", "--dry-run", ".", cwd=tree / "project", env={"PYTHONPATH": site})
    assert plain.returncode == 0 and "Would fix 0" in plain.stdout, plain.stdout


def test_star_imports_chained_past_the_recursion_limit_are_followed_without_a_crash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression: resolving a name through re-exports, star imports and base classes recursed
    once per hop, and a real package (``huggingface_hub``) overflowed the stack: a traceback.
    A chain longer than the interpreter's recursion limit is read without one (the graph then
    follows aliases a bounded number of hops, so the far end is not reported), and a short
    chain is followed to its blocking call."""
    import sys

    def site_with_chain(root: Path, hops: int) -> Path:
        package = root / "site" / "deeplib"
        package.mkdir(parents=True)
        (root / "site" / "deeplib-1.0.dist-info").mkdir()
        (root / "site" / "deeplib-1.0.dist-info" / "top_level.txt").write_text("deeplib\n")
        (package / "__init__.py").write_text("from deeplib.m0 import *\n")
        for number in range(hops):
            (package / f"m{number}.py").write_text(f"from deeplib.m{number + 1} import *\n")
        (package / f"m{hops}.py").write_text("import time\n\n\ndef fetch():\n    time.sleep(1)\n")
        project = root / "project"
        project.mkdir()
        (project / "app.py").write_text("import deeplib\n\n\nasync def handle():\n    deeplib.fetch()\n")
        return project

    for hops, expected in ((sys.getrecursionlimit() + 200, []), (3, [(5, "ASL101")])):
        root = tmp_path / str(hops)
        project = site_with_chain(root, hops)
        monkeypatch.chdir(project)
        config = dataclasses.replace(Config(root=project), follow_imports=True)
        result = run_check(["."], config, use_cache=False, search_path=[str(root / "site")])
        assert not result.errors, result.errors
        assert [(f.line, f.code) for f in result.findings] == expected


#: A browser driver the way Selenium's is built: ``driver.get`` goes through the driver's
#: ``execute``, the command executor it holds and its request helper, into a second package's
#: connection pool, whose helpers open the socket. Four calls inside drivelib, three inside netlib.
LAYERED_SITE = {
    "drivelib/__init__.py": "from drivelib.driver import Driver\n",
    "drivelib/driver.py": (
        "from drivelib.connection import Connection\n\n\n"
        "class Driver:\n"
        "    def __init__(self, url):\n        self.executor = Connection(url)\n\n"
        "    def get(self, url):\n        self.execute('get', url)\n\n"
        "    def execute(self, command, payload):\n        return self.executor.execute(command, payload)\n"
    ),
    "drivelib/connection.py": (
        "import netlib\n\n\n"
        "class Connection:\n"
        "    def __init__(self, url):\n        self.url = url\n        self.pool = netlib.Pool()\n\n"
        "    def execute(self, command, payload):\n        return self._request(command, payload)\n\n"
        "    def _request(self, command, payload):\n        return self.pool.request(self.url, command + payload)\n"
    ),
    "netlib/__init__.py": "from netlib.pool import Pool\n",
    "netlib/pool.py": (
        "import socket\n\n\n"
        "class Pool:\n"
        "    def request(self, url, body):\n        return self.urlopen(url, body)\n\n"
        "    def urlopen(self, url, body):\n        return self._send(url, body.encode())\n\n"
        "    def _send(self, url, data):\n        socket.create_connection((url, 80)).sendall(data)\n"
    ),
}


def test_depth_counts_the_libraries_a_chain_steps_into_not_the_calls_inside_each(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression (issue 10: Selenium's ``driver.get`` was found at no ``--follow-depth``): the
    socket is seven calls past the project's, but only two libraries in, so the default depth
    reads it; depth 1 stops at the first library's door to the second."""
    site = tmp_path / "site"
    for name, text in LAYERED_SITE.items():
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_text(text)
    for dist in ("drivelib", "netlib"):
        (site / f"{dist}-1.0.dist-info").mkdir()
        (site / f"{dist}-1.0.dist-info" / "top_level.txt").write_text(f"{dist}\n")
    project = tmp_path / "project"
    project.mkdir()
    (project / "app.py").write_text(
        "from drivelib import Driver\n\n\nasync def browse(url):\n    Driver(url).get(url)\n"
    )
    monkeypatch.chdir(project)

    def check(depth: int) -> Result:
        config = dataclasses.replace(Config(root=project), follow_imports=True, follow_depth=depth)
        result = run_check(["."], config, use_cache=False, search_path=[str(site)])
        assert not result.errors, result.errors
        return result

    (finding,) = check(2).findings
    assert (finding.line, finding.code, finding.severity.label) == (5, "ASL102", "critical")
    assert finding.message.startswith("inside `drivelib.Driver.get` (drivelib 1.0, through netlib 1.0):")
    assert [link.function for link in finding.chain[2:]] == [
        "Driver.get",
        "Driver.execute",
        "Connection.execute",
        "Connection._request",
        "Pool.request",
        "Pool.urlopen",
        "Pool._send",
    ]
    assert check(1).findings == ()


def test_deep_mode_is_on_by_default_where_the_imports_resolve(tree: Path) -> None:
    """Without a word about deep mode, the installed packages the project calls into are read;
    where they do not resolve (not installed in this interpreter), the check is the plain one."""
    result = run_check(["."], Config(root=tree / "project"), use_cache=False, search_path=[str(tree / "site")])
    assert not result.errors and found(result) == expected(tree)
    empty = tree / "empty-site"
    empty.mkdir()
    nothing_installed = run_check(["."], Config(root=tree / "project"), use_cache=False, search_path=[str(empty)])
    assert not nothing_installed.errors and found(nothing_installed) == set()


def on_path(site: str) -> dict[str, str]:
    """PYTHONPATH with ``site`` in front of what the tests run with (the checkout under test may
    be on it)."""
    return {"PYTHONPATH": os.pathsep.join(filter(None, [site, os.environ.get("PYTHONPATH", "")]))}


def test_cli_follows_by_default_and_switches_off(tmp_path: Path) -> None:
    shutil.copytree(DEEP, tmp_path / "deep", ignore=shutil.ignore_patterns("__pycache__"))
    project, site = tmp_path / "deep" / "project", str(tmp_path / "deep" / "site")
    line = "deep_env/env.py:14:5: ASL102 [critical] inside `slowlib.Client.query` (slowlib 1.2.0)"
    default = run_cli("check", "--format", "concise", "--no-cache", ".", cwd=project, env=on_path(site), hermetic=False)
    assert default.returncode == 1 and line in default.stdout, default.stdout
    off = run_cli(
        "check", "--format", "concise", "--no-cache", "--no-follow-imports", ".", cwd=project, env=on_path(site)
    )
    assert off.returncode == 0, off.stdout
    (project / "pyproject.toml").write_text("[tool.asynclint]\nfollow-imports = false\n")
    configured = run_cli(
        "check", "--format", "concise", "--no-cache", ".", cwd=project, env=on_path(site), hermetic=False
    )
    assert configured.returncode == 0, configured.stdout
    flag_wins = run_cli(
        "check", "--format", "concise", "--no-cache", "--follow-imports", ".", cwd=project, env=on_path(site)
    )
    assert line in flag_wins.stdout
    fixed = run_cli("fix", "--diff", "--severity", "low", ".", cwd=project, env=on_path(site), hermetic=False)
    assert fixed.returncode == 0 and fixed.stdout == "", fixed.stdout  # the configuration switched it off
    (project / "pyproject.toml").unlink()
    fixed = run_cli("fix", "--diff", "--severity", "low", ".", cwd=project, env=on_path(site), hermetic=False)
    assert fixed.returncode == 1 and "+    client = await asyncio.to_thread(Client, url)" in fixed.stdout, fixed.stdout


ALIAS = Path(__file__).parent / "data" / "alias"


def test_public_alias_modules_are_followed_to_the_defining_module(monkeypatch: pytest.MonkeyPatch) -> None:
    """verifiers 0.3 answers for its v0 modules at their old paths (``verifiers.utils.async_utils``
    is ``verifiers/legacy/utils/async_utils.py``) through a meta-path finder; ``aliasfw`` under
    ``tests/data/alias/site`` has the same shape, and the project reaches its blocking helpers by
    every alias path: the finder's (stated by the package's ``TYPE_CHECKING`` star import), a
    package re-exporting by a star, the package's ``__getattr__`` forwarding, a ``sys.modules``
    entry. Each call is reported, with the chain ending in the module that defines the helper;
    a helper that does not block (``parse_url``) is not."""
    project = ALIAS / "project"
    monkeypatch.chdir(project)
    result = run_check(["."], Config(root=project), use_cache=False, search_path=[str(ALIAS / "site")])
    assert not result.errors, result.errors
    env = project / "alias_env" / "env.py"
    assert {(f.line, f.code, f.severity.label) for f in result.findings} == expectations(env.read_text())
    defined_in = {f.line: f.chain[-1].path.rpartition("/aliasfw/")[2] for f in result.findings}
    assert defined_in == {
        11: "legacy/utils/net_utils.py",
        13: "legacy/utils/file_utils.py",
        14: "legacy/utils/net_utils.py",
        15: "legacy/utils/file_utils.py",
        16: "legacy/utils/file_utils.py",
    }
    by_line = {f.line: f.message for f in result.findings}
    assert by_line[11].startswith("inside `aliasfw.utils.net_utils.fetch_config` (aliasfw 2.0): `requests.get`")


def test_a_package_is_labelled_with_its_distribution_named_alike_or_not(tmp_path: Path) -> None:
    """The distribution named after the package is read first (``prime_sandboxes`` from
    ``prime_sandboxes-0.5.1``, its ``RECORD`` only); one named otherly (``PIL`` from ``pillow``)
    is found among all of them."""
    from asynclint.libraries import Installed

    site = tmp_path / "site"
    for package, info, metadata, text in (
        ("PIL", "pillow-11.0.0.dist-info", "top_level.txt", "PIL\n"),
        ("prime_sandboxes", "prime_sandboxes-0.5.1.dist-info", "RECORD", "prime_sandboxes/__init__.py,sha256=x,0\n"),
    ):
        (site / package).mkdir(parents=True)
        (site / package / "__init__.py").write_text("")
        (site / info).mkdir()
        (site / info / metadata).write_text(text)
    installed = Installed([str(site)], ())
    assert installed.find("PIL").label == "pillow 11.0.0"
    assert installed.find("prime_sandboxes").label == "prime_sandboxes 0.5.1"


def test_a_warm_run_replays_the_modules_read_until_something_is_installed(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The second run with the same sources, configuration and installed packages reads the
    library summaries the first one read, from the cache, without looking for them again level
    by level (one project graph, the check's); installing a package the project calls into is
    seen on the next run."""
    from asynclint import deep

    aside = tree / "aside"
    aside.mkdir()
    for name in ("otherlib", "otherlib-0.3.dist-info"):
        (tree / "site" / name).rename(aside / name)
    first = deep_check(tree, cache=True)
    assert found(first) == {e for e in expected(tree) if e[1] != "ASL101"}  # level2 is not installed

    graphs = []
    original = deep.project_graph
    monkeypatch.setattr(deep, "project_graph", lambda *args: graphs.append(1) or original(*args))
    assert deep_check(tree, cache=True).findings == first.findings
    assert graphs == []  # the check builds its own graph (pipeline); none to find the modules again

    for name in ("otherlib", "otherlib-0.3.dist-info"):
        (aside / name).rename(tree / "site" / name)
    assert found(deep_check(tree, cache=True)) == expected(tree)
    # Looked for again, a level at a time: the project, with slowlib, with otherlib too (which
    # reads nothing new: its graph is the check's).
    assert len(graphs) == 3


def test_the_check_asks_the_graph_the_follow_built_last_when_that_level_read_nothing(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Following the calls level by level builds a graph per level; when the last one read no new
    module, its summaries are the check's and the check asks it instead of building it again. The
    findings are those of a check that builds its own graph (a warm run replaying the modules read)."""
    from asynclint import engine

    built: list[int] = []
    original = engine.ProjectGraph
    monkeypatch.setattr(engine, "ProjectGraph", lambda *args: built.append(len(args[0])) or original(*args))
    converged = deep_check(tree, depth=3, cache=True)
    assert found(converged) == expected(tree)
    # The project; with slowlib; with otherlib too, which reads nothing new: the check's.
    assert len(built) == 3 and built[0] < built[1] < built[2], built
    built.clear()
    # Depth 2 reads as much (otherlib is the second library in) and stops the same way.
    assert found(deep_check(tree, depth=2)) == expected(tree)
    assert len(built) == 3 and built[1] < built[2], built

    built.clear()
    for result in (tree / "project" / CACHE_DIR).glob("results-*.json"):
        result.unlink()
    replayed = deep_check(tree, depth=3, cache=True)
    assert len(built) == 1  # the modules read replayed from the plan: only the check's graph
    assert replayed.findings == converged.findings
    assert render(replayed, "json") == render(converged, "json")


#: An installed verifiers as deep mode reads it: the judge awaits the client its rubric holds.
FAKE_VERIFIERS = """
class Rubric:
    def __init__(self, funcs=None, **kwargs):
        self.funcs = list(funcs or [])

    def add_reward_func(self, func, weight=1.0):
        self.funcs.append(func)


class JudgeRubric(Rubric):
    def __init__(self, judge_client=None, judge_model="gpt-4.1-nano", **kwargs):
        super().__init__(**kwargs)
        self.judge_client = judge_client
        self.judge_model = judge_model

    async def judge(self, prompt, completion, answer, state):
        reply = await self.judge_client.chat.completions.create(model=self.judge_model, messages=[])
        return reply.choices[0].message.content


class RubricGroup(Rubric):
    def __init__(self, rubrics, **kwargs):
        super().__init__(**kwargs)
        self.rubrics = rubrics


class SingleTurnEnv:
    def __init__(self, rubric=None, **kwargs):
        self.rubric = rubric
"""


def test_a_framework_method_read_from_the_installed_library_still_calls_the_client_handed_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """judges_env's subclasses call ``self.judge(...)``: in deep mode that resolves to the installed
    framework's own method (not the project's), which calls the sync client handed over -- the same
    findings as the plain check (a regression: deep mode lost the three subclass findings)."""
    project = tmp_path / "project"
    shutil.copytree(
        Path(__file__).parent / "fixtures" / "projects" / "judges_env",
        project,
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    site = tmp_path / "site"
    (site / "verifiers").mkdir(parents=True)
    (site / "verifiers" / "__init__.py").write_text(FAKE_VERIFIERS, encoding="utf-8")
    (site / "verifiers-0.3.1.dist-info").mkdir()
    metadata = "Metadata-Version: 2.1\nName: verifiers\nVersion: 0.3.1\n"
    (site / "verifiers-0.3.1.dist-info" / "METADATA").write_text(metadata)
    monkeypatch.chdir(project)
    wanted = {
        (f"judges_env/{path.name}", *item)
        for path in (project / "judges_env").glob("*.py")
        for item in expectations(path.read_text(encoding="utf-8"))
    }
    for follow in (True, False):
        config = dataclasses.replace(Config(root=project), follow_imports=follow)
        result = run_check(["."], config, use_cache=False, search_path=[str(site)])
        assert not result.errors, result.errors
        assert {(f.path, f.line, f.code, f.severity.label) for f in result.findings} == wanted, follow


#: An installed library's rubrics, read by deep mode: ``PairRubric`` overrides the framework's
#: per-group hook and calls the client it is handed there, once per pair, without awaiting;
#: ``TypedPairRubric`` too, keeping it typed by an annotation and a fallback of its own (vf_exts'
#: ``PairwiseJudgeRubric``); ``QuietRubric`` awaits it in the hook and calls it synchronously only
#: in a method nothing runs; ``OnceRubric`` calls it once per group, in no loop.
PAIRLIB = """
import verifiers as vf
from openai import OpenAI


class PairRubric(vf.Rubric):
    def __init__(self, judge_client=None, **kwargs):
        super().__init__(**kwargs)
        self.judge_client = judge_client

    async def score_group(self, states):
        for first, second in zip(states[::2], states[1::2]):
            self.judge_client.chat.completions.create(model="judge", messages=[])
        self.judge_client.chat.completions.create(model="judge", messages=[])  # one finding per hook


class TypedPairRubric(vf.Rubric):
    def __init__(self, judge_client: OpenAI | None = None, **kwargs):
        super().__init__(**kwargs)
        self.judge_client = judge_client if judge_client is not None else OpenAI()

    async def score_group(self, states):
        for first, second in zip(states[::2], states[1::2]):
            self.judge_client.chat.completions.create(model="judge", messages=[])


class QuietRubric(vf.Rubric):
    def __init__(self, judge_client=None, **kwargs):
        super().__init__(**kwargs)
        self.judge_client = judge_client

    async def score_group(self, states):
        await self.judge_client.chat.completions.create(model="judge", messages=[])

    def describe(self):
        return self.judge_client.models.list()


class OnceRubric(vf.Rubric):
    def __init__(self, judge_client=None, **kwargs):
        super().__init__(**kwargs)
        self.judge_client = judge_client

    async def score_group(self, states):
        self.judge_client.chat.completions.create(model="judge", messages=[])
"""

PAIR_ENV = """import verifiers as vf
from openai import AsyncOpenAI, OpenAI
from pairlib import OnceRubric, PairRubric, QuietRubric, TypedPairRubric


def load_environment():
    client = OpenAI()
    rubric = PairRubric(judge_client=client)  # expect: ASL103 critical
    TypedPairRubric(judge_client=OpenAI())  # expect: ASL103 critical
    PairRubric(judge_client=AsyncOpenAI())
    QuietRubric(judge_client=OpenAI())
    OnceRubric(judge_client=OpenAI())  # expect: ASL103 critical
    return vf.SingleTurnEnv(rubric=rubric)
"""


def test_deep_mode_reads_which_hook_of_a_library_class_calls_the_client_handed_to_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No holder table names ``pairlib``: deep mode reads that its ``score_group`` -- a hook of the
    framework class it derives from, which the framework runs by itself -- calls the client handed
    in ``judge_client`` without awaiting, in a loop. Reported at the hand-over, the chain in the
    library; not without deep mode, and not for an async client or a client only a method nothing
    runs calls synchronously."""
    site, project = tmp_path / "site", tmp_path / "project"
    (site / "pairlib").mkdir(parents=True)
    (site / "pairlib" / "__init__.py").write_text(PAIRLIB, encoding="utf-8")
    (site / "pairlib-1.0.dist-info").mkdir()
    (site / "pairlib-1.0.dist-info" / "METADATA").write_text("Metadata-Version: 2.1\nName: pairlib\nVersion: 1.0\n")
    (project / "pair_env").mkdir(parents=True)
    (project / "pair_env" / "__init__.py").write_text("", encoding="utf-8")
    (project / "pair_env" / "env.py").write_text(PAIR_ENV, encoding="utf-8")
    monkeypatch.chdir(project)
    for follow in (True, False):
        config = dataclasses.replace(Config(root=project), follow_imports=follow)
        result = run_check(["."], config, use_cache=False, search_path=[str(site)])
        assert not result.errors, result.errors
        found = {(f.path, f.line, f.code, f.severity.label) for f in result.findings}
        assert found == ({("pair_env/env.py", *item) for item in expectations(PAIR_ENV)} if follow else set())
        if follow:
            finding = next(f for f in result.findings if f.line == 8)
            assert finding.facts.knowledge == "deep" and finding.facts.library.startswith("pairlib")
            assert finding.facts.root == "PairRubric.score_group" and finding.facts.handed_through == "score_group"
            assert [(link.line, link.function) for link in finding.chain] == [(11, "PairRubric.score_group")] + [
                (13, "PairRubric.score_group")
            ]
            assert [r.line for r in finding.related] == [7]
            # The per-group hook's loop over the states runs the calls back to back for the group
            # (frequency ``group``, raised); its call in no loop runs once per group (not raised).
            once = next(f for f in result.findings if f.line == 12)
            assert (finding.facts.frequency, once.facts.frequency) == ("group", "group-call")
            assert not finding.facts.escalation.startswith("inside")


def _installed(site: Path, distribution: str, files: dict[str, str]) -> Path:
    """``site``, a search path on which ``distribution`` (``name-version``) is installed: its
    ``dist-info`` naming the top-level package ``name``, and ``files`` (by path under ``site``)."""
    info = site / f"{distribution}.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "top_level.txt").write_text(distribution.rsplit("-", 1)[0] + "\n")
    for relative, text in files.items():
        (site / relative).parent.mkdir(parents=True, exist_ok=True)
        (site / relative).write_text(text)
    return site


def test_a_subclassed_library_base_written_through_its_package_is_still_the_base(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A project judge (``class ThemeJudge(vf.Judge)``) calls the ``evaluate`` it inherits, which the
    graders pack says builds a client per call. Deep mode reads ``verifiers.v1``'s re-export, so the
    base becomes ``verifiers.v1.judge.Judge`` (the package is read because the judge's own hook
    calls into it), a module it did not read: the call is still the
    knowledge base's ``verifiers.v1.Judge.evaluate`` (session 19: split 9's curator and split 10's
    drug-perturbation judges were missed in deep mode only)."""
    site = _installed(
        tmp_path / "site",
        "verifiers-0.3.1",
        {
            "verifiers/__init__.py": "",
            "verifiers/v1/__init__.py": (
                "from verifiers.v1.judge import Judge\nfrom verifiers.v1.task import Task, UserMessage, reward\n"
            ),
            "verifiers/v1/judge.py": "class Judge:\n    async def evaluate(self, **fields):\n        pass\n",
            "verifiers/v1/task.py": (
                "class Task:\n    pass\n\n\nclass UserMessage:\n    pass\n\n\ndef reward(f):\n    return f\n"
            ),
        },
    )
    project = tmp_path / "project"
    project.mkdir()
    (project / "env.py").write_text(
        "import verifiers.v1 as vf\n"
        "\n\n"
        "class ThemeJudge(vf.Judge):\n"
        "    def build_messages(self, *, theme):\n"
        "        return [vf.UserMessage(content=theme)]\n"
        "\n\n"
        "class ThemeTask(vf.Task):\n"
        "    @vf.reward\n"
        "    async def theme(self, trace) -> float:\n"
        "        verdict = await ThemeJudge().evaluate(theme=trace)  # expect: ASL105 high\n"
        "        return float(verdict)\n"
    )
    monkeypatch.chdir(project)
    result = run_check(["."], Config(root=project), use_cache=False, search_path=[str(site)])
    assert not result.errors, result.errors
    assert {(f.line, f.code, f.severity.label) for f in result.findings} == expectations(
        (project / "env.py").read_text()
    )


SHARED_TOOLSET_ENV = """import subprocess

import verifiers.v1 as vf


class Repo(vf.Toolset[vf.SharedToolsetConfig]):
    @vf.tool
    def blame(self, path: str) -> str:
        vf.log_call(path)
        return subprocess.run(["git", "blame", path], capture_output=True, text=True).stdout  # expect: ASL106 critical
"""


def test_a_shared_toolset_stays_shared_once_deep_mode_reads_where_its_configuration_is_defined(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``vf.Toolset[vf.SharedToolsetConfig]`` serves every rollout of a worker from one server, whose loop
    runs a sync ``@vf.tool`` inline. The tool's call into ``verifiers.v1`` makes deep mode read the
    package, whose re-exports resolve the configuration to where it is defined
    (``verifiers.v1.mcp.SharedToolsetConfig``): the same finding as without deep mode (session 37: the
    corpus's wiki_search tools were hot at deep mode's first level and cold from its second on)."""
    site = _installed(
        tmp_path / "site",
        "verifiers-0.3.1",
        {
            "verifiers/__init__.py": "",
            "verifiers/v1/__init__.py": (
                "from verifiers.v1.mcp import SharedToolsetConfig, Toolset, tool\n"
                "from verifiers.v1.log import log_call\n"
            ),
            "verifiers/v1/mcp.py": (
                "class SharedToolsetConfig:\n    pass\n\n\nclass Toolset:\n    pass\n\n\ndef tool(f):\n    return f\n"
            ),
            "verifiers/v1/log.py": "def log_call(name):\n    return name\n",
        },
    )
    project = tmp_path / "project"
    project.mkdir()
    (project / "env.py").write_text(SHARED_TOOLSET_ENV)
    monkeypatch.chdir(project)
    for follow in (True, False):
        config = dataclasses.replace(Config(root=project), follow_imports=follow)
        result = run_check(["."], config, use_cache=False, search_path=[str(site)])
        assert not result.errors, result.errors
        assert {(f.line, f.code, f.severity.label) for f in result.findings} == expectations(SHARED_TOOLSET_ENV), follow


def test_a_catalogued_call_is_not_reported_again_from_inside_the_library(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``vf.Judge(config).complete(...)`` is the graders pack's entry (a client built per call);
    deep mode also reads the library because the project builds a ``Judge``, and finds the
    ``httpx.AsyncClient`` inside ``complete``. One call, one finding: the catalogue's, which is
    trusted first (session 19: main's interception taskset.py:31 was reported twice)."""
    site = _installed(
        tmp_path / "site",
        "verifiers-0.3.1",
        {
            "verifiers/__init__.py": "",
            "verifiers/v1/__init__.py": "from verifiers.v1.judge import Judge\n",
            "verifiers/v1/judge.py": (
                "import httpx\n\n\nclass Judge:\n"
                "    async def complete(self, messages):\n"
                "        async with httpx.AsyncClient() as client:\n"
                "            return await client.post('/v1/chat/completions', json=messages)\n"
            ),
        },
    )
    project = tmp_path / "project"
    project.mkdir()
    (project / "env.py").write_text(
        "import verifiers.v1 as vf\n"
        "\n\n"
        "async def judged(messages) -> str:\n"
        "    reply = await vf.Judge().complete(messages)  # expect: ASL105 critical\n"
        "    return reply.text\n"
    )
    monkeypatch.chdir(project)
    result = run_check(["."], Config(root=project), use_cache=False, search_path=[str(site)])
    assert not result.errors, result.errors
    assert [(f.line, f.code, f.facts.knowledge) for f in result.findings] == [(5, "ASL105", "catalogue")]


def test_a_library_method_the_catalogue_names_is_answered_by_its_entry_not_read_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Deep mode reads pandas for the frame's construction; its writers are the dataframes pack's
    entries, which answer for them whatever module defines them: ``to_csv()`` with no path returns
    text (no finding, not the ``urlopen`` of the path's URL branch), ``to_parquet(path)`` is the
    pack's finding once (session 29: both it and deep mode's critical). A method no entry names is
    still read."""
    site = _installed(
        tmp_path / "site",
        "pandas-3.1.1",
        {
            "pandas/__init__.py": "from pandas.core.frame import DataFrame\n",
            "pandas/core/__init__.py": "",
            "pandas/core/frame.py": (
                "import urllib.request\n\n\ndef get_handle(path):\n"
                "    if path is None:\n        return None\n"
                "    return urllib.request.urlopen(path)\n\n\n"
                "class DataFrame:\n"
                "    def __init__(self, data):\n        self.data = data\n\n"
                "    def to_csv(self, path_or_buf=None, *, index=True):\n        return get_handle(path_or_buf)\n\n"
                "    def to_parquet(self, path):\n        return get_handle(path)\n\n"
                "    def refresh(self, url):\n        return get_handle(url)\n"
            ),
        },
    )
    project = tmp_path / "project"
    project.mkdir()
    (project / "env.py").write_text(
        "import pandas as pd\n"
        "\n\n"
        "async def tabled(rows) -> str:\n"
        "    frame = pd.DataFrame(rows)\n"
        "    frame.to_parquet('/tmp/rows.parquet')  # expect: ASL109 high\n"
        "    frame.to_csv('/tmp/rows.csv')  # expect: ASL109 high\n"
        "    frame.refresh('https://example.com/rows')  # expect: ASL102 critical\n"
        "    return frame.to_csv(index=False)\n"
    )
    monkeypatch.chdir(project)
    result = run_check(["."], Config(root=project), use_cache=False, search_path=[str(site)])
    assert not result.errors, result.errors
    assert [(f.line, f.code, f.facts.knowledge) for f in result.findings] == [
        (6, "ASL109", "catalogue"),
        (7, "ASL109", "catalogue"),
        (8, "ASL102", "deep"),
    ]


#: An installed verifiers whose own rollout loop blocks (as 0.3.1's parses each reply with pydantic
#: on the loop), and a helper of its environments that reads a file.
LOOPING_VERIFIERS = """
import json
from pathlib import Path


class Environment:
    def load_notes(self, path):
        return Path(path).read_text()

    async def generate(self, inputs, client, model):
        resumed = json.loads(Path("results.json").read_text())
        return [*resumed, *[await self.rollout(client, model, prompt) for prompt in inputs]]

    def generate_sync(self, inputs, client, model):
        return json.loads(Path("results.json").read_text())


class MultiTurnEnv(Environment):
    async def rollout(self, client, model, prompt, task="default"):
        reply = json.loads(Path("reply.json").read_text())
        return await self.env_response([reply], {})

    async def env_response(self, messages, state):
        return [], state
"""

#: A group environment handing each rollout to the task's environment (NeMo-RL's
#: ``MultiTurnEnvGroup``), typed by the framework class; a task environment of the project's.
GROUP_ENV = """import verifiers as vf
from pathlib import Path


class TaskEnv(vf.MultiTurnEnv):
    async def env_response(self, messages, state):
        return [{"content": Path("task.txt").read_text()}], state  # expect: ASL108 high


class GroupEnv(vf.MultiTurnEnv):
    def __init__(self, envs: dict[str, vf.MultiTurnEnv]):
        self.env_map: dict[str, vf.MultiTurnEnv] = envs

    async def rollout(self, client, model, prompt, task="default"):
        env = self.env_map[task]
        env.load_notes("notes.txt")  # expect: ASL108 high
        if task == "nested":  # the framework's machinery running the task env's hooks: its own business
            return (await env.generate([prompt], client, model))[-1]
        if task == "blocking":  # a sync framework method is followed
            return env.generate_sync([prompt], client, model)[-1]  # expect: ASL108 high
        return await env.rollout(client, model, prompt, task)


def load_environment():
    return GroupEnv({"task": TaskEnv()})
"""


def test_a_hook_delegated_to_a_framework_typed_receiver_runs_the_frameworks_loop_not_the_projects(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``await env.rollout(...)`` on an environment typed ``vf.MultiTurnEnv`` runs verifiers' own
    rollout loop, or a project override of it: deep mode reads the installed ``MultiTurnEnv.rollout``
    and finds the framework's reply parsing there, which every environment pays and no project can
    change -- not reported at the delegation (split 22's ``mt_env_group.py:137``, labelled none). Nor
    is the framework's machinery running the hooks in the installed release (``generate``, 0.3.1:
    ``HookClass.machinery``). A helper of the framework's that is not one of its hooks
    (``load_notes``) or a sync one (``generate_sync``) is still followed, and the project's own
    override of a hook (``TaskEnv.env_response``) still runs as a root."""
    site, project = tmp_path / "site", tmp_path / "project"
    (site / "verifiers").mkdir(parents=True)
    (site / "verifiers" / "__init__.py").write_text(LOOPING_VERIFIERS, encoding="utf-8")
    (site / "verifiers-0.3.1.dist-info").mkdir()
    metadata = "Metadata-Version: 2.1\nName: verifiers\nVersion: 0.3.1\n"
    (site / "verifiers-0.3.1.dist-info" / "METADATA").write_text(metadata)
    (site / "verifiers-0.3.1.dist-info" / "top_level.txt").write_text("verifiers\n")
    (project / "group_env").mkdir(parents=True)
    (project / "group_env" / "__init__.py").write_text("", encoding="utf-8")
    (project / "group_env" / "env.py").write_text(GROUP_ENV, encoding="utf-8")
    monkeypatch.chdir(project)
    result = run_check(["."], Config(root=project), use_cache=False, search_path=[str(site)])
    assert not result.errors, result.errors
    found = {(f.line, f.code, f.severity.label) for f in result.findings}
    assert found == expectations(GROUP_ENV)
    assert next(f for f in result.findings if f.line == 16).facts.knowledge == "deep"


LAZY = Path(__file__).parent / "data" / "lazy"


def test_lazy_exports_and_star_imports_are_followed_reading_only_what_can_give_the_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``tests/data/lazy/site`` holds packages exporting their API the ways real ones do: a
    module ``__getattr__`` over a name -> (module, attribute) table (selenium 4.x's
    ``selenium.webdriver``), a name -> module table (LangChain) and a module -> names table
    bound by ``lazy_loader.attach``; and star imports from several modules (litellm's
    ``__init__``). Deep mode follows each to the code that blocks; a table no ``__getattr__``
    reads exports nothing. The catalogue's selenium entries still answer for the driver once
    deep mode has read the package defining it lazily (they name ``selenium.webdriver.Chrome``,
    not the module the class is defined in). Of the star-imported modules, only those spelling
    the name, or star-importing one that does, are read."""
    from asynclint import deep

    read: list[str] = []
    load = deep._Follower.load

    def recording(self: deep._Follower, found: deep.LibraryFile) -> object:
        read.append(found.module)
        return load(self, found)

    monkeypatch.setattr(deep._Follower, "load", recording)
    project = LAZY / "project"
    monkeypatch.chdir(project)
    result = run_check(["."], Config(root=project), use_cache=False, search_path=[str(LAZY / "site")])
    assert not result.errors, result.errors
    env = project / "lazy_env" / "env.py"
    assert {(f.line, f.code, f.severity.label) for f in result.findings} == expectations(env.read_text())
    knowledge = {f.line: (f.facts.knowledge, f.facts.callee.partition(".")[0]) for f in result.findings}
    assert knowledge[12] == knowledge[14] == ("catalogue", "selenium")
    # An inherited method is named on the class the project holds, with the base defining it, and
    # known by the base's entry where the held class has none (selenium-wire's drivers).
    inherited = {f.line: (f.facts.callee, f.facts.inherited_from) for f in result.findings if f.facts.inherited_from}
    assert inherited == {
        14: ("selenium.webdriver.Chrome.get", "selenium.webdriver.Remote"),
        27: ("seleniumwire.webdriver.Chrome.get", "selenium.webdriver.Remote"),
    }
    message = next(f.message for f in result.findings if f.line == 27)
    assert message.startswith("`seleniumwire.webdriver.Chrome.get` (inherited from `selenium.webdriver.Remote`) drives")
    assert "selenium.webdriver.chrome.webdriver" in read
    assert {"starlib.chat", "starlib.more", "starlib.more.tools"} <= set(read)
    assert not {"starlib.images", "starlib.files", "starlib.other", "starlib.other.misc"} & set(read)


def test_a_lazy_table_is_an_export_only_when_the_modules_getattr_reads_it() -> None:
    import ast

    from asynclint.analysis.index.lazy_exports import lazy_exports

    source = (LAZY / "site" / "lazylib" / "__init__.py").read_text()
    exports = dict(lazy_exports(ast.parse(source), "lazylib", "lazylib"))
    assert exports == {
        "Fetcher": "lazylib.parts.fetching.Fetcher",
        "load_rows": "lazylib.parts.rows.load_rows",
        "pause": "lazylib.parts.clocks.pause",
        "now": "lazylib.parts.clocks.now",
    }
    without_getattr = source.replace("def __getattr__(name):", "def attribute(name):").replace("__getattr__, ", "")
    assert dict(lazy_exports(ast.parse(without_getattr), "lazylib", "lazylib")) == {}


PLUGIN_SITE = {
    "pydantic/__init__.py": "from pydantic.main import BaseModel\nfrom pydantic.type_adapter import TypeAdapter\n",
    "pydantic/main.py": "class BaseModel:\n    pass\n",
    "pydantic/type_adapter.py": (
        "from pydantic.plugin._loader import get_plugins\n\n\n"
        "class TypeAdapter:\n"
        "    def __init__(self, tp):\n        self.plugins = list(get_plugins())\n"
    ),
    "pydantic/plugin/__init__.py": "",
    "pydantic/plugin/_loader.py": (
        "from importlib.metadata import entry_points\n\n"
        "_plugins = None\n\n\n"
        "def get_plugins():\n"
        "    global _plugins\n"
        "    if _plugins is None:\n"
        "        _plugins = {point.value: point.load() for point in entry_points(group='pydantic')}\n"
        "    return _plugins.values()\n"
    ),
}


@pytest.mark.parametrize(
    ("model", "found"),
    [
        ("class Settings(pydantic.BaseModel):\n    depth: int = 0\n", ()),
        ("def settings():\n    class Settings(pydantic.BaseModel):\n        depth: int = 0\n", ((5, "ASL109", "low"),)),
        ("", ((5, "ASL109", "low"),)),
    ],
)
def test_a_fill_that_defining_a_model_class_runs_is_warmed_by_a_model_defined_at_import(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, model: str, found: tuple[tuple[int, str, str], ...]
) -> None:
    """pydantic's ``get_plugins`` fills a module global once per process, and building any
    ``BaseModel`` subclass calls it (knowledge: ``RUN_BY_CLASS_DEFINITIONS``): a model defined at a
    module's top has run it at import, so a ``TypeAdapter`` built per call finds it done. Near
    misses: a model class defined in a function is built when that runs; without one, the
    adapter's first call fills it (low: first call only)."""
    site = tmp_path / "site"
    for name, text in PLUGIN_SITE.items():
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_text(text)
    (site / "pydantic-2.0.dist-info").mkdir()
    (site / "pydantic-2.0.dist-info" / "top_level.txt").write_text("pydantic\n")
    project = tmp_path / "project"
    project.mkdir()
    handler = "async def handle(value):\n    return pydantic.TypeAdapter(int)\n"
    (project / "app.py").write_text(f"import pydantic\n\n\n{handler}\n\n{model}")
    monkeypatch.chdir(project)
    config = dataclasses.replace(Config(root=project), follow_imports=True)
    result = run_check(["."], config, use_cache=False, search_path=[str(site)])
    assert not result.errors, result.errors
    assert tuple((finding.line, finding.code, finding.severity.label) for finding in result.findings) == found


RENAMED = Path(__file__).parent / "data" / "renamed"


def test_a_method_no_entry_names_of_a_class_a_pack_renames_is_read_where_the_class_is_defined(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The games pack calls jericho's class ``jericho.FrotzEnv`` (RETURNS renames
    ``jericho.jericho.FrotzEnv``, where it is defined, to it), so the index writes the package's
    ``from .jericho import FrotzEnv`` as the package's own name. Deep mode follows the renamed
    name back to the defining module (session 34; before, ``save_transcript``, which writes a
    file and no entry names, was never read). ``load`` keeps its entry's finding and
    ``get_score`` stays quiet."""
    project = RENAMED / "project"
    monkeypatch.chdir(project)
    result = run_check(["."], Config(root=project), use_cache=False, search_path=[str(RENAMED / "site")])
    assert not result.errors, result.errors
    env = project / "renamed_env" / "env.py"
    assert {(f.line, f.code, f.severity.label) for f in result.findings} == expectations(env.read_text())
    assert [(f.line, f.facts.knowledge) for f in result.findings] == [(9, "catalogue"), (11, "deep")]


def test_a_method_no_entry_names_of_a_class_whose_constructor_has_one_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The interpreters pack names rlm's ``LocalREPL`` (building one sets up a REPL) and its
    ``execute_code``. Another method of the class (``save_history``, writing a file) is not covered
    by the constructor's entry: deep mode reads it (session 33; before, any name under an exact
    entry was trusted, so it was never read). The method the pack names keeps its entry's finding;
    a method that does nothing blocking (``get_history_count``) stays quiet."""
    site = _installed(
        tmp_path / "site",
        "rlm-0.1.0",
        {
            "rlm/__init__.py": "",
            "rlm/environments/__init__.py": "",
            "rlm/environments/local_repl.py": (
                "class LocalREPL:\n"
                "    def __init__(self):\n        self.history = []\n\n"
                "    def execute_code(self, code):\n        exec(code, {})\n\n"
                "    def get_history_count(self):\n        return len(self.history)\n\n"
                "    def save_history(self, path):\n"
                "        with open(path, 'w') as handle:\n            handle.write(repr(self.history))\n"
            ),
        },
    )
    project = tmp_path / "project"
    project.mkdir()
    (project / "env.py").write_text(
        "from rlm.environments.local_repl import LocalREPL\n"
        "import verifiers as vf\n"
        "\n"
        "REPL = LocalREPL()\n"
        "\n\n"
        "async def ran(completion, state, **kwargs) -> float:\n"
        "    REPL.execute_code(state['code'])\n"
        "    REPL.get_history_count()\n"
        "    REPL.save_history('/tmp/history.txt')\n"
        "    return 1.0\n"
        "\n\n"
        "def load_environment(**kwargs):\n"
        "    return vf.SingleTurnEnv(rubric=vf.Rubric(funcs=[ran]), **kwargs)\n"
    )
    monkeypatch.chdir(project)
    result = run_check(["."], Config(root=project), use_cache=False, search_path=[str(site)])
    assert not result.errors, result.errors
    assert [(f.line, f.code, f.facts.knowledge) for f in result.findings] == [
        (8, "ASL103", "catalogue"),
        (10, "ASL107", "deep"),
    ]
