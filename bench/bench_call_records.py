#!/usr/bin/env python
"""What a project's call sites and their rare facts hold when the rules have run.

Checks a tree in-process, cold (an empty cache of its own, default workers, deep mode as
configured), and when the rules have all run sizes each project graph's call records: the call
sites (``CallSite``, one per call written, library summaries included), and their rare facts
(``CallFacts``, one object per distinct value where decoding shared them) as they are held -- the
record, and the tuple of its values when more than one fact is set -- and as a record of every
field would hold them (a slot per field: the layout before facts were packed). It also says how
many facts each record sets, and which fields are set most. Sizes are ``sys.getsizeof``'s, the
same from run to run whatever the load (``bench_memory.py``'s resident sizes move by 10-20 MB
between runs of one version on a loaded machine).

Usage::

    python bench/bench_call_records.py /work/corpus
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections import Counter
from pathlib import Path

#: A slotted record of n fields: the collector's header, the object's, a pointer per slot.
_HEADER = sys.getsizeof(object()) + 16


def facts_bytes(facts: object) -> int:
    """What one rare-facts record holds of its own: itself, and the tuple of its values if any."""
    values = object.__getattribute__(facts, "_values")
    mask = object.__getattribute__(facts, "_mask")
    return sys.getsizeof(facts) + (sys.getsizeof(values) if mask & (mask - 1) else 0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("root", type=Path, help="the tree to check (as one project)")
    args = parser.parse_args(argv)
    root = args.root.resolve()

    from bench_call_tables import graphs_after_rules

    from asynclint.analysis.index.callfacts import NO_FACTS, CallFacts

    names = [field.name for field in dataclasses.fields(CallFacts)]
    every_field = _HEADER + 8 * len(names)

    def measure(graph) -> str:
        sites = site_bytes = 0
        facts: dict[int, CallFacts] = {}
        for summary in graph.summaries:
            for site in summary.calls:
                sites += 1
                site_bytes += sys.getsizeof(site)
                if site.rare is not None:
                    facts[id(site.rare)] = site.rare
        set_counts: Counter[int] = Counter()
        fields_set: Counter[str] = Counter()
        for record in facts.values():
            set_here = [name for name in names if getattr(record, name) != getattr(NO_FACTS, name)]
            set_counts[len(set_here)] += 1
            fields_set.update(set_here)
        held = sum(facts_bytes(record) for record in facts.values())
        return (
            f"graph: {len(graph.summaries):,} summaries, {sites:,} call sites: {site_bytes / 2**20:.2f} MB\n"
            f"  rare facts: {len(facts):,} distinct records: {held / 2**20:.2f} MB as held, "
            f"{len(facts) * every_field / 2**20:.2f} MB as a slot per field ({len(names)} fields, "
            f"{every_field} bytes a record)\n"
            f"  facts set per record: {', '.join(f'{n}: {c:,}' for n, c in sorted(set_counts.items()))}\n"
            f"  set most: {', '.join(f'{name} {count:,}' for name, count in fields_set.most_common(8))}"
        )

    files, measured = graphs_after_rules(root, "bench_call_records", measure)
    print(f"{root}: {files} files")
    print("\n".join(measured))
    return 0


if __name__ == "__main__":
    sys.exit(main())
