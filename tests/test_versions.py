"""Which releases a requirement admits, and whether they fall in a framework's range of releases."""

import pytest

from asynclint.knowledge.versions import admitted, coverage


@pytest.mark.parametrize(
    ("specifiers", "before_0_1_2", "at_0_1_2"),
    [
        ("0.1.1", "all", "none"),
        ("==0.1.2", "none", "all"),
        ("0.1.1.post1", "all", "none"),
        ("<0.1.2", "all", "none"),
        ("<=0.1.2", "some", "some"),
        (">=0.1,<0.1.3", "some", "some"),
        ("~=0.1.0", "some", "some"),
        ("==0.1.*", "some", "some"),
        (">=0.1.14", "none", "none"),
        ("!=0.1.2", "none", "none"),
        ("", "none", "none"),
    ],
)
def test_coverage_of_a_range_of_releases(specifiers: str, before_0_1_2: str, at_0_1_2: str) -> None:
    assert coverage(specifiers, "0", "0.1.2") == before_0_1_2
    assert coverage(specifiers, "0.1.2", "0.1.3") == at_0_1_2


def test_compatible_release_and_wildcards_bound_the_range() -> None:
    assert admitted("~=0.1.0") == admitted(">=0.1.0,<0.2") == admitted("==0.1.*")
    assert admitted("~=1.4") == admitted(">=1.4,<2")
    narrowed = admitted(">=0.1,==0.1.2")
    assert narrowed is not None and narrowed.exact


@pytest.mark.parametrize(
    ("versions", "reason"),
    [
        ({"verifiers": "0.1.2"}, "the project runs verifiers 0.1.2, where `Rubric` uses"),
        ({"verifiers": ">=0.1.0"}, "the project's `verifiers>=0.1.0` admits releases before 0.1.3, where `Rubric`"),
        ({"verifiers": "~=0.1.2"}, "the project's `verifiers~=0.1.2` admits releases before 0.1.3"),
        ({"verifiers": "0.1.3"}, ""),
        ({"verifiers": ">=0.1.3"}, ""),
        ({}, ""),  # unknown: today's releases, which await it
    ],
)
def test_a_reward_made_async_needs_every_admitted_release_to_await_it(versions: dict[str, str], reason: str) -> None:
    from asynclint.knowledge.frameworks import GROUP_REWARD, REWARD, TOOL, result_unawaited

    said = result_unawaited(REWARD, versions)
    assert said.startswith(reason) and bool(said) == bool(reason)
    assert bool(result_unawaited(TOOL, versions)) == bool(reason)  # ToolEnv.call_tool, the same releases
    assert result_unawaited(GROUP_REWARD, versions) == ""  # not in the table (not read for 0.1.2)
