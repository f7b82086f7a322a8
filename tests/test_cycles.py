"""Values that name each other across modules: what each name denotes does not depend on the order
the names are asked in (issue 11: answers kept across an edit must not depend on who asked first)."""

from __future__ import annotations

import itertools
import textwrap
from pathlib import Path

from asynclint.analysis.cycles import CycleMemo
from asynclint.analysis.graph_records import FunctionId
from asynclint.config import Config
from asynclint.engine import SourceFile, check, project_graph, summarize
from asynclint.model import FileError
from asynclint.runner import read_sources

#: Attributes of an instance that name each other (``self.a = self.b``, ``self.b = self.a``), one
#: of them read through a value of another module, beside a value that does not touch them.
MODULES = {
    "pkg.env": """
        class Env:
            def __init__(self):
                self.a = self.b
                self.b = self.a
        """,
    "pkg.clients": """
        import openai
        from pkg.env import Env
        HELD = Env().b
        OUTSIDE = openai.OpenAI().chat
        """,
}

ASKED = ("pkg.env.Env().a", "pkg.env.Env().b", "pkg.clients.HELD", "pkg.clients.OUTSIDE")


def _graph(tmp_path: Path, modules: dict[str, str] = MODULES):
    config = Config(root=tmp_path)
    summaries = []
    for module, text in modules.items():
        path = tmp_path / f"{module.replace('.', '/')}.py"
        source = SourceFile(str(path), textwrap.dedent(text), module=module, package="pkg")
        summary = summarize(source, config.catalogue())
        assert not isinstance(summary, FileError), summary
        summaries.append(summary)
    return project_graph(summaries, config)


def test_names_in_a_cycle_of_values_have_the_same_answers_in_every_order_they_are_asked(tmp_path: Path):
    answers = set()
    for order in itertools.permutations(ASKED):
        graph = _graph(tmp_path)
        asked = {name: graph.resolve(name) for name in order}
        answers.add(tuple(sorted(asked.items())))
    assert len(answers) == 1, answers
    (only,) = answers
    # Each settles on itself: asked first, it reads the other with itself unsettled.
    assert dict(only) == {
        "pkg.env.Env().a": "pkg.env.Env().a",
        "pkg.env.Env().b": "pkg.env.Env().b",
        "pkg.clients.HELD": "pkg.env.Env().b",
        "pkg.clients.OUTSIDE": "openai.OpenAI.chat",
    }


def test_each_question_of_a_cycle_keeps_the_answer_it_has_when_asked_first():
    # ``x`` reads ``y`` and ``y`` reads ``x``: asked first, each reads the other with itself unsettled.
    values = {"x": "y", "y": "x", "z": "x"}

    def compute(name: str) -> str:
        return f"{name}<{memo.ask(values[name])}>"

    for order in itertools.permutations("xyz"):
        memo: CycleMemo[str, str] = CycleMemo(compute, str)
        asked = {name: memo.ask(name) for name in order}
        assert asked == {"x": "x<y<x>>", "y": "y<x<y>>", "z": "z<x<y<x>>>"}, order


#: Two functions handing a parameter round (``step`` -> ``hop`` -> ``step``), typed from outside
#: the cycle by the one caller that makes the driver.
HANDED_ROUND = {
    "pkg.browse": """
        from selenium import webdriver

        def step(driver, n):
            if n:
                hop(driver, n - 1)
            driver.refresh()

        def hop(driver, n):
            step(driver, n)

        def other(driver):
            hop(driver, 0)

        async def rollout():
            driver = webdriver.Chrome()
            step(driver, 3)
        """,
}


def test_parameters_handed_round_a_cycle_of_calls_have_the_same_types_in_every_order_they_are_asked(
    tmp_path: Path,
):
    asked = (("step", "driver"), ("hop", "driver"), ("other", "driver"))
    answers = set()
    for order in itertools.permutations(asked):
        graph = _graph(tmp_path, HANDED_ROUND)
        typed = {
            f"{function}({param})": graph.param_type(graph.function_for(f"pkg.browse.{function}"), param)
            for function, param in order
        }
        answers.add(tuple(sorted(typed.items())))
    assert len(answers) == 1, answers
    (only,) = answers
    # ``hop``'s only caller hands it ``step``'s parameter; ``other`` has no caller at all.
    assert dict(only) == {
        "step(driver)": "selenium.webdriver.Chrome",
        "hop(driver)": "selenium.webdriver.Chrome",
        "other(driver)": None,
    }


def test_what_each_call_runs_is_remembered_as_it_is_answered_when_asked_last():
    # ``HotSet._targets`` keeps what a summary's own call runs, by its place, from the first pass
    # that asks (the roots' scan): each kept answer must be what the call runs when asked after the
    # whole check -- every pass and rule run, every parameter type and value settled -- or a pass
    # asking later would read an answer made from a state that moved on.
    fixtures = Path(__file__).parent / "fixtures"
    config = Config(root=fixtures)
    catalogue = config.catalogue()
    files = sorted(p for p in fixtures.rglob("*.py") if "__pycache__" not in p.parts)
    sources, errors = read_sources(files, fixtures)
    assert not errors
    summaries = [summary for source in sources if not isinstance(summary := summarize(source, catalogue), FileError)]
    graph = project_graph(summaries, config, catalogue)
    check(summaries, {source.path: source.text for source in sources}, config, catalogue, graph=graph)
    kept = 0
    for position, row in enumerate(graph._site_runs):
        for index, found in enumerate(row or ()):
            if found is None:
                continue
            site = graph.summaries[position].calls[index]
            caller = FunctionId((position, site.caller))
            assert tuple(found) == tuple(graph._unframed(graph._runs(caller, site, index))), (position, index)
            kept += 1
    assert kept > 1000  # every project call is asked by the roots' scan or the entered pass
