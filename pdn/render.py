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
from pdn.geometry import Notation
from pdn.numbering import MoveNumber, Numbering
from pdn.position import side_name
from pdn.tags import TAG_ALIASES, tag_value
from pdn.visitor import GameVisitor

if TYPE_CHECKING:
    from pdn.geometry import Board
    from pdn.movegen import Move
    from pdn.position import Position
    from pdn.record import Game, GameNode
    from pdn.variants import Variant


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
COMMENT_STYLE = Style(color="green", italic=True)


#: Tags of the header panel, in order (players are its title).
HEADER_TAGS = ("Event", "Site", "Date", "Round", "Opening")


def game_tag(game: Game, name: str) -> str | None:
    """A tag's value under its English name or a dialect's (Italian files), if meaningful
    (not empty, ``?``, ``-`` or ``*``). O(tags)."""
    for alias in TAG_ALIASES.get(name, (name,)):
        value = (tag_value(game.tags, alias) or "").strip()
        if value not in ("", "?", "-", "*"):
            return value
    return None


def game_title(game: Game) -> str:
    """``White – Black``, else the event, else the game's place in its file."""
    white, black = game_tag(game, "White"), game_tag(game, "Black")
    if white or black:
        return f"{white or '?'} – {black or '?'}"
    return game_tag(game, "Event") or f"game {game.source.game}"


def _finding_style(finding: Finding) -> Style:
    if finding.code in DRAW_RULE_CODES:
        return DRAW_RULE_STYLE
    return SEVERITY_STYLES.get(finding.severity or "error", SEVERITY_STYLES["error"])


class _MoveTokens(GameVisitor[list[Text]]):
    """``GameView.moves``: the tokens of the move list, in text order."""

    def __init__(self, view: GameView, markers: Mapping[int, tuple[int, Style]]) -> None:
        self.view = view
        self.markers = markers
        self.tokens: list[Text] = []
        self.opening = Text()  # "(" waiting to be glued to the next token
        self.need_number = True
        self.depth = 0
        self.joined = 0  # main-line nodes so far that continue a split capture (no own ply)

    def _add(self, token: Text) -> None:
        self.tokens.append(self.opening + token if self.opening.plain else token)
        self.opening = Text()

    def _comments(self, comments: list[str]) -> None:
        for words in comments:
            for part in f"{{{words}}}".split():
                self._add(Text(part, style=COMMENT_STYLE))
            self.need_number = True

    def visit_move(self, node: GameNode, ply: int, number: MoveNumber) -> None:
        self._comments(node.comments_before)
        token = Text()
        label = number.label(resumed=self.need_number)
        if label:
            token.append(f"{label} ", style="dim")
        marker = None
        if self.depth == 0:
            played = self.view.replay.played.get(node)
            if played is not None and played.part > 1:
                self.joined += 1
            else:
                marker = self.markers.get(ply - self.joined)
        style = marker[1] if marker else Style(dim=self.depth > 0)
        token.append(self.view._move_text(node), style=style)
        token.append(node.strength or "", style="bold")
        for nag in node.nags:
            token.append(NAG_SYMBOLS.get(nag, f" ${nag}"), style="bold")
        if marker:
            token.append(f"[{marker[0]}]", style=marker[1])
        self._add(token)
        self.need_number = False
        self._comments(node.comments_after)

    def begin_variation(self, node: GameNode) -> None:
        self.opening = Text("(", style="dim")
        self.depth += 1
        self.need_number = True

    def end_variation(self, node: GameNode) -> None:
        self.tokens[-1].append(")", style="dim")
        self.depth -= 1
        self.need_number = True

    def visit_result(self, result: str | None) -> None:
        if result:
            self._add(Text(result, style="bold"))

    def end_game(self) -> list[Text]:
        return self.tokens


class GameView:
    """A whole game: header panel, boards at chosen plies, annotated move list, findings.

    ``plies`` lists the plies to draw (0 = start; default: the final position). Moves are shown
    as written unless ``notation`` asks for them rewritten (as ``pdn convert`` would; a dialect
    with rotated squares is always rewritten onto the board drawn). Positions, moves and
    findings come from one :func:`pdn.replay.replay` (findings unless given); each main-line
    finding is marked at its ply with a numbered tag ``[n]`` (errors red, warnings yellow,
    draw-rule expiries magenta) that also reads without colour. Building costs one replay of
    the game; rendering O(moves + boards).
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
        from pdn.replay import replay
        from pdn.writer import moves_in_notation

        self.game = game
        self.replay = replay(game, variant=variant)
        detected = self.replay.variant
        self.variant = detected
        self.variant_origin = (
            f"GameType {game.headers.get('GameType', '').strip()}"
            if not self.replay.variant_findings
            else "as asked"
            if variant is not None
            else "inferred"
        )
        self.findings = list(findings) if findings is not None else self.replay.findings
        self.last_ply = len(self.replay.positions) - 1
        final = [self.last_ply] if self.last_ply >= 0 else []
        self.plies = list(plies) if plies is not None else final
        self.flip = flip
        self.notation: Notation = notation or detected.default_notation
        # rotated dialect squares would not match the board drawn: name them on the board
        rewrite = notation is not None or self.replay.dialect.rotated
        self.rewritten = (
            moves_in_notation(game, self.replay, self.notation, full=False, board_squares=True)
            if rewrite
            else {}
        )
        self.mainline = list(game.mainline())
        self.node_plies = {node: index for index, node in enumerate(self.mainline, 1)}
        self.numbering = Numbering.of_game(game, detected.first_mover)
        self.glyphs = glyphs

    # -- parts ----------------------------------------------------------------------------
    def _tag(self, name: str) -> str | None:
        return game_tag(self.game, name)

    def title(self) -> str:
        """``White – Black``, else the event, else the game's place in its file."""
        return game_title(self.game)

    def header(self) -> RenderableType:
        """Players, event, place, date, result and variant in a panel."""
        from rich.panel import Panel
        from rich.table import Table

        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="bold")
        grid.add_column()
        for name in HEADER_TAGS:
            value = self._tag(name)
            if value is not None:
                grid.add_row(name, value)
        grid.add_row("Result", self.game.result or self._tag("Result") or "*")
        grid.add_row("Variant", f"{self.variant.name} ({self.variant_origin})")
        return Panel(grid, title=self.title(), title_align="left", expand=False)

    def board_at(self, ply: int) -> BoardView:
        """The board after ``ply`` (0: the start), its last move marked. IndexError if absent."""
        if not 0 <= ply <= self.last_ply:
            raise IndexError(f"ply {ply} is not in 0..{self.last_ply}")
        position = self.replay.positions[ply]
        side = side_name(position.turn)
        if ply == 0:
            caption = f"start · {side} to move"
            last_move = None
        else:
            nodes = self.replay.mainline_plies[ply - 1]
            last_move = self.replay.played[nodes[0]].move
            # numbered as written: each part of a split capture has its own number
            label = self.numbering.at(self.node_plies[nodes[0]]).label(resumed=True)
            text = " ".join(self._move_text(node) for node in nodes)
            caption = f"{label} {text} · {side} to move"
        return BoardView.from_position(
            position,
            notation=self.notation,
            last_move=last_move,
            caption=caption,
            flip=self.flip,
            glyphs=self.glyphs,
        )

    def _move_text(self, node: GameNode) -> str:
        """The move as written, or rewritten in the notation asked for."""
        return self.rewritten.get(node, node.move_text or "")

    def moves(self, markers: Mapping[int, tuple[int, Style]]) -> list[Text]:
        """The move list as unbreakable tokens: a move with its number, strength, NAGs and
        finding tag is one token, so lines never break between ``6.`` and its move; comments
        are one token a word; variations are bracketed and dimmed.

        ``markers`` maps a main-line ply to (footnote number, style). Iterative over the tree.
        """
        return self.game.accept(_MoveTokens(self, markers), numbering=self.numbering)

    def _markers(self) -> tuple[dict[int, tuple[int, Style]], list[tuple[int | None, Finding]]]:
        """Footnote number and style per marked ply, and the numbered list of findings."""
        markers: dict[int, tuple[int, Style]] = {}
        listed: list[tuple[int | None, Finding]] = []
        for finding in sorted(self.findings, key=lambda item: item.ply or 0):
            if finding.ply is None:
                listed.append((None, finding))
                continue
            if finding.ply not in markers:
                markers[finding.ply] = (len(markers) + 1, _finding_style(finding))
            listed.append((markers[finding.ply][0], finding))
        return markers, listed

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        from rich.columns import Columns
        from rich.table import Table

        yield self.header()
        if self.plies:
            yield Columns([self.board_at(ply) for ply in self.plies], padding=(1, 3))
        markers, listed = self._markers()
        yield from wrap_tokens(self.moves(markers), options.max_width)
        if self.replay.stopped:
            yield Text(self.replay.stopped, style="yellow")
        if listed:
            notes = Table.grid(padding=(0, 1))
            notes.add_column(no_wrap=True)
            notes.add_column()
            for number, finding in listed:
                where = f"ply {finding.ply} {finding.move or ''}: " if finding.ply else ""
                notes.add_row(
                    Text(f"[{number}]" if number else "", style=_finding_style(finding)),
                    Text(f"{where}{finding.severity}[{finding.code}] {finding.message}"),
                )
            yield notes


def wrap_tokens(tokens: Iterable[Text], width: int) -> Iterator[Text]:
    """Lines of at most ``width`` cells from tokens joined by spaces, never split inside a
    token (a token wider than ``width`` gets a line of its own). O(total length)."""
    line = Text()
    for token in tokens:
        if line.plain and line.cell_len + 1 + token.cell_len > width:
            yield line
            line = Text()
        if line.plain:
            line.append(" ")
        line.append_text(token)
    if line.plain:
        yield line


def export_svg(renderable: RenderableType, *, title: str, width: int = 80) -> str:
    """SVG of ``renderable`` drawn on a recording console ``width`` cells wide.

    Deterministic: the title is given, rich's SVG ids derive from the content, and nothing
    depends on time or the terminal. O(size of the drawing).
    """
    from io import StringIO

    console = Console(
        file=StringIO(),
        width=width,
        record=True,
        force_terminal=True,
        color_system="truecolor",
        legacy_windows=False,
        _environ={},
    )
    console.print(renderable)
    return console.export_svg(title=title)
