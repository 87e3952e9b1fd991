"""Rich renderables for draughts: a board diagram (``BoardView``) and a whole game (``GameView``).

Both are plain rich renderables: ``rich.print(BoardView.from_position(position))`` draws a board,
:func:`export_svg` turns any of them into a deterministic SVG. In colour, pieces are discs
(``●`` man, ``◉`` king) coloured by side; without colour (pipes, files, ``NO_COLOR``) the shape
alone tells them apart (``○ ◎ ● ◉``, or ``w W b B``) and the last move is marked in text.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.measure import Measurement
from rich.style import Style
from rich.text import Text

from pdn.findings import Finding

if TYPE_CHECKING:
    from pdn.geometry import Board
    from pdn.movegen import Move
    from pdn.position import Position
    from pdn.record import Game, GameNode
    from pdn.variants import Variant

Notation = Literal["numeric", "algebraic"]
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
    last_move: Style = Style(bgcolor="#d2b04c")
    white_piece: Style = Style(color="#ffffff", bold=True)
    black_piece: Style = Style(color="#000000", bold=True)
    square_number: Style = Style(color="#6e4a2b")
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
    """The rendering letter (``w W b B``) of a ``pdn.position.Piece`` or of a letter. O(1).

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
        **options: object,
    ) -> BoardView:
        """The board of ``position`` in its variant's notation, captioned with the side to move."""
        variant = position.variant
        side = "White" if position.turn == "W" else "Black"
        return cls(
            variant.board,
            dict(position.pieces()),
            notation=notation or variant.default_notation,
            last_move=LastMove.from_move(last_move) if last_move is not None else None,
            caption=caption if caption is not None else f"{side} to move",
            **options,  # type: ignore[arg-type]
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

    def width(self) -> int:
        """Cells the diagram takes: margins and squares."""
        margins = self._margin_width() * (1 if self.notation == "algebraic" else 2)
        return margins + SQUARE_WIDTH * self.board.width

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(self.width(), self.width())

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

    def _is_dark(self, file: int, rank: int, square: int | None) -> bool:
        if self._all_playable():  # Turkish: every square is played on; shade by parity only
            return (file + rank) % 2 == 0
        return square is not None

    def _square_cell(
        self, file: int, rank: int, glyphs: Mapping[str, str], plain: bool
    ) -> Text:
        """The cells of one square: piece, mark or number, on its background."""
        palette = self.palette
        square = self.board.square_at(file, rank)
        background = palette.dark if self._is_dark(file, rank, square) else palette.light
        if square is None:
            return _cell(background)
        path = self.last_move.path if self.last_move else ()
        captures = self.last_move.captures if self.last_move else ()
        if square in path:
            background = palette.last_move
        letter = self.pieces.get(square)
        if letter is not None:
            style = palette.white_piece if letter in "wW" else palette.black_piece
            if plain and path and square == path[-1]:
                return _cell(background, f"[{glyphs[letter]}]", style)
            return _cell(background, glyphs[letter], style)
        if square in captures:
            return _cell(background, "×", palette.capture_mark)
        if square in path and plain:
            return _cell(background, "+", palette.path_mark)
        if self.notation == "numeric" and not self._all_playable():
            label = self.board.format_square(square, "numeric")
            return _cell(background, label, palette.square_number)
        return _cell(background, "·" if plain else "")

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

    def lines(self, console: Console) -> Iterator[Text]:
        """The diagram, one ``Text`` per line: ranks top to bottom, then file letters/caption."""
        plain = console.no_color or console.color_system is None
        glyphs = self._glyph_set(console, plain)
        files = self._files()
        for rank in self._ranks():
            left, right = self._rank_labels(rank, files)
            line = left.copy()
            for file in files:
                line.append_text(self._square_cell(file, rank, glyphs, plain))
            line.append_text(right)
            yield line
        if self.notation == "algebraic":
            letters = "".join(chr(ord("a") + file).center(SQUARE_WIDTH) for file in files)
            yield Text(" " * self._margin_width() + letters, style=self.palette.margin)
        for caption in (self.caption or "").splitlines():
            caption = caption[: self.width()]
            indent = (self.width() - len(caption)) // 2
            yield Text.assemble(" " * indent, (caption, self.palette.caption))

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield from self.lines(console)


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


def boards_side_by_side(boards: Iterable[BoardView], gap: int = 3) -> RenderResult:
    """Boards in rows, as many per row as the width allows (rich ``Columns``)."""
    from rich.columns import Columns

    yield Columns(list(boards), padding=(1, gap))


# -- games ------------------------------------------------------------------------------------

#: NAGs $1..$6 written as the move strengths they stand for.
NAG_SYMBOLS = {1: "!", 2: "?", 3: "!!", 4: "??", 5: "!?", 6: "?!"}

SEVERITY_STYLES = {
    "error": Style(color="red", bold=True),
    "warning": Style(color="yellow", bold=True),
    "info": Style(color="cyan"),
}
#: Draw-rule expiries get their own mark: the game was drawn here whatever followed.
DRAW_RULE_CODES = frozenset({"move-limit", "repetition"})
DRAW_RULE_STYLE = Style(color="magenta", bold=True, underline=True)


@dataclass
class Replay:
    """A game replayed: main-line positions, and the move each written node stands for.

    ``positions[0]`` is the start, ``positions[p]`` the position after ply ``p``; ``moves[p-1]``
    is the move of ply ``p``. ``played`` maps ``id(node)`` to its move for every node of the
    tree that could be replayed (variations too). ``stopped`` says why the main line stops
    before its last written move (``None`` when it does not).
    """

    positions: list[Position]
    moves: list[Move]
    played: dict[int, Move]
    stopped: str | None


def replay(game: Game, variant: Variant) -> Replay:
    """Replay every line of ``game`` in ``variant``; irregular moves are applied as recorded.

    O(nodes x legal moves). Never raises on bad records: a line stops at the first move that
    cannot be played at all (RULES.md A.1), and the rest of it is simply not shown on boards.
    """
    from pdn.detect import start_position
    from pdn.position import FenError, Position
    from pdn.resolve import resolve

    try:
        start = start_position(game, variant)
    except (FenError, ValueError) as error:
        return Replay([], [], {}, f"the start position cannot be read: {error}")
    played: dict[int, Move] = {}
    after: dict[int, Position] = {}
    stack: list[tuple[GameNode, Position]] = [(child, start) for child in game.variations]
    while stack:
        node, before = stack.pop()
        if node.setup:
            try:
                before = Position.from_fen(node.setup, variant)
            except (FenError, ValueError):
                continue
        if not node.move or node.move == "--":
            continue
        resolution = resolve(before, node.move)
        move = resolution.move or resolution.as_played
        if move is None:
            continue
        played[id(node)] = move
        after[id(node)] = before.play(move)
        stack.extend((child, after[id(node)]) for child in node.variations)
    positions, moves = [start], []
    stopped = None
    for node in game.mainline():
        if id(node) not in played:
            stopped = f"replay stops at ply {len(positions)} ({node.move}): it cannot be played"
            break
        moves.append(played[id(node)])
        positions.append(after[id(node)])
    return Replay(positions, moves, played, stopped)


def move_number(ply: int, first_mover_starts: bool) -> tuple[int, bool]:
    """Move number of ``ply`` (1-based) and whether it is the first mover's half. O(1)."""
    half = ply - 1 + (0 if first_mover_starts else 1)
    return half // 2 + 1, half % 2 == 0


def _finding_style(finding: Finding) -> Style:
    if finding.code in DRAW_RULE_CODES:
        return DRAW_RULE_STYLE
    return SEVERITY_STYLES.get(finding.severity or "error", SEVERITY_STYLES["error"])


class GameView:
    """A whole game: header panel, boards at chosen plies, annotated move list, findings.

    ``plies`` lists the plies to draw (0 = start; default: the final position). Findings come
    from :func:`pdn.audit.audit` unless given; each main-line finding is marked at its ply with
    a numbered tag ``[n]`` (errors red, warnings yellow, draw-rule expiries magenta) that also
    reads without colour. Building costs one replay of the game; rendering O(moves + boards).
    """

    def __init__(
        self,
        game: Game,
        *,
        variant: Variant | None = None,
        plies: Sequence[int] | None = None,
        flip: bool = False,
        notation: Notation | None = None,
        glyphs: GlyphSet = "auto",
        findings: Sequence[Finding] | None = None,
    ) -> None:
        from pdn.audit import audit
        from pdn.detect import detect_variant

        self.game = game
        detected, variant_findings = detect_variant(game, variant)
        self.variant = detected
        self.findings = (
            list(findings) if findings is not None
            else _unique([*game.findings, *variant_findings, *audit(game, variant=detected)])
        )
        self.replay = replay(game, detected)
        self.last_ply = len(self.replay.positions) - 1
        final = [self.last_ply] if self.last_ply >= 0 else []
        self.plies = list(plies) if plies is not None else final
        self.flip = flip
        self.notation: Notation = notation or detected.default_notation
        self.glyphs = glyphs

    # -- parts ----------------------------------------------------------------------------
    def header(self) -> RenderableType:
        """Players, event, place, date, result and variant in a panel."""
        from rich.panel import Panel
        from rich.table import Table

        tags = self.game.headers
        white, black = tags.get("White", "?"), tags.get("Black", "?")
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="bold")
        grid.add_column()
        for name in ("Event", "Site", "Date", "Round"):
            if tags.get(name) not in (None, "", "?", "-"):
                grid.add_row(name, tags[name])
        result = self.game.result or tags.get("Result") or "*"
        grid.add_row("Result", result)
        gametype = tags.get("GameType")
        grid.add_row(
            "Variant",
            self.variant.name + (f" (GameType {gametype})" if gametype else " (inferred)"),
        )
        return Panel(grid, title=f"{white} – {black}", title_align="left", expand=False)

    def board_at(self, ply: int) -> BoardView:
        """The board after ``ply`` (0: the start), its last move marked. IndexError if absent."""
        if not 0 <= ply <= self.last_ply:
            raise IndexError(f"ply {ply} is not in 0..{self.last_ply}")
        position = self.replay.positions[ply]
        side = "White" if position.turn == "W" else "Black"
        if ply == 0:
            caption = f"start · {side} to move"
            last_move = None
        else:
            last_move = self.replay.moves[ply - 1]
            number, first = move_number(ply, self._first_mover_starts())
            text = last_move.notation(self.variant.board, self.notation)
            caption = f"{number}{'.' if first else '...'} {text} · {side} to move"
        return BoardView.from_position(
            position, notation=self.notation, last_move=last_move, caption=caption,
            flip=self.flip, glyphs=self.glyphs,
        )

    def _first_mover_starts(self) -> bool:
        positions = self.replay.positions
        return not positions or positions[0].turn == self.variant.first_mover

    def _move_text(self, node: GameNode) -> str:
        move = self.replay.played.get(id(node))
        if move is None:
            return node.move or ""
        return move.notation(self.variant.board, self.notation)

    def moves(self, markers: Mapping[int, tuple[int, Style]]) -> Text:
        """The move list: numbers, moves, strengths, NAGs, comments, variations in brackets.

        ``markers`` maps a main-line ply to (footnote number, style). Iterative over the tree.
        """
        text = Text()
        first_starts = self._first_mover_starts()
        # work items: a node to write with its ply and depth, or literal text
        stack: list[tuple[GameNode, int, int] | str] = []
        if self.game.variations:
            stack.append((self.game.variations[0], 1, 0))
        need_number = True
        while stack:
            item = stack.pop()
            if isinstance(item, str):
                if item == ")":
                    text.rstrip()
                text.append(item, style="dim")
                need_number = True
                continue
            node, ply, depth = item
            for comment in node.comments_before:
                text.append(f"{{{comment}}} ", style="italic green")
                need_number = True
            number, first = move_number(ply, first_starts)
            if first or need_number:
                text.append(f"{number}{'.' if first else '...'} ", style="dim")
            marker = markers.get(ply) if depth == 0 else None
            move_style = marker[1] if marker else Style(dim=depth > 0)
            text.append(self._move_text(node), style=move_style)
            if node.strength:
                text.append(node.strength, style="bold")
            for nag in node.nags:
                text.append(NAG_SYMBOLS.get(nag, f" ${nag}"), style="bold")
            if marker:
                text.append(f"[{marker[0]}]", style=marker[1])
            text.append(" ")
            need_number = False
            for comment in node.comments_after:
                text.append(f"{{{comment}}} ", style="italic green")
                need_number = True
            siblings = node.parent.variations if node.parent is not None else []
            if node.variations:
                stack.append((node.variations[0], ply + 1, depth))
            if siblings and siblings[0] is node:
                for alternative in reversed(siblings[1:]):
                    stack.extend([" ", ")", (alternative, ply, depth + 1), "("])
        result = self.game.result
        if result:
            text.append(result, style="bold")
        return text

    def _markers(self) -> tuple[dict[int, tuple[int, Style]], list[tuple[int | None, Finding]]]:
        """Footnote number and style per marked ply, and the numbered list of findings."""
        markers: dict[int, tuple[int, Style]] = {}
        listed: list[tuple[int | None, Finding]] = []
        for finding in sorted(self.findings, key=lambda item: (item.ply or 0)):
            if finding.ply is None:
                listed.append((None, finding))
                continue
            if finding.ply not in markers:
                markers[finding.ply] = (len(markers) + 1, _finding_style(finding))
            listed.append((markers[finding.ply][0], finding))
        return markers, listed

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.header()
        if self.replay.positions:
            yield from boards_side_by_side(self.board_at(ply) for ply in self.plies)
        markers, listed = self._markers()
        yield self.moves(markers)
        if self.replay.stopped:
            yield Text(self.replay.stopped, style="yellow")
        for number, finding in listed:
            line = Text(f"[{number}] " if number else "    ", style=_finding_style(finding))
            where = f"ply {finding.ply} {finding.move or ''}: " if finding.ply else ""
            line.append(f"{where}{finding.severity}[{finding.code}] {finding.message}")
            yield line


def _unique(findings: Iterable[Finding]) -> list[Finding]:
    """Findings without repeats, in order."""
    return list(dict.fromkeys(findings))


def export_svg(renderable: RenderableType, *, title: str, width: int = 100) -> str:
    """SVG of ``renderable`` drawn on a recording console ``width`` cells wide.

    Deterministic: the title is given, rich's SVG ids derive from the content, and nothing
    depends on time or the terminal. O(size of the drawing).
    """
    from io import StringIO

    console = Console(
        file=StringIO(), width=width, record=True, force_terminal=True,
        color_system="truecolor", legacy_windows=False, _environ={},
    )
    console.print(renderable)
    return console.export_svg(title=title)
