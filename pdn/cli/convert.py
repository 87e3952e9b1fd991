"""`pdn convert`: rewrite a PDN file as PDN (any notation, wrapped) or as JSON Lines.

The arguments of ``pdn.batch.converting.convert``, which does the work: games streamed one at
a time (memory flat in file size), in this process or, with ``--jobs``, on worker processes
(written in input order, the same bytes). Reading findings (syntax, encoding, tags) go to
stderr as compiler-style lines; exit 1 if any is an error, 2 on usage/I-O failure.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from pdn.arbiter.addedtags import addable
from pdn.base.findings import Finding
from pdn.batch.converting import convert
from pdn.cli import arguments
from pdn.cli.exitcodes import EXIT_FINDINGS, EXIT_OK, path_error
from pdn.game.stripping import STRIPPABLE

EXAMPLES = """\
examples:
  pdn convert games.pdn -o out.pdn                  80-column lines, the variant's result style
  pdn convert games.pdn --notation algebraic        squares as a1..h8 (stdout)
  pdn convert games.pdn --renumber                  standard move numbers
  pdn convert games.pdn --notation numeric --captures full   every capture with its path
  pdn convert games.pdn --to json > games.jsonl     one JSON object per game
  pdn convert big.pdn --notation algebraic --jobs 0 -o big-alg.pdn   on every core
  cat games.pdn | pdn convert - --variant russian   untagged games from stdin are Russian
  pdn convert games.pdn --strip comments,nags,variations   bare main lines
  pdn convert games.pdn --add-tags PlyCount,FinalFEN,HashCode   tags computed by replay
"""


def add_parser(subparsers: Any, summary: str) -> None:
    """Register ``convert`` and its options."""
    parser = arguments.add_verb(
        subparsers,
        "convert",
        run,
        summary=summary,
        description=(
            "Rewrite a PDN file: squares in numeric or algebraic notation, the variant's capture\n"
            "separator and result style, 80-column lines; or one JSON object per game per line.\n"
            "Nothing is dropped: games that do not parse are copied verbatim."
        ),
        examples=EXAMPLES,
    )
    arguments.add_input(parser, "convert writes the games of one file")
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
    parser.add_argument(
        "--strip",
        type=arguments.name_list(STRIPPABLE, "part(s) to strip"),
        default=frozenset(),
        metavar="PARTS",
        help="take out comments (and their [%%commands]), nags (and !, ?), variations "
        "(comma-separated)",
    )
    parser.add_argument(
        "--add-tags",
        type=arguments.parsed(_tag_names),
        default=[],
        metavar="TAGS",
        help="set PlyCount (main-line plies), FinalFEN (the last position, when the main line "
        "replays), HashCode (of the moves: equal for the same game however written)",
    )
    arguments.add_jobs(parser)


def run(args: argparse.Namespace) -> int:
    """Convert ``args.path`` to ``args.output`` (``pdn.batch.converting.convert``); the exit
    code per DESIGN.md (an output that is the input: ``InputOverwriteError``, one line)."""
    try:
        summary = convert(
            args.path,
            args.output,
            to=args.output_format,
            variant=args.variant,
            notation=args.notation,
            captures=args.captures,
            renumber=args.renumber,
            width=args.width,
            strip=args.strip,
            add_tags=args.add_tags,
            jobs=args.jobs,
            on_finding=_print_finding,
        )
    except BrokenPipeError:
        raise
    except OSError as error:
        return path_error("convert", error)
    return EXIT_FINDINGS if summary.errors else EXIT_OK


def _tag_names(text: str) -> list[str]:
    return addable(part.strip() for part in text.split(",") if part.strip())


def _print_finding(finding: Finding) -> None:
    print(finding.to_text(), file=sys.stderr)
