"""Move generation per variant: capture laws, promotion, notation, duplicates, perft basics.

The published perft tables and the T1-T25 rule positions live in tests/test_perft.py and the
rule-position tests; here each variant's own capture law is pinned by a small position.
"""

from __future__ import annotations

import pytest

from pdn.engine.movegen import Move, Rules, legal_moves, perft, rules_for
from pdn.engine.position import Position
from pdn.engine.variants import VARIANTS, Variant


def moves_of(variant_name: str, fen: str, keep: bool = False) -> list[str]:
    """Legal moves as sorted full-path algebraic text, ``+`` marking a promotion."""
    variant = Variant.from_name(variant_name)
    position = Position.from_fen(fen, variant)
    return sorted(
        move.notation(variant.board, "algebraic", full=True) + ("+" if move.promotes else "")
        for move in legal_moves(position, keep)
    )


# variant -> number of moves in the start position (perft d1)
INITIAL_MOVES = {
    "international": 9,
    "brazilian": 7,
    "russian": 7,
    "pool": 7,
    "english": 7,
    "portuguese": 7,
    "spanish": 7,
    "italian": 7,
    "czech": 7,
    "frisian": 9,
    "turkish": 8,
    "thai": 7,
    "canadian": 11,
    "international-giveaway": 9,
    "brazilian-giveaway": 7,
    "russian-giveaway": 7,
    "diagonal-9": 5,
    "diagonal-12": 3,
}


def test_every_variant_has_an_initial_move_count():
    assert set(INITIAL_MOVES) == set(VARIANTS)


@pytest.mark.parametrize(("name", "count"), sorted(INITIAL_MOVES.items()))
def test_initial_move_counts(name, count):
    position = Position.initial(VARIANTS[name])
    moves = position.legal_moves
    assert len(moves) == count
    assert perft(position, 1) == [count]
    assert all(not move.is_capture for move in moves)


def test_promotion_in_passing_russian_only():
    fen = "W:Wb6:Bc7,f6"  # the man crowns on d8 mid-capture; only a king can go on over f6
    assert moves_of("russian", fen) == ["b6xd8xg5+", "b6xd8xh4+"]
    assert moves_of("pool", fen) == ["b6xd8+"]
    assert moves_of("brazilian", fen) == ["b6xd8+"]


def test_english_crowning_ends_the_move_and_kings_are_short():
    assert moves_of("english", "W:Wb6:Bc7,e7") == ["b6xd8+"]
    assert moves_of("english", "B:WKa1:Bh8") == ["h8-g7"]
    assert moves_of("english", "W:WKa1:Bh8") == ["a1-b2"]


def test_quality_portuguese_and_spanish_take_the_king():
    for name in ("portuguese", "spanish"):
        assert moves_of(name, "W:Wd3:Bc4,Ke4") == ["d3xf5"]
        assert moves_of(name, "W:Wd3:Bc2,e4") == ["d3xf5"]  # men never capture backwards


def test_czech_king_must_capture_else_free_choice():
    assert moves_of("czech", "W:WKa1,g3:Bc3,f4") == ["a1xd4", "a1xe5", "a1xf6", "a1xg7", "a1xh8"]
    assert moves_of("czech", "W:Wg3,a1:Bf4,f6,d6,b2") == ["a1xc3", "g3xe5xc7", "g3xe5xg7"]


def test_free_choice_russian_vs_majority_brazilian():
    fen = "W:Wc3,g3:Bd4,f4,f6"
    assert moves_of("russian", fen) == ["c3xe5xg7", "g3xe5xg7"]
    assert moves_of("brazilian", fen) == ["c3xe5xg7", "g3xe5xg7"]
    fen = "W:Wc1,g3:Bd2,f4,f6"
    assert moves_of("russian", fen) == ["c1xe3xg5xe7", "g3xe5xg7"]
    assert moves_of("brazilian", fen) == ["c1xe3xg5xe7"]


def test_frisian_orthogonal_captures_and_value():
    assert moves_of("frisian", "W:W28:B27") == ["e5xa5"]  # along the rank
    assert moves_of("frisian", "W:W28:B18") == ["e5xe9"]  # along the file
    # a king is worth more than a man: d6 + king c5 (299) beats the king alone (199)
    assert moves_of("frisian", "W:W28:BK27,22,12") == ["e5xc7xc3"]
    # ...but less than two men: two men (200) beat one king (199)
    assert moves_of("frisian", "W:W33:BK34,28,17") == ["f4xd6xb8"]


def test_turkish_orthogonal_men_immediate_removal():
    assert moves_of("turkish", "W:Wd4:Bd5,c4,e4,d3") == ["d4xb4", "d4xd6", "d4xf4"]
    # the king passes a3 again after taking it (immediate removal): 5 pieces
    assert moves_of("turkish", "W:WKa1:Ba3,c5,d3,c2,a6") == [
        "a1xa5xd5xd2xa2xa7",
        "a1xa5xd5xd2xa2xa8",
    ]
    # no 180-degree turn: after taking b1 the king may not come back east over f1
    assert moves_of("turkish", "W:WKd1:Bb1,f1") == ["d1xa1", "d1xg1", "d1xh1"]
    assert moves_of("turkish", "W:WKd1:Bb1,a3") == [
        "d1xa1xa4",
        "d1xa1xa5",
        "d1xa1xa6",
        "d1xa1xa7",
        "d1xa1xa8",
    ]


def test_thai_king_lands_right_behind():
    assert moves_of("thai", "W:WKa1:Bd4") == ["a1xe5"]
    assert moves_of("thai", "W:WKa1:Bd4,f6,b6") == ["a1xe5xg7"]


def test_italian_man_cannot_take_a_king():
    assert moves_of("italian", "W:W30:BK26") == ["d1-e2"]  # 30-27 in Italian numbering
    assert moves_of("italian", "W:W30:B26") == ["d1xb3"]  # 30x21


def test_duplicates_dropped_or_kept():
    fen = "W:WK38:B18,19,32,33"  # the circular capture of RULES.md T13
    assert len(moves_of("international", fen)) == 5
    assert len(moves_of("international", fen, keep=True)) == 6


def test_notation_short_full_algebraic_and_separator():
    international = Variant.from_name("international")
    position = Position.from_fen("W:WK47:B14,19,29,31,42", international)
    moves = sorted(position.legal_moves, key=lambda m: m.path)
    assert [m.notation(international.board) for m in moves] == ["47x36", "47x36"]
    assert [m.notation(international.board, full=True) for m in moves] == [
        "47x38x20x9x36",
        "47x38x24x13x36",
    ]
    russian = Variant.from_name("russian")
    capture = Move((22, 15), (18,), False)
    assert capture.notation(russian.board, "algebraic", separator=":") == "c3:e5"
    assert Move((22, 18)).notation(russian.board, "algebraic") == "c3-d4"
    assert Move((22, 18)).notation(russian.board, "numeric", separator=":") == "22-18"


def test_perft_lists_every_depth_and_stops_on_blocked_positions():
    international = Variant.from_name("international")
    assert perft(Position.initial(international), 3) == [9, 81, 658]
    assert perft(Position.from_fen("W:W46:B41,37", international), 2) == [0, 0]
    assert perft(Position.initial(international), 0) == []


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_seeded_playouts_keep_engine_invariants(name):
    """Along 60 seeded random plies: counts agree with perft, captures remove exactly the
    captured pieces, kept paths cover the merged moves, and FEN round-trips."""
    import random

    variant = VARIANTS[name]
    rng = random.Random(name)
    position = Position.initial(variant)
    for _ply in range(60):
        moves = position.legal_moves
        kept = legal_moves(position, keep_duplicates=True)
        assert perft(position, 1) == [len(moves)]
        assert perft(position, 1, keep_duplicates=True) == [len(kept)]
        assert set(moves) <= set(kept)
        assert Position.from_fen(position.fen(), variant) == position
        assert Position.from_fen(position.fen("numeric"), variant) == position
        if not moves:
            break
        move = rng.choice(moves)
        assert len(move.path) == (len(move.captures) + 1 if move.is_capture else 2)
        after = position.play(move)
        mover, other = position.turn, after.turn
        assert after.count(mover) == position.count(mover)
        assert after.count(other) == position.count(other) - len(set(move.captures))
        assert all(after.piece_at(square) is None for square in move.captures)
        moved = after.piece_at(move.to_square)
        assert moved is not None and moved.colour == mover
        position = after


@pytest.mark.parametrize(
    ("variant_name", "fen"),
    [
        ("international", "W:W31-50,K28:B1-20"),  # plain moves, a flying king among them
        ("russian", "W:We3,g3,h4,a5,b2,h2,a3,Kf8:Bc5,e5,g5,g7,h8"),  # free choice
        ("english", "B:W14,15,22,23,K30:B9,10,11,K26"),
        ("russian", "W:Wa1,c1,e1,g1,c3,Kh6:Bb8,d8,f6,h8"),  # plain moves only
    ],
)
def test_a_movers_mask_lists_the_same_moves_as_filtering_the_whole_list(
    variant_name: str, fen: str
) -> None:
    """resolve relies on it: the masked lists are the full list's moves of those pieces, in
    the same order (captures masked only where the capture law is free choice)."""
    position = Position.from_fen(fen, Variant.from_name(variant_name))
    rules = rules_for(position.variant)
    white = position.turn == "W"
    own, opp = (
        (position.white_bits, position.black_bits)
        if white
        else (position.black_bits, position.white_bits)
    )
    kings = position.king_bits
    capture = rules.has_capture(own, opp, kings, white)
    masked = rules.captures if capture and rules.variant.capture_law == "free" else None
    listed = 0
    for index in range(own.bit_length()):
        if not (own >> index) & 1:
            continue
        if capture:
            if masked is None:
                continue
            whole = rules.captures(own, opp, kings, white, True)
            mine = masked(own, opp, kings, white, True, 1 << index)
        else:
            whole = rules.plain_moves(own, opp, kings, white)
            mine = rules.plain_moves(own, opp, kings, white, 1 << index)
        assert mine == [move for move in whole if move[0] == index]
        listed += len(mine)
    assert masked is not None or not capture, "a masked list must be tested"
    assert listed == len(rules.generate(own, opp, kings, white, True)) > 0


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_plain_move_is_the_one_move_plain_moves_lists_with_those_ends(name: str) -> None:
    """resolve settles the usual two-square text with ``Rules.plain_move``: along 60 seeded
    random plies, for every own piece and every playable square, it gives exactly the plain
    move ``plain_moves`` lists from and to there, or None when there is none."""
    import random

    variant = VARIANTS[name]
    rules = rules_for(variant)
    rng = random.Random(name)
    position = Position.initial(variant)
    checked = 0
    for _ply in range(60):
        own, opp = position.sides()
        kings, white = position.king_bits, position.turn == "W"
        if not rules.has_capture(own, opp, kings, white):
            listed = {
                (move[0], move[1]): move for move in rules.plain_moves(own, opp, kings, white)
            }
            targets = [
                index for index in range(rules.playable.bit_length()) if rules.playable >> index & 1
            ]
            for source in (index for index in targets if own >> index & 1):
                for target in targets:
                    found = rules.plain_move(own, opp, kings, white, source, target)
                    assert found == listed.get((source, target))
                    checked += found is not None
        moves = position.legal_moves
        if not moves:
            break
        position = position.play(rng.choice(moves))
    assert checked > 0


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_bit_layout_steps_land_on_the_next_square_of_the_ray_or_on_no_square(name: str) -> None:
    """Every direction's one shift, from every square, reaches the first square of that
    direction's ray, or (off the board) a bit that is no square: what the bit-parallel moves
    rely on, in the compact layout as in the padded one."""
    rules = rules_for(name)
    board = VARIANTS[name].board
    squares = {rules.index_of[square]: square for square in board.squares}
    for square in board.squares:
        index = rules.index_of[square]
        for direction, offset in enumerate(rules.offsets):
            ray = board.ray(square, _vector(rules, direction))
            landed = squares.get(index + offset)
            assert landed == (ray[0] if ray else None), (square, direction)


def _vector(rules: Rules, direction: int) -> tuple[int, int]:
    """The (file, rank) step of ``direction``, found from the rays the tables were built on."""
    board = rules.variant.board
    for square in board.squares:
        ray = rules.rays[rules.index_of[square]][direction]
        if ray:
            (f0, r0), (f1, r1) = board.coords(square), board.coords(rules.square_of[ray[0]])
            return f1 - f0, r1 - r0
    raise AssertionError(direction)


def test_compact_layout_where_it_fits_padded_elsewhere() -> None:
    """8x8 and 10x10 dark-square boards fit in an unboxed int (compiled build); Frisian's
    two-file steps, Turkish's every square and 12x12 keep the padded layout."""
    widest = {name: max(rules_for(name).index_of) + 1 for name in VARIANTS}
    assert widest["international"] == 55 and widest["russian"] == 36
    assert all(widest[name] > 62 for name in ("frisian", "turkish", "canadian"))
