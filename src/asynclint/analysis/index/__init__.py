"""The per-file index: one ``ast`` parse and one walk per file ->
a :class:`~asynclint.analysis.index.records.ModuleSummary` (the walk: :mod:`~asynclint.analysis.index.walker`).
Everything here shapes the cached summaries (``asynclint.cache_summaries.analysis_fingerprint`` hashes this package)."""
