"""Headers as they are written in the wild (issue 26): character references, ``;`` inside a
tag line, names with spaces, translated tag names read as PDN's."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from pdn.game.tags import tag_value
from pdn.pdnfile.reader import read_games
from pdn.pdnfile.scan import iter_spans

FRENCH = (
    '[&#x00c9;v&#x00e9;nement "Championnat"]\\r\n'
    '[Lieu "Paris"]\\r\n'
    '[Date "2024.03.09"]\\r\n'
    '[Manche "11"]\\r\n'
    '[Blanc "Dupont"]\\r\n'
    '[Noir "Martin"]\\r\n'
    '[R&#x00e9;sultat "1-1"]\\r\n'
    '[Type de jeu "20"]\\r\n'
    '[DamboTopLine "0"]\\r\n'
    "\n1. 32-28 19-23 2. 28x19 14x23 1-1\n"
)


def _pdn(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "pdn", *args]
    return subprocess.run(command, capture_output=True, text=True, check=False)


def _write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "g.pdn"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_french_header_is_one_game_with_its_tags_read(tmp_path: Path) -> None:
    path = _write(tmp_path, FRENCH)
    spans = list(iter_spans(path))
    assert len(spans) == 1
    assert dict(spans[0].tags)["Événement"] == "Championnat"
    (game,) = read_games(path)
    assert tag_value(game.tags, "White", aliases=True) == "Dupont"
    assert tag_value(game.tags, "Black", aliases=True) == "Martin"
    assert tag_value(game.tags, "Result", aliases=True) == "1-1"
    assert tag_value(game.tags, "GameType", aliases=True) == "20"
    assert ("DamboTopLine", "0") in game.tags  # a program's own tag, kept as it is
    messages = [f.message for f in game.findings if f.code == "tag"]
    assert "tag Blanc is French for White: read as White" in messages
    assert any("'R&#x00e9;sultat'" in m and "'Résultat'" in m for m in messages)
    assert all(f.severity == "info" for f in game.findings if f.code == "tag")
    assert not any("DamboTopLine" in m for m in messages)


def test_french_header_in_list_and_check(tmp_path: Path) -> None:
    path = _write(tmp_path, FRENCH)
    listed = _pdn("list", path, "--format", "json")
    (row,) = [json.loads(line) for line in listed.stdout.splitlines()]
    assert (row["White"], row["Black"], row["Result"], row["GameType"]) == (
        "Dupont",
        "Martin",
        "1-1",
        "20",
    )
    assert row["Event"] == "Championnat"
    checked = _pdn("check", path)
    assert "2024" not in checked.stdout.replace("2024.03.09", "")
    assert "game 2" not in checked.stdout
    assert "text in the header is not PDN and is skipped (lines 1-9): '\\\\r' (9 times)" in (
        checked.stdout
    )


@pytest.mark.parametrize(
    ("names", "language"),
    [
        (("Wit", "Zwart", "Uitslag", "Ronde", "Plaats", "Evenement", "Datum"), "Dutch"),
        (("Белые", "Черные", "Результат", "Тур", "Место", "Событие", "Дата"), "Russian"),
        (("Brancas", "Pretas", "Resultado", "Rodada", "Local", "Evento", "Data"), "Portuguese"),
    ],
)
def test_translated_names_are_read_as_pdns(
    tmp_path: Path, names: tuple[str, ...], language: str
) -> None:
    pdn_names = ("White", "Black", "Result", "Round", "Site", "Event", "Date")
    values = ("Ann", "Bob", "2-0", "3", "Town", "Cup", "2020.01.02")
    header = "".join(f'[{n} "{v}"]\n' for n, v in zip(names, values, strict=True))
    path = _write(tmp_path, header + "\n1. 32-28 19-23 2-0\n")
    (game,) = read_games(path)
    for name, value in zip(pdn_names, values, strict=True):
        assert tag_value(game.tags, name, aliases=True) == value
    notes = [f.message for f in game.findings if f.code == "tag" and f.severity == "info"]
    assert f"tag {names[0]} is {language} for White: read as White" in notes
    assert len(notes) == len(names)
    selected = _pdn("select", path, "--white", "Ann")
    assert '"Ann"' in selected.stdout


def test_semicolon_and_references_inside_tag_lines(tmp_path: Path) -> None:
    text = (
        '[Event "Cup; final &amp; more"]\n[White "A"]\n[Black "B"]\n[Result "2-0"]\n'
        "\n1. 32-28 19-23 2-0\n"
    )
    path = _write(tmp_path, text)
    assert len(list(iter_spans(path))) == 1
    (game,) = read_games(path)
    assert tag_value(game.tags, "Event") == "Cup; final & more"
    (note,) = [f.message for f in game.findings if f.code == "tag"]
    assert note.endswith("read as 'Cup; final & more'")


def test_spaced_name_only_before_a_quoted_value(tmp_path: Path) -> None:
    path = _write(tmp_path, '[Round 17]\n[Type de jeu "20"]\n\n1. 32-28 19-23 *\n')
    (game,) = read_games(path)
    assert game.tags[:2] == [("Round", "17"), ("Type de jeu", "20")]
