"""Move numbers: the one computation of the full-move number of a ply (``Numbering``).

The writer's renumbering, the renderer's move list, the report and the audit's
``move-number`` check all number plies with it, and ``Game.accept`` hands each visited move
its ``MoveNumber``. Knows PDN's FEN side to move, lidraughts' ``:F<n>`` full-move field and
setups; nothing about the rules. O(1) per ply.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, NamedTuple

from pdn.base.pickling import by_fields
from pdn.game.tags import tag_value

if TYPE_CHECKING:
    from pdn.game.record import Game

_FEN_FULL_MOVE = re.compile(r":F([0-9]+)\b")
#: A ``/FEN "..."/`` setup without pieces (``"B::"``): a null move, that side to move.
NULL_SETUP = re.compile(r"^[WB]\s*:\s*[WB]?\s*:?\s*[WB]?\s*\.?$", re.IGNORECASE)


class MoveNumber(NamedTuple):
    """The full-move number of a ply and whether it is the first mover's half of the move
    (written ``12.``) or the second mover's (``12...``)."""

    number: int
    first: bool

    def label(self, *, resumed: bool = False) -> str | None:
        """``"12."`` for the first mover's half; ``"12..."`` for the second mover's when the
        line resumes there (after a comment, at a variation's start), else ``None``."""
        if self.first:
            return f"{self.number}."
        return f"{self.number}..." if resumed else None


#: Move numbers below this one are made once (``_MOVE_NUMBERS[2 * number + second]``).
_MADE_NUMBERS = 1000
_MOVE_NUMBERS = tuple(
    MoveNumber(number, first) for number in range(_MADE_NUMBERS) for first in (True, False)
)


#: The number a walk hands a visitor that reads none (``GameVisitor.numbered`` False).
UNNUMBERED = MoveNumber(0, True)


@dataclass(frozen=True)
class Numbering:
    """How plies get full-move numbers along a line: the position after ply ``start_ply``
    has full-move number ``start_number`` and ``start_turn`` (``"W"``/``"B"``) to move, and
    ``first_mover`` opens every move. The one move-number computation of the toolkit (the
    writer's renumbering, the renderer's move list, the audit's ``move-number`` check).

    >>> numbering = Numbering(start_number=12, start_turn="B")  # FEN "B:...:F12"
    >>> numbering.at(1), numbering.at(2)
    (MoveNumber(number=12, first=False), MoveNumber(number=13, first=True))
    """

    start_number: int = 1
    start_turn: str = "W"
    first_mover: str = "W"
    start_ply: int = 0
    #: half-moves from the first mover's move ``start_number`` to ply 0 (worked out once:
    #: every walk numbers every ply)
    _half_moves_at_0: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        offset = (self.start_turn != self.first_mover) - self.start_ply - 1
        object.__setattr__(self, "_half_moves_at_0", offset)

    @classmethod
    def of_game(cls, game: Game, first_mover: str) -> Numbering:
        """From the game's FEN tag (side to move, lidraughts' ``:F<n>`` full-move field),
        else the initial position: number 1, ``first_mover`` to move. O(len(FEN))."""
        fen = (tag_value(game.tags, "FEN") or "").strip()
        turn = fen[0].upper() if fen[:1] in ("W", "B", "w", "b") else first_mover
        return cls(_fen_full_move(fen), turn, first_mover)

    def at(self, ply: int) -> MoveNumber:
        """The number of ply ``ply`` (1-based, counted from the root). O(1); every walk asks
        it per move, hence the numbers made once."""
        half = ply + self._half_moves_at_0
        number, second = self.start_number + half // 2, half % 2
        if 0 <= number < _MADE_NUMBERS:
            return _MOVE_NUMBERS[2 * number + second]
        return MoveNumber(number, not second)

    def number_at(self, ply: int) -> int:
        """``at(ply).number`` without building the ``MoveNumber`` (the audit asks per ply)."""
        return self.start_number + (ply + self._half_moves_at_0) // 2

    def after_setup(self, ply: int, setup: str) -> Numbering:
        """The numbering after a ``/FEN "..."/`` setup met after ply ``ply``: counted from
        the setup's position (its side to move, its ``:F<n>``); a setup without pieces
        (``/FEN "B::"/``, a null move) only hands the move to that side. O(len(setup))."""
        text = setup.strip()
        turn = text[:1].upper()
        if turn not in ("W", "B"):
            return self
        if NULL_SETUP.match(text):
            # the side to move at start_ply, stepped back from ``turn`` over the plies since
            back = ply - self.start_ply
            other = "B" if turn == "W" else "W"
            return replace(self, start_turn=turn if back % 2 == 0 else other)
        return replace(self, start_number=_fen_full_move(text), start_turn=turn, start_ply=ply)

    def __reduce__(self) -> tuple[type[Any], tuple[Any, ...]]:
        return by_fields(self)  # pickle and copy through __init__


def _fen_full_move(fen: str) -> int:
    """The lidraughts full-move field ``:F<n>`` of a FEN (at least 1), else 1."""
    match = _FEN_FULL_MOVE.search(fen)
    return max(1, int(match[1])) if match else 1
