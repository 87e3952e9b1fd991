"""The game viewer: a game you can step through in a browser, in one self-contained HTML page.

The viewer is a board and the move list (variations, comments, NAGs and the findings of
``pdn check``, each move clickable), with ``←``/``→`` one ply, ``Home``/``End``, ``↓`` into the
next variation and ``↑`` back out of it, ``f`` to flip, and buttons that copy or download the
game's PDN. Nothing refers to the network and nothing needs building: the script and the
style are ``viewer.js`` and ``viewer.css`` beside this module (plain JavaScript, no
framework), inlined into the page. The board is drawn as ``pdn.views.svgboard`` draws it: the
empty boards and the pieces are its ``<defs>``; the script places the pieces, the last move's
arrow, its two squares lit, and the pieces it captured faded under a cross.

A page that shows games builds it from four calls:

- :func:`viewer_assets` once, in the ``<head>``: the ``<style>`` and the ``<script>``.
- :func:`viewer_definitions` once, in the ``<body>``: the boards of every game shown.
- :func:`game_data` per game: the game as the viewer needs it, a JSON-able ``dict``: one
  entry per move node (parent, ply, the side to move and a letter per square after it, the
  move's path and captures), the move list as HTML, the tags, the PDN text. Cost: O(nodes +
  board squares per replayed node) from an existing replay; about 100 bytes a ply in the
  page (the script writes each FEN from the letters, as ``Position.fen`` does).
- :func:`viewer_element` per game: the viewer opened at main-line ``ply``; its board is
  drawn in the HTML too, so the page shows it without JavaScript.

A page of many games, each viewer opened at a ply (the report instead keeps each game's
viewer in an inert ``<template>`` and shows one at a time in a dialog)::

    head = viewer_assets()
    data = [game_data(game, game.replayed()) for game in games]
    body = viewer_definitions(data) + "".join(
        viewer_element(one, ply, element_id=f"viewer-{n}", header=False)
        for n, one in enumerate(data))
    # a card links to href="#viewer-3:41"; the keys go to the viewer last clicked, else to
    # the first one on the screen

The board element (``.pv-board``) carries ``data-fen`` (the position's FEN as
``Position.fen`` writes it, in the game's notation) and ``data-ply`` (plies from the start
along the shown line), the viewer ``data-node`` (the node shown). A page opens a viewer with
a link ``#ID:PLY`` (``#ID``: its id, ``viewer_element(..., element_id=ID)``) or ``#ply=PLY``
(the first viewer), or from script with ``PdnViewer.open(ID, PLY)``; a viewer element put on
the page later (from a ``<template>``) starts with ``PdnViewer.attach(ROOT)``. Text from the file is
escaped (control characters with ``printable``, then HTML); ``://`` is written as an entity
so the page holds no network address.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Mapping, Sequence
from importlib import resources
from typing import TYPE_CHECKING, Any

from pdn.arbiter.detect import written_notation
from pdn.base.findings import SEVERITY_RANK, Finding
from pdn.engine.geometry import Notation
from pdn.engine.movegen import rules_for
from pdn.engine.variants import Variant
from pdn.game.numbering import MoveNumber
from pdn.game.visitor import GameVisitor
from pdn.pdnfile.writer import write_game
from pdn.views.gameview import NAG_SYMBOLS, game_title
from pdn.views.markup import text
from pdn.views.svgboard import Arrow, Diagram, board_key, definitions

if TYPE_CHECKING:
    from pdn.arbiter.replay import Replay
    from pdn.engine.geometry import Board
    from pdn.engine.position import Position
    from pdn.game.record import Game, GameNode

#: The viewer's board width in CSS pixels (it shrinks to fit a narrow screen).
BOARD_PIXELS = 420
#: Tags the header shows first, in this order; the others follow as written.
FIRST_TAGS = ("White", "Black", "Result", "Event", "Site", "Date", "Round")


@functools.cache
def viewer_assets() -> str:
    """The viewer's ``<style>`` and ``<script>`` (in a CDATA section, for a page that must
    also read as XML), for a page's ``<head>`` (once). The script starts every
    ``.pdn-viewer`` of the page when it has loaded. Reads two package files, once
    per process."""
    folder = resources.files("pdn.views")
    style = folder.joinpath("viewer.css").read_text(encoding="utf-8")
    script = folder.joinpath("viewer.js").read_text(encoding="utf-8")
    return f"<style>{style}</style><script>//<![CDATA[\n{script}//]]></script>"


def viewer_definitions(games: Iterable[Mapping[str, Any]]) -> str:
    """The hidden ``<defs>`` of the boards of ``games`` (``game_data`` dicts), both ways up,
    for a page's ``<body>`` (once). O(boards x squares), once per set of boards a process."""
    return _definitions(frozenset((data["variant"], data["notation"]) for data in games))


@functools.lru_cache(maxsize=64)
def _definitions(boards: frozenset[tuple[str, Notation]]) -> str:
    drawn = []
    for variant, notation in sorted(boards):
        board = Variant.from_name(variant).board
        drawn += [(board, notation, False), (board, notation, True)]
    return definitions(drawn, xmlns=False)


def game_data(
    game: Game,
    replayed: Replay,
    findings: Sequence[Finding] | None = None,
    *,
    notation: Notation | None = None,
) -> dict[str, Any]:
    """``game`` as the viewer shows it (JSON-able, see the module docstring), from its replay;
    ``findings`` (default ``replayed.findings``, what ``pdn check`` reports) are marked at
    their moves, the others above the move list. ``notation``: of the FEN and the board
    (default: as the moves are written, else the variant's). O(nodes + squares x plies)."""
    variant = replayed.variant
    notation = notation or written_notation(game) or variant.default_notation
    findings = replayed.findings if findings is None else findings
    walker = _ViewerWalk(game, replayed, notation, findings)
    moves = game.accept(walker)
    board = variant.board
    upright, flipped = Diagram(board, {}), Diagram(board, {}, flip=True)
    return {
        "variant": variant.name,
        "notation": notation,
        "title": game_title(game),
        "file": game.source.file or "",
        "game": game.source.game,
        "size": [upright.width, upright.height],
        "boards": [board_key(board, notation, False), board_key(board, notation, True)],
        "corners": [list(upright.corner(square)) for square in board.squares],
        "flipped": [list(flipped.corner(square)) for square in board.squares],
        "fenSquares": _fen_squares(board, notation),
        "nodes": walker.nodes,
        "mainline": walker.mainline,
        "movesHtml": moves,
        "headerFindingsHtml": walker.header_findings(),
        "tags": [[name, value] for name, value in game.tags],
        "pdn": write_game(game),
    }


def viewer_element(
    data: Mapping[str, Any],
    ply: int = 0,
    *,
    element_id: str = "viewer",
    header: bool = True,
    static: bool = True,
) -> str:
    """The viewer of ``data`` (``game_data``) opened at main-line ``ply`` (clamped to the
    plies replayed), as one ``<div class="pdn-viewer" id=element_id>``; ``header``: the
    players and the tags above it. With ``static`` the board at that ply is drawn in the
    HTML as well (without it the script draws it: for a ``<template>``, never shown bare).
    Needs ``viewer_assets`` and ``viewer_definitions`` once on the page. O(size of data)."""
    mainline: list[int] = data["mainline"]
    start = mainline[max(0, min(ply, len(mainline) - 1))] if mainline else -1
    node = data["nodes"][start] if start >= 0 else None
    shown = {key: value for key, value in data.items() if key not in _HTML_KEYS}
    payload = json.dumps(shown, ensure_ascii=False, separators=(",", ":"))
    # no "<" or "&" in the script: the page stays well-formed XML too (the report's is)
    payload = payload.replace("<", "\\u003c").replace("&", "\\u0026").replace("://", ":\\/\\/")
    board = _static_board(data, node) if static else ""
    where = f' data-fen="{text(_fen(data, node))}" data-ply="{node["y"]}"' if node else ""
    buttons = "".join(
        f'<button type="button" data-act="{act}" title="{title}">{label}</button>'
        for act, label, title in _BUTTONS
    )
    return (
        f'<div class="pdn-viewer" id="{text(element_id)}" tabindex="0" data-node="{start}">'
        f"{_header(data) if header else ''}"
        '<div class="pv-main"><div class="pv-left">'
        f'<div class="pv-board"{where}>{board}</div>'
        f'<div class="pv-nav">{buttons}</div>'
        '<div class="pv-status" aria-live="polite"></div></div>'
        f'<div class="pv-right">{data["headerFindingsHtml"]}'
        f'<div class="pv-moves">{data["movesHtml"]}</div>'
        '<div class="pv-tools"><button type="button" data-act="copy">Copy PDN</button>'
        '<button type="button" data-act="download">Download PDN</button>'
        '<span class="pv-said" aria-live="polite"></span></div></div></div>'
        f'<script type="application/json" class="pv-data">{payload}</script></div>'
    )


#: What ``viewer_element`` writes as HTML, not again in the element's JSON.
_HTML_KEYS = frozenset({"movesHtml", "headerFindingsHtml"})
_BUTTONS = (
    ("first", "|◀", "start (Home)"),
    ("back", "◀", "one ply back (←)"),
    ("forward", "▶", "one ply forward (→)"),
    ("last", "▶|", "end of the line (End)"),
    ("flip", "⇅", "flip the board (f)"),
)


def _header(data: Mapping[str, Any]) -> str:
    """The players as a heading, then the tags (the usual ones first) as a table."""
    tags: list[list[str]] = data["tags"]
    order = {name.lower(): index for index, name in enumerate(FIRST_TAGS)}
    shown = sorted(tags, key=lambda tag: order.get(tag[0].lower(), len(order)))
    rows = "".join(
        f"<tr><th>{text(name)}</th><td>{text(value)}</td></tr>"
        for name, value in shown
        if value.strip() not in ("", "?")
    )
    return (
        f'<header class="pv-header"><h2>{text(data["title"])}</h2>'
        f'<table class="pv-tags">{rows}</table></header>'
    )


def _static_board(data: Mapping[str, Any], node: Mapping[str, Any] | None) -> str:
    """The board at ``node`` as ``pdn.views.svgboard`` draws it (what the page shows before,
    or without, its script)."""
    variant = Variant.from_name(data["variant"])
    if node is None:
        return ""
    squares = variant.board.squares
    pieces = {
        square: letter for square, letter in zip(squares, node["b"], strict=True) if letter != "."
    }
    path = node["m"]
    arrows = [Arrow(tuple(path), tuple(node["c"]))] if path else []
    lit = [path[0], path[-1]] if path else []
    diagram = Diagram(
        variant.board, pieces, notation=data["notation"], arrows=arrows, highlight=lit
    )
    return diagram.svg(defs=False, xmlns=False, scale=BOARD_PIXELS / diagram.width)


def _fen_squares(board: Board, notation: Notation) -> list[list[Any]]:
    """Each square and its name in the order ``Position.fen`` lists pieces: by number, or by
    rank then file for algebraic notation."""
    squares = list(board.squares)
    if notation == "algebraic":
        squares.sort(key=lambda square: board.coords(square)[::-1])
    return [[square, board.format_square(square, notation)] for square in squares]


def _fen(data: Mapping[str, Any], node: Mapping[str, Any]) -> str:
    """The FEN of ``node``'s position, by ``Position.fen`` (the page's script writes the same
    from ``fenSquares``)."""
    from pdn.engine.position import Piece, Position

    squares = Variant.from_name(data["variant"]).board.squares
    pieces = {
        square: Piece(letter)
        for square, letter in zip(squares, node["b"], strict=True)
        if letter != "."
    }
    return Position.from_pieces(data["variant"], pieces, node["t"]).fen(data["notation"])


def _pieces(position: Position, bits: Sequence[int]) -> str:
    """The position as one letter per square, in square order (``bits``: each square's bit
    in the engine's layout): ``w W b B`` or ``.``. O(squares), no ``Piece`` made."""
    white, black, kings = position.white_bits, position.black_bits, position.king_bits
    letters = []
    for bit in bits:
        if white & bit:
            letters.append("W" if kings & bit else "w")
        elif black & bit:
            letters.append("B" if kings & bit else "b")
        else:
            letters.append(".")
    return "".join(letters)


def _finding_html(finding: Finding) -> str:
    severity = finding.severity or "error"
    return (
        f'<span class="pv-finding {severity}" data-severity="{severity}">'
        f"{severity}[{text(finding.code)}] {text(finding.message)}</span>"
    )


class _ViewerWalk(GameVisitor[str]):
    """``game_data``'s one walk: the node table and the move list's HTML, in text order.
    Node 0 is the start position; a joined split capture's later parts share the node of
    its first part; a move the replay did not reach has no position (``"b": null``)."""

    def __init__(
        self, game: Game, replayed: Replay, notation: Notation, findings: Sequence[Finding]
    ) -> None:
        self.replayed = replayed
        self.notation = notation
        square_of = rules_for(replayed.variant).square_of  # the engine's bit -> square
        bit_of = {square: 1 << index for index, square in enumerate(square_of) if square}
        self.bits = [bit_of[square] for square in replayed.variant.board.squares]
        start = replayed.positions[0] if replayed.positions else None
        self.nodes: list[dict[str, Any]] = [self._entry(-1, 0, start, None)]
        self.index: dict[GameNode, int] = {game: 0}
        # node of each main-line ply, filled in when the walk reaches it
        self.mainline = [0] + [-1] * len(replayed.mainline_plies)
        self.main_nodes = {nodes[0]: ply for ply, nodes in enumerate(replayed.mainline_plies, 1)}
        self.parts: list[str] = []
        self.need_number = True
        # findings at a move: by its line and column, else by its main-line ply
        places: dict[tuple[int | None, int | None], GameNode] = {
            (node.line, node.column): node for node in game.walk() if node is not game
        }
        by_ply = {ply: nodes[0] for ply, nodes in enumerate(replayed.mainline_plies, 1)}
        self.at_node: dict[GameNode, list[Finding]] = {}
        self.unplaced: list[Finding] = []
        for finding in sorted(findings, key=lambda f: -SEVERITY_RANK[f.severity or "error"]):
            node = places.get((finding.line, finding.column))
            node = node or (by_ply.get(finding.ply) if finding.ply else None)
            if node is None:
                self.unplaced.append(finding)
            else:
                self.at_node.setdefault(node, []).append(finding)

    def _entry(
        self, parent: int, ply: int, after: Position | None, arrow: Arrow | None
    ) -> dict[str, Any]:
        return {
            "p": parent,
            "y": ply,
            "t": after.turn if after is not None else None,
            "b": _pieces(after, self.bits) if after is not None else None,
            "m": list(arrow.path) if arrow else [],
            "c": list(arrow.captures) if arrow else [],
        }

    def _comments(self, comments: list[str]) -> None:
        for words in comments:
            self.parts.append(f'<span class="pv-comment">{{{text(words)}}}</span> ')
            self.need_number = True

    def visit_move(self, node: GameNode, ply: int, number: MoveNumber) -> None:
        self._comments(node.comments_before)
        parent = node.parent
        parent_index = self.index.get(parent, -1) if parent is not None else -1
        played = self.replayed.played.get(node)
        if played is not None and played.part > 1:
            index = parent_index  # a later part of a split capture: its first part's node
        else:
            index = len(self.nodes)
            if played is None:
                entry = self._entry(parent_index, node.ply(), None, None)
            else:
                entry = self._entry(
                    parent_index, played.ply, played.after, Arrow.from_move(played.move)
                )
            self.nodes.append(entry)
            if node in self.main_nodes and played is not None:
                self.mainline[self.main_nodes[node]] = index
        self.index[node] = index
        label = number.label(resumed=self.need_number)
        if label:
            self.parts.append(f'<span class="pv-number">{label}</span>&#160;')
        marks = self.at_node.get(node, [])
        kind = f" {marks[0].severity or 'error'}" if marks else ""
        unplayed = " unplayed" if played is None else ""
        nags = "".join(NAG_SYMBOLS.get(nag, f" ${nag}") for nag in node.nags)
        self.parts.append(
            f'<span class="pv-move{kind}{unplayed}" data-node="{index}">'
            f"{text(node.move_text)}{text(node.strength or '')}{text(nags)}</span> "
        )
        self.parts.extend(_finding_html(finding) + " " for finding in marks)
        self.need_number = bool(marks)
        self._comments(node.comments_after)

    def begin_variation(self, node: GameNode) -> None:
        self.parts.append('<span class="pv-variation">(')
        self.need_number = True

    def end_variation(self, node: GameNode) -> None:
        if self.parts and self.parts[-1].endswith(" "):
            self.parts[-1] = self.parts[-1][:-1]
        self.parts.append(")</span> ")
        self.need_number = True

    def visit_result(self, result: str | None) -> None:
        if result:
            self.parts.append(f'<span class="pv-result">{text(result)}</span>')

    def end_game(self) -> str:
        # the main line as far as its positions were replayed (a stopped line ends early)
        replayed = len(self.replayed.positions)
        self.mainline = [index for index in self.mainline[:replayed] if index >= 0]
        return "".join(self.parts)

    def header_findings(self) -> str:
        """The findings of no move (tags, variant, result...), above the move list; the info
        notes among them folded."""
        notes = [finding for finding in self.unplaced if finding.severity == "info"]
        faults = [finding for finding in self.unplaced if finding.severity != "info"]
        parts = [f"<li>{_finding_html(finding)}</li>" for finding in faults]
        if notes:  # folded, as pdn check hides them: a spelling's style, an inference
            items = "".join(f"<li>{_finding_html(finding)}</li>" for finding in notes)
            parts.append(
                f"<li><details><summary>{len(notes)} note{'s' if len(notes) != 1 else ''}"
                f"</summary><ul>{items}</ul></details></li>"
            )
        return f'<ul class="pv-header-findings">{"".join(parts)}</ul>' if parts else ""
