"""Module names from the file layout, unique across the import roots of one project."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from asynclint.config import Config
from asynclint.module_names import Imports, ModuleName, module_names
from asynclint.runner import run_check


def project_only(root: Path) -> Config:
    """The project's code alone: these projects import verifiers, and the version installed where
    the tests run is no fixture (deep mode is on by default)."""
    return dataclasses.replace(Config(root=root), follow_imports=False)


def layout(root: Path, files: dict[str, str]) -> list[Path]:
    paths = []
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        paths.append(path)
    return sorted(paths)


def test_packages_and_single_roots_keep_their_plain_names(tmp_path: Path) -> None:
    paths = layout(tmp_path, {"pkg/__init__.py": "", "pkg/mod.py": "", "tools/run.py": ""})
    names = module_names(paths)
    assert names[tmp_path / "pkg/mod.py"] == ModuleName("pkg.mod", "pkg")
    assert names[tmp_path / "pkg/__init__.py"] == ModuleName("pkg", "pkg")
    assert names[tmp_path / "tools/run.py"] == ModuleName("run", "")


def test_a_directory_without_init_inside_a_package_is_a_namespace_portion_of_it(tmp_path: Path) -> None:
    """``art_e/utils/search_tools.py`` with no ``art_e/utils/__init__.py`` is imported as
    ``art_e.utils.search_tools`` (PEP 420 portions work inside regular packages too)."""
    paths = layout(tmp_path, {"art_e/__init__.py": "", "art_e/art_e.py": "", "art_e/utils/search_tools.py": ""})
    names = module_names(paths)
    assert names[tmp_path / "art_e/utils/search_tools.py"] == ModuleName("art_e.utils.search_tools", "art_e.utils")
    assert names[tmp_path / "art_e/art_e.py"] == ModuleName("art_e.art_e", "art_e")


def test_a_tool_registered_from_a_namespace_portion_is_hot(tmp_path: Path) -> None:
    layout(
        tmp_path,
        {
            "env/__init__.py": "",
            "env/env.py": (
                "import verifiers as vf\nfrom env.tools.search import lookup\n\n\n"
                "def load_environment():\n    return vf.ToolEnv(tools=[lookup])\n"
            ),
            "env/tools/search.py": "import time\n\n\ndef lookup(q: str) -> str:\n    time.sleep(1)\n    return q\n",
        },
    )
    result = run_check([str(tmp_path)], project_only(tmp_path), use_cache=False)
    assert [(f.path.rpartition("/")[2], f.code) for f in result.findings] == [("search.py", "ASL101")]


def test_a_directory_without_init_beside_a_top_level_module_is_its_namespace_package(tmp_path: Path) -> None:
    """``web_voyager/utils/browser.py`` next to ``web_voyager/web_voyager.py`` is imported by it as
    ``utils.browser``; run as a script, a file there may import a sibling by its bare name."""
    paths = layout(
        tmp_path,
        {
            "env/env.py": "",
            "env/utils/browser.py": "",
            "env/utils/tree.py": "",
            "env/utils/deeper/more.py": "",  # one level only: a directory inside keeps its own names
            "tools/run.py": "",  # no top-level module beside it: a script directory, as before
        },
    )
    names = module_names(paths)
    assert names[tmp_path / "env/utils/browser.py"] == ModuleName("utils.browser", "utils", (("tree", "utils.tree"),))
    assert names[tmp_path / "env/env.py"] == ModuleName("env", "")
    assert names[tmp_path / "env/utils/deeper/more.py"].module == "more"
    assert names[tmp_path / "tools/run.py"].module == "run"


def test_a_helper_in_a_namespace_directory_beside_the_environment_is_hot(tmp_path: Path) -> None:
    layout(
        tmp_path,
        {
            "env/env.py": (
                "import verifiers as vf\nfrom utils.browser import mark\n\n\nclass E(vf.MultiTurnEnv):\n"
                "    async def setup_state(self, state, **kw):\n        return mark(state)\n"
            ),
            "env/utils/browser.py": "from tree import walk\n\n\ndef mark(x):\n    return walk(x)\n",
            "env/utils/tree.py": "import time\n\n\ndef walk(x):\n    time.sleep(1)\n    return x\n",
        },
    )
    result = run_check([str(tmp_path / "env")], Config(root=tmp_path / "env"), use_cache=False)
    assert [(f.path.rpartition("/")[2], f.code) for f in result.findings] == [("tree.py", "ASL101")]


def test_a_directory_without_init_below_the_project_file_is_a_namespace_package(tmp_path: Path) -> None:
    """PEP 420: ``env/pkg/a.py`` beside ``env/pyproject.toml`` is ``pkg.a`` (the environment is
    built and run from ``env``), ``src/`` of a project is where its packages start, and a file of
    such a directory, run as a script, still imports its siblings by their bare names. A directory
    no import can spell, or one with no project file above it, stays a root of its own."""
    paths = layout(
        tmp_path,
        {
            "env/pyproject.toml": "",
            "env/pkg/a.py": "",
            "env/pkg/b.py": "",
            "env/pkg/store/answers.py": "",
            "env/pkg/sub/__init__.py": "",
            "env/pkg/sub/x.py": "",
            "env/my-scripts/run.py": "",
            "lib/setup.cfg": "",
            "lib/src/tool/main.py": "",
            "loose/scripts/gen.py": "",
        },
    )
    names = module_names([p for p in paths if p.suffix == ".py"], project_root=tmp_path)
    assert names[tmp_path / "env/pkg/a.py"] == ModuleName("pkg.a", "pkg", (("b", "pkg.b"), ("sub", "pkg.sub")))
    assert names[tmp_path / "env/pkg/store/answers.py"].module == "pkg.store.answers"
    assert names[tmp_path / "env/pkg/sub/x.py"] == ModuleName(
        "pkg.sub.x", "pkg.sub", (("a", "pkg.a"), ("b", "pkg.b"), ("sub", "pkg.sub"))
    )
    assert names[tmp_path / "env/my-scripts/run.py"].module == "run"
    assert names[tmp_path / "lib/src/tool/main.py"] == ModuleName("tool.main", "tool")
    assert names[tmp_path / "loose/scripts/gen.py"].module == "gen"
    # Without the project's root no base is looked for: each such directory is a root of its own.
    assert module_names([tmp_path / "env/pkg/a.py"])[tmp_path / "env/pkg/a.py"].module == "a"


def test_a_helper_imported_through_a_namespace_package_is_hot(tmp_path: Path) -> None:
    layout(
        tmp_path,
        {
            "env/pyproject.toml": "[project]\nname = 'env'\n",
            "env/pkg/a.py": (
                "import verifiers as vf\nfrom pkg.b import is_file\nfrom .c import size\n\n\n"
                "async def reward(completion, info, **kwargs) -> float:\n"
                "    return float(is_file(info['path']) and size(info['path']) > 0)\n\n\n"
                "def load_environment():\n    return vf.SingleTurnEnv(rubric=vf.Rubric(funcs=[reward]))\n"
            ),
            "env/pkg/b.py": "from pathlib import Path\n\n\ndef is_file(p):\n    return Path(p).read_text() != ''\n",
            "env/pkg/c.py": "import time\n\n\ndef size(p):\n    time.sleep(1)\n    return 1\n",
        },
    )
    result = run_check([str(tmp_path / "env")], project_only(tmp_path / "env"), use_cache=False)
    assert sorted((f.path, f.code) for f in result.findings) == [("pkg/b.py", "ASL108"), ("pkg/c.py", "ASL101")]


def test_a_top_level_name_in_two_roots_is_told_apart_and_imports_prefer_the_own_root(tmp_path: Path) -> None:
    paths = layout(
        tmp_path,
        {
            "envs/a/utils.py": "",
            "envs/a/main.py": "",
            "envs/b/utils/__init__.py": "",
            "envs/b/utils/io.py": "",
            "envs/b/main.py": "",
            "envs/c/other.py": "",  # no utils of its own: the first root in path order
            "envs/a/sub/script.py": "",  # a root of its own below envs/a: the nearest root above it
        },
    )
    names = module_names(paths)
    assert names[tmp_path / "envs/a/utils.py"].module == "utils@a"
    assert names[tmp_path / "envs/b/utils/io.py"] == ModuleName(
        "utils@b.io", "utils@b", (("main", "main@b"), ("utils", "utils@b"))
    )
    assert dict(names[tmp_path / "envs/a/main.py"].imports) == {"main": "main@a", "utils": "utils@a"}
    assert dict(names[tmp_path / "envs/c/other.py"].imports)["utils"] == "utils@a"
    assert dict(names[tmp_path / "envs/a/sub/script.py"].imports)["utils"] == "utils@a"
    assert len({name.module for name in names.values()}) == len(paths), "two files share a module name"


def test_roots_with_the_same_directory_name_are_named_by_more_of_their_path(tmp_path: Path) -> None:
    paths = layout(tmp_path, {"x/env/utils.py": "", "y/env/utils.py": ""})
    names = module_names(paths)
    assert {names[path].module for path in paths} == {"utils@x/env", "utils@y/env"}


def test_check_resolves_each_environment_to_its_own_helper(tmp_path: Path, monkeypatch) -> None:
    hot = (
        "import verifiers as vf\nfrom utils import helper\n\n\nclass E(vf.MultiTurnEnv):\n"
        "    async def setup_state(self, state, **kw):\n        return helper(state)\n"
    )
    cold = "import verifiers as vf\nfrom utils import helper\n\n\ndef load_environment():\n    return helper(1)\n"
    sleeps = "import time\n\n\ndef helper(x):\n    time.sleep(1)\n    return x\n"
    clean = "def helper(x):\n    return x\n"
    layout(tmp_path, {"a/env_a.py": cold, "a/utils.py": sleeps, "b/env_b.py": hot, "b/utils.py": clean})
    monkeypatch.chdir(tmp_path)
    assert run_check(["."], project_only(tmp_path), use_cache=False).findings == ()
    (tmp_path / "a/utils.py").write_text(clean)
    (tmp_path / "b/utils.py").write_text(sleeps)
    (finding,) = run_check(["."], project_only(tmp_path), use_cache=False).findings
    assert (finding.path, finding.code) == ("b/utils.py", "ASL101")


def test_a_module_of_a_package_imports_its_siblings_by_their_bare_names(tmp_path: Path) -> None:
    """An environment whose directory holds an ``__init__.py`` runs (and is installed) with that
    directory on ``sys.path``: ``from patching import apply`` in ``env/env.py`` means ``env.patching``.
    Its own directory's module first, then the package directories above it."""
    paths = layout(
        tmp_path,
        {
            "env/__init__.py": "",
            "env/env.py": "",
            "env/patching.py": "",
            "env/oracle.py": "",
            "env/adapters/__init__.py": "",
            "env/adapters/kube.py": "",
            "env/adapters/oracle.py": "",
            "env/scripts/prepare.py": "",  # no __init__.py: a namespace portion, which any module of its name beats
            "env/calendar.py": "",  # the standard library's comes first on sys.path
            "env/pathspec.py": "",  # installed where the tests run: the project's own file is the evidence
        },
    )
    names = module_names(paths)
    assert dict(names[tmp_path / "env/env.py"].imports) == {
        "adapters": "env.adapters",
        "oracle": "env.oracle",
        "patching": "env.patching",
        "pathspec": "env.pathspec",
    }
    assert dict(names[tmp_path / "env/adapters/kube.py"].imports) == {
        "adapters": "env.adapters",
        "oracle": "env.adapters.oracle",
        "patching": "env.patching",
        "pathspec": "env.pathspec",  # not ``env``: the package itself, a top-level module of the root
    }
    assert dict(names[tmp_path / "env/scripts/prepare.py"].imports)["patching"] == "env.patching"
    # ``__init__.py`` runs only when its directory is imported as a package, where bare names
    # do not reach the package's modules.
    assert names[tmp_path / "env/__init__.py"].imports == ()


def test_a_package_named_after_a_framework_does_not_stand_for_it(tmp_path: Path) -> None:
    """An adapter package named after the framework it adapts to (``integrations/verifiers/``):
    its modules' ``import verifiers`` is the framework, while the package's other modules and
    a package of another name are still what their bare names mean."""
    paths = layout(
        tmp_path,
        {
            "sere/__init__.py": "",
            "sere/integrations/__init__.py": "",
            "sere/integrations/verifiers/__init__.py": "",
            "sere/integrations/verifiers/vf_sere.py": "",
            "sere/integrations/verifiers/render.py": "",
            "sere/integrations/ludic/__init__.py": "",
            "sere/integrations/ludic/env.py": "",
        },
    )
    names = module_names(paths)
    assert dict(names[tmp_path / "sere/integrations/verifiers/vf_sere.py"].imports) == {
        "integrations": "sere.integrations",
        "ludic": "sere.integrations.ludic",
        "render": "sere.integrations.verifiers.render",
    }
    assert dict(names[tmp_path / "sere/integrations/ludic/env.py"].imports)["ludic"] == "sere.integrations.ludic"


def test_a_top_level_module_of_the_own_root_wins_over_a_sibling(tmp_path: Path) -> None:
    """The root above the package is on ``sys.path`` as well, and the project names its modules
    so already; a top-level name of another root does not stand in the sibling's way."""
    paths = layout(
        tmp_path,
        {
            "envs/a/utils.py": "",
            "envs/a/pkg/__init__.py": "",
            "envs/a/pkg/utils.py": "",
            "envs/a/pkg/run.py": "",
            "envs/b/utils.py": "",
            "envs/b/helpers.py": "",
            "envs/c/pkg/__init__.py": "",
            "envs/c/pkg/helpers.py": "",
            "envs/c/pkg/run.py": "",
        },
    )
    names = module_names(paths)
    assert dict(names[tmp_path / "envs/a/pkg/run.py"].imports)["utils"] == "utils@a"
    assert dict(names[tmp_path / "envs/c/pkg/run.py"].imports)["helpers"] == "pkg@c.helpers"


def test_a_sibling_imported_by_its_bare_name_is_checked(tmp_path: Path) -> None:
    layout(
        tmp_path,
        {
            "env/__init__.py": "",
            "env/env.py": (
                "import verifiers as vf\nfrom patching import apply\n\n\ndef fix(text: str) -> str:\n"
                "    return apply(text)\n\n\ndef load_environment():\n    return vf.ToolEnv(tools=[fix])\n"
            ),
            "env/patching.py": (
                "import subprocess\n\n\ndef apply(text):\n    return subprocess.run(['patch'], input=text)\n"
            ),
        },
    )
    result = run_check([str(tmp_path / "env")], project_only(tmp_path / "env"), use_cache=False)
    assert [(f.path, f.code) for f in result.findings] == [("patching.py", "ASL106")]


def test_files_of_a_package_directory_share_one_table_and_a_file_never_means_itself(tmp_path: Path) -> None:
    # A package of hundreds of modules side by side told each of them every sibling's name (43 MB
    # of tuples on a 7,500-file tree): the directory's table is one object, read per file.
    files = ["pkg/__init__.py", "pkg/utils.py", "pkg/sub/__init__.py", "pkg/sub/utils.py"]
    files += [f"pkg/sub/m{n}.py" for n in range(5)]
    paths = layout(tmp_path, dict.fromkeys(files, ""))
    names = module_names(paths)
    first, second = names[tmp_path / "pkg/sub/m0.py"], names[tmp_path / "pkg/sub/m1.py"]
    assert dict(first.imports) == {
        **{f"m{n}": f"pkg.sub.m{n}" for n in range(1, 5)},
        "sub": "pkg.sub",
        "utils": "pkg.sub.utils",
    }
    assert "m1" not in dict(second.imports) and dict(second.imports)["m0"] == "pkg.sub.m0"
    # its own name means the module of that name above it, as a bare import would find it
    assert dict(names[tmp_path / "pkg/sub/utils.py"].imports)["utils"] == "pkg.utils"
    assert isinstance(first.imports, Imports) and first.imports.table is second.imports.table
    assert first.imports == tuple(first.imports) and len(first.imports) == 6
    assert repr(first.imports) == repr(tuple(first.imports))  # a summary's key reads it


def test_directories_holding_no_module_below_a_script_are_a_namespace_path(tmp_path: Path) -> None:
    """``ragent/data/sources/bm25s.py`` below ``ragent_env.py`` (no ``__init__.py``, no project
    file) is ``ragent.data.sources.bm25s``, as the script imports it, and its ``import bm25s`` means
    the library, never itself. Through a directory holding modules of its own the chain stops."""
    paths = layout(
        tmp_path,
        {
            "env/ragent_env.py": "",
            "env/ragent/data/sources/bm25s.py": "",
            "env/ragent/data/sources/other.py": "",
            "env/tools/run.py": "",
            "env/tools/deep/x.py": "",
        },
    )
    names = module_names(paths)
    assert names[tmp_path / "env/ragent/data/sources/bm25s.py"] == ModuleName(
        "ragent.data.sources.bm25s", "ragent.data.sources", (("other", "ragent.data.sources.other"),)
    )
    assert names[tmp_path / "env/tools/run.py"].module == "tools.run"
    assert names[tmp_path / "env/tools/deep/x.py"].module == "x"


def test_a_tool_of_a_class_in_a_namespace_path_below_the_script_is_hot(tmp_path: Path) -> None:
    layout(
        tmp_path,
        {
            "env/env.py": (
                "import verifiers as vf\nfrom pkg.data.search import Index\n\n\n"
                "def load_environment():\n    index = Index()\n    return vf.ToolEnv(tools=[index.lookup])\n"
            ),
            "env/pkg/data/search.py": (
                "import time\n\n\nclass Index:\n    def lookup(self, q: str) -> str:\n"
                '        """Look up."""\n        time.sleep(1)\n        return q\n'
            ),
        },
    )
    result = run_check([str(tmp_path / "env")], project_only(tmp_path / "env"), use_cache=False)
    assert [(f.path.rpartition("/")[2], f.code) for f in result.findings] == [("search.py", "ASL101")]


def test_a_package_exporting_a_function_named_as_its_submodule_means_the_function(tmp_path: Path) -> None:
    # ``from .bash import bash`` in the package rebinds ``pkg.tools.bash`` to the function: the
    # submodule's own name never wins over the export (nor does a stray top-level ``bash``'s
    # spelling of it: scripts/tools/bash.py spells ``tools.bash`` too).
    layout(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/tools/__init__.py": "from .bash import bash\n",
            "pkg/tools/bash.py": (
                "import subprocess\n\n\ndef bash(command: str) -> str:\n"
                "    return subprocess.run(command, shell=True).stdout\n"
            ),
            "scripts/tools/bash.py": "def bash(command: str) -> str:\n    return command\n",
            "env.py": (
                "import verifiers as vf\nimport pkg.tools as tools\n\n\n"
                "def load_environment():\n    return vf.ToolEnv(tools=[tools.bash])\n"
            ),
        },
    )
    result = run_check([str(tmp_path)], project_only(tmp_path), use_cache=False)
    assert [(f.path, f.code) for f in result.findings] == [("pkg/tools/bash.py", "ASL106")]
