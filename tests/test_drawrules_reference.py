"""Property test: ``DrawTracker`` (incremental: material recounted only after a capture or a
promotion, ending rules filtered by material once) reports exactly what a straightforward
tracker reports that recounts everything at every ply, over random playouts from sparse
positions where the ending rules come into play."""

from __future__ import annotations

from dataclasses import dataclass

from conftest import budget
from hypothesis import given, settings
from hypothesis import strategies as st

from pdn.engine.drawrules import (
    DrawProfile,
    DrawTracker,
    EndingRule,
    long_diagonal,
    material_of,
    profile_for,
)
from pdn.engine.movegen import Move
from pdn.engine.position import Piece, Position
from pdn.engine.variants import VARIANTS

#: One variant per draw profile with ending rules, plus the profiles with only counts.
VARIANT_NAMES = (
    "international",
    "russian",
    "brazilian",
    "portuguese",
    "frisian",
    "turkish",
    "english",
    "italian",
)


@dataclass
class Counting:
    identity: tuple[object, ...]
    rule: EndingRule
    start_ply: int
    strong_side: str
    strong_moves: int = 0


class ReferenceTracker:
    """The draw rules counted the obvious way: every ply recounts the material, scans every
    ending rule and counts the position among all positions since the last irreversible ply."""

    def __init__(self, profile: DrawProfile, position: Position) -> None:
        self.profile, self.ply, self.quiet = profile, 0, 0
        self.history = [position.key()]
        self.expired: set[str] = set()
        self.diagonal = long_diagonal(position.variant)
        self.ending = self._match(position)

    def _match(self, position: Position) -> Counting | None:
        """A fresh count of the first ending rule that holds in ``position``."""
        material = material_of(position)
        for rule in self.profile.endings:
            for side, strong, weak in (
                ("W", material[:2], material[2:]),
                ("B", material[2:], material[:2]),
            ):
                if (strong, weak) not in rule.forces:
                    continue
                holder = side if rule.diagonal == "strong" else ("B" if side == "W" else "W")
                if rule.diagonal and not any(
                    piece.is_king and piece.colour == holder and square in self.diagonal
                    for square, piece in position.pieces()
                ):
                    continue
                identity = (rule.name, side, material if rule.exact_material else None)
                return Counting(identity, rule, self.ply, side)
        return None

    def push(self, position: Position, move: Move) -> list[tuple[str, str, int]]:
        self.ply += 1
        events: list[tuple[str, str, int]] = []

        def expire(kind: str, name: str) -> None:
            if name not in self.expired:
                self.expired.add(name)
                events.append((kind, name, self.ply))

        mover = "B" if position.turn == "W" else "W"
        piece = position.piece_at(move.to_square)
        irreversible = move.is_capture or move.promotes or (piece is not None and not piece.is_king)
        self.quiet = 0 if irreversible else self.quiet + 1
        for quiet in self.profile.quiet:
            if self.quiet >= quiet.plies:
                expire("move-limit", quiet.name)
        ending = self._match(position)
        if (
            ending is not None
            and self.ending is not None
            and ending.identity == self.ending.identity
        ):
            ending = self.ending
            if mover == ending.strong_side:
                ending.strong_moves += 1
        self.ending = ending
        if ending is not None:
            rule = ending.rule
            if rule.counted == "each":
                due = self.ply - ending.start_ply >= 2 * rule.moves
            else:
                due = ending.strong_moves >= rule.moves and mover == ending.strong_side
            if due:
                expire("move-limit", rule.name)
        if irreversible:
            self.history = []
        self.history.append(position.key())
        repetition = self.profile.repetition
        if repetition is not None and self.history.count(position.key()) >= repetition:
            expire("repetition", "repetition")
        return events


@st.composite
def sparse_positions(draw: st.DrawFn) -> Position:
    """A variant's board with 2 to 7 pieces, mostly kings, either side to move."""
    variant = VARIANTS[draw(st.sampled_from(VARIANT_NAMES))]
    squares = draw(
        st.lists(st.sampled_from(variant.board.squares), min_size=2, max_size=7, unique=True)
    )
    pieces = {
        square: Piece.of("W" if index % 2 == 0 else "B", draw(st.integers(0, 9)) < 7)
        for index, square in enumerate(squares)
    }
    return Position.from_pieces(variant, pieces, draw(st.sampled_from(("W", "B"))))


@settings(max_examples=budget(150), deadline=None)
@given(sparse_positions(), st.lists(st.integers(0, 1000), min_size=1, max_size=160))
def test_tracker_reports_what_the_reference_reports(position: Position, choices: list[int]) -> None:
    profile = profile_for(position.variant)
    tracker = DrawTracker.start(profile, position)
    reference = ReferenceTracker(profile, position)
    for choice in choices:
        moves = position.legal_moves
        if not moves:
            break
        move = moves[choice % len(moves)]
        position = position.play(move)
        events = [(event.kind, event.rule, event.ply) for event in tracker.push(position, move)]
        assert events == reference.push(position, move)
