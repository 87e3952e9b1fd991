"""`pdn index` and `pdn search`: the SQLite index, its updates, its answers (the same as
`pdn select`), and the databases it refuses."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest
from conftest import CORPUS
from dbgames import GAMES, SHARED_FEN

from pdn.cli.main import main


@pytest.fixture
def games(tmp_path: Path) -> Path:
    path = tmp_path / "games.pdn"
    path.write_text(GAMES, encoding="utf-8")
    return path


def index(capsys: pytest.CaptureFixture[str], db: Path, *paths: Path) -> str:
    assert main(["index", str(db), *map(str, paths)]) == 0
    return capsys.readouterr().err


def search(capsys: pytest.CaptureFixture[str], db: Path, *argv: str) -> dict:
    assert main(["search", str(db), "--format", "json", "--limit", "0", *argv]) == 0
    return json.loads(capsys.readouterr().out)


def select(capsys: pytest.CaptureFixture[str], *argv: str) -> list[tuple[str, int, int | None]]:
    assert main(["select", *argv, "--format", "json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    return [
        (
            os.path.realpath(r["file"]),
            r["game"],
            r["ply"] if r["ply"] is not None else r["material_ply"],
        )
        for r in rows
    ]


def answers(found: dict) -> list[tuple[str, int, int | None]]:
    return [
        (g["file"], g["game"], g["ply"] if g["ply"] is not None else g["material_ply"])
        for g in found["games"]
    ]


def test_position_search_lists_games_and_next_moves(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, games: Path
) -> None:
    db = tmp_path / "games.db"
    assert "3 games" in index(capsys, db, games)
    found = search(capsys, db, "--position", SHARED_FEN)
    assert [(g["game"], g["ply"], g["next_move"], g["result"]) for g in found["games"]] == [
        (1, 3, "17-22", "2-0"),
        (2, 3, None, "1-1"),
    ]
    moves = {line["move"]: line for line in found["moves"]}
    assert moves["17-22"]["white"] == 1 and moves["17-22"]["score"] == 0.0  # Black to move
    assert moves[None]["draws"] == 1 and moves[None]["score"] == 0.5


@pytest.mark.parametrize(
    "argv",
    [
        ["--position", SHARED_FEN],
        ["--position", "W:W31-50:B1-20"],
        ["--position", SHARED_FEN, "--result", "draw"],
        ["--position", SHARED_FEN, "--material", "20:20"],
        ["--material", "W20:B18"],
        ["--material", "20:20", "--result", "draw"],
        ["--player", "Sijbrands, Ton"],
        ["--with-findings", "illegal-move"],
        ["--clean", "--date", "1999"],
        ["--plies", "..3", "--event", "blund"],
    ],
)
def test_search_answers_as_select_does(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, games: Path, argv: list[str]
) -> None:
    db = tmp_path / "games.db"
    index(capsys, db, games)
    assert answers(search(capsys, db, *argv)) == select(capsys, str(games), *argv)


@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is absent")
def test_search_answers_as_select_does_on_a_real_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    real = CORPUS / "wiegerw" / "pdn" / "games__succeed__DUTCH96H.pdn"
    db = tmp_path / "real.db"
    index(capsys, db, real)
    after_32_28 = "B:W28,31,33-50:B1-20"
    expected = select(capsys, str(real), "--position", after_32_28)
    assert len(expected) > 1
    assert answers(search(capsys, db, "--position", after_32_28)) == expected


def test_update_reads_changed_files_and_drops_removed_ones(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, games: Path
) -> None:
    db = tmp_path / "games.db"
    other = tmp_path / "other.pdn"
    other.write_text(GAMES.split("\n\n[Event")[0] + "\n", encoding="utf-8")
    index(capsys, db, tmp_path)
    assert search(capsys, db)["total"] == 4
    assert "0 file(s) indexed" in index(capsys, db, tmp_path)  # nothing changed
    os.utime(games)  # a new mtime, the same bytes: not read again
    assert "0 file(s) indexed" in index(capsys, db, tmp_path)
    games.write_text(GAMES.replace("Open 2004", "Open 2005"), encoding="utf-8")
    assert "1 file(s) indexed (3 games" in index(capsys, db, tmp_path)
    assert [g["event"] for g in search(capsys, db, "--event", "open")["games"]] == ["Open 2005"]
    assert search(capsys, db)["total"] == 4
    other.unlink()
    assert "1 removed" in index(capsys, db, games)
    found = search(capsys, db)
    assert found["total"] == 3 and {g["file"] for g in found["games"]} == {str(games.resolve())}
    with sqlite3.connect(db) as conn:  # nothing of the removed games is left behind
        ids = {row[0] for row in conn.execute("SELECT id FROM games")}
        for table in ("positions", "game_boards", "findings"):
            left = {row[0] for row in conn.execute(f"SELECT game_id FROM {table}")}
            assert left <= ids, table
        for table in ("position_keys", "materials"):  # no batch of removed games only
            spans = conn.execute(f"SELECT DISTINCT first_game, last_game FROM {table}")
            assert all(ids & set(range(first, last + 1)) for first, last in spans), table


def test_not_an_index_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, games: Path
) -> None:
    text = tmp_path / "notes.db"
    text.write_text("not a database at all, just some words\n" * 100)
    assert main(["search", str(text), "--player", "x"]) == 2
    assert "not a pdn index" in capsys.readouterr().err
    assert main(["index", str(text), str(games)]) == 2
    assert "not a pdn index" in capsys.readouterr().err
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE games(id INTEGER)")
    assert main(["search", str(other)]) == 2
    assert "not a pdn index" in capsys.readouterr().err
    assert main(["search", str(tmp_path / "missing.db")]) == 2
    assert "no such index" in capsys.readouterr().err


def test_old_index_is_rejected_by_search_and_rebuilt_by_index(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, games: Path
) -> None:
    db = tmp_path / "games.db"
    index(capsys, db, games)
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA user_version = 0")
    assert main(["search", str(db)]) == 2
    assert "older pdn" in capsys.readouterr().err
    assert "1 file(s) indexed (3 games" in index(capsys, db, games)
    assert search(capsys, db)["total"] == 3
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA user_version = 99")
    assert main(["index", str(db), str(games)]) == 2
    assert "newer pdn" in capsys.readouterr().err


def test_bad_fen_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path, games: Path) -> None:
    db = tmp_path / "games.db"
    index(capsys, db, games)
    assert main(["search", str(db), "--position", "W:W31-50:B1-2x"]) == 2
    assert "cannot be read" in capsys.readouterr().err


def test_table_output(capsys: pytest.CaptureFixture[str], tmp_path: Path, games: Path) -> None:
    db = tmp_path / "games.db"
    index(capsys, db, games)
    assert main(["search", str(db), "--position", SHARED_FEN]) == 0
    out = capsys.readouterr().out
    assert "2 game(s)" in out and "next moves" in out and "17-22" in out


def test_stdin_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path, games: Path) -> None:
    db = tmp_path / "games.db"
    assert main(["index", str(db), str(games), "-"]) == 2  # a usage error: nothing is done
    assert "not standard input (the index points into files)" in capsys.readouterr().err
    assert not db.exists()
    from pdn.database.index import Index

    with Index(str(db), create=True) as built:  # the library says so too
        report = built.update([str(games), "-"])
    assert report.errors == ["-: an index is built from files, not from stdin"]
    assert report.games == 3


def test_position_alone_and_with_filters_agree(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, games: Path
) -> None:
    """A position alone is answered in SQL; with another filter, game by game: the same."""
    db = tmp_path / "games.db"
    index(capsys, db, games)
    for fen in (SHARED_FEN, "W:W31-50:B1-20"):
        alone = search(capsys, db, "--position", fen)
        filtered = search(capsys, db, "--position", fen, "--plies", "0..")
        assert alone == filtered
    first = search(capsys, db, "--position", "W:W31-50:B1-20", "--limit", "1")
    assert [g["game"] for g in first["games"]] == [1] and first["total"] == 3


def test_a_repeated_position_is_stored_at_its_first_ply(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "kings.pdn"
    path.write_text(
        '[GameType "20"]\n[SetUp "1"]\n[FEN "W:WK46:BK5"]\n\n'
        "1. 46-41 5-10 2. 41-46 10-5 3. 46-41 *\n"
    )
    db = tmp_path / "kings.db"
    index(capsys, db, path)
    found = search(capsys, db, "--position", "W:WK46:BK5")
    assert [(g["ply"], g["next_move"]) for g in found["games"]] == [(0, "46-41")]
    assert found["moves"][0]["games"] == 1
    assert select(capsys, str(path), "--position", "W:WK46:BK5")[0][2] == 0
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*), max(ply) FROM positions").fetchone() == (4, 3)


def test_a_half_indexed_file_is_read_again(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, games: Path
) -> None:
    """An update stopped before a file's digest was written (Ctrl-C) leaves it pending."""
    db = tmp_path / "games.db"
    index(capsys, db, games)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE files SET sha256 = ''")
    assert "1 file(s) indexed (3 games" in index(capsys, db, games)
    assert search(capsys, db)["total"] == 3
