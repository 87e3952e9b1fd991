"""``--moves "32-28 18-23"``: the games whose main line starts with these moves.

The moves are read as a game's moves are (numeric or algebraic squares, ``-`` or ``x``, a
capture's path in full or short, move numbers such as ``1.`` skipped) and resolved on the
game's own start position (its FEN tag, else the variant's initial position), so a game written
in the other notation, or with its captures spelt another way, still matches: the comparison
is of the positions after each ply (``GameFacts.keys``), not of the text. Cost: the moves
resolved once per variant and start position (cached), then O(moves) per game.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pdn.database.gamefacts import GameFacts
from pdn.engine.errors import FenError
from pdn.engine.position import Position
from pdn.engine.resolve import resolve
from pdn.engine.variants import VARIANTS, Variant
from pdn.engine.zobrist import position_key

_MOVE_NUMBER = re.compile(r"^\d+\.+")


@dataclass(frozen=True)
class MoveStart:
    """The written moves a game's main line must start with."""

    moves: tuple[str, ...]
    _lines: dict[tuple[str, int], tuple[int, ...] | None] = field(
        default_factory=dict, compare=False, repr=False
    )

    @classmethod
    def parse(cls, text: str, variant: str | None = None) -> MoveStart:
        """``"1. 32-28 18-23"`` -> the two moves; ``ValueError`` when there is none, or when
        they are not legal from the initial position of ``variant`` (of any variant when
        ``None``): a typo is said, not answered with no games."""
        words = (_MOVE_NUMBER.sub("", word) for word in text.split())
        start = cls(tuple(word for word in words if word))
        if not start.moves:
            raise ValueError(f'--moves {text!r}: no moves (expected e.g. "32-28 18-23")')
        names = [variant] if variant else list(VARIANTS)
        if not any(start._line(Position.initial(Variant.from_name(name))) for name in names):
            where = f"the {variant} start" if variant else "the start of any variant"
            raise ValueError(f"--moves {text!r}: not legal from {where}")
        return start

    def starts(self, facts: GameFacts) -> bool:
        """Does the main line of ``facts`` start with the moves? O(moves), once cached."""
        cache_key = (facts.variant, facts.keys[0]) if facts.keys else None
        if cache_key is None or len(facts.keys) <= len(self.moves):
            return False
        if cache_key not in self._lines:
            self._lines[cache_key] = self._line_from(facts)
        line = self._lines[cache_key]
        return line is not None and facts.keys[1 : len(line) + 1] == line

    def _line_from(self, facts: GameFacts) -> tuple[int, ...] | None:
        """The keys after each of the moves from the game's start, or ``None``."""
        variant = Variant.from_name(facts.variant)
        fen = facts.tag("FEN")
        try:
            start = Position.from_fen(fen, variant) if fen else Position.initial(variant)
        except (FenError, ValueError):
            return None
        return self._line(start) if position_key(start) == facts.keys[0] else None

    def _line(self, position: Position) -> tuple[int, ...] | None:
        """The keys after each move played from ``position``, or ``None`` when one is not a
        legal move there (or is ambiguous)."""
        keys = []
        for text in self.moves:
            move = resolve(position, text).move
            if move is None:
                return None
            position = position.play(move)
            keys.append(position_key(position))
        return tuple(keys)
