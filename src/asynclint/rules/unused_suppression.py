"""ASL901: a suppression comment that hides no finding, or names no rule."""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

from asynclint.model import Facts, Finding, Severity
from asynclint.rules import phrasing
from asynclint.rules.base import Rule
from asynclint.rules.context import CheckContext
from asynclint.suppressions import comments, ours


class UnusedSuppression(Rule):
    """A suppression comment hides no finding, or names something that is no asynclint rule.

    **Why is this bad?**
    A suppression outlives what it was written for: the call was fixed, moved off the loop or
    renamed, and the comment stays. Then it hides the next blocking call someone writes on that
    line, unseen. A misspelt code (`# asynclint: ignore[ASL10]`, `blocking-slep`) never hid
    anything at all, although it looks as if it did. Only real comments are judged; a `# noqa`
    entry for another tool (`E501`) is left alone, and so is an entry for a rule this file's
    configuration does not report.

    **Example**
    ```python
    import asyncio


    async def handle():
        await asyncio.sleep(1)  # asynclint: ignore[blocking-sleep]
    ```

    **Use instead**
    ```python
    import asyncio


    async def handle():
        await asyncio.sleep(1)
    ```

    **Fix**
    Delete the comment, or the entries it lists that hide nothing; correct a misspelt code
    (`asynclint rules` lists them). No automatic fix: `asynclint fix` never rewrites a line a
    suppression covers. `# asynclint: ignore[ASL901]` keeps a suppression on purpose.
    """

    code = "ASL901"
    name = "unused-suppression"
    default_severity = Severity.LOW
    runs_last: ClassVar[bool] = True
    message = "`{suppression}` suppresses nothing"

    def check(self, ctx: CheckContext) -> Iterator[Finding]:
        from asynclint.rules import BY_CODE, BY_NAME  # the registry imports this module

        texts = ctx.texts()
        for path in sorted(texts):  # one text at a time: a project's texts together are a lot of memory
            enabled = ctx.enabled(path)
            if self.code not in enabled:
                continue
            for comment in comments(texts[path]):
                kind, listed = comment.suppression
                if listed is None:
                    unused: tuple[str, ...] = (
                        () if (path, comment.line, kind, None) in ctx.used_suppressions else ("ignore",)
                    )
                    unknown: tuple[str, ...] = ()
                else:
                    entries = ours(comment.suppression)
                    rules = {part: BY_CODE.get(part.upper()) or BY_NAME.get(part.lower()) for part in entries}
                    unknown = tuple(part for part, rule in rules.items() if rule is None)
                    unused = tuple(
                        part
                        for part, rule in rules.items()
                        # a rule this file does not report may be someone's decision for another run
                        if rule is not None
                        and rule.code in enabled
                        and rule is not type(self)
                        and (path, comment.line, kind, part) not in ctx.used_suppressions
                    )
                if not unused and not unknown:
                    continue
                severity = ctx.overridden(path, self.code) or self.default_severity
                # Its own code keeps a suppression on purpose; a bare ignore does not hide its own finding.
                if not ctx.keep(path, comment.line, self.code, self.name, severity, bare=False):
                    continue
                facts = Facts(suppression=comment.text, unused=unused, unknown=unknown)
                yield Finding(
                    path,
                    comment.line,
                    comment.column,
                    comment.line,
                    comment.end_column,
                    self.code,
                    self.name,
                    severity,
                    phrasing.suppression_message(facts),
                    facts=facts,
                )
