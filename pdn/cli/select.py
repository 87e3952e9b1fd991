"""`pdn select`: the games that pass every filter, written unchanged (byte for byte).

The arguments become a ``Criteria``; ``pdn.database.selection.select`` finds the games and
``write_selected`` writes them (``--format json``: one JSON object per match).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterable, Iterator
from contextlib import ExitStack
from dataclasses import replace
from typing import TYPE_CHECKING, Any, BinaryIO

from pdn.base.output import STDIO, InputOverwriteError, atomic_output
from pdn.cli import arguments
from pdn.cli.exitcodes import EXIT_OK, EXIT_USAGE

if TYPE_CHECKING:
    from pdn.database.filters import Criteria
    from pdn.database.picking import Picking
    from pdn.database.selection import Selected

EXAMPLES = """\
examples:
  pdn select db/ --player "Sijbrands, Ton" -o ton.pdn     his games, as written
  pdn select games.pdn --date 1990..1999 --result draw    the draws of the nineties
  pdn select games.pdn --position "W:W31-50:B1-20"        games reaching a position
  pdn select games.pdn --material K3:K1 --format json     where 3 kings v 1 first stood
  pdn select games.pdn --with-findings illegal-move       games the audit faults
  pdn select db/ --clean --plies 40.. --jobs 0            clean games of 40 plies or more
  pdn select db/ --tag 'Event~^World' --tag 'Result=2-0|0-2'   decided World games
  pdn select games.pdn --moves "32-28 18-23" --rest other.pdn  one opening, the rest aside
  pdn select games.pdn --games 3,10-20                     games 3 and 10 to 20, as written
  pdn select db/ --not --tag Date -o undated.pdn            the games without a Date tag
  pdn select db/ --split-by Event -o events/               one file per event in events/

names ignore case and accents; "Surname, First" matches "First Surname", and an initial
matches a name (--player "T. Sijbrands"). --result: a score (2-0, 1-0, 1-1, 1/2-1/2, 0-2),
white, black, draw or * (unknown). --material: K3:K1 three kings v one (either colour),
W12:B11 White 12 men v Black 11 men, W3K1:B4 (a number counts men, K<n> kings).
--tag: NAME=VALUE (any case; A|B for several values), NAME~REGEX (a Python regular
expression, any case), NAME!=VALUE, NAME!~REGEX, NAME>=N (<, <=, >: numbers), NAME (the tag
is there); a repeated --tag must hold too. --games numbers the games across the inputs in
order, from 1 (3,10-20,40-). --moves: the main line starts so, compared after resolving the
moves (numeric or algebraic, any capture spelling). --not inverts the whole choice.
"""


def add_parser(subparsers: Any, summary: str) -> None:
    """Register `pdn select`."""
    parser = arguments.add_verb(
        subparsers,
        "select",
        run,
        summary=summary,
        description="Write the games that pass every filter, byte for byte as they are in "
        "the input, in input order (or, with --format json, one line per match).",
        examples=EXAMPLES,
    )
    arguments.add_inputs(parser)
    arguments.add_output(parser, "the games that pass")
    arguments.add_format(parser, ("pdn", "json"), "the games as written (default), or JSON Lines")
    arguments.add_jobs(parser)
    arguments.add_criteria_arguments(parser)
    parser.add_argument(
        "--mark",
        action="store_true",
        help="add a comment after each move where --pattern or --move matched (the game is "
        "written again by pdn, in UTF-8)",
    )
    _add_choice_arguments(parser)


def _add_choice_arguments(parser: argparse.ArgumentParser) -> None:
    """``--moves``, ``--games``, ``--not``, ``--rest``, ``--split``, ``--split-by``."""
    from pdn.database.picking import game_numbers

    group = parser.add_argument_group("choosing and splitting (pgn-extract's)")
    group.add_argument(
        "--moves", metavar="MOVES", help='the main line starts with MOVES, e.g. "32-28 18-23"'
    )
    group.add_argument(
        "--games",
        type=arguments.parsed(game_numbers),
        metavar="LIST",
        help="only these game numbers, counted across the inputs from 1: 3,10-20,40-",
    )
    group.add_argument(
        "--not", action="store_true", dest="invert", help="invert: the games not chosen"
    )
    group.add_argument(
        "--rest", metavar="FILE", help="also write the games not chosen to FILE, as written"
    )
    split = group.add_mutually_exclusive_group()
    arguments.add_number(split, "--split", "write N games a file into the folder -o names")
    split.add_argument(
        "--split-by", metavar="TAG", help="write a file per value of TAG into the folder -o names"
    )


def _choice(args: argparse.Namespace, criteria: Criteria) -> tuple[Criteria, Picking]:
    """The criteria with ``--moves``, and the picking of ``--games``/``--not``; ValueError
    with the reason for moves that do not read."""
    from pdn.database.movestart import MoveStart
    from pdn.database.picking import Picking

    if args.moves is not None:
        criteria = replace(criteria, opening=MoveStart.parse(args.moves, criteria.variant))
    return criteria, Picking(args.games or (), args.invert)


def run(args: argparse.Namespace) -> int:
    """Filter every path; write the matches (and ``--rest``, or into split files); exit 0,
    or 2 on usage and I/O errors."""
    try:
        criteria, picking = _choice(args, arguments.criteria_from(args))
    except ValueError as error:
        print(f"pdn select: {error}", file=sys.stderr)
        return EXIT_USAGE
    split = args.split is not None or args.split_by is not None
    if split and (args.output == STDIO or args.format == "json"):
        print(
            "pdn select: --split and --split-by write PDN files into a folder: name it with -o",
            file=sys.stderr,
        )
        return EXIT_USAGE
    if split and os.path.exists(args.output) and not os.path.isdir(args.output):
        print(f"pdn select: -o {args.output} is a file; --split writes a folder", file=sys.stderr)
        return EXIT_USAGE
    outputs = {"--rest": args.rest, **({} if split else {"-o": args.output})}
    if arguments.overwrites_input("select", outputs, args.paths):
        return EXIT_USAGE
    from pdn.database.selection import sift, write_selected
    from pdn.database.splitting import split_games

    unreadable = arguments.Unreadable("select")
    try:
        with ExitStack() as stack:
            rest = _binary_output(stack, args.rest) if args.rest else None
            out = None if split else _binary_output(stack, args.output)
            games = sift(
                args.paths,
                criteria,
                picking=picking,
                jobs=args.jobs,
                on_error=unreadable,
                rest=rest is not None,
            )
            chosen = _set_aside(games, rest)
            if args.mark:
                chosen = _marked(chosen, criteria)
            if out is not None:
                write_selected(chosen, out, form=args.format)
            else:
                files = split_games(
                    chosen, args.output, every=args.split, by=args.split_by, inputs=args.paths
                )
                total = sum(count for _, count in files)
                print(
                    f"pdn select: {total} game(s) into {len(files)} file(s) in {args.output}",
                    file=sys.stderr,
                )
    except InputOverwriteError as error:
        print(f"pdn select: {error}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:  # the reader went away: pdn.cli.main stops quietly
        raise
    except OSError as error:
        print(f"pdn select: {error.filename}: {error.strerror or error}", file=sys.stderr)
        return EXIT_USAGE
    return EXIT_USAGE if unreadable.failed else EXIT_OK


def _binary_output(stack: ExitStack, path: str) -> BinaryIO:
    """``atomic_output(path)`` as bytes, kept open by ``stack``; ``OSError`` naming ``path``."""
    try:
        text = stack.enter_context(atomic_output(path, newline=""))
    except OSError as error:
        raise OSError(error.errno, error.strerror or str(error), path) from None
    return text.buffer  # type: ignore[attr-defined, no-any-return]  # a TextIOWrapper


def _set_aside(games: Iterable[Selected], rest: BinaryIO | None) -> Iterator[Selected]:
    """The games that passed; each other one written to ``rest`` as it goes by."""
    from pdn.database.selection import write_selected

    for game in games:
        if game.passed:
            yield game
        elif rest is not None:
            write_selected([game], rest)


def _marked(games: Iterable[Selected], criteria: Criteria) -> Iterator[Selected]:
    """``--mark``: each game with a comment at the plies its pattern or manoeuvre matched."""
    from pdn.database.marking import marked, notes_of

    for game in games:
        yield replace(game, data=marked(game.data, notes_of(criteria, game.match)))
