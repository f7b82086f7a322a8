"""LangChain: chat models, LLMs, chains, retrievers, vector stores and embeddings called through
their sync methods.

Every LangChain component is a ``Runnable`` (or an ``Embeddings``/``VectorStore``) whose public
sync methods wait in the calling thread: a chat model's ``invoke`` is an HTTP request to the
provider (``ChatOpenAI`` holds a sync ``openai.OpenAI`` beside its async one), a retriever's
``invoke`` embeds the query and searches the store, ``embed_query`` is a request to the
embeddings API. Each has an ``a``-prefixed twin with the same parameters (read side by side in
langchain-core 1.8.4: ``invoke``/``ainvoke``, ``batch``/``abatch``, ``stream``/``astream``,
``similarity_search``/``asimilarity_search``, ``embed_query``/``aembed_query``...; in 0.3.86 also
the deprecated ``predict``/``apredict``, ``get_relevant_documents``/``aget_relevant_documents``,
and a chain's ``run``/``arun``). The default twin of a component without a native async
implementation runs the sync method in an executor, so the twin never blocks the loop.
``astream`` is an async generator (iterated with ``async for``, not awaited).

Receivers are typed by their interface, the way the library's own annotations name them: a
``ChatOpenAI(...)``, an ``init_chat_model(...)`` or an annotated ``llm: BaseChatModel`` are all a
``langchain_core.language_models.BaseChatModel`` (the concrete class is an alias of it), and what
``bind_tools``/``with_structured_output`` make of one still calls the model. A pipe with a model
or a chain on either side (``prompt | llm | parser``: a ``RunnableSequence``) and an annotated
``Runnable`` (``chain: Runnable``) are a ``Runnable`` that calls a model; a pipe of a prompt and a
parser alone calls nothing and is not typed. A project's own subclass of an interface
(``class MyLLM(BaseChatModel)``) is typed as it (``SUBCLASSED``): the sync methods it does not
define are the library's, which run its ``_generate`` in the calling thread. Calling a chain
(the deprecated ``chain(inputs)``, ``Chain.__call__``) is its ``invoke``. Not matched: a pipe
of two attributes of ``self`` is typed by the right one only (``self.llm | self.parser`` is not
one), and a pipe of two names imported from other modules is not typed.
"""

from __future__ import annotations

from asynclint.knowledge.api import BlockingApi, entry

_CORE = "source: pkg langchain-core 1.8.4"
_CORE_03 = "source: pkg langchain-core 0.3.86"
_CLASSIC = (
    "source: pkg langchain-classic 1.0.8 langchain_classic/chains/base.py; "
    "pkg langchain 0.3.30 langchain/chains/base.py"
)

CHAT = "langchain_core.language_models.BaseChatModel"
LLM = "langchain_core.language_models.BaseLLM"
CHAIN = "langchain_classic.chains.base.Chain"  # langchain < 1.0: langchain.chains.base.Chain
RETRIEVER = "langchain_core.retrievers.BaseRetriever"
STORE = "langchain_core.vectorstores.VectorStore"
EMBEDDINGS = "langchain_core.embeddings.Embeddings"
#: What a pipe of components is (``prompt | llm``: a ``RunnableSequence``), and what an annotated
#: ``Runnable`` is taken to be: a chain that calls a model, what environments build and pass one for.
RUNNABLE = "langchain_core.runnables.Runnable"


def _twin_phrase(method: str) -> str:
    """How a finding names the twin of ``method`` (follows "use")."""
    if method == "stream":
        return "`async for chunk in ….astream(...)`"
    if method == "__call__":
        return "`await ….ainvoke(...)`"
    return f"`await ….a{method}(...)`"


#: Interface -> (category, cost, {method: source}).
_RUNNABLE = {
    m: f"{_CORE} langchain_core/runnables/base.py (Runnable.{m} / a{m})" for m in ("invoke", "batch", "stream")
}
_MODEL = {
    **_RUNNABLE,
    **{
        m: f"{_CORE} langchain_core/language_models/chat_models.py, llms.py ({m} / a{m})"
        for m in ("generate", "generate_prompt")
    },
    **{
        m: f"{_CORE_03} langchain_core/language_models/chat_models.py, llms.py ({m} / a{m}; deprecated, removed in 1.0)"
        for m in ("predict", "predict_messages")
    },
}
_INTERFACES: dict[str, tuple[str, str, dict[str, str]]] = {
    CHAT: ("llm", "network", _MODEL),
    LLM: ("llm", "network", _MODEL),
    CHAIN: (
        "llm",
        "network",
        {
            **_RUNNABLE,
            "run": f"{_CLASSIC} (run / arun: deprecated)",
            "__call__": f"{_CLASSIC} (__call__ -> invoke / acall -> ainvoke: deprecated)",
        },
    ),
    RUNNABLE: ("llm", "network", _RUNNABLE),
    RETRIEVER: (
        "sdk",
        "network",
        {
            **_RUNNABLE,
            "get_relevant_documents": f"{_CORE_03} langchain_core/retrievers.py (get_relevant_documents / "
            "aget_relevant_documents: deprecated, removed in 1.0)",
        },
    ),
    STORE: (
        "sdk",
        "network",
        {
            m: f"{_CORE} langchain_core/vectorstores/base.py ({m} / a{m}: embeds the query or texts, then the store)"
            for m in (
                "similarity_search similarity_search_with_score similarity_search_with_relevance_scores "
                "similarity_search_by_vector max_marginal_relevance_search max_marginal_relevance_search_by_vector "
                "search add_texts add_documents delete get_by_ids from_texts from_documents"
            ).split()
        },
    ),
    EMBEDDINGS: (
        "llm",
        "network",
        {
            m: f"{_CORE} langchain_core/embeddings/embeddings.py; pkg langchain-openai 1.7.4 "
            f"langchain_openai/embeddings/base.py ({m} / a{m})"
            for m in ("embed_documents", "embed_query")
        },
    ),
}

#: Concrete classes -> the interface their instances are typed as (an alias: the class's own
#: methods, ``FAISS.from_texts``, are the interface's).
_CLASSES: dict[str, str] = {
    **{f"langchain_openai.{cls}": CHAT for cls in ("ChatOpenAI", "AzureChatOpenAI")},
    **{f"langchain_openai.{cls}": LLM for cls in ("OpenAI", "AzureOpenAI")},
    **{f"langchain_openai.{cls}": EMBEDDINGS for cls in ("OpenAIEmbeddings", "AzureOpenAIEmbeddings")},
    "langchain_anthropic.ChatAnthropic": CHAT,
    "langchain_anthropic.AnthropicLLM": LLM,
    **{f"langchain_community.chat_models.{cls}": CHAT for cls in ("ChatOpenAI", "ChatAnthropic")},
    **{f"langchain_community.vectorstores.{cls}": STORE for cls in ("FAISS", "InMemoryVectorStore")},
    "langchain_core.vectorstores.InMemoryVectorStore": STORE,
    **{
        f"{chains}.{cls}": CHAIN
        for chains in ("langchain.chains", "langchain_classic.chains")
        for cls in ("LLMChain", "RetrievalQA", "ConversationalRetrievalChain")
    },
}
#: Chroma's store is named as itself, not aliased to the interface: its constructor opens a client
#: (``_LOADS``); what it and its builders make is a store.
_CHROMA_STORES = ("langchain_chroma.Chroma", "langchain_community.vectorstores.Chroma")
#: Factories and builders: what calling them gives.
_FACTORIES: dict[str, str] = {
    **{f"{chroma}{made}()": STORE for chroma in _CHROMA_STORES for made in ("", ".from_texts", ".from_documents")},
    "langchain.chat_models.init_chat_model()": CHAT,
    "langchain.embeddings.init_embeddings()": EMBEDDINGS,
    **{f"{CHAT}.{m}()": CHAT for m in ("bind_tools", "with_structured_output", "bind", "with_retry", "with_config")},
    **{f"{LLM}.{m}()": LLM for m in ("bind", "with_retry", "with_config")},
    f"{STORE}.as_retriever()": RETRIEVER,
    **{f"{STORE}.{m}()": STORE for m in ("from_texts", "from_documents", "load_local")},
    **{f"{CHAIN}.{m}()": CHAIN for m in ("from_chain_type", "from_llm")},
    **{f"{RUNNABLE}.{m}()": RUNNABLE for m in ("bind", "with_retry", "with_config", "with_fallbacks", "pipe")},
    **{f"{model}.pipe()": RUNNABLE for model in (CHAT, LLM, CHAIN)},
}
#: ``a | b`` with a model, a chain or a pipe holding one on either side is a ``RunnableSequence``
#: that calls it (langchain-core 1.8.4 runnables/base.py: Runnable.__or__ / __ror__ ->
#: RunnableSequence). A pipe of a prompt and a parser alone calls nothing and is not typed.
_PIPES: dict[str, str] = {
    f"{component}.{side}()": RUNNABLE for component in (CHAT, LLM, CHAIN, RUNNABLE) for side in ("__or__", "__ror__")
}
#: Where the interfaces are defined (annotations written with the full path).
_DEFINED = {
    "langchain_core.language_models.chat_models.BaseChatModel": CHAT,
    "langchain_core.language_models.llms.BaseLLM": LLM,
    "langchain_core.language_models.LLM": LLM,
    "langchain_core.language_models.llms.LLM": LLM,
    "langchain_core.retrievers.BaseRetriever": RETRIEVER,
    "langchain_core.vectorstores.base.VectorStore": STORE,
    "langchain_core.vectorstores.base.VectorStoreRetriever": RETRIEVER,
    "langchain_core.vectorstores.VectorStoreRetriever": RETRIEVER,
    "langchain_core.embeddings.embeddings.Embeddings": EMBEDDINGS,
    "langchain.chains.base.Chain": CHAIN,
    **{
        f"langchain_core.runnables{module}.{cls}": RUNNABLE
        for module in ("", ".base")
        for cls in ("Runnable", "RunnableSequence", "RunnableSerializable")
    },
}

_INTERFACE_CALLS: tuple[BlockingApi, ...] = tuple(
    # ``stream`` is a generator function: the work happens as it is iterated, so handing the
    # call to a thread would move nothing off the loop.
    entry(
        f"{interface}.{method}",
        category,
        cost,
        None if method == "stream" else "to-thread",
        frozenset(),
        source,
        _twin_phrase(method),
    )
    for interface, (category, cost, methods) in _INTERFACES.items()
    for method, source in methods.items()
)

_COMMUNITY = "source: pkg langchain-community 0.4.2"
_CHROMA = (
    "source: pkg langchain-chroma 1.1.0 langchain_chroma/vectorstores.py (Chroma.__init__: chromadb.PersistentClient "
    "for persist_directory=, HttpClient for host=, CloudClient, else chromadb.Client; then get_or_create_collection)"
)
#: Vector-store loads and builds that are no interface method (no ``a``-prefixed twin): reading a
#: saved FAISS store, and a Chroma store's constructor, which opens its client and collection.
_LOADS: tuple[BlockingApi, ...] = (
    entry(
        f"{STORE}.load_local",
        "fs",
        "disk-content",
        "to-thread",
        source=f"{_COMMUNITY} langchain_community/vectorstores/faiss.py (FAISS.load_local: faiss.read_index, then "
        "pickle.load of the docstore and index_to_docstore_id: as large as the corpus)",
    ),
    *(entry(store, "sdk", "local-store", "to-thread", source=_CHROMA) for store in _CHROMA_STORES),
    # Its builders embed the texts (the interface's ``from_texts``/``from_documents``), then open it.
    *(
        entry(
            f"{store}.{built}",
            "sdk",
            "network",
            "to-thread",
            source=f"{_CHROMA}; {_CORE} langchain_core/vectorstores/base.py ({built} / a{built})",
            twin=_twin_phrase(built),
        )
        for store in _CHROMA_STORES
        for built in ("from_texts", "from_documents")
    ),
)

APIS: tuple[BlockingApi, ...] = (*_INTERFACE_CALLS, *_LOADS)

RETURNS: dict[str, str] = {**_CLASSES, **_FACTORIES, **_DEFINED, **_PIPES}

#: A project's own subclass of an interface (``class MyLLM(BaseChatModel)``) runs the library's
#: sync methods, which call its ``_generate``/``_call`` in the calling thread.
SUBCLASSED = frozenset(_INTERFACES)

#: ``stream`` is a generator function: nothing runs until it is iterated.
DEFERRED: dict[str, str] = {
    f"{interface}.stream": "a generator that runs the component as it is iterated (langchain-core 1.8.4 "
    "runnables/base.py, language_models/chat_models.py: stream yields)"
    for interface, (_, _, methods) in _INTERFACES.items()
    if "stream" in methods
}

#: The methods the ``twin-call`` fix rewrites to their ``a``-prefixed twin (same parameters, a
#: coroutine): every entry above but ``stream`` (its twin is an async generator, iterated).
REWRITABLE: dict[str, frozenset[str]] = {
    interface: frozenset(methods) - {"stream", "__call__"} for interface, (_, _, methods) in _INTERFACES.items()
}
