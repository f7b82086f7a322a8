"""Rules about how a framework hook is defined (``def`` vs ``async def``), not about a call."""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

from asynclint.analysis.index.records import Function
from asynclint.knowledge.frameworks import (
    Hook,
)
from asynclint.model import ChainLink, Facts, Finding, FixRequest
from asynclint.rules.base import Rule
from asynclint.rules.context import CheckContext


class DefinitionRule(Rule):
    """A rule about how a framework hook is *defined* (``def`` vs ``async def``), not a call.

    The framework knowledge says what each hook must be (``Hook.must_be``); the rule says which
    requirement it enforces.
    """

    requirement: ClassVar[str]  # "async" or "sync"
    message: ClassVar[str] = "{hook} `{function}` must be {requirement}"

    def violated(self, function: Function, hook: Hook) -> bool:
        return hook.must_be == self.requirement and function.is_async != (self.requirement == "async")

    def check(self, ctx: CheckContext) -> Iterator[Finding]:
        for summary, function, hook in ctx.hooks():
            severity = ctx.overridden(summary.path, self.code) or self.default_severity
            if not self.violated(function, hook) or not ctx.keep(
                summary.path, function.line, self.code, self.name, severity
            ):
                continue
            keyword = "async def" if function.is_async else "def"
            yield Finding(
                summary.path,
                function.line,
                function.col,
                function.line,
                function.col + len(keyword),
                self.code,
                self.name,
                severity,
                self.message.format(hook=hook.kind, function=function.qualname, requirement=self.requirement),
                (ChainLink(summary.path, function.line, function.qualname),),
                facts=Facts(
                    function=function.qualname,
                    root=function.qualname,
                    root_kind=hook.kind,
                    frequency=hook.frequency,
                    context=hook.context,
                ),
                fix_request=FixRequest("definition", recipe=self.code),
            )
