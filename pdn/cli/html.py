"""`pdn html`: games as web pages to publish, each a game viewer (``pdn.database.publishing``,
drawn by ``pdn.views.viewer``)."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from pdn.cli import arguments
from pdn.cli.exitcodes import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE

EXAMPLES = """\
examples:
  pdn html game.pdn -o game.html             one page (up to 20 games, a picker on top)
  pdn html tournament.pdn -o site/           a folder: index.html and one page per game
  pdn html db/ -o site --jobs 0              a folder of files, replayed on every core
  pdn html few.pdn -o pages --folder         a folder even for a few games

A folder's index lists the games with their tags; when they are a tournament's (at most 5
events of 3 players or more) it starts with the standings, as `pdn standings` computes them.

Each page needs no network and no build step: the board steps with the arrow keys
(Left/Right one ply, Home/End, Down into a variation, Up back out, f flips), every move is
clickable, the findings of `pdn check` are marked in the move list, and two buttons copy or
download the game's PDN. OUT ending in .html (or '-') is one page; anything else is a
folder, which must be new, empty, or written by pdn html before (its old pages are
replaced). Exit code 1 when a game has a finding of severity error (the pages are written),
2 for usage or I/O problems.
"""


def add_parser(subparsers: Any, summary: str) -> None:
    """Register `pdn html`; ``summary`` is its line in ``pdn --help``."""
    parser = arguments.add_verb(
        subparsers,
        "html",
        run,
        summary=summary,
        description="Write games as self-contained HTML pages to publish: each game a viewer "
        "(the board at any ply, the last move as an arrow, captured pieces marked; the move "
        "list with variations, comments, NAGs and the findings of `pdn check`) under its "
        "tags. One page for a few games, a folder (index.html and a page per game, linked "
        "both ways) for many.",
        examples=EXAMPLES,
    )
    arguments.add_inputs(parser)
    arguments.add_output(
        parser, "a .html file for one page, else a folder of pages", default=None, required=True
    )
    parser.add_argument(
        "--folder",
        action="store_true",
        help="write a folder (index.html and one page per game) whatever OUT's name",
    )
    parser.add_argument("--title", help="the page's or index's title (default: the event)")
    arguments.add_variant(parser, "rule set for games without a usable GameType")
    arguments.add_rules(parser)
    arguments.add_jobs(parser)


def run(args: argparse.Namespace) -> int:
    """Write the pages (``pdn.database.publishing.html``), a progress bar on a terminal's
    stderr; what was written to stderr."""
    from rich.console import Console

    from pdn.base.output import InputOverwriteError
    from pdn.base.paths import expand_paths
    from pdn.cli.progress import ByteProgress, file_sizes
    from pdn.database.publishing import HtmlError, html

    bar = ByteProgress(Console(stderr=True), file_sizes(expand_paths(args.paths)))
    try:
        with bar as progress:
            summary = html(
                args.paths,
                args.output,
                folder=True if args.folder else None,
                title=args.title,
                variant=args.variant,
                rules=args.rules,
                jobs=args.jobs,
                on_error=arguments.Unreadable("html"),
                on_game=lambda page: progress.advance(page.file, page.end_byte),
            )
    except (HtmlError, InputOverwriteError) as error:
        print(f"pdn html: {error}", file=sys.stderr)
        return EXIT_USAGE
    if args.output != "-":
        games = f"{summary.games} game{'s' if summary.games != 1 else ''}"
        where = "1 page" if summary.pages == 1 else f"{summary.pages} pages"
        folder = os.path.isdir(args.output)
        index = os.path.join(args.output, "index.html") if folder else args.output
        print(f"pdn html: wrote {where} ({games}): open {index}", file=sys.stderr)
    if summary.unreadable:
        return EXIT_USAGE
    return EXIT_FINDINGS if summary.worst == "error" else EXIT_OK
