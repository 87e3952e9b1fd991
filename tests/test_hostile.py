"""A small hostile input never takes the machine: each case here was a blow-up (gigabytes,
minutes, RecursionError). Time limits are generous guards; real figures: benchmarks/hostile.py."""

from __future__ import annotations

import io
import time
from pathlib import Path

import pytest

from pdn import Position, Variant
from pdn.base.findings import quoted
from pdn.cli.main import main
from pdn.engine.movegen import MAX_PERFT_DEPTH, perft
from pdn.pdnfile import scan
from pdn.pdnfile.reader import parse_any_tag, read_game, read_games
from pdn.pdnfile.scan import iter_spans
from pdn.pdnfile.writer import write_game

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
        [f"tag Event: value {quoted('x' + ' ' * 4000 + 'y')} is not in double quotes"],
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
        assert (
            f"expected a whole number from 1 to {MAX_PERFT_DEPTH}, not {depth!r}"
            in capsys.readouterr().err
        )
    with pytest.raises(ValueError, match="over the limit"):
        perft(Position.initial(INTERNATIONAL), MAX_PERFT_DEPTH + 1)


def _read_cost(data: bytes) -> tuple[int, float]:
    """(games, seconds of CPU) to read ``data``."""
    started = time.process_time()
    games = sum(1 for _ in read_games(io.BytesIO(data)))
    return games, time.process_time() - started


@pytest.mark.parametrize(
    "shape",
    [
        b"{" + b"a b c d e\n" * 40_000,  # unterminated comment, tagless
        b"x" * 400_000,  # one long word
        b"(" * 50_000,  # deep nesting
        b"[" * 100_000,  # tag openers
        b"{" * 100_000,  # comment openers
    ],
    ids=["open-comment", "long-word", "open-parens", "brackets", "braces"],
)
def test_hostile_shapes_read_in_linear_time(shape: bytes) -> None:
    games, seconds = _read_cost(shape)
    assert games >= 1
    assert seconds < 20  # generous guard: each was minutes at this size (quadratic)


def test_an_unclosed_comment_is_kept_with_one_finding() -> None:
    game = read_game('[Event "x"]\n1. 32-28 {never closed 19-23 2. 33-29 *\n')
    assert [f.message for f in game.findings] == [
        "comment '{' is never closed with '}': read to the end of the game"
    ]
    assert "never closed 19-23 2. 33-29 *" in write_game(game)


def test_a_game_over_the_size_limit_is_reported_not_held(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scan, "MAX_GAME_CHARS", 5_000)
    monkeypatch.setattr(scan, "CHUNK_CHARS", 1_000)
    huge = "1. 32-28 19-23 " * 2_000
    text = f'[Event "big"]\n{huge}*\n\n[Event "small"]\n1. 32-28 *\n'
    spans = list(iter_spans(io.BytesIO(text.encode())))
    assert [span.source.game for span in spans] == [1, 2]
    assert spans[0].text == ""
    assert spans[0].tags == (("Event", "big"),)
    assert "over the limit of 5,000" in spans[0].findings[0].message
    assert spans[0].findings[0].severity == "error"
    assert spans[1].text == '[Event "small"]\n1. 32-28 *'
    assert spans[1].source.line == 4
