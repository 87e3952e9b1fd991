"""`pdn dedupe`: duplicate groups (tag merge, contradicting tags) and variant readings
(planted one-move differences)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from pdn.cli.main import main
from pdn.database.dedupe import with_tags
from pdn.engine.movegen import Move
from pdn.engine.position import Position
from pdn.engine.variants import Variant

INTERNATIONAL = Variant.from_name("international")


def random_line(seed: int, plies: int) -> list[Move]:
    """A legal line whose short move texts are never ambiguous."""
    rng = random.Random(seed)
    position = Position.initial(INTERNATIONAL)
    line = []
    for _ in range(plies):
        moves = position.legal_moves
        texts = [m.notation(INTERNATIONAL.board) for m in moves]
        plain = [m for m, t in zip(moves, texts, strict=True) if texts.count(t) == 1]
        move = rng.choice(plain)
        line.append(move)
        position = position.play(move)
    return line


def movetext(moves: list[Move], *, full: bool = False) -> str:
    words = []
    for ply, move in enumerate(moves):
        if ply % 2 == 0:
            words.append(f"{ply // 2 + 1}.")
        words.append(move.notation(INTERNATIONAL.board, full=full))
    return " ".join(words)


def game(tags: dict[str, str], moves: str, result: str = "1-1") -> str:
    head = "".join(f'[{name} "{value}"]\n' for name, value in tags.items())
    return f'{head}[GameType "20"]\n\n{moves} {result}\n\n'


LINE = random_line(7, 40)
OTHER = random_line(8, 40)
PLAYERS = {"White": "Sijbrands, Ton", "Black": "Wiersma, Harm"}


def changed_at(moves: list[Move], ply: int) -> list[str]:
    """The written line with a different legal move at 0-based ``ply``; the rest as before."""
    position = Position.initial(INTERNATIONAL)
    for move in moves[:ply]:
        position = position.play(move)
    other = next(m for m in position.legal_moves if m != moves[ply])
    texts = [m.notation(INTERNATIONAL.board) for m in moves]
    texts[ply] = other.notation(INTERNATIONAL.board)
    return texts


def numbered(texts: list[str]) -> str:
    return " ".join(
        (f"{ply // 2 + 1}. " if ply % 2 == 0 else "") + text for ply, text in enumerate(texts)
    )


@pytest.fixture
def files(tmp_path: Path) -> list[Path]:
    one = tmp_path / "bulletin.pdn"
    one.write_text(
        game({**PLAYERS, "Event": "Match", "Date": "1996.01.13", "Round": "5"}, movetext(LINE))
        + game({"White": "A", "Black": "B", "Date": "2001.02.03"}, movetext(OTHER)),
        encoding="utf-8",
    )
    two = tmp_path / "export.pdn"
    two.write_text(
        # the same game: richer (a comment, a Site), a Date that contradicts, full captures
        game(
            {**PLAYERS, "Site": "Wageningen", "Date": "1996.01.14"},
            "{from the club} " + movetext(LINE, full=True) + " {a fine game}",
        )
        # a reading of OTHER with one move different at ply 31, tags that say nothing
        + game({}, numbered(changed_at(OTHER, 30)))
        # a reading of LINE by its tags: the same players, event, date and round
        + game(
            {**PLAYERS, "Event": "Match", "Date": "1996.01.13", "Round": "5"},
            numbered(changed_at(LINE, 24)),
        ),
        encoding="utf-8",
    )
    return [one, two]


def report(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    assert main(["dedupe", *argv, "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_duplicate_group_merges_tags_and_reports_contradictions(
    capsys: pytest.CaptureFixture[str], files: list[Path]
) -> None:
    one, two = files
    found = report(capsys, str(one), str(two))
    assert found["games"] == 5
    [group] = found["groups"]
    assert group["copies"] == [f"{one}:1", f"{two}:1"]
    assert group["kept"] == f"{two}:1"  # the richer copy: a comment and a Site
    assert ["Event", "Match"] in group["merged_tags"] and ["Round", "5"] in group["merged_tags"]
    assert group["contradicting_tags"] == {
        "Date": [
            {"game": f"{one}:1", "value": "1996.01.13"},
            {"game": f"{two}:1", "value": "1996.01.14"},
        ]
    }


def test_variant_readings_give_the_ply_and_both_moves(
    capsys: pytest.CaptureFixture[str], files: list[Path]
) -> None:
    one, two = files
    readings = {r["basis"]: r for r in report(capsys, str(one), str(two))["readings"]}
    by_moves = readings["moves"]
    assert by_moves["games"] == [f"{one}:2", f"{two}:2"]
    assert by_moves["ply"] == 31
    assert by_moves["moves"][0] == OTHER[30].notation(INTERNATIONAL.board)
    assert by_moves["moves"][1] == changed_at(OTHER, 30)[30]
    assert by_moves["differences"] == 1
    assert by_moves["legal"][0] is True
    by_tags = readings["tags"]
    assert by_tags["games"] == [f"{two}:1", f"{two}:3"]  # the kept copy stands for its group
    assert by_tags["ply"] == 25
    assert len(readings) == 2


def test_unrelated_games_are_neither(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "two.pdn"
    path.write_text(game(PLAYERS, movetext(LINE)) + game(PLAYERS, movetext(OTHER)))
    found = report(capsys, str(path))
    assert found["groups"] == [] and found["readings"] == []


def test_output_keeps_one_copy_with_merged_tags(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, files: list[Path]
) -> None:
    out = tmp_path / "out.pdn"
    assert main(["dedupe", *map(str, files), "-o", str(out)]) == 0
    text = capsys.readouterr().out
    assert "1 duplicate group(s) (2 copies, 1 left out), 2 variant reading(s)" in text
    assert 'contradicting Date: "1996.01.13"' in text
    written = out.read_text(encoding="utf-8")
    assert written.count('[GameType "20"]') == 4  # 5 games, one copy left out
    assert written.count("[Event") == 2  # the kept copy (merged) and the reading by tags
    assert written.index('[White "A"]') < written.index('[Site "Wageningen"]')  # input order
    kept = written[written.index('[Site "Wageningen"]') :]
    assert '[Event "Match"]' in kept.split("\n\n")[0]  # merged into the kept copy's tags


def test_with_tags_inserts_after_the_last_tag() -> None:
    text = '[Event "E"]\r\n[White "W"]\r\n\r\n1. 32-28 *'
    assert with_tags(text, [("Round", 'say "5"')]) == (
        '[Event "E"]\r\n[White "W"]\r\n[Round "say \\"5\\""]\r\n\r\n1. 32-28 *'
    )
    assert with_tags("1. 32-28 *", [("Event", "E")]) == '[Event "E"]\n1. 32-28 *'


def test_refuses_to_overwrite_an_input(
    capsys: pytest.CaptureFixture[str], files: list[Path]
) -> None:
    assert main(["dedupe", str(files[0]), "-o", str(files[0])]) == 2
    assert "would overwrite the input" in capsys.readouterr().err


def test_short_games_from_the_start_are_never_one_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "draws.pdn"
    short = movetext(LINE[:4])
    path.write_text(game({"White": "A", "Black": "B"}, short) + game({"White": "C"}, short))
    assert report(capsys, str(path))["groups"] == []
    fen = '[SetUp "1"]\n[FEN "W:W31,32:B19"]\n\n1. 31-27 *\n\n'
    path.write_text(fen + fen.replace('"W:W31,32:B19"', '"W:W32,31:B19."'))
    [group] = report(capsys, str(path))["groups"]  # a setup is identity enough
    assert group["contradicting_tags"] == {}  # FEN spelled two ways is the same start


def continuation(start: list[str], seed: int, plies: int) -> list[str]:
    """``start`` (move texts from the initial position) and a legal line after it."""
    position = Position.initial(INTERNATIONAL)
    for text in start:
        position = position.play(
            next(m for m in position.legal_moves if m.notation(INTERNATIONAL.board) == text)
        )
    rng = random.Random(seed)
    texts = list(start)
    for _ in range(plies):
        moves = position.legal_moves
        names = [m.notation(INTERNATIONAL.board) for m in moves]
        move = rng.choice([m for m, n in zip(moves, names, strict=True) if names.count(n) == 1])
        texts.append(move.notation(INTERNATIONAL.board))
        position = position.play(move)
    return texts


def test_a_transposition_is_a_reading(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    one = continuation(["32-28", "16-21", "33-29"], 3, 34)
    two = ["33-29", "16-21", "32-28", *one[3:]]  # the same moves, the first White pair swapped
    path = tmp_path / "twice.pdn"
    path.write_text(
        game({"White": "A", "Black": "B"}, numbered(one))
        + game({"White": "C", "Black": "B"}, numbered(two))
    )
    [reading] = report(capsys, str(path))["readings"]
    assert reading["basis"] == "transposition"
    assert (reading["ply"], reading["moves"]) == (1, ["32-28", "33-29"])
    assert reading["differences"] == 2
