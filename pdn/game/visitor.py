"""``GameVisitor``: what ``Game.accept`` calls while it walks a game (the one walk of the tree).

Writers of the tree (PDN text, JSON, the move list) subclass it; ``pdn.game.record`` calls it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Generic, TypeVar

if TYPE_CHECKING:
    from pdn.game.numbering import MoveNumber
    from pdn.game.record import Game, GameNode

R = TypeVar("R")


class GameVisitor(Generic[R]):
    """What ``Game.accept`` calls while it walks a game (python-chess's ``BaseVisitor``).

    Order: ``begin_game``; then every move in PDN text order: a move, then the side lines
    that replace it (each ``begin_variation(first node)``, its moves, ``end_variation``),
    then the main line goes on; then ``visit_result``; ``end_game()`` is what ``accept``
    returns. ``visit_move`` gets the node (its comments, NAGs, strength, setup), its ply from
    the root and its ``MoveNumber`` (from ``accept``'s ``numbering``, restarted at setups).
    Every method does nothing by default.

    ``numbered``: whether ``visit_move`` reads its ``number``. A visitor that does not (a
    writer keeping the numbers as written) sets it False, and the walk then numbers no ply:
    ``number`` is ``UNNUMBERED`` (move 0).
    """

    numbered: bool = True

    def begin_game(self, game: Game) -> None:
        """Before the first move; the root's own comments, NAGs and setup are on ``game``."""

    def visit_move(self, node: GameNode, ply: int, number: MoveNumber) -> None:
        """One move of the tree, in text order."""

    def begin_variation(self, node: GameNode) -> None:
        """A side line starts; ``node`` is its first move (visited next)."""

    def end_variation(self, node: GameNode) -> None:
        """The side line that started with ``node`` ended."""

    def visit_result(self, result: str | None) -> None:
        """The game's terminator as written (``None`` when missing)."""

    def end_game(self) -> R:
        """What ``accept`` returns."""
        return None  # type: ignore[return-value]
