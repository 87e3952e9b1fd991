"""A small hostile input never takes the machine: each case here was a blow-up (gigabytes,
minutes, RecursionError). Time limits are generous guards; real figures: benchmarks/hostile.py."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from pdn import Position, Variant
from pdn.cli import main
from pdn.movegen import MAX_PERFT_DEPTH, perft
from pdn.reader import parse_any_tag

INTERNATIONAL = Variant.from_name("international")


def test_a_huge_fen_range_is_checked_against_the_board_before_it_is_expanded() -> None:
    position = Position.from_fen("W:W31-99999999999:B1", INTERNATIONAL)
    assert position.fen() == "W:W" + ",".join(map(str, range(31, 51))) + ":B1"
    assert position.problems() == ["White pieces ignored: squares 51-99999999999 are off the board"]


def test_a_fen_range_of_thousands_of_digits_is_read_without_a_giant_number() -> None:
    position = Position.from_fen("W:W49-" + "9" * 5000 + ":B1", INTERNATIONAL)
    assert position.fen() == "W:W49,50:B1"
    assert position.problems() == [
        "White pieces ignored: squares 51-999999999... are off the board"
    ]


@pytest.mark.parametrize("verb", ["check", "convert", "show"])
def test_every_verb_reads_a_game_with_a_huge_fen_range(
    verb: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "g.pdn"
    path.write_text('[FEN "W:W31-99999999999:B1"]\n1. 31-26 *\n')
    main([verb, str(path)])
    captured = capsys.readouterr()
    assert "31-26" in captured.out + captured.err or "off the board" in captured.out + captured.err


def test_a_tag_with_long_blank_runs_is_split_in_linear_time() -> None:
    token = "[Event x" + " " * 4000 + "y" + " " * 4000 + "]"
    started = time.process_time()
    assert parse_any_tag(token) == (
        "Event",
        "x" + " " * 4000 + "y",
        [f"tag Event: value {'x' + ' ' * 4000 + 'y'!r} is not in double quotes"],
    )
    assert time.process_time() - started < 1.0  # was 18 s for 2,000 spaces


@pytest.mark.parametrize(
    ("token", "expected"),
    [
        ('[Event "x"  ] ', ("Event", "x", [])),
        ("[ Round  3 ]", ("Round", "3", ["tag Round: value '3' is not in double quotes"])),
        ('[Event "x"', ("Event", "x", ["tag Event is not closed with ']'"])),
        ('[Event "a" "b"]', ("Event", 'a" "b', [])),
        ("[1Event]", ("", "[1Event]", ["malformed tag"])),
    ],
)
def test_parse_any_tag_reads_the_odd_shapes(
    token: str, expected: tuple[str, str, list[str]]
) -> None:
    assert parse_any_tag(token) == expected


def test_perft_depth_is_capped(capsys: pytest.CaptureFixture[str]) -> None:
    for depth in ("1000", "1000000000"):
        assert main(["perft", "--variant", "russian", "--depth", depth]) == 2
        assert f"depth must be 1 to {MAX_PERFT_DEPTH}" in capsys.readouterr().err
    with pytest.raises(ValueError, match="over the limit"):
        perft(Position.initial(INTERNATIONAL), MAX_PERFT_DEPTH + 1)
