"""Seeded random games in every variant: every move the engine plays, written in every
notation the board has (short and full path, numeric and algebraic, Russian short form),
resolves back to that very move."""

from __future__ import annotations

import random

import pytest

from pdn.engine.movegen import Move, legal_moves
from pdn.engine.position import Notation, Position
from pdn.engine.resolve import move_key, resolve
from pdn.engine.variants import VARIANTS, Variant

GAMES_PER_VARIANT = 8
MAX_PLIES = 200
ALL_NOTATIONS: tuple[Notation, ...] = ("numeric", "algebraic")


def notations(variant: Variant) -> list[Notation]:
    """The notations this board can write its squares in (the default first)."""
    found: list[Notation] = [variant.default_notation]
    for other in ALL_NOTATIONS:
        if other in found:
            continue
        try:
            variant.board.format_square(1, other)
        except ValueError:
            continue
        found.append(other)
    return found


def written_forms(move: Move, variant: Variant) -> list[tuple[str, bool]]:
    """(text, must be unique) for each way a record may write ``move``."""
    board = variant.board
    forms = []
    for notation in notations(variant):
        forms.append((move.notation(board, notation, full=True), True))
        forms.append((move.notation(board, notation, full=False), False))
    if "algebraic" in notations(variant):
        origin = board.format_square(move.from_square, "algebraic")
        target = board.format_square(move.to_square, "algebraic")
        forms.append((origin[0] + target, False))
    return forms


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_every_played_move_resolves_back_to_itself(name: str) -> None:
    variant = VARIANTS[name]
    rng = random.Random(f"playout:{name}")
    plies = captures = 0
    for _ in range(GAMES_PER_VARIANT):
        position = Position.initial(variant)
        for _ in range(MAX_PLIES):
            moves = position.legal_moves
            if not moves:
                break
            every_path = legal_moves(position, keep_duplicates=True)
            assert {move_key(move) for move in every_path} == {move_key(m) for m in moves}
            assert len({move_key(move) for move in moves}) == len(moves), "duplicate move keys"
            move = rng.choice(moves)
            captures += move.is_capture
            for text, must_be_unique in written_forms(move, variant):
                resolution = resolve(position, text)
                if must_be_unique or resolution.code is None:
                    assert resolution.code is None, (text, position.fen(), resolution.reason)
                    assert resolution.move is not None
                    assert move_key(resolution.move) == move_key(move), (text, position.fen())
                else:
                    assert resolution.code == "ambiguous-move", (text, resolution.reason)
                    keys = {move_key(candidate) for candidate in resolution.candidates}
                    assert move_key(move) in keys, (text, position.fen())
            position = position.play(move)
            plies += 1
    assert plies >= GAMES_PER_VARIANT * 10, "games ended suspiciously early"
    assert captures >= GAMES_PER_VARIANT, "random games without captures test too little"
