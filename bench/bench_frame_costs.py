#!/usr/bin/env python
"""What one call of polars' readers and writers costs on the loop, beside the cheap calls of the same library.

The ``polars_frames`` knowledge pack reports polars' file readers and writers (a path is read or
written on disk, a buffer in memory is parsed) and leaves frame building and expressions alone;
this measures both sides in one run, on a synthetic table of realistic shape (an id, a label, a
float and a timestamp column): ``read_parquet``/``read_csv``/``read_ipc``/``read_ndjson`` of a file
on disk, ``read_parquet`` of the same bytes in memory (``io.BytesIO``), ``write_parquet`` and
``write_csv`` to a path, ``testing.assert_frame_equal`` of two equal frames, and the calls the pack
does not report: building a frame from a dict of 20 rows, ``with_columns`` of a cast, a ``pl.col``
expression. Each is the median of ``--repeat`` timings, printed with its ratio to building the
small frame. Needs polars importable (``pip install polars``, or ``--path`` to a directory holding it).

Usage::

    python bench/bench_frame_costs.py --rows 2000
    python bench/bench_frame_costs.py --path /tmp/polars-target --repeat 50
"""

from __future__ import annotations

import argparse
import io
import tempfile
from pathlib import Path

from costbench import add_target_option, import_measured, timed  # bench/, the script's own directory, is sys.path[0]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_target_option(parser, "polars")
    parser.add_argument("--rows", type=int, default=2000, help="rows of the table read and written (default 2000)")
    parser.add_argument("--repeat", type=int, default=20, help="timed calls per measurement (default 20)")
    args = parser.parse_args(argv)
    imported = import_measured(args.path, "polars", "polars", "polars.testing")
    if imported is None:
        return 2
    pl, testing = imported
    assert_frame_equal = testing.assert_frame_equal
    n = args.rows
    frame = pl.DataFrame(
        {
            "id": list(range(n)),
            "label": [f"item-{i % 97}-{'x' * (i % 13)}" for i in range(n)],
            "score": [i * 0.37 for i in range(n)],
            "day": [f"2026-{1 + i % 12:02d}-{1 + i % 28:02d}" for i in range(n)],
        }
    )
    small = {"id": list(range(20)), "score": [i * 0.5 for i in range(20)]}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        frame.write_parquet(root / "t.parquet")
        frame.write_csv(root / "t.csv")
        frame.write_ipc(root / "t.arrow")
        frame.write_ndjson(root / "t.ndjson")
        blob = (root / "t.parquet").read_bytes()
        other = frame.clone()
        rows = [
            ("DataFrame(dict of 20 rows)  [not reported]", lambda: pl.DataFrame(small)),
            ("pl.col('day').str.to_date()  [not reported]", lambda: pl.col("day").str.to_date()),
            (
                "with_columns(cast) of the table  [not reported]",
                lambda: frame.with_columns(pl.col("id").cast(pl.Int32)),
            ),
            ("assert_frame_equal, equal tables", lambda: assert_frame_equal(frame, other)),
            ("read_parquet(BytesIO) of the file's bytes", lambda: pl.read_parquet(io.BytesIO(blob))),
            ("read_parquet(path)", lambda: pl.read_parquet(root / "t.parquet")),
            ("read_ipc(path)", lambda: pl.read_ipc(root / "t.arrow")),
            ("read_csv(path)", lambda: pl.read_csv(root / "t.csv")),
            ("read_ndjson(path)", lambda: pl.read_ndjson(root / "t.ndjson")),
            ("write_parquet(path)", lambda: frame.write_parquet(root / "w.parquet")),
            ("write_csv(path)", lambda: frame.write_csv(root / "w.csv")),
        ]
        sizes = {name: (root / name).stat().st_size for name in ("t.parquet", "t.csv", "t.arrow", "t.ndjson")}
        timings = [(label, timed(call, args.repeat)) for label, call in rows]
    base = timings[0][1]
    files = ", ".join(f"{name} {size // 1024} KB" for name, size in sizes.items())
    print(f"polars {pl.__version__}, a table of {n} rows ({files})")
    print(f"{'call':52} {'median ms':>10} {'x frame build':>14}")
    for label, ms in timings:
        print(f"{label:52} {ms:10.3f} {ms / base:14.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
