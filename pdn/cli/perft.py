"""`pdn perft`: count the leaf positions d plies deep, to check the rules engine.

Also home of the ``--variant``/``--fen`` options shared with `pdn moves`
(:func:`add_position_arguments`, :func:`load_position`).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from pdn.cli import arguments
from pdn.cli.exitcodes import EXIT_OK, EXIT_USAGE
from pdn.engine.movegen import MAX_PERFT_DEPTH, perft

EXAMPLES = """\
examples:
  pdn perft --variant international --depth 6
  pdn perft --variant russian --depth 8 --keep-duplicates
  pdn perft --variant international --fen "W:WK38:B18,19,32,33" --depth 1 --format json

'drop' (default) counts unique moves, identified by (from, to, set of captured squares);
--keep-duplicates counts every capture path (e.g. a king's loop taken both ways round).
"""


def add_parser(subparsers: Any, summary: str) -> None:
    """Register `pdn perft`."""
    parser = arguments.add_verb(
        subparsers,
        "perft",
        run,
        summary=summary,
        description=(
            "Count the leaf positions 1..D plies deep from a position (no draw rules applied),\n"
            "to compare the rules engine with published perft tables."
        ),
        examples=EXAMPLES,
    )
    arguments.add_position_arguments(parser)
    arguments.add_number(
        parser,
        "--depth",
        f"deepest ply to count (1 to {MAX_PERFT_DEPTH})",
        maximum=MAX_PERFT_DEPTH,
        required=True,
        metavar="D",
    )
    parser.add_argument(
        "--keep-duplicates",
        action="store_true",
        help="count every capture path instead of unique moves",
    )
    arguments.add_format(parser, ("text", "json"), "text table (default) or one JSON object")


def run(args: argparse.Namespace) -> int:
    """Print the node counts; exit 2 on a bad variant or FEN."""
    position = arguments.load_position(args)
    if position is None:
        return EXIT_USAGE
    started = time.perf_counter()
    nodes = perft(position, args.depth, keep_duplicates=args.keep_duplicates)
    elapsed = time.perf_counter() - started
    if args.format == "json":
        report = {"variant": position.variant.name, "fen": position.fen(), "nodes": nodes}
        print(json.dumps(report))
    else:
        policy = "keep duplicates" if args.keep_duplicates else "drop duplicates"
        print(f"variant {position.variant.name}  ({policy})")
        print(f"fen     {position.fen()}")
        for depth, count in enumerate(nodes, start=1):
            print(f"{depth:>5} {count:>15,}")
    rate = sum(nodes) / elapsed if elapsed > 0 else 0.0
    print(
        f"pdn perft: {sum(nodes):,} nodes in {elapsed:.2f} s ({rate:,.0f} nodes/s)", file=sys.stderr
    )
    return EXIT_OK
