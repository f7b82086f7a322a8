"""The statement text an ``execute`` runs, read from its first argument: one literal head serves both the
text graded (``statement_text``) and the leading keyword that rebuilds a receiver (``leading_keyword``)."""

from __future__ import annotations

import ast

import pytest

from asynclint.analysis.index.sql import leading_keyword, literal_head, statement_text

CONSTANTS = {"ATTACH_SQL": "ATTACH DATABASE 'x.db' AS x", "TABLES": "CREATE TABLE t (a)"}


def call(source: str) -> ast.Call:
    node = ast.parse(source, mode="eval").body
    assert isinstance(node, ast.Call)
    return node


@pytest.mark.parametrize(
    ("source", "head", "text", "keyword"),
    [
        ("con.execute('SELECT 1')", ("SELECT 1", True), "SELECT 1", "SELECT"),
        ("con.execute(ATTACH_SQL)", ("ATTACH DATABASE 'x.db' AS x", True), "ATTACH DATABASE 'x.db' AS x", "ATTACH"),
        ("con.execute(f\"ATTACH DATABASE '{p}' AS x\")", ("ATTACH DATABASE '", False), None, "ATTACH"),
        ("con.execute(f'PRAGMA table_info({t})')", ("PRAGMA table_info(", False), "PRAGMA table_info(?)", "PRAGMA"),
        ("con.execute('CREATE TABLE \"' + k + '\" (a)')", ('CREATE TABLE "', False), 'CREATE TABLE "?" (a)', "CREATE"),
        ("con.execute(sql)", None, None, None),
        ("con.execute(build(sql))", None, None, None),
        ("con.execute(f'{verb} FROM t')", None, None, None),
        ("con.execute()", None, None, None),
    ],
)
def test_one_literal_head_serves_the_text_and_the_keyword(source, head, text, keyword):
    node = call(source)
    assert literal_head(node, CONSTANTS) == head
    assert statement_text(node, CONSTANTS) == text
    assert leading_keyword(node, CONSTANTS) == keyword
