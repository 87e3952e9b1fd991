"""Perft speed: pdn vs py-draughts on the same positions, in one run, with ratios.

Run from the repository root after ``bash benchmarks/setup-peers.sh``:

    benchmarks/.venv-peers/bin/python benchmarks/perft.py          # International d6, Brazilian d7
    benchmarks/.venv-peers/bin/python benchmarks/perft.py --quick  # d5 / d6

Both sides count leaves the same way: legal moves listed at depth D-1 (bulk counting), no draw
rules. py-draughts is driven only through its public API (``legal_moves``, ``push``, ``pop``).
Without py-draughts installed the pdn numbers are printed alone.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from pdn.movegen import perft
from pdn.position import Position
from pdn.variants import Variant

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


def timed(count: Callable[[], int]) -> tuple[int, float]:
    started = time.perf_counter()
    leaves = count()
    return leaves, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="one ply less on each position")
    args = parser.parse_args()
    try:
        import draughts  # py-draughts
    except ImportError:
        draughts = None
        print("py-draughts not installed: run benchmarks/setup-peers.sh; pdn alone below")
    print(f"{'position':<16}{'depth':>6}{'leaves':>12}{'pdn n/s':>12}{'peer n/s':>12}"
          f"{'peer/pdn':>10}")
    for name, board_class, depth, quick_depth in CASES:
        depth = quick_depth if args.quick else depth
        position = Position.initial(Variant.from_name(name))
        leaves, seconds = timed(lambda: perft(position, depth)[-1])  # noqa: B023
        pdn_rate = leaves / seconds
        peer_text, ratio_text = "-", "-"
        if draughts is not None:
            board = getattr(draughts, board_class)()
            peer_leaves, peer_seconds = timed(lambda: peer_perft(board, depth))  # noqa: B023
            if peer_leaves != leaves:
                print(f"  count differs: pdn {leaves}, py-draughts {peer_leaves}")
            peer_rate = peer_leaves / peer_seconds
            peer_text, ratio_text = f"{peer_rate:,.0f}", f"{peer_rate / pdn_rate:.1f}x"
        print(f"{name:<16}{depth:>6}{leaves:>12,}{pdn_rate:>12,.0f}{peer_text:>12}"
              f"{ratio_text:>10}")


if __name__ == "__main__":
    main()
