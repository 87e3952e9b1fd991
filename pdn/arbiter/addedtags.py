"""``convert --add-tags PlyCount,FinalFEN,HashCode``: tags computed from one replay.

``added_tags(game, names)`` sets each named tag on ``game`` (the first tag of that name, any
case, gets the new value; else the tag is added at the end): ``PlyCount`` the plies of the
main line as written; ``FinalFEN`` the position after its last move, in the variant's
notation, only when the whole main line replays (a tag must not state a position that was
not reached); ``HashCode`` 16 hex digits of a BLAKE2b digest of the variant, the start
position and every main-line move's full path, so two records of the same game, however
spelt, share it. Cost: one replay (``pdn.arbiter.replay.replay``), O(plies) more.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from pdn.arbiter.replay import Replay, replay
from pdn.engine.geometry import Notation
from pdn.engine.zobrist import position_key
from pdn.game.record import Game

#: The tags ``added_tags`` computes.
ADDABLE = ("PlyCount", "FinalFEN", "HashCode")


def added_tags(
    game: Game,
    names: Iterable[str],
    *,
    variant: str | None = None,
    notation: Notation | None = None,
) -> Game:
    """Set the tags ``names`` (of ``ADDABLE``, any case) on ``game``; returns it. ``variant``
    is for a game without a usable GameType, ``notation`` that of FinalFEN (default: the
    variant's). ``ValueError`` for an unknown name."""
    wanted = addable(names)
    if not wanted:
        return game
    played = replay(game, variant=variant)
    written = sum(1 for _ in game.mainline())
    replayed_nodes = sum(len(nodes) for nodes in played.mainline_plies)
    values: dict[str, str | None] = {
        "PlyCount": str(len(played.mainline_plies) + written - replayed_nodes),
        "FinalFEN": played.positions[-1].fen(notation)
        if played.positions and played.stopped is None
        else None,
        "HashCode": _hash_code(played) if played.positions else None,
    }
    for name in wanted:
        value = values[name]
        if value is not None:
            _set_tag(game, name, value)
    return game


def addable(names: Iterable[str]) -> list[str]:
    """``names`` spelt as in ``ADDABLE`` (any case given); ``ValueError`` naming any other."""
    canonical = {name.casefold(): name for name in ADDABLE}
    listed = list(names)
    unknown = [name for name in listed if name.casefold() not in canonical]
    if unknown:
        raise ValueError(f"cannot add {', '.join(unknown)}: known: {', '.join(ADDABLE)}")
    return [canonical[name.casefold()] for name in listed]


def _hash_code(played: Replay) -> str:
    variant = played.variant
    board, notation = variant.board, variant.default_notation
    paths = [
        move.notation(board, notation, full=True, separator=variant.capture_separator)
        for move in played.moves
    ]
    if played.stopped is not None:
        paths.append("?")  # a line that stops is not the game that goes on
    body = "\n".join((variant.name, str(position_key(played.positions[0])), *paths))
    return hashlib.blake2b(body.encode("utf-8"), digest_size=8).hexdigest()


def _set_tag(game: Game, name: str, value: str) -> None:
    """The first tag called ``name`` (any case) gets ``value``; else it is appended."""
    for index, (existing, _) in enumerate(game.tags):
        if existing.casefold() == name.casefold():
            game.tags[index] = (existing, value)
            return
    game.tags.append((name, value))
