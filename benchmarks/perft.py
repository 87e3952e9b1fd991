"""Perft speed: pdn vs py-draughts on the same positions, in one run, with ratios.

Run from the repository root after ``bash benchmarks/setup-peers.sh``:

    benchmarks/.venv-peers/bin/python benchmarks/perft.py          # International d6, Brazilian d7
    benchmarks/.venv-peers/bin/python benchmarks/perft.py --quick  # d5 / d6

Three timings of the same leaf count (no draw rules):
  pdn perft  ``pdn.engine.movegen.perft`` (engine internals, last ply bulk-counted without moves);
  pdn API    pdn's public ``Position.legal_moves`` / ``play()``, moves listed at depth D-1;
  peer       py-draughts' public ``legal_moves`` / ``push`` / ``pop``, moves listed at D-1.
Ratios are peer time / pdn time (above 1: pdn is faster). Without py-draughts installed the
pdn numbers are printed alone.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from pdn.engine.movegen import perft
from pdn.engine.position import Position
from pdn.engine.variants import Variant

#: (pdn variant name, py-draughts board class name, depth, quick depth)
CASES = [("international", "StandardBoard", 6, 5), ("brazilian", "BrazilianBoard", 7, 6)]


def peer_perft(board: Any, depth: int) -> int:
    """Leaves ``depth`` plies below ``board`` with py-draughts' public legal_moves/push/pop."""
    moves = list(board.legal_moves)
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        board.push(move)
        total += peer_perft(board, depth - 1)
        board.pop()
    return total


def api_perft(position: Position, depth: int) -> int:
    """Leaves ``depth`` plies below ``position`` through pdn's public legal_moves/play."""
    moves = position.legal_moves
    if depth == 1:
        return len(moves)
    return sum(api_perft(position.play(move), depth - 1) for move in moves)


def timed(count: Callable[[], int]) -> tuple[int, float]:
    started = time.perf_counter()
    leaves = count()
    return leaves, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="one ply less on each position")
    args = parser.parse_args()
    try:
        import draughts  # py-draughts
    except ImportError:
        draughts = None
        print("py-draughts not installed: run benchmarks/setup-peers.sh; pdn alone below")
    print(
        f"{'position':<15}{'depth':>6}{'leaves':>10}{'pdn perft n/s':>15}{'pdn API n/s':>13}"
        f"{'peer n/s':>11}{'peer/perft':>12}{'peer/API':>10}"
    )
    for name, board_class, depth, quick_depth in CASES:
        depth = quick_depth if args.quick else depth
        position = Position.initial(Variant.from_name(name))
        leaves, seconds = timed(lambda: perft(position, depth)[-1])  # noqa: B023
        api_leaves, api_seconds = timed(lambda: api_perft(position, depth))  # noqa: B023
        counts = {"pdn perft": leaves, "pdn API": api_leaves}
        peer = ("-", "-", "-")
        if draughts is not None:
            board = getattr(draughts, board_class)()
            counts["py-draughts"], peer_seconds = timed(
                lambda: peer_perft(board, depth)  # noqa: B023
            )
            peer = (
                f"{counts['py-draughts'] / peer_seconds:,.0f}",
                f"{peer_seconds / seconds:.2f}x",
                f"{peer_seconds / api_seconds:.2f}x",
            )
        if len(set(counts.values())) > 1:
            print(f"  counts differ: {counts}")
        print(
            f"{name:<15}{depth:>6}{leaves:>10,}{leaves / seconds:>15,.0f}"
            f"{api_leaves / api_seconds:>13,.0f}{peer[0]:>11}{peer[1]:>12}{peer[2]:>10}"
        )


if __name__ == "__main__":
    main()
