"""What the database verbs know about one game, from one parse and one replay.

``select``, ``dedupe``, ``index`` and ``stats`` all need the same few things about a game:
where it is, its tags and result, its variant, the key of every main-line position, the moves
played, material along the line, the audit's findings. ``game_facts(span)`` computes them once
(``pdn.pdnfile.reader.parse_span`` + ``pdn.arbiter.replay.replay``) into a small picklable value, so
worker processes send back facts, not records, and no verb replays a game twice. Cost: one parse and
one replay of the game (the audit's cost), plus O(plies) for keys and material.
"""

from __future__ import annotations

from dataclasses import dataclass

from pdn.arbiter.replay import replay
from pdn.base.findings import Finding
from pdn.engine.drawrules import Material, material_of
from pdn.engine.movegen import Move
from pdn.engine.position import Position
from pdn.engine.zobrist import line_keys
from pdn.game.record import Game
from pdn.game.tags import outcome_of, tag_value
from pdn.pdnfile.reader import parse_span
from pdn.pdnfile.span import Span

#: Finding codes that make a main-line move irregular (the line does not replay legally).
MOVE_ERRORS = frozenset({"illegal-move", "missed-capture", "capture-rule", "moves-after-end"})


@dataclass(frozen=True)
class GameFacts:
    """One game as the database verbs see it.

    ``keys[p]`` is the Zobrist key of the main-line position after ply ``p`` (``keys[0]``: the
    start), ``moves[p]`` the move played from it (short notation of the variant) and
    ``paths[p]`` the same move as its full path; after a main line stops replaying (an
    unplayable move), ``paths`` goes on with the written moves, marked ``?``. ``written`` is
    the main line as written (the reader's normalised move texts), one per move node. ``material``
    lists (ply, material) each time the material changes, from ply 0. ``outcome`` is
    ``pdn.game.tags.outcome_of`` of the terminator, else of the Result tag. ``richness`` counts
    tags, comments, NAGs and variations (the copy to keep among duplicates). ``positions`` and
    ``played`` (the replayed main line's positions and moves, for patterns and manoeuvres) are
    kept only when ``game_facts(keep_line=True)``: ``()`` otherwise; ``paths`` and ``written``
    are ``()`` and ``richness`` 0 when ``game_facts(lean=True)`` (the index's facts), and
    ``moves`` holds the first ``named`` moves only with ``game_facts(named=...)``.
    """

    file: str | None
    game: int
    line: int
    start_byte: int | None
    end_byte: int | None
    tags: tuple[tuple[str, str], ...]
    variant: str
    first_mover: str
    result: str | None
    outcome: str | None
    plies: int
    keys: tuple[int, ...]
    moves: tuple[str, ...]
    paths: tuple[str, ...]
    written: tuple[str, ...]
    material: tuple[tuple[int, Material], ...]
    findings: tuple[Finding, ...]
    richness: int
    positions: tuple[Position, ...] = ()
    played: tuple[Move, ...] = ()

    def tag(self, name: str) -> str | None:
        """The first value of tag ``name`` by ``pdn.game.tags``' one lookup rule (any case, then
        its dialect names: ``Bianco`` for ``White``), or ``None``. O(tags)."""
        return tag_value(self.tags, name, aliases=True)

    @property
    def winner(self) -> str | None:
        """``"W"``/``"B"`` for a won game, ``"D"`` for a draw, ``None`` when unknown."""
        if self.outcome == "draw":
            return "D"
        if self.outcome == "first":
            return self.first_mover
        if self.outcome == "second":
            return "B" if self.first_mover == "W" else "W"
        return None

    @property
    def legal(self) -> bool:
        """Does the main line replay legally to its last written move?"""
        replayed = len(self.keys) - 1 == self.plies
        return replayed and not any(
            f.code in MOVE_ERRORS and f.severity == "error" for f in self.findings
        )


def game_facts(
    span: Span,
    variant: str | None = None,
    *,
    keep_line: bool = False,
    lean: bool = False,
    named: int | None = None,
) -> GameFacts:
    """Parse and replay ``span`` once and keep what the database verbs need. ``variant``
    names the variant of games without a usable GameType; ``keep_line`` keeps the positions
    and moves; ``lean`` skips the full paths, the written moves and ``richness`` (about a
    sixth of the cost; the index reads none of them); ``named``: ``moves`` holds only the
    first ``named`` moves (the index names the moves of its explorer's plies only). Never
    raises on bad input."""
    game = parse_span(span)
    played = replay(game, variant=variant)
    board, notation = played.variant.board, played.variant.default_notation
    separator = played.variant.capture_separator
    moves = played.moves
    replayed_nodes = sum(len(nodes) for nodes in played.mainline_plies)
    written = list(game.mainline())
    paths: list[str] = []
    if not lean:
        paths = [move.notation(board, notation, full=True, separator=separator) for move in moves]
        paths.extend(f"?{node.move_text}" for node in written[replayed_nodes:])
    material: list[tuple[int, Material]] = []
    for ply, position in enumerate(played.positions):
        counts = material_of(position)
        if not material or material[-1][1] != counts:
            material.append((ply, counts))
    terminal = outcome_of(game.result)
    tagged = tag_value(game.tags, "Result", aliases=True)
    result = game.result if terminal or tagged is None else tagged
    return GameFacts(
        file=span.source.file,
        game=span.source.game,
        line=span.source.line,
        start_byte=span.source.start_byte,
        end_byte=span.source.end_byte,
        tags=tuple(game.tags),
        variant=played.variant.name,
        first_mover=played.variant.first_mover,
        result=result,
        outcome=terminal or outcome_of(tagged),
        plies=len(played.mainline_plies) + len(written) - replayed_nodes,
        keys=tuple(line_keys(played.positions)),
        moves=tuple(move.notation(board, notation, separator=separator) for move in moves[:named]),
        paths=tuple(paths),
        written=() if lean else tuple(node.move_text or "" for node in written),
        material=tuple(material),
        findings=tuple(played.findings),
        richness=0 if lean else richness(game),
        positions=tuple(played.positions) if keep_line else (),
        played=tuple(moves) if keep_line else (),
    )


def richness(game: Game) -> int:
    """Tags + comments + NAGs + side lines of a record: how much a copy says. O(nodes)."""
    count = len(game.tags) + len(game.comments_before) + len(game.comments_after)
    for node in game.walk():
        count += len(node.comments_before) + len(node.comments_after) + len(node.nags)
        count += max(0, len(node.variations) - 1)
    return count + max(0, len(game.variations) - 1)
