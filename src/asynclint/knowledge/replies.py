"""What a request says about the size of the reply it asks for: the parameters of a web API that cap a
page of results at a count, the parameters that select which fields each result carries, and the
fields and endpoints that hand back a document's whole body. A reply's ``json()`` (or ``text``) is of
unknown size by default (:data:`asynclint.knowledge.costs.RESPONSE_BODY`); a request that asks for one
small page is one small item (:data:`~asynclint.knowledge.costs.RESPONSE_PAGE`), one that asks for a
document's body is as large as the document (:data:`~asynclint.knowledge.costs.RESPONSE_DOCUMENT`).

Sources, read from each API's reference:
- MediaWiki Action API (api.php ``list=search``, ``prop=revisions``): ``srlimit`` caps the search hits,
  ``srprop`` selects what each hit carries besides its title (``""``: titles only); ``rvlimit`` caps the
  revisions, ``rvprop`` selects their fields and only ``content`` carries the page's wikitext (the
  default ``ids|timestamp|flags|comment|user`` does not); ``prop=extracts`` is a page's text.
- GitHub REST API: ``per_page`` (at most 100) pages every listing; ``/repos/{o}/{r}/contents/{path}``
  and ``raw.githubusercontent.com`` hand back a file's content.
- arXiv API ``max_results``; Solr ``rows`` and ``fl`` (the field list); Stack Exchange ``pagesize``;
  Elasticsearch ``_source``; Google Books / YouTube
  ``maxResults`` and ``fields``; Tavily/Exa/Brave-style search APIs ``max_results``/``count``/
  ``num_results``; vector stores ``top_k``/``limit``.
"""

from __future__ import annotations

#: Request parameters that cap how many results one reply carries. Bound to a small count (at most
#: :data:`PAGE_COUNT`), the reply is one page of results: small, whatever each result is, unless a
#: field selector asks for a body (:data:`BODY_FIELDS`).
PAGE_LIMITS: frozenset[str] = frozenset(
    {
        "limit",
        "srlimit",
        "rvlimit",
        "per_page",
        "page_size",
        "pagesize",
        "max_results",
        "maxResults",
        "num_results",
        "rows",
        "top_k",
        "count",
    }
)
#: The most results a capped page may hold and still be one small reply (GitHub's ``per_page`` tops out
#: at 100; a search listing of 100 hits' titles and ids is a few KB).
PAGE_COUNT = 100
#: Request parameters that select which fields each result carries (MediaWiki's ``*prop``, Solr's ``fl``,
#: Elasticsearch's ``_source``, Google's ``fields``): a selection naming none of :data:`BODY_FIELDS`
#: (or nothing: ``srprop=""``, titles only) keeps each result small.
FIELD_SELECTORS: frozenset[str] = frozenset(
    {"prop", "srprop", "rvprop", "rvslots", "fields", "fl", "_source", "select", "include"}
)
#: Fields that carry a document's body: a selector naming one asks for whole documents.
BODY_FIELDS: frozenset[str] = frozenset({"content", "contents", "body", "text", "html", "wikitext", "extracts"})
#: Separators between the fields a selector lists (``"ids|timestamp|content"``, ``"id,title"``).
FIELD_SEPARATORS = "|, "
#: Pieces of a request's URL that name an endpoint handing back a file's or page's whole content.
BODY_ENDPOINTS: tuple[str, ...] = ("raw.githubusercontent.com", "/raw/", "/contents/", "/wiki/Special:Export")
#: Keywords of an HTTP client's request call that carry its parameters (query string or body).
REQUEST_PARAMETERS: frozenset[str] = frozenset({"params", "json", "data"})
