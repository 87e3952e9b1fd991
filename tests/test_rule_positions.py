"""Each capture and movement rule pinned by a position with its exact legal moves.

T1-T25 are RULES.md B§12 (moves as listed there); the rest are hand-built positions for the
variants with no published table (or rules a table cannot show).
"""

from __future__ import annotations

import re

import pytest

from pdn.engine.movegen import legal_moves, perft
from pdn.engine.position import Position
from pdn.engine.variants import Variant


def position(variant: str, fen: str) -> Position:
    return Position.from_fen(fen, Variant.from_name(variant))


def paths(pos: Position, *written: str) -> set[tuple[int, ...]]:
    """Full paths written as in RULES.md, as tuples of the engine's square numbers."""
    board = pos.variant.board
    return {
        tuple(board.parse_square(square) for square in re.split(r"[-x:]", text)) for text in written
    }


def legal_paths(pos: Position, keep_duplicates: bool = False) -> set[tuple[int, ...]]:
    moves = legal_moves(pos, keep_duplicates=keep_duplicates)
    found = {move.path for move in moves}
    assert len(found) == len(moves), "two legal moves with the same path"
    return found


def legal_ends(pos: Position) -> list[tuple[int, int]]:
    return sorted((move.from_square, move.to_square) for move in pos.legal_moves)


INTERNATIONAL_TABLE = [
    ("T1", "W:W28", ["28-22", "28-23"]),
    ("T2", "W:WK46:B23", ["46x19", "46x14", "46x10", "46x5"]),
    ("T3", "W:WK41,49:B9,10,12,19,38", ["41x14x3x21x43"]),
    ("T4", "B:W27,28,38,39,42:BK25", ["25x48x31x22x33"]),
    ("T5", "W:W48:B24,K31,34,K42,43", ["48x39x30x19"]),
    ("T6", "W:WK48:B7,8,31,34,K42,44", ["48x30x2x11x50"]),
    ("T7", "W:W26:B12,K21,31,32", ["26x17x8", "26x37x28"]),
    ("T8", "W:W15:B9,10", ["15x4x13"]),
    ("T9", "W:W35:B30,K40", ["35x24", "35x44"]),
    ("T10", "W:W47:B13,14,22,24,31,34,K41,44", ["47x36x27x18x9x20x29x40x49"]),
    ("T11", "W:WK1:B7,9,17,19,20,30,31,33,43,44", ["1x29x42x26x3x14x32x49x35x24x15"]),
    ("T12", "W:WK47:B9,12,33", ["47x20x3x17", "47x20x3x21", "47x20x3x26"]),
]


@pytest.mark.parametrize(
    ("fen", "expected"),
    [pytest.param(fen, moves, id=name) for name, fen, moves in INTERNATIONAL_TABLE],
)
def test_international_rule_positions(fen: str, expected: list[str]) -> None:
    pos = position("international", fen)
    assert legal_paths(pos) == paths(pos, *expected)


def test_passing_the_promotion_row_does_not_promote() -> None:
    (move,) = position("international", "W:W15:B9,10").legal_moves
    assert not move.promotes


def test_t13_circular_capture_keeps_six_paths_and_five_moves() -> None:
    pos = position("international", "W:WK38:B18,19,32,33")
    loops = [
        "38x27x13x24x38",
        "38x27x13x24x42",
        "38x27x13x24x47",
        "38x24x13x27x38",
        "38x24x13x27x43",
        "38x24x13x27x49",
    ]
    assert legal_paths(pos, keep_duplicates=True) == paths(pos, *loops)
    unique = pos.legal_moves
    assert len(unique) == 5
    assert sum(move.to_square == 38 for move in unique) == 1


def test_t14_same_from_and_to_with_different_captured_sets() -> None:
    """B§12 counts 4 paths the pydraughts way (stopping on 38 or 33 before taking 29 on the
    same line); by the path definition of B§0, which reproduces the keep perft, those are one
    path each, so keep = drop = 2 here."""
    pos = position("international", "W:WK47:B14,19,29,31,42")
    assert legal_paths(pos, keep_duplicates=True) == paths(pos, "47x38x24x13x36", "47x38x20x9x36")
    unique = pos.legal_moves
    assert {(move.from_square, move.to_square) for move in unique} == {(47, 36)}
    assert {frozenset(move.captures) for move in unique} == {
        frozenset({42, 31, 19, 29}),
        frozenset({42, 31, 14, 29}),
    }


@pytest.mark.parametrize("variant", ["russian", "brazilian"])
def test_t15_king_lands_where_it_can_go_on(variant: str) -> None:
    pos = position(variant, "W:WKd2:Bf6,c5,e5,e3")
    expected = ["d2:f4:d6:b4", "d2:f4:d6:a3", "d2:g5:e7:b4", "d2:g5:e7:a3"]
    assert legal_paths(pos) == paths(pos, *expected)


@pytest.mark.parametrize("variant", ["russian", "brazilian"])
def test_t16_circular_king_capture_on_8x8(variant: str) -> None:
    pos = position(variant, "W:WKd2:Bc5,e5,c3,e3")
    every = ["d2:b4:d6:f4:d2", "d2:b4:d6:f4:c1", "d2:f4:d6:b4:d2", "d2:f4:d6:b4:e1"]
    assert legal_paths(pos, keep_duplicates=True) == paths(pos, *every)
    assert len(pos.legal_moves) == 3


def test_t17_free_choice_in_russian_majority_in_brazilian() -> None:
    fen = "W:We3,g3,h4,a5,b2,h2,a3,Kf8:Bc5,e5,g5,g7,h8"
    russian = position("russian", fen)
    assert legal_paths(russian) == paths(russian, "f8:b4", "f8:h6:f4:d6:b4", "h4:f6:d4:b6")
    brazilian = position("brazilian", fen)
    assert legal_paths(brazilian) == paths(brazilian, "f8:h6:f4:d6:b4")


ITALIAN_TABLE = [
    ("T18 men only forward", "W:W24:B20,28", [(24, 15)]),
    ("T19 man cannot take a king", "W:W30:BK26", [(30, 27)]),
    ("T19 man takes a man", "W:W30:B27", [(30, 23)]),
    ("T20 quantity", "W:WK21,31:B10,18,27", [(31, 6)]),
    ("T21 capture with the king", "W:WK23,31:B19,26,27", [(23, 21)]),
    ("T22 most kings", "W:WK23:B19,K28", [(23, 32)]),
    ("T23 earliest king", "W:WK30:B10,12,18,K20,K26,27", [(30, 5)]),
    ("T24 equivalent captures free", "W:WK31:B18,20,K27,K28", [(31, 13), (31, 15)]),
    ("T25 earliest king (Alioto)", "W:WK30:B10,K12,K18,20,K26,K27", [(30, 5)]),
]


@pytest.mark.parametrize(
    ("fen", "expected"), [pytest.param(fen, ends, id=name) for name, fen, ends in ITALIAN_TABLE]
)
def test_italian_rule_positions(fen: str, expected: list[tuple[int, int]]) -> None:
    assert legal_ends(position("italian", fen)) == sorted(expected)


# --- hand-built positions: variants and rules without a published table -----------------------


def test_russian_man_crowned_mid_capture_goes_on_as_a_king() -> None:
    pos = position("russian", "W:Wb6:Bc7,e7")
    assert legal_paths(pos) == paths(pos, "b6:d8:f6", "b6:d8:g5", "b6:d8:h4")
    assert all(move.promotes for move in pos.legal_moves)


@pytest.mark.parametrize("variant", ["pool", "brazilian"])
def test_man_passing_the_king_row_stays_a_man(variant: str) -> None:
    pos = position(variant, "W:Wb6:Bc7,e7")
    (move,) = pos.legal_moves
    assert move.path == paths(pos, "b6:d8:f6").pop()
    assert not move.promotes


def test_czech_king_must_capture_when_it_can() -> None:
    fen = "W:WKa1,g3:Bb2,f4"  # no landing lets the king go on to f4: g3 blocks
    czech = position("czech", fen)
    kings_only = ["a1:c3", "a1:d4", "a1:e5", "a1:f6", "a1:g7", "a1:h8"]
    assert legal_paths(czech) == paths(czech, *kings_only)
    russian = position("russian", fen)
    assert legal_paths(russian) == paths(russian, *kings_only, "g3:e5")


def test_english_free_choice_of_capture() -> None:
    pos = position("english", "W:W27,24:B23,14,19")
    assert legal_paths(pos) == {(27, 18, 9), (24, 15)}


def test_english_crowning_ends_the_move() -> None:
    pos = position("english", "W:W10:B7,8")
    (move,) = pos.legal_moves
    assert move.path == (10, 3) and move.promotes


def test_english_king_is_short_and_men_do_not_capture_backwards() -> None:
    assert legal_ends(position("english", "W:WK29")) == [(29, 25)]
    assert legal_ends(position("english", "W:WK18:B14")) == [(18, 9)]
    assert legal_ends(position("english", "W:W18:B22")) == [(18, 14), (18, 15)]


@pytest.mark.parametrize("variant", ["portuguese", "spanish"])
def test_quality_law_prefers_the_king(variant: str) -> None:
    """Square 11 = d3, 14 = e4, 15 = c4, 18 = f5, 20 = b5 (1 = h1, right to left)."""
    assert legal_ends(position(variant, "W:W11:BK15,14")) == [(11, 20)]
    assert legal_ends(position(variant, "W:W11:B15,14")) == [(11, 18), (11, 20)]
    assert legal_ends(position(variant, "W:W11:B6")) == [(11, 14), (11, 15)]


def test_frisian_men_capture_orthogonally() -> None:
    assert legal_paths(position("frisian", "W:W28:B29")) == {(28, 30)}
    assert legal_paths(position("frisian", "W:W28:B18")) == {(28, 8)}


def test_frisian_capture_value_a_king_counts_more_than_a_man_less_than_two() -> None:
    assert legal_paths(position("frisian", "W:W28:BK22,23")) == {(28, 17)}
    assert legal_paths(position("frisian", "W:W28:BK22,23,14")) == {(28, 19, 10)}


def test_frisian_on_equal_value_a_king_must_capture() -> None:
    pos = position("frisian", "W:WK45,28:B23")
    assert legal_paths(pos) == {(45, 18), (45, 12), (45, 7), (45, 1)}


def test_turkish_men_move_forward_and_sideways_and_capture_orthogonally() -> None:
    quiet = position("turkish", "W:Wd4:Bd3")
    assert legal_paths(quiet) == paths(quiet, "d4-d5", "d4-c4", "d4-e4")
    capture = position("turkish", "W:Wd4:Bd5,c6")
    assert legal_paths(capture) == paths(capture, "d4xd6xb6")


def test_turkish_king_going_straight_on_is_one_path_whatever_square_it_passes() -> None:
    """RULES.md B§0 path identity: stopping on a4 or a5 between a3 and a6 is one path. The
    kish crate counts both (perft d7 10,782,382): counted that way our d7 tree gives exactly
    kish's number, 74 more than our 10,782,308."""
    pos = position("turkish", "W:WKa1:Ba3,a6")
    assert legal_paths(pos, keep_duplicates=True) == paths(pos, "a1xa4xa7", "a1xa4xa8")


def test_thai_king_lands_right_behind_the_captured_piece() -> None:
    pos = position("thai", "W:WKa1:Bc3")
    assert legal_paths(pos) == paths(pos, "a1xd4")


def test_thai_removes_captured_pieces_at_once_so_a_king_may_turn_back() -> None:
    thai = position("thai", "W:WKd4:Bc3,e5")
    assert legal_paths(thai) == paths(thai, "d4xb2xf6", "d4xf6xb2")
    russian = position("russian", "W:WKd4:Bc3,e5")  # Turkish strike: no way back
    assert legal_paths(russian) == paths(russian, "d4:b2", "d4:a1", "d4:f6", "d4:g7", "d4:h8")


def test_thai_men_capture_forward_only_and_a_crowning_capture_stops() -> None:
    quiet = position("thai", "W:Wc3:Bd2")
    assert legal_paths(quiet) == paths(quiet, "c3-b4", "c3-d4")
    crowning = position("thai", "W:Wb6:Bc7,e7")
    (move,) = crowning.legal_moves
    assert move.path == paths(crowning, "b6xd8").pop() and move.promotes


GIVEAWAY_POSITIONS = [
    ("international-giveaway", "international", "W:W48:B24,K31,34,K42,43"),
    ("international-giveaway", "international", "W:WK38:B18,19,32,33"),
    ("brazilian-giveaway", "brazilian", "W:We3,g3,h4,a5,b2,h2,a3,Kf8:Bc5,e5,g5,g7,h8"),
    ("russian-giveaway", "russian", "W:We3,g3,h4,a5,b2,h2,a3,Kf8:Bc5,e5,g5,g7,h8"),
    ("russian-giveaway", "russian", "W:Wb6:Bc7,e7"),
]


@pytest.mark.parametrize(("giveaway", "base", "fen"), GIVEAWAY_POSITIONS)
def test_giveaway_forms_move_exactly_like_their_base(giveaway: str, base: str, fen: str) -> None:
    """RULES.md B§8: only the result is inverted."""
    assert Variant.from_name(giveaway).giveaway and not Variant.from_name(base).giveaway
    for keep in (False, True):
        ours = legal_moves(position(giveaway, fen), keep_duplicates=keep)
        theirs = legal_moves(position(base, fen), keep_duplicates=keep)
        assert ours == theirs


def test_canadian_opening_moves() -> None:
    """12x12, 30 men each, two empty rows: 11 first moves each side, no contact at ply 2."""
    assert perft(Position.initial(Variant.from_name("canadian")), 2) == [11, 121]


def test_diagonal_nine_start_position_and_crowning_squares() -> None:
    """RULES.md A.7: the corner triangles, single corners pointing at the players; White
    crowns on h8, f8 and h6."""
    variant = Variant.from_name("diagonal-9")
    pos = Position.initial(variant)
    board = variant.board
    white = {board.to_algebraic(square) for square, piece in pos.pieces() if piece.colour == "W"}
    assert white == {"a1", "a3", "b2", "c1", "a5", "b4", "c3", "d2", "e1"}
    assert sum(1 for _ in pos.pieces()) == 18
    crowning = {board.to_algebraic(square) for square in variant.crowning_squares("W")}
    assert crowning == {"h8", "f8", "h6"}


def test_diagonal_twelve_start_position() -> None:
    """RULES.md A.7 reading: the 9-man triangle plus the middle of the next diagonal row."""
    variant = Variant.from_name("diagonal-12")
    board = variant.board
    pieces = {
        board.to_algebraic(square): piece.colour
        for square, piece in Position.initial(variant).pieces()
    }
    assert {name for name, colour in pieces.items() if colour == "W"} == {
        "a1",
        "a3",
        "b2",
        "c1",
        "a5",
        "b4",
        "c3",
        "d2",
        "e1",
        "c5",
        "d4",
        "e3",
    }
    assert sum(colour == "B" for colour in pieces.values()) == 12


@pytest.mark.parametrize("variant", ["diagonal-9", "diagonal-12"])
def test_diagonal_men_crown_only_on_the_three_crowning_squares(variant: str) -> None:
    def promotes(fen: str, written: str) -> bool:
        pos = position(variant, fen)
        (move,) = [move for move in pos.legal_moves if move.path == paths(pos, written).pop()]
        return move.promotes

    assert promotes("W:Wg7", "g7-h8") and promotes("W:Wg7", "g7-f8")
    assert promotes("W:Wg5", "g5-h6") and not promotes("W:Wg5", "g5-f6")
    assert not promotes("W:We7", "e7-d8")
    assert promotes("B:Bb2", "b2-a1") and promotes("B:Bb2", "b2-c1")
    assert not promotes("B:Bd2", "d2-e1")
