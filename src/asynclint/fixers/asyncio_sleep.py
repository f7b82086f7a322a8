"""Recipe ``asyncio-sleep``: ``time.sleep(x)`` -> ``await asyncio.sleep(x)``.

Safe in ``async def``: the coroutine waits as long as before, and the loop runs the other
rollouts meanwhile. The callee is resolved where it is called (a function-local ``import time``
counts), and ``asyncio`` is written under the name the module already imports it as. Declines
(so ``to-thread`` is tried) when the sleep is in a sync helper, or when the callee may not be
``time.sleep`` at run time (``self._sleep``, injected for tests).
"""

from __future__ import annotations

import libcst as cst

from asynclint.fixers.base import Decline, Fix, FixerSpec
from asynclint.fixers.cst.bindings import binding
from asynclint.fixers.cst.build import awaited_fix
from asynclint.fixers.cst.imports import import_binding
from asynclint.fixers.cst.parsed import dotted
from asynclint.fixers.cst.references import sleep_reference
from asynclint.fixers.project import FixProject, call_of
from asynclint.model import Finding

SPEC = FixerSpec("asyncio-sleep", True, "replace with `await asyncio.sleep(...)`", answers=("asyncio-sleep",))


def fix(finding: Finding, project: FixProject) -> Fix | Decline:
    site = project.site(finding)
    if isinstance(site, Decline):
        return site
    if not site.offending:
        return Decline(f"the sleep is in the sync helper `{site.helper}`", applicable=False)
    file = site.file
    call = call_of(site)
    if isinstance(call, Decline):
        return call
    callee = dotted(call.func)
    head, _, rest = (callee or "").partition(".")
    bound = binding(file, head, call) if callee else None
    if bound is None or bound.target is None:
        # `self._sleep`, a module-level alias: may be swapped at run time (tests inject fakes)
        return Decline(f"`{file.code(call.func)}` may be replaced at run time", applicable=False)
    target = finding.fix.target if finding.fix else ""
    if target and ".".join(filter(None, (bound.target, rest))) != target:
        return Decline(f"`{callee}` here is not `{target}`", applicable=False)
    if len(call.args) != 1 or call.args[0].star or call.args[0].keyword is not None:
        return Decline("expected exactly one positional argument", applicable=False)
    if file.in_generator_expression(call, site.function):
        return Decline("the call is inside a generator expression", applicable=False)
    sleeper = sleep_reference(file, (call,))  # `trio.sleep` in a module running under trio
    if isinstance(sleeper, Decline):
        return sleeper
    argument = call.args[0].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    sleep = call.with_changes(func=cst.parse_expression(sleeper.code), args=[argument], lpar=[], rpar=[])
    return awaited_fix(
        site,
        sleep,
        "asyncio-sleep",
        site.did(f"replaced `{callee}` with `await {sleeper.code}`"),
        (finding,),
        imports=sleeper.imports,
        unused_imports=import_binding(file, head) if not bound.local else (),
    )
