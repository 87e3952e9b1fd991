"""Resolving written moves: every written form, and the exact diagnosis of irregular moves."""

from __future__ import annotations

import pytest
from conftest import CORPUS, budget
from hypothesis import given, settings
from hypothesis import strategies as st

from pdn.arbiter.detect import detect_variant, start_position
from pdn.engine.movegen import Move, legal_moves
from pdn.engine.position import Position
from pdn.engine.resolve import matching_moves, move_key, parse_written, resolve
from pdn.engine.variants import VARIANTS, Variant
from pdn.pdnfile.reader import read_games


def position(variant: str, fen: str | None = None) -> Position:
    rules = Variant.from_name(variant)
    return Position.initial(rules) if fen is None else Position.from_fen(fen, rules)


def squares_of(pos: Position, *texts: str) -> tuple[int, ...]:
    return tuple(pos.variant.board.parse_square(text) for text in texts)


@pytest.mark.parametrize("written", ["32-28", "32x28", "3228", "032-028", " 32 - 28 ", "32-28!?"])
def test_numeric_plain_move_in_every_written_form(written: str) -> None:
    pos = position("international")
    resolution = resolve(pos, written)
    assert resolution.code is None
    assert resolution.move is not None
    assert resolution.move.path == (32, 28)


@pytest.mark.parametrize(
    ("written", "path"),
    [
        ("c3-d4", ("c3", "d4")),
        ("C3-D4", ("c3", "d4")),
        ("c3d4", ("c3", "d4")),
        ("E3-D4", ("e3", "d4")),
        ("ed4", ("e3", "d4")),
        ("cd4", ("c3", "d4")),
        ("gf4", ("g3", "f4")),
        ("ab4", ("a3", "b4")),
    ],
)
def test_algebraic_and_russian_short_forms(written: str, path: tuple[str, str]) -> None:
    pos = position("russian")
    resolution = resolve(pos, written)
    assert resolution.code is None, resolution.reason
    assert resolution.move is not None
    assert resolution.move.path == squares_of(pos, *path)


def test_numeric_squares_without_separator_split_where_a_legal_move_fits() -> None:
    pos = position("english")  # Black to move from 9..12
    for written, path in [("914", (9, 14)), ("1015", (10, 15)), ("1216", (12, 16))]:
        resolution = resolve(pos, written)
        assert resolution.move is not None and resolution.move.path == path, written


def test_russian_capture_forms() -> None:
    pos = position("russian", "W:Wc3:Bd4")
    for written in ("c3:e5", "c3xe5", "c3-e5", "ce5", "c:e5", "c3e5"):
        resolution = resolve(pos, written)
        assert resolution.code is None, written
        assert resolution.move is not None
        assert resolution.move.captures == squares_of(pos, "d4"), written


def test_short_capture_that_fits_two_moves_is_ambiguous_and_full_paths_resolve() -> None:
    """RULES.md T14: two unique moves 47x36 with different captured sets."""
    pos = position("international", "W:WK47:B14,19,29,31,42")
    resolution = resolve(pos, "47x36")
    assert resolution.code == "ambiguous-move"
    assert {frozenset(move.captures) for move in resolution.candidates} == {
        frozenset({42, 31, 19, 29}),
        frozenset({42, 31, 14, 29}),
    }
    assert resolution.move in resolution.candidates
    assert "47x" in resolution.reason and "full path" in resolution.reason
    for candidate in resolution.candidates:
        full = candidate.notation(pos.variant.board, "numeric", full=True)
        exact = resolve(pos, full)
        assert exact.code is None, full
        assert exact.move is not None and move_key(exact.move) == move_key(candidate)


@pytest.mark.parametrize("written", ["47x38x24x13x36", "47x13x36"])
def test_the_pdn_standard_example_path_or_part_of_it_picks_the_move_through_24_and_13(
    written: str,
) -> None:
    pos = position("international", "W:WK47:B14,19,29,31,42")
    resolution = resolve(pos, written)
    assert resolution.code is None
    assert resolution.move is not None
    assert set(resolution.move.captures) == {42, 31, 19, 29}


def test_a_written_full_path_beats_a_longer_move_through_the_same_squares() -> None:
    """Russian: g7:e5:c7 is a whole move, and also a subsequence of g7:e5:c3:e1:g3:c7."""
    pos = position("russian", "B:Wa1,d2,f2,h2,a3,d4,h4,Kd6,f6:Bb6,g7")
    resolution = resolve(pos, "g7xe5xc7")
    assert resolution.code is None
    assert resolution.move is not None
    assert resolution.move.path == squares_of(pos, "g7", "e5", "c7")
    assert resolve(pos, "g7:e5:c3:c7").move == resolve(pos, "g7:e5:c3:e1:g3:c7").move


@pytest.mark.parametrize("written", ["38x27x13x24x38", "38x24x13x27x38"])
def test_circular_capture_written_either_way_is_one_move(written: str) -> None:
    """RULES.md T13: both loops back to 38 take the same four pieces: one move, not two."""
    pos = position("international", "W:WK38:B18,19,32,33")
    resolution = resolve(pos, written)
    assert resolution.code is None, resolution.reason
    assert resolution.move is not None
    assert set(resolution.move.captures) == {18, 19, 32, 33}


@pytest.mark.parametrize("written", ["--", "- -", ".."])
def test_unknown_move_stops_the_line(written: str) -> None:
    resolution = resolve(position("international"), written)
    assert resolution.code == "illegal-move"
    assert resolution.move is None and resolution.as_played is None
    assert "not recorded" in resolution.reason
    assert len(resolution.candidates) == 9


@pytest.mark.parametrize(
    ("written", "words"),
    [
        # text that is not a move
        ("9n", "not a move"),
        ("32-", "not a move"),
        ("hello", "not a move"),
        ("32-55", "no playable square"),
        ("", "not recorded"),
        # a movement no piece can make
        ("36-31", "31 is occupied"),
        ("32-23", "wrong direction, too far"),
        ("33-39", "occupied"),
        ("31-36", "occupied"),
    ],
)
def test_text_that_is_not_a_move_or_an_impossible_movement(written: str, words: str) -> None:
    resolution = resolve(position("international"), written)
    assert resolution.code == "illegal-move"
    assert words in resolution.reason
    assert resolution.as_played is None


def test_no_piece_on_the_from_square() -> None:
    resolution = resolve(position("international"), "28-23")
    assert resolution.code == "illegal-move"
    assert resolution.reason == "there is no piece on 28"
    assert resolution.as_played is None


def test_piece_of_the_other_side() -> None:
    resolution = resolve(position("international"), "19-23")
    assert resolution.code == "illegal-move"
    assert "Black's" in resolution.reason and "White is to move" in resolution.reason
    assert resolution.as_played is None


def test_a_king_move_through_a_piece_is_blocked() -> None:
    resolution = resolve(position("international", "W:WK46,37:B10"), "46-28")
    assert resolution.code == "illegal-move"
    assert resolution.reason == "the king on 46 cannot go to 28: the way is blocked at 37"


def test_a_man_moving_backwards_is_the_wrong_direction() -> None:
    resolution = resolve(position("international", "W:W28:B10"), "28-33")
    assert resolution.code == "illegal-move"
    assert "wrong direction" in resolution.reason


def test_plain_move_while_a_capture_was_compulsory() -> None:
    pos = position("international", "W:W32,28:B23")
    resolution = resolve(pos, "32-27")
    assert resolution.code == "missed-capture"
    assert resolution.move is None
    assert "compulsory" in resolution.reason and "28x19" in resolution.reason
    assert resolution.as_played is not None
    assert resolution.as_played.path == (32, 27) and resolution.as_played.captures == ()
    after = pos.play(resolution.as_played)
    assert after.piece_at(27) is not None and after.piece_at(32) is None


def test_capture_of_fewer_pieces_than_the_majority() -> None:
    pos = position("international", "W:W32,34:B27,29,18")
    resolution = resolve(pos, "32x21")
    assert resolution.code == "capture-rule"
    assert "most pieces" in resolution.reason and "34x23x12" in resolution.reason
    assert resolution.as_played is not None
    assert resolution.as_played.captures == (27,)
    after = pos.play(resolution.as_played)
    assert after.piece_at(27) is None and after.piece_at(21) is not None


def test_capture_stopped_halfway() -> None:
    pos = position("international", "W:W32,34:B27,29,18")
    resolution = resolve(pos, "34x23")
    assert resolution.code == "capture-rule"
    assert "not finished" in resolution.reason
    assert resolution.as_played is not None and resolution.as_played.captures == (29,)


def test_free_choice_in_russian_is_majority_in_brazilian() -> None:
    """RULES.md T17: h4 may take three pieces in Russian; Brazilian demands the king's four."""
    fen = "W:We3,g3,h4,a5,b2,h2,a3,Kf8:Bc5,e5,g5,g7,h8"
    russian = resolve(position("russian", fen), "h4:f6:d4:b6")
    assert russian.code is None
    brazilian = resolve(position("brazilian", fen), "h4xf6xd4xb6")
    assert brazilian.code == "capture-rule"
    assert "most pieces" in brazilian.reason and "f8xh6xf4xd6xb4" in brazilian.reason
    assert brazilian.as_played is not None and len(brazilian.as_played.captures) == 3


def test_short_form_naming_a_one_piece_and_a_four_piece_capture_is_ambiguous() -> None:
    pos = position("russian", "W:We3,g3,h4,a5,b2,h2,a3,Kf8:Bc5,e5,g5,g7,h8")
    resolution = resolve(pos, "f8:b4")
    assert resolution.code == "ambiguous-move"
    assert sorted(len(move.captures) for move in resolution.candidates) == [1, 4]


@pytest.mark.parametrize(
    ("variant", "fen", "written", "words", "taken"),
    [
        ("czech", "W:WKa1,g3:Bb2,f4", "g3xe5", "a king must capture", 1),
        ("portuguese", "W:W11:BK15,14", "11x18", "most kings", 1),
        ("spanish", "W:W11:BK15,14", "11x18", "most kings", 1),
        ("italian", "W:W30:BK26", "30x21", "a man may not capture a king", 1),
        ("italian", "W:WK23,31:B19,26,27", "31x15", "capture with a king", 2),
        ("frisian", "W:W28:BK22,23", "28x19", "highest value", 1),
    ],
)
def test_capture_rule_names_the_variants_law(
    variant: str, fen: str, written: str, words: str, taken: int
) -> None:
    resolution = resolve(position(variant, fen), written)
    assert resolution.code == "capture-rule", resolution.reason
    assert words in resolution.reason
    assert resolution.as_played is not None
    assert len(resolution.as_played.captures) == taken


def test_regular_resolution_has_no_reason_and_no_as_played() -> None:
    resolution = resolve(position("international"), "33-28")
    assert (resolution.code, resolution.reason, resolution.as_played) == (None, "", None)


MOVE_ALPHABET = "0123456789abcdefghxX:-*. !?KE"


@settings(max_examples=budget(300), deadline=None)
@given(
    variant=st.sampled_from(["international", "russian", "english", "turkish", "italian"]),
    written=st.text(alphabet=MOVE_ALPHABET, max_size=14) | st.text(max_size=8),
)
def test_any_text_resolves_without_raising(variant: str, written: str) -> None:
    pos = position(variant)
    resolution = resolve(pos, written)
    assert resolution.code in (
        None,
        "illegal-move",
        "missed-capture",
        "capture-rule",
        "ambiguous-move",
    )
    assert (resolution.code is None) == (resolution.reason == "")
    if resolution.as_played is not None:
        pos.play(resolution.as_played)


#: Engine-written exports (lidraughts via py-draughts' fixtures): every move must resolve.
ENGINE_EXPORTS = [
    f"miskibin/py-draughts/test__games__{name}__random_pdns.pdn"
    for name in (
        "standard",
        "brazilian",
        "russian",
        "frisian",
        "antidraughts",
        "frysk",
        "breakthrough",
    )
]


@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus not present")
@pytest.mark.parametrize("relative", ENGINE_EXPORTS)
def test_engine_exports_resolve_move_by_move(relative: str) -> None:
    plies = 0
    for game in read_games(CORPUS / relative):
        variant, _ = detect_variant(game)
        pos = start_position(game, variant)
        for node in game.mainline():
            if not node.move_text:
                continue
            resolution = resolve(pos, node.move_text)
            assert resolution.code is None, (
                game.source,
                node.move_text,
                pos.fen(),
                resolution.reason,
            )
            assert resolution.move is not None
            pos = pos.play(resolution.move)
            plies += 1
    assert plies > 0


def resolve_on_the_whole_list(pos: Position, written: str) -> tuple[str, tuple[Move, ...]]:
    """The reference the fast path must agree with: ``matching_moves`` over every legal move
    (duplicate paths kept): ("legal" | "ambiguous" | "irregular", the matches or, when
    irregular, the whole list)."""
    moves = legal_moves(pos, keep_duplicates=True)
    for reading in parse_written(pos.variant.board, written):
        groups = matching_moves(moves, pos, reading)
        if groups:
            return ("legal" if len(groups) == 1 else "ambiguous"), tuple(groups)
    return "irregular", tuple(moves)


def playout(variant: Variant, choices: list[int]) -> Position:
    """The position after playing the ``choices``-th legal moves (modulo) from the start."""
    pos = Position.initial(variant)
    for choice in choices:
        moves = pos.legal_moves
        if not moves:
            break
        pos = pos.play(moves[choice % len(moves)])
    return pos


def written_forms(
    pos: Position, move: Move, inner_kept: list[bool], other: tuple[int, int]
) -> list[str]:
    """Ways to write ``move`` (short, full, partial path, no separator, algebraic, Russian
    short form) plus a probably irregular pair of squares ``other``."""
    board = pos.variant.board
    inner = [square for square, kept in zip(move.path[1:-1], inner_kept, strict=False) if kept]
    partial = (move.from_square, *inner, move.to_square)
    forms = [
        move.notation(board),
        move.notation(board, full=True),
        "x".join(map(str, partial)),
        f"{move.from_square}{move.to_square}",
        f"{other[0]}-{other[1]}",
        f"{other[0]}x{other[1]}",
    ]
    if pos.variant.default_notation == "algebraic":
        origin, target = (board.to_algebraic(s) for s in (move.from_square, move.to_square))
        forms += [
            move.notation(board, "algebraic", full=True),
            origin[0] + target,
            f"{origin}:{board.to_algebraic(other[1])}",
        ]
    return forms


@settings(max_examples=budget(150), deadline=None)
@given(
    name=st.sampled_from(sorted(VARIANTS)),
    choices=st.lists(st.integers(0, 1000), max_size=80),
    pick=st.integers(0, 1000),
    inner_kept=st.lists(st.booleans(), min_size=8, max_size=8),
    other=st.tuples(st.integers(1, 32), st.integers(1, 32)),
)
def test_fast_path_agrees_with_matching_on_every_legal_move(
    name: str, choices: list[int], pick: int, inner_kept: list[bool], other: tuple[int, int]
) -> None:
    pos = playout(VARIANTS[name], choices)
    moves = legal_moves(pos, keep_duplicates=True)
    if not moves:
        return  # the game is over: nothing is written from here (the other tests cover it)
    for written in written_forms(pos, moves[pick % len(moves)], inner_kept, other):
        kind, expected = resolve_on_the_whole_list(pos, written)
        resolution = resolve(pos, written)
        if kind == "legal":
            assert (resolution.code, resolution.move) == (None, expected[0]), written
            if resolution.ends_unique:  # the writer then writes its short form unsearched
                ends = [
                    move
                    for move in moves
                    if (move.from_square, move.to_square)
                    == (expected[0].path[0], expected[0].path[-1])
                ]
                assert ends == [expected[0]], written
        elif kind == "ambiguous":
            assert resolution.code == "ambiguous-move", written
            assert resolution.candidates == expected
        else:
            assert resolution.move is None and resolution.code is not None, written
            assert {move_key(move) for move in resolution.candidates} == {
                move_key(move) for move in expected
            }
