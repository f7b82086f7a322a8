"""Group the hand labels of every tuning split by kind of call and by how often its path runs.

The rubric (README.md, "Labels") grades a call by what it costs on the data it gets times how often
the path runs. Two labels of the same kind of call on a path that runs as often should then carry
the same grade unless the code says otherwise (a bigger payload, a loop, a dead branch). This
script puts the labels of ``labels.jsonl`` and every tuning split's ``heldoutN.jsonl`` into groups keyed by a
normalised callee kind and a frequency word read from the label's ``where``, and prints each
group's label counts and lines; the groups whose labels disagree are the audit list. A
disagreement is not an error by itself: the reasons say why two lines differ, and the audit reads
the code. A split drawn as the next after-number is read only once it has been run.

    python bench/accuracy/label_consistency.py                 # disagreeing groups, biggest first
    python bench/accuracy/label_consistency.py --all           # every group
    python bench/accuracy/label_consistency.py --kind file-read --freq group

Stdlib only.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import NamedTuple

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_accuracy import AFTER_NUMBER, SPLITS  # noqa: E402  (one list of the splits for every bench)

# Tuning splits only: a split drawn as an after-number stays unread until the session that drew it
# has run it (then it leaves AFTER_NUMBER and joins these).
SPLIT_FILES = tuple(labels.stem for name, (_, labels, _) in SPLITS.items() if name not in AFTER_NUMBER)

GRADES = ("critical", "high", "medium", "low", "none")

# Callee kinds, first match wins: more specific patterns come before the ones they overlap
# (json.load of a file before a file read, a write before a read, base64 before a codec).
KINDS: tuple[tuple[str, str], ...] = (
    ("json.loads", r"\bjson\.loads\b|\borjson\.loads\b|\.json\(\)|response\.json\b"),
    ("json.dumps", r"\bjson\.dumps\b|\borjson\.dumps\b|model_dump_json"),
    ("json.load-file", r"\bjson\.load\b|\byaml\.(safe_)?load\b|\btomllib\.load\b"),
    ("json.dump-file", r"\bjson\.dump\b|\byaml\.(safe_)?dump\b"),
    ("base64", r"\bbase64\b|b64encode|b64decode|image_data_url"),
    ("sqlite", r"\bsqlite3?\b|\.commit\(|\.execute\(|cursor"),
    ("deepcopy", r"\bdeepcopy\b"),
    ("pydantic", r"model_dump|model_validate|model_copy"),
    ("file-write", r"write_text|write_bytes|\bopen\b.*['\"][wa]b?['\"]|open\s*\((write|append)|\bwrite\b"),
    ("file-read", r"read_text|read_bytes|\bopen\b|\.read\(|\bread\b"),
    ("fs-tree", r"rmtree|copytree|copyfile|shutil\.copy|shutil\.move|\btarfile\b|\bzipfile\b|extract"),
    ("fs-listing", r"\bglob\b|rglob|iterdir|listdir|scandir|os\.walk|\bwalk\b"),
    ("fs-metadata", r"exists|is_file|is_dir|mkdir|makedirs|unlink|resolve|\bstat\b|getsize|remove|rename|chmod"),
    ("tempfile", r"\btempfile\b|mkdtemp|TemporaryDirectory|NamedTemporaryFile"),
    ("sleep", r"\bsleep\b"),
    ("subprocess", r"\bsubprocess\b|Popen|os\.system|check_output"),
    (
        "network",
        r"\brequests\b|urlopen|httpx\.(get|post|request)\b|\.create\b|completions|\bchat\.|exa_py|"
        r"hf_hub_download|socket",
    ),
    ("http-client-ctor", r"^(openai\.)?(Async)?OpenAI\b|httpx\.(Async)?Client\b|AsyncSandboxClient\(?$"),
    (
        "model-load",
        r"from_pretrained|SentenceTransformer|\bpipeline\b|nltk\.download|load_model|"
        r"\bspacy\.load\b|\btorch\.load\b|\bevaluate\.load\b|PersistentClient",
    ),
    ("exec", r"^(eval|exec)\b|exec_module|import_module"),
)
KIND_RE = tuple((kind, re.compile(pattern, re.IGNORECASE)) for kind, pattern in KINDS)

# Frequency words of a label's ``where``, first match wins: a first-call guard or a dead branch
# says more than the hook it sits in; a group (back to back) more than "per rollout"; a frequency
# the label states ("per tool call", "twice per rollout") more than a start-up hook named on the
# way to it ("LocaMCPManager.__init__ -> ...", "(load_environment default 'local')"). Tests of a
# reward ("per test case", "per test (~3)") are not a test suite.
FREQS: tuple[tuple[str, str], ...] = (
    ("first call", r"first (call|rollout|use|turn)|lazy|cached|cache miss|behind a guard|once per process"),
    (
        "dead/cold",
        r"dead|never called|not imported|offline|\bscripts?\b|off by default|default none"
        r"|(?<!per )(?<!each )\btests?\b(?! cases?)",
    ),
    ("group", r"group|back to back"),
    ("per tool call", r"(per|every|each) (tool )?call\b|tool call"),
    ("per turn", r"per (model )?turn|each turn"),
    ("per rollout", r"(per|once per|twice per|every) rollout"),
    ("once", r"load_environment|module top level|top level|__init__|teardown|dataset build|at load"),
    ("per tool call", r"\btool\b"),
    ("per turn", r"env_response|intercept|\bturn\b"),
    ("per rollout", r"rollout|reward|metric|setup_state|cleanup|finalize|scor|judge|rubric"),
)
FREQ_RE = tuple((freq, re.compile(pattern, re.IGNORECASE)) for freq, pattern in FREQS)


class Row(NamedTuple):
    split: str
    lineno: int
    label: str
    kind: str
    freq: str
    record: dict


def kind_of(callee: str) -> str:
    for kind, pattern in KIND_RE:
        if pattern.search(callee):
            return kind
    head = re.split(r"[\s(\[]", callee.strip(), maxsplit=1)[0]
    return head or "?"


def freq_of(where: str) -> str:
    for freq, pattern in FREQ_RE:
        if pattern.search(where):
            return freq
    return "?"


def load_rows(here: Path = HERE) -> list[Row]:
    rows: list[Row] = []
    for split in SPLIT_FILES:
        path = here / f"{split}.jsonl"
        if not path.exists():
            continue
        for n, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not raw.strip():
                continue
            record = json.loads(raw)
            callee = record.get("callee", "")
            rows.append(Row(split, n, record["label"], kind_of(callee), freq_of(record.get("where", "")), record))
    return rows


def groups(rows: list[Row]) -> dict[tuple[str, str], list[Row]]:
    grouped: dict[tuple[str, str], list[Row]] = defaultdict(list)
    for row in rows:
        grouped[row.kind, row.freq].append(row)
    return grouped


def disagreement(members: list[Row]) -> int:
    """How many labels of a group differ from its most common label."""
    counts = Counter(row.label for row in members)
    return len(members) - counts.most_common(1)[0][1]


def render(key: tuple[str, str], members: list[Row], width: int, out=sys.stdout) -> None:
    counts = Counter(row.label for row in members)
    summary = " ".join(f"{grade}:{counts[grade]}" for grade in GRADES if counts[grade])
    print(f"\n== {key[0]} / {key[1]}: {len(members)} labels ({summary})", file=out)
    for row in sorted(members, key=lambda r: (GRADES.index(r.label), r.split, r.lineno)):
        rec = row.record
        text = f"{rec.get('callee', '')} | {rec.get('where', '')} | {rec.get('reason', '')}"
        if width and len(text) > width:
            text = text[: width - 3] + "..."
        print(f"  [{row.label:8}] {row.split}.jsonl:{row.lineno} {rec['path']}:{rec['line']}  {text}", file=out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--all", action="store_true", help="print the groups whose labels agree too")
    ap.add_argument("--kind", help="only this callee kind (see KINDS; otherwise the callee's first word)")
    ap.add_argument("--freq", help="only this frequency word (" + ", ".join(f for f, _ in FREQS) + ", ?)")
    ap.add_argument("--width", type=int, default=220, help="cut each line's text at this width (0: never)")
    args = ap.parse_args(argv)
    try:
        rows = load_rows()
    except (OSError, ValueError, KeyError) as exc:
        print(f"label_consistency: error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2
    grouped = groups(rows)
    chosen = [
        (key, members)
        for key, members in grouped.items()
        if (args.all or disagreement(members))
        and (not args.kind or key[0] == args.kind)
        and (not args.freq or key[1] == args.freq)
    ]
    chosen.sort(key=lambda item: (-disagreement(item[1]), -len(item[1]), item[0]))
    split_disagreeing = sum(1 for members in grouped.values() if disagreement(members))
    try:
        print(
            f"{len(rows)} labels in {len(SPLIT_FILES)} files, {len(grouped)} groups (kind / frequency), "
            f"{split_disagreeing} with labels that disagree; printed: {len(chosen)}"
        )
        for key, members in chosen:
            render(key, members, args.width)
        sys.stdout.flush()
    except BrokenPipeError:
        # Piped into `head`: the reader has what it wanted; silence the flush at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


if __name__ == "__main__":
    sys.exit(main())
