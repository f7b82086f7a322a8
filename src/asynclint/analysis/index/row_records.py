"""The record of the dataset rows a module builds (:class:`RowShape`): part of a
:class:`~asynclint.analysis.index.records.ModuleSummary`, cached with it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class RowShape:
    """Dataset rows as a function returns them or a dataset build is handed them (see
    :mod:`asynclint.analysis.index.rowkeys`): every row carries ``keys``, every key of the rows
    ``copies`` names (parameters; with ``items``, lists of rows each row copies one of) and of what
    the ``calls`` return. A call is (callee, (argument slot, index of the argument's shape in
    ModuleSummary.row_shapes)...)."""

    function: int  # the function whose ``return`` this is, or in which the dataset is built; -1: an argument
    items: bool  # a list of rows (else one row)
    keys: tuple[str, ...] = ()
    copies: tuple[str, ...] = ()
    calls: tuple[tuple[str, tuple[tuple[str, int], ...]], ...] = ()  # return the rows (or the row) themselves
    item_calls: tuple[tuple[str, tuple[tuple[str, int], ...]], ...] = ()  # each row is what one returns
    nested: tuple[tuple[str, int], ...] = ()  # a key -> the shape of the dict under it (``"info": {...}``)
    dataset: bool = False  # handed to ``Dataset.from_list`` (no keys: a dataset the tool cannot see)
