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

import libcst as cst

from asynclint.fixers.analysis import FixProject, ParsedFile, awaited, dotted, import_binding, is_async, names_read
from asynclint.fixers.base import Decline, Edit, Fix, Import, ModuleStatement
from asynclint.model import Finding

#: Sync client class -> the async class in the same module.
ASYNC_CLIENTS: dict[str, str] = {
    "openai.OpenAI": "AsyncOpenAI",
    "openai.AzureOpenAI": "AsyncAzureOpenAI",
    "anthropic.Anthropic": "AsyncAnthropic",
    "httpx.Client": "AsyncClient",
    "groq.Groq": "AsyncGroq",
    "together.Together": "AsyncTogether",
    "cohere.Client": "AsyncClient",
    "cohere.ClientV2": "AsyncClientV2",
    "huggingface_hub.InferenceClient": "AsyncInferenceClient",
}


def fix(finding: Finding, project: FixProject) -> Fix | Decline:
    target = finding.fix.target if finding.fix else ""
    if target in REQUESTS_FUNCTIONS:
        return _requests_function(finding, project, target)
    client_type = next((name for name in ASYNC_CLIENTS if target.startswith(name + ".")), None)
    if client_type is None:
        return Decline(f"no async counterpart known for `{target}`", applicable=False)
    site = project.site(finding)
    if isinstance(site, Decline):
        return site
    if site.placement != "direct":
        return Decline("the call is not written in `async def`", applicable=False)
    file, call = site.file, site.call
    callee = dotted(call.func) or ""
    holder = re.match(r"(self\.\w+|\w+)\.", callee)
    if holder is None:
        return Decline("the client is not kept on `self` or in a module-level name", applicable=False)
    holder_name = holder.group(1)
    scope = file.enclosing_class(site.function) if holder_name.startswith("self.") else file.module
    if scope is None:
        return Decline("`self` outside a class", applicable=False)
    if not (holder_name in file.module_level_names() or holder_name.startswith("self.")):
        return Decline(f"`{holder_name}` is a local or a parameter: the client comes from elsewhere", applicable=False)
    if not holder_name.startswith("self.") and _used_elsewhere(project, file, holder_name):
        return Decline(f"`{holder_name}` is used in other modules too")
    built = _constructions(file, scope, holder_name)
    if len(built) != 1:
        return Decline(f"`{holder_name}` is assigned in {len(built)} places")
    construction = built[0]
    if _resolve(file, construction.func) != client_type:
        return Decline(f"`{holder_name}` is not built by calling `{client_type}` directly")
    uses = _uses(file, scope, holder_name, construction)
    if isinstance(uses, Decline):
        return uses
    if call not in uses:  # the finding's own call must be among those awaited, or nothing is fixed
        return Decline(f"cannot find the finding's call among the uses of `{holder_name}`")
    new_name = ASYNC_CLIENTS[client_type]
    module = client_type.rpartition(".")[0]
    if isinstance(construction.func, cst.Name):
        new_func: cst.BaseExpression = cst.Name(new_name)
        imports = (Import(module, new_name),)
        unused = (Import(module, construction.func.value),)
    else:
        new_func = construction.func.with_changes(attr=cst.Name(new_name))
        imports = unused = ()
    edits = [Edit(construction, construction.with_changes(func=new_func))]
    edits += [Edit(use, awaited(file, use, use)) for use in uses]
    methods = sorted({file.enclosing_function(use).name.value for use in uses})
    return Fix(
        path=file.path,
        edits=tuple(edits),
        recipe="async-client",
        safe=False,
        title=(
            f"switched `{holder_name}` to `{new_name}` and awaited its {len(uses)} "
            f"call{'s' if len(uses) != 1 else ''} (in {', '.join(f'`{m}`' for m in methods)})"
        ),
        imports=imports,
        unused_imports=unused,
        claims=(finding,),
        note=f"code outside {'the class' if holder_name.startswith('self.') else 'this module'} that uses "
        f"`{holder_name}` is not updated",
    )


#: ``requests.<verb>(url, ...)`` -> ``await <shared httpx.AsyncClient>.<verb>(url, ...)``: the
#: keyword arguments both libraries read the same way (``requests`` follows redirects, so the
#: shared client is made to as well). Anything else -- ``stream=``, ``files=``, ``allow_redirects=``,
#: ``verify=``, ``proxies=`` -- is spelled or behaves differently, and the fix declines.
REQUESTS_FUNCTIONS = frozenset(f"requests.{verb}" for verb in "get post put patch delete head options".split())
_SAME_KEYWORDS = frozenset({"params", "headers", "json", "data", "timeout", "cookies", "auth"})
SHARED_HTTP = "_HTTP_CLIENT"


def _requests_function(finding: Finding, project: FixProject, target: str) -> Fix | Decline:
    """``requests.get(...)`` in ``async def`` -> ``await _HTTP_CLIENT.get(...)`` on one module-level
    ``httpx.AsyncClient``. Unsafe: exceptions become httpx's (code catching ``requests``'
    exceptions is declined, but callers further up may catch them too), and the shared client
    belongs to the first event loop that uses it."""
    site = project.site(finding)
    if isinstance(site, Decline):
        return site
    if site.placement != "direct":
        return Decline("the call is not written in `async def`", applicable=False)
    file, call = site.file, site.call
    odd = [arg for arg in call.args if arg.star or (arg.keyword and arg.keyword.value not in _SAME_KEYWORDS)]
    if odd:
        first = odd[0]
        shown = first.keyword.value if first.keyword else f"{first.star}{file.code(first.value)}"
        return Decline(f"`{shown}` means something else (or nothing) to httpx", applicable=False)
    handlers = [
        node
        for node in file.positions
        if isinstance(node, cst.ExceptHandler)
        and node.type is not None
        and file.enclosing_function(node) is site.function
        and "requests" in names_read(file, [node.type])
    ]
    if handlers:
        return Decline(
            f"`{site.function.name.value}` catches `requests`' exceptions, which httpx does not raise", applicable=False
        )
    client = _shared_http_client(file)
    verb = target.rpartition(".")[2]
    new_call = call.with_changes(func=cst.parse_expression(f"{client}.{verb}"))
    statements = (
        ()
        if client != SHARED_HTTP or SHARED_HTTP in file.module_level_names()
        else (
            ModuleStatement(
                SHARED_HTTP,
                f"{SHARED_HTTP} = httpx.AsyncClient(follow_redirects=True)",
                "One async HTTP client for every request (follows redirects, as requests did).",
            ),
        )
    )
    return Fix(
        path=file.path,
        edits=(Edit(call, awaited(file, call, new_call)),),
        recipe="async-client",
        safe=False,
        title=f"sent `{target}` through the shared `httpx.AsyncClient` `{client}` and awaited it",
        imports=(Import("httpx"),),
        unused_imports=import_binding(file, (dotted(call.func) or "").split(".")[0]),
        statements=statements,
        claims=(finding,),
        note="errors are now httpx's (`httpx.HTTPError`), not requests'",
    )


def _shared_http_client(file: ParsedFile) -> str:
    """A module-level client made exactly as this fix makes it (an earlier round's) to reuse --
    not any ``AsyncClient``, whose base URL, headers or auth would apply -- else a new name."""
    for statement in file.module.body:
        if isinstance(statement, cst.SimpleStatementLine) and isinstance(statement.body[0], cst.Assign):
            assign = statement.body[0]
            if (
                len(assign.targets) == 1
                and isinstance(assign.targets[0].target, cst.Name)
                and file.code(assign.value) == "httpx.AsyncClient(follow_redirects=True)"
            ):
                return assign.targets[0].target.value
    return SHARED_HTTP if SHARED_HTTP not in file.module_level_names() else file.fresh_name(SHARED_HTTP)


def _resolve(file: ParsedFile, func: cst.BaseExpression) -> str | None:
    name = dotted(func)
    if name is None:
        return None
    head, _, rest = name.partition(".")
    imported = file.imported_modules().get(head)
    return (f"{imported}.{rest}" if rest else imported) if imported else None


def _in_scope(file: ParsedFile, node: cst.CSTNode, scope: cst.CSTNode) -> bool:
    return scope is file.module or any(ancestor is scope for ancestor in file.ancestors(node))


def _constructions(file: ParsedFile, scope: cst.CSTNode, holder: str) -> list[cst.Call]:
    """Every value assigned to ``holder`` in ``scope`` (non-calls included, as ``None``)."""
    found = []
    for node in file.positions:
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
    for node in file.positions:
        if not (isinstance(node, cst.Attribute | cst.Name) and dotted(node) == holder and _in_scope(file, node, scope)):
            continue
        parent = file.parent(node)
        if isinstance(parent, cst.AssignTarget) or (isinstance(parent, cst.AnnAssign) and parent.target is node):
            continue  # the construction itself
        chain = node  # up to the longest attribute chain on the client, which must be called
        while isinstance(file.parent(chain), cst.Attribute):
            chain = file.parent(chain)
        call = file.parent(chain)
        function = file.enclosing_function(node)
        where = f"`{function.name.value}`" if isinstance(function, cst.FunctionDef) else "module level"
        if not isinstance(call, cst.Call) or call.func is not chain:
            return Decline(f"`{holder}` is used without being called in {where}")
        if not isinstance(function, cst.FunctionDef) or not is_async(function):
            return Decline(f"`{holder}` is called in {where}, which is not `async def`")
        if isinstance(file.parent(call), cst.Await):
            continue
        if any(arg.keyword and arg.keyword.value == "stream" for arg in call.args) or dotted(call.func).endswith(
            ".stream"
        ):
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
    if finding.path not in project.texts:
        return Decline(f"{finding.path} is not among the files being fixed")
    file = project.file(finding.path)
    value = file.expression_at(finding.line, finding.column, finding.end_line, finding.end_column)
    construction: cst.CSTNode | None = value if isinstance(value, cst.Call) else None
    if isinstance(value, cst.Name):
        function = file.enclosing_function(value)
        scope = function if function is not None else file.module
        uses = [
            node
            for node in file.positions
            if isinstance(node, cst.Name)
            and node.value == value.value
            and node is not value
            and file.enclosing_function(node) is function
            and _in_scope(file, node, scope)
        ]
        stores = [node for node in uses if isinstance(file.parent(node), cst.AssignTarget)]
        if len(stores) != 1 or len(uses) != 1:
            return Decline(f"`{value.value}` is used elsewhere too; only a client made for the framework can change")
        assign = file.parent(file.parent(stores[0]))
        construction = assign.value if isinstance(assign, cst.Assign) and len(assign.targets) == 1 else None
    if not isinstance(construction, cst.Call) or _resolve(file, construction.func) != client_type:
        return Decline(f"the client is not built here by calling `{client_type}`")
    new_name, old_name = ASYNC_CLIENTS[client_type], client_type.rpartition(".")[2]
    module = client_type.rpartition(".")[0]
    if isinstance(construction.func, cst.Name):
        new_func: cst.BaseExpression = cst.Name(new_name)
        imports, unused = (Import(module, new_name),), (Import(module, construction.func.value),)
    else:
        new_func, imports, unused = construction.func.with_changes(attr=cst.Name(new_name)), (), ()
    return Fix(
        path=file.path,
        edits=(Edit(construction, construction.with_changes(func=new_func)),),
        recipe="handoff-client",
        safe=False,
        title=f"handed the framework `{new_name}` instead of `{old_name}` (it awaits the client's calls)",
        imports=imports,
        unused_imports=unused,
        claims=(finding,),
        note="the framework must await the client's calls (verifiers does: it awaits whatever is awaitable)",
    )


FIXERS = {"async-client": fix, "handoff-client": fix_handoff}
