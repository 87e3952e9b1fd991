"""A whole game as a rich renderable: ``GameView`` (header panel, boards from
``pdn.views.boardview`` at chosen plies, the annotated move list as unbreakable tokens wrapped to
the console, findings), and the game titles ``game_tag`` / ``game_title`` that ``pdn report``
shares.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.style import Style
from rich.text import Text

from pdn.base.findings import Finding, printable
from pdn.engine.geometry import Notation
from pdn.engine.position import side_name
from pdn.game.numbering import MoveNumber, Numbering
from pdn.game.tags import TAG_ALIASES, tag_value
from pdn.game.visitor import GameVisitor
from pdn.views.boardview import BoardView, GlyphSet

if TYPE_CHECKING:
    from pdn.engine.variants import Variant
    from pdn.game.record import Game, GameNode


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
#: The move of each ply whose board is drawn, in the move list.
SHOWN_STYLE = Style(reverse=True)


#: Tags of the header panel, in order (players are its title).
HEADER_TAGS = ("Event", "Site", "Date", "Round", "Opening")


def game_tag(game: Game, name: str) -> str | None:
    """A tag's value under its English name or a dialect's (Italian files), if meaningful
    (not empty, ``?``, ``-`` or ``*``), control characters escaped (``printable``). O(tags)."""
    for alias in TAG_ALIASES.get(name, (name,)):
        value = (tag_value(game.tags, alias) or "").strip()
        if value not in ("", "?", "-", "*"):
            return printable(value)
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
                self._add(Text(printable(part), style=COMMENT_STYLE))
            self.need_number = True

    def visit_move(self, node: GameNode, ply: int, number: MoveNumber) -> None:
        self._comments(node.comments_before)
        token = Text()
        label = number.label(resumed=self.need_number)
        if label:
            token.append(f"{label} ", style="dim")
        marker = None
        shown = False
        if self.depth == 0:
            played = self.view.replay.played.get(node)
            if played is not None and played.part > 1:
                self.joined += 1
            else:
                marker = self.markers.get(ply - self.joined)
            shown = ply - self.joined in self.view.plies  # each part of a split capture
        style = marker[1] if marker else Style(dim=self.depth > 0)
        token.append(self.view._move_text(node), style=style + SHOWN_STYLE if shown else style)
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
    findings come from one :func:`pdn.arbiter.replay.replay` (findings unless given); each main-line
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
        from pdn.arbiter.replay import replay
        from pdn.pdnfile.writer import moves_in_notation

        self.game = game
        self.replay = replay(game, variant=variant)
        detected = self.replay.variant
        self.variant = detected
        game_type = game.headers.get("GameType", "").strip()
        self.variant_origin = (
            ("as asked" if variant is not None else "inferred")
            if self.replay.variant_findings
            else f"GameType {game_type}"
            if game_type
            else "as asked"
            if variant is not None
            else "PDN default (20)"
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
        """The move as written (control characters escaped), or rewritten in the notation
        asked for."""
        rewritten = self.rewritten.get(node)
        return rewritten if rewritten is not None else printable(node.move_text or "")

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
            yield Text(printable(self.replay.stopped), style="yellow")
        if listed:
            notes = Table.grid(padding=(0, 1))
            notes.add_column(no_wrap=True)
            notes.add_column()
            for number, finding in listed:
                where = f"ply {finding.ply} {finding.move or ''}: " if finding.ply else ""
                notes.add_row(
                    Text(f"[{number}]" if number else "", style=_finding_style(finding)),
                    Text(printable(f"{where}{finding.severity}[{finding.code}] {finding.message}")),
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
