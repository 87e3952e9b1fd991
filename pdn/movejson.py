"""JSON move objects: the lines of a game tree as lists of move objects (``moves_to_json``,
a ``Game.accept`` visitor; schema: docs/json-schema.md). ``pdn.writer.game_to_json`` puts
them in the game's object; compiled in the compiled build. O(nodes).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pdn.visitor import GameVisitor

if TYPE_CHECKING:
    from pdn.numbering import MoveNumber
    from pdn.record import GameNode


def _node_json(node: GameNode) -> dict[str, Any]:
    nags: list[int]
    before: list[str]
    after: list[str]
    commands: list[dict[str, str]]
    if node.has_annotations():
        nags, before, after = list(node.nags), list(node.comments_before), list(node.comments_after)
        commands = [{"name": command.name, "text": command.text} for command in node.commands]
    else:  # a bare move (most of a record): no list of the node to copy
        nags, before, after, commands = [], [], [], []
    line, column = node.place()
    return {
        "move": node.move_text,
        "number": node.move_number,
        "strength": node.strength,
        "nags": nags,
        "comments_before": before,
        "comments_after": after,
        "commands": commands,
        "setup": node.setup,
        "line": line or None,
        "column": column or None,
        "variations": [],
    }


class _MovesJson(GameVisitor[list[dict[str, Any]]]):
    """The lines as lists of move objects; a side line goes into the ``variations`` of the
    move it replaces."""

    def __init__(self) -> None:
        self.moves: list[dict[str, Any]] = []
        self.lines = [self.moves]  # the enclosing lines, innermost last

    def visit_move(self, node: GameNode, ply: int, number: MoveNumber) -> None:
        self.lines[-1].append(_node_json(node))

    def begin_variation(self, node: GameNode) -> None:
        variation: list[dict[str, Any]] = []
        self.lines[-1][-1]["variations"].append(variation)  # the move it replaces
        self.lines.append(variation)

    def end_variation(self, node: GameNode) -> None:
        self.lines.pop()

    def end_game(self) -> list[dict[str, Any]]:
        return self.moves


def moves_to_json(start: GameNode) -> list[dict[str, Any]]:
    """The lines after ``start`` as a list of move objects; each object's ``variations`` holds
    the alternative lines to that move (lists of the same shape). Iterative, O(nodes)."""
    return start.accept(_MovesJson())
