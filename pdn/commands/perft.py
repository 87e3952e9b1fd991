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

from pdn.commands import arguments
from pdn.errors import FenError
from pdn.exitcodes import EXIT_OK, EXIT_USAGE
from pdn.movegen import MAX_PERFT_DEPTH, perft
from pdn.position import Position
from pdn.variants import Variant

EXAMPLES = """\
examples:
  pdn perft --variant international --depth 6
  pdn perft --variant russian --depth 8 --keep-duplicates
  pdn perft --variant international --fen "W:WK38:B18,19,32,33" --depth 1 --format json

'drop' (default) counts unique moves, identified by (from, to, set of captured squares);
--keep-duplicates counts every capture path (e.g. a king's loop taken both ways round).
"""


def add_position_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``--variant V`` (required) and ``--fen FEN`` options."""
    arguments.add_variant(parser, "rule set", required=True)
    parser.add_argument(
        "--fen",
        metavar="FEN",
        help="start position as a PDN FEN, e.g. 'W:W31,32,K45:B1,2' (default: initial)",
    )


def load_position(args: argparse.Namespace) -> Position | None:
    """The position named by ``--variant``/``--fen``; on bad input print why to stderr, None."""
    variant = Variant.from_name(args.variant)
    if args.fen is None:
        return Position.initial(variant)
    try:
        position = Position.from_fen(args.fen, variant)
    except (FenError, ValueError) as error:
        print(f"pdn {args.verb}: bad FEN {args.fen!r}: {error}", file=sys.stderr)
        return None
    problems = position.problems()
    if problems:
        reasons = "; ".join(problems)
        print(f"pdn {args.verb}: FEN {args.fen!r} is impossible: {reasons}", file=sys.stderr)
        return None
    return position


def add_parser(subparsers: Any) -> None:
    """Register `pdn perft`."""
    parser = arguments.add_verb(
        subparsers,
        "perft",
        run,
        summary="count positions d plies deep (rules-engine check)",
        description=(
            "Count the leaf positions 1..D plies deep from a position (no draw rules applied),\n"
            "to compare the rules engine with published perft tables."
        ),
        examples=EXAMPLES,
    )
    add_position_arguments(parser)
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
    position = load_position(args)
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
