"""Program analysis: the per-file index (:mod:`asynclint.analysis.index`) and, above it, the
project graph the engine, rules and fixers ask."""
