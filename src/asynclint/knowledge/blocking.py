"""The catalogue of blocking APIs: qualified name pattern -> category, severity, fix recipe.

Patterns come in three shapes:

* ``"time.sleep"`` -- an exact qualified name (a function, a constructor, or a method reached
  through an instance whose type the analysis knows: ``"requests.Session.get"``);
* ``"openai.OpenAI.**"`` -- any call made through an instance of that type, at any attribute
  depth (``client.chat.completions.create``), except the methods named in ``unless``;
* ``"*.model_copy"`` -- a method name on any receiver, for names distinctive enough that the
  receiver's type does not matter (pydantic's ``model_*``).

Types are written as the name of whatever produced the instance: ``sqlite3.connect`` returns a
connection, so its methods are ``"sqlite3.connect.**"``. The result of a *method* call is
written with ``()`` (``openai.OpenAI.chat.completions.create()`` is a response, not a client)
unless :data:`RETURNS` names it: ``Path.parent`` is a ``Path``, ``conn.cursor()`` talks to the
same database.
"""

from __future__ import annotations

from asynclint.knowledge.api import BlockingApi, IdRegistry, entry, many
from asynclint.knowledge.costs import AWAITED_JSON_REPLIES, JSON_REPLIES, REQUEST_METHODS, SAME_ITEM_BUILTINS
from asynclint.knowledge.packs import (
    PACK_APIS,
    PACK_BUILT,
    PACK_CALLS_ATTRIBUTES,
    PACK_ENTER_RETURNS,
    PACK_FEW_RESULTS,
    PACK_ITEMS,
    PACK_REGISTRIES,
    PACK_RETURNS,
    PACK_RUNS,
    PACK_SUBCLASSED,
)
from asynclint.knowledge.twins import twin_of

#: The type of a sympy expression (``sympy.core.expr.Expr``, exported as ``sympy.Expr``): what its parsers,
#: simplifiers and the expression's own transforming methods return.
SYMPY_EXPR = "sympy.Expr"
_SYMPY = (
    "source: pkg sympy 1.14.0 sympy/core/sympify.py (sympify -> Basic), sympy/parsing/sympy_parser.py (parse_expr), "
    "sympy/core/expr.py and basic.py (Expr.simplify/expand/factor/equals/evalf/subs/doit return expressions); "
    "timed on this machine: subs 8-50 us, evalf 26-230 us, has/atoms/xreplace under 7 us, factor 1.3 ms, "
    "simplify 9-57 ms"
)
_SYMPY_PRODUCERS = (
    *(
        f"sympy.{name}"
        for name in "sympify parse_expr simplify expand factor nsimplify together cancel trigsimp N".split()
    ),
    "sympy.parsing.sympy_parser.parse_expr",
    "sympy.parsing.latex.parse_latex",
    "latex2sympy2.latex2sympy",
    # The same simplifiers as ``from sympy.simplify import *`` names them (source: pkg sympy 1.14.0
    # sympy/simplify/__init__.py, its ``__all__``).
    *(f"sympy.simplify.{name}" for name in "simplify nsimplify trigsimp".split()),
)
#: ``str`` methods returning a ``str`` (the builtin's documentation, "Return a copy of the string ...").
_TEXT_TRANSFORMS = (
    "strip lstrip rstrip lower upper casefold title capitalize swapcase replace removeprefix removesuffix "
    "format join center ljust rjust zfill expandtabs translate"
)
#: ``os.path`` functions returning a path as a ``str`` (the module's documentation), and ``os.getcwd``.
_PATH_TEXTS = "path.join path.abspath path.realpath path.normpath path.relpath path.expanduser path.expandvars "
_PATH_TEXTS += "path.dirname path.basename getcwd"
#: ``sympy.N`` handed a text: the parse, then the evaluation.
_SYMPY_N_TEXT = "sympy.N[text]"
_SYMPY_EXPR_METHODS = (
    "simplify expand factor together cancel trigsimp rewrite diff integrate evalf n subs doit xreplace"
)
#: An expression's look-ups: a walk of its tree or a flag, microseconds, never reported.
_SYMPY_LOOKUPS = ("has", "atoms", "xreplace", "as_coefficients_dict")

#: Category -> what it blocks on, in words used by messages and docs.
CATEGORIES: dict[str, str] = {
    "sleep": "sleeps the whole thread",
    "http": "waits on the network",
    "llm": "waits on a model API over the network",
    "sdk": "waits on a database or remote service",
    "client": "builds a client (TLS context, connection pool) synchronously",
    "subprocess": "waits for a child process",
    "open": "does disk I/O",
    "path": "does disk I/O",
    "fs": "does disk I/O",
    "copy": "copies a whole object graph while holding the GIL",
    "serialization": "serializes or parses a payload while holding the GIL",
    "cpu": "runs CPU-heavy work while holding the GIL",
    "wait": "waits for another thread or process",
    "browser": "drives a browser through a synchronous driver",
}

#: SQLite is an ``sdk`` call on a local file: the words of what its connection calls do.
_SQLITE_OPEN = "opens a local database file"
_SQLITE_END = "ends or interrupts a local database's transaction"
_SQLITE_COMMIT = "commits a local database's transaction to disk (an fsync)"
_SQLITE_COPY = "copies a whole local database"
#: What a SQLite connection's (or its cursor's) methods run. Only these run a statement or read
#: the rows of one (graded by its text); ``backup``/``serialize`` copy the whole database.
#: Every other method -- ``set_authorizer``, ``set_progress_handler``, ``create_function``,
#: ``setlimit``, ``close`` -- registers a callback or sets a limit in memory: no statement runs.
#: CPython Modules/_sqlite/connection.c, cursor.c.
_SQLITE_STATEMENTS = "execute executemany executescript fetchone fetchmany fetchall"
_SQLITE_COPIES = "backup serialize"
#: An in-memory database's connection: no file is opened, no transaction is synced.
_SQLITE_MEMORY_OPEN = "opens an in-memory database"
_SQLITE_MEMORY_END = "ends an in-memory database's transaction"

#: Fix recipes a knowledge entry may name; the fixers implement them.
RECIPES: dict[str, str] = {
    "asyncio-sleep": "use `await asyncio.sleep(...)`",
    "to-thread": "run it in a worker thread with `await asyncio.to_thread(...)`",
    "async-client": "use the library's async client and await the call",
    "async-subprocess": "use `asyncio.create_subprocess_exec` and await it",
    "hoist-client": "build one client once (e.g. in `__init__`) and reuse it",
    "deepcopy-memo": "share a deepcopy memo of the large immutable fields, off the loop",
    "process-pool": "run it in a `ProcessPoolExecutor` via `loop.run_in_executor`",
    "pure-process-pool": "run it in a `ProcessPoolExecutor` via `loop.run_in_executor` (only its result matters)",
}


_HTTP_VERBS = "get post put patch delete head options request send stream"
#: What to do with a large reply body's parse (``response.json()``): the bytes are already read.
_PARSE_OFF_LOOP = "`await asyncio.to_thread(response.json)` for a large body"
_AIOHTTP_PARSE_OFF_LOOP = "`body = await ....read()`, then `await asyncio.to_thread(json.loads, body)` for a large body"
_AIOHTTP_PARSE = "reads the body without blocking, then parses it with `json.loads` on the loop"
_NOT_A_REQUEST = frozenset(
    "with_options with_raw_response with_streaming_response copy close mount headers cookies "
    "auth params cursor __enter__ __exit__ pipeline".split()
)

#: Calls that only make a local handle on the same database: nothing is sent yet.
_MONGO_HANDLES = frozenset({"get_database", "get_default_database", "get_collection"})
#: boto3 resource objects (``s3.Bucket(name)``, ``dynamodb.Table(name)``) are lazy handles.
_BOTO3_SUBRESOURCES = frozenset({"Bucket", "Object", "Table", "Queue", "Topic", "Instance", "meta"})

#: What ``sqlite3.connect(..., isolation_level=None)`` opens: a connection in autocommit mode. Named
#: as a variant of its producer (like ``tau_bench.types.Action[respond]``): messages show
#: ``sqlite3.connect[autocommit].execute``, which no one reads as Python 3.12's
#: ``Connection.autocommit`` attribute, as they would ``sqlite3.connect.autocommit.execute``.
SQLITE_AUTOCOMMIT = "sqlite3.connect[autocommit]"
#: What ``sqlite3.connect(":memory:")`` opens: a database in the process's memory, no file (its
#: statements are graded by knowledge.costs.MEMORY_GRADES).
SQLITE_MEMORY = "sqlite3.connect[memory]"
#: What opens an empty store in the process's memory: a script passed in and run on one by the
#: function that opened it creates and fills its tables from nothing, so it costs what its own text
#: holds (knowledge.costs.FILLED_SCRIPT), not what a query would scan.
EMPTY_STORES: frozenset[str] = frozenset({SQLITE_MEMORY})

#: The cost of an archive object's calls that read or write only the archive (``zf.writestr``,
#: ``zf.read``, ``tar.extractfile``): on an archive opened on a file in the same function they are
#: its file's I/O, folded into the opener's finding as a file object's reads and writes are
#: (analysis.index.fileobjects); on a buffer in memory they are memory work.
ARCHIVE_MEMBER_COST = "archive-member"

#: A wait's arguments that make it return at once (``BlockingApi.off_with``): a ``timeout`` of 0
#: (``event.wait(0)``, ``future.result(timeout=0)``); also ``blocking``/``block`` False for a
#: lock's ``acquire`` and a queue's ``get`` (``sema.acquire(blocking=False)``, ``q.get(False)``),
#: whose ``timeout`` comes second; and the ``timeout`` after a ``wait_for``'s predicate or a
#: ``wait``'s futures. CPython threading.py, queue.py, concurrent/futures/_base.py.
_NO_WAIT = frozenset({"timeout=0", "0=0"})
_TRY_ONCE = frozenset({"blocking=False", "block=False", "0=False", "timeout=0", "1=0"})
_NO_WAIT_AFTER_ONE = frozenset({"timeout=0", "1=0"})
#: The queues with ``get`` and ``join`` (``queue.SimpleQueue`` has no ``join``).
_JOINABLE_QUEUES = (
    "queue.Queue",
    "queue.LifoQueue",
    "queue.PriorityQueue",
    "multiprocessing.Queue",
    "multiprocessing.JoinableQueue",
)

_CORE_APIS: tuple[BlockingApi, ...] = tuple(
    [
        # --- sleeping ---------------------------------------------------------------------
        BlockingApi("time.sleep", "sleep", "sleep", "asyncio-sleep"),
        # --- sync HTTP and sockets ----------------------------------------------------------
        *many("http", "network", "async-client", _HTTP_VERBS, "requests."),
        *many("http", "network", "async-client", _HTTP_VERBS, "requests.Session."),
        *many("http", "network", "async-client", _HTTP_VERBS, "httpx."),
        *many("http", "network", "async-client", _HTTP_VERBS, "httpx.Client."),
        *many("http", "network", "to-thread", "urlopen urlretrieve", "urllib.request."),
        *many("http", "network", "to-thread", "request urlopen", "urllib3."),
        *many(
            "http",
            "network",
            "to-thread",
            "request urlopen request_encode_url request_encode_body",
            "urllib3.PoolManager.",
        ),
        *many("http", "network", "to-thread", "request getresponse connect", "http.client.HTTPConnection."),
        *many("http", "network", "to-thread", "request getresponse connect", "http.client.HTTPSConnection."),
        *many(
            "http",
            "network",
            "to-thread",
            "create_connection getaddrinfo gethostbyname gethostbyaddr getfqdn",
            "socket.",
        ),
        *many(
            "http",
            "network",
            "to-thread",
            "connect connect_ex accept recv recv_into recvfrom makefile",
            "socket.socket.",
        ),
        *many("http", "payload-send", "to-thread", "send sendall sendto", "socket.socket."),
        *many("http", "network", "to-thread", "connect connect_ex accept recv recv_into", "socket.create_connection."),
        *many("http", "payload-send", "to-thread", "send sendall", "socket.create_connection."),
        # A socket's file object (``sock.makefile("rwb", buffering=0)``; docker-py's attached socket):
        # its reads and writes are the socket's.
        *many("http", "network", "to-thread", "read readinto readall", "socket.SocketIO."),
        *many("http", "payload-send", "to-thread", "write", "socket.SocketIO."),
        # --- sync LLM / model SDK clients ---------------------------------------------------
        BlockingApi("openai.OpenAI.**", "llm", "network", "async-client", _NOT_A_REQUEST),
        BlockingApi("openai.AzureOpenAI.**", "llm", "network", "async-client", _NOT_A_REQUEST),
        *many("llm", "network", "async-client", "ChatCompletion.create Completion.create Embedding.create", "openai."),
        BlockingApi("anthropic.Anthropic.**", "llm", "network", "async-client", _NOT_A_REQUEST),
        BlockingApi("anthropic.AnthropicBedrock.**", "llm", "network", "async-client", _NOT_A_REQUEST),
        BlockingApi("anthropic.AnthropicVertex.**", "llm", "network", "async-client", _NOT_A_REQUEST),
        *many(
            "llm",
            "network",
            "async-client",
            "completion embedding text_completion image_generation transcription speech responses rerank",
            "litellm.",
        ),
        BlockingApi("cohere.Client.**", "llm", "network", "async-client", _NOT_A_REQUEST),
        BlockingApi("cohere.ClientV2.**", "llm", "network", "async-client", _NOT_A_REQUEST),
        BlockingApi("groq.Groq.**", "llm", "network", "async-client", _NOT_A_REQUEST),
        BlockingApi("together.Together.**", "llm", "network", "async-client", _NOT_A_REQUEST),
        BlockingApi("mistralai.Mistral.**", "llm", "network", None, _NOT_A_REQUEST),
        BlockingApi("huggingface_hub.InferenceClient.**", "llm", "network", "async-client", _NOT_A_REQUEST),
        BlockingApi("google.generativeai.GenerativeModel.generate_content", "llm", "network", None),
        # --- other sync SDKs: databases, caches, object and vector stores -------------------
        BlockingApi("boto3.client.**", "sdk", "network", "to-thread", _NOT_A_REQUEST),
        BlockingApi("boto3.resource.**", "sdk", "network", "to-thread", _NOT_A_REQUEST | _BOTO3_SUBRESOURCES),
        BlockingApi("redis.Redis.**", "sdk", "network", "to-thread", _NOT_A_REQUEST),
        # A pipeline buffers its commands and sends them all on execute().
        BlockingApi("redis.client.Pipeline.execute", "sdk", "network", "to-thread"),
        BlockingApi("pymongo.MongoClient.**", "sdk", "network", "to-thread", _NOT_A_REQUEST | _MONGO_HANDLES),
        BlockingApi("psycopg.connect.**", "sdk", "network", "to-thread", _NOT_A_REQUEST),
        BlockingApi("psycopg2.connect.**", "sdk", "network", "to-thread", _NOT_A_REQUEST),
        BlockingApi("pymysql.connect.**", "sdk", "network", "to-thread", _NOT_A_REQUEST),
        BlockingApi("mysql.connector.connect.**", "sdk", "network", "to-thread", _NOT_A_REQUEST),
        *many(
            "sdk", "network", "to-thread", "psycopg.connect psycopg2.connect pymysql.connect mysql.connector.connect"
        ),
        # Opening a local SQLite file, closing it or rolling back a read-only transaction is
        # metadata-scale; queries and commits (an fsync) are not.
        BlockingApi("sqlite3.connect", "sdk", "disk-metadata", "to-thread", what=_SQLITE_OPEN),
        *many("sdk", "disk-metadata", "to-thread", "rollback interrupt", "sqlite3.connect.", what=_SQLITE_END),
        BlockingApi("sqlite3.connect.commit", "sdk", "disk-content", "to-thread", what=_SQLITE_COMMIT),
        # Queries are graded by the statement they run (knowledge.costs.STATEMENT_GRADES).
        *many("sdk", "statement", "to-thread", _SQLITE_STATEMENTS, "sqlite3.connect."),
        *many("sdk", "disk-content", "to-thread", _SQLITE_COPIES, "sqlite3.connect.", what=_SQLITE_COPY),
        # A connection in autocommit mode (see BUILT) commits every statement that writes: a
        # row written is synced to disk at once (knowledge.costs.AUTOCOMMIT_GRADES).
        BlockingApi(SQLITE_AUTOCOMMIT, "sdk", "disk-metadata", "to-thread", what=_SQLITE_OPEN),
        *many(
            "sdk", "disk-metadata", "to-thread", "commit rollback interrupt", f"{SQLITE_AUTOCOMMIT}.", what=_SQLITE_END
        ),
        *many("sdk", "statement-autocommit", "to-thread", _SQLITE_STATEMENTS, f"{SQLITE_AUTOCOMMIT}."),
        *many("sdk", "disk-content", "to-thread", _SQLITE_COPIES, f"{SQLITE_AUTOCOMMIT}.", what=_SQLITE_COPY),
        # An in-memory database (see BUILT): opening it, a commit, a schema change or a pragma touch
        # no disk; a statement still costs what it scans (knowledge.costs.MEMORY_GRADES).
        BlockingApi(SQLITE_MEMORY, "sdk", "memory-db", "to-thread", what=_SQLITE_MEMORY_OPEN),
        *many(
            "sdk", "memory-db", "to-thread", "commit rollback interrupt", f"{SQLITE_MEMORY}.", what=_SQLITE_MEMORY_END
        ),
        *many("sdk", "statement-memory", "to-thread", _SQLITE_STATEMENTS, f"{SQLITE_MEMORY}."),
        *many("sdk", "disk-content", "to-thread", _SQLITE_COPIES, f"{SQLITE_MEMORY}.", what=_SQLITE_COPY),
        BlockingApi("elasticsearch.Elasticsearch.**", "sdk", "network", "to-thread", _NOT_A_REQUEST),
        BlockingApi("qdrant_client.QdrantClient.**", "sdk", "network", "to-thread", _NOT_A_REQUEST),
        BlockingApi("pinecone.Pinecone.**", "sdk", "network", "to-thread", _NOT_A_REQUEST),
        BlockingApi("pinecone.grpc.PineconeGRPC.**", "sdk", "network", "to-thread", _NOT_A_REQUEST),
        BlockingApi("pinecone.Index.**", "sdk", "network", "to-thread", _NOT_A_REQUEST),
        BlockingApi("google.cloud.storage.Client.**", "sdk", "network", "to-thread", _NOT_A_REQUEST | {"bucket"}),
        BlockingApi("google.cloud.storage.Bucket.**", "sdk", "network", "to-thread", _NOT_A_REQUEST | {"blob"}),
        BlockingApi("google.cloud.storage.Blob.**", "sdk", "network", "to-thread", _NOT_A_REQUEST),
        # --- building clients per call ------------------------------------------------------
        *many("client", "client-build", "hoist-client", "httpx.Client httpx.AsyncClient"),
        *many("client", "session-build", "hoist-client", "requests.Session requests.session"),
        *many("client", "client-build", "hoist-client", "OpenAI AsyncOpenAI AzureOpenAI AsyncAzureOpenAI", "openai."),
        *many("client", "client-build", "hoist-client", "Anthropic AsyncAnthropic", "anthropic."),
        *many("client", "client-build", "hoist-client", "client resource", "boto3."),
        *many("client", "client-build", "hoist-client", "create_default_context SSLContext", "ssl."),
        # --- subprocesses -------------------------------------------------------------------
        *many(
            "subprocess",
            "child-process",
            "async-subprocess",
            "run call check_call check_output getoutput getstatusoutput",
            "subprocess.",
        ),
        BlockingApi("subprocess.Popen", "subprocess", "process-start", "async-subprocess"),
        *many("subprocess", "child-process", "async-subprocess", "communicate wait", "subprocess.Popen."),
        # Reading a child's pipe waits until the child writes (a line, or everything up to its
        # exit): a request/reply over a long-lived child's stdin/stdout waits on the child's work.
        # ``for line in proc.stdout`` (``__iter__``) is a ``readline`` per item: no recipe, a loop
        # is not a call to hand to a thread (asyncio's child and ``await proc.stdout.readline()``).
        *(
            api
            for pipe in ("stdout", "stderr")
            for api in (
                *many(
                    "subprocess", "child-process", "to-thread", "read readline readlines", f"subprocess.Popen.{pipe}."
                ),
                *many("subprocess", "child-process", None, "__iter__", f"subprocess.Popen.{pipe}."),
            )
        ),
        # Waiting for a descriptor to be ready (a child's pipe, a socket), up to the timeout given.
        *many("wait", "thread-wait", "to-thread", "select.select select.poll.poll select.epoll.poll"),
        *many("wait", "thread-wait", "to-thread", "select", "selectors.DefaultSelector."),
        *many("subprocess", "child-process", "async-subprocess", "system popen wait waitpid wait3 wait4 waitid", "os."),
        *many(
            "subprocess",
            "child-process",
            None,
            "spawnl spawnle spawnlp spawnlpe spawnv spawnve spawnvp spawnvpe",
            "os.",
        ),
        BlockingApi("pty.spawn", "subprocess", "child-process", None),
        # --- open() and file objects --------------------------------------------------------
        *many("open", "disk-content", "to-thread", "builtins.open io.open codecs.open gzip.open bz2.open lzma.open"),
        *many(
            "open",
            "disk-content",
            "to-thread",
            "read readline readlines write writelines flush truncate",
            "builtins.open.",
        ),
        *many(
            "open", "disk-content", "to-thread", "read readline readlines write writelines flush truncate", "io.open."
        ),
        # --- pathlib ------------------------------------------------------------------------
        *many(
            "path",
            "disk-content",
            "to-thread",
            "read_text read_bytes write_text write_bytes open copy move",
            "pathlib.Path.",
        ),
        # A walk lists directories and reads no file; what the loop over it reads is graded there.
        *many("path", "disk-walk", "to-thread", "glob rglob walk", "pathlib.Path."),
        *many(
            "path",
            "disk-metadata",
            "to-thread",
            "mkdir rmdir unlink rename replace touch iterdir symlink_to hardlink_to chmod",
            "pathlib.Path.",
        ),
        *many(
            "path",
            "disk-metadata",
            "to-thread",
            "exists is_file is_dir is_symlink stat lstat resolve samefile owner group",
            "pathlib.Path.",
        ),
        # --- os / shutil / tempfile / glob ----------------------------------------------------
        *many("fs", "disk-content", "to-thread", "open read write fsync truncate", "os."),
        BlockingApi("os.walk", "fs", "disk-walk", "to-thread"),
        *many(
            "fs",
            "disk-metadata",
            "to-thread",
            "listdir scandir makedirs mkdir remove unlink rmdir removedirs rename renames replace link symlink chmod "
            "chown utime",
            "os.",
        ),
        *many("fs", "disk-metadata", "to-thread", "stat lstat access", "os."),
        *many(
            "fs",
            "disk-metadata",
            "to-thread",
            "exists isfile isdir islink getsize getmtime getatime getctime realpath samefile",
            "os.path.",
        ),
        *many(
            "fs",
            "disk-content",
            "to-thread",
            "rmtree copy copy2 copyfile copytree copyfileobj move make_archive unpack_archive",
            "shutil.",
        ),
        *many("fs", "disk-metadata", "to-thread", "which disk_usage chown", "shutil."),
        # Creating a temporary file or directory is metadata; a TemporaryDirectory also deletes
        # the tree written into it when it is closed: at the end of its ``with`` block, or where
        # ``cleanup()`` is called (knowledge.costs.SCOPED_GRADES).
        *many(
            "fs",
            "disk-metadata",
            "to-thread",
            "mkdtemp mkstemp NamedTemporaryFile TemporaryFile SpooledTemporaryFile",
            "tempfile.",
        ),
        BlockingApi("tempfile.TemporaryDirectory", "fs", "scoped", "to-thread"),
        BlockingApi("tempfile.TemporaryDirectory.cleanup", "fs", "disk-content", "to-thread"),
        # The file a NamedTemporaryFile / TemporaryFile opens is a file on disk like ``open``'s.
        *(
            api
            for opened in ("tempfile.NamedTemporaryFile.", "tempfile.TemporaryFile.")
            for api in many(
                "open", "disk-content", "to-thread", "read readline readlines write writelines flush truncate", opened
            )
        ),
        *many("fs", "disk-walk", "to-thread", "glob iglob", "glob."),
        # Opening an archive reads its header (or a zip's central directory), or creates the file
        # to write; the members' reads and writes below do the I/O. On an in-memory buffer
        # (``fileobj=io.BytesIO()``) there is no I/O at all: graded by what it is handed.
        *many("fs", "archive", "to-thread", "tarfile.open zipfile.ZipFile"),
        *many("fs", "disk-content", "to-thread", "shutil.unpack_archive"),
        # Members extracted to or added from a path touch the disk wherever the archive is; the
        # others read or write only the archive, graded by where it was opened (``archive-member``).
        *many("fs", "disk-content", "to-thread", "extractall extract add", "tarfile.open."),
        *many("fs", ARCHIVE_MEMBER_COST, "to-thread", "extractfile addfile getmembers getnames", "tarfile.open."),
        *many("fs", "disk-content", "to-thread", "extractall extract write", "zipfile.ZipFile."),
        # A zip's ``namelist``/``infolist`` list the central directory its constructor read: memory only.
        *many("fs", ARCHIVE_MEMBER_COST, "to-thread", "read writestr open", "zipfile.ZipFile."),
        # --- waiting for threads and processes --------------------------------------------------
        # Locks have no recipe: acquiring one in a worker thread and releasing it on the loop
        # changes who owns it. The asyncio counterparts (asyncio.Lock, asyncio.Event) are the fix.
        # A wait told not to block, or to give up after 0 seconds, returns at once (_NO_WAIT).
        *(
            api
            for lock in ("Lock", "RLock", "Semaphore", "BoundedSemaphore")
            for api in many("wait", "thread-wait", None, "acquire", f"threading.{lock}.", off_with=_TRY_ONCE)
        ),
        *many("wait", "thread-wait", None, "wait", "threading.Condition.", off_with=_NO_WAIT),
        *many("wait", "thread-wait", None, "wait_for", "threading.Condition.", off_with=_NO_WAIT_AFTER_ONE),
        *many("wait", "thread-wait", "to-thread", "wait", "threading.Event.", off_with=_NO_WAIT),
        # ``Barrier.wait(0)`` returns at once too, but by breaking the barrier: still a wait here.
        *many("wait", "thread-wait", "to-thread", "wait", "threading.Barrier."),
        *many("wait", "thread-wait", "to-thread", "join", "threading.Thread.", off_with=_NO_WAIT),
        # Starting a thread or building a loop per rollout: a fraction of a millisecond each
        # (``bench/bench_thread_start.py``), no cheaper in a worker thread, so no recipe: keep one
        # for the process. ``Thread(...)`` itself only builds the object.
        entry(
            "threading.Thread.start",
            "wait",
            "thread-start",
            source="https://docs.python.org/3/library/threading.html#threading.Thread.start "
            "(CPython 3.11 Lib/threading.py: _start_new_thread, then self._started.wait())",
        ),
        *(
            entry(
                loop,
                "wait",
                "loop-build",
                source="CPython 3.11 Lib/asyncio/events.py new_event_loop -> unix_events._UnixSelectorEventLoop: "
                "selector_events.BaseSelectorEventLoop.__init__ (selectors.DefaultSelector(), _make_self_pipe: "
                "socket.socketpair())",
            )
            for loop in ("asyncio.new_event_loop", "asyncio.SelectorEventLoop")
        ),
        *(
            api
            for queue in (*_JOINABLE_QUEUES, "queue.SimpleQueue")
            for api in many("wait", "thread-wait", "to-thread", "get", f"{queue}.", off_with=_TRY_ONCE)
        ),
        *(api for queue in _JOINABLE_QUEUES for api in many("wait", "thread-wait", "to-thread", "join", f"{queue}.")),
        *many("wait", "thread-wait", "to-thread", "result exception", "concurrent.futures.Future.", off_with=_NO_WAIT),
        BlockingApi("concurrent.futures.wait", "wait", "thread-wait", "to-thread", off_with=_NO_WAIT_AFTER_ONE),
        # The call returns at once; iterating over it blocks, so a worker thread cannot help.
        BlockingApi("concurrent.futures.as_completed", "wait", "thread-wait", None),
        *many("wait", "thread-wait", "to-thread", "join", "multiprocessing.Process.", off_with=_NO_WAIT),
        *many("wait", "thread-wait", "to-thread", "map starmap apply join", "multiprocessing.Pool."),
        # --- copying ------------------------------------------------------------------------
        BlockingApi("copy.deepcopy", "copy", "payload", "deepcopy-memo"),
        BlockingApi("*.model_copy", "copy", "payload", "to-thread"),
        # --- serialization --------------------------------------------------------------------
        *many("serialization", "payload", "to-thread", "dumps loads", "json."),
        # (its own twin: the client's async twin, which the request's entry names, does not parse the body)
        *(
            BlockingApi(reply, "serialization", "payload", "to-thread", twin=_PARSE_OFF_LOOP)
            for reply in sorted(JSON_REPLIES)
        ),
        # aiohttp's ``await response.json()``: the read is awaited, the parse is not. No automatic fix:
        # ``to_thread`` of the coroutine method would not run it; read the body, then parse it off the loop.
        *(
            BlockingApi(reply, "serialization", "payload", None, twin=_AIOHTTP_PARSE_OFF_LOOP, awaited=_AIOHTTP_PARSE)
            for reply in sorted(AWAITED_JSON_REPLIES)
        ),
        *many("serialization", "disk-content", "to-thread", "dump load", "json."),
        *many("serialization", "payload", "to-thread", "dumps loads", "pickle."),
        *many("serialization", "disk-content", "to-thread", "dump load", "pickle."),
        *many("serialization", "payload", "to-thread", "dumps loads", "marshal."),
        *many("serialization", "disk-content", "to-thread", "dump load", "marshal."),
        # pprint formats in pure Python (PrettyPrinter._format: a repr and a width check per
        # object): a 47 KB message history took 17 ms against json.dumps' 0.1 ms (measured, Python
        # 3.11), so graded by what it is handed with yaml's class. A debug f-string builds it even
        # when the logger drops the line.
        *many("serialization", "payload-slow", "to-thread", "pformat pprint pp", "pprint."),
        *many(
            "serialization",
            "payload-codec",
            "to-thread",
            "b64encode b64decode urlsafe_b64encode urlsafe_b64decode encodebytes decodebytes "
            "b32encode b32decode b85encode b85decode",
            "base64.",
            what="encodes or decodes",
        ),
        *many("serialization", "payload-fast", "to-thread", "packb unpackb pack unpack dumps loads", "msgpack."),
        # yaml: knowledge/packs/yaml_docs.py (pure-Python, graded a class above json).
        *many("serialization", "payload-fast", "to-thread", "dumps loads", "orjson."),
        *many("serialization", "payload-fast", "to-thread", "dumps loads", "ujson."),
        *many(
            "serialization",
            "payload",
            "to-thread",
            "model_dump model_dump_json model_validate model_validate_json",
            "*.",
        ),
        # --- CPU-heavy work -----------------------------------------------------------------
        # No recipe: they run in (or return) what a worker process does not have (NOT_PORTABLE).
        # Graded by what they are handed (knowledge.costs.CODE_GRADES): compiling a short text is
        # cheap, evaluating the model's text runs its expression, a program is what it runs.
        BlockingApi("builtins.compile", "cpu", "code"),
        BlockingApi("builtins.eval", "cpu", "expression"),
        BlockingApi("builtins.exec", "cpu", "program"),
        # Regexes are not here: a regex over a whole transcript takes microseconds (re.findall on
        # 10 KB: 7 µs), and the process-pool hop that would fix it costs ~25x that (175 µs).
        # "pure-process-pool": functions whose only effect is a result that pickles back equal,
        # so running them in another process changes nothing but where the CPU time is spent.
        # A symbol is built through a cache ("symbols are always cached"), a Dummy is one new atom, and
        # ``symbols("x y")`` splits its names into those (source: pkg sympy 1.14.0 sympy/core/symbol.py:
        # Symbol.__new__ -> __xnew_cached_, Dummy.__new__, symbols): microseconds, not CPU-heavy work.
        # Building a number is as cheap: ``Float(x, 30)``, ``Integer(1)``, ``Rational(1, 3)``, ``sqrt(2)`` take
        # 0.3-5 us (sympy 1.14.0 on this machine, once). Evaluating one (``N(e, 30)`` of a parsed closed form,
        # 12-75 us), comparing numbers (``Abs``, ``Max``, ``Min``: 40-180 us) or applying ``exp``/``log``
        # (60-90 us) is a short step; the parse that built the expression (``parse_expr``: 200 us) and
        # ``simplify`` (9 ms) are the heavy part.
        BlockingApi(
            "sympy.**",
            "cpu",
            "cpu-heavy",
            "process-pool",
            unless=frozenset({"Symbol", "Dummy", "symbols", "Float", "Integer", "Rational", "sqrt", *_SYMPY_LOOKUPS}),
        ),
        *many("cpu", "cpu-light", None, "Abs Max Min exp log", "sympy."),
        # ``N`` of a text sympifies it first (a parse: 677-783 us for a short expression), of an expression it
        # only evaluates (12-75 us).
        entry(
            "sympy.N", "cpu", "cpu-light", source=_SYMPY, heavier=_SYMPY_N_TEXT, heavier_on=frozenset({"builtins.str"})
        ),
        entry(_SYMPY_N_TEXT, "cpu", "cpu-heavy", "pure-process-pool", source=_SYMPY),
        # A parsed expression's own methods (its type: SYMPY_EXPR, see RETURNS): substituting values into it or
        # evaluating it is a short step (subs 8-50 us, evalf 26-230 us), simplifying, expanding, factoring or
        # testing equality (equals simplifies the difference) is the heavy work the sympy.** entry grades.
        *many("cpu", "cpu-light", None, "evalf n subs doit", f"{SYMPY_EXPR}.", source=_SYMPY),
        *many("cpu", "cpu-heavy", "pure-process-pool", "sympify simplify parse_expr solve integrate latex", "sympy."),
        *many("cpu", "cpu-heavy", "pure-process-pool", "parse_latex", "sympy.parsing.latex."),
        *many("cpu", "cpu-heavy", "pure-process-pool", "parse_expr", "sympy.parsing.sympy_parser."),
        *many("cpu", "cpu-heavy", "pure-process-pool", "parse verify", "math_verify."),
        BlockingApi("latex2sympy2.latex2sympy", "cpu", "cpu-heavy", "pure-process-pool"),
        BlockingApi("PIL.Image.open", "cpu", "lazy-open", "process-pool"),
        *many("cpu", "cpu-heavy", "process-pool", "convert resize save thumbnail tobytes rotate", "PIL.Image.open."),
        # ImageOps' functions decode the image and build a new one pixel by pixel (in C, under the GIL).
        *many(
            "cpu",
            "cpu-heavy",
            "process-pool",
            "grayscale autocontrast equalize invert fit pad contain cover exif_transpose posterize solarize",
            "PIL.ImageOps.",
        ),
        *many("cpu", "cpu-heavy", "process-pool", "imread imdecode imencode imwrite resize", "cv2."),
    ]
)

#: The core entries, then every knowledge pack's (:mod:`asynclint.knowledge.packs`; a pack may
#: restate a core pattern to add its source or twin), each given its async twin from
#: :mod:`asynclint.knowledge.twins` where it names none itself.
BUILTIN_APIS: tuple[BlockingApi, ...] = tuple(twin_of(api) for api in (*_CORE_APIS, *PACK_APIS))

#: Callees a worker process cannot run in the caller's place, and why: the process-pool recipes
#: decline them, and ``check`` advertises no fix for them (also when a configuration names one).
NOT_PORTABLE: dict[str, str] = {
    "builtins.exec": "runs code in the caller's namespace, which a worker process does not have",
    "builtins.eval": "evaluates in the caller's namespace, which a worker process does not have",
    "builtins.compile": "returns a code object, which does not pickle",
}
#: Keyword arguments through which pure functions take namespaces (sympy's ``locals=``,
#: ``local_dict=``, ``global_dict=``): a namespace may hold values that do not pickle, so handing
#: one to a worker process makes that ``pure-process-pool`` rewrite unsafe.
NAMESPACE_KEYWORDS = frozenset({"locals", "local_dict", "global_dict"})

#: Blocking calls that consume what they wait for, and what a worker thread loses when the
#: awaiting task is cancelled (a rollout timeout): the thread keeps waiting, takes the item (or the
#: bytes, or the connection), and nobody receives it. Offloading them is an unsafe fix.
LOSES_ON_CANCEL: dict[str, str] = {
    **{
        f"{queue}.get": "an item taken after the awaiting task is cancelled is lost"
        for queue in (
            "queue.Queue",
            "queue.LifoQueue",
            "queue.PriorityQueue",
            "queue.SimpleQueue",
            "multiprocessing.Queue",
            "multiprocessing.JoinableQueue",
        )
    },
    **{
        f"{sock}.{method}": "data received after the awaiting task is cancelled is lost"
        for sock in ("socket.socket", "socket.create_connection")
        for method in ("recv", "recv_into", "recvfrom")
    },
    **{
        f"{sock}.accept": "a connection accepted after the awaiting task is cancelled is never served"
        for sock in ("socket.socket", "socket.create_connection")
    },
}

#: Methods of text whose result is a list of its pieces, whatever the receiver is typed as
#: (``reply.splitlines()``, ``raw.split(b"\\n")``): a reader handed one reads lines already in memory,
#: not a path (``numpy.loadtxt(answer.splitlines())``, see the ``tables`` pack).
TEXT_PIECES: frozenset[str] = frozenset({"splitlines", "split", "rsplit"})
#: What :data:`TEXT_PIECES` give.
TEXT_PIECES_TYPE = "builtins.list"

#: Names better written as another type. A key ending in ``()`` is the result of a call
#: (``Path.resolve()`` is a ``Path``, ``conn.cursor()`` talks to the same database); the callee
#: itself keeps its own name, so ``client.with_options`` stays a method of the client. A key
#: without ``()`` is an alias (``redis.StrictRedis`` is ``redis.Redis``) or a property
#: (``Path.parent`` is a ``Path``).
RETURNS: dict[str, str] = {
    "pathlib.Path.parent": "pathlib.Path",
    "socket.SocketIO._sock": "socket.socket",  # CPython socket.py: the socket a SocketIO reads and writes
    **{
        f"pathlib.Path.{name}()": "pathlib.Path"
        for name in (
            "absolute resolve expanduser with_name with_stem with_suffix joinpath relative_to home cwd __truediv__"
        ).split()
    },
    **{f"pathlib.{name}": "pathlib.Path" for name in ("PosixPath", "WindowsPath")},
    "io.open()": "builtins.open",
    "pathlib.Path.open()": "builtins.open",
    "codecs.open()": "builtins.open",
    "requests.session()": "requests.Session",
    "redis.StrictRedis": "redis.Redis",
    "redis.from_url()": "redis.Redis",
    "redis.Redis.from_url()": "redis.Redis",
    # Methods returning the same kind of client or connection: keep following the receiver.
    **{
        f"{client}.{method}()": client
        for client in ("openai.OpenAI", "openai.AzureOpenAI", "anthropic.Anthropic")
        for method in ("with_options", "copy")
    },
    **{
        f"{connect}.cursor()": connect
        for connect in (
            "sqlite3.connect",
            SQLITE_AUTOCOMMIT,
            SQLITE_MEMORY,
            "psycopg.connect",
            "psycopg2.connect",
            "pymysql.connect",
            "mysql.connector.connect",
        )
    },
    # A SQLite connection's ``execute`` returns the cursor it ran the statement on: its
    # ``fetchall`` reads that statement's rows (``cursor = conn.execute(sql)``).
    **{
        f"{connect}.{method}()": connect
        for connect in ("sqlite3.connect", SQLITE_AUTOCOMMIT, SQLITE_MEMORY)
        for method in ("execute", "executemany", "executescript")
    },
    "pinecone.Pinecone.Index()": "pinecone.Pinecone.Index",
    "pinecone.grpc.PineconeGRPC.Index()": "pinecone.grpc.PineconeGRPC.Index",
    "pinecone.data.Index": "pinecone.Index",
    "redis.Redis.pipeline()": "redis.client.Pipeline",
    "redis.client.Redis": "redis.Redis",
    **{f"pymongo.MongoClient.{method}()": "pymongo.MongoClient" for method in _MONGO_HANDLES},
    **{name: "pymongo.MongoClient" for name in ("pymongo.database.Database", "pymongo.collection.Collection")},
    **{f"boto3.resource.{kind}()": f"boto3.resource.{kind}" for kind in _BOTO3_SUBRESOURCES if kind != "meta"},
    **{f"google.cloud.storage.Client.{method}()": "google.cloud.storage.Bucket" for method in ("bucket", "get_bucket")},
    **{f"google.cloud.storage.Bucket.{method}()": "google.cloud.storage.Blob" for method in ("blob", "get_blob")},
    # Annotated parameters name the class; the catalogue names the factory that made it.
    **{name: "builtins.open" for name in "typing.IO typing.TextIO typing.BinaryIO io.FileIO".split()},
    **{f"sqlite3.{cls}": "sqlite3.connect" for cls in ("Connection", "Cursor")},
    **{f"psycopg.{cls}": "psycopg.connect" for cls in ("Connection", "Cursor")},
    **{f"psycopg2.extensions.{cls}": "psycopg2.connect" for cls in ("connection", "cursor")},
    "PIL.Image.Image": "PIL.Image.open",
    # An image's transforms return a new image: ``Image.open(b).convert("RGB")`` is resized and saved.
    **{
        f"PIL.Image.open.{method}()": "PIL.Image.open"
        for method in "convert resize rotate crop copy transpose filter quantize reduce".split()
    },
    **{
        f"PIL.ImageOps.{function}()": "PIL.Image.open"
        for function in "grayscale autocontrast equalize invert fit pad contain cover exif_transpose".split()
    },
    "boto3.Session": "boto3.session.Session",
    "boto3.session.Session.client()": "boto3.client",
    "boto3.session.Session.resource()": "boto3.resource",
    **{
        f"concurrent.futures.{executor}.submit()": "concurrent.futures.Future"
        for executor in ("ThreadPoolExecutor", "ProcessPoolExecutor", "Executor")
    },
    "asyncio.run_coroutine_threadsafe()": "concurrent.futures.Future",
    "multiprocessing.pool.Pool": "multiprocessing.Pool",
    "asyncio.get_event_loop()": "asyncio.AbstractEventLoop",
    # A text's own transforms give a text (``sp.N(answer.strip())`` is handed a str, see ``heavier_on``).
    **{f"builtins.str.{method}()": "builtins.str" for method in _TEXT_TRANSFORMS.split()},
    # A path built by ``os.path`` is a text, which every reader of a path takes as one
    # (``np.loadtxt(os.path.join(here, "data.txt"))`` opens the file: see ``blocks_on``).
    **{f"os.{name}()": "builtins.str" for name in _PATH_TEXTS.split()},
    # What sympy's parsers and algorithms give is an expression, whose methods are graded by its entries
    # (``parse_expr(text).simplify()`` simplifies, ``sympify(text).evalf()`` evaluates).
    **{f"{function}()": SYMPY_EXPR for function in _SYMPY_PRODUCERS},
    **{f"{SYMPY_EXPR}.{method}()": SYMPY_EXPR for method in _SYMPY_EXPR_METHODS.split()},
    "asyncio.get_running_loop()": "asyncio.AbstractEventLoop",
    **PACK_RETURNS,
}

#: Calls returning an object (a file, an archive, a temporary file) whose own methods and
#: iteration then do the I/O. Offloading such a call alone would leave that I/O on the loop and
#: hide it from the analysis, which does not follow the object through ``to_thread``: the
#: to-thread fix takes one only with its use in the same expression (``open(p).read()``), and a
#: ``with`` block is moved off the loop whole.
OPENERS: frozenset[str] = frozenset(
    (
        "builtins.open io.open codecs.open gzip.open bz2.open lzma.open os.fdopen pathlib.Path.open "
        "tarfile.open tarfile.TarFile zipfile.ZipFile tempfile.NamedTemporaryFile tempfile.TemporaryFile "
        "tempfile.SpooledTemporaryFile shelve.open dbm.open"
    ).split()
)

#: The openers of an archive whose member calls in the opening function are graded by what it is
#: opened on (analysis.index.fileobjects: the opener's payload carried to them).
ARCHIVE_OPENERS: frozenset[str] = frozenset({"tarfile.open", "tarfile.TarFile", "zipfile.ZipFile"})

#: The openers of a file object whose reads and writes in the opening function are its opener's
#: finding (analysis.index.fileobjects: one finding per file object). An archive's members
#: extracted to or added from a path (``extractall``, ``add``) touch other files: reported on their
#: own lines.
FILE_OPENERS: frozenset[str] = OPENERS - {
    "tarfile.open",
    "tarfile.TarFile",
    "zipfile.ZipFile",
    "shelve.open",
    "dbm.open",
}

#: Methods by which an object the index types only project-wide (``cache_path(key).open()``, a
#: project function's ``Path``) may open a file object: tied to its contents as a file opener's,
#: which they are once the graph resolves the receiver (rules.context.CheckContext._opened_by_use).
FILE_OPENER_METHODS: frozenset[str] = frozenset({"open"})
#: What such an ``open`` is when nothing types its receiver (a library the environment does not
#: install: ``weights.resolve(...).open("rb")``) but a catalogued reader or writer is handed its object
#: (``hashlib.file_digest(handle)``, ``json.load(f)``): a file object, opened as a path opens one.
OPENED_BY_USE = "pathlib.Path.open"
#: A file object's methods that fill its buffer, and those that write the buffer out: a write the
#: next statement flushes is that flush's I/O, reported once at the flush (analysis.index.fileobjects).
BUFFERED_WRITES: frozenset[str] = frozenset({"write", "writelines"})
BUFFER_FLUSHES: frozenset[str] = frozenset({"flush"})
#: Builtins that hand out each item of the iterable they wrap inside a tuple, as written (the walk
#: of file objects reads names, not types): name -> (the tuple's length, the item's place in it).
#: ``for index, line in enumerate(f)`` reads the lines of ``f`` as ``for line in f`` does.
ITEM_WRAPPERS: dict[str, tuple[int, int]] = {"enumerate": (2, 1)}

#: A file object's method giving its descriptor: a call handed it (``os.fsync(f.fileno())``) works on that
#: file, one of the object's content calls (split 30 datalox verifiers_env.py:84, folded into its opener).
FILE_DESCRIPTORS: frozenset[str] = frozenset({"fileno"})

#: The keywords a call of the ``subprocess`` category hands a file object to the child by
#: (``subprocess.run(cmd, stdin=open(p))``): the child reads or writes it, the parent only opens it.
CHILD_STREAMS: frozenset[str] = frozenset({"stdin", "stdout", "stderr"})

#: Last names of the ``tempfile`` calls whose ``with`` block works in a temporary file or
#: directory: the ``with-block`` recipe names the helper it moves such a block into ``_use_...``.
TEMP_FILE_MAKERS = frozenset(
    {"NamedTemporaryFile", "TemporaryFile", "SpooledTemporaryFile", "TemporaryDirectory", "mkdtemp"}
)

#: Last names of the calls that write a file's contents, read by name alone (the walk's disk-cache
#: test, analysis.index.diskcache): a body that calls one after a cache reader found nothing
#: fills the cache. ``open`` writes only in a writing mode (``diskcache.WRITE_MODES``).
FILE_WRITES: frozenset[str] = frozenset(
    (
        "write_text write_bytes NamedTemporaryFile dump save savez savez_compressed to_json to_csv "
        "to_parquet to_pickle save_pretrained save_to_disk copyfile copy copy2 copytree urlretrieve "
        "download_file hf_hub_download snapshot_download"
    ).split()
)

#: The calls that delete a file or a tree, by qualified name: a body that deletes what it wrote
#: before it returns keeps no cache (a scratch directory cleaned up per call). Matched as the module
#: spells them after its imports (``os.remove``, ``rmtree`` from ``shutil``), never by the last name
#: alone: ``pending.remove(key)`` of a list or ``entries.pop(key)`` of a dict deletes no file.
FILE_DELETES: frozenset[str] = frozenset(
    {
        "os.remove",
        "os.unlink",
        "os.rmdir",
        "os.removedirs",
        "shutil.rmtree",
        "pathlib.Path.unlink",
        "pathlib.Path.rmdir",
    }
)
#: Of those, the methods a receiver the syntax does not type deletes by (``work.unlink()`` of a path a
#: caller hands): ``pathlib.Path``'s, which no builtin collection has a method of that name for.
FILE_DELETE_METHODS: frozenset[str] = frozenset({"unlink", "rmdir"})

#: What iterating over an instance yields, when that is worth tracking.
ITEMS: dict[str, str] = {
    "pathlib.Path.iterdir()": "pathlib.Path",
    "pathlib.Path.glob()": "pathlib.Path",
    "pathlib.Path.rglob()": "pathlib.Path",
    "builtins.open": "builtins.str",
    **PACK_ITEMS,
}
#: Calls (written with ``()``, as in :data:`RETURNS`) whose result holds at most this many items whatever
#: the data it comes from (one answer's components): a loop over one runs a fixed few times, so it does
#: not raise the grade of what it repeats (``analysis.index.literals.few_iterations``).
FEW_RESULTS: dict[str, int] = {**PACK_FEW_RESULTS}
#: The methods whose results :data:`ITEMS` types the items of (``iterdir()``), by name.
ITEM_METHODS = frozenset(name.rpartition(".")[2] for name in ITEMS if name.endswith("()"))
#: :data:`~asynclint.knowledge.costs.SAME_ITEM_BUILTINS` as resolved names, so a loop over
#: ``sorted(root.rglob("*.py"))`` yields what :data:`ITEMS` says ``rglob`` yields (a ``Path``).
ITEM_KEEPERS: frozenset[str] = frozenset(f"builtins.{name}" for name in SAME_ITEM_BUILTINS)

#: Classes of a file object that an annotation names (``fp: io.TextIOWrapper``: the object ``open``
#: gives) but whose constructor only wraps a stream it is handed: ``io.TextIOWrapper(raw)`` opens
#: nothing, its reads are the wrapped stream's (a zip member's, a child's pipe). Only annotations
#: take the alias (analysis.index.inference ``annotation_type``); a call keeps the class's name.
WRAPPED_STREAMS: dict[str, str] = {
    name: "builtins.open" for name in "io.TextIOWrapper io.BufferedReader io.BufferedWriter io.BufferedRandom".split()
}

#: Constructors and factories whose instance is typed by one argument's value: callable -> (the
#: parameter's keyword, its position or ``None`` when only a keyword passes it, {the value as
#: written -> the type of what is built}). A value is a qualified name
#: (``tau_bench.types.RESPOND_ACTION_NAME``) or the ``repr`` of a constant (``'respond'``); a key
#: ending in ``*`` is a prefix of such a ``repr`` (``"'NetHack*"``: any id starting so), or the
#: type of the object passed (``OpenAIEmbeddingFunction(...)``); the key ``""`` names what the
#: argument's default builds, when the call does not pass it. Any other value builds the
#: callable's usual type. Entries whose ``blocks_on`` names such a type block
#: only when handed one; a call building a type that has an entry of its own (a constructor) is
#: graded as that construction.
BUILT: dict[str, tuple[str, int | None, dict[str, str]]] = {
    # ``isolation_level=None``: no transaction is opened before a write, every statement commits.
    "sqlite3.connect": ("isolation_level", 3, {"None": SQLITE_AUTOCOMMIT}),
    **REQUEST_METHODS,
    **PACK_BUILT,
}
#: Arguments that, when written, decide what a :data:`BUILT` callable builds before its own
#: argument does, in order: callable -> ((keyword, its position or ``None``, {the value as written
#: -> the type, "" for the callable's usual type}), ...); any other value leaves it to the next,
#: then to BUILT's argument. ``sqlite3.connect(":memory:")`` opens a database in memory, whatever
#: mode its transactions take (nothing is synced); Python 3.12's ``autocommit=True`` is autocommit
#: mode and ``autocommit=False`` never is, whatever ``isolation_level`` says; the default
#: (``sqlite3.LEGACY_TRANSACTION_CONTROL``) leaves it to ``isolation_level``.
BUILT_FIRST: dict[str, tuple[tuple[str, int | None, dict[str, str]], ...]] = {
    "sqlite3.connect": (
        ("database", 0, {"':memory:'": SQLITE_MEMORY}),
        ("autocommit", None, {"True": SQLITE_AUTOCOMMIT, "False": ""}),
    ),
}

#: Libraries' registries of environments by id (:class:`~asynclint.knowledge.api.IdRegistry`): a
#: registering callable -> its registry, and a maker -> its registry.
REGISTERS: dict[str, IdRegistry] = {name: r for r in PACK_REGISTRIES.values() for name in r.registers}
MAKERS: dict[str, IdRegistry] = {name: r for r in PACK_REGISTRIES.values() for name in r.makers}

#: Library base classes whose project subclasses are typed as the base: an attribute the
#: project's own classes do not define is the library's (``class MyLLM(BaseChatModel)``: its
#: ``invoke`` is ``BaseChatModel.invoke``). Only these: for any other base the analysis does not
#: guess what an inherited method does.
SUBCLASSED: frozenset[str] = PACK_SUBCLASSED

#: Library method -> the methods of its receiver it runs (``BlockingApi.runs``): called on an
#: instance of a project subclass, the subclass's overrides of them run there too.
RUNS_RECEIVER: dict[str, frozenset[str]] = PACK_RUNS

#: Library function -> the library module attributes it calls (``BlockingApi.calls_attributes``):
#: a project function assigned to one of them runs where the library function is called.
CALLS_ATTRIBUTES: dict[str, frozenset[str]] = PACK_CALLS_ATTRIBUTES

#: ``with X() as v``: types whose ``__enter__`` returns something other than the instance.
ENTER_RETURNS: dict[str, str | None] = {
    "tempfile.TemporaryDirectory": "builtins.str",
    "tempfile.TemporaryDirectory.__enter__": "builtins.str",
    **PACK_ENTER_RETURNS,
}
#: Objects that run the ``__exit__`` of what is entered on them where their own ``with`` block ends:
#: ``stack.enter_context(tempfile.TemporaryDirectory())`` on a stack that is a ``with`` item is
#: undone there, like the ``with`` form (``bench/bench_fs_costs.py``: the same 4 ms for 20 files).
EXIT_STACKS: frozenset[str] = frozenset({"contextlib.ExitStack", "contextlib.AsyncExitStack"})
#: Their methods that enter the object handed to them -> whether that is awaited (``__aenter__``).
ENTERING_METHODS: dict[str, bool] = {"enter_context": False, "enter_async_context": True}

#: Statements that change what the connection running them is: its type -> (the statement's first
#: keywords, the type it then is). An in-memory SQLite connection that runs ``ATTACH DATABASE 'x.db'
#: AS x`` (or ``ATTACH ? AS x`` with a path) reads and writes that file through every later
#: statement and commit (https://www.sqlite.org/lang_attach.html): a file-backed connection, as
#: ``sqlite3.connect("x.db")`` opens one (analysis.index.recording: the name or the ``self``
#: attribute holding it, from the ATTACH on; what a factory returns after it).
REBUILT_BY_STATEMENT: dict[str, tuple[frozenset[str], str]] = {
    SQLITE_MEMORY: (frozenset({"ATTACH"}), "sqlite3.connect"),
}

#: Attributes whose assignment switches the mode of an object already built: type -> {(attribute,
#: the value as written) -> the type it is from then on}. ``conn.isolation_level = None`` (or
#: Python 3.12's ``conn.autocommit = True``) puts a sqlite3 connection in autocommit mode; a
#: transaction mode written back (``conn.isolation_level = "DEFERRED"``) takes it out.
MODE_SWITCHES: dict[str, dict[tuple[str, str], str]] = {
    "sqlite3.connect": {("isolation_level", "None"): SQLITE_AUTOCOMMIT, ("autocommit", "True"): SQLITE_AUTOCOMMIT},
    SQLITE_AUTOCOMMIT: {
        **{
            ("isolation_level", level): "sqlite3.connect"
            for level in ("''", "'DEFERRED'", "'IMMEDIATE'", "'EXCLUSIVE'")
        },
        ("autocommit", "False"): "sqlite3.connect",
    },
}

#: Where an installed tree starts: a directory walk rooted at one of these, or at a path built
#: from one, or from an installed module's ``__file__``/``__path__`` (a library's or the standard
#: library's, never the project's own ``__file__``), goes over thousands of files (cost class
#: ``disk-walk-installed``). A walk of any other root -- a workspace the project fills per rollout,
#: a data directory it ships -- is taken as small: no labelled walk of the corpora says otherwise.
INSTALLED_ROOTS: frozenset[str] = frozenset(
    {
        "sys.prefix",
        "sys.base_prefix",
        "sys.exec_prefix",
        "sys.base_exec_prefix",
        "sys.path",
        "site.getsitepackages",
        "site.getusersitepackages",
        "sysconfig.get_paths",
        "sysconfig.get_path",
        "importlib.resources.files",
        "importlib_resources.files",
    }
)
#: Module attributes that name where an installed module lies.
MODULE_LOCATIONS: frozenset[str] = frozenset({"__file__", "__path__"})
#: Walks that descend into every subdirectory whatever their pattern says.
TREE_WALKS: frozenset[str] = frozenset({"pathlib.Path.rglob", "pathlib.Path.walk", "os.walk"})
#: Walks that descend only for :data:`RECURSIVE_PATTERN` in their pattern (their first argument),
#: by the keyword that must also be written ``True`` for them to ("" when none):
#: ``Path(d).glob("**/*.py")`` descends, ``glob.glob("d/**/*.py")`` only with ``recursive=True``.
#: A walk in neither table (a configured one) is read as ``glob.glob`` is.
PATTERN_WALKS: dict[str, str] = {"pathlib.Path.glob": "", "glob.glob": "recursive", "glob.iglob": "recursive"}
RECURSIVE_PATTERN = "**"
#: Walks whose root is the path they are called on (``Path(d).rglob("*")``), not their first argument.
RECEIVER_WALKS: frozenset[str] = frozenset({"pathlib.Path.glob", "pathlib.Path.rglob", "pathlib.Path.walk"})

#: Waits for a descriptor to be ready, by the position and the keyword of their timeout argument:
#: a timeout of 0 asks whether the descriptors are ready and returns at once -- a poll, not a wait
#: (cost class ``descriptor-poll``; 15 µs measured on an empty pipe).
WAIT_TIMEOUTS: dict[str, tuple[int, str]] = {
    "select.select": (3, "timeout"),
    "select.poll.poll": (0, "timeout"),
    "select.epoll.poll": (0, "timeout"),
    "selectors.DefaultSelector.select": (0, "timeout"),
}
#: A timeout, as written, that makes such a wait a poll.
ZERO_TIMEOUTS: frozenset[str] = frozenset({"0", "0.0"})
#: The waits whose first argument lists the objects waited for (``select.select([proc.stdout],
#: ...)``), and the reads that, made on one of those objects after the wait, take what is already
#: in the pipe: the child has begun writing its line, the wait was the select's (cost class
#: ``ready-read``). ``read()`` is not one: it waits for the child to close the pipe.
READY_WAITS: frozenset[str] = frozenset({"select.select"})
READY_READS: frozenset[str] = frozenset({"readline"})
