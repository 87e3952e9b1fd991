"""`pdn moves`: the legal moves of a position, each in full-path notation."""

from __future__ import annotations

import argparse
import json
from typing import Any

from pdn.cli import arguments
from pdn.cli.exitcodes import EXIT_OK, EXIT_USAGE
from pdn.engine.movegen import Move, legal_moves
from pdn.engine.resolve import full_path
from pdn.engine.variants import Variant

EXAMPLES = """\
examples:
  pdn moves --variant international
  pdn moves --variant international --fen "W:WK47:B14,19,29,31,42" --format json
  pdn moves --variant russian --fen "W:WKd2:Bf6,c5,e5,e3"

Squares are written in the variant's own notation (numbers, or algebraic for Russian,
Brazilian, ...); in JSON numeric squares are numbers and algebraic squares strings.
"""


def add_parser(subparsers: Any, summary: str) -> None:
    """Register `pdn moves`."""
    parser = arguments.add_verb(
        subparsers,
        "moves",
        run,
        summary=summary,
        description="List the legal moves of a position, each in full-path notation.",
        examples=EXAMPLES,
    )
    arguments.add_position_arguments(parser)
    parser.add_argument(
        "--keep-duplicates",
        action="store_true",
        help="list every capture path, not only unique moves",
    )
    arguments.add_format(parser, ("text", "json"), "one move a line (default) or a JSON list")


def move_to_json(move: Move, variant: Variant) -> dict[str, Any]:
    """The DESIGN.md object ``{"move", "from", "to", "captures"}`` for one move."""
    board, notation = variant.board, variant.default_notation

    def square(number: int) -> int | str:
        return number if notation == "numeric" else board.format_square(number, notation)

    return {
        "move": full_path(move, variant),
        "from": square(move.from_square),
        "to": square(move.to_square),
        "captures": [square(captured) for captured in move.captures],
    }


def run(args: argparse.Namespace) -> int:
    """Print the legal moves; exit 2 on a bad variant or FEN."""
    position = arguments.load_position(args)
    if position is None:
        return EXIT_USAGE
    variant = position.variant
    moves = legal_moves(position, keep_duplicates=args.keep_duplicates)
    if args.format == "json":
        print(json.dumps([move_to_json(move, variant) for move in moves]))
    else:
        for move in moves:
            print(full_path(move, variant))
    return EXIT_OK
