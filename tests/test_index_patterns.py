"""Issue 28 on the index: the square bitboards it stores are the replay's, and `pdn search
--pattern/--pattern-not/--mirror/--move` lists the same games at the same plies as streaming
`pdn select`, on generated games of every variant (8x8 full boards: square 64 in the sign bit;
12x12: 16-byte packed bitboards) and on real files."""

from __future__ import annotations

import dataclasses
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import CORPUS

from pdn.arbiter.replay import replay
from pdn.cli.main import main
from pdn.database.index import _line, board_plies
from pdn.database.manoeuvres import describe
from pdn.database.patterns import square_boards
from pdn.pdnfile.reader import read_games

ROOT = Path(__file__).resolve().parents[1]
PATTERNS = (
    "?:WK46:B",
    "W:W24:B19",
    "B:W32,33:B18",
    "?:W*28:B!*23",
    "?:W?*31-50:B",
    "?:W:BK1-50",
    "W:W:B:E22,23,27,28",
)
MOVES = (
    "x",
    "Wx takes:2..",
    "bK-",
    "promotion",
    "shot",
    "coup",
    "W32-28 then within 2 Bx",
    "b19-23",
    "wm-28",
)


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("generated")
    subprocess.run(
        [sys.executable, str(ROOT / "tools" / "make_corpus.py"), str(folder)],
        check=True,
        capture_output=True,
    )
    return folder


@pytest.fixture(scope="module")
def real_files() -> list[Path]:
    if not CORPUS.is_dir():
        pytest.skip(f"no shared corpus at {CORPUS}")
    names = (
        "data__games__internt__dutch96h.pdn",
        "training__german_open_2004.pdn",
        "data__games__british__British_Computer_Championship_2002.pdn",
    )
    found = [path for path in sorted(CORPUS.rglob("*.pdn")) if path.name in names]
    if not found:
        pytest.skip("the corpus files of this test are not in the corpus")
    return found


def build(tmp_path: Path, *paths: Path) -> Path:
    db = tmp_path / "games.db"
    assert main(["index", str(db), *map(str, paths)]) == 0
    return db


def searched(capsys: pytest.CaptureFixture[str], db: Path, *argv: str) -> list[tuple]:
    capsys.readouterr()
    assert main(["search", str(db), "--format", "json", "--limit", "0", *argv]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["total"] == len(found["games"])
    return sorted(
        (g["file"], g["game"], g["ply"], g.get("pattern_ply"), tuple(g.get("move_plies") or ()))
        for g in found["games"]
    )


def selected(capsys: pytest.CaptureFixture[str], paths: list[Path], *argv: str) -> list[tuple]:
    capsys.readouterr()
    assert main(["select", *map(str, paths), *argv, "--format", "json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    return sorted(
        (
            os.path.realpath(r["file"]),
            r["game"],
            r["ply"],
            r.get("pattern_ply"),
            tuple(r.get("move_plies") or ()),
        )
        for r in rows
    )


def test_stored_boards_are_the_replayed_positions(tmp_path: Path, generated: Path) -> None:
    files = sorted(generated.glob("*.pdn"))
    db = build(tmp_path, *files)
    checked = 0
    with sqlite3.connect(db) as conn:
        for path in files:
            for number, game in enumerate(read_games(str(path)), start=1):
                played = replay(game)
                game_id, variant = conn.execute(
                    "SELECT g.id, g.variant FROM games g JOIN files f ON f.id = g.file_id"
                    " WHERE f.path = ? AND g.ordinal = ?",
                    (os.path.realpath(path), number),
                ).fetchone()
                row = conn.execute(
                    "SELECT turn, boards, white_men FROM game_boards WHERE game_id = ?", (game_id,)
                ).fetchone()
                assert (row[2] is None) == (variant == "canadian")  # no SQL union past 64 squares
                rows = _line(played.variant, row[0], row[1])
                assert rows == [
                    (position.turn, tuple(square_boards(position))) for position in played.positions
                ]
                # the boards tell the squares captured, not their order along the path
                assert board_plies(played.variant, rows) == [
                    dataclasses.replace(ply, captures=tuple(sorted(ply.captures)))
                    for ply in describe(played.positions, played.moves)
                ]
                checked += 1
    assert checked > 80


@pytest.mark.parametrize("pattern", PATTERNS)
def test_patterns_search_as_select_on_generated_games(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, generated: Path, pattern: str
) -> None:
    files = sorted(generated.glob("*.pdn"))
    db = build(tmp_path, *files)
    for extra in ((), ("--mirror",), ("--pattern-not", "?:W23:B")):
        expected = selected(capsys, files, "--pattern", pattern, *extra)
        assert searched(capsys, db, "--pattern", pattern, *extra) == expected, extra


def test_patterns_and_manoeuvres_search_as_select_on_real_files(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, real_files: list[Path]
) -> None:
    db = build(tmp_path, *real_files)
    some = 0
    for pattern in PATTERNS:
        expected = selected(capsys, real_files, "--pattern", pattern)
        assert searched(capsys, db, "--pattern", pattern) == expected, pattern
        some += bool(expected)
    for move in MOVES:
        expected = selected(capsys, real_files, "--move", move)
        assert searched(capsys, db, "--move", move) == expected, move
        some += bool(expected)
    both = ("--position", "W:W31-50:B1-20", "--pattern", "?:W31:B")
    assert searched(capsys, db, *both) == selected(capsys, real_files, *both)
    assert some >= 8  # the queries find games: the comparison is not of empty lists


@pytest.mark.parametrize("move", MOVES)
def test_manoeuvres_search_as_select_on_generated_games(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, generated: Path, move: str
) -> None:
    files = sorted(generated.glob("*.pdn"))
    db = build(tmp_path, *files)
    assert searched(capsys, db, "--move", move) == selected(capsys, files, "--move", move)


def test_a_mirrored_pattern_finds_the_colour_swapped_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A white king on 46 in one game; the colour-swapped copy has a black king on 5."""
    path = tmp_path / "swapped.pdn"
    path.write_text(
        '[GameType "20"]\n[SetUp "1"]\n[FEN "W:WK46,40:B10"]\n\n1. 40-34 10-15 *\n\n'
        '[GameType "20"]\n[SetUp "1"]\n[FEN "B:W41:BK5,11"]\n\n1... 11-17 41-36 *\n',
        encoding="utf-8",
    )
    db = build(tmp_path, path)
    real = os.path.realpath(path)
    assert searched(capsys, db, "--pattern", "W:WK46:B") == [(real, 1, 0, None, ())]
    assert searched(capsys, db, "--pattern", "W:WK46:B", "--mirror") == [
        (real, 1, 0, None, ()),
        (real, 2, 0, None, ()),
    ]


def test_a_limited_search_counts_every_game_and_lists_the_first(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, generated: Path
) -> None:
    """Without a filter on the games' rows the total comes from the candidates alone; with one
    (``--result``) from the rows: both count what the unlimited search lists."""
    db = build(tmp_path, *sorted(generated.glob("*.pdn")))

    def answer(*argv: str) -> dict:
        capsys.readouterr()
        assert main(["search", str(db), "--format", "json", *argv]) == 0
        return json.loads(capsys.readouterr().out)

    for query in (("--pattern", "?:W*28:B"), ("--pattern", "?:W*28:B", "--result", "white")):
        everything = answer(*query, "--limit", "0")
        first = answer(*query, "--limit", "3")
        assert first["total"] == everything["total"] == len(everything["games"]) > 3, query
        assert first["games"] == everything["games"][:3], query


def test_a_pattern_tested_on_workers_finds_what_one_process_finds(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    generated: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``--jobs 2`` splits the index into ranges of game ids even when it is small here."""
    from pdn.database import index

    monkeypatch.setattr(index, "_PARALLEL_GAMES", 0)
    scans = []

    def counted(*args: object) -> dict[int, int]:
        scans.append(args)
        return on_workers(*args)

    on_workers = index._scan_on_workers
    monkeypatch.setattr(index, "_scan_on_workers", counted)
    db = build(tmp_path, *sorted(generated.glob("*.pdn")))
    some = 0
    for pattern in PATTERNS:
        alone = searched(capsys, db, "--pattern", pattern, "--mirror")
        assert not scans
        assert searched(capsys, db, "--pattern", pattern, "--mirror", "--jobs", "2") == alone
        assert len(scans) == 1
        scans.clear()
        some += len(alone)
    assert some > 20
