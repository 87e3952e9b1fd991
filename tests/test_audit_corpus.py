"""The audit over the real files of ../shared/corpus: no crash, and known faults are found."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from conftest import CORPUS, needs_corpus

from pdn.arbiter.replay import INTERNAL_ERROR
from pdn.batch.parallel import AuditOptions, GameReport, check_paths

pytestmark = [needs_corpus, pytest.mark.slow]


@pytest.fixture(scope="module")
def reports() -> list[GameReport]:
    found = list(check_paths([str(CORPUS)], AuditOptions()))
    assert all(isinstance(report, GameReport) for report in found)
    return found  # type: ignore[return-value]


def findings_of(
    reports: list[GameReport], file_end: str, game: int
) -> list[tuple[str, int | None]]:
    report = next(r for r in reports if (r.file or "").endswith(file_end) and r.game == game)
    return [
        (f.code, f.ply)
        for f in report.findings
        if f.code not in ("variant", "tag") and not (f.code == "result" and f.severity == "info")
    ]


def test_every_game_is_audited_without_an_engine_failure(reports: list[GameReport]) -> None:
    assert len(reports) > 4000
    failures = [
        (r.file, r.game, f.message)
        for r in reports
        for f in r.findings
        if INTERNAL_ERROR in f.message
    ]
    assert failures == []
    assert sum(r.plies for r in reports) > 150_000


def test_variants_are_told_apart(reports: list[GameReport]) -> None:
    def folder(report: GameReport) -> str:  # corpus names keep their path: data__games__DIR__X
        parts = Path(report.file or "").name.split("__")
        return parts[-2] if len(parts) > 1 else ""

    by_folder = Counter((folder(r), r.variant) for r in reports)
    assert by_folder[("italian", "italian")] > 300  # mig0 Italian files, no GameType
    assert by_folder[("russian", "russian")] > 100
    assert by_folder[("internt", "international")] > 400


@pytest.mark.parametrize(
    ("file_end", "game", "expected"),
    [
        # "26. 43-39 24-30 29. 49-43": move 27 written as 29, then the numbering goes on at 28
        ("succeed__PROF2.pdn", 2, [("move-number", 53)]),
        # Result tag 0-1, terminator 1/2-1/2
        ("succeed__candidate95.pdn", 8, [("result", None)]),
        # "1. A1-A5" is no move at all
        ("russian__pdn__draw2.pdn", 1, [("illegal-move", 1)]),
        # 25 moves each with kings only: the last move reaches FMJD 6.2 exactly
        ("internt__dutch96h.pdn", 163, [("move-limit", 197)]),
        # FMJD 6.1: the third occurrence draws at once; the players went on shuffling
        ("succeed__kurnik.pdn", 3, [("repetition", 157), ("moves-after-end", 158)]),
        # playstrategy.org: 11-15 written c3-d4, "e5xc3 7. c3xa1" one capture; English
        # repetition is a claim, so the game goes on to its agreed draw
        ("american__random_pdns.pdn", 4, [("repetition", 128)]),
    ],
)
def test_known_faults_are_found(
    reports: list[GameReport], file_end: str, game: int, expected: list[tuple[str, int]]
) -> None:
    assert findings_of(reports, file_end, game) == expected


def test_playstrategy_export_has_no_errors(reports: list[GameReport]) -> None:
    games = [r for r in reports if (r.file or "").endswith("american__random_pdns.pdn")]
    assert len(games) == 30
    assert [f for r in games for f in r.findings if f.severity == "error"] == []
    assert sum(r.plies for r in games) > 2500  # every game replayed to its end
