"""JSON move objects: the lines of a game tree as lists of move objects (schema:
docs/json-schema.md), as Python objects (``moves_to_json``) or straight as JSON text
(``moves_json_text``, the same text ``json.dumps`` writes of them, without making them: what
``pdn convert --to json`` writes). Both are ``Game.accept`` visitors; ``pdn.pdnfile.writer`` puts
them in the game's object. Compiled in the compiled build. O(nodes).
"""

from __future__ import annotations

import json
from json.encoder import encode_basestring
from typing import TYPE_CHECKING, Any

from pdn.game.visitor import GameVisitor

if TYPE_CHECKING:
    from pdn.game.numbering import MoveNumber
    from pdn.game.record import GameNode


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

    numbered = False  # the numbers are the ones written

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


#: A bare move object's text up to its ``variations`` array, opened (``%s``: each value's
#: JSON).
_BARE_MOVE_OPENING = (
    '{"move": %s, "number": %s, "strength": %s, "nags": [], "comments_before": [], '
    '"comments_after": [], "commands": [], "setup": %s, "line": %s, "column": %s, '
    '"variations": ['
)


def _text(value: str | None) -> str:
    """A string or null as JSON (``ensure_ascii=False``)."""
    return "null" if value is None else encode_basestring(value)


def _node_opening(node: GameNode) -> str:
    """``_node_json(node)`` as ``json.dumps(..., ensure_ascii=False)`` writes it, up to its
    ``variations`` array, opened: a bare move (most of a record) from
    ``_BARE_MOVE_OPENING``, an annotated one through ``_node_json`` itself."""
    if node.has_annotations():
        return json.dumps(_node_json(node), ensure_ascii=False)[: -len("]}")]
    line, column = node.place()
    return _BARE_MOVE_OPENING % (
        _text(node.move_text),
        _text(node.move_number),
        _text(node.strength),
        _text(node.setup),
        str(line) if line else "null",
        str(column) if column else "null",
    )


class _MovesJsonText(GameVisitor[str]):
    """``moves_to_json``'s lists as JSON text, written in the walk's order: a move object
    stays open until its line goes on or ends, since its side lines come after it."""

    numbered = False  # the numbers are the ones written

    def __init__(self) -> None:
        self.parts: list[str] = ["["]
        # per enclosing line, innermost last: whether its last move object is still open,
        # and how many side lines that move has had
        self.open: list[bool] = [False]
        self.alternatives: list[int] = [0]

    def visit_move(self, node: GameNode, ply: int, number: MoveNumber) -> None:
        parts = self.parts
        if self.open[-1]:
            parts.append("]}, ")  # the line goes on: the last move is done
        parts.append(_node_opening(node))
        self.open[-1] = True
        self.alternatives[-1] = 0

    def begin_variation(self, node: GameNode) -> None:
        self.parts.append(", [" if self.alternatives[-1] else "[")  # in the move it replaces
        self.alternatives[-1] += 1
        self.open.append(False)
        self.alternatives.append(0)

    def end_variation(self, node: GameNode) -> None:
        self.alternatives.pop()
        self.parts.append("]}]" if self.open.pop() else "]")

    def end_game(self) -> str:
        self.parts.append("]}]" if self.open[-1] else "]")
        return "".join(self.parts)


def moves_json_text(start: GameNode) -> str:
    """``json.dumps(moves_to_json(start), ensure_ascii=False)``, written without making the
    move objects (a fifth of the work for a record of bare moves). Iterative, O(nodes)."""
    return start.accept(_MovesJsonText())
