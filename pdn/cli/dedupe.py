"""`pdn dedupe`: find duplicate games and variant readings; write one copy of each game.

The report (text, or JSON with ``--format json``) lists each duplicate group (every copy as
file:game, the copy kept, tags merged into it, tags that contradict each other) and each pair
of variant readings (the ply where they part, both moves, whether each replays legally). With
``-o`` the games are written once each, in input order: the kept copy of a group stays where
it is, with the merged tags added after its own, the other copies are left out; readings are
both kept. Copies that disagree on White, Black or Result (names matched across spellings,
results across styles) are a conflict group: every copy is written as it is, the report says
where they disagree, and the exit code is 1; ``--merge-conflicts`` merges them as other groups
(still exit 1: the records still disagree). Output is UTF-8: games read from other encodings are
written decoded. Cost: one parse and replay per game (``--jobs``), then one more scan of the
files when writing.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from functools import partial
from typing import IO, TYPE_CHECKING, Any

from pdn.base.output import atomic_output
from pdn.cli import arguments
from pdn.cli.exitcodes import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE

if TYPE_CHECKING:
    from pdn.database.dedupe import Findings

EXAMPLES = """\
examples:
  pdn dedupe db/                            the report only (stdout)
  pdn dedupe a.pdn b.pdn -o merged.pdn      one copy of each game; report on stdout
  pdn dedupe db/ -o - --report dups.txt     games on stdout, report to a file
  pdn dedupe db/ --format json --jobs 0     the report as JSON, on every core
  pdn dedupe db/ -o one.pdn --merge-conflicts  merge copies that disagree on players/result too

Copies whose White, Black or Result disagree (a copy error in a source) are all kept and
reported as a conflict group; the exit code is then 1.
"""


def add_parser(subparsers: Any, summary: str) -> None:
    """Register `pdn dedupe`."""
    parser = arguments.add_verb(
        subparsers,
        "dedupe",
        run,
        summary=summary,
        description="Find games recorded more than once (same variant, start and moves, any "
        "tags) and games recorded two ways (variant readings: same players and "
        "event/date/round, or nearly the same moves, that part at some ply).",
        examples=EXAMPLES,
    )
    arguments.add_inputs(parser, refuse_stdin="read twice")
    arguments.add_output(parser, "write each game once", default=None)
    parser.add_argument(
        "--report",
        metavar="FILE",
        help="the report to FILE (default: stdout; stderr when the games go to stdout)",
    )
    arguments.add_format(
        parser, ("text", "json"), "report format: text (default) or one JSON document"
    )
    parser.add_argument(
        "--merge-conflicts",
        action="store_true",
        help="merge copies that disagree on White, Black or Result too (default: keep them all)",
    )
    arguments.add_variant(parser, "variant of games without a usable GameType")
    arguments.add_jobs(parser)


def run(args: argparse.Namespace) -> int:
    """Group, report, write; 0, 1 when a group's copies conflict, 2 on usage and I/O errors."""
    from pdn.database.dedupe import dedupe

    if arguments.overwrites_input(
        "dedupe", {"-o": args.output, "--report": args.report}, args.paths
    ):
        return EXIT_USAGE
    unreadable = arguments.Unreadable("dedupe")
    found = dedupe(
        args.paths,
        variant=args.variant,
        jobs=args.jobs,
        on_error=unreadable,
        merge_conflicts=args.merge_conflicts,
    )
    target = args.report or ("-" if args.output != "-" else None)
    writes: list[tuple[str, str, Callable[[IO[str]], object]]] = []
    if args.output:
        writes.append((args.output, "", found.write_games))
    if target:
        writes.append((target, "\n", partial(_report, found=found, form=args.format)))
    try:
        # files first: a reader closing stdout (``| true``) must not stop a requested file
        for path, newline, write in sorted(writes, key=lambda each: each[0] == "-"):
            with atomic_output(path, newline=newline) as stream:
                write(stream)
        if not target:
            _report(sys.stderr, found, args.format)
    except BrokenPipeError:  # stdout closed (``| head``): the verb ends quietly (pdn.cli.main)
        raise
    except OSError as error:
        print(f"pdn dedupe: {error}", file=sys.stderr)
        return EXIT_USAGE
    if unreadable.failed:
        return EXIT_USAGE
    if not found.conflicts:
        return EXIT_OK
    if target not in (None, "-"):  # the report went to a file: the console still hears of it
        print(f"pdn dedupe: {_conflict_summary(found)}; see {target}", file=sys.stderr)
    return EXIT_FINDINGS


def _conflict_summary(found: Findings) -> str:
    conflicts = found.conflicts
    ending = "all copies kept" if any(group.kept_all for group in conflicts) else "merged anyway"
    return (
        f"{len(conflicts)} conflict group(s) (copies that disagree on White, Black or Result: "
        f"{ending})"
    )


def _report(stream: IO[str], found: Findings, form: str) -> None:
    games = found.games
    if form == "json":
        document = {
            "games": games,
            "groups": [group.to_dict() for group in found.groups],
            "readings": [reading.to_dict() for reading in found.readings],
        }
        stream.write(json.dumps(document, ensure_ascii=False) + "\n")
        return
    copies = sum(len(group.copies) for group in found.groups)
    left_out = sum(len(group.left_out) for group in found.groups)
    conflicts = f", {_conflict_summary(found)}" if found.conflicts else ""
    stream.write(
        f"{games} games: {len(found.groups)} duplicate group(s) ({copies} copies, "
        f"{left_out} left out), {len(found.readings)} variant reading(s){conflicts}\n"
    )
    for number, group in enumerate(found.groups, 1):
        if group.kept_all:
            every = ", ".join(copy.where for copy in group.copies)
            stream.write(f"group {number}: conflict, every copy kept: {every}\n")
        else:
            others = ", ".join(copy.where for copy in group.left_out)
            stream.write(f"group {number}: kept {group.kept.where}; copies {others}\n")
        if group.merged:
            merged = ", ".join(f'{name} "{value}"' for name, value in group.merged)
            stream.write(f"  merged tags: {merged}\n")
        for name, values in group.conflicts.items():
            stream.write(f"  conflicting {name}: {_said(values)}\n")
        for name, values in group.contradictions.items():
            if name not in group.conflicts:
                stream.write(f"  contradicting {name}: {_said(values)}\n")
    for reading in found.readings:
        stream.write(reading.to_text() + "\n")


def _said(values: list[tuple[str, str]]) -> str:
    return " vs ".join(f'"{value}" ({where})' for where, value in values)
