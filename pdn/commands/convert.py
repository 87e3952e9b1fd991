"""`pdn convert`: rewrite a PDN file as PDN (any notation, wrapped) or as JSON Lines.

Games stream one at a time (memory flat in file size). Reading findings (syntax, encoding,
tags) go to stderr as compiler-style lines; exit 1 if any is an error, 2 on usage/I-O failure.
"""

from __future__ import annotations

import argparse
import sys
from contextlib import ExitStack
from typing import IO, Any, BinaryIO

from pdn.atomic import atomic_output
from pdn.commands import arguments
from pdn.exitcodes import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, path_error
from pdn.findings import Finding
from pdn.reader import read_games
from pdn.scan import stdin_bytes
from pdn.variants import Variant
from pdn.writer import game_to_json, json_text, variant_of, write_game

EXAMPLES = """\
examples:
  pdn convert games.pdn -o out.pdn                  80-column lines, the variant's result style
  pdn convert games.pdn --notation algebraic        squares as a1..h8 (stdout)
  pdn convert games.pdn --renumber                  standard move numbers
  pdn convert games.pdn --notation numeric --captures full   every capture with its path
  pdn convert games.pdn --to json > games.jsonl     one JSON object per game
  cat games.pdn | pdn convert - --variant russian   untagged games from stdin are Russian
"""


def add_parser(subparsers: Any) -> None:
    """Register ``convert`` and its options."""
    parser = arguments.add_verb(
        subparsers,
        "convert",
        run,
        summary="rewrite PDN as PDN (numeric/algebraic, wrapped) or JSON Lines",
        description=(
            "Rewrite a PDN file: squares in numeric or algebraic notation, the variant's capture\n"
            "separator and result style, 80-column lines; or one JSON object per game per line.\n"
            "Nothing is dropped: games that do not parse are copied verbatim."
        ),
        examples=EXAMPLES,
    )
    arguments.add_input(parser)
    arguments.add_output(parser, "output file")
    parser.add_argument(
        "--notation",
        choices=("numeric", "algebraic"),
        help="write squares in this notation (default: as written)",
    )
    parser.add_argument(
        "--captures",
        choices=("short", "full"),
        default="short",
        help="full: replay and write every capture with its whole path; "
        "short (default): from x to, the path only where ambiguous "
        "(applies when moves are rewritten, i.e. with --notation)",
    )
    parser.add_argument(
        "--to",
        choices=("pdn", "json"),
        default="pdn",
        dest="output_format",
        help="output format (json: JSON Lines, one game per line)",
    )
    arguments.add_variant(parser, "variant for games without a usable GameType")
    parser.add_argument(
        "--renumber",
        action="store_true",
        help="write standard move numbers instead of the recorded ones",
    )
    arguments.add_number(parser, "--width", "wrap move text at N columns (default 80)", default=80)


def run(args: argparse.Namespace) -> int:
    """Convert ``args.path`` to ``args.output``; the exit code per DESIGN.md."""
    override = Variant.from_name(args.variant) if args.variant else None
    if arguments.overwrites_input("convert", "-o", args.output, [args.path]):
        return EXIT_USAGE
    try:
        with ExitStack() as stack:
            source: BinaryIO = (
                stdin_bytes() if args.path == "-" else stack.enter_context(open(args.path, "rb"))
            )
            output = stack.enter_context(atomic_output(args.output))
            name = "<stdin>" if args.path == "-" else args.path
            errors = _convert(source, name, output, override, args)
    except BrokenPipeError:
        raise
    except OSError as error:
        return path_error("convert", error)
    return EXIT_FINDINGS if errors else EXIT_OK


def _convert(
    source: BinaryIO,
    name: str,
    output: IO[str],
    override: Variant | None,
    args: argparse.Namespace,
) -> bool:
    """Stream every game from ``source`` to ``output``; True when an error finding was read."""
    errors = False
    first = True
    for game in read_games(source, name=name):
        errors = _report(game.findings) or errors
        # Detected only when a conversion needs it; --variant for games without GameType.
        variant = variant_of(game, override) if override is not None else None
        if args.output_format == "json":
            output.write(json_text(game_to_json(game, variant=variant)))
            output.write("\n")
            continue
        if not first:
            output.write("\n")
        first = False
        output.write(
            write_game(
                game,
                variant=variant,
                notation=args.notation,
                captures=args.captures,
                width=args.width,
                move_numbers="renumber" if args.renumber else "keep",
                results="variant",
            )
        )
    return errors


def _report(findings: list[Finding]) -> bool:
    """Print reading findings to stderr; True when one of them is an error."""
    for finding in findings:
        print(finding.to_text(), file=sys.stderr)
    return any(finding.severity == "error" for finding in findings)
