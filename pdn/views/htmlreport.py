"""The audit as one self-contained HTML page that leads with what is wrong.

:class:`ReportPage` is built in two passes, as ``pdn report`` runs it:

1. :meth:`ReportPage.count` takes every game's audit (``pdn.batch.parallel`` reports, any number of
   workers, in file order): it counts findings for the summary and the index, folds the ``info``
   notes as ``pdn check`` does (``pdn.arbiter.textreport``: one line per message with its games)
   and keeps the candidates for cards: every error, at most ``max_cards`` per code and severity
   of the others (``info`` only when ``verbose``). :meth:`ReportPage.choose` then spends the card
   budget ``max_cards`` by severity: errors are always drawn, warnings share what is left
   (each code its fair part), then info notes. Memory: the candidates and the folded notes.
2. :meth:`ReportPage.add_game` takes each game that has cards, read again and replayed once
   (``pdn.arbiter.replay.replay``), and draws its cards: the game's header line, the message, the
   board before the move with the written move as an arrow (captured pieces crossed), the legal
   alternatives of an irregular move, the board where a draw rule expired with the count that
   led there, the moves around the ply with the faulty one marked, and the full move list;
   and the game's viewer (``pdn.views.viewer``, its findings marked) kept in an inert
   ``<template>``: only games with cards are embedded, and the page shows one viewer at a time,
   in a dialog that a card's "open" button fills and opens at the card's ply.

:meth:`ReportPage.html` assembles the page: totals that say what was left out, a sticky bar
(filters with counts, previous/next error buttons and the ``n``/``p`` keys), the summary tables
(a "by code" row filters the cards), an index of files (natural order, named relative to their
common folder) and of their games with cards, the cards (files and games with errors first), then
the folded notes. Each card carries ``data-severity``, ``data-code``, ``data-file`` (the name
shown), ``data-game`` and ``data-ply`` (when it is about a ply). While the viewer is open its
keys (arrows, Home, End, f) are its own and ``n``/``p`` do nothing; Escape closes it, back
on the card. Every text from a file is escaped
(``pdn.views.markup.text``), boards are inline SVG (``pdn.views.svgboard``) sharing one set of
definitions, and the page refers to nothing outside itself: ``://`` in file text is written with
an entity, so the page holds no ``http://`` at all. Without JavaScript every card shows (the bar
and the "open" buttons stay hidden). Cost: O(findings) to count, one replay per game with cards,
O(page) to write; the page grows by each carded game's viewer (about 200 bytes a ply).
"""

from __future__ import annotations

import io
import os
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pdn.arbiter.textreport import MessageGroup, TextReport, game_ranges
from pdn.base.findings import CODES, IRREGULAR_CODES, SEVERITY_RANK, Finding
from pdn.base.paths import common_folder
from pdn.engine.drawrules import DrawTracker, profile_for
from pdn.engine.errors import NotReplayedError
from pdn.engine.geometry import Notation
from pdn.engine.position import side_name
from pdn.engine.resolve import resolve
from pdn.game.numbering import Numbering
from pdn.pdnfile.writer import moves_in_notation
from pdn.views.gameview import game_tag, game_title
from pdn.views.markup import text
from pdn.views.svgboard import Arrow, Diagram, definitions
from pdn.views.viewer import game_data, viewer_assets, viewer_element

if TYPE_CHECKING:
    from pdn.arbiter.replay import Replay
    from pdn.batch.parallel import GameReport
    from pdn.engine.geometry import Board
    from pdn.engine.movegen import Move
    from pdn.engine.position import Position
    from pdn.game.record import Game, GameNode

#: Cards drawn in all by default (errors always drawn, even beyond it); the rest are counted.
MAX_CARDS = 500
#: Plies shown before and after the faulty one.
CONTEXT_PLIES = 5
#: Legal alternatives named on a card, and drawn as arrows when there are at most this many.
MAX_ALTERNATIVES = 12
MAX_ALTERNATIVE_ARROWS = 4
OPEN = ' open=""'
#: Width of a card's board in CSS pixels, whatever the board's size.
BOARD_PIXELS = 300
#: The index of files starts open up to this many files.
INDEX_OPEN_FILES = 12
#: Codes whose card shows the board after the ply (where a rule expired, the final position).
AFTER_CODES = frozenset({"move-limit", "repetition", "result"})
SEVERITIES = ("error", "warning", "info")
#: How a count of each severity reads: "1 error", "2 warnings", "3 info notes".
SEVERITY_WORDS = {
    "error": ("error", "errors"),
    "warning": ("warning", "warnings"),
    "info": ("info note", "info notes"),
}
_SQUARE_SEPARATORS = re.compile(r"[-x:]")
_DIGITS = re.compile(r"(\d+)")
#: Header-level codes whose card shows the game's start (fen) or final (result) position.
HEADER_BOARD_CODES = frozenset({"fen", "result"})


def plural(count: int, one: str, many: str | None = None) -> str:
    """``1 game``, ``2 games`` (``many`` for an irregular plural: ``1 ply``, ``2 plies``)."""
    return f"{count} {one if count == 1 else many or one + 's'}"


def severity_count(count: int, severity: str) -> str:
    """``1 error``, ``19 errors``, ``2683 info notes``."""
    return plural(count, *SEVERITY_WORDS[severity])


def natural_key(name: str) -> tuple[str | int, ...]:
    """Sort key that reads digit runs as numbers: ``draw9`` before ``draw10``, any case. O(len)."""
    parts = _DIGITS.split(name)  # text, digits, text, ...: the odd parts are the numbers
    return tuple(int(part) if index % 2 else part.casefold() for index, part in enumerate(parts))


def share(budget: int, wanted: Mapping[str, int]) -> dict[str, int]:
    """Split ``budget`` cards among codes: the smallest wants first, each at most an equal part
    of what is left, so no code takes every card while another gets none. O(codes log codes)."""
    given: dict[str, int] = {}
    pending = sorted(wanted.items(), key=lambda item: (item[1], item[0]))
    for index, (code, count) in enumerate(pending):
        given[code] = min(count, budget // (len(pending) - index))
        budget -= given[code]
    return given


@dataclass
class _Counts:
    """Counts for the summary: games, plies, findings by severity, code, file and variant."""

    games: int = 0
    plies: int = 0
    by_severity: Counter[str] = field(default_factory=Counter)
    by_code: Counter[tuple[str, str]] = field(default_factory=Counter)
    by_file: Counter[tuple[str, str]] = field(default_factory=Counter)  # (file, severity)
    games_by_file: Counter[str] = field(default_factory=Counter)
    games_by_variant: Counter[str] = field(default_factory=Counter)
    findings_by_variant: Counter[str] = field(default_factory=Counter)


@dataclass
class _GameSection:
    """The drawn part of one game: its heading, its cards (HTML) and its move list."""

    ordinal: int
    worst: int
    html: str
    by_severity: Counter[str]
    title: str
    viewer: str


class _FoldedNotes(TextReport):
    """``pdn check``'s folding of one file's findings (``TextReport``), kept per file for the
    page instead of written."""

    def __init__(self) -> None:
        super().__init__(io.StringIO(), verbose=True)
        self.by_file: dict[str, list[MessageGroup]] = {}

    def flush(self) -> None:
        if self.groups:
            self.by_file.setdefault(self.file or "<stdin>", []).extend(self.groups.values())
        self.groups = {}


class ReportPage:
    """The page being built; see the module docstring for the two passes."""

    def __init__(
        self,
        *,
        max_cards: int = MAX_CARDS,
        rules: str | None = None,
        title: str = "pdn report",
        verbose: bool = False,
    ) -> None:
        self.max_cards = max_cards
        self.rules = rules
        self.title = title
        self.verbose = verbose
        self.counts = _Counts()
        self.unreadable: list[tuple[str, str]] = []
        self.files: dict[str, int] = {}  # file name -> index, in input order
        self.shown: dict[str, str] = {}  # file name -> as shown (relative to ``folder``)
        self.folder = ""
        self.candidates: dict[tuple[str, str], list[tuple[str, int, Finding]]] = {}
        self.notes = _FoldedNotes()
        self.carded: dict[str, dict[int, list[Finding]]] = {}  # file -> game -> findings
        self.drawn: Counter[tuple[str, str]] = Counter()  # (code, severity) -> cards
        self.sections: dict[str, list[_GameSection]] = {}
        self.boards: set[tuple[Board, Notation, bool]] = set()
        self.card_count = 0

    # -- pass 1 -----------------------------------------------------------------------------
    def count(self, report: GameReport, findings: Sequence[Finding]) -> None:
        """Count one game's (selected) findings, fold its notes and keep its candidates for
        cards. O(findings)."""
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
            counts.by_file[name, severity] += 1
            counts.findings_by_variant[report.variant] += 1
            if severity == "info":
                self.notes.add([finding])
                if not self.verbose:
                    continue
            kept = self.candidates.setdefault((severity, finding.code), [])
            if severity == "error" or len(kept) < self.max_cards:
                kept.append((name, report.game, finding))

    def unreadable_path(self, path: str, message: str) -> None:
        """A path that could not be read: named at the top of the page."""
        self.unreadable.append((path, message))

    def choose(self) -> None:
        """End of pass 1: spend the card budget (errors always, then warnings, then info, each
        code of a severity its fair part) and name the files relative to their folder."""
        self.notes.flush()
        self.folder = common_folder(list(self.files))
        self.shown = {
            name: os.path.relpath(name, self.folder) if self.folder else name for name in self.files
        }
        budget = max(0, self.max_cards - self.counts.by_severity["error"])
        for severity in SEVERITIES:
            wanted = {
                code: len(kept)
                for (kind, code), kept in self.candidates.items()
                if kind == severity
            }
            given = wanted if severity == "error" else share(budget, wanted)
            if severity != "error":
                budget -= sum(given.values())
            for code, number in given.items():
                self.drawn[code, severity] = number
                for name, game, finding in self.candidates[severity, code][:number]:
                    self.carded.setdefault(name, {}).setdefault(game, []).append(finding)
        self.candidates.clear()

    def wanted(self, file: str) -> set[int]:
        """Ordinals of the games of ``file`` that have cards (pass 2 reads only those)."""
        return set(self.carded.get(file, {}))

    # -- pass 2 -----------------------------------------------------------------------------
    def add_game(
        self,
        file: str,
        game: Game,
        replayed: Replay,
        marked: Sequence[Finding] | None = None,
    ) -> None:
        """Draw the cards of one game (read again and replayed once) and its viewer, with
        ``marked`` (default: the replay's findings) in its move list. O(cards + moves)."""
        findings = self.carded.get(file, {}).get(game.source.game, [])
        if not findings:
            return
        drawer = _GameCards(self, file, game, replayed)
        data = game_data(game, replayed, marked)
        for flip in (False, True):
            self.boards.add((replayed.variant.board, data["notation"], flip))
        ordered = sorted(
            findings,
            key=lambda f: (-SEVERITY_RANK[f.severity or "error"], f.ply or 0, f.line or 0),
        )
        cards = [drawer.card(index, finding) for index, finding in enumerate(ordered)]
        worst = max(SEVERITY_RANK[f.severity or "error"] for f in findings)
        self.card_count += len(cards)
        section = _GameSection(
            game.source.game,
            worst,
            drawer.section("".join(cards)),
            Counter(f.severity or "error" for f in findings),
            game_title(game),
            f'<template id="{drawer.viewer_id}-t">'
            f"{viewer_element(data, 0, element_id=drawer.viewer_id, static=False)}</template>",
        )
        self.sections.setdefault(file, []).append(section)

    # -- the page ---------------------------------------------------------------------------
    def html(self) -> str:
        """The whole page as one string."""
        boards = sorted(self.boards, key=repr)
        parts = [
            (
                '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"/>'
                '<meta name="viewport" content="width=device-width, initial-scale=1"/>'
                f"<title>{text(self.title)}</title>"
                f"{viewer_assets() if self.card_count else ''}<style>{_CSS}</style></head><body>"
            ),
            definitions(boards, xmlns=False),
            f"<header><h1>{text(self.title)}</h1>{self._totals()}</header>",
            self._bar() if self.card_count else "",
            self._summary(),
            self._index(),
            '<main id="cards">',
        ]
        for file in self._drawn_files():
            index, sections = self.files[file], self.sections[file]
            parts.append(
                f'<section class="file" data-file="{text(self.shown[file])}" id="file-{index}">'
                f'<h2 class="path">{text(self.shown[file])}</h2>'
                f"{''.join(s.html for s in sections)}</section>"
                + "".join(s.viewer for s in sections)
            )
        if not self.card_count:
            clean = "No findings: every game replayed without a problem."
            if self.counts.by_severity["info"] and not self.verbose:
                clean = "No errors or warnings: the info notes are folded below (-v draws them)."
            elif sum(self.counts.by_severity.values()):
                clean = "No cards: --max-cards 0 (the summary counts every finding)."
            parts.append(f'<p class="clean">{clean}</p>')
        parts.append(f"</main>{self._notes()}")
        if self.card_count:
            parts.append(_DIALOG)
        parts.append(f"<script>//<![CDATA[{_SCRIPT}//]]></script></body></html>\n")
        return "".join(parts)

    def _drawn_files(self) -> list[str]:
        """Files with cards, the worst first, then in natural order; their games likewise."""
        for sections in self.sections.values():
            sections.sort(key=lambda s: (-s.worst, s.ordinal))
        return sorted(
            self.sections,
            key=lambda file: (-self.sections[file][0].worst, natural_key(self.shown[file])),
        )

    def _totals(self) -> str:
        counts = self.counts
        total = sum(counts.by_severity.values())
        severities = ", ".join(
            f'<span class="sev-{name}">{severity_count(counts.by_severity[name], name)}</span>'
            for name in SEVERITIES
            if counts.by_severity[name]
        )
        where = f' in <span class="path">{text(self.folder)}</span>' if self.folder else ""
        line = (
            f'<p class="totals">{plural(len(self.files), "file")}{where}, '
            f"{plural(counts.games, 'game')}, {plural(counts.plies, 'ply', 'plies')} replayed, "
            f"<b>{plural(total, 'finding')}</b>"
            + (f" ({severities})" if severities else "")
            + f"; {plural(self.card_count, 'card')} drawn.</p>"
        )
        left_out = self._left_out()
        if left_out:
            line += f'<p class="left-out">Not drawn as cards: {"; ".join(left_out)}.</p>'
        for path, message in self.unreadable:
            line += f'<p class="unreadable">Could not read {text(path)}: {text(message)}</p>'
        return line

    def _left_out(self) -> list[str]:
        """What the cap and the folding left out, by severity."""
        words = []
        for severity in ("warning", "info"):
            number = self.counts.by_severity[severity]
            drawn = sum(n for (_, kind), n in self.drawn.items() if kind == severity)
            if severity == "info" and not self.verbose and number:
                words.append(
                    f'<a href="#notes">{severity_count(number, severity)}</a>, folded below '
                    "one line per message (<code>-v</code> draws them)"
                )
            elif number > drawn:
                words.append(
                    f"{severity_count(number - drawn, severity)} of {number} "
                    f"(<code>--max-cards {self.max_cards}</code>; errors are always drawn)"
                )
        return words

    def _bar(self) -> str:
        """The sticky bar: previous/next error, filters with counts, the cards shown; hidden
        until the script shows it (without JavaScript it has no use)."""
        drawn, by_code = Counter[str](), Counter[str]()
        for (code, severity), number in self.drawn.items():
            drawn[severity] += number
            by_code[code] += number
        severities = "".join(
            _checkbox("severity", name, drawn[name]) for name in SEVERITIES if drawn[name]
        )
        codes = "".join(_checkbox("code", code, by_code[code]) for code in CODES if by_code[code])
        files = "".join(
            f'<option value="{text(self.shown[name])}">{text(self.shown[name])}</option>'
            for name in sorted(self.sections, key=lambda name: natural_key(self.shown[name]))
        )
        return (
            '<nav id="filters" hidden="" aria-label="filters and navigation">'
            '<div class="step"><button type="button" id="previous" title="previous (p)">'
            '&#9664; <u>p</u>revious</button><span id="at" aria-live="polite"></span>'
            '<button type="button" id="next" title="next (n)"><u>n</u>ext &#9654;</button></div>'
            f"<fieldset><legend>Severity</legend>{severities}</fieldset>"
            f'<details class="codes"><summary>Codes</summary><fieldset>{codes}</fieldset>'
            '</details><select name="file" aria-label="file">'
            f'<option value="">all files</option>{files}</select>'
            '<span id="shown"></span><button type="button" id="all">show all</button></nav>'
        )

    def _summary(self) -> str:
        counts = self.counts
        code_rows = []
        for (code, severity), number in sorted(
            counts.by_code.items(), key=lambda item: (-SEVERITY_RANK[item[0][1]], -item[1])
        ):
            drawn = self.drawn[code, severity]
            if severity == "info" and not self.verbose:
                note = "folded below (<code>-v</code> draws them)"
                label = f'<a href="#notes"><code>{code}</code></a>'
            else:
                note = f"{drawn} drawn" + (f", {number - drawn} not" if number > drawn else "")
                label = (
                    f'<a class="only" href="#cards" data-only-code="{code}" '
                    f'data-only-severity="{severity}"><code>{code}</code></a>'
                    if drawn
                    else f"<code>{code}</code>"
                )
            row_label = f'{label} <span class="sev-{severity}">{severity}</span>'
            code_rows.append((row_label, number, note))
        variant_rows = [
            (text(name), counts.findings_by_variant[name], plural(games, "game"))
            for name, games in counts.games_by_variant.most_common()
        ]
        return (
            '<section id="summary"><h2>Summary</h2><div class="tables">'
            + _bar_table("Findings by code (a code shows only its cards)", code_rows)
            + _bar_table("Findings by variant", variant_rows)
            + "</div></section>"
        )

    def _index(self) -> str:
        """Every file (natural order) with its games and findings by severity, and the games
        that have cards, linked."""
        if not self.files:
            return ""
        counts, items = self.counts, []
        for name in sorted(self.files, key=lambda name: natural_key(self.shown[name])):
            found = [
                f'<span class="sev-{s}">{severity_count(counts.by_file[name, s], s)}</span>'
                for s in SEVERITIES
                if counts.by_file[name, s]
            ]
            shown = text(self.shown[name])
            label = (
                f'<a href="#file-{self.files[name]}">{shown}</a>'
                if name in self.sections
                else shown
            )
            games = "".join(
                f'<li><a class="sev-{SEVERITIES[2 - s.worst]}" href="#g{self.files[name]}-'
                f'{s.ordinal}" title="{text(s.title)}">game {s.ordinal}</a> '
                f'<span class="note">{_severity_letters(s.by_severity)}</span></li>'
                for s in sorted(self.sections.get(name, []), key=lambda s: s.ordinal)
            )
            items.append(
                f'<li><span class="path">{label}</span> <span class="note">'
                f"{plural(counts.games_by_file[name], 'game')}"
                f"{': ' + ', '.join(found) if found else ', clean'}</span>"
                + (f'<ul class="games">{games}</ul>' if games else "")
                + "</li>"
            )
        opened = OPEN if len(self.files) <= INDEX_OPEN_FILES else ""
        return (
            f'<details id="index"{opened}><summary>Files and games '
            f"({plural(len(self.files), 'file')}, {plural(len(self._games_drawn()), 'game')} "
            f'with cards)</summary><ul class="files">{"".join(items)}</ul></details>'
        )

    def _games_drawn(self) -> list[_GameSection]:
        return [section for sections in self.sections.values() for section in sections]

    def _notes(self) -> str:
        """The info notes, folded as ``pdn check -v`` folds them: per file, one line per
        message with its games."""
        if not self.notes.by_file:
            return ""
        parts = []
        for file in sorted(
            self.notes.by_file, key=lambda name: natural_key(self.shown.get(name) or name)
        ):
            lines = []
            for group in self.notes.by_file[file]:
                first = group.findings[0]
                if len(group.games) > 1:
                    times = f", {group.count} times" if group.count != len(group.games) else ""
                    lines.append(_note(first, f"{game_ranges(group.games)}{times}"))
                else:
                    lines.extend(_note(f, _place(f)) for f in group.findings)
            parts.append(
                f'<h3 class="path">{text(self.shown.get(file, file))}</h3>'
                f'<ul class="notes">{"".join(lines)}</ul>'
            )
        total = self.counts.by_severity["info"]
        return (
            f'<section id="notes"><h2>Notes ({severity_count(total, "info")}, one line per '
            f"message)</h2>{''.join(parts)}</section>"
        )


def _note(finding: Finding, where: str) -> str:
    return (
        f"<li><code>{finding.code}</code> {text(finding.message)} "
        f'<span class="note">({text(where)})</span></li>'
    )


def _place(finding: Finding) -> str:
    """``game 3, ply 12, line 40`` (the parts known)."""
    parts = [
        f"game {finding.game}" if finding.game is not None else "",
        f"ply {finding.ply}" if finding.ply is not None else "",
        f"line {finding.line}" if finding.line else "",
    ]
    return ", ".join(part for part in parts if part)


def _severity_letters(by_severity: Counter[str]) -> str:
    """``2 errors, 1 warning`` of a game's cards."""
    return ", ".join(severity_count(by_severity[s], s) for s in SEVERITIES if by_severity[s])


def _checkbox(name: str, value: str, count: int) -> str:
    return (
        f'<label><input type="checkbox" name="{name}" value="{value}" checked=""/> {value} '
        f'<span class="count">{count}</span></label>'
    )


def _at_ply(ply: int) -> str:
    return "at the start" if ply == 0 else f"after ply {ply}"


def _bar_table(title: str, rows: Sequence[tuple[str, int, str]]) -> str:
    """A table whose count column has an inline SVG bar, scaled to the largest count."""
    if not rows:
        return ""
    largest = max(count for _, count, _ in rows) or 1
    body = []
    for label, count, note in rows:
        width = round(156 * count / largest) + 1 if count else 0
        bar = (
            f'<svg class="bar" width="100" height="12" viewBox="0 0 160 12" '
            f'preserveAspectRatio="none" role="img" aria-label="{count}">'
            f'<rect width="{width}" height="12" rx="2"/></svg>'
        )
        body.append(
            f'<tr><td>{label}</td><td class="n">{count}</td>'
            f'<td>{bar}</td><td class="note">{note}</td></tr>'
        )
    return f"<table><caption>{title}</caption>{''.join(body)}</table>"


class _GameCards:
    """Draws the cards of one replayed game."""

    def __init__(self, page: ReportPage, file: str, game: Game, replayed: Replay) -> None:
        self.page = page
        file_index = page.files[file]
        self.file_name = text(page.shown[file])
        self.game = game
        self.replay = replayed
        self.variant = replayed.variant
        self.board = replayed.variant.board
        self.notation = replayed.variant.default_notation
        self.anchor = f"g{file_index}-{game.source.game}"
        self.viewer_id = f"{self.anchor}-viewer"
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
        where = [f"game {self.game.source.game}", f"line {finding.line}" if finding.line else ""]
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
        ply = finding.ply
        if whole:
            ply = 0 if finding.code == "fen" else len(positions) - 1
        at = "" if ply is None else f' data-ply="{ply}"'
        opens = self._viewer_ply(node, ply)
        button = (
            f'<button type="button" class="open" data-viewer="{self.viewer_id}" '
            f'data-open-ply="{opens}" hidden="">open the game at ply {opens}</button>'
        )
        head = (
            f'<div class="card c-{severity}{"" if node or whole else " compact"}" id="{card_id}" '
            f'data-severity="{severity}" data-code="{finding.code}" data-file="{self.file_name}" '
            f'data-game="{self.game.source.game}"{at} tabindex="-1">'
            f'<div class="head"><span class="badge {severity}">{severity}</span> '
            f'<code>{finding.code}</code> <span class="where">'
            f"{' · '.join(part for part in where if part)}</span> {button}</div>"
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

    def _viewer_ply(self, node: GameNode | None, ply: int | None) -> int:
        """The main-line ply the viewer opens at for a card: its own; for a move in a
        variation, the main-line ply the variation branches from; 0 without a ply."""
        if node is None or node in self.mainline_nodes:
            return ply or 0
        while node.parent is not None and node not in self.mainline_nodes:
            node = node.parent
        played = self.replay.played.get(node)
        return played.ply if played is not None else 0

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
            f"<summary>Full move list ({plural(len(set(plies)), 'ply', 'plies')})</summary>"
            f"<p>{' '.join(tokens)}</p></details>"
        )
        return (
            f'<article class="game" id="{self.anchor}" data-file="{self.file_name}" '
            f'data-game="{game.source.game}">{heading}{cards}{moves}</article>'
        )


#: The one viewer of the page: a dialog the "open" buttons fill from a game's template.
_DIALOG = (
    '<dialog id="viewer" aria-label="game viewer"><div class="viewer-head">'
    '<button type="button" id="viewer-close">close (Esc)</button></div>'
    '<div id="viewer-body"></div></dialog>'
)

_CSS = """
[hidden]{display:none!important}
body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1100px;padding:0 16px 40px;
color:#222;background:#fbfaf7}
.path,.message,.facts,h3,.where,ul.notes li,.unreadable{overflow-wrap:anywhere}
code,td.n,.badge{white-space:nowrap}
[id]{scroll-margin-top:var(--bar,8px)}
h1{font-size:1.6em;margin:.6em 0 .2em}h2{border-bottom:2px solid #b58863;padding-bottom:2px}
h3{margin:.2em 0;font-size:1.1em}
.sev-error,.badge.error{color:#b00020}.sev-warning,.badge.warning{color:#8a5a00}
.sev-info,.badge.info{color:#1f5f8b}
.badge{font-weight:700;text-transform:uppercase;font-size:.8em;letter-spacing:.04em}
.left-out{color:#555}
#filters{position:sticky;top:0;background:#fbfaf7;border-bottom:1px solid #ddd;padding:6px 0;
display:flex;flex-wrap:wrap;gap:6px 10px;align-items:center;z-index:1}
#filters fieldset{border:1px solid #ccc;border-radius:4px;padding:2px 8px;margin:0;
min-width:0}
#filters legend{font-size:.8em;color:#555}
#filters label{margin-right:8px;white-space:nowrap;display:inline-block}
#filters select{max-width:min(24ch,40vw)}
#filters .count{color:#666;font-size:.9em}
#filters details.codes summary{cursor:pointer;padding:2px 6px;border:1px solid #ccc;
border-radius:4px}
#filters details.codes[open]{flex-basis:100%}
#filters details.codes:not([open]) fieldset{display:none}
#filters details.codes fieldset{margin-top:4px}
.step{display:flex;gap:6px;align-items:center}
#at{min-width:9ch;text-align:center;font-variant-numeric:tabular-nums}
button{font:inherit;padding:2px 8px;border:1px solid #999;border-radius:4px;background:#fff;
cursor:pointer}
#shown{color:#555}
.tables{display:flex;flex-wrap:wrap;gap:12px 28px;align-items:flex-start}
table{border-collapse:collapse;max-width:100%}caption{text-align:left;font-weight:700;
padding:4px 0}
td{padding:1px 8px 1px 0;vertical-align:middle}
td.n{text-align:right;font-variant-numeric:tabular-nums}
td.note{color:#666;font-size:.9em}
svg.bar{display:block}svg.bar rect{fill:#b58863}
#index{margin:14px 0}#index>summary{font-weight:700;font-size:1.2em;cursor:pointer}
ul.files{list-style:none;padding:0}ul.files>li{margin:6px 0}
ul.games{list-style:none;display:flex;flex-wrap:wrap;gap:2px 14px;padding:0 0 0 16px;margin:2px 0}
.note{color:#666;font-size:.9em}
.path{font-family:ui-monospace,monospace}
.game{background:#fff;border:1px solid #e2dccf;border-radius:6px;padding:10px 14px;margin:14px 0}
.facts{margin:0 0 6px;color:#555;font-size:.9em}.result{color:#555;font-weight:400}
.card{border-left:5px solid #1f5f8b;background:#f7f5f0;border-radius:4px;padding:8px 12px;
margin:10px 0}
.card.c-error{border-left-color:#b00020}.card.c-warning{border-left-color:#d69a00}
.card[aria-current]{outline:3px solid #222;outline-offset:2px}
.card:focus{outline:3px solid #222;outline-offset:2px}
.card .head code{font-size:1em;color:#222}.where{color:#555;margin-left:6px}
.card p{margin:4px 0}.message{font-weight:500}
.card.compact{padding:4px 12px}.card.compact .head,.card.compact .message{display:inline}
.card.compact .message{margin-left:10px;font-weight:400}
.card figure{float:left;margin:4px 16px 4px 0;max-width:100%}
.card figure svg{max-width:100%;height:auto}
.card figcaption{text-align:center;font-size:.85em;color:#444}
.card::after{content:"";display:block;clear:both}
.context{font-family:ui-monospace,monospace;font-size:.92em}
mark{background:#ffd54f;padding:0 2px;border-radius:2px}
.alternatives b{font-weight:600;font-family:ui-monospace,monospace}
.count{color:#6a1b9a}.links{font-size:.9em}
details.moves p{font-family:ui-monospace,monospace;font-size:.9em;line-height:1.6}
details.moves a{background:#ffd54f;color:#000;padding:0 2px;border-radius:2px}
ul.notes{padding-left:18px;font-size:.92em}ul.notes li{margin:2px 0}
.unreadable{color:#b00020}
button.open{margin-left:6px;font-size:.85em;padding:0 6px}
dialog#viewer{width:min(1100px,96vw);max-height:94vh;box-sizing:border-box;padding:8px 16px 16px;
border:1px solid #888;border-radius:6px;overflow:auto;
box-shadow:0 6px 30px rgba(0,0,0,.5)}
dialog#viewer::backdrop{background:rgba(0,0,0,.45)}
.viewer-head{display:flex;justify-content:flex-end;margin-bottom:-6px}
@media (max-width:600px){body{padding:0 8px 30px}svg.bar{width:40px}
#filters{gap:4px 6px;padding:4px 0}#filters fieldset{border:0;padding:0}
#filters legend{display:none}#filters label{margin-right:4px}#shown{font-size:.9em}
.game{padding:8px}.card{padding:6px 8px}.card figure{float:none;margin:4px 0}}
"""

_SCRIPT = """
(function(){
var nav=document.getElementById('filters');if(!nav)return;nav.hidden=false;
var cards=Array.prototype.slice.call(document.querySelectorAll('.card'));
var select=nav.querySelector('select'),current=null,RANK=['error','warning','info'];
var dialog=document.getElementById('viewer'),inside=document.getElementById('viewer-body');
var shownId='';
function boxes(name){return nav.querySelectorAll('input[name='+name+']')}
function on(name){var s=new Set();boxes(name).forEach(function(i){if(i.checked)s.add(i.value)});
return s}
function apply(){var sev=on('severity'),code=on('code'),file=select.value,n=0;
cards.forEach(function(c){var show=sev.has(c.dataset.severity)&&code.has(c.dataset.code)&&
(file===''||c.dataset.file===file);c.hidden=!show;if(show)n++});
document.querySelectorAll('.game,.file').forEach(function(g){
g.hidden=!g.querySelector('.card:not([hidden])')});
document.getElementById('shown').textContent=n+(n===1?' card':' cards')+' shown';
document.documentElement.style.setProperty('--bar',nav.offsetHeight+8+'px');step(0)}
function targets(){var shown=cards.filter(function(c){return !c.hidden});
for(var r=0;r<RANK.length;r++){var these=shown.filter(function(c){
return c.dataset.severity===RANK[r]});if(these.length)return these}return []}
function step(by){var list=targets(),next=null;
if(by>0)next=list.filter(function(c){return !current||current.compareDocumentPosition(c)&4})[0]
||list[0];
if(by<0){var before=list.filter(function(c){return !current||current.compareDocumentPosition(c)&2});
next=before[before.length-1]||list[list.length-1]}
if(next){if(current)current.removeAttribute('aria-current');current=next;
current.setAttribute('aria-current','true');current.focus({preventScroll:true});
var game=current.closest('.game');
(game&&game.querySelector('.card:not([hidden])')===current?game:current).scrollIntoView({block:'start'})}
var at=list.indexOf(current),kind=list.length?list[0].dataset.severity:'';
document.getElementById('at').textContent=!list.length?'no cards':at<0?list.length+' '+
(kind==='info'?'info notes':kind+(list.length===1?'':'s')):kind+' '+(at+1)+' of '+list.length}
function showAll(){boxes('severity').forEach(function(i){i.checked=true});
boxes('code').forEach(function(i){i.checked=true});select.value='';apply()}
nav.addEventListener('change',apply);
document.getElementById('next').addEventListener('click',function(){step(1)});
document.getElementById('previous').addEventListener('click',function(){step(-1)});
document.getElementById('all').addEventListener('click',showAll);
document.querySelectorAll('a.only').forEach(function(a){a.addEventListener('click',function(e){
e.preventDefault();boxes('severity').forEach(function(i){i.checked=i.value===a.dataset.onlySeverity});
boxes('code').forEach(function(i){i.checked=i.value===a.dataset.onlyCode});select.value='';
current=null;apply();step(1)})});
document.addEventListener('click',function(e){
var a=e.target.closest&&e.target.closest('a[href^="#"]');if(!a||a.classList.contains('only'))return;
var t=document.getElementById(a.getAttribute('href').slice(1));
if(t&&t.closest('[hidden]'))showAll()});
document.addEventListener('keydown',function(e){var t=e.target,tag=t.tagName||'';
if(dialog.open)return;
if(e.ctrlKey||e.metaKey||e.altKey||t.isContentEditable||tag==='TEXTAREA'||tag==='SELECT'||
(tag==='INPUT'&&!/^(checkbox|radio|button)$/.test(t.type)))return;
if(e.key==='n'){step(1);e.preventDefault()}else if(e.key==='p'){step(-1);e.preventDefault()}});
function openViewer(button){var t=document.getElementById(button.dataset.viewer+'-t');
if(!t||!window.PdnViewer)return;if(shownId)delete PdnViewer.viewers[shownId];
inside.textContent='';inside.appendChild(t.content.cloneNode(true));
var root=inside.querySelector('.pdn-viewer');shownId=root.id;PdnViewer.attach(root);
var card=button.closest('.card');if(current)current.removeAttribute('aria-current');current=card;
card.setAttribute('aria-current','true');step(0);dialog.showModal();
PdnViewer.open(root.id,+button.dataset.openPly)}
document.querySelectorAll('button.open').forEach(function(b){b.hidden=false;
b.addEventListener('click',function(){openViewer(b)})});
document.getElementById('viewer-close').addEventListener('click',function(){dialog.close()});
dialog.addEventListener('click',function(e){if(e.target===dialog)dialog.close()});
dialog.addEventListener('close',function(){if(current)current.focus({preventScroll:true})});
window.addEventListener('resize',function(){
document.documentElement.style.setProperty('--bar',nav.offsetHeight+8+'px')});
apply()})();
"""
