"""pdn.render: board diagrams for every board, plain and colour output, game view, SVG.

Snapshots live in tests/snapshots; after a deliberate change of the drawing, rewrite them with
``PDN_UPDATE_SNAPSHOTS=1 pytest tests/test_render.py`` and look at the diff.
"""

from __future__ import annotations

import os
from io import StringIO
from pathlib import Path

import pytest
from rich.console import Console

from pdn.geometry import Board, board_for_gametype
from pdn.render import BoardView, LastMove, piece_letter

SNAPSHOTS = Path(__file__).parent / "snapshots"

#: Every board kind: (name, board, notation). Built from PDN GameType fields (PDN.md section 2).
BOARDS = {
    "english": (board_for_gametype(8, 8, "N1", False, "B"), "numeric"),
    "italian": (board_for_gametype(8, 8, "N2", True), "numeric"),
    "portuguese": (board_for_gametype(8, 8, "N1", True), "numeric"),
    "russian": (board_for_gametype(8, 8, "A0", False), "algebraic"),
    "international": (board_for_gametype(10, 10, "N2", False), "numeric"),
    "canadian": (board_for_gametype(12, 12, "N2", False), "numeric"),
    "spantsiretti": (board_for_gametype(10, 8, "A0", False), "algebraic"),
    "turkish": (board_for_gametype(8, 8, "A0", False, all_squares=True), "algebraic"),
}


def assert_snapshot(name: str, text: str) -> None:
    """``text`` equals the stored snapshot ``name`` (rewritten when PDN_UPDATE_SNAPSHOTS=1)."""
    path = SNAPSHOTS / name
    if os.environ.get("PDN_UPDATE_SNAPSHOTS") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no snapshot {path}; create it with PDN_UPDATE_SNAPSHOTS=1"
    assert text == path.read_text(encoding="utf-8")


def plain_console(width: int = 80) -> Console:
    """A recording console writing to a string: not a terminal, so no colour."""
    return Console(file=StringIO(), width=width, record=True, legacy_windows=False, _environ={})


def colour_console(width: int = 80, **options: object) -> Console:
    return Console(
        file=StringIO(), width=width, record=True, force_terminal=True,
        color_system="truecolor", legacy_windows=False, _environ={}, **options,  # type: ignore[arg-type]
    )


def sample_pieces(board: Board) -> dict[int, str]:
    """Men and kings of both colours: Black men on the first squares, White men on the last,
    one king of each colour in the middle."""
    n = len(board)
    pieces = {square: "b" for square in range(1, n // 4 + 1)}
    pieces.update({square: "w" for square in range(n - n // 4 + 1, n + 1)})
    pieces[n // 2] = "B"
    pieces[n // 2 + 1] = "W"
    return pieces


def sample_move(board: Board) -> LastMove:
    """A made-up White king capture ending on the White king: 3 path squares, 2 captured."""
    n = len(board)
    path = (n - n // 4 + 1, n // 2 + 2, n // 2 + 1)
    return LastMove(path=path, captures=(n // 2 - 2, n // 2 - 3))


def render(view: BoardView, console: Console) -> str:
    console.print(view)
    return console.export_text()


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_board_snapshot_plain(name: str) -> None:
    board, notation = BOARDS[name]
    pieces = sample_pieces(board)
    move = sample_move(board)
    for square in (*move.captures, move.path[0]):
        pieces.pop(square, None)
    view = BoardView(
        board, pieces, notation=notation, last_move=move, glyphs="unicode", caption=name
    )
    assert_snapshot(f"board_{name}.txt", render(view, plain_console()))


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_board_fits_80_columns_and_measures_its_width(name: str) -> None:
    board, notation = BOARDS[name]
    view = BoardView(board, sample_pieces(board), notation=notation, glyphs="unicode")
    lines = render(view, plain_console()).splitlines()
    assert max(len(line) for line in lines) <= view.width() <= 80
    assert len(lines) == board.height + (notation == "algebraic")


def test_every_square_is_drawn_where_the_geometry_puts_it() -> None:
    board, _ = BOARDS["international"]
    for square in (1, 5, 23, 46, 50):
        view = BoardView(board, {square: "W"}, glyphs="ascii")
        rows = render(view, plain_console()).splitlines()
        file, rank = board.coords(square)
        row = rows[board.height - 1 - rank]
        margin = 3
        assert row[margin + 3 * file + 1] == "W", (square, row)


def test_flip_turns_the_board_half_round() -> None:
    board, _ = BOARDS["russian"]
    normal = render(
        BoardView(board, {29: "w"}, notation="algebraic", glyphs="ascii"), plain_console()
    )
    flipped = render(
        BoardView(board, {29: "w"}, notation="algebraic", flip=True, glyphs="ascii"),
        plain_console(),
    )
    assert normal.splitlines()[-1].split() == list("abcdefgh")
    assert flipped.splitlines()[-1].split() == list("hgfedcba")
    assert normal.splitlines()[7].startswith("1  w")  # a1 bottom left
    assert flipped.splitlines()[0].rstrip().endswith("w")  # a1 top right
    assert flipped.splitlines()[0].startswith("1 ")


@pytest.mark.parametrize("glyphs", ["unicode", "ascii"])
def test_pieces_stay_distinct_without_colour(glyphs: str) -> None:
    board, _ = BOARDS["english"]
    pieces = {1: "w", 2: "W", 3: "b", 4: "B"}
    for console in (plain_console(), colour_console(no_color=True)):
        text = render(BoardView(board, pieces, glyphs=glyphs), console)  # type: ignore[arg-type]
        top_row = text.splitlines()[0]
        shown = [char for char in top_row if not char.isspace() and not char.isdigit()]
        assert len(set(shown)) == 4, top_row


def test_no_color_keeps_the_last_move_marks() -> None:
    board, _ = BOARDS["international"]
    view = BoardView(
        board, {23: "w"}, last_move=LastMove((32, 28, 23), (27, 33)), glyphs="ascii"
    )
    for console in (plain_console(), colour_console(no_color=True)):
        text = render(view, console)
        assert "[w]" in text
        assert text.count(" + ") == 2  # from square and the turning square
        assert text.count(" × ") == 2
    assert "\x1b[" not in render(view, colour_console(no_color=True))


def test_colour_output_highlights_the_last_move_instead_of_brackets() -> None:
    board, _ = BOARDS["international"]
    view = BoardView(board, {28: "w"}, last_move=LastMove((32, 28)), glyphs="unicode")
    console = colour_console()
    console.print(view)
    ansi = console.file.getvalue()  # type: ignore[attr-defined]
    assert "48;2;210;176;76" in ansi  # the last-move background
    assert "[⛀]" not in ansi


class AsciiFile(StringIO):
    """A text stream that can only hold ASCII, as a C-locale pipe."""

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return "ascii"


def test_auto_glyphs_follow_the_console_encoding() -> None:
    board, _ = BOARDS["english"]
    view = BoardView(board, {1: "B", 2: "w"})
    assert "⛃" in render(view, plain_console())
    ascii_console = Console(file=AsciiFile(), width=80, record=True, _environ={})
    text = render(view, ascii_console)
    assert " B " in text and " w " in text
    assert text.isascii()


def test_piece_letter_accepts_letters_and_engine_pieces() -> None:
    class Piece:
        def __init__(self, color: str, is_king: bool) -> None:
            self.color, self.is_king = color, is_king

    assert [piece_letter(p) for p in "wWbB"] == list("wWbB")
    assert piece_letter(Piece("W", True)) == "W"
    assert piece_letter(Piece("B", False)) == "b"
    for bad in ("x", Piece("?", False), None):
        with pytest.raises(ValueError):
            piece_letter(bad)
