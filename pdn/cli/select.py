"""`pdn select`: the games that pass every filter, written unchanged (byte for byte).

The arguments become a ``Criteria``; ``pdn.database.selection.select`` finds the games and
``write_selected`` writes them (``--format json``: one JSON object per match).
"""

from __future__ import annotations

import argparse
import sys
from contextlib import ExitStack
from typing import Any, BinaryIO

from pdn.base.output import atomic_output
from pdn.cli import arguments
from pdn.cli.exitcodes import EXIT_OK, EXIT_USAGE

EXAMPLES = """\
examples:
  pdn select db/ --player "Sijbrands, Ton" -o ton.pdn     his games, as written
  pdn select games.pdn --date 1990..1999 --result draw    the draws of the nineties
  pdn select games.pdn --position "W:W31-50:B1-20"        games reaching a position
  pdn select games.pdn --material K3:K1 --format json     where 3 kings v 1 first stood
  pdn select games.pdn --with-findings illegal-move       games the audit faults
  pdn select db/ --clean --plies 40.. --jobs 0            clean games of 40 plies or more

names ignore case and accents; "Surname, First" matches "First Surname", and an initial
matches a name (--player "T. Sijbrands"). --result: a score (2-0, 1-0, 1-1, 1/2-1/2, 0-2),
white, black, draw or * (unknown). --material: K3:K1 three kings v one (either colour),
W12:B11 White 12 men v Black 11 men, W3K1:B4 (a number counts men, K<n> kings).
"""


def add_parser(subparsers: Any) -> None:
    """Register `pdn select`."""
    parser = arguments.add_verb(
        subparsers,
        "select",
        run,
        summary="the games that pass filters, written unchanged",
        description="Write the games that pass every filter, byte for byte as they are in "
        "the input, in input order (or, with --format json, one line per match).",
        examples=EXAMPLES,
    )
    arguments.add_inputs(parser)
    arguments.add_output(parser, "the games that pass")
    arguments.add_format(parser, ("pdn", "json"), "the games as written (default), or JSON Lines")
    arguments.add_jobs(parser)
    arguments.add_criteria_arguments(parser)


def run(args: argparse.Namespace) -> int:
    """Filter every path; write the matches; exit 0, or 2 on usage and I/O errors."""
    try:
        criteria = arguments.criteria_from(args)
    except ValueError as error:
        print(f"pdn select: {error}", file=sys.stderr)
        return EXIT_USAGE
    if arguments.overwrites_input("select", {"-o": args.output}, args.paths):
        return EXIT_USAGE
    from pdn.database.selection import select, write_selected

    unreadable = arguments.Unreadable("select")
    with ExitStack() as stack:
        try:
            text = stack.enter_context(atomic_output(args.output, newline=""))
        except OSError as error:
            print(f"pdn select: {args.output}: {error.strerror or error}", file=sys.stderr)
            return EXIT_USAGE
        out: BinaryIO = text.buffer  # type: ignore[attr-defined]  # a TextIOWrapper
        games = select(args.paths, criteria, jobs=args.jobs, on_error=unreadable)
        write_selected(games, out, form=args.format)
    return EXIT_USAGE if unreadable.failed else EXIT_OK
