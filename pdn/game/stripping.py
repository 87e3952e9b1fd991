"""``convert --strip comments,nags,variations``: a record without some of its annotations.

``strip(game, parts)`` changes ``game`` in place: ``comments`` empties every comment (before
and after moves, before the first move, and the commands such as ``[%clock]`` they hold),
``nags`` every NAG and move strength (``!``, ``?!``: the NAGs of PDN), ``variations`` keeps
the main line only. Tags, moves, move numbers and the result are kept. O(nodes), iterative.
"""

from __future__ import annotations

from collections.abc import Iterable

from pdn.game.record import Game, GameNode

#: What ``strip`` can take away.
STRIPPABLE = ("comments", "nags", "variations")


def strippable(parts: Iterable[str]) -> frozenset[str]:
    """``parts`` as a set; ``ValueError`` naming any that is not in ``STRIPPABLE``."""
    wanted = frozenset(parts)
    unknown = sorted(wanted.difference(STRIPPABLE))
    if unknown:
        raise ValueError(f"cannot strip {', '.join(unknown)}: known: {', '.join(STRIPPABLE)}")
    return wanted


def strip(game: Game, parts: Iterable[str]) -> Game:
    """Take ``parts`` (of ``STRIPPABLE``) out of ``game``; returns it. ``ValueError`` for an
    unknown part."""
    wanted = strippable(parts)
    if "variations" in wanted:
        node: GameNode = game
        while node.variations:
            del node.variations[1:]
            node = node.variations[0]
    nodes = [game, *game.walk()]
    for node in nodes:
        if "comments" in wanted:
            node.comments_before = []
            node.comments_after = []
            node.commands = []
        if "nags" in wanted:
            node.nags = []
            node.strength = None
    return game
