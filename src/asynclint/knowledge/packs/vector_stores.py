"""Vector stores and indexes searched in process: faiss, lancedb, chromadb.

faiss runs its searches in C++ and releases the GIL while it does (its SWIG wrappers are built
with threads enabled), so ``asyncio.to_thread`` really frees the loop: unlike pure-Python CPU
work, the offload is the fix. lancedb's sync connection reads (and, for ``db://`` URIs, queries
over the network) in the calling thread; ``lancedb.connect_async`` is its async twin. A lancedb
``search()`` only builds a query: its ``to_list()``/``to_pandas()``/... runs it.

chromadb's sync clients wait in the calling thread: an ``HttpClient`` (or ``CloudClient``) on
the server (its constructor already asks it for the tenant and the database: two round trips),
an in-process client on its local store. Their collections are named after the client that
made them, so a collection's calls are graded like the client's. ``AsyncHttpClient`` is the
twin, but its collections still embed texts with the collection's embedding function, a sync
call (``OpenAIEmbeddingFunction`` holds a sync ``openai.OpenAI``; the default one runs an ONNX
model), before their first await: an awaited ``query(query_texts=...)`` blocks all the same.
"""

from __future__ import annotations

from asynclint.knowledge.api import BlockingApi, entry, many

_FAISS = (
    "https://github.com/facebookresearch/faiss/wiki/Getting-started (Index.add/search; SWIG wrappers release the GIL)"
)
_LANCEDB = "source: pkg lancedb 0.40.0 lancedb/__init__.py (connect, connect_async), db.py, table.py, query.py"
LANCEDB_TWIN = "`await lancedb.connect_async(...)` (an `AsyncConnection`: await `open_table`, `add`, `query`...)"

#: Index constructors and factories: all give a ``faiss.Index`` as far as the analysis cares.
_FAISS_INDEXES = (
    "IndexFlatL2 IndexFlatIP IndexFlat IndexIVFFlat IndexIVFPQ IndexIVFScalarQuantizer IndexHNSWFlat "
    "IndexHNSWPQ IndexPQ IndexLSH IndexScalarQuantizer IndexIDMap IndexIDMap2 IndexBinaryFlat "
    "index_factory read_index deserialize_index index_cpu_to_gpu index_gpu_to_cpu"
).split()
_LANCE_BUILDER = "limit offset select where metric distance_type nprobes refine_factor vector text rerank with_row_id"

_CHROMA = "source: pkg chromadb 1.5.9"
CHROMA_TWIN = "`await chromadb.AsyncHttpClient(...)` and await the call"
CHROMA_EMBED_TWIN = (
    "`query_embeddings=`/`embeddings=` computed by an async client "
    "(`await openai.AsyncOpenAI().embeddings.create(...)`)"
)
_CHROMA_LOCAL = ("Client", "PersistentClient", "EphemeralClient")
_CHROMA_REMOTE = ("HttpClient", "CloudClient")
#: Client methods that send nothing (chromadb/api/client.py ``get_settings``,
#: shared_system_client.py ``clear_system_cache``).
_CHROMA_QUIET = frozenset({"get_settings", "clear_system_cache"})
_CHROMA_COLLECTION_MAKERS = ("get_collection", "get_or_create_collection", "create_collection")
#: An in-process client's calls on its catalogue of collections (api/rust.py: one call into the
#: Rust bindings each, on the system tables of the local SQLite database).
_CHROMA_CATALOGUE = (
    *_CHROMA_COLLECTION_MAKERS,
    "get_collection_by_id",
    "list_collections",
    "count_collections",
    "heartbeat",
    "get_version",
    "get_max_batch_size",
)
#: Collection calls on the records they name that embed nothing (api/models/Collection.py,
#: CollectionCommon.py ``_validate_and_prepare_get_request``/``_delete_request``); ``add``,
#: ``upsert``, ``update``, ``query`` and ``search`` embed what they are given, ``fork`` copies
#: the collection: those stay graded as the store.
_CHROMA_RECORDS = ("get", "peek", "count", "delete", "modify", "get_indexing_status")
_CHROMA_RECORDS_SOURCE = f"{_CHROMA} chromadb/api/rust.py (Rust bindings over local SQLite), api/models/Collection.py"
#: AsyncCollection methods that embed what they are given (api/models/CollectionCommon.py
#: ``_validate_and_prepare_*_request`` -> ``_embed_record_set`` -> the embedding function, sync).
_CHROMA_EMBEDS = {
    "query": ("query texts, images or URIs", frozenset({"query_texts", "query_images", "query_uris"})),
    **{
        method: ("documents, images or URIs", frozenset({"documents", "images", "uris"}))
        for method in ("add", "upsert", "update")
    },
}

#: What an in-process client's collection is, by the embedding function it was made with (see
#: :data:`BUILT`): the default one (none written) runs a local model, a remote one calls its API.
#: A collection made with a function of another or an unknown type keeps its maker's name and is
#: graded as the store, as before.
CHROMA_LOCAL_EMBEDDING = "chromadb.Collection[local-embedding]"
CHROMA_REMOTE_EMBEDDING = "chromadb.Collection[remote-embedding]"
_EF = "chromadb.utils.embedding_functions."
#: utils/embedding_functions/__init__.py: the default ONNX MiniLM, run by onnxruntime in process.
_CHROMA_LOCAL_EFS = ("DefaultEmbeddingFunction", "ONNXMiniLM_L6_V2")
#: utils/embedding_functions/__init__.py: functions that send the texts to a model server (a
#: sync client each: ``openai.OpenAI``, ``httpx``/``requests``, the provider's SDK).
_CHROMA_REMOTE_EFS = (
    "OpenAIEmbeddingFunction CohereEmbeddingFunction HuggingFaceEmbeddingFunction "
    "HuggingFaceEmbeddingServer GoogleGenerativeAiEmbeddingFunction GooglePalmEmbeddingFunction "
    "GoogleVertexEmbeddingFunction VoyageAIEmbeddingFunction JinaEmbeddingFunction OllamaEmbeddingFunction "
    "AmazonBedrockEmbeddingFunction MistralEmbeddingFunction TogetherAIEmbeddingFunction "
    "CloudflareWorkersAIEmbeddingFunction BasetenEmbeddingFunction"
).split()
_CHROMA_EF_SOURCE = f"{_CHROMA} chromadb/utils/embedding_functions/__init__.py, api/models/CollectionCommon.py"

APIS: tuple[BlockingApi, ...] = (
    *many(
        "cpu",
        "cpu-heavy",
        "to-thread",
        "search add add_with_ids train range_search search_and_reconstruct reconstruct_n remove_ids",
        "faiss.Index.",
        source=_FAISS,
    ),
    *many("cpu", "cpu-heavy", "to-thread", "normalize_L2 knn kmeans_clustering", "faiss.", source=_FAISS),
    *many("fs", "disk-content", "to-thread", "read_index write_index", "faiss.", source=_FAISS),
    entry("lancedb.connect", "sdk", "local-store", "to-thread", frozenset(), _LANCEDB, LANCEDB_TWIN),
    entry("lancedb.connect.**", "sdk", "local-store", "to-thread", frozenset(), _LANCEDB, LANCEDB_TWIN),
    entry("lancedb.table.Table.**", "sdk", "local-store", "to-thread", frozenset({"search"}), _LANCEDB, LANCEDB_TWIN),
    *many(
        "sdk",
        "local-store",
        "to-thread",
        "to_list to_pandas to_df to_arrow to_batches to_pydantic to_polars",
        "lancedb.query.LanceQueryBuilder.",
        source=_LANCEDB,
        twin=LANCEDB_TWIN,
    ),
    # In-process chroma reads and writes a local store and runs the embedding model inline.
    *(
        entry(
            f"chromadb.{client}.**",
            "sdk",
            "local-store",
            "to-thread",
            _CHROMA_QUIET,
            f"{_CHROMA} chromadb/__init__.py, api/client.py, api/models/Collection.py",
        )
        for client in _CHROMA_LOCAL
    ),
    entry(
        "chromadb.PersistentClient",
        "sdk",
        "local-store",
        "to-thread",
        frozenset(),
        f"{_CHROMA} chromadb/__init__.py (PersistentClient -> Client(): opens the store, validates tenant "
        "and database)",
    ),
    *(
        entry(
            f"chromadb.{client}.**",
            "sdk",
            "network",
            "to-thread",
            _CHROMA_QUIET,
            f"{_CHROMA} chromadb/api/fastapi.py (sync httpx)",
            CHROMA_TWIN,
        )
        for client in _CHROMA_REMOTE
    ),
    *(
        entry(
            f"chromadb.{client}",
            "sdk",
            "network",
            "to-thread",
            frozenset(),
            f"{_CHROMA} chromadb/api/client.py (Client.__init__ -> _validate_tenant_database: get_tenant, "
            "get_database)",
            CHROMA_TWIN,
        )
        for client in _CHROMA_REMOTE
    ),
    # The named records of an in-process store and its catalogue: bounded local work (no embedding).
    *(
        entry(f"chromadb.{client}.{method}", "sdk", "local-records", "to-thread", source=_CHROMA_RECORDS_SOURCE)
        for client in _CHROMA_LOCAL
        for method in _CHROMA_CATALOGUE
    ),
    *(
        entry(f"{collection}.{method}", "sdk", "local-records", "to-thread", source=_CHROMA_RECORDS_SOURCE)
        for collection in (
            "chromadb.Collection",
            CHROMA_LOCAL_EMBEDDING,
            CHROMA_REMOTE_EMBEDDING,
            *(f"chromadb.{client}.{maker}" for client in _CHROMA_LOCAL for maker in _CHROMA_COLLECTION_MAKERS),
        )
        for method in _CHROMA_RECORDS
    ),
    # An in-process collection that embeds with the default local model (a few ms per short
    # text), or over the network with a remote embedding function; its other calls as the store's.
    *(
        entry(f"{CHROMA_LOCAL_EMBEDDING}.{method}", "sdk", "local-embed", "to-thread", source=_CHROMA_EF_SOURCE)
        for method in _CHROMA_EMBEDS
    ),
    *(
        entry(
            f"{CHROMA_REMOTE_EMBEDDING}.{method}",
            "sdk",
            "network",
            "to-thread",
            source=f"{_CHROMA_EF_SOURCE}, openai_embedding_function.py (sync openai.OpenAI)",
            twin=CHROMA_EMBED_TWIN,
        )
        for method in _CHROMA_EMBEDS
    ),
    *(
        entry(f"{collection}.**", "sdk", "local-store", "to-thread", source=_CHROMA_EF_SOURCE)
        for collection in (CHROMA_LOCAL_EMBEDDING, CHROMA_REMOTE_EMBEDDING)
    ),
    # Building the OpenAI embedding function builds its sync ``openai.OpenAI`` client (the other
    # remote functions build their providers' SDK clients; not read here).
    *(
        entry(
            f"{_EF}{path}",
            "client",
            "client-build",
            "hoist-client",
            source=f"{_CHROMA} chromadb/utils/embedding_functions/openai_embedding_function.py "
            "(OpenAIEmbeddingFunction.__init__: self.client = openai.OpenAI(**client_params))",
        )
        for path in ("OpenAIEmbeddingFunction", "openai_embedding_function.OpenAIEmbeddingFunction")
    ),
    # A collection whose client is not known (an annotated parameter): graded as the cheaper store.
    entry(
        "chromadb.Collection.**",
        "sdk",
        "local-store",
        "to-thread",
        frozenset(),
        f"{_CHROMA} chromadb/api/models/Collection.py",
    ),
    *(
        entry(
            f"chromadb.AsyncCollection.{method}",
            "sdk",
            "network",
            None,
            frozenset(),
            f"{_CHROMA} chromadb/api/models/AsyncCollection.py, CollectionCommon.py (_embed_record_set), "
            "utils/embedding_functions/openai_embedding_function.py (sync openai.OpenAI)",
            CHROMA_EMBED_TWIN,
            awaited=f"embeds the {what} it is given with the collection's embedding function, a synchronous "
            "call, before its first await",
            blocks_with=given,
        )
        for method, (what, given) in _CHROMA_EMBEDS.items()
    ),
)

RETURNS: dict[str, str] = {
    **{f"faiss.{name}()": "faiss.Index" for name in _FAISS_INDEXES},
    **{f"lancedb.connect.{method}()": "lancedb.table.Table" for method in ("open_table", "create_table")},
    **{f"lancedb.{cls}": "lancedb.connect" for cls in ("DBConnection", "db.DBConnection", "db.LanceDBConnection")},
    **{f"lancedb.table.{cls}": "lancedb.table.Table" for cls in ("LanceTable",)},
    "lancedb.table.Table.search()": "lancedb.query.LanceQueryBuilder",
    **{
        f"lancedb.query.LanceQueryBuilder.{method}()": "lancedb.query.LanceQueryBuilder"
        for method in _LANCE_BUILDER.split()
    },
    # Handles on a store, named after what produced them (see the module docstring).
    **{
        f"chromadb.{client}.{method}()": f"chromadb.{client}.{method}"
        for client in (*_CHROMA_LOCAL, *_CHROMA_REMOTE)
        for method in _CHROMA_COLLECTION_MAKERS
    },
    "chromadb.api.models.Collection.Collection": "chromadb.Collection",
    **{
        f"chromadb.AsyncHttpClient.{method}()": "chromadb.AsyncCollection"
        for method in (*_CHROMA_COLLECTION_MAKERS, "get_collection_by_id")
    },
    "chromadb.api.models.AsyncCollection.AsyncCollection": "chromadb.AsyncCollection",
    "chromadb.api.AsyncClientAPI": "chromadb.AsyncHttpClient",
}

#: An in-process client's collection is typed by its ``embedding_function=`` (see
#: :data:`asynclint.knowledge.blocking.BUILT`; ``""``: not passed, chromadb's default). A second
#: positional argument is read as the function: only ``get_collection`` takes it there, and for
#: the other makers such a value is no known function, so the collection keeps its usual name.
BUILT: dict[str, tuple[str, int | None, dict[str, str]]] = {
    f"chromadb.{client}.{maker}": (
        "embedding_function",
        1,
        {
            "": CHROMA_LOCAL_EMBEDDING,
            # An instance of a class the knowledge base has no entry for is named ``Class()``.
            **{f"{_EF}{name}{call}": CHROMA_LOCAL_EMBEDDING for name in _CHROMA_LOCAL_EFS for call in ("", "()")},
            **{
                f"{_EF}{name}{call}": CHROMA_REMOTE_EMBEDDING
                for name in (*_CHROMA_REMOTE_EFS, "openai_embedding_function.OpenAIEmbeddingFunction")
                for call in ("", "()")
            },
        },
    )
    for client in _CHROMA_LOCAL
    for maker in _CHROMA_COLLECTION_MAKERS
}
