"""The libcst helpers the fixers share, one module per concern (parsed file, names, bindings,
imports, building replacements, await placement, references)."""
