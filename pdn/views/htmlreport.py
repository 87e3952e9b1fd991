"""The audit as one self-contained HTML page: a summary, then one card per finding.

:class:`ReportPage` is built in two passes, as ``pdn report`` runs it:

1. :meth:`ReportPage.count` takes every game's audit (``pdn.batch.parallel`` reports, any number of
   workers): it counts findings for the summary and keeps the findings that get a card, at most
   ``max_cards`` per code (the rest are counted, not drawn). Memory: the kept findings only.
2. :meth:`ReportPage.add_game` takes each game that has cards, read again and replayed once
   (``pdn.arbiter.replay.replay``), and draws its cards: the game's header line, the message, the
   board before the move with the written move as an arrow (captured pieces crossed), the legal
   alternatives of an irregular move, the board where a draw rule expired with the count that
   led there, the moves around the ply with the faulty one marked, and the full move list.

:meth:`ReportPage.html` assembles the page: every text from a file is escaped
(``html.escape``), boards are inline SVG (``pdn.views.svgboard``) sharing one set of definitions,
charts are inline SVG bars, a few lines of inline JavaScript filter the cards by severity, code
and file (without JavaScript every card shows). Nothing in the page refers to the network:
``://`` in file text is written with an entity, so the page holds no ``http://`` at all.
Cost: O(findings) to count, one replay per game with cards, O(page) to write.
"""

from __future__ import annotations

import html
import os
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pdn.base.findings import CODES, IRREGULAR_CODES, SEVERITY_RANK, Finding, printable
from pdn.base.paths import common_folder
from pdn.engine.drawrules import DrawTracker, profile_for
from pdn.engine.errors import NotReplayedError
from pdn.engine.geometry import Notation
from pdn.engine.position import side_name
from pdn.engine.resolve import resolve
from pdn.game.numbering import Numbering
from pdn.pdnfile.writer import moves_in_notation
from pdn.views.gameview import game_tag, game_title
from pdn.views.svgboard import Arrow, Diagram, definitions

if TYPE_CHECKING:
    from pdn.arbiter.replay import Replay
    from pdn.batch.parallel import GameReport
    from pdn.engine.geometry import Board
    from pdn.engine.movegen import Move
    from pdn.engine.position import Position
    from pdn.game.record import Game, GameNode

#: Cards drawn per finding code by default; the rest are counted.
MAX_CARDS = 500
#: Plies shown before and after the faulty one.
CONTEXT_PLIES = 5
#: Legal alternatives named on a card, and drawn as arrows when there are at most this many.
MAX_ALTERNATIVES = 12
MAX_ALTERNATIVE_ARROWS = 4
OPEN = ' open=""'
#: Width of a card's board in CSS pixels, whatever the board's size.
BOARD_PIXELS = 300
#: Files named in the summary's by-file table, at most.
SUMMARY_FILES = 30
#: Codes whose card shows the board after the ply (where a rule expired, the final position).
AFTER_CODES = frozenset({"move-limit", "repetition", "result"})
SEVERITIES = ("error", "warning", "info")
_SQUARE_SEPARATORS = re.compile(r"[-x:]")
#: Header-level codes whose card shows the game's start (fen) or final (result) position.
HEADER_BOARD_CODES = frozenset({"fen", "result"})


def text(value: object) -> str:
    """Escape file text for HTML (control characters first, ``printable``); ``://`` becomes
    ``:&#47;&#47;`` so nothing reads as a network address (the page must not refer to the
    network, even in quoted tag values)."""
    return html.escape(printable(str(value))).replace("://", ":&#47;&#47;")


@dataclass
class _Counts:
    """Counts for the summary: games, plies, findings by severity, code, file and variant."""

    games: int = 0
    plies: int = 0
    by_severity: Counter[str] = field(default_factory=Counter)
    by_code: Counter[tuple[str, str]] = field(default_factory=Counter)
    by_file: Counter[str] = field(default_factory=Counter)
    games_by_file: Counter[str] = field(default_factory=Counter)
    games_by_variant: Counter[str] = field(default_factory=Counter)
    findings_by_variant: Counter[str] = field(default_factory=Counter)


@dataclass
class _GameSection:
    """The drawn part of one game: its heading, its cards (HTML) and its move list."""

    ordinal: int
    worst: int
    html: str


class ReportPage:
    """The page being built; see the module docstring for the two passes."""

    def __init__(
        self,
        *,
        max_cards: int = MAX_CARDS,
        rules: str | None = None,
        title: str = "pdn report",
    ) -> None:
        self.max_cards = max_cards
        self.rules = rules
        self.title = title
        self.counts = _Counts()
        self.unreadable: list[tuple[str, str]] = []
        self.files: dict[str, int] = {}  # file name -> index, in input order
        self.carded: dict[str, dict[int, list[Finding]]] = {}  # file -> game -> findings
        self.cards_by_code: Counter[str] = Counter()  # the cap counts a code's severities together
        self.drawn: Counter[tuple[str, str]] = Counter()  # (code, severity) -> cards
        self.sections: dict[str, list[_GameSection]] = {}
        self.boards: set[tuple[Board, Notation, bool]] = set()
        self.card_count = 0

    # -- pass 1 -----------------------------------------------------------------------------
    def count(self, report: GameReport, findings: Sequence[Finding]) -> None:
        """Count one game's (selected) findings and keep those that get a card. O(findings)."""
        counts = self.counts
        name = report.file or "<stdin>"
        self.files.setdefault(name, len(self.files))
        counts.games += 1
        counts.plies += report.plies
        counts.games_by_file[name] += 1
        counts.games_by_variant[report.variant] += 1
        for finding in findings:
            severity = finding.severity or "error"
            counts.by_severity[severity] += 1
            counts.by_code[finding.code, severity] += 1
            counts.by_file[name] += 1
            counts.findings_by_variant[report.variant] += 1
            if self.cards_by_code[finding.code] < self.max_cards:
                self.cards_by_code[finding.code] += 1
                self.drawn[finding.code, severity] += 1
                self.carded.setdefault(name, {}).setdefault(report.game, []).append(finding)

    def unreadable_path(self, path: str, message: str) -> None:
        """A path that could not be read: named at the top of the page."""
        self.unreadable.append((path, message))

    def wanted(self, file: str) -> set[int]:
        """Ordinals of the games of ``file`` that have cards (pass 2 reads only those)."""
        return set(self.carded.get(file, {}))

    # -- pass 2 -----------------------------------------------------------------------------
    def add_game(self, file: str, game: Game, replayed: Replay) -> None:
        """Draw the cards of one game (read again and replayed once). O(cards + moves)."""
        findings = self.carded.get(file, {}).get(game.source.game, [])
        if not findings:
            return
        drawer = _GameCards(self, self.files[file], game, replayed)
        ordered = sorted(
            findings,
            key=lambda f: (-SEVERITY_RANK[f.severity or "error"], f.ply or 0, f.line or 0),
        )
        cards = [drawer.card(index, finding) for index, finding in enumerate(ordered)]
        worst = max(SEVERITY_RANK[f.severity or "error"] for f in findings)
        self.card_count += len(cards)
        section = drawer.section("".join(cards))
        self.sections.setdefault(file, []).append(_GameSection(game.source.game, worst, section))

    # -- the page ---------------------------------------------------------------------------
    def html(self) -> str:
        """The whole page as one string."""
        boards = sorted(self.boards, key=repr)
        parts = [
            (
                '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"/>'
                '<meta name="viewport" content="width=device-width, initial-scale=1"/>'
                f"<title>{text(self.title)}</title><style>{_CSS}</style></head><body>"
            ),
            definitions(boards, xmlns=False),
            f"<header><h1>{text(self.title)}</h1>{self._totals()}</header>",
            self._filters() if self.card_count else "",
            self._summary(),
            '<main id="cards">',
        ]
        # files with errors first, then in input order; in each, games with errors first
        drawn = sorted(
            (file for file in self.files if file in self.sections),
            key=lambda file: (-max(s.worst for s in self.sections[file]), self.files[file]),
        )
        for file in drawn:
            index, sections = self.files[file], self.sections[file]
            sections.sort(key=lambda s: (-s.worst, s.ordinal))
            parts.append(
                f'<section class="file" data-file="{index}" id="file-{index}">'
                f"<h2>{text(file)}</h2>{''.join(s.html for s in sections)}</section>"
            )
        if not self.card_count:
            clean = "No findings: every game replayed without a problem."
            if sum(self.counts.by_severity.values()):
                clean = "No cards: --max-cards 0 (the summary counts every finding)."
            parts.append(f'<p class="clean">{clean}</p>')
        parts.append(f"</main><script>//<![CDATA[{_SCRIPT}//]]></script></body></html>\n")
        return "".join(parts)

    def _totals(self) -> str:
        counts = self.counts
        total = sum(counts.by_severity.values())
        severities = ", ".join(
            f'<span class="sev-{name}">{counts.by_severity[name]} {name}</span>'
            for name in SEVERITIES
            if counts.by_severity[name]
        )
        line = (
            f'<p class="totals">{len(self.files)} file(s), {counts.games} games, '
            f"{counts.plies} plies replayed, <b>{total}</b> findings"
            + (f" ({severities})" if severities else "")
            + f"; {self.card_count} drawn as cards.</p>"
        )
        for path, message in self.unreadable:
            line += f'<p class="unreadable">Could not read {text(path)}: {text(message)}</p>'
        return line

    def _filters(self) -> str:
        """Checkboxes and a file choice; hidden until the script shows them (no JS: no use)."""
        severities = "".join(
            _checkbox("severity", name) for name in SEVERITIES if self.counts.by_severity[name]
        )
        codes = "".join(_checkbox("code", code) for code in CODES if self.cards_by_code[code])
        files = "".join(
            f'<option value="{index}">{text(name)}</option>'
            for name, index in self.files.items()
            if name in self.sections
        )
        return (
            '<nav id="filters" hidden=""><fieldset><legend>Severity</legend>'
            f"{severities}</fieldset><fieldset><legend>Code</legend>{codes}</fieldset>"
            '<fieldset><legend>File</legend><select name="file">'
            f'<option value="">all files</option>{files}</select></fieldset>'
            '<p id="shown"></p></nav>'
        )

    def _summary(self) -> str:
        counts = self.counts
        severity_rows = [
            (f'<span class="sev-{name}">{name}</span>', counts.by_severity[name], "")
            for name in SEVERITIES
            if counts.by_severity[name]
        ]
        code_rows = []
        for (code, severity), number in sorted(
            counts.by_code.items(), key=lambda item: (-SEVERITY_RANK[item[0][1]], -item[1])
        ):
            drawn = self.drawn[code, severity]
            note = f"{drawn} drawn" + (
                f", {number - drawn} more not drawn (--max-cards {self.max_cards})"
                if number > drawn
                else ""
            )
            code_rows.append(
                (
                    f'<code>{code}</code> <span class="sev-{severity}">{severity}</span>',
                    number,
                    note,
                )
            )
        variant_rows = [
            (text(name), counts.findings_by_variant[name], f"{games} games")
            for name, games in counts.games_by_variant.most_common()
        ]
        folder = common_folder(list(self.files))
        file_rows: list[tuple[str, int | None, str]] = [
            (
                _file_link(self, name, os.path.relpath(name, folder) if folder else name),
                counts.by_file[name],
                f"{counts.games_by_file[name]} games",
            )
            for name, _ in sorted(
                self.files.items(), key=lambda item: (-counts.by_file[item[0]], item[1])
            )[:SUMMARY_FILES]
        ]
        hidden = len(self.files) - SUMMARY_FILES
        if hidden > 0:
            file_rows.append((f"… {hidden} more files", None, ""))
        return (
            '<section id="summary"><h2>Summary</h2><div class="tables">'
            + _bar_table("Findings by severity", severity_rows)
            + _bar_table("Findings by code", code_rows)
            + _bar_table("Findings by variant", variant_rows)
            + _bar_table(
                f"Findings by file{' (in ' + text(folder) + ')' if folder else ''}", file_rows
            )
            + "</div></section>"
        )


def _checkbox(name: str, value: str) -> str:
    return (
        f'<label><input type="checkbox" name="{name}" value="{value}" checked=""/> {value}</label>'
    )


def _at_ply(ply: int) -> str:
    return "at the start" if ply == 0 else f"after ply {ply}"


def _file_link(page: ReportPage, name: str, shown: str) -> str:
    if name in page.sections:
        return f'<a href="#file-{page.files[name]}">{text(shown)}</a>'
    return text(shown)


def _bar_table(title: str, rows: Sequence[tuple[str, int | None, str]]) -> str:
    """A table whose count column has an inline SVG bar, scaled to the largest count (a row
    without a count, such as "… 5 more files", has neither)."""
    if not rows:
        return ""
    largest = max(count or 0 for _, count, _ in rows) or 1
    body = []
    for label, count, note in rows:
        bar = ""
        if count is not None:
            width = round(156 * count / largest) + 1 if count else 0
            bar = (
                f'<svg class="bar" width="160" height="12" viewBox="0 0 160 12" role="img" '
                f'aria-label="{count}"><rect width="{width}" height="12" rx="2"/></svg>'
            )
        body.append(
            f'<tr><td>{label}</td><td class="n">{"" if count is None else count}</td>'
            f'<td>{bar}</td><td class="note">{note}</td></tr>'
        )
    return f"<table><caption>{title}</caption>{''.join(body)}</table>"


class _GameCards:
    """Draws the cards of one replayed game."""

    def __init__(self, page: ReportPage, file_index: int, game: Game, replayed: Replay) -> None:
        self.page = page
        self.file_index = file_index
        self.game = game
        self.replay = replayed
        self.variant = replayed.variant
        self.board = replayed.variant.board
        self.notation = replayed.variant.default_notation
        self.anchor = f"g{file_index}-{game.source.game}"
        self.nodes: dict[tuple[int, int], GameNode] = {}
        for node in game.walk():
            self.nodes.setdefault((node.line, node.column), node)
        self.mainline = list(game.mainline())
        self.mainline_nodes = set(self.mainline)
        self.numbering = Numbering.of_game(game, self.variant.first_mover)
        # a rotated dialect's squares (playstrategy English) renamed onto the board drawn
        self.texts = (
            moves_in_notation(game, replayed, self.notation, full=False, board_squares=True)
            if replayed.dialect.rotated
            else {}
        )
        self.card_ids: dict[int, str] = {}  # main-line ply -> first card about it

        self.moves_shown = False  # a card shows a board: the full move list starts open

    # -- one card ---------------------------------------------------------------------------
    def card(self, index: int, finding: Finding) -> str:
        severity = finding.severity or "error"
        card_id = f"{self.anchor}-{index}"
        node = self._node(finding)
        where = [f"line {finding.line}" if finding.line else ""]
        if finding.ply is not None:
            where.append(f"ply {finding.ply}")
        if finding.move:
            where.append(f"<b>{text(finding.move)}</b>")
            renamed = self.texts.get(node) if node is not None else None
            if renamed and renamed != finding.move:
                where.append(f"{text(renamed)} on the board drawn")
        # a FEN or a result about a game without moves: its (start) position is the point
        positions = self.replay.positions
        whole = node is None and finding.code in HEADER_BOARD_CODES and bool(positions)
        head = (
            f'<div class="card c-{severity}{"" if node or whole else " compact"}" id="{card_id}" '
            f'data-severity="{severity}" data-code="{finding.code}" data-file="{self.file_index}">'
            f'<div class="head"><span class="badge {severity}">{severity}</span> '
            f'<code>{finding.code}</code> <span class="where">'
            f"{' · '.join(part for part in where if part)}</span></div>"
            f'<p class="message">{text(finding.message)}</p>'
        )
        if whole:
            shown = positions[0] if finding.code == "fen" else positions[-1]
            caption = "the start position" if finding.code == "fen" else "the final position"
            caption += f" · {side_name(shown.turn)} to move"
            return head + self._figure(shown, [], caption) + "</div>"
        if node is None or finding.ply is None:  # about the header or the whole game
            return head + "</div>"
        self.moves_shown = True
        if node in self.mainline_nodes:
            self.card_ids.setdefault(finding.ply, card_id)
        return (
            head
            + self._board_part(finding, node)
            + self._context(node, finding.ply)
            + f'<p class="links"><a href="#{self.anchor}-moves">full move list</a></p></div>'
        )

    def _node(self, finding: Finding) -> GameNode | None:
        if finding.ply is None or finding.line is None or finding.column is None:
            return None
        return self.nodes.get((finding.line, finding.column))

    def _board_part(self, finding: Finding, node: GameNode) -> str:
        """The board (before the move, or after it for draw rules and results) and, for
        irregular moves, the legal alternatives."""
        played = self.replay.played.get(node)
        try:
            before = self.replay.position_before(node)
        except NotReplayedError as error:
            return f'<p class="note">No board: {text(error)}.</p>'
        written = self.replay.dialect.move_text((node.move_text or "").strip(), self.board)
        fault = (finding.severity or "error") == "error"
        move_arrow = (
            Arrow.from_move(played.move, "fault" if fault else "move")
            if played is not None
            else self._written_arrow(written)
        )
        label = self._move_label(node, finding.ply or 0)
        if finding.code in AFTER_CODES and played is not None:
            after = played.after
            caption = f"after {label} · {side_name(after.turn)} to move"
            extra = self._draw_count(finding, node) if finding.code != "result" else ""
            return self._figure(after, [Arrow.from_move(played.move)], caption) + extra
        arrows = [move_arrow] if move_arrow is not None else []
        extra = ""
        if finding.code in IRREGULAR_CODES or finding.code == "ambiguous-move":
            alternatives = self._alternatives(before, written, finding.code)
            if alternatives:
                words = [self._notation(move) for move in alternatives]
                shown = ", ".join(text(word) for word in words[:MAX_ALTERNATIVES])
                more = len(words) - MAX_ALTERNATIVES
                what = "It fits" if finding.code == "ambiguous-move" else "Legal moves here"
                extra = (
                    f'<p class="alternatives">{what}: <b>{shown}</b>'
                    + (f" … {more} more" if more > 0 else "")
                    + "</p>"
                )
                if len(alternatives) <= MAX_ALTERNATIVE_ARROWS:
                    arrows = [Arrow.from_move(m, "alternative") for m in alternatives] + arrows
        caption = f"before {label} · {side_name(before.turn)} to move"
        return self._figure(before, arrows, caption) + extra

    def _written_arrow(self, written: str) -> Arrow | None:
        """The squares the text names, as a fault arrow (when no piece movement was applied)."""
        squares = []
        for part in _SQUARE_SEPARATORS.split(written):
            try:
                squares.append(self.board.parse_square(part))
            except ValueError:
                return None
        return Arrow(tuple(squares), (), "fault") if len(squares) >= 2 else None

    def _alternatives(self, before: Position, written: str, code: str) -> list[Move]:
        candidates = list(resolve(before, written).candidates)
        return candidates or ([] if code == "ambiguous-move" else before.legal_moves)

    def _notation(self, move: Move) -> str:
        return move.notation(self.board, self.notation, full=move.is_capture)

    def _figure(self, position: Position, arrows: list[Arrow], caption: str) -> str:
        """The board with ``arrows``; the ends of the move the card is about (the last arrow,
        not an alternative) tinted."""
        ends = [(a.path[0], a.path[-1]) for a in arrows if a.kind != "alternative"][-1:]
        highlight = [square for pair in ends for square in pair]
        diagram = Diagram.of(position, notation=self.notation, arrows=arrows, highlight=highlight)

        self.page.boards.add((self.board, self.notation, False))
        return (
            f"<figure>{diagram.svg(defs=False, xmlns=False, scale=BOARD_PIXELS / diagram.width)}"
            f"<figcaption>{text(caption)}</figcaption></figure>"
        )

    def _move_label(self, node: GameNode, ply: int) -> str:
        number, first = self.numbering.at(ply)
        return f"{number}{'.' if first else '...'} {self._word(node)}"

    def _word(self, node: GameNode) -> str:
        """The move as written, or named on the board drawn (a rotated dialect's squares)."""
        return self.texts.get(node, node.move_text or "")

    def _plies(self, nodes: Sequence[GameNode], first: int) -> list[int]:
        """The ply of each node of a run along one line: the replay's (the parts of a capture
        written jump by jump share one), else one more than the node before."""
        plies: list[int] = []
        for node in nodes:
            played = self.replay.played.get(node)

            plies.append(played.ply if played is not None else (plies[-1] + 1 if plies else first))
        return plies

    def _tokens(
        self,
        nodes: Sequence[GameNode],
        plies: Sequence[int],
        *,
        mark: GameNode | None = None,
        links: bool = False,
    ) -> list[str]:
        """Moves with their numbers (a number where a ply starts), ``mark`` highlighted, and
        with ``links`` each ply that has a card linked to it."""
        tokens: list[str] = []
        for index, (node, ply) in enumerate(zip(nodes, plies, strict=True)):
            word, prefix = text(self._word(node)), ""
            if index == 0 or ply != plies[index - 1]:
                number, first = self.numbering.at(ply)
                prefix = f"{number}. " if first else (f"{number}… " if index == 0 else "")
                card = self.card_ids.get(ply) if links else None
                word = f'<a href="#{card}">{word}</a>' if card else word
            tokens.append(prefix + (f"<mark>{word}</mark>" if node is mark else word))
        return tokens

    # -- the count behind a draw rule --------------------------------------------------------
    def _draw_count(self, finding: Finding, node: GameNode) -> str:
        """Where the count that expired started: the plies of a repetition, the quiet plies,
        or the ending's start (main line only; recounted from the start position)."""
        ply = finding.ply or 0
        positions, moves = self.replay.positions, self.replay.moves
        if node not in self.mainline_nodes or not 1 <= ply < len(positions):
            return ""
        if any(nodes[0].setup for nodes in self.replay.mainline_plies[:ply]):
            return ""  # a setup inside the line restarts the count: not recounted here
        profile = profile_for(self.variant, self.page.rules)
        tracker = DrawTracker.start(profile, positions[0])
        events = []
        for step in range(1, ply + 1):
            events = tracker.push(positions[step], moves[step - 1])
        lines = []
        for event in events:
            if event.kind == "repetition":
                key = positions[ply].key()
                seen = [_at_ply(p) for p in range(ply) if positions[p].key() == key]
                lines.append(f"the same position {', '.join(seen)} and again after ply {ply}")
            elif any(rule.name == event.rule for rule in profile.quiet):
                lines.append(
                    f"rule {event.rule}: {tracker.quiet_plies} plies in a row without a capture "
                    f"or a man move ({event.summary})"
                )
            elif tracker.ending is not None:
                ending = tracker.ending
                lines.append(
                    f"rule {event.rule}: counted {_at_ply(ending.start_ply)}, "
                    f"{ply - ending.start_ply} plies since, {ending.strong_moves} moves by "
                    f"{side_name(ending.strong_side)} ({event.summary})"
                )
        return "".join(f'<p class="count">{text(line)}</p>' for line in lines)

    # -- moves -------------------------------------------------------------------------------
    def _context(self, node: GameNode, ply: int) -> str:
        """Up to ``CONTEXT_PLIES`` moves before and after ``node`` along its line."""
        before: list[GameNode] = []
        walker = node.parent
        while walker is not None and walker.move_text is not None and len(before) < CONTEXT_PLIES:
            before.append(walker)
            walker = walker.parent
        before.reverse()
        after: list[GameNode] = []
        following = node.next()
        while following is not None and len(after) < CONTEXT_PLIES:
            after.append(following)
            following = following.next()
        line = [*before, node, *after]
        tokens = self._tokens(line, self._plies(line, ply - len(before)), mark=node)
        lead = "… " if walker is not None and walker.move_text is not None else ""
        tail = " …" if following is not None else ""
        return f'<p class="context">{lead}{" ".join(tokens)}{tail}</p>'

    def section(self, cards: str) -> str:
        """The game's heading, its cards and its full main line (finding plies linked)."""
        game = self.game
        facts: list[str] = []
        for name in ("Event", "Site", "Date", "Round"):
            value = game_tag(game, name)
            if value and value not in facts:
                facts.append(f"round {value}" if name == "Round" else value)
        facts.append(self.variant.name)
        if self.texts:
            facts.append(f"{self.replay.dialect.name} squares named on the board drawn")
        facts.append(f"line {game.source.line}")
        result = game.result or game_tag(game, "Result") or "*"
        heading = (
            f"<h3>Game {game.source.game}: {text(game_title(game))} "
            f'<span class="result">{text(result)}</span></h3>'
            f'<p class="facts">{text(" · ".join(facts))}</p>'
        )

        plies = self._plies(self.mainline, 1)
        tokens = self._tokens(self.mainline, plies, links=True)
        if game.result:
            tokens.append(text(game.result))
        moves = (
            f'<details class="moves" id="{self.anchor}-moves"{OPEN if self.moves_shown else ""}>'
            "<summary>Full move list "
            f"({len(set(plies))} plies)</summary><p>{' '.join(tokens)}</p></details>"
        )
        return f'<article class="game" id="{self.anchor}">{heading}{cards}{moves}</article>'


_CSS = """
[hidden]{display:none!important}
body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1100px;padding:0 16px 40px;
color:#222;background:#fbfaf7}
h1{font-size:1.6em;margin:.6em 0 .2em}h2{border-bottom:2px solid #b58863;padding-bottom:2px}
h3{margin:.2em 0;font-size:1.1em}
.sev-error,.badge.error{color:#b00020}.sev-warning,.badge.warning{color:#8a5a00}
.sev-info,.badge.info{color:#1f5f8b}
.badge{font-weight:700;text-transform:uppercase;font-size:.8em;letter-spacing:.04em}
#filters{position:sticky;top:0;background:#fbfaf7;border-bottom:1px solid #ddd;padding:6px 0;
display:flex;flex-wrap:wrap;gap:8px;z-index:1}
#filters fieldset{border:1px solid #ccc;border-radius:4px;padding:2px 8px;margin:0}
#filters label{margin-right:8px;white-space:nowrap}#filters select{max-width:40ch}
#shown{margin:0;align-self:center;color:#555}
.tables{display:flex;flex-wrap:wrap;gap:12px 28px;align-items:flex-start}
table{border-collapse:collapse}caption{text-align:left;font-weight:700;padding:4px 0}
td{padding:1px 8px 1px 0;vertical-align:middle}
td.n{text-align:right;font-variant-numeric:tabular-nums}
td.note{color:#666;font-size:.9em;white-space:nowrap}
svg.bar rect{fill:#b58863}
.game{background:#fff;border:1px solid #e2dccf;border-radius:6px;padding:10px 14px;margin:14px 0}
.facts{margin:0 0 6px;color:#555;font-size:.9em}.result{color:#555;font-weight:400}
.card{border-left:5px solid #1f5f8b;background:#f7f5f0;border-radius:4px;padding:8px 12px;
margin:10px 0}
.card.c-error{border-left-color:#b00020}.card.c-warning{border-left-color:#d69a00}
.card .head code{font-size:1em;color:#222}.where{color:#555;margin-left:6px}
.card p{margin:4px 0}.message{font-weight:500}
.card.compact{padding:4px 12px}.card.compact .head,.card.compact .message{display:inline}
.card.compact .message{margin-left:10px;font-weight:400}

.card figure{float:left;margin:4px 16px 4px 0}.card figcaption{text-align:center;
font-size:.85em;color:#444}
.card::after{content:"";display:block;clear:both}
.context{font-family:ui-monospace,monospace;font-size:.92em}
mark{background:#ffd54f;padding:0 2px;border-radius:2px}
.alternatives b{font-weight:600;font-family:ui-monospace,monospace}
.count{color:#6a1b9a}.links{font-size:.9em}
details.moves p{font-family:ui-monospace,monospace;font-size:.9em;line-height:1.6}
details.moves a{background:#ffd54f;color:#000;padding:0 2px;border-radius:2px}
.unreadable{color:#b00020}
"""

_SCRIPT = """
(function(){
var nav=document.getElementById('filters');nav.hidden=false;
function on(name){var s=new Set();nav.querySelectorAll('input[name='+name+']:checked')
.forEach(function(i){s.add(i.value)});return s}
function apply(){var sev=on('severity'),code=on('code'),file=nav.querySelector('select').value,n=0;
document.querySelectorAll('.card').forEach(function(c){var show=sev.has(c.dataset.severity)&&
code.has(c.dataset.code)&&(file===''||c.dataset.file===file);c.hidden=!show;if(show)n++});
document.querySelectorAll('.game,.file').forEach(function(g){
g.hidden=!g.querySelector('.card:not([hidden])')});
document.getElementById('shown').textContent=n+' cards shown'}
nav.addEventListener('change',apply);apply()})();
"""
