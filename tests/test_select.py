"""`pdn select` and its filters: names, dates, results, lengths, findings, positions, material;
the Zobrist keys positions are searched by."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from dbgames import GAMES, SHARED_FEN

from pdn.cli.main import main
from pdn.database.filters import Criteria, MaterialSpec, date_bounds, date_range, int_range
from pdn.database.names import name_key, name_matches
from pdn.engine.position import Position
from pdn.engine.variants import Variant
from pdn.engine.zobrist import line_keys, position_key


@pytest.fixture
def games(tmp_path: Path) -> Path:
    path = tmp_path / "games.pdn"
    path.write_bytes(GAMES.replace("\n", "\r\n").encode("utf-8"))
    return path


def selected(capsys: pytest.CaptureFixture[str], *argv: str) -> list[tuple[int, int | None]]:
    assert main(["select", *argv, "--format", "json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    return [
        (row["game"], row["ply"] if row["ply"] is not None else row["material_ply"]) for row in rows
    ]


# -- names --------------------------------------------------------------------------------
def test_name_key_ignores_case_accents_and_order() -> None:
    assert name_key("Sijbrands, Ton") == name_key("TÓN  sijbrands") == "sijbrands ton"
    assert name_key("?") == name_key(None) == ""


@pytest.mark.parametrize(
    ("query", "name", "expected"),
    [
        ("Sijbrands, Ton", "Ton Sijbrands", True),
        ("ton sijbrands", "Sijbrands, T.", True),
        ("T. Sijbrands", "Sijbrands, Ton", True),
        ("Sijbrands", "Tón Sijbrands", True),
        ("Ton Sijbrands", "Sijbrands", False),
        ("Sijbrands", "Sijbrandsen, Ton", False),
        ("Baljakin", None, False),
    ],
)
def test_name_matches(query: str, name: str | None, expected: bool) -> None:
    assert name_matches(query, name) is expected


# -- readers of the filter values -----------------------------------------------------------
def test_ranges_and_dates() -> None:
    assert int_range("10..40") == (10, 40)
    assert int_range("7") == (7, 7)
    assert int_range("..5") == (0, 5)
    with pytest.raises(ValueError, match="backwards"):
        int_range("9..1")
    assert date_bounds("1996") == ((1996, 1, 1), (1996, 12, 31))
    assert date_bounds("13-01-1996") == ((1996, 1, 13), (1996, 1, 13))
    assert date_bounds("2004.??.??") == ((2004, 1, 1), (2004, 12, 31))
    assert date_bounds("?") is None
    assert date_range("1990..1999") == ((1990, 1, 1), (1999, 12, 31))
    with pytest.raises(ValueError, match="date range"):
        date_range("soon..later")


def test_material_spec() -> None:
    assert MaterialSpec.parse("K3:K1").materials == {(0, 3, 0, 1), (0, 1, 0, 3)}
    assert MaterialSpec.parse("W12:B11").materials == {(12, 0, 11, 0)}
    assert MaterialSpec.parse("b11:w12").materials == {(12, 0, 11, 0)}
    assert MaterialSpec.parse("W3K1:4").materials == {(3, 1, 4, 0)}
    for bad in ("K3", "W1:W2", "X3:K1", "3:4:5"):
        with pytest.raises(ValueError):
            MaterialSpec.parse(bad)


# -- keys ---------------------------------------------------------------------------------
def test_same_position_by_two_move_orders_has_one_key(games: Path) -> None:
    from pdn.database.gamefacts import game_facts
    from pdn.pdnfile.scan import iter_spans

    first, second, _ = (game_facts(span) for span in iter_spans(str(games)))
    assert first.keys[3] == second.keys[3]
    assert len(set(first.keys[:3]) & set(second.keys[:3])) == 1  # only the start is shared
    wanted = Position.from_fen(SHARED_FEN, Variant.from_name("international"))
    assert position_key(wanted) == first.keys[3]


def test_side_to_move_and_variant_change_the_key() -> None:
    international = Variant.from_name("international")
    white = Position.from_fen(SHARED_FEN.replace("B:", "W:", 1), international)
    black = Position.from_fen(SHARED_FEN, international)
    assert position_key(white) != position_key(black)
    russian, brazilian = Variant.from_name("russian"), Variant.from_name("brazilian")
    assert position_key(Position.initial(russian)) != position_key(Position.initial(brazilian))
    assert -(2**63) <= position_key(white) < 2**63


def test_incremental_keys_equal_keys_from_scratch() -> None:
    position = Position.initial(Variant.from_name("international"))
    line = [position]
    for _ in range(30):
        moves = line[-1].legal_moves
        if not moves:
            break
        line.append(line[-1].play(moves[len(line) % len(moves)]))
    assert line_keys(line) == [position_key(p) for p in line]


# -- filters through the command line -------------------------------------------------------
def test_player_filters(capsys: pytest.CaptureFixture[str], games: Path) -> None:
    assert selected(capsys, str(games), "--player", "ton sijbrands") == [(1, None), (2, None)]
    assert selected(capsys, str(games), "--white", "Sijbrands, T.") == [(1, None)]
    assert selected(capsys, str(games), "--black", "sijbrands") == [(2, None)]
    assert selected(capsys, str(games), "--player", "sijbrands", "--player", "baljakin") == [
        (1, None)
    ]


def test_event_date_result_plies(capsys: pytest.CaptureFixture[str], games: Path) -> None:
    assert selected(capsys, str(games), "--event", "open") == [(2, None)]
    assert selected(capsys, str(games), "--date", "1990..1999") == [(1, None)]
    assert selected(capsys, str(games), "--date", "2004") == [(2, None)]
    assert selected(capsys, str(games), "--result", "draw") == [(2, None)]
    assert selected(capsys, str(games), "--result", "1-0") == [(1, None)]  # a first-player win
    assert selected(capsys, str(games), "--result", "black") == [(3, None)]
    assert selected(capsys, str(games), "--plies", "4..") == [(1, None)]
    assert selected(capsys, str(games), "--variant", "international", "--plies", "..3") == [
        (2, None),
        (3, None),
    ]


def test_findings_filters(capsys: pytest.CaptureFixture[str], games: Path) -> None:
    assert selected(capsys, str(games), "--with-findings", "illegal-move") == [(3, None)]
    assert selected(capsys, str(games), "--clean") == [(1, None), (2, None)]


def test_position_and_material(capsys: pytest.CaptureFixture[str], games: Path) -> None:
    assert selected(capsys, str(games), "--position", SHARED_FEN) == [(1, 3), (2, 3)]
    other_side = SHARED_FEN.replace("B:", "W:", 1)
    assert selected(capsys, str(games), "--position", other_side) == []
    assert selected(capsys, str(games), "--material", "W20:B18") == [(1, 5)]
    assert selected(capsys, str(games), "--material", "20:20") == [(1, 0), (2, 0), (3, 0)]


def test_writes_the_original_bytes(capsysbinary: pytest.CaptureFixture[bytes], games: Path) -> None:
    assert main(["select", str(games), "--event", "Open"]) == 0
    out = capsysbinary.readouterr().out
    data = games.read_bytes()
    start = data.index(b'[Event "Open')
    end = data.index(b"1-1\r\n", start) + 3
    assert out == data[start:end] + b"\r\n\r\n"


def test_writes_to_a_file_and_refuses_its_input(tmp_path: Path, games: Path) -> None:
    out = tmp_path / "out.pdn"
    assert main(["select", str(games), "--player", "X", "-o", str(out)]) == 0
    assert out.read_bytes().startswith(b'[Event "Blunders"]\r\n')
    assert main(["select", str(games), "-o", str(games)]) == 2


def test_jobs_give_the_same_answers(capsys: pytest.CaptureFixture[str], games: Path) -> None:
    one = selected(capsys, str(games), "--position", SHARED_FEN)
    assert selected(capsys, str(games), "--position", SHARED_FEN, "--jobs", "2") == one


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--position", "W:W31-50x"], "cannot be read"),
        (["--position", "Q:W31"], "side to move"),
        (["--result", "maybe"], "not a score"),
    ],
)
def test_bad_values_exit_2(
    capsys: pytest.CaptureFixture[str], games: Path, argv: list[str], message: str
) -> None:
    assert main(["select", str(games), *argv]) == 2
    assert message in capsys.readouterr().err


def test_criteria_without_replay_read_tags_only() -> None:
    assert not Criteria(players=("x",), event="y").needs_replay
    assert Criteria(material=MaterialSpec.parse("K1:K1")).needs_replay


def test_reads_stdin(
    monkeypatch: pytest.MonkeyPatch, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    import io
    import sys

    fake = io.TextIOWrapper(io.BytesIO(GAMES.encode("utf-8")))
    monkeypatch.setattr(sys, "stdin", fake)
    assert main(["select", "-", "--result", "draw", "--format", "json"]) == 0
    row = json.loads(capsysbinary.readouterr().out)
    assert (row["file"], row["game"]) == ("<stdin>", 2)


def test_particles_alone_do_not_match() -> None:
    assert not name_matches("van der Wal", "W. van der Kooij")
    assert name_matches("van der Wal", "Wal, Rob van der")
    assert not name_matches("T.", "Ton Sijbrands")  # an initial alone names nobody
