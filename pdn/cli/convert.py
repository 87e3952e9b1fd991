"""`pdn convert`: rewrite a PDN file as PDN (any notation, wrapped) or as JSON Lines.

Games stream one at a time (memory flat in file size), in this process or, with ``--jobs``,
in chunks on worker processes (``pdn.batch.parallel.map_paths``; written in input order, the same
bytes). Reading findings (syntax, encoding, tags) go to stderr as compiler-style lines; exit
1 if any is an error, 2 on usage/I-O failure.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from functools import partial
from typing import IO, Any, NamedTuple

from pdn.base.findings import Finding
from pdn.base.output import atomic_output
from pdn.base.paths import PathError
from pdn.batch.parallel import map_paths
from pdn.cli import arguments
from pdn.cli.exitcodes import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, path_error
from pdn.engine.geometry import Notation
from pdn.game.record import Game
from pdn.pdnfile.reader import parse_span, read_games
from pdn.pdnfile.scan import Span, stdin_bytes
from pdn.pdnfile.writer import Captures, game_json_text, variant_of, write_game

EXAMPLES = """\
examples:
  pdn convert games.pdn -o out.pdn                  80-column lines, the variant's result style
  pdn convert games.pdn --notation algebraic        squares as a1..h8 (stdout)
  pdn convert games.pdn --renumber                  standard move numbers
  pdn convert games.pdn --notation numeric --captures full   every capture with its path
  pdn convert games.pdn --to json > games.jsonl     one JSON object per game
  pdn convert big.pdn --notation algebraic --jobs 0 -o big-alg.pdn   on every core
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
    arguments.add_jobs(parser)


@dataclass(frozen=True)
class ConvertOptions:
    """How each game is written (picklable: it travels to the ``--jobs`` workers)."""

    to: str  # "pdn" or "json"
    variant: str | None  # for games without a usable GameType
    notation: Notation | None
    captures: Captures
    renumber: bool
    width: int


class Converted(NamedTuple):
    """One game converted: its reading findings and its text (PDN, or one JSON line)."""

    findings: list[Finding]
    text: str


def convert_game(game: Game, options: ConvertOptions) -> Converted:
    """``game`` written as ``options`` say. Cost: ``write_game`` or ``game_json_text``."""
    # detected only when a conversion needs it; --variant for games without GameType
    variant = variant_of(game, options.variant) if options.variant else None
    if options.to == "json":
        return Converted(game.findings, game_json_text(game, variant=variant) + "\n")
    text = write_game(
        game,
        variant=variant,
        notation=options.notation,
        captures=options.captures,
        width=options.width,
        move_numbers="renumber" if options.renumber else "keep",
        results="variant",
    )
    return Converted(game.findings, text)


def convert_spans(spans: list[Span], options: ConvertOptions) -> list[Converted]:
    """``convert_game`` over a chunk of spans (the unit of work of ``--jobs``)."""
    return [convert_game(parse_span(span), options) for span in spans]


def run(args: argparse.Namespace) -> int:
    """Convert ``args.path`` to ``args.output``; the exit code per DESIGN.md."""
    if arguments.overwrites_input("convert", "-o", args.output, [args.path]):
        return EXIT_USAGE
    options = ConvertOptions(
        args.output_format,
        args.variant,
        args.notation,
        args.captures,
        args.renumber,
        args.width,
    )
    try:
        with ExitStack() as stack:
            games: Iterator[Converted]
            if args.jobs == 1:  # streamed here; the input opened before the output exists
                path = args.path
                source = stdin_bytes() if path == "-" else stack.enter_context(open(path, "rb"))
                name = "<stdin>" if path == "-" else path
                games = (convert_game(game, options) for game in read_games(source, name=name))
            else:
                games = _converted_by_workers(args.path, options, args.jobs)
            output = stack.enter_context(atomic_output(args.output))
            errors = _write(games, output, pdn=options.to == "pdn")
    except BrokenPipeError:
        raise
    except OSError as error:
        return path_error("convert", error)
    return EXIT_FINDINGS if errors else EXIT_OK


def _converted_by_workers(path: str, options: ConvertOptions, jobs: int) -> Iterator[Converted]:
    """Every game of ``path`` converted on ``jobs`` worker processes, in input order."""
    for item in map_paths([path], partial(convert_spans, options=options), jobs=jobs):
        if isinstance(item, PathError):
            raise OSError(0, item.message, item.file)
        yield item


def _write(games: Iterator[Converted], output: IO[str], *, pdn: bool) -> bool:
    """Write every game (PDN games a blank line apart) and print its reading findings to
    stderr; True when one of them is an error."""
    errors = False
    first = True
    for converted in games:
        errors = _report(converted.findings) or errors
        if pdn and not first:
            output.write("\n")
        first = False
        output.write(converted.text)
    return errors


def _report(findings: list[Finding]) -> bool:
    """Print reading findings to stderr; True when one of them is an error."""
    for finding in findings:
        print(finding.to_text(), file=sys.stderr)
    return any(finding.severity == "error" for finding in findings)
