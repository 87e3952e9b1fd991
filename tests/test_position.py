"""FEN dialects in, canonical FEN out, keys, validation reasons, play()."""

from __future__ import annotations

import re

import pytest
from conftest import CORPUS, budget
from hypothesis import given, settings
from hypothesis import strategies as st

from pdn.engine.movegen import Move
from pdn.engine.position import FenError, Piece, Position
from pdn.engine.variants import VARIANTS, Variant

INTERNATIONAL = Variant.from_name("international")
RUSSIAN = Variant.from_name("russian")
ENGLISH = Variant.from_name("english")

INITIAL_10X10 = "W:W" + ",".join(map(str, range(31, 51))) + ":B" + ",".join(map(str, range(1, 21)))


@pytest.mark.parametrize(
    "fen",
    [
        "W:W31-50:B1-20",  # ranges
        "W:B1-20:W31-50",  # colour groups in either order
        "W:W31-50:B1-20.",  # trailing dot (older programs)
        "W:W31-50:B1-20. ",
        "W:W31-50:B1-20:H0:F1",  # lidraughts clocks
        "W:W50,49,48,47,46,45,44,43,42,41,40,39,38,37,36,35,34,33,32,31:B1-20",  # unordered
        "W:W31-50:B01-09,10-20",  # leading zeros
        " W:W31-50:B1-20 ",
        INITIAL_10X10,
    ],
)
def test_numeric_dialects_read_to_the_initial_position(fen):
    position = Position.from_fen(fen, INTERNATIONAL)
    assert position == Position.initial(INTERNATIONAL)
    assert position.fen() == INITIAL_10X10
    assert position.problems() == []


def test_kings_question_turn_and_empty_sides():
    position = Position.from_fen("?:WK4,30:B27,K22", ENGLISH)
    assert position.turn == "B"  # '?' reads as the variant's first mover
    assert position.piece_at(4) is Piece.WHITE_KING
    assert position.piece_at(22) is Piece.BLACK_KING
    assert position.piece_at(27) is Piece.BLACK_MAN
    assert position.piece_at(5) is None
    assert position.fen() == "B:WK4,30:BK22,27"
    empty = Position.from_fen("B::", INTERNATIONAL)
    assert empty.fen() == "B:W:B"
    assert list(empty.pieces()) == []
    assert Position.from_fen("W:W:B1", INTERNATIONAL).fen() == "W:W:B1"


def test_algebraic_fen_and_numeric_fen_are_the_same_russian_position():
    algebraic = Position.from_fen(
        "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8", RUSSIAN
    )
    numeric = Position.from_fen("W:W21,22,23,24,25,26,27,28,29,30,31,32:B1-12:H0:F1", RUSSIAN)
    assert algebraic == numeric == Position.initial(RUSSIAN)
    assert algebraic.fen() == (
        "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8"
    )
    assert algebraic.fen("numeric").startswith("W:W21,22,")
    assert Position.from_fen("W:WKd2:BC5", RUSSIAN).fen() == "W:WKd2:Bc5"


@pytest.mark.parametrize(
    ("fen", "reason"),
    [
        ("", "empty"),
        ("X:W1:B2", "side to move"),
        ("W:Q1:B2", "does not start with W or B"),
        ("W:?1:B2", "unknown colour"),
        ("W:W1,zz:B2", "not a square"),
        ("W:W12-3:B40", "backwards"),
        ("W:W1-x:B40", "not two square numbers"),
    ],
)
def test_unreadable_fens_raise_with_the_reason(fen, reason):
    with pytest.raises(FenError, match=reason):
        Position.from_fen(fen, INTERNATIONAL)


def test_problems_name_the_reason():
    off_board = Position.from_fen("W:W31,51:B1,b1", INTERNATIONAL)
    assert off_board.problems() == [
        "White piece ignored: square 51 is out of range 1-50",
        "Black piece ignored: square b1 is not a playing square",
    ]
    twice = Position.from_fen("W:W31:BK31", INTERNATIONAL)
    assert twice.problems() == ["square 31 is given twice (kept the first)"]
    crowned_row = Position.from_fen("W:W3,40:B47,20", INTERNATIONAL)
    assert crowned_row.problems() == [
        "White man on 3, its crowning square (it would be a king)",
        "Black man on 47, its crowning square (it would be a king)",
    ]
    assert Position.from_fen("W:WK3:BK47", INTERNATIONAL).problems() == []
    too_many = Position.from_fen("B:W1-32:B", ENGLISH)  # 32 White pieces on 32 squares
    assert "White has 32 pieces; english starts with 12" in too_many.problems()
    assert Position.from_fen("W:Wh8:Ba1", RUSSIAN).problems() == [
        "White man on h8, its crowning square (it would be a king)",
        "Black man on a1, its crowning square (it would be a king)",
    ]


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_initial_positions_are_valid_and_round_trip(name):
    variant = VARIANTS[name]
    start = Position.initial(variant)
    assert start.turn == variant.first_mover
    assert start.problems() == []
    assert start.count("W") == start.count("B") > 0
    for notation in ("numeric", "algebraic"):
        assert Position.from_fen(start.fen(notation), variant) == start


def test_key_separates_side_to_move_and_kings():
    men = Position.from_fen("W:W31:B1", INTERNATIONAL)
    assert men.key() == Position.from_fen("W:W31:B1", INTERNATIONAL).key()
    assert men.key() != Position.from_fen("B:W31:B1", INTERNATIONAL).key()
    assert men.key() != Position.from_fen("W:WK31:B1", INTERNATIONAL).key()
    assert hash(men) == hash(Position.from_fen("W:W31:B1", INTERNATIONAL))


def test_position_is_immutable():
    position = Position.initial(INTERNATIONAL)
    with pytest.raises(AttributeError):
        position.turn = "B"  # type: ignore[misc]


def test_play_moves_captures_and_crowns():
    position = Position.from_fen("W:W15,32:B9,10,20", INTERNATIONAL)
    after = position.play(Move((15, 4, 13), (10, 9)))
    assert after.fen() == "B:W13,32:B20"
    crowned = Position.from_fen("W:W6:B20", INTERNATIONAL).play(Move((6, 1)))
    assert crowned.piece_at(1) is Piece.WHITE_KING
    assert position.fen() == "W:W15,32:B9,10,20"  # unchanged
    king_back_home = Position.from_fen("W:WK38:B18,19,32,33", INTERNATIONAL).play(
        Move((38, 27, 13, 24, 38), (32, 18, 19, 33))
    )
    assert king_back_home.fen() == "B:WK38:B"
    with pytest.raises(ValueError, match="no White piece on 1"):
        position.play(Move((1, 7)))


def test_from_pieces_matches_fen():
    pieces = {31: Piece.WHITE_MAN, 12: Piece.BLACK_KING}
    assert Position.from_pieces(INTERNATIONAL, pieces, "B") == Position.from_fen(
        "B:W31:BK12", INTERNATIONAL
    )
    assert dict(Position.from_fen("B:W31:BK12", INTERNATIONAL).pieces()) == pieces


@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not present")
def test_every_corpus_fen_reads_or_raises_fen_error_in_every_variant():
    fens: set[str] = set()
    for path in CORPUS.rglob("*"):
        if path.is_file():
            fens.update(re.findall(r'FEN\s*"([^"]*)"', path.read_bytes().decode("latin-1")))
    assert len(fens) > 100
    unreadable = set()
    for fen in fens:
        for variant in VARIANTS.values():
            try:
                position = Position.from_fen(fen, variant)
            except FenError:
                unreadable.add(fen)
                continue
            position.problems()
            Position.from_fen(position.fen(), variant)
    assert unreadable <= {""}  # only the empty FEN tag cannot be read


@settings(max_examples=budget(300), deadline=None)
@given(st.text(alphabet="WBK?:.,-0123456789abhH ", max_size=40))
def test_arbitrary_fen_text_reads_or_raises_fen_error(text):
    try:
        position = Position.from_fen(text, INTERNATIONAL)
    except FenError:
        return
    assert Position.from_fen(position.fen(), INTERNATIONAL) == position
