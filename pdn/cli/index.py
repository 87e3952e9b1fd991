"""`pdn index DB PATH...`: build or update an SQLite index of games and positions.

Only new and changed files are read (size and mtime, then SHA-256); the games of changed and
vanished files leave the index. A run interrupted (Ctrl-C, killed) keeps its checkpoints (about
every ten seconds of work) and the next run continues where it stopped, in the middle of a file
if need be. An index of an older schema, or any with ``--rebuild`` (a damaged one), is rebuilt
from the paths given (a rebuild is not resumable: it replaces the file at its end). One run
writes at a time: another waits, with a line on stderr. A progress bar (on a terminal), counts
and timing go to stderr; a database that cannot be used is one line, exit 2. The tables:
docs/index-schema.md. Cost: one parse and replay per indexed game (``--jobs``).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any

from pdn.cli import arguments
from pdn.cli.exitcodes import EXIT_OK, EXIT_USAGE

EXAMPLES = """\
examples:
  pdn index games.db db/                 index every PDN file under db/
  pdn index games.db db/ --jobs 0        the same on every core
  pdn index games.db db/ new.pdn         later: only new or changed files are read
  pdn index games.db db/                 after Ctrl-C: continues where it stopped
  pdn index --rebuild games.db db/       a new index of db/ in place of games.db (damaged)
  pdn search games.db --position "W:W31-50:B1-20"   then ask it (see pdn search --help)
"""


def add_parser(subparsers: Any, summary: str) -> None:
    """Register `pdn index`."""
    parser = arguments.add_verb(
        subparsers,
        "index",
        run,
        summary=summary,
        description="Build or update an SQLite database of the games of PATH...: tags, file "
        "and offset, every main-line position as a 64-bit key and as four bitboards (for "
        "--pattern and --move), the audit's findings. An interrupted run continues where it "
        "stopped when run again. The tables are a stable interface: docs/index-schema.md.",
        examples=EXAMPLES,
    )
    parser.add_argument("database", metavar="DB", help="the index file (created when missing)")
    arguments.add_inputs(parser, refuse_stdin="the index points into files")
    arguments.add_variant(parser, "variant of games without a usable GameType")
    arguments.add_jobs(parser)
    parser.add_argument(
        "--rebuild",
        action="store_true",
        help="build a new index of PATH... in place of DB (even a damaged one): a pdn index only",
    )


def run(args: argparse.Namespace) -> int:
    """Update the index; counts to stderr; 0, or 2 when the index or a path is unusable."""
    from rich.console import Console

    from pdn.base.paths import expand_paths
    from pdn.cli.progress import ByteProgress, file_sizes
    from pdn.database.index import Index, UnusableIndexError

    started = time.perf_counter()
    bar = ByteProgress(Console(stderr=True), file_sizes(expand_paths(args.paths)))
    try:
        with Index(
            args.database,
            create=True,
            rebuild_old=True,
            rebuild=args.rebuild,
            on_wait=lambda message: print(f"pdn index: {message}", file=sys.stderr),
        ) as index:
            with bar as progress:
                report = index.update(
                    args.paths, variant=args.variant, jobs=args.jobs, on_game=progress.advance
                )
            totals = index.summary()
    except UnusableIndexError as error:
        print(f"pdn index: {error}", file=sys.stderr)
        return EXIT_USAGE
    seconds = time.perf_counter() - started
    for problem in report.errors:
        print(f"pdn index: {problem}", file=sys.stderr)
    size = os.path.getsize(args.database)
    print(
        f"{len(report.indexed)} file(s) indexed ({report.games} games, {report.positions} "
        f"positions), {report.unchanged} unchanged, {len(report.removed)} removed, "
        f"in {seconds:.1f} s\n"
        f"{args.database}: {totals['files']} files, {totals['games']} games, "
        f"{totals['positions']} positions, {totals['findings']} findings, "
        f"{size / 1e6:.1f} MB",
        file=sys.stderr,
    )
    return EXIT_USAGE if report.errors else EXIT_OK
