"""Recipe ``async-client``: a sync SDK client kept on ``self`` (or at module level) becomes the
library's async client, and every call made through it is awaited::

    self.judge = OpenAI(...)                   ->  self.judge = AsyncOpenAI(...)
    r = self.judge.chat.completions.create(...)  ->  r = await self.judge.chat.completions.create(...)

The async clients of these SDKs return the same response objects, so only the calls change.
Unsafe: every use of the client changes, and uses this cannot see (subclasses, other modules,
code that receives the client) would get coroutines. Declines unless the client is assigned in
exactly one place and every use in its class (module) is a direct call made in ``async def``:
no use in a sync function, no client handed elsewhere, no ``with``, no streaming, no calls
chained through methods that return another client (``with_options``).
"""

from __future__ import annotations

import re
from collections.abc import Callable

import libcst as cst
from libcst.metadata import ExpressionContext

from asynclint.fixers.base import Decline, Edit, Fix, FixerSpec, Import, ModuleStatement
from asynclint.fixers.cst.bindings import binding
from asynclint.fixers.cst.build import awaited
from asynclint.fixers.cst.imports import import_binding
from asynclint.fixers.cst.names import names_read
from asynclint.fixers.cst.parsed import ParsedFile, dotted, is_async
from asynclint.fixers.cst.references import cached_getter, module_level_name_of, reference
from asynclint.fixers.project import FixProject, call_of
from asynclint.knowledge.clients import (
    ASYNC_CLIENTS,
    HTTPX_KEYWORDS,
    REQUESTS_FUNCTIONS,
    REQUESTS_NO_REDIRECTS,
    REQUESTS_SAME_KEYWORDS,
    RESPONSE_ALIKE,
)
from asynclint.model import Finding, split_place

SPEC = (
    FixerSpec(
        "async-client",
        False,
        "switch to the library's async client and await its calls",
        "every use of the client changes; code outside the class that uses it is not updated",
        answers=("async-client",),
    ),
    FixerSpec(
        "handoff-client",
        False,
        "hand the framework the library's async client (it awaits the client's calls)",
        "the object handed over changes type; anything else holding it would get coroutines",
        answers=("handoff-client",),  # an object handed to the framework, not a call
        function="fix_handoff",
    ),
)


def fix(finding: Finding, project: FixProject) -> Fix | Decline:
    target = finding.fix.target if finding.fix else ""
    if target in REQUESTS_FUNCTIONS:
        return _requests_function(finding, project, target)
    client_type = next((name for name in ASYNC_CLIENTS if target.startswith(name + ".")), None)
    if client_type is None:
        return Decline(f"no async counterpart known for `{target}`", applicable=False)
    async_class = f"{client_type.rpartition('.')[0]}.{ASYNC_CLIENTS[client_type]}"
    return switch_client(finding, project, client_type, async_class, "async-client")


def switch_client(
    finding: Finding,
    project: FixProject,
    client_type: str,
    async_class: str,
    recipe: str,
    unlike: Callable[[str], str] = lambda method: "",
) -> Fix | Decline:
    """The client the finding's call goes through, built from ``async_class`` instead of
    ``client_type``, with every call through it awaited. ``unlike(method)`` says why the twin's
    ``method`` (a dotted path below the client; ``__init__`` for the constructor) cannot take the
    same arguments ("" when it can)."""
    site = project.direct_site(finding)
    if isinstance(site, Decline):
        return site
    assert isinstance(site.function, cst.FunctionDef)  # a direct site is in `async def`
    file = site.file
    call = call_of(site)
    if isinstance(call, Decline):
        return call
    callee = dotted(call.func) or ""
    holder = re.match(r"(self\.\w+|\w+)\.", callee)
    if holder is None:
        return Decline("the client is not kept on `self` or in a module-level name", applicable=False)
    holder_name = holder.group(1)
    # a client built in this very function (`c = OpenAI()`): its uses are all here too
    local = not holder_name.startswith("self.") and _bound_in(file, holder_name, call, site.function)
    scope: cst.ClassDef | cst.FunctionDef | cst.Module | None
    if holder_name.startswith("self."):
        scope = file.enclosing_class(site.function)
    else:
        scope = site.function if local else file.module
    if scope is None:
        return Decline("`self` outside a class", applicable=False)
    if not (local or holder_name in file.module_level_names() or holder_name.startswith("self.")):
        return Decline(
            f"`{holder_name}` is a parameter or a closure's: the client comes from elsewhere", applicable=False
        )
    if not (local or holder_name.startswith("self.")) and _used_elsewhere(project, file, holder_name):
        return Decline(f"`{holder_name}` is used in other modules too")
    built = _constructions(file, scope, holder_name)
    if local and not built:
        return Decline(f"`{holder_name}` is not built in `{site.function.name.value}`", applicable=False)
    if len(built) != 1:
        return Decline(f"`{holder_name}` is assigned in {len(built)} places")
    construction = built[0]
    if construction is None or _resolve(file, construction.func) != client_type:
        return Decline(f"`{holder_name}` is not built by calling `{client_type}` directly")
    uses = _uses(file, scope, holder_name, construction)
    if isinstance(uses, Decline):
        return uses
    if call not in uses:  # the finding's own call must be among those awaited, or nothing is fixed
        return Decline(f"cannot find the finding's call among the uses of `{holder_name}`")
    for method in ("__init__", *(_called(use).removeprefix(holder_name + ".") for use in uses)):
        reason = unlike(method)
        if reason:
            return Decline(reason)
    module, new_name = async_class.rpartition(".")[::2]
    if module != client_type.rpartition(".")[0]:
        new_name = async_class  # `Redis` -> `redis.asyncio.Redis`: the module is the difference
    swapped = _async_constructor(file, construction, client_type, async_class)
    if isinstance(swapped, Decline):
        return swapped
    new_func, imports, unused = swapped
    edits = [_constructed(file, construction, new_func, client_type)]
    edits += [Edit(use, awaited(file, use, use)) for use in uses]
    methods = sorted({_async_function(file, use).name.value for use in uses})
    return Fix(
        path=file.path,
        edits=tuple(edits),
        recipe=recipe,
        safe=False,
        title=(
            f"switched `{holder_name}` to `{new_name}` and awaited its {len(uses)} "
            f"call{'s' if len(uses) != 1 else ''} (in {', '.join(f'`{m}`' for m in methods)})"
        ),
        imports=imports,
        unused_imports=unused,
        claims=(finding,),
        note=(
            "the client is still built on every call"
            if local
            else f"code outside {'the class' if holder_name.startswith('self.') else 'this module'} that uses "
            f"`{holder_name}` is not updated"
        ),
    )


def _bound_in(file: ParsedFile, name: str, at: cst.CSTNode, function: cst.FunctionDef) -> bool:
    """``name`` is a local variable of ``function`` (not a parameter, nor a closure's)."""
    from libcst.metadata import Assignment

    scope = file.scope(at)
    assignments = list(scope[name]) if scope is not None else []
    return bool(assignments) and all(
        isinstance(a, Assignment) and not isinstance(a.node, cst.Param) and file.scope(function.body) is a.scope
        for a in assignments
    )


#: The getter of the shared client (``_http_client()``), as hoist-client writes one.
SHARED_HTTP = "_http_client"
#: Why one event loop only: its pooled connections belong to the loop they were opened on.
ONE_LOOP = (
    "the shared client serves one event loop: code that starts another (a second `asyncio.run`, tests each on a loop"
    " of their own) needs a client of its own"
)


def _requests_function(finding: Finding, project: FixProject, target: str) -> Fix | Decline:
    """``requests.get(...)`` in ``async def`` -> ``await _http_client().get(...)``: one
    ``httpx.AsyncClient(follow_redirects=True)`` built on first use by a module-level
    ``functools.cache`` function, as hoist-client builds a client (or a module-level client
    built exactly so, by hand, reused). Unsafe: exceptions become httpx's (code catching
    ``requests``' exceptions is declined, but callers further up may catch them too), and the
    shared client serves one event loop (see :data:`ONE_LOOP`). Declines when the response is
    used through what ``httpx.Response`` lacks, or handed on (whoever gets it may)."""
    site = project.direct_site(finding)
    if isinstance(site, Decline):
        return site
    assert isinstance(site.function, cst.FunctionDef)  # a direct site is in `async def`
    file = site.file
    call = call_of(site)
    if isinstance(call, Decline):
        return call
    verb = target.rpartition(".")[2]
    known = REQUESTS_SAME_KEYWORDS | HTTPX_KEYWORDS.keys()
    odd = [arg for arg in call.args if arg.star or (arg.keyword and arg.keyword.value not in known)]
    if odd:
        first = odd[0]
        shown = first.keyword.value if first.keyword else f"{first.star}{file.code(first.value)}"
        return Decline(f"`{shown}` means something else (or nothing) to httpx", applicable=False)
    handlers = [
        node
        for node in file.nodes_of(cst.ExceptHandler)
        if isinstance(node, cst.ExceptHandler)
        and node.type is not None
        and file.enclosing_function(node) is site.function
        and "requests" in names_read(file, [node.type])
    ]
    if handlers:
        return Decline(
            f"`{site.function.name.value}` catches `requests`' exceptions, which httpx does not raise", applicable=False
        )
    if file.in_generator_expression(call, site.function):
        return Decline("the call is inside a generator expression (an `await` there would make it async)")
    unlike = _response_use(file, call, site.function, verb)
    if unlike:
        return Decline(unlike, applicable=False)
    httpx = reference(file, "httpx")
    if isinstance(httpx, Decline):
        return httpx
    made = f"{httpx.code}.AsyncClient(follow_redirects=True)"
    client = module_level_name_of(file, made)
    imports = httpx.imports
    statements: tuple[ModuleStatement, ...] = ()
    if client is None:
        comment = "One async HTTP client for every request, built on first use (follows redirects, as requests does but"
        getter = cached_getter(file, made, SHARED_HTTP, comment + " for HEAD).")
        if isinstance(getter, Decline):
            return getter
        client, imports, statements = f"{getter.name}()", imports + getter.imports, getter.statements
    args = [
        arg.with_changes(keyword=cst.Name(HTTPX_KEYWORDS[arg.keyword.value]))
        if arg.keyword and arg.keyword.value in HTTPX_KEYWORDS
        else arg
        for arg in call.args
    ]
    says_redirects = any(arg.keyword and arg.keyword.value in HTTPX_KEYWORDS for arg in call.args)
    if verb in REQUESTS_NO_REDIRECTS and not says_redirects:
        if args:
            args[-1] = args[-1].with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
        args.append(cst.Arg(cst.Name("False"), keyword=cst.Name("follow_redirects"), equal=_EQUAL))
    new_call = call.with_changes(func=cst.parse_expression(f"{client}.{verb}"), args=args)
    return Fix(
        path=file.path,
        edits=(Edit(call, awaited(file, call, new_call)),),
        recipe="async-client",
        safe=False,
        title=f"sent `{target}` through the shared `httpx.AsyncClient` `{client}` and awaited it",
        imports=imports,
        unused_imports=import_binding(file, (dotted(call.func) or "").split(".")[0]),
        statements=statements,
        claims=(finding,),
        note=f"errors are now httpx's (`httpx.HTTPError`), not requests'; {ONE_LOOP}",
    )


_EQUAL = cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace(""))


def _response_use(file: ParsedFile, call: cst.Call, function: cst.FunctionDef, verb: str) -> str:
    """Why the response of ``call`` may be used in a way an ``httpx.Response`` does not support
    ("" when every use is one of :data:`~asynclint.knowledge.clients.RESPONSE_ALIKE`): read on
    the spot, or through the one local it is assigned to."""
    alike = RESPONSE_ALIKE | ({"raise_for_status"} if verb not in REQUESTS_NO_REDIRECTS else set())
    parent = file.parent(call)
    if isinstance(parent, cst.Expr):
        return ""  # the response is dropped
    if isinstance(parent, cst.Attribute) and parent.value is call:
        attribute = parent.attr.value
        if attribute in alike:
            return ""
        return f"`.{attribute}` of the response means something else (or nothing) to httpx"
    if not (
        isinstance(parent, cst.Assign)
        and len(parent.targets) == 1
        and isinstance(stored := parent.targets[0].target, cst.Name)
    ):
        return "the response is handed on: whoever gets it may use what an `httpx.Response` lacks (`ok`, `reason`)"
    name = stored.value
    for node in file.nodes_of(cst.Name):
        if not (
            isinstance(node, cst.Name)
            and node.value == name
            and file.context(node) is ExpressionContext.LOAD
            and any(ancestor is function for ancestor in file.ancestors(node))
        ):
            continue
        use = file.parent(node)
        if not (isinstance(use, cst.Attribute) and use.value is node):
            return f"the response `{name}` is handed on: whoever gets it may use what an `httpx.Response` lacks"
        if use.attr.value not in alike:
            return f"`{name}.{use.attr.value}` means something else (or nothing) to an `httpx.Response`"
    return ""


def _resolve(file: ParsedFile, func: cst.BaseExpression) -> str | None:
    """The qualified name ``func`` refers to where it is written, when an import binds it."""
    name = dotted(func)
    if name is None:
        return None
    head, _, rest = name.partition(".")
    imported = binding(file, head, func).target
    return (f"{imported}.{rest}" if rest else imported) if imported else None


def _async_constructor(
    file: ParsedFile, construction: cst.Call, client_type: str, async_class: str
) -> tuple[cst.BaseExpression, tuple[Import, ...], tuple[Import, ...]] | Decline:
    """The async class to call instead of ``client_type`` where ``construction`` is, the imports
    that needs, and the import the sync class may no longer need: ``openai.OpenAI(...)`` keeps
    its module (``openai.AsyncOpenAI``), ``redis.Redis(...)`` names the twin's module as the file
    refers to it (``redis.asyncio.Redis``); ``OpenAI(...)`` uses ``AsyncOpenAI`` as imported (or
    imports it)."""
    module, new_name = async_class.rpartition(".")[::2]
    if isinstance(construction.func, cst.Attribute):
        if module == client_type.rpartition(".")[0]:
            return construction.func.with_changes(attr=cst.Name(new_name)), (), ()
        twin_module = reference(file, module, at=(construction,))
        if isinstance(twin_module, Decline):
            return twin_module
        return cst.parse_expression(f"{twin_module.code}.{new_name}"), twin_module.imports, ()
    found = reference(file, module, new_name, at=(construction,))
    if isinstance(found, Decline):
        return found
    old = construction.func.value if isinstance(construction.func, cst.Name) else ""
    unused = import_binding(file, old) if old else ()
    return cst.parse_expression(found.code), found.imports, unused


def _constructed(file: ParsedFile, construction: cst.Call, new_func: cst.BaseExpression, client_type: str) -> Edit:
    """The edit calling ``new_func`` instead; in an annotated assignment (``client: OpenAI =
    OpenAI()``) the annotation follows, wherever it names the sync class (``OpenAI | None``,
    ``Optional["OpenAI"]``), so it does not claim a type the value no longer has."""
    swapped = construction.with_changes(func=new_func)
    assignment = file.parent(construction)
    if not isinstance(assignment, cst.AnnAssign) or assignment.value is not construction:
        return Edit(construction, swapped)
    old_spelling = file.code(construction.func)
    new_spelling = file.code(new_func)

    class Follow(cst.CSTTransformer):
        def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.BaseExpression:
            return new_func if _resolve(file, original) == client_type else updated

        def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
            return new_func if _resolve(file, original) == client_type else updated

        def leave_SimpleString(self, original: cst.SimpleString, updated: cst.SimpleString) -> cst.SimpleString:
            if original.evaluated_value == old_spelling:
                quote = original.prefix + original.quote
                return updated.with_changes(value=f"{quote}{new_spelling}{original.quote}")
            return updated

    annotation = assignment.annotation.with_changes(annotation=assignment.annotation.annotation.visit(Follow()))
    return Edit(assignment, assignment.with_changes(annotation=annotation, value=swapped))


def _in_scope(file: ParsedFile, node: cst.CSTNode, scope: cst.CSTNode) -> bool:
    return scope is file.module or any(ancestor is scope for ancestor in file.ancestors(node))


def _constructions(file: ParsedFile, scope: cst.CSTNode, holder: str) -> list[cst.Call | None]:
    """Every value assigned to ``holder`` in ``scope`` (non-calls included, as ``None``)."""
    found: list[cst.BaseExpression | None] = []
    for node in file.nodes_of(cst.Assign, cst.AnnAssign, cst.AugAssign):
        if isinstance(node, cst.Assign) and _in_scope(file, node, scope):
            if any(dotted(t.target) == holder for t in node.targets):
                found.append(node.value)
        elif (
            isinstance(node, cst.AnnAssign | cst.AugAssign)
            and dotted(node.target) == holder
            and _in_scope(file, node, scope)
        ):
            found.append(node.value)
    return [value if isinstance(value, cst.Call) else None for value in found]


def _uses(file: ParsedFile, scope: cst.CSTNode, holder: str, construction: cst.Call) -> list[cst.Call] | Decline:
    """The calls made through the client; declines on any other kind of use."""
    calls: list[cst.Call] = []
    for node in file.nodes_of(cst.Attribute, cst.Name):
        if not (isinstance(node, cst.Attribute | cst.Name) and dotted(node) == holder and _in_scope(file, node, scope)):
            continue
        parent = file.parent(node)
        if isinstance(parent, cst.AssignTarget) or (isinstance(parent, cst.AnnAssign) and parent.target is node):
            continue  # the construction itself
        chain: cst.CSTNode = node  # up to the longest attribute chain on the client, which must be called
        while isinstance(above := file.parent(chain), cst.Attribute):
            chain = above
        call = file.parent(chain)
        function = file.enclosing_function(node)
        where = f"`{function.name.value}`" if isinstance(function, cst.FunctionDef) else "module level"
        if not isinstance(call, cst.Call) or call.func is not chain:
            return Decline(f"`{holder}` is used without being called in {where}")
        if not isinstance(function, cst.FunctionDef) or not is_async(function):
            return Decline(f"`{holder}` is called in {where}, which is not `async def`")
        if isinstance(file.parent(call), cst.Await):
            continue
        if file.in_generator_expression(call, function):
            return Decline(f"`{holder}` is called inside a generator expression in {where}")
        if any(arg.keyword and arg.keyword.value == "stream" for arg in call.args) or _called(call).endswith(".stream"):
            return Decline(f"`{holder}` streams in {where}: async streams are iterated differently")
        if isinstance(file.parent(call), cst.WithItem | cst.Attribute | cst.Subscript) and not isinstance(
            file.parent(call), cst.Attribute
        ):
            return Decline(f"`{holder}`'s call in {where} is used as a context manager")
        calls.append(call)
    for outer in calls:
        if any(inner is not outer and any(a is outer for a in file.ancestors(inner)) for inner in calls):
            return Decline(f"calls through `{holder}` are nested in one another")
    return calls


def _called(use: cst.Call) -> str:
    """The dotted name a use of the client calls (``client.chat.completions.create``)."""
    called = dotted(use.func)
    assert called is not None  # `_uses` keeps only calls of an attribute chain on the holder
    return called


def _async_function(file: ParsedFile, use: cst.Call) -> cst.FunctionDef:
    function = file.enclosing_function(use)
    assert isinstance(function, cst.FunctionDef)  # `_uses` keeps only calls written in `async def`
    return function


def _used_elsewhere(project: FixProject, file: ParsedFile, name: str) -> bool:
    word = re.compile(rf"\b{re.escape(name)}\b")
    return any(word.search(text) for path, text in project.texts.items() if path != file.path)


def fix_handoff(finding: Finding, project: FixProject) -> Fix | Decline:
    """A sync client handed to the framework (``JudgeRubric(judge_client=OpenAI())``), which
    calls it on the loop and awaits what it returns when that is awaitable: hand it the async
    client instead. The constructor is switched where it is written -- in the argument, or in the
    one assignment of the local variable passed, provided nothing else uses that variable."""
    client_type = finding.fix.target if finding.fix else ""
    if client_type not in ASYNC_CLIENTS:
        return Decline(f"no async counterpart known for `{client_type}`")
    # The finding sits where the project makes the framework call the client; the fix is where
    # it was handed over (``facts.handed_at``, in the keyword ``facts.handed_to`` names).
    path, line, _ = split_place(finding.facts.handed_at)
    slot = finding.facts.handed_to.rpartition(".")[2]
    if path not in project.texts:
        return Decline(f"{path or 'the hand-over'} is not among the files being fixed")
    file = project.file(path)
    value = next(
        (
            node.value
            for node, where in file.positions.items()
            if isinstance(node, cst.Arg)
            and node.keyword is not None
            and node.keyword.value == slot
            and file.positions[node.value].start.line == line
        ),
        None,
    )
    construction: cst.CSTNode | None = value if isinstance(value, cst.Call) else None
    if isinstance(value, cst.Name):
        function = file.enclosing_function(value)
        scope = function if function is not None else file.module
        uses = [
            node
            for node in file.nodes_of(cst.Name)
            if isinstance(node, cst.Name)
            and node.value == value.value
            and node is not value
            and file.enclosing_function(node) is function
            and _in_scope(file, node, scope)
        ]
        stores = [target for node in uses if isinstance(target := file.parent(node), cst.AssignTarget)]
        if len(stores) != 1 or len(uses) != 1:
            return Decline(f"`{value.value}` is used elsewhere too; only a client made for the framework can change")
        assign = file.parent(stores[0])
        construction = assign.value if isinstance(assign, cst.Assign) and len(assign.targets) == 1 else None
    if not isinstance(construction, cst.Call) or _resolve(file, construction.func) != client_type:
        return Decline(f"the client is not built here by calling `{client_type}`")
    new_name, old_name = ASYNC_CLIENTS[client_type], client_type.rpartition(".")[2]
    swapped = _async_constructor(file, construction, client_type, f"{client_type.rpartition('.')[0]}.{new_name}")
    if isinstance(swapped, Decline):
        return swapped
    new_func, imports, unused = swapped
    return Fix(
        path=file.path,
        edits=(_constructed(file, construction, new_func, client_type),),
        recipe="handoff-client",
        safe=False,
        title=f"handed the framework `{new_name}` instead of `{old_name}` (it awaits the client's calls)",
        imports=imports,
        unused_imports=unused,
        claims=(finding,),
        note="the framework must await the client's calls (verifiers does: it awaits whatever is awaitable)",
    )
