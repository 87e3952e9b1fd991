"""``--pattern``, ``--pattern-not``, ``--mirror``: each form against a brute-force reading of
the pattern square by square, over the replayed positions of real and generated games; the
masks of the index contract against the same; mirrored patterns on colour-swapped copies."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest
from conftest import budget, run_cli
from hypothesis import given, settings
from hypothesis import strategies as st
from replayed import corpus_games, line_pdn, playouts

from pdn.database.filters import Criteria
from pdn.database.patterns import (
    Boards,
    Item,
    Pattern,
    mirror_position,
    mirror_square,
    square_boards,
)
from pdn.database.selection import select
from pdn.engine.movegen import Move
from pdn.engine.position import Piece, Position
from pdn.engine.variants import Variant

INTERNATIONAL = Variant.from_name("international")


def holds(piece: Piece | None, colour: str | None, kind: str) -> bool:
    """Is ``piece`` a ``kind`` (man/king/any) of ``colour`` (None: any piece at all)?"""
    if piece is None:
        return False
    if colour is not None and piece.colour != colour:
        return False
    return kind == "any" or piece.is_king == (kind == "king")


def brute_matches(pattern: Pattern, position: Position) -> bool:
    """The pattern read item by item on ``position`` (no masks), its mirror tried too."""
    board = position.variant.board
    if not all(s.isdigit() and 1 <= int(s) <= len(board) for i in pattern.items for s in i.squares):
        return False
    seen = [_view(position)]
    if pattern.mirror:
        seen.append(_view(_mirrored(position)))
    return any(_brute_one(pattern.turn, pattern.items, *view) for view in seen)


@cache
def _view(position: Position) -> tuple[str, dict[int, Piece]]:
    """Side to move and {square: piece}: what the brute force reads (once per position)."""
    return position.turn, dict(position.pieces())


def _brute_one(
    turn: str | None, items: tuple[Item, ...], to_move: str, pieces: dict[int, Piece]
) -> bool:
    if turn is not None and to_move != turn:
        return False
    listed: dict[str, set[int]] = {"W": set(), "B": set()}
    closed = set()
    for item in items:
        for name in item.squares:
            square = int(name)
            piece = pieces.get(square)
            for colour in (item.colour,) if item.colour else ("W", "B"):
                listed[colour].add(square)
            if item.mode == "must" and not holds(piece, item.colour, item.kind):
                return False
            if item.mode == "not" and holds(
                piece, item.colour, item.kind if item.colour else "any"
            ):
                return False
            if item.mode == "may":
                assert item.colour is not None
                closed.add(item.colour)
                mine = piece is not None and piece.colour == item.colour
                if mine and not holds(piece, item.colour, item.kind):
                    return False
    return all(
        square in listed[piece.colour] for square, piece in pieces.items() if piece.colour in closed
    )


@st.composite
def pattern_texts(draw: st.DrawFn, size: int = 50) -> str:
    """Pattern texts of every item form, on squares 1..``size``."""
    squares = st.integers(1, size)

    def item() -> st.SearchStrategy[str]:
        single = st.builds(str, squares)
        ranged = st.builds(lambda a, n: f"{a}-{min(size, a + n)}", squares, st.integers(0, 3))
        return st.builds(
            lambda mode, kind, where: mode + kind + where,
            st.sampled_from(["", "", "!", "?"]),
            st.sampled_from(["", "K", "*"]),
            st.one_of(single, ranged),
        )

    turn = draw(st.sampled_from("WB?"))
    fields = [
        "W" + ",".join(draw(st.lists(item(), max_size=3))),
        "B" + ",".join(draw(st.lists(item(), max_size=3))),
    ]
    if draw(st.booleans()):
        fields.append("E" + ",".join(str(s) for s in draw(st.lists(squares, max_size=2))))
    return ":".join([turn, *fields])


def parsed_or_none(text: str, mirror: bool = False) -> Pattern | None:
    """The pattern, or None when it can never hold (ValueError on the international board)."""
    try:
        pattern = Pattern.parse(text, mirror=mirror)
        pattern.conditions(INTERNATIONAL)
    except ValueError:
        return None
    return pattern


def boards_match(pattern: Pattern, position: Position) -> bool:
    """The index's contract: the square-bitboard masks."""
    boards = _boards(position)
    return any(
        c.matches_boards(position.turn, boards) for c in pattern.conditions(position.variant)
    )


_boards = cache(square_boards)
_mirrored = cache(mirror_position)


# -- the text forms -----------------------------------------------------------------------


def test_partial_fen_forms_give_the_documented_masks() -> None:
    (king46,) = Pattern.parse("?:WK46:B").conditions(INTERNATIONAL)
    assert king46.turn is None and king46.required == Boards(white_kings=1 << 45)
    (men,) = Pattern.parse("W:W24:B19").conditions(INTERNATIONAL)
    assert men.turn == "W" and men.required == Boards(white_men=1 << 23, black_men=1 << 18)
    (rich,) = Pattern.parse("W:WK6,27-29:B!*45:E23").conditions(INTERNATIONAL)
    assert rich.required == Boards(white_men=0b111 << 26, white_kings=1 << 5)
    bit23, bit45 = 1 << 22, 1 << 44
    assert rich.forbidden == Boards(bit23, bit23, bit23 | bit45, bit23 | bit45)
    (absent,) = Pattern.parse(None, absent="?:W24:BK19").conditions(INTERNATIONAL)
    assert absent.forbidden == Boards(white_men=1 << 23, black_kings=1 << 18)
    (closed,) = Pattern.parse("?:W?*31-50:B").conditions(INTERNATIONAL)
    assert closed.forbidden.white_men == closed.forbidden.white_kings == (1 << 30) - 1


def test_mirror_swaps_colours_and_squares() -> None:
    plain, mirrored = Pattern.parse("W:W24:BK19", mirror=True).conditions(INTERNATIONAL)
    assert plain.turn == "W" and mirrored.turn == "B"
    assert mirrored.required == Boards(white_kings=1 << 31, black_men=1 << 26)  # 51-19, 51-24
    assert [mirror_square(INTERNATIONAL.board, s) for s in (1, 5, 46, 50)] == [50, 46, 5, 1]
    start = Position.initial(INTERNATIONAL)
    assert mirror_position(mirror_position(start)) == start


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("X:W1", "side to move"),
        ("?:W1:B1", "two pieces"),
        ("?:W1:W!1", "must and must not"),
        ("?:W5-3", "backwards"),
        ("?:Q12", "does not start with W, B or E"),
        ("?:W1-x", "range"),
        ("?:E!4", "takes no prefix"),
    ],
)
def test_bad_patterns_say_why(text: str, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        Pattern.parse(text).conditions(INTERNATIONAL)


def test_pattern_not_takes_plain_pieces_only() -> None:
    with pytest.raises(ValueError, match="takes no ! or"):
        Pattern.parse("?:W1", absent="?:W!2")
    with pytest.raises(ValueError, match="other side to move"):
        Pattern.parse("W:W1", absent="B:W2")


def test_a_square_off_the_board_never_matches() -> None:
    pattern = Pattern.parse("?:W40")
    assert pattern.conditions(Variant.from_name("russian")) == ()
    assert not pattern.matches(Position.initial("russian"))


# -- against brute force ------------------------------------------------------------------


def test_patterns_on_real_games_match_brute_force(corpus: Path) -> None:
    games = corpus_games(corpus)
    assert len(games) == 250
    texts = [
        "?:WK46:B", "W:W24:B19", "?:W?*31-50:B", "B:W!*28:B*23", "?:W:B?K1-50", "?:E23,28",
        "?:WK1-50", "?:W:BK1-50", "W:W27,32:B17,22", "?:W*46", "B:W33:B18:E28",
    ]  # fmt: skip
    for text in texts:
        for mirror in (False, True):
            pattern = Pattern.parse(text, mirror=mirror)
            hits = 0
            for facts in games:
                for position in facts.positions:
                    expected = brute_matches(pattern, position)
                    assert pattern.matches(position) == expected, (text, position.fen())
                    assert boards_match(pattern, position) == expected
                    hits += expected
                first = next(
                    (i for i, p in enumerate(facts.positions) if brute_matches(pattern, p)), None
                )
                assert pattern.first_ply(facts.positions) == first
            if text in ("?:WK46:B", "W:W24:B19", "?:E23,28"):
                assert hits, text  # the corpus does hold these


@settings(max_examples=budget(60), deadline=None)
@given(line=playouts(), text=pattern_texts(), mirror=st.booleans())
def test_patterns_on_generated_games_match_brute_force(
    line: tuple[list[Position], list[Move]], text: str, mirror: bool
) -> None:
    pattern = parsed_or_none(text, mirror)
    if pattern is None:
        return
    for position in line[0]:
        expected = brute_matches(pattern, position)
        assert pattern.matches(position) == expected
        assert boards_match(pattern, position) == expected


@settings(max_examples=budget(40), deadline=None)
@given(line=playouts("russian"), text=pattern_texts(size=32))
def test_patterns_on_another_board_match_brute_force(
    line: tuple[list[Position], list[Move]], text: str
) -> None:
    try:
        pattern = Pattern.parse(text, mirror=True)
        pattern.conditions(Variant.from_name("russian"))
    except ValueError:
        return
    for position in line[0]:
        assert pattern.matches(position) == brute_matches(pattern, position)


# -- select -------------------------------------------------------------------------------


def test_select_lists_a_game_once_at_the_first_ply(
    corpus: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = corpus / "mig0/Games-Checkers/data__games__internt__dutch96h.pdn"
    code, out, _ = run_cli(capsys, "select", str(path), "--pattern", "?:WK46:B", "--format", "json")
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and rows
    assert len({row["game"] for row in rows}) == len(rows)
    games = {facts.game: facts for facts in corpus_games(corpus) if facts.file == str(path)}
    pattern = Pattern.parse("?:WK46:B")
    expected = {n for n, facts in games.items() if pattern.first_ply(facts.positions) is not None}
    assert {row["game"] for row in rows} == expected
    for row in rows:
        assert row["ply"] == pattern.first_ply(games[row["game"]].positions)


@settings(max_examples=budget(25), deadline=None)
@given(line=playouts(), text=pattern_texts())
def test_mirrored_pattern_finds_the_colour_swapped_copy(
    tmp_path_factory: pytest.TempPathFactory, line: tuple[list[Position], list[Move]], text: str
) -> None:
    positions, moves = line
    pattern = parsed_or_none(text)
    if pattern is None:
        return
    folder = tmp_path_factory.mktemp("mirror")
    original, copy = folder / "original.pdn", folder / "copy.pdn"
    original.write_text(line_pdn(positions, moves))
    copy.write_text(line_pdn(positions, moves, mirror=True))

    def found(path: Path, mirror: bool) -> int | None:
        hits = list(select([str(path)], Criteria(pattern=Pattern.parse(text, mirror=mirror))))
        return hits[0].match.pattern_ply if hits else None

    def first(test: Callable[[Position], bool]) -> int | None:
        return next((ply for ply, p in enumerate(positions) if test(p)), None)

    assert found(original, False) == first(lambda p: brute_matches(pattern, p))
    # on the copy, the plain pattern finds the original's positions where the colour-swapped
    # pattern holds, and --mirror finds both
    assert found(copy, False) == first(lambda p: brute_matches(pattern, mirror_position(p)))
    assert found(copy, True) == first(
        lambda p: brute_matches(pattern, p) or brute_matches(pattern, mirror_position(p))
    )
