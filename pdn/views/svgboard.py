"""Board diagrams as SVG: squares, men and kings, margin labels, move arrows, captured pieces.

A :class:`Diagram` draws one position the way a printed diagram does: White at the bottom
(``flip`` turns it), the variant's own square numbers (in each empty dark square and on the margins)
or files and ranks on the margins for algebraic notation, arrows along a move's path, and a
cross on every piece a move captures. Output is deterministic text (no ids from time or
memory, numbers rounded) and self-describing: every square carries ``data-square`` (its number
on the variant's board), every piece ``data-square`` and ``data-piece`` (``w W b B``), every
captured mark ``data-captured``, so tests and scripts can read a position back from the SVG.

The empty board and the piece shapes are ``<defs>`` referenced with ``<use>``: a page of many
diagrams (``pdn.views.htmlreport``) writes them once with :func:`definitions` and each diagram with
``defs=False``; a standalone picture (``pdn show --svg``) carries its own. Drawing costs
O(squares) for the definitions and O(pieces + path) per diagram.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from html import escape
from typing import TYPE_CHECKING, Literal

from pdn.base.findings import printable
from pdn.engine.geometry import Notation
from pdn.views.boardview import piece_letter

if TYPE_CHECKING:
    from pdn.engine.geometry import Board
    from pdn.engine.movegen import Move
    from pdn.engine.position import Position


#: How an arrow reads: the move played, a move that breaks the rules, a legal alternative.
ArrowKind = Literal["move", "fault", "alternative"]

#: Side of a square in SVG user units; every other length derives from it.
SQUARE = 10
#: Room for margin labels (left, right and bottom), and the top edge.
MARGIN = 6
TOP = 2
#: Height of a caption line under the board.
CAPTION = 6

LIGHT = "#f0d9b5"
DARK = "#b58863"
DARK_ALTERNATE = "#a57750"  # boards played on every square (Turkish): the second shade
LABEL = "#5b4632"
NUMBER = "#e9d3b3"
ARROW_COLOURS: dict[str, str] = {"move": "#1e6fd9", "fault": "#d0021b", "alternative": "#2e7d32"}

HIGHLIGHT = "#f7ec5e"
SVG_NS = "http://www.w3.org/2000/svg"

PIECE_NAMES = {"w": "white man", "W": "white king", "b": "black man", "B": "black king"}


@dataclass(frozen=True)
class Arrow:
    """A move to draw: its path (from, every landing square, to) and the squares it captures."""

    path: tuple[int, ...]
    captures: tuple[int, ...] = ()
    kind: ArrowKind = "move"

    @classmethod
    def from_move(cls, move: Move, kind: ArrowKind = "move") -> Arrow:
        return cls(tuple(move.path), tuple(move.captures), kind)


def board_key(board: Board, notation: Notation, flip: bool) -> str:
    """The id of the drawn empty board: one per geometry, notation and side at the bottom."""
    shape = f"{board.width}x{board.height}-{board.first_corner}"
    kind = "all" if board.all_squares else ("a1" if board.dark_a1 else "b1")
    return f"pdn-board-{shape}-{kind}-{notation}{'-flip' if flip else ''}"


@dataclass(frozen=True)
class Diagram:
    """One board diagram. ``pieces`` maps square numbers to ``w W b B`` or engine pieces."""

    board: Board
    pieces: Mapping[int, object]
    notation: Notation = "numeric"
    flip: bool = False
    arrows: Sequence[Arrow] = ()
    highlight: Sequence[int] = ()
    caption: str | None = None
    label: str = ""
    letters: dict[int, str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        letters = {square: piece_letter(piece) for square, piece in self.pieces.items()}
        object.__setattr__(self, "letters", letters)

    @classmethod
    def of(
        cls,
        position: Position,
        *,
        notation: Notation | None = None,
        flip: bool = False,
        arrows: Sequence[Arrow] = (),
        highlight: Sequence[int] = (),
        caption: str | None = None,
    ) -> Diagram:
        """The diagram of ``position`` in its variant's notation (or ``notation``)."""
        from pdn.engine.position import side_name

        variant = position.variant
        return cls(
            variant.board,
            dict(position.pieces()),
            notation=notation or variant.default_notation,
            flip=flip,
            arrows=arrows,
            highlight=highlight,
            caption=caption,
            label=f"{variant.name} board, {side_name(position.turn)} to move",
        )

    # -- geometry ---------------------------------------------------------------------------
    @property
    def key(self) -> str:
        return board_key(self.board, self.notation, self.flip)

    @property
    def width(self) -> int:
        return 2 * MARGIN + SQUARE * self.board.width

    @property
    def height(self) -> int:
        captions = len(self.caption.splitlines()) if self.caption else 0
        return TOP + SQUARE * self.board.height + MARGIN + CAPTION * captions

    def corner(self, square: int) -> tuple[int, int]:
        """Top-left corner of ``square`` in user units."""
        return _corner(self.board, self.flip, *self.board.coords(square))

    def centre(self, square: int) -> tuple[float, float]:
        x, y = self.corner(square)
        return x + SQUARE / 2, y + SQUARE / 2

    # -- drawing ----------------------------------------------------------------------------
    def svg(
        self,
        *,
        defs: bool = True,
        xmlns: bool = True,
        scale: float = 3.2,
        at: tuple[float, float] | None = None,
    ) -> str:
        """The ``<svg>`` element, ``scale`` pixels per user unit. ``defs=False`` leaves out the
        board and piece definitions (the page that holds this diagram writes them once);
        ``xmlns=False`` leaves out the namespace (SVG inside HTML needs none); ``at``: placed
        at (x, y) inside a larger picture, in its units (see :func:`sheet`)."""
        namespace = f' xmlns="{SVG_NS}"' if xmlns else ""
        if at is None:
            size = f'width="{_num(self.width * scale)}" height="{_num(self.height * scale)}"'
        else:
            size = (
                f'x="{_num(at[0])}" y="{_num(at[1])}" width="{self.width}" height="{self.height}"'
            )
        parts = [
            (
                f'<svg{namespace} class="pdn-board" '
                f'viewBox="0 0 {self.width} {self.height}" {size} '
                f'role="img" aria-label="{_text(self.label or "draughts board")}">'
            )
        ]
        if defs:
            parts.append(definitions([(self.board, self.notation, self.flip)], hidden=False))
        parts.append(f'<use href="#{self.key}"/>')
        for square in self.highlight:
            x, y = self.corner(square)
            parts.append(
                f'<rect class="hl" x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}" '
                f'fill="{HIGHLIGHT}" fill-opacity=".55"/>'
            )
        for square in sorted(self.letters):
            letter = self.letters[square]
            x, y = self.corner(square)
            parts.append(
                f'<use href="#pdn-{_piece_id(letter)}" x="{x}" y="{y}" '
                f'data-square="{square}" data-piece="{letter}"/>'
            )
        # alternatives under the move drawn, the move itself on top; a piece two arrows
        # capture is crossed in the colour of the one on top
        order = {"alternative": 0, "move": 1, "fault": 2}
        arrows = sorted(self.arrows, key=lambda arrow: order[arrow.kind])
        crossed = {square: arrow.kind for arrow in arrows for square in arrow.captures}
        parts.extend(
            _capture_mark(*self.corner(square), square, crossed[square])
            for square in sorted(crossed)
        )
        parts.extend(self._arrow(arrow) for arrow in arrows)
        if self.caption:
            baseline = TOP + SQUARE * self.board.height + MARGIN + CAPTION - 1.6
            for line in self.caption.splitlines():
                parts.append(
                    f'<text x="{_num(self.width / 2)}" y="{_num(baseline)}" text-anchor="middle" '
                    f'font-size="3.6" font-style="italic" fill="#333">{_text(line)}</text>'
                )
                baseline += CAPTION
        parts.append("</svg>")
        return "".join(parts)

    def _arrow(self, arrow: Arrow) -> str:
        """A polyline through the centres of the path's squares with a head at the end."""
        points = [self.centre(square) for square in arrow.path]
        colour = ARROW_COLOURS[arrow.kind]
        width = 0.9 if arrow.kind == "alternative" else 1.3
        head = 3.4 if arrow.kind == "alternative" else 4.2
        squares = " ".join(str(square) for square in arrow.path)
        if len(points) < 2 or points[-1] == points[-2]:
            x, y = points[0]
            return (
                f'<circle class="arrow" data-kind="{arrow.kind}" data-path="{squares}" '
                f'cx="{_num(x)}" cy="{_num(y)}" r="4.4" fill="none" stroke="{colour}" '
                f'stroke-width="{width}"/>'
            )
        (x0, y0), (x1, y1) = points[-2], points[-1]
        length = math.hypot(x1 - x0, y1 - y0)
        ux, uy = (x1 - x0) / length, (y1 - y0) / length
        shaft_end = (x1 - ux * head * 0.8, y1 - uy * head * 0.8)
        line = " ".join(f"{_num(x)},{_num(y)}" for x, y in [*points[:-1], shaft_end])
        base = (x1 - ux * head, y1 - uy * head)
        half = head * 0.55
        tip = [
            (x1, y1),
            (base[0] - uy * half, base[1] + ux * half),
            (base[0] + uy * half, base[1] - ux * half),
        ]
        dash = ' stroke-dasharray="2 1.2"' if arrow.kind == "alternative" else ""
        return (
            f'<g class="arrow" data-kind="{arrow.kind}" data-path="{squares}" fill="{colour}" '
            f'stroke="{colour}" opacity=".85"><polyline points="{line}" fill="none" '
            f'stroke-width="{width}" stroke-linecap="round" stroke-linejoin="round"{dash}/>'
            f'<polygon points="{" ".join(f"{_num(x)},{_num(y)}" for x, y in tip)}" '
            'stroke="none"/></g>'
        )


def sheet(
    diagrams: Sequence[Diagram], *, title: str | None = None, columns: int = 3, scale: float = 3.2
) -> str:
    """One standalone SVG picture: ``title`` on top, then ``diagrams`` in rows of ``columns``
    (``pdn show --svg``). O(size of the diagrams)."""
    if not diagrams:
        raise ValueError("a sheet needs at least one diagram")
    columns = max(1, min(columns, len(diagrams)))
    cell_width = max(diagram.width for diagram in diagrams) + MARGIN
    cell_height = max(diagram.height for diagram in diagrams) + TOP
    heading = 9 if title else 0
    width = columns * cell_width + MARGIN
    rows = -(-len(diagrams) // columns)
    height = heading + rows * cell_height + TOP
    parts = [
        (
            f'<svg xmlns="{SVG_NS}" viewBox="0 0 {width} {height}" width="{_num(width * scale)}" '
            f'height="{_num(height * scale)}" font-family="sans-serif">'
            f'<rect width="{width}" height="{height}" fill="#fff"/>'
        ),
        definitions(
            [(diagram.board, diagram.notation, diagram.flip) for diagram in diagrams],
            hidden=False,
        ),
    ]
    if title:
        parts.append(
            f'<text x="{MARGIN}" y="6.5" font-size="4.6" font-weight="bold" fill="#222">'
            f"{_text(title)}</text>"
        )
    for index, diagram in enumerate(diagrams):
        row, column = divmod(index, columns)
        at = (MARGIN / 2 + column * cell_width, heading + row * cell_height)
        parts.append(diagram.svg(defs=False, xmlns=False, at=at))
    parts.append("</svg>")
    return "".join(parts)


def definitions(
    boards: Iterable[tuple[Board, Notation, bool]], *, hidden: bool = True, xmlns: bool = True
) -> str:
    """``<defs>`` with the piece shapes and each distinct empty board of ``boards``
    ((board, notation, flip) triples). ``hidden``: wrapped in an ``<svg>`` of no size, to put
    once at the top of a page whose diagrams are drawn with ``defs=False`` (``xmlns`` as for
    :meth:`Diagram.svg`)."""
    seen: dict[str, str] = {}
    for board, notation, flip in boards:
        key = board_key(board, notation, flip)
        if key not in seen:
            seen[key] = _empty_board(board, notation, flip, key)
    body = "<defs>" + _PIECES + "".join(seen[key] for key in sorted(seen)) + "</defs>"
    if not hidden:
        return body
    namespace = f' xmlns="{SVG_NS}"' if xmlns else ""
    return (
        f'<svg{namespace} width="0" height="0" style="position:absolute" '
        f'aria-hidden="true">{body}</svg>'
    )


def _corner(board: Board, flip: bool, file: int, rank: int) -> tuple[int, int]:
    column = board.width - 1 - file if flip else file
    row = rank if flip else board.height - 1 - rank
    return MARGIN + SQUARE * column, TOP + SQUARE * row


def _empty_board(board: Board, notation: Notation, flip: bool, key: str) -> str:
    """The squares, square numbers and margin labels of one board, as a ``<g id=key>``."""
    width, height = SQUARE * board.width, SQUARE * board.height
    all_squares = board.all_squares
    parts = [
        (
            f'<g id="{key}" font-family="sans-serif">'
            f'<rect x="{MARGIN}" y="{TOP}" width="{width}" height="{height}" '
            f'fill="{DARK if all_squares else LIGHT}"/>'
        )
    ]
    for file in range(board.width):
        for rank in range(board.height):
            square = board.square_at(file, rank)
            if square is None:
                continue
            x, y = _corner(board, flip, file, rank)
            shade = DARK_ALTERNATE if all_squares and (file + rank) % 2 else DARK
            parts.append(
                f'<rect x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}" fill="{shade}" '
                f'data-square="{square}"/>'
            )
            if notation == "numeric" and not all_squares:
                # centred: a piece standing there hides it, an empty square shows it
                parts.append(
                    f'<text x="{_num(x + SQUARE / 2)}" y="{_num(y + SQUARE / 2 + 1.2)}" '
                    f'font-size="3.4" text-anchor="middle" fill="{NUMBER}">{square}</text>'
                )

    parts.append(
        f'<rect x="{MARGIN}" y="{TOP}" width="{width}" height="{height}" fill="none" '
        f'stroke="{LABEL}" stroke-width=".4"/>'
    )
    parts.extend(_margin_labels(board, notation, flip))
    parts.append("</g>")
    return "".join(parts)


def _margin_labels(board: Board, notation: Notation, flip: bool) -> list[str]:
    """Algebraic: rank numbers on the left, file letters below. Numeric: the first and last
    square number of each rank, left and right, as the diagram reads."""
    style = f'font-size="3.4" fill="{LABEL}"'
    labels: list[str] = []
    bottom = TOP + SQUARE * board.height + 4.2
    for rank in range(board.height):
        _, y = _corner(board, flip, 0, rank)
        middle = _num(y + SQUARE / 2 + 1.2)
        if notation == "algebraic":
            labels.append(
                f'<text x="{MARGIN - 1.2}" y="{middle}" text-anchor="end" {style}>{rank + 1}</text>'
            )
            continue
        columns = sorted(range(board.width), key=lambda file: _corner(board, flip, file, rank)[0])
        numbers = [square for file in columns if (square := board.square_at(file, rank))]
        if numbers:
            right = _num(MARGIN + SQUARE * board.width + 1.0)
            labels.append(
                f'<text x="{MARGIN - 1.0}" y="{middle}" text-anchor="end" {style}>'
                f"{numbers[0]}</text>"
                f'<text x="{right}" y="{middle}" {style}>{numbers[-1]}</text>'
            )
    if notation == "algebraic":
        for file in range(board.width):
            x, _ = _corner(board, flip, file, 0)
            labels.append(
                f'<text x="{_num(x + SQUARE / 2)}" y="{_num(bottom)}" text-anchor="middle" '
                f"{style}>{chr(ord('a') + file)}</text>"
            )
    return labels


def _piece_id(letter: str) -> str:
    return {"w": "wm", "W": "wk", "b": "bm", "B": "bk"}[letter]


def _piece(letter: str) -> str:
    """A man (a disc with a ring) or a king (the same with a crown), in a square at 0,0."""
    fill, stroke, ring = (
        ("#f8f4ea", "#3a3a3a", "#b9b2a2")
        if letter in "wW"
        else (
            "#262626",
            "#000",
            "#5c5c5c",
        )
    )
    crown = ""
    if letter.isupper():
        crown = (
            '<polygon points="3,6.6 2.8,3.6 4.1,4.9 5,3.1 5.9,4.9 7.2,3.6 7,6.6" '
            'fill="#e0a81e" stroke="#7a5a0c" stroke-width=".3" stroke-linejoin="round"/>'
        )
    return (
        f'<g id="pdn-{_piece_id(letter)}"><title>{PIECE_NAMES[letter]}</title>'
        f'<circle cx="5" cy="5" r="3.9" fill="{fill}" stroke="{stroke}" stroke-width=".45"/>'
        f'<circle cx="5" cy="5" r="2.7" fill="none" stroke="{ring}" stroke-width=".35"/>'
        f"{crown}</g>"
    )


_PIECES = "".join(_piece(letter) for letter in "wWbB")


def _capture_mark(x: int, y: int, square: int, kind: ArrowKind) -> str:
    """A cross over a captured piece, in the colour of the arrow that takes it."""
    a, b = x + 2.2, x + SQUARE - 2.2
    c, d = y + 2.2, y + SQUARE - 2.2
    return (
        f'<path class="captured" data-captured="{square}" '
        f'd="M{_num(a)} {_num(c)}L{_num(b)} {_num(d)}M{_num(b)} {_num(c)}L{_num(a)} {_num(d)}" '
        f'stroke="{ARROW_COLOURS[kind]}" stroke-width="1.2" stroke-linecap="round"/>'
    )


def _text(value: str) -> str:
    """Text from a file for SVG: control characters escaped (not allowed in XML), then XML
    escaping."""
    return escape(printable(value))


def _num(value: float) -> str:
    """A coordinate with at most one decimal, no trailing ``.0`` (deterministic, short)."""
    text = f"{value:.1f}"
    return text.removesuffix(".0")
