"""Every real file of ../shared/corpus reads; counts match SOURCES.tsv; fast path == lark.

Skipped when the corpus folder is absent (it is not redistributed with the project).
"""

from __future__ import annotations

import csv
from functools import cache
from pathlib import Path

import pytest
from conftest import CORPUS, needs_corpus

from pdn.pdnfile.reader import parse_span
from pdn.pdnfile.scan import iter_spans
from pdn.pdnfile.span import Span

pytestmark = [needs_corpus, pytest.mark.slow]

FILES = sorted(CORPUS.rglob("*.pdn")) if CORPUS.is_dir() else []

#: Every syntax finding of the corpus: file -> (line, column, words in the message).
SYNTAX_FAULTS = {
    "wiegerw/pdn/games__fail__nested_comment.pdn": [(1, 46, "'}' without an opening '{'")],
    "mig0/Games-Checkers/data__games__internt__prof2.pdn": [(73, 1, "'9n'")],
    # a stray fragment after the last game's result: part of that game, not a game of its own
    "wiegerw/pdn/games__fail__Cat.C1.pdn": [(611, 1, "after the result is not read: '36x27 1-0'")],
}
PROSE_FILE = "mig0/Games-Checkers/data__games__british__British_Computer_Championship_2002.pdn"


@cache
def sources() -> dict[str, dict[str, str]]:
    with open(CORPUS / "SOURCES.tsv", encoding="utf-8", newline="") as table:
        return {row["local_file"]: row for row in csv.DictReader(table, delimiter="\t")}


@cache
def spans(relative: str) -> tuple[Span, ...]:
    return tuple(iter_spans(CORPUS / relative))


def relative(path: Path) -> str:
    return path.relative_to(CORPUS).as_posix()


@pytest.mark.parametrize("path", FILES, ids=relative)
def test_file_reads_with_fast_path_equal_to_lark(path: Path) -> None:
    for span in spans(relative(path)):
        fast = parse_span(span)
        slow = parse_span(span, fast=False)
        assert fast.same_record(slow), (span.source.game, span.source.line)
        assert list(span.tags) == fast.tags  # the scanner's cheap tags are the reader's
        assert [f.to_dict() for f in fast.findings] == [f.to_dict() for f in slow.findings]
        assert [(n.line, n.column) for n in fast.walk()] == [
            (n.line, n.column) for n in slow.walk()
        ]


@pytest.mark.parametrize("path", FILES, ids=relative)
def test_game_count_matches_sources(path: Path) -> None:
    name = relative(path)
    row = sources()[name]
    found = spans(name)
    if row["games_method"] == "tag-blocks":
        assert sum(1 for span in found if span.tags) == int(row["games"])
    assert len(found) == int(row["games"])


def test_every_syntax_finding_points_at_a_real_fault() -> None:
    found: dict[str, list[tuple[int | None, int | None, str]]] = {}
    for path in FILES:
        name = relative(path)
        for span in spans(name):
            for finding in parse_span(span).findings:
                if finding.code == "syntax":
                    found.setdefault(name, []).append(
                        (finding.line, finding.column, finding.message)
                    )
    prose = found.pop(PROSE_FILE)
    # 46 remarks in parentheses in 15 games: one finding per game, at its first remark
    assert len(prose) == 15 and all("not a variation (prose?)" in m for _, _, m in prose)
    assert (
        sum(int(m.split("(and ")[1].split()[0]) + 1 if "(and " in m else 1 for *_, m in prose) == 46
    )
    text = (CORPUS / PROSE_FILE).read_text(encoding="utf-8").splitlines()
    for line, column, _ in prose:
        assert line is not None and column is not None
        before = text[line - 1][: column - 1]
        assert before.rfind("(") > before.rfind(")")  # the fault is inside parentheses
    assert set(found) == set(SYNTAX_FAULTS)
    for name, faults in SYNTAX_FAULTS.items():
        assert [(line, column) for line, column, _ in found[name]] == [
            (row, col) for row, col, _ in faults
        ]
        for (_, _, message), (_, _, words) in zip(found[name], faults, strict=True):
            assert words in message


def test_tag_and_encoding_findings_of_the_corpus() -> None:
    test_pdn = spans("mig0/Games-Checkers/data__games__russian__test.pdn")
    tags = [(f.line, f.message) for s in test_pdn for f in parse_span(s).findings]
    assert [line for line, _ in tags] == [25, 26]  # [Round 17], [Game # 612]
    latin = spans("mig0/Games-Checkers/data__games__italian__40champ-1996.pdn")
    encoding = [f for s in latin for f in parse_span(s).findings if f.code == "encoding"]
    assert len(encoding) == 1 and "cp1252" in encoding[0].message
    assert "40° Champ." in latin[0].text


def test_delfts_scores_end_their_games() -> None:
    games = [parse_span(span) for span in spans("wiegerw/pdn/games__fail__delfts.pdn")]
    assert [(g.result, g.end().move_text, len(g.mainline_texts())) for g in games] == [
        ("4-6", "13-19", 128),
        ("1-9", "4x24", 124),
    ]
    assert [s.plies for s in spans("wiegerw/pdn/games__fail__delfts.pdn")] == [128, 124]
