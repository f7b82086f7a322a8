"""Sync/async twin discovery on small fake installed packages (tests/data/twins/site)."""

from __future__ import annotations

import dataclasses
import json
import textwrap
from pathlib import Path

import pytest

from asynclint import twin_discovery
from asynclint.config import Config
from asynclint.knowledge.catalogue import Catalogue
from asynclint.libraries import Installed
from asynclint.runner import run_check
from asynclint.twin_discovery import (
    TwinCache,
    discover,
    discovered_apis,
    imported_modules,
    imported_packages,
    twins_for,
    with_discovered,
)

SITE = Path(__file__).parent / "data" / "twins" / "site"


@pytest.fixture
def installed() -> Installed:
    return Installed([str(SITE)], ())


def by_sync(twins):
    return {twin.sync: twin for twin in twins}


def test_a_class_pair_is_found_and_its_local_methods_are_not_blocking(installed):
    (twin,) = discover("syncsdk", installed)  # Config/AsyncConfig share a name, not an API
    assert (twin.sync, twin.twin, twin.kind) == ("syncsdk.Client", "syncsdk.AsyncClient", "class")
    assert twin.blocking == ("fetch", "request", "search")  # ``request`` comes from a base class
    assert twin.local == ("build_url", "close")  # a plain def on the twin; close is never a wait
    assert twin.source == "discovered: syncsdk 1.0 syncsdk/__init__.py (Client / AsyncClient)"
    assert twin.phrase == "`syncsdk.AsyncClient` and await the call"
    # the parameters read: ``AsyncClient.fetch`` takes a ``limit`` that ``Client.fetch`` does not
    assert twin.same_signature == ("__init__", "request", "search")


def test_an_aio_family_is_found_through_guarded_imports_and_re_exports(installed):
    (twin,) = discover("aiolib", installed)
    assert (twin.sync, twin.kind) == ("aiolib.Sandbox", "aio")
    assert twin.blocking == ("create", "exec", "logs", "terminate")
    assert twin.local == ("from_name",)  # a plain def under the synchronizer: a lazy handle
    assert twin.same_signature == ("create", "exec", "terminate")  # `logs.aio()` is iterated, not awaited
    assert "`.aio`" in twin.phrase


def test_a_module_pair_is_found(installed):
    (twin,) = discover("kvstore", installed)
    assert (twin.sync, twin.twin, twin.kind) == ("kvstore.Store", "kvstore.asyncio.Store", "module")
    assert twin.blocking == ("get", "set") and twin.local == ("pipeline",)
    assert twin.same_signature == ("__init__", "get", "set")  # neither class defines `__init__`


def test_a_prefixed_method_twins_are_found_in_the_classes_of_modules_already_read(installed):
    (twin,) = discover("chainlib", installed)
    assert (twin.sync, twin.twin, twin.kind) == ("chainlib.Chain", "chainlib.Chain", "method")
    # `stream` is a generator (calling it waits for nothing); `name`/`aname` are properties
    assert twin.blocking == ("batch", "invoke") and twin.local == ()
    assert twin.same_signature == ("invoke",)  # `abatch` takes a `return_exceptions` that `batch` does not
    assert twin.source == "discovered: chainlib chainlib/__init__.py (Chain: a<method>)"
    assert [api.pattern for api in discovered_apis([twin])] == ["chainlib.Chain.batch", "chainlib.Chain.invoke"]
    assert twin_discovery.twin_calls([twin])["chainlib.Chain"].methods == frozenset({"invoke"})


def test_nothing_is_found_without_the_package_on_the_path():
    nowhere = Installed([str(SITE.parent)], ())
    assert discover("syncsdk", nowhere) == []
    assert twins_for(["syncsdk", "aiolib", "kvstore"], nowhere) == []


def test_discovered_entries_flag_the_sync_api_only():
    twins = discover("syncsdk", Installed([str(SITE)], ()))
    catalogue = with_discovered(Catalogue(), twins)
    assert catalogue.match("syncsdk.Client.search", "search").source.startswith("discovered: syncsdk 1.0")
    assert catalogue.match("syncsdk.Client.build_url", "build_url") is None
    assert catalogue.match("syncsdk.AsyncClient.search", "search") is None


def test_curated_entries_win_over_discovered_ones():
    twin = twin_discovery.DiscoveredTwin(
        "exa_py.Exa", "exa_py.AsyncExa", "class", ("search",), ("wrap",), "discovered: x"
    )
    catalogue = with_discovered(Catalogue(), [twin])
    assert catalogue.get("exa_py.Exa.**").source.startswith("source: pkg exa-py")
    assert discovered_apis([]) == () and with_discovered(Catalogue(), []).fingerprint == Catalogue().fingerprint


def test_results_are_cached_per_distribution_and_version(installed, tmp_path, monkeypatch):
    cache = TwinCache(tmp_path)
    first = twins_for(["syncsdk", "kvstore", "aiolib"], installed, cache)
    files = sorted(path.name for path in tmp_path.iterdir())
    # aiolib has no distribution metadata: never cached (nothing to key it by).
    assert files == [f"twins-kvstore-2.1-{TwinCache.CODE}.json", f"twins-syncsdk-1.0-{TwinCache.CODE}.json"]
    assert json.loads((tmp_path / files[1]).read_text())[0]["sync"] == "syncsdk.Client"

    def fail(*args):
        raise AssertionError("read again although cached")

    monkeypatch.setattr(twin_discovery, "discover", lambda top, inst: [] if top == "aiolib" else fail())
    second = twins_for(["syncsdk", "kvstore", "aiolib"], installed, cache)
    assert second == [twin for twin in first if twin.sync != "aiolib.Sandbox"]
    assert all(isinstance(twin.blocking, tuple) for twin in second)


def test_a_corrupt_cache_file_is_a_cold_start(installed, tmp_path):
    cache = TwinCache(tmp_path)
    (tmp_path / f"twins-syncsdk-1.0-{TwinCache.CODE}.json").write_text("{not json")
    assert by_sync(twins_for(["syncsdk"], installed, cache))["syncsdk.Client"].kind == "class"


def test_imported_packages_are_read_from_import_lines(installed):
    texts = [
        "import syncsdk\nfrom kvstore.asyncio import Store\n",
        "    from aiolib import Sandbox  # lazy\nimport json\n",
    ]
    modules = [module for text in texts for module in imported_modules(text)]
    assert imported_packages(modules, installed) == {"syncsdk", "kvstore", "aiolib"}


def test_deep_mode_reports_sync_calls_with_the_discovered_twin(tmp_path):
    project = tmp_path / "env"
    project.mkdir()
    (project / "env.py").write_text(
        textwrap.dedent("""
        import aiolib
        import kvstore
        import syncsdk

        CLIENT = syncsdk.Client()
        STORE = kvstore.Store()

        async def tool(query: str) -> str:
            CLIENT.build_url("/x")
            CLIENT.search(query)
            STORE.get(query)
            box = aiolib.Sandbox.create("python")
            await aiolib.Sandbox.exec.aio("ls")
            return str(box)

        import chainlib
        CHAIN = chainlib.make_chain()

        async def answer(query: str) -> str:
            CHAIN.pipe(None)
            await CHAIN.ainvoke(query)
            return CHAIN.invoke(query)
    """)
    )
    config = dataclasses.replace(Config(root=project), follow_imports=True)
    result = run_check([str(project)], config, jobs=1, use_cache=False, search_path=[str(SITE)])
    found = {(f.line, f.code): f.message for f in result.findings}
    assert {f.facts.knowledge for f in result.findings} == {"discovered"}
    assert set(found) == {(11, "ASL104"), (12, "ASL104"), (13, "ASL104"), (23, "ASL104")}, found
    assert found[(23, "ASL104")].endswith("; use `await ….ainvoke(...)`")
    assert found[(11, "ASL104")].endswith("; use `syncsdk.AsyncClient` and await the call")
    assert found[(12, "ASL104")].endswith("; use `kvstore.asyncio.Store` and await the call")
    assert "`.aio` variant" in found[(13, "ASL104")]
    plain_config = dataclasses.replace(Config(root=project), follow_imports=False)
    plain = run_check([str(project)], plain_config, jobs=1, use_cache=False, search_path=[str(SITE)])
    assert not plain.findings  # without deep mode nothing is read from installed packages


def test_fix_with_follow_imports_rewrites_calls_to_the_discovered_twins(tmp_path):
    import os

    from conftest import run

    project = tmp_path / "env"
    project.mkdir()
    (project / "env.py").write_text(
        textwrap.dedent("""\
        import aiolib
        import chainlib
        import syncsdk

        CLIENT = syncsdk.Client()
        CHAIN = chainlib.Chain()


        async def tool(query: str) -> str:
            aiolib.Sandbox.exec("ls")
            CHAIN.batch([query])
            CHAIN.invoke(query)
            return CLIENT.fetch([query])
    """)
    )
    # the site first, then whatever PYTHONPATH points at this checkout's code
    env = {"PYTHONPATH": os.pathsep.join(filter(None, (str(SITE), os.environ.get("PYTHONPATH"))))}
    args = ("fix", "--severity", "low")
    plain = run(*args, "--unsafe-fixes", "--dry-run", ".", cwd=project, env=env)
    assert "Would fix 0" in plain.stdout, plain.stdout  # without deep mode nothing is known to block
    fixed = run(*args, "--unsafe-fixes", "--follow-imports", ".", cwd=project, env=env)
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    text = (project / "env.py").read_text()
    assert '    await aiolib.Sandbox.exec.aio("ls")\n' in text
    assert "    await CHAIN.ainvoke(query)\n" in text
    assert "    await asyncio.to_thread(CHAIN.batch, [query])\n" in text  # `abatch` takes other parameters
    # `AsyncClient.fetch` takes another parameter: the call goes to a worker thread instead
    assert "    return await asyncio.to_thread(CLIENT.fetch, [query])\n" in text
