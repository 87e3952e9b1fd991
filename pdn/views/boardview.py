"""A board diagram as a rich renderable: ``BoardView`` (with its ``Palette``, ``LastMove``,
glyph sets, cells and margin labels).

``rich.print(BoardView.from_position(position))`` draws a board. In colour, pieces are discs
(``●`` man, ``◉`` king) coloured by side; without colour (pipes, files, ``NO_COLOR``) the shape
alone tells them apart (``○ ◎ ● ◉``, or ``w W b B``) and the last move is marked in text. The
board fits the console: full squares, else one cell a square, else cropped.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.style import Style
from rich.text import Text

from pdn.engine.geometry import Notation
from pdn.engine.position import side_name

if TYPE_CHECKING:
    from pdn.engine.geometry import Board
    from pdn.engine.movegen import Move
    from pdn.engine.position import Position


GlyphSet = Literal["auto", "unicode", "ascii"]

#: Piece letters of the rendering layer: White man/king, Black man/king.
PIECE_LETTERS = ("w", "W", "b", "B")

#: Glyphs per glyph set in ``PIECE_LETTERS`` order, for plain output: every piece distinct
#: by shape alone. One terminal cell each.
GLYPHS: dict[str, str] = {"unicode": "○◎●◉", "ascii": "wWbB"}
#: Glyphs when colour shows the side: filled discs read better on coloured squares.
COLOUR_GLYPHS: dict[str, str] = {"unicode": "●◉●◉", "ascii": "wWbB"}

#: Cells per square: a glyph or a two-digit square number, padded.
SQUARE_WIDTH = 3


@dataclass(frozen=True)
class Palette:
    """Styles of the board; one place to change the look."""

    light: Style = Style(bgcolor="#f0d9b5")
    dark: Style = Style(bgcolor="#b58863")
    #: the second shade of boards played on every square (Turkish): both colours of pieces
    #: must stand out on every square, so no light squares there
    dark_alternate: Style = Style(bgcolor="#a57750")
    last_move: Style = Style(bgcolor="#a4a13b")
    white_piece: Style = Style(color="#ffffff", bold=True)
    black_piece: Style = Style(color="#000000", bold=True)
    square_number: Style = Style(color="#85603d")
    capture_mark: Style = Style(color="#c00000", bold=True)
    path_mark: Style = Style(color="#6e4a2b", bold=True)
    margin: Style = Style(dim=True)
    caption: Style = Style(italic=True)


PALETTE = Palette()


@dataclass(frozen=True)
class LastMove:
    """The move to highlight: its path (from, turning/landing squares, to) and captured squares."""

    path: tuple[int, ...]
    captures: tuple[int, ...] = ()

    @classmethod
    def from_move(cls, move: Move) -> LastMove:
        return cls(tuple(move.path), tuple(move.captures))


def piece_letter(piece: object) -> str:
    """The rendering letter (``w W b B``) of a ``pdn.engine.position.Piece`` or of a letter. O(1).

    ``Piece`` values are these very letters; anything else raises ``ValueError``.
    """
    letter = getattr(piece, "value", piece)
    if not (isinstance(letter, str) and letter in PIECE_LETTERS):
        raise ValueError(f"not a piece: {piece!r}")
    return letter


class BoardView:
    """One board diagram: squares, pieces, margin labels, last move and a caption.

    ``pieces`` maps square numbers of ``board`` to piece letters (``w W b B``) or engine pieces.
    Numeric notation writes the number in each empty dark square and the first/last square of
    each rank on the margins; algebraic notation writes files and ranks on the margins.
    ``flip`` turns the board 180 degrees. Rendering costs O(width x height).
    """

    def __init__(
        self,
        board: Board,
        pieces: Mapping[int, object],
        *,
        notation: Notation = "numeric",
        flip: bool = False,
        last_move: LastMove | None = None,
        glyphs: GlyphSet = "auto",
        caption: str | None = None,
        palette: Palette = PALETTE,
    ) -> None:
        self.board = board
        self.pieces = {square: piece_letter(piece) for square, piece in pieces.items()}
        self.notation = notation
        self.flip = flip
        self.last_move = last_move
        self.glyphs = glyphs
        self.caption = caption
        self.palette = palette

    @classmethod
    def from_position(
        cls,
        position: Position,
        *,
        notation: Notation | None = None,
        last_move: Move | None = None,
        caption: str | None = None,
        flip: bool = False,
        glyphs: GlyphSet = "auto",
    ) -> BoardView:
        """The board of ``position`` in its variant's notation, captioned with the side to move."""
        variant = position.variant
        side = side_name(position.turn)
        return cls(
            variant.board,
            dict(position.pieces()),
            notation=notation or variant.default_notation,
            flip=flip,
            last_move=LastMove.from_move(last_move) if last_move is not None else None,
            glyphs=glyphs,
            caption=caption if caption is not None else f"{side} to move",
        )

    # -- geometry of the drawing ----------------------------------------------------------
    def _files(self) -> list[int]:
        files = list(range(self.board.width))
        return files[::-1] if self.flip else files

    def _ranks(self) -> list[int]:
        ranks = list(range(self.board.height - 1, -1, -1))
        return ranks[::-1] if self.flip else ranks

    def _margin_width(self) -> int:
        if self.notation == "algebraic":
            return len(str(self.board.height)) + 1
        return len(str(len(self.board))) + 1

    def width(self, compact: bool = False) -> int:
        """Cells the diagram takes: margins and squares; ``compact``: one cell a square and
        no margins (the fallback for a narrow console)."""
        if compact:
            return self.board.width
        margins = self._margin_width() * (1 if self.notation == "algebraic" else 2)
        return margins + SQUARE_WIDTH * self.board.width

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        """From the compact board (one cell a square) to the full one, within the console."""
        return Measurement(self.width(compact=True), self.width()).clamp(
            max_width=options.max_width
        )

    # -- drawing --------------------------------------------------------------------------
    def _glyph_set(self, console: Console, plain: bool) -> dict[str, str]:
        """Letter -> glyph for this console: shapes alone tell pieces apart when ``plain``."""
        name = self.glyphs
        if name == "auto":
            encoding = (console.encoding or "").lower()
            name = "unicode" if encoding.startswith("utf") else "ascii"
        return dict(zip(PIECE_LETTERS, (GLYPHS if plain else COLOUR_GLYPHS)[name], strict=True))

    def _all_playable(self) -> bool:
        return len(self.board) == self.board.width * self.board.height

    def _background(self, file: int, rank: int, square: int | None) -> Style:
        """Dark for playable squares, light for the others; boards played on every square
        (Turkish) alternate two dark shades."""
        if self._all_playable():
            return self.palette.dark if (file + rank) % 2 == 0 else self.palette.dark_alternate
        return self.palette.dark if square is not None else self.palette.light

    def _square_cell(
        self, file: int, rank: int, glyphs: Mapping[str, str], plain: bool, compact: bool = False
    ) -> Text:
        """The cells of one square: piece, mark or number, on its background (``compact``:
        one cell, the piece or capture mark alone)."""
        palette = self.palette
        cell = _one_cell if compact else _cell
        square = self.board.square_at(file, rank)
        background = self._background(file, rank, square)
        if square is None:
            return cell(background)
        path = self.last_move.path if self.last_move else ()
        captures = self.last_move.captures if self.last_move else ()
        if square in path:
            background = palette.last_move
        letter = self.pieces.get(square)
        marked = plain and not compact  # no colour: the last move marked in text
        if letter is not None:
            style = palette.white_piece if letter in "wW" else palette.black_piece
            if marked and path and square == path[-1]:
                return cell(background, f"[{glyphs[letter]}]", style)
            return cell(background, glyphs[letter], style)
        if square in captures:
            return cell(background, "×", palette.capture_mark)
        if square in path and marked:
            return cell(background, "+", palette.path_mark)
        if self.notation == "numeric" and not self._all_playable() and not compact:
            label = self.board.format_square(square, "numeric")
            return cell(background, label, palette.square_number)
        return cell(background, "·" if plain else "")

    def _rank_labels(self, rank: int, files: Sequence[int]) -> tuple[Text, Text]:
        """Left and right margin labels of one rank (padding kept apart from the label)."""
        width = self._margin_width()
        if self.notation == "algebraic":
            return _label(str(rank + 1), width, right=False, style=self.palette.margin), Text()
        squares = [self.board.square_at(file, rank) for file in files]
        numbered = [
            self.board.format_square(square, "numeric") for square in squares if square is not None
        ]
        if not numbered:
            return Text(" " * width), Text(" " * width)
        return (
            _label(numbered[0], width, right=False, style=self.palette.margin),
            _label(numbered[-1], width, right=True, style=self.palette.margin),
        )

    def lines(self, console: Console, compact: bool = False) -> Iterator[Text]:
        """The diagram, one ``Text`` per line: ranks top to bottom, then file letters/caption
        (``compact``: one cell a square, no margins, no caption)."""
        plain = console.no_color or console.color_system is None
        glyphs = self._glyph_set(console, plain)
        files = self._files()
        if compact:
            for rank in self._ranks():
                line = Text()
                for file in files:
                    line.append_text(self._square_cell(file, rank, glyphs, plain, compact=True))
                yield line
            return
        for rank in self._ranks():
            left, right = self._rank_labels(rank, files)
            line = left.copy()
            for file in files:
                line.append_text(self._square_cell(file, rank, glyphs, plain))
            line.append_text(right)
            yield line
        if self.notation == "algebraic":
            letters = Text(" " * self._margin_width())
            for file in files:
                letters.append_text(_cell(Style(), chr(ord("a") + file), self.palette.margin))
            yield letters
        for caption in self._caption_lines():
            indent = (self.width() - len(caption)) // 2
            yield Text.assemble(" " * indent, (caption, self.palette.caption))

    def _caption_lines(self) -> list[str]:
        """The caption's lines, each at most the board's width: a line too wide is broken at
        its `` · `` separators, and what is still too wide is cut with an ellipsis."""
        width = self.width()
        lines: list[str] = []
        for line in (self.caption or "").splitlines():
            lines.extend([line] if len(line) <= width else line.split(" · "))
        return [line if len(line) <= width else line[: width - 1] + "…" for line in lines]

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        """The full board when it fits ``options.max_width``, else the compact one, cropped
        if even that is too wide: a board never wraps into garbage."""
        width = options.max_width
        compact = self.width() > width
        for line in self.lines(console, compact=compact):
            if line.cell_len > width:
                line.truncate(width)
            yield line


def _one_cell(background: Style, body: str = "", style: Style | None = None) -> Text:
    """One square of a compact board: ``body`` (one cell, or a blank) on its background."""
    return Text(body or " ", style=background + style if style else background)


def _cell(background: Style, body: str = "", style: Style | None = None) -> Text:
    """One square: ``body`` centred in ``SQUARE_WIDTH`` cells, the padding a segment of its own
    (so SVG renderers place the body exactly)."""
    left = (SQUARE_WIDTH - len(body)) // 2
    right = SQUARE_WIDTH - len(body) - left
    return Text.assemble(
        (" " * left, background),
        (body, background + style if style else background),
        (" " * right, background),
    )


def _label(label: str, width: int, *, right: bool, style: Style) -> Text:
    """A margin label in ``width`` cells: one space towards the board, aligned away from it."""
    padding = " " * (width - len(label) - 1)
    if right:
        return Text.assemble(" ", (label, style), padding)
    return Text.assemble(padding, (label, style), " ")
