"""`pdn stats`: per variant, per player (names merged), per file; table, JSON and CSV."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from dbgames import GAMES

from pdn.cli.main import main


@pytest.fixture
def games(tmp_path: Path) -> Path:
    path = tmp_path / "games.pdn"
    path.write_text(GAMES, encoding="utf-8")
    return path


def test_json_tables(capsys: pytest.CaptureFixture[str], games: Path) -> None:
    assert main(["stats", str(games), "--format", "json"]) == 0
    tables = json.loads(capsys.readouterr().out)
    [variant] = tables["variants"]
    assert variant["variant"] == "international" and variant["games"] == 3
    assert (variant["first_wins"], variant["draws"], variant["second_wins"]) == (
        0.3333,
        0.3333,
        0.3333,
    )
    assert variant["average_plies"] == round((5 + 3 + 3) / 3, 1)
    assert {line["move"]: line["score"] for line in variant["first_moves"]} == {
        "32-28": 1.0,
        "33-29": 0.5,
        "32-27": 0.0,
    }
    players = {row["player"]: row for row in tables["players"]}
    ton = players["Sijbrands, Ton"]  # "Tón Sijbrands" is the same player
    assert (ton["games"], ton["wins"], ton["draws"], ton["score"]) == (2, 1, 1, 0.75)
    assert "Tón Sijbrands" not in players
    assert players["Y"]["score"] == 1.0
    [file] = tables["files"]
    assert (file["games"], file["error"]) == (3, 1)


def test_players_limit_and_csv(capsys: pytest.CaptureFixture[str], games: Path) -> None:
    assert main(["stats", str(games), "--format", "csv", "--players", "1"]) == 0
    rows = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert rows[0] == ["table", "row", "column", "value"]
    assert ["players", "Sijbrands, Ton", "score", "0.75"] in rows
    assert not [row for row in rows if row[:2] == ["players", "X"]]
    assert ["variants", "international", "first move 32-28 games", "1"] in rows


def test_terminal_tables(capsys: pytest.CaptureFixture[str], games: Path) -> None:
    assert main(["stats", str(games)]) == 0
    out = capsys.readouterr().out
    for title in ("variants", "first moves", "players", "files"):
        assert title in out
    assert "75%" in out


def test_unreadable_path_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["stats", str(tmp_path / "missing.pdn")]) == 2
    assert "missing.pdn" in capsys.readouterr().err


def test_tags_are_found_in_any_case_and_under_their_italian_names(tmp_path: Path) -> None:
    """``GameFacts.tag`` follows ``pdn.game.tags``' one lookup rule, so ``stats`` and ``index``
    see the players of ``[white "..."]`` and ``[Bianco "..."]`` as ``check`` does."""
    from pdn.database.gamefacts import game_facts
    from pdn.pdnfile.scan import iter_spans

    path = tmp_path / "cases.pdn"
    path.write_text(
        '[white "Sijbrands"]\n[BLACK "Baba"]\n[Event "x"]\n1. 32-28 *\n\n'
        '[Bianco "Rossi"]\n[Nero "Verdi"]\n1. 22-18 *\n',
        encoding="utf-8",
    )
    first, second = (game_facts(span) for span in iter_spans(path))
    assert (first.tag("White"), first.tag("Black"), first.tag("event")) == (
        "Sijbrands",
        "Baba",
        "x",
    )
    assert (second.tag("White"), second.tag("Black")) == ("Rossi", "Verdi")
