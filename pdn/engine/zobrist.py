"""Zobrist keys: one signed 64-bit integer per position, for indexing and searching positions.

A key is the XOR of one random number per (piece kind, board bit) that is occupied, and one for
Black to move. The random numbers come from a generator seeded with the variant's name, so keys
are the same in every run, process and machine, and the same board in two variants (Russian and
Brazilian share a board) gets two keys. Keys are signed (``-2**63 .. 2**63-1``) to fit an
SQLite ``INTEGER``. Two different positions share a key with odds of about 2**-64 per pair.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache

from pdn.engine.movegen import rules_for
from pdn.engine.position import Position
from pdn.engine.variants import Variant

_KINDS = 4  # White man, White king, Black man, Black king


@cache
def _table(variant: Variant) -> tuple[tuple[tuple[int, ...], ...], int]:
    """Per kind, one 64-bit number per bit of the engine's layout; and the number for Black to
    move. The numbers are drawn per bit of ``Board``'s padded layout, as keys were first made
    (an index keeps its keys whatever layout the engine uses), and placed at each square's
    engine bit."""
    rng = random.Random(f"pdn-zobrist-1:{variant.name}")
    board = variant.board
    bits = board.playable_mask.bit_length()
    drawn = [[rng.getrandbits(64) for _ in range(bits)] for _ in range(_KINDS)]
    rules = rules_for(variant)
    index_of = rules.index_of
    kinds = []
    for numbers in drawn:
        placed = [0] * len(rules.square_of)  # one per engine bit
        for square in board.squares:
            placed[index_of[square]] = numbers[board.bit_index(square)]
        kinds.append(tuple(placed))
    return tuple(kinds), rng.getrandbits(64)


def _xor_bits(numbers: tuple[int, ...], bits: int) -> int:
    """XOR of ``numbers[i]`` for every set bit ``i`` of ``bits``. O(set bits)."""
    key = 0
    while bits:
        low = bits & -bits
        key ^= numbers[low.bit_length() - 1]
        bits ^= low
    return key


def _boards(position: Position) -> tuple[int, int, int, int]:
    """The four piece-kind bitboards of ``position`` (in ``_table`` order)."""
    kings = position.king_bits
    white, black = position.white_bits, position.black_bits
    return white & ~kings, white & kings, black & ~kings, black & kings


def _unsigned(position: Position) -> int:
    kinds, black_to_move = _table(position.variant)
    key = black_to_move if position.turn == "B" else 0
    for numbers, bits in zip(kinds, _boards(position), strict=True):
        key ^= _xor_bits(numbers, bits)
    return key


def _signed(key: int) -> int:
    return key - (1 << 64) if key >= 1 << 63 else key


def position_key(position: Position) -> int:
    """The signed 64-bit Zobrist key of ``position`` (board, pieces, side to move, variant).
    O(pieces)."""
    return _signed(_unsigned(position))


def line_keys(positions: Sequence[Position]) -> list[int]:
    """The keys of consecutive positions of one variant (a replayed line), each computed from
    the previous one by XOR of the bits that changed: O(pieces) for the first, then O(changed
    squares) per position."""
    if not positions:
        return []
    kinds, black_to_move = _table(positions[0].variant)
    key = _unsigned(positions[0])
    keys = [_signed(key)]
    before = _boards(positions[0])
    turn = positions[0].turn
    for position in positions[1:]:
        after = _boards(position)
        for numbers, old, new in zip(kinds, before, after, strict=True):
            if old != new:
                key ^= _xor_bits(numbers, old ^ new)
        if position.turn != turn:
            key ^= black_to_move
            turn = position.turn
        keys.append(_signed(key))
        before = after
    return keys
