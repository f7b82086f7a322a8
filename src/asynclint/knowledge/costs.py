"""The cost model: what a blocking call costs (its cost class) and how the evidence about its
payload moves it; the grade of a finding is its cost class raised by how often it really runs.

A cost class is named by the knowledge entry (``BlockingApi.cost``), or follows from its
category (:data:`CATEGORY_COSTS`). Classes whose cost depends on the size of what is passed
(serializing, parsing, copying) are *payload-graded*: the argument's shape and name decide
(:func:`payload_cost`). Numbers in the reasons were measured on the 2-core machines this
project runs on (``shared/FIELD_GUIDE.md``); a worker-thread hop costs about 41 µs, so a call
cheaper than that is not worth reporting at all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from asynclint.knowledge.frameworks import FRAMEWORK_MAPPINGS, FREQUENT
from asynclint.model import Severity

C, H, M, L = Severity.CRITICAL, Severity.HIGH, Severity.MEDIUM, Severity.LOW


#: What raises a grade: running inside a loop, and the frequencies of a root that repeat.
REPETITIONS: frozenset[str] = FREQUENT | {"loop", "search"}


@dataclass(frozen=True)
class CostClass:
    name: str
    #: The grade of one call; ``None``: cheaper inline than any way of moving it off the loop.
    severity: Severity | None
    #: The repetitions that raise the grade one level (of :data:`REPETITIONS`): where the cost
    #: adds up. Microsecond costs stay microseconds, however often they run (empty).
    raised_by: frozenset[str]
    reason: str
    #: What the call does, when that says more than its category's words ("does disk I/O").
    what: str = ""
    #: Why only some repetitions raise it, for the docs ("" when every one does, or none).
    raised_why: str = ""


#: A bounded local cost (a small file, one keyed row) adds up only where the calls run back to
#: back in one step of the loop: a sync reward for every rollout of a group. Once per turn or per
#: tool call it is a stall of milliseconds between two model calls of seconds, as it is once per
#: rollout; a loop inside one step writes the few files that step has.
_BACK_TO_BACK = frozenset({"group", "search"})
_BOUNDED = "back to back for a group only: a few ms each, the stall does not grow per turn or tool call"
#: A byte codec over one file's contents (``payload-whole-codec``) adds up where calls repeat back to back.
_CODEC_REPEATS = frozenset({"group", "loop"})

COST_CLASSES: dict[str, CostClass] = {
    cost.name: cost
    for cost in (
        CostClass("sleep", C, REPETITIONS, "sleeps the whole thread for as long as asked"),
        CostClass("network", C, REPETITIONS, "waits on a remote host: tens of milliseconds to seconds, unbounded"),
        CostClass("child-process", C, REPETITIONS, "waits for a child process: as long as the child runs"),
        CostClass("thread-wait", C, REPETITIONS, "waits for another thread or process: unbounded"),
        # A child's pipe and a descriptor wait, as the code around them settles it
        # (``knowledge.blocking.READY_READS``, ``WAIT_TIMEOUTS``; ``bench/bench_fs_costs.py``).
        CostClass(
            "ready-read",
            L,
            frozenset(),
            "reads a line a `select` just found in the pipe: the wait was the select's, the read copies "
            "what the child has begun writing (27 µs measured, less than a thread hop), unless the line is "
            "still being written",
            what="reads a line a `select` found ready",
        ),
        CostClass(
            "descriptor-poll",
            L,
            frozenset(),
            "a zero timeout: asks whether descriptors are ready and returns at once, a poll, not a wait "
            "(15 µs measured)",
            what="polls descriptors without waiting",
        ),
        CostClass(
            "process-start",
            M,
            REPETITIONS,
            "forks and execs a child process: about a millisecond",
            what="starts a child process (a fork and an exec)",
        ),
        # Measured by ``bench/bench_thread_start.py`` on the loaded 2-core machine: ``Thread.start()``
        # 0.3 ms (1.5 ms in a busy round; it waits for the new thread to signal it runs), a new
        # selector loop 0.09 ms (0.07 ms more to close it), a ``to_thread`` hop 0.16 ms. Moving either
        # to a worker thread saves nothing: the fix is one thread or loop kept for the process.
        CostClass(
            "thread-start",
            L,
            frozenset({"loop"}),
            "starts an OS thread and waits until it runs: about 0.3 ms (1.5 ms on a busy machine), "
            "not worth a thread hop, but a thread per rollout or per call is work a long-lived one "
            "does once",
            what="starts an OS thread (and waits until it runs)",
            raised_why="in a loop of starts only: one start per rollout or turn is a fraction of a millisecond",
        ),
        CostClass(
            "loop-build",
            L,
            frozenset(),
            "builds an event loop: an epoll instance and a self-pipe socket pair, about 0.1 ms (as "
            "much again to close it), no cheaper in a worker thread; a loop per rollout is work one "
            "loop kept for the process does once",
            what="builds a new event loop (an epoll instance, a self-pipe socket pair)",
        ),
        CostClass(
            "disk-content",
            H,
            _BACK_TO_BACK,
            "reads, writes, copies or deletes file contents: milliseconds on a local disk",
            raised_why=_BOUNDED,
        ),
        CostClass(
            "local-store",
            H,
            REPETITIONS,
            "queries a local database or in-process store: disk and CPU, unbounded for a statement built at run time",
            what="queries a local database or in-process store",
        ),
        # chromadb's in-process client (``chromadb/api/rust.py``: each call is one call into its Rust
        # bindings over the local SQLite database and the collection's segment files); keyed calls
        # embed nothing (``CollectionCommon._validate_and_prepare_get_request``/``_delete_request``).
        CostClass(
            "local-records",
            H,
            _BACK_TO_BACK,
            "reads, writes or deletes the records it names (ids, a metadata filter, a count, a collection's "
            "entry) in an in-process store's local SQLite database and segment files, embedding nothing: local "
            "disk I/O bounded by the records named, as a keyed row of a local database",
            raised_why=_BOUNDED,
            what="reads or writes the named records of an in-process vector store",
        ),
        # chromadb's default embedding function (``utils/embedding_functions/onnx_mini_lm_l6_v2.py``):
        # MiniLM run by onnxruntime on the local CPU, a few ms per short text, then the local store.
        CostClass(
            "local-embed",
            H,
            frozenset({"group", "loop"}),
            "embeds the texts it is given with the collection's local embedding model (chromadb's default: "
            "MiniLM on onnxruntime, a few ms per short text on the CPU), then searches or writes the in-process "
            "store: bounded by the texts given, no network",
            raised_why="back to back for a group or in a loop: ms to tens of ms per call, the stall does not grow "
            "per turn or tool call",
            what="embeds texts with a local model and searches or writes an in-process vector store",
        ),
        CostClass(
            "local-lookup",
            H,
            _BACK_TO_BACK,
            "a fixed statement reading rows of one table by key: sub-ms to ms of disk I/O",
            raised_why=_BOUNDED,
            what="reads rows of a local database by key",
        ),
        # Fixed SQLite statements that write no page to disk themselves (``bench/bench_fs_costs.py``
        # times them beside a thread hop, 146 µs on a loaded run, and the commit that does write).
        # A connection opened in autocommit mode (``isolation_level=None``) commits every row it
        # writes, a sync each (16 ms measured): graded by AUTOCOMMIT_GRADES.
        CostClass(
            "local-schema",
            L,
            frozenset(),
            "a fixed `CREATE ... IF NOT EXISTS`: a lookup in the schema when the table exists, no write "
            "(82 µs measured, less than a thread hop); it writes only the first time, and the commit carries that",
            what="checks a local database's schema",
        ),
        CostClass(
            "local-row-write",
            L,
            frozenset(),
            "one row written by key into the transaction Python's sqlite3 opens before a write: pages changed "
            "in memory, tens to hundreds of µs; the commit writes and syncs them (20 rows: 19 ms measured) "
            "and is graded as content I/O",
            what="writes one row of a local database into its open transaction",
        ),
        # An in-memory database (``sqlite3.connect(":memory:")``, knowledge/blocking.py's SQLITE_MEMORY):
        # nothing is read from or synced to disk. Measured on this project's 2-core machine: opening one
        # 27 µs, a pragma 1.5 µs, a commit 0.03 µs, one row inserted 6 µs, a ``CREATE TABLE`` 30-110 µs.
        CostClass(
            "memory-db",
            None,
            frozenset(),
            "opens, commits or sets a pragma of an in-memory database: no disk, microseconds (27 µs to open one), "
            "less than a thread hop",
            what="works on an in-memory database",
        ),
        CostClass(
            "memory-schema",
            L,
            frozenset(),
            "changes the schema of an in-memory database (`CREATE TABLE`): no disk, 30-110 µs measured, about a "
            "thread hop",
            what="changes an in-memory database's schema",
        ),
        CostClass(
            "memory-row-write",
            L,
            frozenset({"group", "loop"}),
            "one row written by key into an in-memory database: 6 µs measured, no disk; a row per item of a "
            "loop adds up (a thousand rows: milliseconds)",
            raised_why="inside a loop or back to back for a group: microseconds each, adding up only with the rows",
            what="writes one row of an in-memory database",
        ),
        # A script passed in run on an empty in-memory database (FILLED_SCRIPT): a few ``CREATE TABLE``
        # (30-110 µs each) and the rows it inserts (6 µs each), whatever its text: no disk, nothing to scan.
        CostClass(
            "memory-fill",
            L,
            frozenset({"group", "loop"}),
            "creates and fills the tables of an empty in-memory database from a script: no disk, nothing to "
            "scan, CPU that grows with the script (~0.1 ms to a few ms for a task's schema and seed rows)",
            raised_why="back to back for a group or in a loop: a few ms at most each, the stall does not grow per "
            "turn or tool call",
            what="creates and fills an in-memory database from a script",
        ),
        CostClass(
            "client-build",
            H,
            REPETITIONS,
            "builds a TLS context and a connection pool: about 60 ms",
            what="builds a client (TLS context, connection pool)",
        ),
        # docker-py's client asks the daemon its API version when built (docker/api/client.py
        # ``_retrieve_server_version``) and ``attach_socket`` sends one upgrade request: one reply
        # from a daemon on this machine, over its Unix socket, whatever the containers do.
        CostClass(
            "daemon-call",
            H,
            _BACK_TO_BACK,
            "one request to a daemon on this machine over its socket, answered without waiting on any "
            "work: a few milliseconds",
            what="makes one round trip to a local daemon",
            raised_why=_BOUNDED,
        ),
        # requests builds nothing costly at construction (0.012 ms measured, session 26): its adapter
        # makes the TLS context and loads the CA bundle for each new connection, so a session built
        # per call pays that at its first request to a host, where a shared one pays it once.
        CostClass(
            "session-build",
            H,
            REPETITIONS,
            "builds a session whose connection pool starts empty: its first request to each host then "
            "builds a TLS context and loads the CA bundle (tens of ms), which a session kept for the run "
            "pays once per host",
            what="builds an HTTP session (a TLS context at each new connection's first request)",
        ),
        CostClass(
            "driver-command",
            H,
            REPETITIONS,
            "one command to a driver process on this machine that no page "
            "load or network wait holds up (a setting, a short script): "
            "a localhost round trip of milliseconds",
            what="sends a quick command to the local browser driver",
        ),
        CostClass(
            "disk-metadata",
            L,
            frozenset(),
            "one metadata syscall (exists, stat, mkdir, unlink): microseconds on a local disk",
            what="makes a filesystem metadata call",
        ),
        # Measured by ``bench/bench_fs_costs.py`` (pathlib's walk is the slowest, ``os.walk`` the
        # fastest). No labelled walk of the accuracy splits covers a large tree; a walk the code
        # roots in an installed tree (knowledge.blocking.INSTALLED_ROOTS) is disk-walk-installed.
        CostClass(
            "disk-walk",
            L,
            frozenset({"loop"}),
            "walks a directory tree: one listing per directory and a name test per entry, no file "
            "contents (120 entries: 0.2-1.2 ms measured; 2,000 files: 24 ms); the reads of what it "
            "finds are graded where they are made",
            what="walks a directory tree (listings, no file contents)",
            raised_why="in a loop of walks only: one walk per turn or tool call is one short stall",
        ),
        CostClass(
            "disk-walk-installed",
            H,
            _BACK_TO_BACK,
            "walks an installed tree (site-packages, the interpreter's prefix, a library's package "
            "directory): thousands of files, a listing per directory and a name test per entry (2,000 "
            "files: `os.walk` 1.3 ms, `Path.rglob` 12 ms, `glob.glob('**')` 21 ms measured)",
            what="walks an installed directory tree (thousands of files)",
            raised_why=_BOUNDED,
        ),
        CostClass(
            "stream-read",
            H,
            _BACK_TO_BACK,
            "reads the body of a reply a library call returned as a lazy stream (a file's tar or a "
            "command's output from the docker daemon, a download requested with `stream=True`) as the "
            "loop reads it: the request's wait was the call's, the body is a file's contents or a "
            "download, milliseconds and more from a local daemon or a remote host",
            what="returned a stream that is read",
            raised_why=_BOUNDED,
        ),
        CostClass(
            "lazy-open",
            L,
            frozenset(),
            "reads a header only; decoding happens on first use",
            what="opens a file and reads its header",
        ),
        CostClass(
            "archive-open",
            L,
            frozenset(),
            "opens an archive: reads its header or a zip's central directory, "
            "or creates the file to write; its members' reads and writes do "
            "the I/O",
            what="opens an archive on disk",
        ),
        CostClass(
            "archive-memory",
            None,
            frozenset(),
            "an archive on a buffer in memory (`io.BytesIO`): opening it or reading and writing its members "
            "does no I/O, microseconds for a header or a small member",
        ),
        CostClass("cpu-heavy", M, REPETITIONS, "CPU work holding the GIL: milliseconds to seconds"),
        CostClass(
            "image-small",
            L,
            frozenset(),
            "encodes an image the source builds at a small literal size (at most 128x128 pixels): about a "
            "millisecond, which does not add up to a stall between two model calls",
            what="encodes a small image",
        ),
        # knowledge/packs/json_schemas.py and sql_parsers.py: measured on this project's 2-core machine.
        CostClass(
            "schema-validate",
            M,
            _BACK_TO_BACK,
            "checks a JSON schema against its metaschema, then validates an instance against it, in pure Python "
            "(jsonschema's `validate`, `check_schema`): 3.3 ms for a four-property schema, every call",
            raised_why="back to back for a group only: milliseconds each, a stall between model calls elsewhere",
            what="checks a JSON schema and validates an instance against it",
        ),
        CostClass(
            "schema-walk",
            L,
            frozenset(),
            "validates an instance with a validator already built (jsonschema's `iter_errors`, `is_valid`, "
            "`validate`): a walk of the schema for every part of the instance, 45 µs for a four-property schema "
            "and a small object, milliseconds for a large schema's `$ref`s; the schema's size is not known here",
            what="validates an instance against a JSON schema",
        ),
        CostClass(
            "sql-parse",
            L,
            _BACK_TO_BACK,
            "parses SQL in pure Python (sqlglot's tokenizer and parser): 0.75-1.2 ms for a 150-character "
            "`SELECT`, 2.5 ms to transpile it, growing with the statement's length",
            raised_why=_BOUNDED,
            what="parses SQL",
        ),
        CostClass(
            "cpu-light",
            L,
            frozenset(),
            "a short step over small in-memory data (one tool run against an "
            "in-memory database, a few short `eval`s): tens of µs to a "
            "millisecond",
            what="runs a short step of CPU work while holding the GIL",
        ),
        # PDFs parsed in pure Python (knowledge/packs/documents.py): pypdf 7.1.1 on this machine,
        # once, a 260 KB 36-page manual: the reader built in 16 ms, its page tree counted in
        # 49 ms, one page's text extracted in 19 ms.
        CostClass(
            "document-parse",
            H,
            REPETITIONS,
            "parses a PDF in pure Python while holding the GIL (the whole file read, its "
            "cross-reference table, page tree or a page's content stream): tens of milliseconds "
            "per document or page",
            what="parses a PDF in pure Python",
        ),
        # Modules run by importlib (knowledge/packs/interpreters.py), timed once here (CPython
        # 3.11): ``spec_from_file_location`` + ``exec_module`` of a 12 KB module 0.09 ms, of a
        # 124 KB one 1.6 ms, every call; ``import_module`` of an imported module 2 us.
        CostClass(
            "module-exec",
            H,
            _BACK_TO_BACK,
            "reads a module's code from disk (its source, or bytecode cached beside it) and runs its "
            "top level again, every call: sub-ms to milliseconds, more when its imports are new",
            what="reads a module's code from disk and runs it",
            raised_why=_BOUNDED,
        ),
        CostClass(
            "module-import",
            L,
            frozenset(),
            "imports a module by name: the first call in a process reads and runs it, every later "
            "one finds it in `sys.modules` (microseconds)",
            what="imports a module (loaded once per process)",
        ),
        # A resource a library keeps per process once built (tiktoken's encodings,
        # knowledge/packs/tokenizers.py): the first call per name reads, maybe downloads, and parses it.
        CostClass(
            "load-once",
            L,
            frozenset(),
            "loads a resource the library keeps for the process: the first call per name reads it from a "
            "disk cache (downloads it on a fresh machine) and parses it, hundreds of milliseconds; every "
            "later one returns the kept object (microseconds)",
            what="loads a resource (kept for the process after the first call)",
        ),
        # Experiment trackers (knowledge/packs/trackers.py): wandb hands each record to its own
        # service process over a local socket and waits for the write.
        CostClass(
            "service-record",
            L,
            frozenset(),
            "encodes a record and hands it to a local service process over a socket, waiting for the "
            "write: sub-millisecond, longer when the service falls behind; media (a table, an image) "
            "are written to files of the run first",
            what="hands a record to the tracker's service process",
        ),
        # Simulators stepped in process (knowledge/packs/simulators.py): a native engine loaded
        # per instance, a world generated per episode, one step of native code per action.
        CostClass(
            "engine-start",
            C,
            REPETITIONS,
            "starts an emulator or game engine in process: copies and loads its shared library "
            "into a fresh working directory, reads its data files and builds the first state: "
            "hundreds of milliseconds",
            what="starts an emulator or game engine",
        ),
        # tau2's evaluate_simulation (knowledge/packs/agent_harnesses.py): retail's 2.8 MB
        # db.json loaded in 0.34 s and hashed in 0.26 s, twice a call, ~1.5 s in all on the
        # loaded 2-core machine. Labelled critical on every split that has it (2, 3, 19, 20).
        CostClass(
            "environment-rebuild",
            C,
            REPETITIONS,
            "rebuilds a benchmark's domain environments from their data files (each database loaded "
            "and validated), replays a trajectory into them and hashes them: hundreds of milliseconds "
            "to seconds per call",
            what="rebuilds a benchmark's domain environments from disk and replays the trajectory into them",
        ),
        CostClass(
            "engine-build",
            H,
            REPETITIONS,
            "builds a simulator the project drives by `reset`/`step`, from a package the "
            "analysis cannot read: an engine of unknown size, tens of milliseconds and up",
            what="builds a simulator",
        ),
        CostClass(
            "engine-reset",
            H,
            REPETITIONS,
            "starts a new episode of a simulator: generates its world (a NetHack dungeon: tens of milliseconds)",
            what="starts a new episode of a simulator",
        ),
        CostClass(
            "engine-step",
            L,
            frozenset({"loop"}),
            "one step of a simulator's engine: native code and its observation arrays, about a "
            "tenth of a millisecond; a loop of steps adds up to milliseconds",
            what="steps a simulator",
            raised_why="in a loop of steps only: one step per turn or tool call stays sub-millisecond",
        ),
        CostClass(
            "matrix-exponential",
            M,
            REPETITIONS,
            "dense linear algebra on a matrix whose side is a power of two of an input (an eigendecomposition "
            "or a matrix exponential: cubic in the side, 8x per doubling): milliseconds at 256 x 256, seconds "
            "at 4,096 x 4,096",
            what="runs dense linear algebra on a matrix of exponential size",
        ),
        # Quantum circuits simulated in process (knowledge/packs/quantum_circuits.py): cudaq lowers a
        # kernel to MLIR, JIT-compiles it with LLVM and runs a statevector simulator on it.
        CostClass(
            "circuit-simulate",
            M,
            REPETITIONS,
            "JIT-compiles a quantum kernel (MLIR lowering, LLVM) and simulates it (a statevector of 2^n "
            "amplitudes, or shots sampled from it): tens of milliseconds for a few qubits, growing "
            "exponentially with them",
            what="JIT-compiles a quantum kernel and simulates it",
        ),
        CostClass(
            "circuit-optimize",
            H,
            REPETITIONS,
            "runs a variational optimization of a quantum kernel: an optimizer's tens to hundreds of "
            "steps, each a JIT-compiled simulation (tens of milliseconds): seconds",
            what="runs a variational optimization, one kernel simulation per optimizer step",
        ),
        # Text games played in process (knowledge/packs/text_games.py), measured by
        # ``bench/bench_text_game_costs.py`` on a TextWorld cooking game, 2-core machine.
        CostClass(
            "game-start",
            H,
            REPETITIONS,
            "starts a text game in process: loads a fresh copy of the Z-machine interpreter's shared "
            "library (jericho's libfrotz), reads the story file and TextWorld's game data: 28-56 ms measured",
            what="starts a text game",
        ),
        CostClass(
            "game-step",
            M,
            REPETITIONS,
            "one command through a text game's Z-machine interpreter and TextWorld's wrappers: 1-2 ms "
            "median, 4-6 ms mean measured; 20-37 ms when admissible commands are requested",
            what="runs a command in a text game's interpreter",
        ),
        # Local ML models (knowledge/packs/local_models.py): torch, TensorFlow and ONNX Runtime
        # release the GIL while they compute, so a worker thread frees the loop for both.
        CostClass(
            "model-load",
            C,
            REPETITIONS,
            "loads a model, tokenizer or pipeline: reads its weights from disk "
            "(hundreds of MB to GBs; downloaded the first time) and, unless "
            "offline, asks the Hub for the latest revision: seconds",
            what="loads a model (weights from disk or the Hub)",
        ),
        CostClass(
            "model-inference",
            H,
            REPETITIONS,
            "a neural network's forward pass on CPU or GPU: tens of "
            "milliseconds to seconds (the framework releases the GIL, so "
            "a worker thread frees the loop)",
            what="runs a model's inference",
        ),
        CostClass(
            "code-small",
            None,
            frozenset(),
            "a constant, a number, a regex match or one short answer, "
            "compiled, or a constant or a regex match evaluated: 10-50 µs "
            "(`eval` of a number 10 µs, of a one-line formula 46 µs; "
            "`compile` of 10 lines 0.1 ms), less than the process-pool hop "
            "CPU work needs (175 µs)",
        ),
        CostClass(
            "model-expression",
            L,
            frozenset(),
            "a short text evaluated (one answer, a setting): usually a literal "
            "or a formula (10-50 µs), but an expression runs what it says, so "
            "the rare pathological answer a model writes (`9**9**9`) holds the "
            "loop without bound; `ast.literal_eval` parses a literal and runs "
            "nothing",
            what="evaluates a short text, which runs whatever expression it holds (the model's, if it wrote it),",
        ),
        CostClass(
            "code-unknown",
            L,
            frozenset(),
            "text of unknown size compiled or evaluated as an expression: a "
            "parse, proportional to its length (`compile` of 1000 lines: "
            "18 ms), cheap unless it is large",
            what="compiles or evaluates text of unknown size",
        ),
        CostClass(
            "code-transform",
            L,
            _BACK_TO_BACK,
            "a text compiled through a pure-Python pass over every node of its syntax tree "
            "(RestrictedPython's `compile_restricted`: `ast.parse`, a `NodeTransformer`, `compile`): "
            "about six times a plain `compile`, ~1 ms for a reply-sized block of tens of lines",
            raised_why="back to back for a group only: about a millisecond each, a stall between model calls elsewhere",
            what="compiles a text through a pure-Python pass over its syntax tree",
        ),
        CostClass(
            "program",
            M,
            REPETITIONS,
            "runs a program the project did not write (model-written code, a "
            "dataset's module): its cost is what it does, not its length -- "
            "milliseconds to unbounded, CPU holding the GIL",
            what="runs the code it is handed, whose cost is what that code does (not its length),",
        ),
        CostClass(
            "cpu-table",
            H,
            REPETITIONS,
            "fills an m x n table cell by cell in pure Python (edit distance, "
            "longest common subsequence): about 0.3 µs a cell, ~100 ms for two "
            "texts of 600 characters, growing with the product of their lengths",
            what="nested loops fill a table cell by cell in pure Python",
        ),
        CostClass(
            "cpu-nested",
            M,
            REPETITIONS,
            "nested pure-Python loops whose counts each grow with the data: the "
            "steps multiply, milliseconds for a few hundred items each, seconds "
            "for a page",
            what="nested loops multiply their steps with the size of the data in pure Python",
        ),
        CostClass(
            "cpu-corpus",
            M,
            REPETITIONS,
            "walks every item of a corpus the module loaded or indexed (a dataset's documents, "
            "thousands or more) in pure Python on every call: a fraction of a µs to a few µs an "
            "item, milliseconds per call for tens of thousands",
            what="a loop walks a whole corpus item by item in pure Python",
        ),
        CostClass(
            "cpu-exponential",
            M,
            REPETITIONS,
            "builds or walks a collection exponential in a count the row or the state gives (every "
            "assignment of n bits, `product(pool, repeat=n)`, `range(2 ** n)`) in pure Python: ~0.1-0.3 µs "
            "an item, ~1.5 ms for 2^13 items and ~20 ms for 2^16 (`bench/bench_exponential_walk.py`); a row "
            "with a larger n doubles it per unit",
            what="a loop goes over a collection exponential in a count the data gives, in pure Python,",
        ),
        CostClass(
            "cpu-exponential-calls",
            H,
            REPETITIONS,
            "walks a collection exponential in a count the row or the state gives, calling the project's "
            "own code or numpy for every item (a consistency test per hypothesis): ~6-11 µs an item, "
            "~13 ms for 2^11 items and ~0.7 s for 2^16 (`bench/bench_exponential_walk.py`)",
            what="a loop calls the project's code for every item of a collection exponential in a count the data gives",
        ),
        CostClass(
            "cpu-reparse",
            L,
            frozenset({"turn", "tool"}),
            "parses or walks a syntax tree per item of the rollout's data (every code cell of a trace): "
            "each parse of one short cell is tens of microseconds, but the loop repeats it for every "
            "cell, a few hundred µs to a ms per call",
            what="parses or walks a syntax tree for every item it goes over, in pure Python,",
            raised_why="per turn or tool call only: the loop then goes over a trace that grows every turn; back to "
            "back for a group it stays a few ms",
        ),
        CostClass(
            "cpu-nested-task",
            L,
            frozenset(),
            "nested pure-Python loops over one task's own data (a board, a grid, a "
            "key from the row's `info`): the dataset fixes its size, a few dozen "
            "items, so the steps multiply to well under a ms per call; a loop that "
            "repeats it over the rollout's turns is graded at that loop",
            what="nested loops multiply their steps with the size of one task's data in pure Python",
        ),
        CostClass(
            "cpu-work-heavy",
            H,
            REPETITIONS,
            "bounded pure-Python work estimated at 25 ms or more per call (loops the code bounds, times the "
            "copies and calls inside them): a lower bound, a tenth of a second and more measured",
            what="runs the project's own Python for an estimated 25 ms or more per call",
        ),
        CostClass(
            "cpu-work",
            M,
            REPETITIONS,
            "bounded pure-Python work estimated at 1-25 ms per call: measured 3-12x that (loops the syntax "
            "cannot bound count once), the CPU-heavy milliseconds of a sympy parse",
            what="runs the project's own Python for an estimated 1-25 ms per call",
        ),
        CostClass(
            "cpu-work-light",
            L,
            REPETITIONS,
            "bounded pure-Python work estimated at 0.1-1 ms per call: about a millisecond measured, more "
            "than a process-pool hop (175 µs) but one short stall",
            what="runs the project's own Python for an estimated 0.1-1 ms per call",
        ),
        CostClass(
            "payload-whole",
            H,
            REPETITIONS,
            "a whole state, trajectory, history or dataset: milliseconds, growing with the rollout",
        ),
        # A file's contents parsed or dumped costs about what reading the file costs (json of 300 KB:
        # 14.5 ms to parse, ``bench/bench_codec_costs.py``), and, like the read (``disk-content``), it
        # does not grow with the rollout: the rubric's bounded local cost, raised only back to back.
        # Labelled so on main (automationbench search.py:78, a tool's schema files, high), split 6
        # (advanced_if trajectory_files.py:53, high) and split 2 (sv_env_config_verification.py:217/:224).
        CostClass(
            "payload-file",
            H,
            _BACK_TO_BACK,
            "a file's contents: about what reading the file costs, milliseconds for a file of MBs; the file "
            "does not grow with the rollout",
            raised_why=_BOUNDED,
        ),
        CostClass(
            "payload-growing",
            H,
            REPETITIONS - {"turn"},
            "a history that grows every turn, re-processed inside the turn: quadratic per rollout",
            raised_why="loops only: its cost counts the turns",
        ),
        CostClass("payload-whole-fast", M, REPETITIONS, "a whole rollout-sized payload, through a fast serializer"),
        # ``bench/bench_codec_costs.py`` (bench/README.md), on the loaded 2-core machine: base64 of
        # 300 KB of bytes 0.3 ms to encode, 0.8 ms to decode, json of a document as long 14.5 ms to
        # parse, 16.4 ms to dump; in a quieter run base64 was still 2x cheaper than json of a
        # string-heavy document.
        CostClass(
            "payload-whole-codec",
            L,
            _CODEC_REPEATS,
            "a whole file's or payload's bytes through a linear codec in C (base64): about a millisecond "
            "per 300 KB, several times cheaper than a parse of as many bytes; one image or file per call is a "
            "short stall",
            what="encodes or decodes a whole file's or payload's bytes",
            raised_why="back to back for a group or in a loop: about a millisecond each, the stall does not "
            "grow per turn or tool call",
        ),
        CostClass("payload-unknown", L, frozenset(), "a payload of unknown size: cheap unless it is large"),
        CostClass(
            "cpu-text-walk",
            M,
            REPETITIONS,
            "a pure-Python loop over every line or word of a whole text (a test log, a file's contents, a "
            "rollout-sized dump) with string work on each: about a microsecond a line, milliseconds for the "
            "tens of thousands of lines of a test run's output",
            what="walks a whole text piece by piece in pure Python",
        ),
        CostClass(
            "text-walk-unsized",
            None,
            frozenset(),
            "a text of unknown size walked line by line: one reply or one tool result far more often than a "
            "log, microseconds; not reported",
        ),
        CostClass(
            "tokenize-small",
            L,
            frozenset(),
            "one short text (a reply, a prompt) tokenized: BPE merges at a few MB a second, tenths of a "
            "millisecond to a millisecond, more than a thread hop",
        ),
        # What tokenizing a long text costs, once: a whole prompt or conversation (split 22 atropos
        # managed_server.py:291, split 17 locomo_context.py:40: labelled medium once per rollout) or a model's
        # reply with its reasoning trace (split 23 vmvm_tb env.py:68, per turn: labelled high). Unlike a
        # serializer's whole payload (``payload-whole``, high: objects built per item, growing with the
        # rollout), a tokenizer makes one pass over a text of the prompt's length, whatever the rollout holds.
        CostClass(
            "tokenize-long",
            M,
            REPETITIONS,
            "a long text tokenized (a whole prompt or conversation, a model's reply with its reasoning trace): "
            "thousands to tens of thousands of tokens, BPE merges at a few MB a second, milliseconds to tens of "
            "milliseconds",
            what="tokenizes a long text",
        ),
        CostClass(
            "tokenize-unknown",
            L,
            REPETITIONS,
            "a text of unknown size tokenized: BPE merges at a few MB a second, tens of times slower per byte "
            "than a parser in C, so the few KB a project builds (a serialized list, a document) take milliseconds",
            what="tokenizes a text of unknown size",
        ),
        CostClass(
            "payload-unknown-slow",
            M,
            REPETITIONS,
            "a document of unknown size through a pure-Python parser or writer (PyYAML): milliseconds for a few KB",
        ),
        CostClass(
            "payload-small",
            None,
            frozenset(),
            "one reply, one message, a tool call's arguments or a short "
            "literal: microseconds, less than a thread hop (41 µs)",
        ),
        CostClass(
            "trivial",
            L,
            frozenset(),
            "returns at once: microseconds (``time.sleep(0)`` only yields the GIL, ``BEGIN`` only marks a transaction)",
            what="returns at once",
        ),
        CostClass(
            "log-line",
            None,
            frozenset(),
            "writes one log line to its sink, a stream or a file (buffered, no fsync), or drops it below the "
            "level: a line written measured 0.2-0.4x a worker-thread hop, loguru's and structlog's ~1.5x the "
            "standard library's `logging`, which is not reported either (`bench/bench_log_sinks.py`)",
            what="writes a log line",
        ),
        CostClass("configured", None, REPETITIONS, "graded by the project's configuration"),
    )
}

#: The cost class of a knowledge entry that does not name one, by its category.
CATEGORY_COSTS: dict[str, str] = {
    "sleep": "sleep",
    "http": "network",
    "llm": "network",
    "sdk": "network",
    "client": "client-build",
    "subprocess": "child-process",
    "open": "disk-content",
    "path": "disk-content",
    "fs": "disk-content",
    "copy": "payload",
    "serialization": "payload",
    "cpu": "cpu-heavy",
    "wait": "thread-wait",
    "browser": "network",
}

#: Payload-graded cost names a knowledge entry may carry: payload evidence -> cost class.
PAYLOAD_GRADES: dict[str, dict[str, str]] = {
    "payload": {
        "small": "payload-small",
        "unknown": "payload-unknown",
        "whole": "payload-whole",
        "growing": "payload-growing",
    },
    # PyYAML's pure-Python loader and dumper (``safe_load``, ``safe_dump``): hundreds of times
    # slower than json for the same document (a 6 KB document: 43 ms to load, 14 ms to dump,
    # json 0.1 ms; a two-line one 0.2 ms), so a payload of unknown size is CPU work; one reply's
    # worth stays cheaper inline than the process hop CPU work needs.
    "payload-slow": {
        "small": "payload-small",
        "unknown": "payload-unknown-slow",
        "whole": "payload-whole",
        "growing": "payload-growing",
    },
    # Dense linear algebra (knowledge/packs/dense_matrices.py): an eigendecomposition or an exponential
    # of a matrix is cubic in its side, so one whose side is a power of two of an input is CPU-heavy.
    "payload-matrix": {
        "small": "payload-small",
        "unknown": "payload-unknown",
        "whole": "matrix-exponential",
        "growing": "matrix-exponential",
    },
    # base64 and its kin: a linear pass in C over bytes that builds no objects, several times
    # cheaper than a parse of the same bytes (``bench/bench_codec_costs.py``): a whole file's
    # contents is one short stall, raised only where the calls repeat back to back.
    "payload-codec": {
        "small": "payload-small",
        "unknown": "payload-unknown",
        "whole": "payload-whole-codec",
        "growing": "payload-whole-codec",
    },
    # A digest (hashlib): a pass in C as fast as base64's, with the GIL released above 2 KB
    # (CPython Modules/_hashopenssl.c): a whole file's contents is the codec's short stall, but
    # what the code does not size is an id, a prompt or a reply far more often than a file --
    # both such lines on the tuning splits were (session 21, know10: main stepfun_prover.py:502,
    # heldout9 live_trace.py:42).
    "payload-digest": {
        "small": "payload-small",
        "unknown": "payload-small",
        "whole": "payload-whole-codec",
        "growing": "payload-whole-codec",
    },
    # A BPE tokenizer (tiktoken's ``Encoding.encode``, knowledge/packs/tokenizers.py): a few MB a
    # second, tens of times slower per byte than a C parser, so even one reply or prompt takes tenths of
    # a millisecond to a millisecond (main colf.py:62, labelled low); a literal the source wrote is a
    # few tokens. A text of unknown size is milliseconds for the few KB a project builds, and adds up
    # per turn (split 17 longmemeval_context.py:54 and locomo_context.py:43, split 19
    # tau2_bench_context_separated.py:117/:120: a serialized list the model edits every turn, medium).
    # A long text -- a whole prompt or conversation, or a text holding a model's reasoning trace
    # (:func:`long_text`) -- is milliseconds: medium once, high where it repeats (``tokenize-long``); only a
    # history re-tokenized inside the turn it grows in is quadratic (``payload-growing``).
    "payload-tokenize": {
        "constant": "payload-small",
        "small": "tokenize-small",
        "unknown": "tokenize-unknown",
        "long": "tokenize-long",
        "whole": "tokenize-long",
        "growing": "payload-growing",
    },
    # A project function's loop over the lines or words of a text parameter (ASL117): one reply's
    # lines are microseconds, and a text of unknown size is one reply far more often than a log; only a
    # payload the graph proves whole (a file's contents, a state key the project fills with one) costs.
    "payload-walk": {
        "small": "payload-small",
        "unknown": "text-walk-unsized",
        "whole": "cpu-text-walk",
        "growing": "cpu-text-walk",
    },
    # A socket's send (``send``, ``sendall``, a ``SocketIO``'s ``write``) returns once its bytes are in
    # the kernel's send buffer (hundreds of KB): a command or a message never waits (split 28 shellm.py
    # :54, :87, :140, labelled none); a whole file's contents or a growing history may fill the buffer
    # and wait for the peer to read it.
    "payload-send": {
        "small": "payload-small",
        "unknown": "payload-small",
        "whole": "network",
        "growing": "network",
    },
    # orjson and friends: several times faster than json, one grade lower for the same payload.
    "payload-fast": {
        "small": "payload-small",
        "unknown": "payload-small",
        "whole": "payload-whole-fast",
        "growing": "payload-whole-fast",
    },
}

#: The cost class of a payload-graded call handed a file's contents (payload shape ``read``) instead of
#: the one its grade table names for a whole payload: a parse or dump of a file costs what the read
#: does, bounded (``payload-file``). A byte codec and a fast serializer already grade a whole payload
#: below that; PyYAML's pure-Python parser (``payload-slow``) of a file gets the same class: the file is a
#: document of the project's (a config, a manifest), not a payload that grows with the rollout.
FILE_CONTENTS_COSTS: dict[str, str] = {"payload-whole": "payload-file"}

#: Code graded by what is evaluated (``compile``: ``code``; ``eval``: ``expression``; ``exec``:
#: ``program``; RestrictedPython's ``compile_restricted*``: ``transform``), with the payload evidence
#: of :func:`payload_evidence` plus ``constant`` (a literal: text the source wrote) -> cost class.
#: Compiling is a parse, as long as its text: what the payload
#: evidence proves small (a regex match, a number, one short answer, an f-string of such parts) is
#: cheaper inline than a process hop, text of unknown size is low like any payload of unknown size, a
#: whole file's contents is CPU work. ``eval`` parses and runs: one short answer the model wrote
#: usually holds a literal, but the expression is the model's (``9**9**9``), so it is low ("real but
#: tiny or rare", the rubric's convention "Code the model wrote"), unless its form is fixed
#: (:data:`FORMED_SHAPES`). ``exec`` runs statements: a program whose loops and calls make its cost,
#: however short it is, so only a constant is cheap. A compile through a pure-Python pass over the tree
#: (``transform``: RestrictedPython) costs about six times a plain one (measured, session 28, cost28:
#: 24 lines, ``ast.parse`` 0.8 ms, ``compile`` 0.8-0.9 ms, ``compile_restricted_exec`` 4.7-4.9 ms on this
#: machine at load 10): one reply's or one tool call's code block (the model's program, tens of lines)
#: is about a millisecond, low, not cheaper than the thread hop as a plain compile of it is.
CODE_GRADES: dict[str, dict[str, str]] = {
    "expression": {
        "constant": "code-small",
        "small": "model-expression",
        "unknown": "code-unknown",
        "whole": "cpu-heavy",
        "growing": "cpu-heavy",
    },
    "code": {
        "constant": "code-small",
        "small": "code-small",
        "unknown": "code-unknown",
        "whole": "cpu-heavy",
        "growing": "cpu-heavy",
    },
    "transform": {
        "constant": "code-small",
        "small": "code-transform",
        "unknown": "code-transform",
        "whole": "cpu-heavy",
        "growing": "cpu-heavy",
    },
    "program": {
        "constant": "code-small",
        "small": "program",
        "unknown": "program",
        "whole": "cpu-heavy",
        "growing": "cpu-heavy",
    },
}

#: Calls that parse a text into a syntax tree or walk one, node by node (ASL118): one call on one short
#: text (a code cell, a reply) is tens of microseconds and not reported; a loop over the rollout's
#: data repeating it per item is.
TREE_PASSES: frozenset[str] = frozenset({"ast.parse", "ast.walk"})
#: Payload shapes whose text the code fixed the form of, by cost: a regex match is what its pattern lets
#: through (the patterns cut before an ``eval`` in the labelled splits are numbers and ``(weeks, days)``
#: pairs), so evaluating one runs no expression the model chose. A match of a pattern that lets any text
#: through (:data:`UNBOUNDED_REGEX`: ``(.*)``) is not formed where the size of the text it was cut from is
#: known: it is as large as that text (one reply: small). Cut from a text of unknown size it stays a match:
#: on the labelled splits such a text is a judge's reply holding a JSON object, or a piece the code
#: validates after with a pattern that fixes its form (``re.match(r"^[\d\s+\-*/().]+$", equation)``).
FORMED_SHAPES: dict[str, frozenset[str]] = {"expression": frozenset({"match"})}
#: The ``re`` functions that find matches of a pattern in a text (``re.search(pattern, text)``): a match,
#: or the list of every match (``findall``, ``finditer``: as many as the text holds, whatever each is).
REGEX_MATCHES: frozenset[str] = frozenset({"search", "match", "fullmatch"})
REGEX_MATCH_LISTS: frozenset[str] = frozenset({"findall", "finditer"})
#: What lets a pattern (its text as written) match text of any length and form: any character, a
#: non-space, a non-word or non-digit, a negated class, repeated without bound (``.*``, ``\S+``,
#: ``[^<]*``, ``.{2,}``). A pattern without one (``\d+``, ``[A-E]``, ``(\w+)``, a fixed-width token) cuts
#: out a piece of the form it fixes, a number, a letter, a word: one small item, whatever the text.
UNBOUNDED_REGEX = re.compile(r"(?:(?<!\\)\.|\\[SWD]|\[\^(?:\\.|[^\]])*\])(?:[*+]|\{\d*,\})")
#: A lazy unbounded piece closed by a literal (``(.*?)</tool>``, a fence's backticks) and the literal that
#: opens it (``<tool>(``, a fence's ``json`` tag, ``python\s*(``): each match is one block between the two, which in a
#: join of the rollout's messages lies inside one message (split 21 vf_llm_tool_exec ``json.loads`` of each
#: ``re.findall(r"<tool>(.*?)</tool>", " ".join(<contents>))``): one message's worth, not the whole text.
LAZY_CLOSED = re.compile(UNBOUNDED_REGEX.pattern + r"\?\)*(?:[^\\.^$*+?{}\[\]|()]|\\[^A-Za-z0-9])")
LITERAL_OPENED = re.compile(r"(?:[^\\.^$*+?{}\[\]|()]|\\[^A-Za-z0-9]|\\[sn][*+]?)(?:\((?:\?:|\?P<\w+>)?)*$")

#: Every size a finding's ``Facts.size`` can name (the evidence keys of the two tables above, in
#: their order; ``""`` for a finding not graded by a payload): what the JSON contract enumerates.
PAYLOAD_SIZES: tuple[str, ...] = tuple(
    dict.fromkeys(size for table in (*PAYLOAD_GRADES.values(), *CODE_GRADES.values()) for size in table)
)

#: SQL graded by its text (the DB-API entries whose cost is ``statement``: ``execute`` and the
#: ``fetch*`` that reads the rows of the statement last run): evidence -> cost class. A statement
#: built or passed in at run time (model-written SQL, an f-string) is unbounded.
STATEMENT_GRADES: dict[str, str] = {
    "trivial": "trivial",
    "commit": "disk-content",  # an fsync, as ``connection.commit()``
    "rollback": "disk-metadata",  # as ``connection.rollback()``
    # ``ATTACH DATABASE 'x.db' AS x`` opens a database file and reads its header, as a connect does.
    "attach": "disk-metadata",
    "lookup": "local-lookup",
    "pragma": "local-lookup",
    "schema": "local-schema",
    "ddl": "local-store",
    "row-write": "local-row-write",
    "query": "local-store",
    "built": "local-store",
    "filled": "local-store",  # (a script that fills a new in-memory database: MEMORY_GRADES)
}
#: The same on a connection in autocommit mode (``isolation_level=None``): no transaction holds a
#: row written, each is committed and synced to disk at once (16 ms measured by
#: ``bench/bench_fs_costs.py``).
AUTOCOMMIT_GRADES: dict[str, str] = {**STATEMENT_GRADES, "row-write": "disk-content"}
#: The same on an in-memory database (``sqlite3.connect(":memory:")``): a commit, a pragma or a schema
#: change touches no disk; a statement reads or writes rows as it would on disk, minus the I/O, so a
#: query and a statement built at run time still cost what they scan.
MEMORY_GRADES: dict[str, str] = {
    **STATEMENT_GRADES,
    **dict.fromkeys(("trivial", "commit", "rollback", "pragma"), "memory-db"),
    **dict.fromkeys(("schema", "ddl"), "memory-schema"),
    "row-write": "memory-row-write",
    "filled": "memory-fill",
}
#: A statement's first keyword that decides its evidence alone.
STATEMENT_LEADS: dict[str, str] = {
    "BEGIN": "trivial",
    "SAVEPOINT": "trivial",
    "COMMIT": "commit",
    "END": "commit",
    "ROLLBACK": "rollback",
    "ATTACH": "attach",
}
#: ``PRAGMA``s that scan, check or rewrite the database file (``query``): every other fixed pragma
#: either sets a connection setting in memory (``PRAGMA query_only = ON``: ``trivial``) or reads
#: one or the schema (``PRAGMA table_info(t)``, ``PRAGMA user_version``: ``pragma``, bounded like a
#: keyed lookup). https://www.sqlite.org/pragma.html
SCANNING_PRAGMAS: frozenset[str] = frozenset(
    "integrity_check quick_check foreign_key_check optimize wal_checkpoint incremental_vacuum journal_mode".split()
)
#: A pragma statement: its name (after an optional schema) and the ``=`` that sets it.
PRAGMA = re.compile(r"PRAGMA\s+(?:\w+\s*\.\s*)?(\w+)\s*(=)?")
#: Words of a ``SELECT`` that make it more than reading rows of one table by key: a join, a
#: full-text or pattern match, sorting, grouping, a union, a subquery's second ``SELECT``.
SCAN_WORDS: frozenset[str] = frozenset("JOIN MATCH LIKE GLOB REGEXP ORDER GROUP UNION DISTINCT EXISTS IN".split())
#: A fixed DDL statement that changes nothing once its object exists (``schema``): ``CREATE
#: [UNIQUE|VIRTUAL] TABLE|INDEX|VIEW|TRIGGER IF NOT EXISTS``. An ``executescript`` of only such
#: statements is one too.
SCHEMA_CHECK = re.compile(
    r"CREATE\s+(?:UNIQUE\s+|VIRTUAL\s+|TEMP\s+|TEMPORARY\s+)?(?:TABLE|INDEX|VIEW|TRIGGER)\s+IF\s+NOT\s+EXISTS\b"
)
#: A statement that creates a table from the column list its text opens (``ddl``): no row is read or
#: written, only the schema changes (``CREATE TABLE t AS SELECT ...`` runs its query: not one of these).
TABLE_CREATE = re.compile(r"CREATE\s+(?:TEMP\s+|TEMPORARY\s+)?TABLE\b[^(]*\(")
#: One row written by key (``row-write``): an ``INSERT``/``REPLACE`` of one ``VALUES`` tuple, or an
#: ``UPDATE``/``DELETE`` whose ``WHERE`` tests a column for equality. Python's sqlite3 opens a
#: transaction before such a statement (unless the connection is in autocommit mode), so the row
#: is written to disk by the ``commit`` -- graded there. Run by ``executemany`` it is one row per
#: item of its sequence: a query of unknown size.
ROW_WRITE_LEADS: frozenset[str] = frozenset({"INSERT", "REPLACE", "UPDATE", "DELETE"})


#: A script run in a page through a local browser driver (Selenium's ``execute_script``) graded
#: by its text: evidence -> cost class. A script that only reads or sets values in the page
#: returns in a round trip; one that may start a navigation or a request, or returns a promise
#: the driver then awaits, waits on the page; a script built or passed in at run time may do
#: anything.
SCRIPT_GRADES: dict[str, str] = {
    "quick": "driver-command",
    "page": "network",
    "built": "network",
}
#: Words of a script that may make the page wait on the network or on an event: a click or a
#: submit may follow a link, ``location``/``history``/``open`` navigate, ``fetch`` and
#: ``XMLHttpRequest`` send requests, a dispatched event runs the page's handlers, and a promise
#: (``async``/``await``/``then``) is awaited by the driver before it answers.
PAGE_SCRIPT_WORDS: frozenset[str] = frozenset(
    "click submit requestSubmit location history reload navigate open fetch XMLHttpRequest sendBeacon "
    "dispatchEvent Promise async await then".split()
)

#: An archive opened (``tarfile.open``, ``zipfile.ZipFile``) graded by what it is opened on: a buffer
#: in memory (``io.BytesIO(data)``, a name bound to one; payload shape ``memory``) or anything
#: else, a file.
ARCHIVE_GRADES: dict[str, str] = {"memory": "archive-memory", "file": "archive-open"}
#: A member read or written through an archive object (``tar.extractfile(m)``, ``zf.writestr(...)``)
#: graded by what its archive was opened on in the same function (the opener's payload, carried to
#: it): in memory, no I/O; else, or an archive the function does not open, the file's contents.
ARCHIVE_MEMBER_GRADES: dict[str, str] = {"memory": "archive-memory", "file": "disk-content"}
#: Calls building an in-memory file: what an archive opened on one reads is already in memory.
MEMORY_FILES: frozenset[str] = frozenset({"BytesIO", "StringIO"})
#: An image encoded or converted (``image_data_url(img)``, an entry whose cost is ``image``) graded by the
#: image it is handed: one the source builds at a literal size of at most :data:`SMALL_IMAGE_PIXELS`
#: (payload shape ``literal``: ``Image.new("RGB", (100, 100), color)``, a name bound to one) or any other,
#: of a size the code does not show (a screenshot, a decoded upload: CPU work).
IMAGE_GRADES: dict[str, str] = {"small": "image-small", "other": "cpu-heavy"}
#: The payload of an image so built (``IMAGE_BUILDERS``), a literal of its own: any other literal (a path,
#: a string) is no image the source built, and says nothing of one's size.
SMALL_IMAGE: tuple[str, str] = ("literal", "<small image>")
#: Calls building a blank image at the size one of their arguments gives (the called name as written, its
#: last two parts -> the position of the ``(width, height)`` pair): Pillow's ``Image.new(mode, size, color)``
#: (source: pkg pillow 13.0.0 PIL/Image.py ``new``); any other ``new`` builds something else.
IMAGE_BUILDERS: dict[str, int] = {"Image.new": 1}
#: The most pixels of an image built at a literal size that is cheap to encode: a PNG encode of a 100x100
#: image (``verifiers.v1.utils.image.image_data_url``: ``save(PNG)`` + base64) took 0.74 ms filled with one
#: colour and 5.6 ms of random noise, 64x64 0.6 and 1.7 ms, 256x256 4.1 and 29 ms (measured, session 29,
#: main29, pillow 13.0.0 at load 4 on this 2-core machine). A blank image drawn on compresses as well as
#: the filled one, nearly.
SMALL_IMAGE_PIXELS = 128 * 128

#: A directory walk graded by where the code roots it: a tree rooted in an installed one
#: (``CallFacts.installed``: site-packages, the interpreter's prefix, a library's ``__file__``) holds
#: thousands of files; any other (a workspace, the project's own package) a few.
WALK_GRADES: dict[str, str] = {"installed": "disk-walk-installed", "other": "disk-walk"}

#: An object that deletes what it made when it is closed (``tempfile.TemporaryDirectory``) graded by
#: how it is used: the context expression of a ``with`` item (``entered``) is created and deleted,
#: everything written into it with it, when the block ends; one kept (``kept``: stored, returned) is
#: a ``mkdtemp`` here, and its deletion is charged where ``cleanup()`` runs.
SCOPED_GRADES: dict[str, str] = {"entered": "disk-content", "kept": "disk-metadata"}
SCOPED_EVIDENCE: dict[str, str] = {
    "entered": "created here and deleted with everything written into it when the `with` block ends",
    "kept": "creates the directory (a `mkdtemp`); deleting it is charged where `cleanup()` runs",
}

#: Every cost a knowledge entry may name that evidence about the call settles: name -> evidence
#: -> cost class.
EVIDENCE_GRADES: dict[str, dict[str, str]] = {
    **PAYLOAD_GRADES,
    **CODE_GRADES,
    "statement": STATEMENT_GRADES,
    "statement-autocommit": AUTOCOMMIT_GRADES,
    "statement-memory": MEMORY_GRADES,
    "script": SCRIPT_GRADES,
    "archive": ARCHIVE_GRADES,
    "archive-member": ARCHIVE_MEMBER_GRADES,
    "image": IMAGE_GRADES,
    "scoped": SCOPED_GRADES,
    "disk-walk": WALK_GRADES,
}


#: The statement text of a script passed in (``conn.executescript(self.seed_sql)``) and run on an in-memory
#: database the same function opened just before (knowledge.blocking.EMPTY_STORES): whatever it holds, it
#: runs on empty tables, so it costs what its own text creates and inserts, not what a query scans
#: (split 33 crucible sql.py:51-52, a task's DDL and seed rows into a fresh database per rollout).
FILLED_SCRIPT = "<a script filling a new in-memory database>"


def statement_evidence(sql: str | None, method: str | None = "execute") -> str:
    """A key of :data:`STATEMENT_GRADES` for the SQL text ``sql`` (``None``: built at run time) run
    by the DB-API ``method`` (``executemany`` runs it once per item of its sequence)."""
    if sql is None:
        return "built"
    if sql == FILLED_SCRIPT:
        return "filled"
    text = re.sub(r"--[^\n]*|/\*.*?\*/|'[^']*'", " ", sql, flags=re.S).upper()  # comments, string literals
    upper = re.findall(r"\w+|=", text)
    if not upper:
        return "query"
    if upper[0] in STATEMENT_LEADS:
        return STATEMENT_LEADS[upper[0]]
    statements = [part for part in text.split(";") if part.strip()]
    pragma = PRAGMA.match(statements[0].strip())
    if pragma is not None and len(statements) == 1:
        if pragma.group(1).lower() in SCANNING_PRAGMAS:
            return "query"
        return "trivial" if pragma.group(2) else "pragma"
    if all(SCHEMA_CHECK.match(part.strip()) for part in statements):
        return "schema"
    if all(TABLE_CREATE.match(part.strip()) for part in statements) and not {"AS", "SELECT"} & set(upper):
        return "ddl"
    if method != "executemany" and len(statements) == 1 and _one_row_written(upper, text):
        return "row-write"
    tables = re.search(r"\bFROM\b(.*?)\bWHERE\b", text, flags=re.S)
    if (
        upper[0] == "SELECT"
        and upper.count("SELECT") == 1
        and tables is not None
        and "," not in tables.group(1)
        and "=" in upper
        and not SCAN_WORDS.intersection(upper)
    ):
        return "lookup"
    return "query"


def _one_row_written(words: list[str], text: str) -> bool:
    """Does the statement ``text`` (upper case, its words ``words`` with ``=`` kept) write one row by
    key (see :data:`ROW_WRITE_LEADS`)?"""
    if words[0] not in ROW_WRITE_LEADS or "SELECT" in words or SCAN_WORDS.intersection(words):
        return False
    if words[0] in ("INSERT", "REPLACE"):
        tuples = text.partition("VALUES")[2]
        return words.count("VALUES") == 1 and not re.search(r"\)\s*,\s*\(", tuples) and "RETURNING" not in words
    return "WHERE" in words and "=" in words[words.index("WHERE") :]


def script_evidence(script: str | None) -> str:
    """A key of :data:`SCRIPT_GRADES` for the script text ``script`` (``None``: built at run time)."""
    if script is None:
        return "built"
    code = re.sub(r"//[^\n]*|/\*.*?\*/|'[^']*'|\"[^\"]*\"|`[^`]*`", " ", script, flags=re.S)  # comments, strings
    return "page" if PAGE_SCRIPT_WORDS.intersection(re.findall(r"\w+", code)) else "quick"


#: A script's evidence (:func:`script_evidence`) in words, for messages.
SCRIPT_WORDS: dict[str, str] = {"quick": "reads or sets values in the page", "page": "may navigate or wait on the page"}
#: A written statement's evidence (:func:`statement_evidence`) in words, for messages.
STATEMENT_WORDS: dict[str, str] = {
    "lookup": "reads rows of one table by key",
    "pragma": "reads a setting or the schema: bounded",
    "trivial": "returns at once",
    "schema": "changes nothing once the object exists",
    "ddl": "creates a table",
    "row-write": "one row by key, written to disk by the commit",
    "attach": "opens a database file, as a connect does",
    **dict.fromkeys(("commit", "rollback", "query"), "runs on the local database"),
}
#: The same on a connection in autocommit mode (:data:`AUTOCOMMIT_GRADES`).
AUTOCOMMIT_WORDS: dict[str, str] = {
    **STATEMENT_WORDS,
    "row-write": "one row by key, committed and synced at once (autocommit mode)",
}
#: The same on an in-memory database (:data:`MEMORY_GRADES`).
MEMORY_WORDS: dict[str, str] = {
    **STATEMENT_WORDS,
    "commit": "an in-memory database: nothing to sync",
    "row-write": "one row by key, in memory",
    "ddl": "creates a table in memory",
}


def describe_script(evidence: str, script: str | None) -> str:
    """The evidence in words, for messages."""
    if script is None:
        return "a script built at run time: it may wait on the page"
    first = " ".join(script.split())[:40]
    return f"`{first}`: {SCRIPT_WORDS[evidence]}"


def describe_statement(evidence: str, sql: str | None, words: dict[str, str]) -> str:
    """The evidence in words, for messages (``words``: :data:`STATEMENT_WORDS` or, on a connection in
    autocommit mode, :data:`AUTOCOMMIT_WORDS`)."""
    if sql is None:
        return "a statement built at run time: unbounded"
    if sql == FILLED_SCRIPT:
        return "a script passed in, run on an in-memory database the function opened: it fills empty tables"
    first = " ".join(sql.split())[:40]
    return f"`{first}`: {words[evidence]}"


#: pydantic's class methods and copies that return an instance of the class they are called on
#: (v2's, then v1's names): ``Model.model_validate(d).model_dump()`` dumps a ``Model``.
MODEL_BUILDERS: frozenset[str] = frozenset(
    "model_validate model_validate_json model_validate_strings model_construct model_copy "
    "parse_obj parse_raw parse_file construct copy".split()
)
#: pydantic's methods that serialize the instance they are called on (v2's, then v1's): a model built in the
#: same expression is as large as what its constructor is handed (analysis/index/built_models.py).
MODEL_DUMPS: frozenset[str] = frozenset({"model_dump", "model_dump_json", "dict", "json"})
#: The base class whose constructor validates every field it is given, as ``model_validate`` does.
MODEL_BASES: frozenset[str] = frozenset({"pydantic.BaseModel", "pydantic.main.BaseModel"})

#: Name tokens of a whole rollout-sized payload: the last token of a name, attribute or
#: string key decides (``state["trajectory"]`` and ``chat_history`` are whole,
#: ``state["answer"]`` and ``state_id`` are not). Emptied with :data:`WHOLE_NAMES` (tokens15's ablation),
#: 17 labelled lines move the wrong way and 7 the right way: automationbench's ``WorldState`` payloads (main
#: rubric/__init__.py:78/:139, runner.py:216/:221, scoring.py:33/:48, taskset.py:94/:101) and text_quests'
#: ``state`` (textquests_core.py:398/:630) are whole by these names.
WHOLE_TOKENS: frozenset[str] = frozenset(
    "trajectory trajectories completion completions messages history histories "
    "transcript transcripts rollout rollouts results records dataset datasets responses outputs logs "
    "documents corpus conversation conversations turns steps contents".split()
)
#: Whole as the entire name (or a path's last name, ``step.tokens.prompt_ids``): a prompt's token ids as the
#: inference server returns them with each turn (verifiers' ``tokens["prompt_ids"]``, vLLM's
#: ``prompt_token_ids``) are the whole prompt at that turn -- the system
#: prompt and every message before it, thousands to tens of thousands of ints -- so one per turn over a
#: trajectory is quadratic in the turns; ``ids`` alone (one reply's ids) is no such list (split 22 NeMo
#: Gym app.py:103/:115, labelled high: the prompt ids of every turn dumped into pydantic items). They grow every
#: turn (:func:`grows`): re-processed inside a per-turn hook, quadratic per rollout as a history is.
#: Not ``input_ids``, transformers' name for the same thing: as a tool's argument it is what the model wrote
#: (main arc_agi_tool.py:540, ``print_fn_outputs(func_code, input_ids)``: "0,1", labelled none).
TOKEN_LISTS: frozenset[str] = frozenset({"prompt_ids", "prompt_token_ids"})
#: The fields of one item of a collection (by the collection's last name) that hold the whole prompt at that
#: turn as messages: verifiers' ``TrajectoryStep["prompt"]`` is every message sent for the step (the system
#: prompt, the question, every turn before it) -- the message form of its ``tokens["prompt_ids"]`` -- while its
#: ``completion`` is that turn's reply (one turn's, :data:`TURN_COLLECTIONS`). Only off a trajectory's step: a
#: rollout's own ``prompt`` is its input messages (:data:`SMALL_TOKENS`).
STEP_PROMPTS: dict[str, frozenset[str]] = {"trajectory": frozenset({"prompt"})}
#: Of unknown size as the entire name (or a path's last name), not one small reply because of its last
#: token (``reasoning_content`` ends in ``content``): a reasoning model's trace is thousands of tokens a
#: turn, ten times the reply it precedes -- a millisecond or more to tokenize (split 23 vmvm_tb env.py:68),
#: yet still one turn's text, tens of microseconds to parse or dump in C, so not a whole payload; a judge's
#: ``reasoning`` field is a few sentences. A grade table that names the size ``long`` (a tokenizer's) reads
#: a text holding one as long (:func:`long_text`); every other reads it as of unknown size.
REASONING_TRACES: frozenset[str] = frozenset({"reasoning_content", "reasoning", "thinking"})
#: Whole only as the entire name: the rollout's ``state``; a ``game_state`` or ``board_state`` is
#: a small structure of the environment's own.
WHOLE_NAMES: frozenset[str] = frozenset({"state", "states", "rollout_state"})
#: Of those, the ones that grow every turn of a rollout: re-processing them inside a per-turn
#: hook costs a little more every turn.
GROWING_TOKENS: frozenset[str] = frozenset(
    "state trajectory completion messages history transcript conversation turns steps".split()
)
#: Of those, the collections of a rollout's turns (steps, messages): an item of one is one turn's
#: record, and a key of that item (``step["completion"]`` in ``for step in trajectory``) one turn's
#: field, not the rollout's whole completion because of the key. Dumping it for every item is the
#: loop's cost, reported at the loop (ASL119, ``whole-collection-dump``), not at the dump as a whole
#: payload repeated. The rollout's ``states`` of a group are no such collection: a key of one is that
#: rollout's whole completion.
TURN_COLLECTIONS: frozenset[str] = GROWING_TOKENS - {"state"}
#: Name tokens of one small item: one reply, one message, one tool call's arguments. A rollout's
#: ``prompt`` is its input messages (a system prompt and a question, fixed for the rollout): a
#: message or two, not a history that grows (held-out labels: a deep copy or a ``model_dump`` of
#: one costs microseconds). A path or URL is a string of a few hundred bytes at most.
#: What they earn (tokens15's ablation, bench/accuracy/README.md ``tokens15``, token_ablation.py): emptied,
#: the table moves 68 labelled lines the wrong way and 8 the right way (``answer`` 19:1, ``arguments`` 9:0,
#: ``content`` 8:3 on main and splits 2-11), because the values it names reach the call
#: through what provenance does not follow (a dispatch table, a closure, a list built by a
#: comprehension, a helper's parameter): ``chunk`` main proposer_solver taskset.py:68/:75 (a line of one
#: reply), ``id`` main automationbench linkedin/jobs.py:71, ``answer`` split 10 scoring.py:255 (the row's
#: answer record) and split 2 sv_env_code_vulnerability.py:560/:566, ``config`` split 10 taskset.py:680,
#: ``arguments``/``args`` split 6 lhaw transcript.py:34, pi_agent_env.py:429 and split 7
#: prior_art_search.py:71 (one tool call's arguments), ``message`` split 3 tau_2_bench.py:235, ``prompt``
#: split 6 mazebench harness.py:119; a helper's parameter read as unknown instead moved six labelled lines
#: the wrong way and none the right way. Where a name misleads: ``content`` bound to an HTTP response's
#: body (split 2 ddbc.py:226, deepdive.py:362, hle.py:129: a search API's reply, labelled low, graded as
#: one message), ``config`` of a scenario read from a row (split 2 bfcl_v3.py:360): the fix is provenance
#: for a response's body, not a narrower name. ``query`` and ``headers``: one request's query parameters or
#: search text and one request's or response's headers, a few short strings (split 30 datalox episode.py:290,
#: :295, ``deepcopy(request.query)``, ``deepcopy(response.headers)``, labelled none).
SMALL_TOKENS: frozenset[str] = frozenset(
    "content text reply answer arguments args argument line message msg action move guess tool_call prompt "
    "params parameters config settings chunk token key id name label value status error reason "
    "url uri path dir filename query headers".split()
)
#: Builtins whose result is one number (``len(messages)``, ``sum(...)``, ``int(text)``): a payload
#: bound to one is small, however large what it was computed from.
SCALAR_CALLS: frozenset[str] = frozenset("len sum int float bool round abs ord hash".split())
#: Iterables whose items are numbers: a loop's item of ``range(n)`` is small, whatever ``n`` is.
COUNTING_ITERABLES: frozenset[str] = frozenset({"range"})
#: How a library hands one response over piece by piece: a loop over one of these yields one line, chunk
#: or event of one reply at a time (``async for line in response.aiter_lines()``), one small item
#: wherever the value goes next, whatever the loop variable is called. Methods (called) from httpx
#: 0.28.1 ``Response`` (httpx/_models.py), requests 2.34.2 ``Response`` (requests/models.py) and aiohttp
#: 3.14.5 ``StreamReader`` (aiohttp/streams.py); attributes (read) from verifiers 0.3.1's v1
#: ``RelayReply.chunks``, "complete SSE events" of one relayed reply (verifiers/v1/clients/client.py).
STREAM_PIECE_METHODS: frozenset[str] = frozenset(
    "iter_lines aiter_lines iter_bytes aiter_bytes iter_text aiter_text iter_raw aiter_raw iter_content "
    "iter_chunked iter_chunks iter_any".split()
)
STREAM_PIECE_ATTRIBUTES: frozenset[str] = frozenset({"chunks"})
#: Objects whose fields are settings a user wrote (a few names, a short JSON string): a field read
#: through one (``self.config.disabled_tools``) is one small item, whatever the field is called.
SETTINGS_OWNERS: frozenset[str] = frozenset({"config", "cfg", "settings", "options"})
#: A project getter's result is what its name says after this prefix (``self.get_state()`` is a
#: state). Not a library's (a ``call`` payload): jericho's ``FrotzEnv.get_state()`` is the Z-machine's
#: RAM as a few numpy arrays, not a rollout's state (main textquests_core.py:401, labelled low).
GETTER_PREFIX = "get_"
#: Methods whose result is the contents of a file or a stream: as large as the file.
CONTENT_READS: frozenset[str] = frozenset("read read_text read_bytes readlines".split())
#: Keywords that cap how much a read returns (``runtime.read(path, max_bytes=128_000)``: verifiers 0.3.1
#: ``v1/runtimes/base.py`` ``Runtime.read``, which raises past the cap; io's ``read(size)``): a read capped
#: by a constant, or handed one as its first argument (``f.read(4096)``), is at most that many bytes or
#: characters of the contents (:data:`CUT`), not the whole file; capped by a value the code computes (a
#: setting: ``max_bytes=self.config.max_result_bytes``), of unknown size (split 10 synthetic_workspace_gym
#: taskset.py:261, a grader's result record).
READ_LIMITS: frozenset[str] = frozenset({"max_bytes", "size", "n"})
#: Calls opening an HTTP response: its ``read()`` is one reply's body, sized like any call's result
#: (by its name), not as a file's contents.
RESPONSE_OPENERS: frozenset[str] = frozenset({"urlopen"})
#: What an HTTP client returns a response as, by the name of what produced it with its calls' ``()``
#: dropped (``requests.Session().get()`` is ``requests.Session.get``, an annotated ``httpx.Response``
#: parameter ``httpx.Response``): requests 2.34.2 (``requests/api.py``, ``requests/sessions.py``), httpx
#: 0.28.1 (``httpx/_api.py``, ``httpx/_client.py``) and aiohttp 3.14.5 (``aiohttp/client.py``
#: ``ClientSession``'s verbs and ``aiohttp.request``).
HTTP_CLIENTS: tuple[str, ...] = (
    "requests",
    "requests.Session",
    "requests.session",
    "httpx",
    "httpx.Client",
    "httpx.AsyncClient",
    "aiohttp.ClientSession",
)
HTTP_VERBS: tuple[str, ...] = tuple("get post put patch delete head options".split())
HTTP_RESPONSES: frozenset[str] = frozenset(
    {f"{owner}.{verb}" for owner in HTTP_CLIENTS for verb in (*HTTP_VERBS, "request", "send")}
    | {"aiohttp.request", "requests.Response", "requests.models.Response", "httpx.Response"}
    | {"aiohttp.ClientResponse", "aiohttp.client_reqrep.ClientResponse"}
)
#: The calls of a model API's SDK that return ONE completion object (a chat completion, a response, a
#: message), as call targets without ``()``: openai 1.x ``chat.completions.create``/``parse`` (also under
#: ``beta``), ``completions.create``, ``responses.create``/``parse``; anthropic ``messages.create`` (also
#: under ``beta``); litellm's module ``completion``/``acompletion``. Its ``model_dump()`` or
#: ``model_dump_json()`` is one reply's worth, as ``json.loads`` of its message is: pydantic-core dumps a
#: completion of a few KB in microseconds, below a thread hop's ~40 µs (the rubric's "``model_dump`` of a
#: small model"; split 3 ``regular_monitor.py:92``, ``monitor.py:120``, labelled none). Left out: what
#: returns a vector per input (``embeddings.create``) or a page of stored objects (``list``), and a
#: streamed call's iterator, which dumps nothing whole.
MODEL_REPLY_CLIENTS: tuple[str, ...] = (
    *(f"openai.{client}" for client in ("OpenAI", "AsyncOpenAI", "AzureOpenAI", "AsyncAzureOpenAI")),
    *(f"anthropic.{client}" for client in ("Anthropic", "AsyncAnthropic", "AnthropicBedrock", "AsyncAnthropicBedrock")),
    *(f"anthropic.{client}" for client in ("AnthropicVertex", "AsyncAnthropicVertex")),
)
MODEL_REPLY_METHODS: tuple[str, ...] = (
    "chat.completions.create",
    "chat.completions.parse",
    "beta.chat.completions.parse",
    "completions.create",
    "responses.create",
    "responses.parse",
    "messages.create",
    "beta.messages.create",
)
MODEL_REPLIES: frozenset[str] = frozenset(
    {f"{client}.{method}" for client in MODEL_REPLY_CLIENTS for method in MODEL_REPLY_METHODS}
    | {"litellm.completion", "litellm.acompletion"}
)
#: The word of a payload that is one completion object a model API returned (its shape is ``call``):
#: one small item (:data:`MODEL_REPLIES`).
MODEL_REPLY = "<model-reply>"
#: The replies whose ``json()`` parses the body the request already read (requests, httpx: sync, a
#: plain call on the loop even after an awaited request), as call targets: a JSON parse of what the
#: server sent. aiohttp's is awaited (it reads the body first): not one of them.
#: A client entered by ``async with httpx.AsyncClient() as client`` is named as built (``httpx.AsyncClient()``).
JSON_REPLIES: frozenset[str] = frozenset(
    f"{spelled}().json"
    for reply in HTTP_RESPONSES
    if not reply.startswith("aiohttp")
    for spelled in {reply, reply.replace("Client.", "Client().").replace("Session.", "Session().")}
)
#: aiohttp's ``json()`` of a resource a GET fetched, or of the body a server handler was sent (as call
#: targets): awaited, it reads the body without blocking, then decodes it and runs ``json.loads`` on the
#: loop (aiohttp 3.14.5 ``client_reqrep.py`` ``ClientResponse.json``: ``loads(stripped.decode(encoding))``;
#: ``web_request.py`` ``BaseRequest.json``: ``loads(await self.text())``). The reply to a request that
#: sends something (``post``, ``put``, ...) is one reply, an acknowledgement or a completion: left out, as
#: ``aiohttp.request(method, ...)`` and a bare ``ClientResponse`` are, whose method the name does not say
#: (split 38 dojo: seven POST acknowledgements labelled none beside one GET status labelled low). Its
#: ``text()`` is the decode alone: a linear pass (utf-8 unless the reply names a charset:
#: ``_resolve_charset``'s default), left out like a codec's.
AWAITED_JSON_REPLIES: frozenset[str] = frozenset(
    {f"aiohttp.ClientSession{built}.get().json" for built in ("", "()")}
    | {f"aiohttp.{module}.{cls}.json" for module in ("web", "web_request") for cls in ("Request", "BaseRequest")}
)
#: ``request(method, url)``, with the method written (or a parameter's literal default): the verb's own
#: call, so what is known of a GET's reply (:data:`AWAITED_JSON_REPLIES`, its sizing) applies to it.
#: As :data:`asynclint.knowledge.blocking.BUILT` entries: the callable -> (the method's keyword, its
#: position, {the method as written -> what the call returns, named as the verb's}). Every client
#: upper-cases the method (requests 2.32 ``Request.prepare_method``, httpx 0.28 ``Request.__init__``,
#: aiohttp 3.14.5 ``ClientSession._request``); aiohttp's module ``request()`` opens a ``ClientSession``
#: and runs ``session._request(method, url, ...)``, as ``session.get`` does (``client.py``).
REQUEST_METHODS: dict[str, tuple[str, int | None, dict[str, str]]] = {
    f"{spelled}.request": (
        "method",
        0,
        {repr(written): f"{made or spelled}.{verb}()" for verb in HTTP_VERBS for written in (verb, verb.upper())},
    )
    for owner, made in (*((client, "") for client in HTTP_CLIENTS), ("aiohttp", "aiohttp.ClientSession()"))
    # a client class is named as itself (a parameter annotated with it) or as built (``Client()``)
    for spelled in {owner, f"{owner}()" if owner.rpartition(".")[2][:1].isupper() else owner}
}
#: A response's reads of its body, whole (requests ``Response.content``/``text``/``json()``, httpx's and
#: its ``read()``/``aread()``, aiohttp ``ClientResponse.read()``/``text()``/``json()``, awaited): as
#: large as the server sent (a search API's reply, a page, a file), so of unknown size, whatever the
#: name it is bound to says (``content = await response.text()`` is not one message's content).
RESPONSE_BODY_READS: frozenset[str] = frozenset("content text json read aread".split())
#: The word of a payload read from an HTTP response's body (its shape is ``call``): size unknown.
RESPONSE_BODY = "<response-body>"
#: The word of a reply whose request asked for one small page of results (a count limit bound to a few,
#: or fields that carry no body: :mod:`asynclint.knowledge.replies`): one small item.
RESPONSE_PAGE = "<response-page>"
#: The word of a reply whose request asked for a document's body (``rvprop=...content``, a raw file
#: endpoint: :mod:`asynclint.knowledge.replies`): as large as the document.
RESPONSE_DOCUMENT = "<response-document>"
#: Every word of a payload read from an HTTP response's body, sized by its request or not.
RESPONSE_BODIES: frozenset[str] = frozenset({RESPONSE_BODY, RESPONSE_PAGE, RESPONSE_DOCUMENT})
#: Shell commands that print a whole file (``cat /testbed/test_output.txt`` run in a sandbox): what the
#: call gives back holds the file's contents, as a read of it would (ASL117 reads a test log so).
FILE_PRINTERS: frozenset[str] = frozenset({"cat"})
#: Shell syntax after which a command prints less than the file, or not to its caller: a pipe
#: (``| tail -n 20``), a redirection, a second command.
COMMAND_BOUNDS: frozenset[str] = frozenset({"|", ">", ";", "&&"})
#: The attributes of a command's result that hold what it printed.
COMMAND_OUTPUTS: frozenset[str] = frozenset({"stdout", "output"})
#: A read of a file named by a literal with one of these suffixes (``Path(__file__).with_name("runner.py")
#: .read_text()``) reads a program the project ships beside its code, a few KB: not a rollout-sized
#: payload (the word of such a ``read`` payload is :data:`SOURCE_FILE`), though its size is not known.
SOURCE_SUFFIXES: tuple[str, ...] = (".py", ".js", ".ts", ".sh")
SOURCE_FILE = "source"

# Provenance: what a value bound in the function holds is what it was computed from. A local name
# bound to one of these carries its source's evidence to the serializer it reaches (``s =
# reply.strip(); json.loads(s)``), and a source proven small makes the call not worth reporting.

#: Functions and methods whose result is as large as one of their arguments (name -> its
#: position): a parse or a dump of it, an encoding, a repair or a substitution in its text
#: (``json.loads(reply)`` is one reply's worth of objects; ``json_repair.repair_json(text)``
#: returns the text mended; ``re.sub(pattern, repl, text)`` the text edited; ``copy.deepcopy(x)``
#: a copy of ``x``; ``compile(source)`` the code of that source, for the ``exec`` it reaches).
#: Matched by the called name.
ARGUMENT_SIZED: dict[str, int] = {
    **dict.fromkeys(
        "loads dumps literal_eval repair_json b64encode b64decode urlsafe_b64encode urlsafe_b64decode "
        "dedent unescape escape deepcopy compile".split(),
        0,
    ),
    "sub": 2,
}
#: What serializes or copies one item it is handed, for a loop that does it to every item of a whole
#: collection (ASL119, :mod:`asynclint.analysis.index.itemdumps`): methods of the item (pydantic's dumps,
#: a dataclass-like ``to_dict``), and module functions (``module.function``, as written).
ITEM_DUMP_METHODS: frozenset[str] = frozenset("model_dump model_dump_json to_dict to_json".split())
ITEM_DUMP_FUNCTIONS: frozenset[str] = frozenset(
    "json.dumps orjson.dumps ujson.dumps pickle.dumps copy.deepcopy yaml.dump yaml.safe_dump".split()
)
#: Regex calls whose result is a list of the pieces the pattern cut out of a text (``re.findall``, a
#: compiled pattern's ``findall``): one item of it (``found[-1]``, ``found[-1][0]``) is a piece whose form
#: the pattern fixed, as a match's ``group()`` is (split 3 medcalc: ``eval(match[-1][0])`` of digits).
MATCH_LISTS: frozenset[str] = frozenset({"findall"})
#: Methods whose result is as large as their receiver (a same-size view or a reshaping of it).
RECEIVER_SIZED: frozenset[str] = frozenset(
    "model_dump model_dump_json dict to_dict json copy items values strip lstrip rstrip lower upper "
    "replace split splitlines encode decode removeprefix removesuffix".split()
)
#: Methods of a chat parser whose result is cut out of the text they are handed: verifiers'
#: ``Parser.parse(text)`` (and ``XMLParser``/``ThinkParser``'s) returns that text or fields of it.
#: Keyed by how the receiver's name ends (``parser``, ``self.parser``, ``self._answer_parser``).
PARSER_RECEIVER = "parser"
PARSER_ARGUMENT_SIZED: frozenset[str] = frozenset({"parse"})
#: The payload shape of an attribute of ``self`` that its class annotates as a scalar (``state: str`` on a
#: pydantic ticket): one small value, whatever its name (``self.state`` is no rollout state; main
#: automationbench schema/intercom.py ``to_display_dict``). The word is the attribute's name.
SCALAR_FIELD = "scalar-field"
#: What a helper's parameter holds when every project call hands it a value proven small there
#: (``helper(call.arguments)``): read as one small item.
HANDED_SMALL = "<one small item>"
#: What a helper's parameter holds when every project call hands it what a project function returns
#: and nothing there proves it small (``tokens(serialize(state["notes"]))``): of unknown size, whatever
#: the parameter is called. The callers show the value; the name (``text``) is only the helper
#: author's word for it.
HANDED_UNSIZED = "<a value its callers build>"
#: What a helper's parameter holds when a project call hands it a text holding a reasoning trace
#: (``_count_tokens(content + reasoning)``): of unknown size, and long for a tokenizer (:func:`long_text`).
HANDED_LONG = "<a text holding a reasoning trace>"
#: What a project function returns when the graph reads every one of its ``return`` statements and they
#: prove no size (``return {"order_id": order_id, "refunds": rows}`` of rows it builds): of unknown size,
#: whatever the function is called -- its name (``refund_history``) is the author's word for the call, not
#: for what it hands back (split 30 desk env.py:91, a tool's result of a few records, was critical by it).
RETURNS_UNSIZED = "<traced returns of no proven size>"
#: Marks what a hook's parameter holds by the framework's own call (``FRAMEWORK_HANDED + "tool_call"``
#: for ``call_tool``'s ``tool_json``): the word after it is the framework's name for the value.
FRAMEWORK_HANDED = "<framework>"
#: Separates a ``returned`` payload's callee from the argument slots proven small where it is called
#: (see :func:`asynclint.analysis.index.argfacts.returned_word`). The callee is dotted, its last
#: name the function's own (a method on ``self`` too: ``<self>pkg.env.Env._last_json``).
RETURNED_SLOTS = "|"
#: Written after the callee of a ``returned`` payload's word when the payload is one item a loop takes
#: from the call's result (``for name, args in tool_calls(c)``), then the element of that item it is
#: (``[1]``) or nothing: a generator's item is what it yields (ModuleSummary.yielded_fields), a
#: function's that returns is one item of what it returns, as the word without the mark says.
YIELDED = "<item>"
#: Defaults that switch a feature off (``log_trajectories="none"``, ``attack=None``,
#: ``max_context_tokens=-1``): code behind a test of an attribute still holding one runs only where a
#: user turns the feature on (a default picking one of several backends, ``"bm25"``, is no such value).
OFF_VALUES: frozenset[object] = frozenset({None, False, "", "none", "off", "disabled", "false", "no"})


def switched_off(default: object) -> bool:
    """Does ``default`` (a constant) leave a feature off: one of :data:`OFF_VALUES`, zero or a negative
    number?"""
    if isinstance(default, str):
        return default.lower() in OFF_VALUES
    if isinstance(default, (int, float)) and not isinstance(default, bool):
        return default <= 0
    return default in OFF_VALUES


#: The dataset column a rollout reads back as ``state["info"]`` (or a hook's ``info``): sized by what
#: the project puts there (ModuleSummary.row_fields), and so are its fields (``info["lang"]``).
INFO_COLUMN = "info"
#: Dataset features that say a column's values are big: ``datasets.Value`` of an Arrow type with 64-bit
#: offsets (``large_string``, ``large_binary``: what a column needs once its values pass 2 GB in one
#: chunk) and ``datasets.LargeList`` (datasets 5.2.0, ``datasets/features/features.py``). A dataset build
#: that casts a column to one (``features["info"] = Value("large_string")``, with its author's comment
#: "longmemeval_m has ~5M chars per row": split 15 longmemeval_explore.py:418) says its rows hold large
#: values: a field of that column of unknown size is read back as a whole payload. Names as imported.
ARROW_VALUES: frozenset[str] = frozenset(
    {"datasets.Value", "datasets.features.Value", "datasets.features.features.Value"}
)
LARGE_DTYPES: frozenset[str] = frozenset({"large_string", "large_binary"})
LARGE_FEATURES: frozenset[str] = frozenset(
    {"datasets.LargeList", "datasets.features.LargeList", "datasets.features.features.LargeList"}
)
#: The shape of a row field entry (ModuleSummary.row_fields) that records such a cast of its column.
LARGE_COLUMN = "large-column"
#: The shape of a collection the function filled item by item from things of unknown size
#: (``results = []`` then ``results.append(c.to_dict())`` in a loop over ``world.campaigns``): its
#: size is what filled it, unknown, whatever the collection is called (the word is its name).
GROWN = "grown"
#: The shape of a piece cut out of a text or a collection by a slice whose bounds keep a constant
#: count (``p.read_text()[:8000]``, ``messages[-5:]``, ``text[i : i + 200]``): its word is what it
#: was cut from, then ``[:count]`` (``[:count characters]`` for a cut known to be of a text: a file's
#: contents, a response's body). Items of a collection, each as large as one item of it
#: (``messages[-1]`` is one small item): up to :data:`FEW` of them are one small item; characters of a
#: text, up to :data:`SHORT_TEXT`. More are bounded but of unknown size -- a file's first 8000
#: characters dump to json in well under a millisecond, as a few replies do -- never the whole,
#: whatever they were cut from. A slice that keeps all but a few (``[1:]``, ``[:-1]``) or whose bound
#: is computed keeps its source's size.
CUT = "cut"
#: The shape of the new part of a text or collection past what an earlier value of it held
#: (``input_text[len(existing_text):]``: atropos managed_server.py:278 encodes only that suffix of the
#: chat-templated prompt; ``actions[len(self.applied_actions):]``): one turn's addition -- a reply, a
#: tool's result --, never the whole it was cut from, but of unknown size (a tool's result can be long).
#: What the slice starts after says so by a :data:`PRIOR_TOKENS` word; past anything else (``s[len(prefix):]``,
#: ``messages[len(prompt):]``: the completion past the fixed prompt) the rest keeps its source's size.
#: Its word is what it was cut from.
SUFFIX = "suffix"
#: Name tokens of an earlier value of what grows (the text already encoded, the actions already
#: applied): a slice starting past its length keeps what came since (:data:`SUFFIX`).
PRIOR_TOKENS: frozenset[str] = frozenset("existing prev previous seen old applied sent done processed consumed".split())
CUT_MARK = "[:"
CUT_TEXT = " characters"
#: The most characters a text cut to a constant length holds as one small item: one model reply's
#: worth (a 330-word reply is 1.7 KB, the size WORK_MICROS's ``regex`` unit is measured on).
SHORT_TEXT = 2_000
#: Marks a payload's word as a key of the rollout's state that the project fills (``state["stage_history"]``
#: is ``state:stage_history``): sized by what the project stores there (ModuleSummary.state_fields) when
#: it stores anything traceable, else by the key, as any key is.
STATE_KEY = "state:"
#: The word of a loop variable over the pieces of a file's contents (``for line in
#: path.read_text().splitlines()``): each piece in turn is all of the contents over the loop, so a
#: parse or dump of each costs what one of the whole file does (``payload-file``), counted once.
FILE_PIECES = "<a file's contents>"
#: Payload evidence from the largest to the smallest.
SIZE_ORDER: tuple[str, ...] = ("whole", "unknown", "small")


def payload_evidence(shape: str, word: str) -> str:
    """``small``, ``whole`` or ``unknown`` for a payload argument of ``shape`` whose name,
    attribute or string key is ``word`` (see :func:`asynclint.analysis.index.argfacts.payload_of`)."""
    if shape == EXPONENTIAL or word == FILE_PIECES:
        return "whole"
    word = shown(word)
    if shape in ("literal", "item", "match", SCALAR_FIELD) or word == HANDED_SMALL:
        return "small"
    if word in (HANDED_UNSIZED, HANDED_LONG):
        return "unknown"
    if shape == "each" and word in COUNTING_ITERABLES:
        return "small"
    if shape == "read":
        return "unknown" if word == SOURCE_FILE else "whole"
    if shape in (GROWN, SUFFIX):
        return "unknown"
    if shape == CUT:
        return "small" if cut_count(word) <= (SHORT_TEXT if word.endswith(f"{CUT_TEXT}]") else FEW) else "unknown"
    if shape == LARGE_COLUMN:
        return "whole"
    if shape == "display":  # ``{"ok": False, "error": reason}``: as large as the names it holds
        return "whole" if any(payload_evidence("name", name) == "whole" for name in word.split()) else "small"
    if shape == "call" and word in SCALAR_CALLS:
        return "small"  # ``calls_made = sum(...)``: a number, whatever it counted
    if shape == "call" and word == MODEL_REPLY:
        return "small"  # one completion object: one reply's worth
    if shape == "call" and word in (RESPONSE_PAGE, RESPONSE_DOCUMENT):
        return "small" if word == RESPONSE_PAGE else "whole"  # what the request asked for
    if shape == "returned":  # what a project function returns, as its name says until the graph settles it
        name = returned_name(word)
        if name.lower().startswith(GETTER_PREFIX):
            return payload_evidence("name", name[len(GETTER_PREFIX) :])  # ``self.get_state()`` returns the state
        return payload_evidence("call", name)
    named = word.rpartition(".")[2].lower()
    if named in TOKEN_LISTS or step_prompt(word):
        return "whole"
    if named in REASONING_TRACES:
        return "unknown"
    if "." in word and shape in ("attr", "each", "name", "key") and SETTINGS_OWNERS & set(word.split(".")[:-1]):
        return "small"  # ``self.config.upstream_json``, ``cfg.disabled_tools``: a setting a user wrote
    if "." in word and shape in ("attr", "each", "name", "key"):
        # ``world.gmail.messages``: a field of an object that is not the rollout's state (see
        # :func:`asynclint.analysis.index.argfacts.attribute_path`) is small when its name says so,
        # but not the rollout's messages because of its name.
        last = payload_evidence(shape, word.rpartition(".")[2])
        return "small" if last == "small" else "unknown"
    tokens = word.lower().rsplit("_", 1)
    last = tokens[-1]
    if last in WHOLE_TOKENS or word.lower() in WHOLE_TOKENS or word.lower() in WHOLE_NAMES:
        return "whole"
    if last in SMALL_TOKENS or word.lower() in SMALL_TOKENS:
        return "small"
    return "unknown"


def sized_by_name(key: str) -> bool:
    """Is ``key`` (a field, key or attribute) a prompt's token ids or a reasoning trace, sized by its name even
    as a field of one small item (one turn's ``prompt_ids`` hold the whole prompt; one message's
    ``reasoning_content`` is ten times its reply)?"""
    return key.lower() in TOKEN_LISTS | REASONING_TRACES


def long_text(word: str) -> bool:
    """Does ``word`` name a text holding a model's reasoning trace (``reasoning_content``, what a helper's
    callers hand it: :data:`HANDED_LONG`)? Long, for a grade table naming the size ``long``."""
    return word == HANDED_LONG or shown(word).rpartition(".")[2].lower() in REASONING_TRACES


def prior(name: str) -> bool:
    """Does ``name`` (``existing_text``, ``prev_len``, ``n_seen``) say it holds an earlier value of what grows?"""
    return any(token in PRIOR_TOKENS for token in name.lower().split("_"))


def cut_count(word: str) -> int:
    """How many items or characters a :data:`CUT` payload's word says the slice keeps."""
    return int(word.rpartition(CUT_MARK)[2].removesuffix("]").removesuffix(CUT_TEXT))


def cut_word(source: str, count: int, text: bool) -> str:
    """The word of a :data:`CUT` payload: ``source`` (what it was cut from, a text when ``text``) kept to ``count``."""
    return f"{source}{CUT_MARK}{count}{CUT_TEXT if text else ''}]"


def returned_name(word: str) -> str:
    """The function's own name in a ``returned`` payload's word (``pkg.mod.Env._last_json|0``)."""
    return returned_callee(word)[0].rpartition(".")[2]


def returned_callee(word: str) -> tuple[str, str | None]:
    """The callee in a ``returned`` payload's word, and the element of one item taken from its result
    the word stands for (:data:`YIELDED`: ``""`` for the item, ``[1]``), ``None`` for the whole result."""
    callee, marked, field = word.partition(RETURNED_SLOTS)[0].partition(YIELDED)
    return callee, field if marked else None


def item_word(word: str, field: str) -> str:
    """The word of ``field`` (``""``: all) of one item a loop takes from the result in ``returned`` word ``word``."""
    callee, slots, rest = word.partition(RETURNED_SLOTS)
    return f"{returned_callee(callee)[0]}{YIELDED}{field}{slots}{rest}"


def shown(word: str) -> str:
    """``word`` without the marks of :data:`STATE_KEY`: the names as the code writes them."""
    return word.replace(STATE_KEY, "") if STATE_KEY in word else word


def named_state(word: str) -> bool:
    """``word`` names the rollout's state itself (``state``, ``trace.state``, :data:`WHOLE_NAMES`)."""
    return shown(word).rpartition(".")[2].lower() in WHOLE_NAMES


def token_list(word: str) -> bool:
    """Is ``word`` (``tokens.prompt_ids``, ``step["prompt_token_ids"]``, a trajectory step's ``prompt``) a turn's
    whole prompt, as token ids or messages: one turn's field, the whole prompt at that turn, so that a loop that
    handles it goes over the turns?"""
    return shown(word).rpartition(".")[2].lower() in TOKEN_LISTS or step_prompt(word)


def step_prompt(word: str) -> bool:
    """Is ``word`` (``trajectory.prompt``: a field read off an item of a collection) a field of :data:`STEP_PROMPTS`?"""
    owner, _, field = shown(word).lower().rpartition(".")
    return field in STEP_PROMPTS.get(owner.rpartition(".")[2], ())


def grows(word: str) -> bool:
    word = shown(word)
    return word.lower().rsplit("_", 1)[-1] in GROWING_TOKENS or token_list(word)


def record_field(path: tuple[str, ...]) -> bool:
    """Is ``path`` (a value's root, then the keys and attributes read down from it: ``("info",
    "board")`` for ``info["board"]``, ``("data", "metadata", "grid")``) a field of one record -- a
    task's data, sized by the dataset -- rather than the rollout's history, which grows every turn
    (``state["completion"]``, ``messages[-1]``, ``trajectory``)? A key of a framework mapping
    (``state["board"]``) is read for its key, not its mapping's name. ``[]`` is a key not written
    as a constant. A text (``msg["content"]``, ``info["answer"]``: :data:`SMALL_TOKENS`) is not: small
    to parse, but hundreds of characters to loop over."""
    if len(path) < 2 or path[-1].lower().rsplit("_", 1)[-1] in SMALL_TOKENS:
        return False
    return not any(grows(part) for part in path[path[0] in FRAMEWORK_MAPPINGS :])


def describe_payload(shape: str, word: str, evidence: str) -> str:
    """The evidence in words, for messages: "`state` (a whole rollout-sized payload)"."""
    if shape == EXPONENTIAL:
        return f"an array whose side is `{word}` (a power of two of an input: exponential in it)"
    word = shown(word)
    if shape == "literal":
        return "a short literal"
    if shape == "item":
        return f"one item of `{word}`" if word else "one item"
    if shape == SCALAR_FIELD:
        return f"`{word}` (a scalar field of its class: one small item)"
    if shape == "display":  # what a function returns, by the function's name: ``recorded()``
        held = " ".join(f"{returned_name(part)}()" if RETURNED_SLOTS in part else part for part in word.split())
        return "a short display" if evidence == "small" else f"a display holding `{held}`"
    if shape == "each" and word == FILE_PIECES:
        return "every piece of a file's contents in turn (all of it, over the loop)"
    if shape == "each" and evidence != "unknown":
        kind = "all of it, over the loop" if evidence == "whole" else "one small item at a time"
        return f"every item of `{word}` in turn ({kind})"
    if shape == "read":
        return "a source file the project ships (size unknown)" if word == SOURCE_FILE else "a file's contents"
    if shape == GROWN:
        return f"`{word}`, filled item by item ({_SIZE_WORDS[evidence]})"
    if shape == CUT:
        source, _, count = word.rpartition(CUT_MARK)
        of = f"`{source}`" if source else "what it was cut from"
        bound = "one small item" if evidence == "small" else "bounded, size unknown"
        unit = "characters" if count.endswith(f"{CUT_TEXT}]") else "items or characters"
        return f"at most {cut_count(word)} {unit} of {of} ({bound})"
    if shape == "match":
        return "a regex match cut out of a text"
    if shape == SUFFIX:
        return f"the new part of `{word}` past an earlier value of it (one turn's, size unknown)"
    if shape == "returned" and returned_callee(word)[1] is not None:
        return f"one item of what `{returned_name(word)}` gives ({_SIZE_WORDS[evidence]})"
    if shape == "returned":
        return f"what `{returned_name(word)}` returns ({_SIZE_WORDS[evidence]})"
    if word == MODEL_REPLY:
        return "one completion object a model API returned (one small item)"
    if word == RESPONSE_BODY:
        return "an HTTP response's body (size unknown)"
    if word == RESPONSE_PAGE:
        return "an HTTP response's body holding one page of results, as its request asks (one small item)"
    if word == RESPONSE_DOCUMENT:
        return "an HTTP response's body holding a document's content, as its request asks"
    if not word:
        return "a payload of unknown size"
    return f"`{word}` ({_SIZE_WORDS[evidence]})"


_SIZE_WORDS = {
    "whole": "a whole rollout-sized payload",
    "long": "a long text: a model's reasoning trace",
    "small": "one small item",
    "unknown": "size unknown",
}


# -- loop nests in project code (rule ASL115) -------------------------------------------------

#: The most items a display written out in the source (``[a, b, c]``, ``{"k": v}``), the characters
#: of a constant string iterated, or the bounds of ``range`` of constants may have to count as a
#: fixed few: a loop over them is not one over data, and a display of them is as large as its items.
FEW = 16
#: Name tokens of a rollout's messages and turns (the last token of a name, attribute or string
#: key decides, as for payloads): a loop over them runs tens of times, however long each message
#: is, so it does not make a loop nest grow with the payload. What is computed *from* them (the
#: text of the last reply) is sized by its characters, not by the count of messages.
FEW_ITEM_TOKENS: frozenset[str] = frozenset(
    "messages completion completions prompt prompts history histories conversation conversations turns steps "
    "trajectory trajectories tool_calls choices".split()
)
#: Name tokens of one dataset row's reference answers: the answers it accepts or ranks are a few (split
#: 20 longbenchpro ``combinations(norm_answers, 2)`` of one row's ranked answers), not data. One answer
#: (``answer``) is a text: its characters are as many as it is long.
ANSWER_TOKENS: frozenset[str] = frozenset({"answers"})
#: Builtins whose items are the items of their (first) argument: a loop over
#: ``sorted(root.rglob("*.py"))`` goes through paths (``blocking.ITEM_KEEPERS``).
SAME_ITEM_BUILTINS = frozenset({"reversed", "sorted", "list", "tuple", "set", "frozenset", "iter"})
#: Builtins whose result has as many items as their (first) argument: the above, and ``enumerate``
#: (pairs) and ``dict`` (keys of pairs).
SAME_ITEMS = SAME_ITEM_BUILTINS | {"enumerate", "dict"}
#: A mapping's entries: the fields of one record, the filters or settings of one call -- a few,
#: however large the data they describe (a loop over them does not grow with the payload).
MAPPING_ENTRIES = frozenset({"items", "keys", "values"})
#: A 2-D table: a list of lists, or an array (``numpy.zeros((m, n))``) filled cell by cell.
ARRAY_MAKERS = frozenset({"zeros", "ones", "full", "empty"})
#: Functions that build an array of the shape (or the side) they are handed first.
SHAPED_ARRAYS = ARRAY_MAKERS | {"eye", "identity"}
#: The payload shape of an array whose side is a power of two of an input (``numpy.zeros((dim, dim))``
#: with ``dim = 1 << n_qubits``, ``numpy.eye(2 ** n)``): a quantum register's statevector or operator,
#: 4,096 x 4,096 complex numbers (256 MB) at 12 qubits. Whole, as a dataset is: it grows
#: exponentially with the input, not with the rollout. ``word``: the power written.
EXPONENTIAL = "exponential"
#: The most entries of an array built at a size the source writes out (``numpy.eye(3)``) that is one
#: small item: a 64 x 64 matrix, whose eigendecomposition takes well under a millisecond.
SMALL_ARRAY = 64 * 64
#: The word of a count bound to a power of two (``dim = 1 << n_qubits``): a number (a ``literal``),
#: which an array built at that side makes :data:`EXPONENTIAL`.
POWER_MARK = "<power> "
#: ``itertools`` functions whose items multiply: iterating one over data that is not a fixed few
#: constants is super-linear by itself (-> what it goes through, in words).
COMBINATORIAL: dict[str, str] = {
    "itertools.permutations": "every ordering",
    "itertools.combinations": "every combination",
    "itertools.combinations_with_replacement": "every combination",
    "itertools.product": "every tuple of the product",
}
#: How many items each of COMBINATORIAL yields, for ``n`` counted items and a length ``k``:
#: ``product`` multiplies its arguments' counts (``repeat=k`` raises it to a power), ``choose`` is
#: n choose k, ``multichoose`` (n+k-1) choose k, ``arrange`` n!/(n-k)! (``k`` defaults to ``n``).
#: The generators whose items are exponential in a count the data gives (:mod:`asynclint.analysis.index.exponents`):
#: ``repeat``: ``product(pool, repeat=n)``, len(pool)^n tuples; ``orderings``: ``permutations(items)``, n! of them.
EXPONENTIAL_GENERATORS: dict[str, str] = {
    "itertools.product": "repeat",
    "itertools.permutations": "orderings",
}
COMBINATORIAL_COUNTS: dict[str, str] = {
    "itertools.permutations": "arrange",
    "itertools.combinations": "choose",
    "itertools.combinations_with_replacement": "multichoose",
    "itertools.product": "product",
}


#: Name tokens of one short string or a handful of symbols (``word1``, ``guess``, ``token``): a
#: loop over its characters runs a few times (an edit distance of two dictionary words is a few
#: dozen cells, microseconds).
SHORT_ITEM_TOKENS: frozenset[str] = frozenset("word token char letter digit symbol name key id label tag guess".split())


def few_items(word: str) -> bool:
    """A rollout's messages or turns (``completion``, ``state["messages"]``), one row's reference
    answers (``answers``), or one short string (``word1``), by the name that holds them: a loop over
    it runs a few times."""
    name = shown(word)
    return (
        name.lower().rstrip("0123456789") in FEW_ITEM_TOKENS
        or _last_token(name) in FEW_ITEM_TOKENS | ANSWER_TOKENS
        or short_item(name)
    )


def short_item(name: str) -> bool:
    """A name that says it holds one short string (``env_name``, ``task_id``, ``word1``)."""
    return _last_token(name) in SHORT_ITEM_TOKENS


def _last_token(name: str) -> str:
    """``name``'s last ``_``-separated token, lowercase, without trailing digits."""
    return name.lower().rstrip("0123456789").rsplit("_", 1)[-1]


# -- bounded work in project code (rule ASL116) -----------------------------------------------

#: The work estimate's units, in microseconds (``bench/bench_loop_work.py`` measures them side by
#: side on this project's shared 2-core machines, CPython 3.11: step 0.064, call 0.031, copy
#: 0.30-0.37, deepcopy 30-180 under varying load): one statement of a loop's body (a subscript
#: store of some arithmetic), one call of a function whose body is not estimated (a builtin, a
#: library call, a method the graph does not resolve), a shallow copy of a container of about a
#: hundred items (a project ``copy()`` that copies its list, ``dict(state)``), a deep copy of an
#: object holding one (the low end of what was measured: unknown sizes are not guessed large).
#: An ``array`` is one call of a function of an array library (:data:`ARRAY_LIBRARIES`) on small
#: arrays (tens of items, a day's prices): measured at 0.75 µs (``numpy.zeros``) to 2 µs (a ufunc,
#: ``count_nonzero``) and 6-45 µs (reductions: ``sum``, ``mean``, ``std``, ``isclose``); the unit
#: is the low end, as for the other units.
WORK_MICROS: dict[str, float] = {
    "step": 0.07,
    "call": 0.04,
    "copy": 0.3,
    "deepcopy": 50.0,
    "regex": 10.0,
    "array": 1.0,
}
#: Array libraries, by the prefix of the resolved names of their functions: a call weighs an
#: ``array`` unit of WORK_MICROS, not a Python call's.
ARRAY_LIBRARIES: tuple[str, ...] = ("numpy.",)
#: The calls that run a regex over a text, by resolved name -> the position of the text among their
#: arguments: ``re``'s functions and a compiled pattern's methods. One counts as a ``regex`` unit
#: of WORK_MICROS, a pass over one model reply (a 330-word essay, 1.7 KB; a constant text written in
#: the call counts as a call): the size a prose reward's table of patterns runs over, a lower bound
#: for a page. ``bench/bench_loop_work.py`` measures one pass (two runs on a loaded machine) at
#: 3-3.5 µs (a case-sensitive literal, which CPython scans for its first character), 11-13 µs each
#: for a table of 48 case-insensitive phrases (the shape: 0.5-0.6 ms, estimated 0.49 ms), 28-55 µs
#: (one case-insensitive literal) and 85-145 µs (a ``\b``-delimited word alternation): the unit is
#: the table's, the low end of real patterns.
_SCANS = ("search", "match", "fullmatch", "findall", "finditer", "split")
_PATTERNS = ("re.compile()", "re.Pattern")  # a compiled pattern, as the index types one
REGEX_PASSES: dict[str, int] = {
    **{f"re.{name}": 1 for name in _SCANS},  # re.search(pattern, text)
    **{f"re.{name}": 2 for name in ("sub", "subn")},  # re.sub(pattern, replacement, text)
    **{f"{pattern}.{name}": 0 for pattern in _PATTERNS for name in _SCANS},
    **{f"{pattern}.{name}": 1 for pattern in _PATTERNS for name in ("sub", "subn")},
}
#: Calls that copy a container they are handed (shallow), by resolved name, and the methods that
#: copy their receiver when no project function answers the call.
COPIERS: frozenset[str] = frozenset({"copy.copy", "builtins.dict", "builtins.list", "builtins.set"})
DEEP_COPIERS: frozenset[str] = frozenset({"copy.deepcopy"})
COPY_METHODS: frozenset[str] = frozenset({"copy"})
#: The grade of a loop's estimated work per call: (the least microseconds, cost class), largest
#: first. The estimate counts every loop the syntax cannot bound once, so it is mostly a lower
#: bound: ``bench/bench_loop_work.py`` measures its shapes at 1.3x (a 500-tick simulation whose
#: inner loops the code bounds) to 5x and 20x+ (searches whose scans of the state the syntax cannot
#: bound) their estimates, and the held-out Megaminx search at 5-10x (24 copies-and-moves estimated
#: 0.27 ms run 1.5 ms; 576 of them, estimated 7.6 ms, run 78 ms). So 1 ms estimated is a few ms
#: real, the rubric's CPU-heavy medium; below 0.1 ms estimated (well under a millisecond real) a
#: loop is one short stall, cheaper than the process-pool hop (175 µs) plus pickling that would move
#: it, and is not reported. (A conditional count, ``range(1 if cw else 4)``, takes the larger, and
#: the message says "up to".)
WORK_GRADES: tuple[tuple[float, str], ...] = (
    (25_000.0, "cpu-work-heavy"),
    (1_000.0, "cpu-work"),
    (100.0, "cpu-work-light"),
)


#: The most a loop whose count is a ceiling the body leaves early (``WorkLoop.ceiling``: a clock run
#: to a time limit by a fixed step, which breaks when the outcome is decided) is graded: the estimate
#: at the full count says what a run that decides nothing costs. Measured by
#: ``bench/bench_integrator_loop.py`` on split 32's marble_v1 (240 Hz up to 26 s: 6,240 steps, 41 ms
#: by the estimate): the levels' own runs end at 4.4-6.5 s of simulated time (a fifth of the count),
#: 4-25 ms a call on the loaded 2-core machine, median 13 ms -- medium's band, not high's.
CEILING_WORK_COST = "cpu-work"


def work_cost(micros: float) -> str | None:
    """The cost class of a loop estimated at ``micros`` per call (:data:`WORK_GRADES`), ``None`` below
    the least."""
    return next((cost for floor, cost in WORK_GRADES if micros >= floor), None)
