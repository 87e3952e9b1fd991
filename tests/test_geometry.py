"""Boards of every PDN GameType: numbering anchors, numeric <-> algebraic round trips."""

from __future__ import annotations

import pytest

from pdn.engine.geometry import Board, board_for_gametype
from pdn.engine.variants import VARIANTS, Variant, variant_from_gametype

# (width, height, notation code, invert, first mover, {square: algebraic name})
ANCHORS = [
    (8, 8, "N1", False, "B", {1: "b8", 4: "h8", 5: "a7", 29: "a1", 32: "g1"}),  # English
    (8, 8, "N2", True, "W", {1: "a8", 4: "g8", 5: "b7", 29: "b1", 32: "h1"}),  # Italian
    (8, 8, "N1", True, "W", {1: "h1", 4: "b1", 5: "g2", 32: "a8"}),  # Portuguese / Spanish
    (8, 8, "A0", False, "W", {1: "b8", 29: "a1", 32: "g1"}),  # Russian, lidraughts numbering
    (10, 10, "N2", False, "W", {1: "b10", 5: "j10", 46: "a1", 50: "i1"}),  # International
    (12, 12, "N2", False, "W", {1: "b12", 72: "k1"}),  # Canadian
    (10, 8, "A0", False, "W", {1: "b8", 36: "a1", 40: "i1"}),  # Spantsiretti
    (8, 8, "N2", False, "B", {1: "g1", 4: "a1", 32: "b8"}),  # Thai, square 1 seen by Black
]


@pytest.mark.parametrize(("width", "height", "code", "invert", "first", "anchors"), ANCHORS)
def test_gametype_numbering_anchors(width, height, code, invert, first, anchors):
    board = board_for_gametype(width, height, code, invert, first)
    assert len(board) == width * height // 2
    for square, name in anchors.items():
        assert board.to_algebraic(square) == name
        assert board.parse_square(name) == square
        assert board.parse_square(name.upper()) == square


def test_turkish_board_has_all_64_squares():
    board = VARIANTS["turkish"].board
    assert len(board) == 64
    assert [board.to_algebraic(s) for s in (1, 8, 41, 57, 64)] == ["a8", "h8", "a3", "a1", "h1"]


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_every_square_round_trips(name):
    board = VARIANTS[name].board
    for square in board.squares:
        file, rank = board.coords(square)
        assert board.square_at(file, rank) == square
        assert board.parse_square(board.to_algebraic(square)) == square
        assert board.parse_square(board.format_square(square, "numeric")) == square
        assert board.square_of_index(board.bit_index(square)) == square


def test_parse_square_accepts_leading_zeros_and_rejects_with_reason():
    board = Board(10, 10)
    assert board.parse_square("06") == 6
    with pytest.raises(ValueError, match="out of range"):
        board.parse_square("51")
    with pytest.raises(ValueError, match="not a playing square"):
        board.parse_square("a10")
    with pytest.raises(ValueError, match="off the"):
        board.parse_square("m3")
    with pytest.raises(ValueError, match="not a square"):
        board.parse_square("x-")
    with pytest.raises(ValueError):
        board.coords(0)


def test_rays_stop_at_edges():
    board = Board(10, 10)
    assert board.ray(46, (1, 1)) == (41, 37, 32, 28, 23, 19, 14, 10, 5)
    assert board.ray(46, (-1, 1)) == ()
    assert board.ray(1, (2, 0)) == (2, 3, 4, 5)  # Frisian orthogonal steps


@pytest.mark.parametrize("code", ["X1", "N4", "N", "A10"])
def test_bad_notation_codes_raise(code):
    with pytest.raises(ValueError):
        board_for_gametype(8, 8, code, False)


@pytest.mark.parametrize(
    ("value", "name", "problem"),
    [
        ("20", "international", None),
        ("20,W,10,10,N2,0", "international", None),
        ("20,W,10,10,N1,0", "international", "differs from the standard"),  # PlayOK
        ("25,W,8,8,A1,0", "russian", "differs from the standard"),
        ("21", "english", None),
        ("23", "pool", None),
        ("31,B,8,8,N2,0", "thai", None),
        ("98", "international-giveaway", "Antidraughts"),
        ("97", "frisian", "Frysk"),
    ],
)
def test_variant_from_gametype(value, name, problem):
    variant, problems = variant_from_gametype(value)
    assert variant is not None and variant.name == name
    if problem is None:
        assert problems == []
    else:
        assert len(problems) == 1 and problem in problems[0]


@pytest.mark.parametrize(
    ("value", "reason"),
    [("0", "chess"), ("45", "not a known"), ("x", "game number"), ("", "game number")],
)
def test_unknown_gametypes_give_a_reason(value, reason):
    variant, problems = variant_from_gametype(value)
    assert variant is None and reason in problems[0]


def test_variant_names_and_aliases():
    for alias, name in [
        ("checkers", "english"),
        ("American", "english"),
        ("perde-ganha", "brazilian-giveaway"),
        ("antidraughts", "international-giveaway"),
    ]:
        assert Variant.from_name(alias).name == name
    with pytest.raises(ValueError, match="known: international"):
        Variant.from_name("chess")
    for variant in VARIANTS.values():
        assert variant.gametype_spec is None or variant.board == _spec_board(variant)


def _spec_board(variant):
    _type, first, width, height, code, invert = variant.gametype_spec.split(",")
    return board_for_gametype(
        int(width), int(height), code, invert == "1", first, variant.board.all_squares
    )
