"""The walk of ``Game.accept``: the moves of a game tree in PDN text order, each handed to a
``GameVisitor`` with its ply and ``MoveNumber`` (the one walk of the tree; every writer and
renderer runs it). A module of its own so the compiled build compiles the loop. Iterative
(an explicit stack): 5,000-ply lines and 200-deep variations are fine. O(nodes).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pdn.game.numbering import UNNUMBERED

if TYPE_CHECKING:
    from pdn.game.numbering import Numbering
    from pdn.game.record import GameNode
    from pdn.game.visitor import GameVisitor


def mainline_nodes(start: GameNode, limit: int = -1) -> list[GameNode]:
    """The main-line nodes after ``start`` (all, or the first ``limit`` when ``limit`` >= 0):
    ``GameNode.mainline``, one loop the compiled build compiles (a compiled caller then makes
    no Python call per node). O(plies)."""
    nodes: list[GameNode] = []
    variations = start.variations
    while variations and len(nodes) != limit:
        node = variations[0]
        nodes.append(node)
        variations = node.variations
    return nodes


def walk_nodes(start: GameNode, limit: int = -1) -> list[GameNode]:
    """Every node below ``start`` (or the first ``limit`` when ``limit`` >= 0), depth-first,
    main line before side lines: ``GameNode.walk``, compiled as ``mainline_nodes``. Iterative,
    O(nodes)."""
    nodes: list[GameNode] = []
    stack = list(reversed(start.variations))
    while stack and len(nodes) != limit:
        node = stack.pop()
        nodes.append(node)
        stack.extend(reversed(node.variations))
    return nodes


def walk_lines(start: GameNode, visitor: GameVisitor[Any], numbering: Numbering) -> None:
    """Visit every move below ``start`` (``begin_variation``, ``visit_move``,
    ``end_variation``, in ``GameVisitor``'s order), numbered by ``numbering`` from
    ``start``'s ply on and restarted at every setup (``UNNUMBERED`` for a visitor that is
    not ``numbered``)."""
    numbered = visitor.numbered
    unnumbered = UNNUMBERED  # a local: the global is a dict lookup per move in compiled code
    # items: (True, node, ply, numbering) = the line after ``node``;
    # (False, node, ply, numbering) = the side line starting at ``node``, or its end
    # (``ply < 0``). ``ply`` is the ply of ``node``, ``numbering`` the one in force there.
    stack: list[tuple[bool, GameNode, int, Numbering]] = [(True, start, start.ply(), numbering)]
    while stack:
        onward, node, ply, numbering = stack.pop()
        if not onward:
            if ply < 0:
                visitor.end_variation(node)
                continue
            visitor.begin_variation(node)
            if numbered and node.setup is not None:  # a setup restarts the numbering
                numbering = numbering.after_setup(ply - 1, node.setup)
            visitor.visit_move(node, ply, numbering.at(ply) if numbered else unnumbered)
            stack.append((False, node, -1, numbering))
            stack.append((True, node, ply, numbering))
            continue
        visit_move, number_at = visitor.visit_move, numbering.at
        variations = node.variations
        while variations:  # the line's moves: the hot loop of every walk
            main = variations[0]
            ply += 1
            before = numbering
            if numbered and main.setup is not None:  # unnumbered: the setup is not read
                numbering = numbering.after_setup(ply - 1, main.setup)
                number_at = numbering.at
            visit_move(main, ply, number_at(ply) if numbered else unnumbered)
            if len(variations) > 1:
                stack.append((True, main, ply, numbering))
                stack.extend(
                    (False, alternative, ply, before) for alternative in reversed(variations[1:])
                )
                break
            variations = main.variations
