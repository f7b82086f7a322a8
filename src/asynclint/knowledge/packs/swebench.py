"""SWE-bench's harness (``swebench``), as environments that grade a patch the SWE-bench way call it:
test specs, log parsers, log grading, docker builds and runs.

A test log is graded by a log parser per repository: 4.x looks it up in
``swebench.harness.log_parsers.MAP_REPO_TO_PARSER[repo]``, 5.x in ``PARSER_REGISTRY[spec.log_parser]``.
Every parser walks the whole log line by line in pure Python (``log.split("\\n")``, a
``startswith`` per test status and a regex search or two per line) while holding the GIL: a
test run's log is tens to hundreds of KB, milliseconds of CPU per call.
``grading.get_logs_eval`` reads the log file and runs that parser (5.x twice when the markers
hold no result); ``get_eval_report`` calls it. In 4.x ``make_test_spec`` fetches the repository's
``environment.yml`` or ``requirements.txt`` from raw.githubusercontent.com with ``requests.get``
(cached per repository and environment commit for the process; 5.x's
``swebench.harness.utils.make_test_spec`` only reads the instance). ``run_evaluation.main`` and
``run_instance`` build images and run the tests in containers, ``docker_build`` builds images and
containers and ``docker_utils`` copies files into a container, runs commands in it and removes it:
every one of them is a docker-py call to the daemon that waits for it. ``load_swebench_dataset``
downloads the dataset with ``datasets.load_dataset``. swebench has no async API. Importing any
of swebench 4.x imports the whole harness (``swebench/__init__.py``: docker, datasets, bs4, modal):
seconds, once per process -- an import written in a hot function costs its first call that.
"""

from __future__ import annotations

from asynclint.knowledge.api import IMPORT, BlockingApi, entry

_SOURCE4 = "source: pkg swebench 4.1.0"
_BOTH = "source: pkg swebench 4.1.0 and 5.0.2"
#: A parser table's own dict methods (``MAP_REPO_TO_PARSER.get(repo)``) run no parser.
_TABLE_LOOKUPS = frozenset({"get", "keys", "values", "items"})

APIS: tuple[BlockingApi, ...] = (
    entry(
        f"{IMPORT} swebench",
        "cpu",
        "module-import",
        None,
        frozenset(),
        f"{_BOTH} swebench/__init__.py (4.1.0 imports collect, harness.docker_build, docker_utils, grading, "
        "...; 5.0.2 made them lazy: 'eagerly importing these pulled in bs4, docker, datasets and modal, so "
        "`import swebench` cost seconds')",
    ),
    # Every parser function and every item of the parser tables (``MAP_REPO_TO_PARSER[repo]``,
    # ``PARSER_REGISTRY[name]``, the per-language ``MAP_REPO_TO_PARSER_PY[repo]``).
    entry(
        "swebench.harness.log_parsers.**",
        "cpu",
        "cpu-heavy",
        "process-pool",
        _TABLE_LOOKUPS,
        f"{_BOTH} swebench/harness/log_parsers/python.py (parse_log_pytest: for line in log.split('\\n'), "
        "startswith per TestStatus; parse_log_django, parse_log_sympy: re.findall / re.match per line), "
        "log_parsers/__init__.py (MAP_REPO_TO_PARSER in 4.x, PARSER_REGISTRY in 5.x)",
    ),
    *(
        entry(
            f"swebench.harness.grading.{name}",
            "fs",
            "disk-content",
            "to-thread",
            frozenset(),
            f"{_BOTH} swebench/harness/grading.py ({name}: open(log_fp).read(), then the repository's log parser "
            "over the test output)",
        )
        for name in ("get_logs_eval", "get_eval_report")
    ),
    # Reads no file: the status map is already parsed. One dict lookup per test the instance
    # names (FAIL_TO_PASS and PASS_TO_PASS: tens to thousands), short CPU, not worth a hop.
    entry(
        "swebench.harness.grading.get_eval_tests_report",
        "cpu",
        "cpu-light",
        None,
        frozenset(),
        f"{_BOTH} swebench/harness/grading.py (get_eval_tests_report: test_passed/test_failed per test of "
        "gold_results[FAIL_TO_PASS] and [PASS_TO_PASS], and of the x-to-fail lists when asked)",
    ),
    entry(
        "swebench.harness.test_spec.test_spec.make_test_spec",
        "http",
        "network",
        "to-thread",
        frozenset(),
        f"{_SOURCE4} swebench/harness/test_spec/test_spec.py (make_test_spec -> make_env_script_list), "
        "test_spec/python.py (get_requirements_by_commit, get_environment_yml_by_commit: requests.get of "
        "raw.githubusercontent.com, functools.cache)",
    ),
    *(
        entry(
            f"swebench.harness.run_evaluation.{name}",
            "sdk",
            "network",
            "to-thread",
            frozenset(),
            f"{_BOTH} swebench/harness/run_evaluation.py ({name}: docker builds and test runs in containers)",
        )
        for name in ("main", "run_instance", "run_instances")
    ),
    # Module helpers that are pure (``should_remove`` compares names) are left out by ``unless``.
    entry(
        "swebench.harness.docker_utils.**",
        "sdk",
        "network",
        "to-thread",
        frozenset({"should_remove"}),
        f"{_BOTH} swebench/harness/docker_utils.py (copy_to_container: container.put_archive, exec_run; "
        "exec_run_with_timeout: container.exec_run in a thread joined with a timeout; cleanup_container: "
        "container.stop / remove)",
    ),
    entry(
        "swebench.harness.docker_build.**",
        "sdk",
        "network",
        "to-thread",
        frozenset({"setup_logger", "close_logger"}),
        f"{_SOURCE4} swebench/harness/docker_build.py (build_image: client.api.build; build_container: "
        "client.containers.create)",
    ),
    entry(
        "swebench.harness.utils.load_swebench_dataset",
        "http",
        "network",
        "to-thread",
        frozenset(),
        f"{_BOTH} swebench/harness/utils.py (load_swebench_dataset: datasets.load_dataset, or a local json file)",
    ),
)
