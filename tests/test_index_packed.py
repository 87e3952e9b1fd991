"""Issue 29 on the index (schema 5): every ply's bitboards packed in one blob per game
(``indexschema.pack_boards``), and the function a pattern query registers with SQLite
(``index._first_ply_test``) finds the first ply ``Condition.matches_boards`` finds, for every
mask kind, either side to move, bitboards of 1 to 9 bytes (square 64 and square 72 included)."""

from __future__ import annotations

import random
import sqlite3
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pdn.database.index import _first_ply_test, _line
from pdn.database.indexschema import board_bytes, pack_boards, unpack_boards
from pdn.database.patterns import Boards, Condition
from pdn.engine.variants import Variant

BOARDS = st.tuples(*[st.integers(0, (1 << 72) - 1)] * 4)


@given(st.lists(BOARDS, max_size=40))
def test_packing_gives_back_every_ply(plies: list[tuple[int, int, int, int]]) -> None:
    assert list(unpack_boards(pack_boards(plies, 9), 9)) == plies
    narrow = [tuple(bits & ((1 << 50) - 1) for bits in ply) for ply in plies]
    packed = pack_boards(narrow, 7)
    assert list(unpack_boards(packed, 7)) == narrow
    assert len(zlib.decompress(packed)) == 28 * len(plies)  # the documented record: 28 bytes


def test_board_widths() -> None:
    assert (board_bytes(32), board_bytes(50), board_bytes(64), board_bytes(72)) == (4, 7, 8, 9)


def _random_line(rng: random.Random, squares: int, plies: int) -> list[tuple[int, ...]]:
    """Plies of random bitboards on ``squares`` squares (each square held half the time)."""
    return [tuple(rng.getrandbits(squares) for _kind in range(4)) for _ in range(plies)]


def _random_condition(rng: random.Random, squares: int) -> Condition:
    def mask() -> int:
        squares_held = rng.sample(range(squares), rng.choice((0, 0, 0, 1, 1, 2)))
        return sum(1 << square for square in squares_held)

    return Condition(
        turn=rng.choice((None, "W", "B")),
        required=Boards(mask(), mask(), mask(), mask()),
        required_white=mask(),
        required_black=mask(),
        forbidden=Boards(mask(), mask(), mask(), mask()),
    )


@pytest.mark.parametrize("squares", [8, 32, 50, 64, 72])
def test_the_first_ply_is_the_brute_force_one(squares: int) -> None:
    rng = random.Random(squares)
    width = board_bytes(squares)
    found = 0
    for trial in range(400):
        line = _random_line(rng, squares, rng.randrange(1, 30))
        conditions = [_random_condition(rng, squares) for _ in range(rng.choice((1, 2)))]
        turn = rng.choice(("W", "B"))
        other = "B" if turn == "W" else "W"
        expected = next(
            (
                ply
                for ply, boards in enumerate(line)
                if any(
                    c.matches_boards(other if ply % 2 else turn, Boards(*boards))
                    for c in conditions
                )
            ),
            None,
        )
        test = _first_ply_test(conditions, width)
        assert test(turn, pack_boards(line, width)) == expected, (trial, line, conditions)
        found += expected is not None
    assert 40 < found < 360, found  # both answers were tested often


def test_the_function_answers_inside_one_sql_statement() -> None:
    variant = Variant.from_name("international")
    line = [(1 << 23, 0, 1 << 18, 0), (1 << 23, 0, 1 << 19, 0), (1 << 22, 0, 1 << 18, 0)]
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE game_boards(game_id INTEGER PRIMARY KEY, turn TEXT, boards BLOB)")
    db.execute("INSERT INTO game_boards VALUES (1, 'B', ?)", (pack_boards(line, 7),))
    white_to_move = Condition("W", Boards(1 << 23, 0, 0, 0), 0, 1 << 18, Boards())
    db.create_function("pdn_first_ply", 2, _first_ply_test([white_to_move], 7), deterministic=True)
    assert db.execute("SELECT pdn_first_ply(turn, boards) FROM game_boards").fetchall() == [(None,)]
    either = Condition(None, Boards(1 << 23, 0, 0, 0), 0, 1 << 18, Boards())
    db.create_function("pdn_first_ply", 2, _first_ply_test([either], 7), deterministic=True)
    assert db.execute("SELECT pdn_first_ply(turn, boards) FROM game_boards").fetchall() == [(0,)]
    assert [turn for turn, _boards in _line(variant, "B", pack_boards(line, 7))] == ["B", "W", "B"]


@settings(max_examples=50)
@given(st.lists(BOARDS, min_size=1, max_size=12), st.sampled_from(["W", "B"]))
def test_an_empty_condition_holds_at_ply_0(plies: list[tuple[int, ...]], turn: str) -> None:
    anything = Condition(None, Boards(), 0, 0, Boards())
    assert _first_ply_test([anything], 9)(turn, pack_boards(plies, 9)) == 0
