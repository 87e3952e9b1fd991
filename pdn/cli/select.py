"""`pdn select`: the games that pass every filter, written unchanged (byte for byte).

Header filters (players, Event, Date) are decided on the scanner's tags, before any parsing;
the others parse and replay the game once (``pdn.database.gamefacts``). Matching games are copied
from the input bytes, in input order, one blank line apart; ``--format json`` writes one JSON
object per match instead. Cost: one scan, plus one parse and replay per game whose tags pass
when a filter needs the moves; ``--jobs`` spreads that over processes.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from functools import partial
from typing import Any, BinaryIO

from pdn.base.output import atomic_output
from pdn.cli import arguments
from pdn.cli.exitcodes import EXIT_OK, EXIT_USAGE
from pdn.database.filters import Criteria, Match
from pdn.database.gamefacts import game_facts
from pdn.pdnfile.scan import Span

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


@dataclass(frozen=True)
class Selected:
    """A game that passed, and where its bytes are."""

    file: str | None
    game: int
    line: int
    start_byte: int | None
    end_byte: int | None
    match: Match

    def to_json(self) -> str:
        return json.dumps(
            {
                "file": self.file,
                "game": self.game,
                "line": self.line,
                "ply": self.match.position_ply,
                "material_ply": self.match.material_ply,
            },
            ensure_ascii=False,
        )


def select_spans(spans: list[Span], criteria: Criteria) -> list[Selected | None]:
    """The verdict on each span (runs in workers): tags first, then one replay if needed."""
    verdicts: list[Selected | None] = []
    for span in spans:
        match: Match | None = None
        if criteria.tags_match(span.tags):
            match = criteria.match(game_facts(span)) if criteria.needs_replay else Match()
        at = span.source
        verdicts.append(
            None
            if match is None
            else Selected(at.file, at.game, at.line, at.start_byte, at.end_byte, match)
        )
    return verdicts


def run(args: argparse.Namespace) -> int:
    """Filter every path; write the matches; exit 0, or 2 on usage and I/O errors."""
    try:
        criteria = arguments.criteria_from(args)
    except ValueError as error:
        print(f"pdn select: {error}", file=sys.stderr)
        return EXIT_USAGE
    if arguments.overwrites_input("select", "-o", args.output, args.paths):
        return EXIT_USAGE
    from pdn.base.paths import PathError
    from pdn.batch.parallel import map_paths

    failed = False
    with ExitStack() as stack:
        paths, names = _spool_stdin(args.paths, stack)
        try:
            text = stack.enter_context(atomic_output(args.output, newline=""))
            out: BinaryIO = text.buffer  # type: ignore[attr-defined]  # a TextIOWrapper
        except OSError as error:
            print(f"pdn select: {args.output}: {error.strerror or error}", file=sys.stderr)
            return EXIT_USAGE
        copier = _Copier(stack)
        work = partial(select_spans, criteria=criteria)
        for item in map_paths(paths, work, jobs=args.jobs):
            if isinstance(item, PathError):
                print(
                    f"pdn select: {names.get(item.file, item.file)}: {item.message}",
                    file=sys.stderr,
                )
                failed = True
            elif item is not None and args.format == "json":
                shown = names.get(item.file or "", item.file)
                line = item.to_json() if shown == item.file else _renamed(item, shown).to_json()
                out.write(line.encode("utf-8") + b"\n")
            elif item is not None:
                out.write(copier.game_bytes(item))
    return EXIT_USAGE if failed else EXIT_OK


def _renamed(item: Selected, file: str | None) -> Selected:
    return Selected(file, item.game, item.line, item.start_byte, item.end_byte, item.match)


def _spool_stdin(paths: list[str], stack: ExitStack) -> tuple[list[str], dict[str, str]]:
    """``-`` copied to a temporary file (its bytes are read twice); the paths to scan and the
    name to show for the temporary file."""
    if "-" not in paths:
        return paths, {}
    spool = stack.enter_context(tempfile.NamedTemporaryFile(prefix="pdn-stdin-", suffix=".pdn"))  # noqa: SIM115
    shutil.copyfileobj(sys.stdin.buffer, spool)
    spool.flush()
    return [spool.name if path == "-" else path for path in paths], {spool.name: "<stdin>"}


class _Copier:
    """Reads a game's original bytes from its file (one open file at a time)."""

    def __init__(self, stack: ExitStack) -> None:
        self.stack = stack
        self.name: str | None = None
        self.file: BinaryIO | None = None

    def game_bytes(self, item: Selected) -> bytes:
        """The game's bytes and a blank line in the file's own line ending."""
        if item.file != self.name:
            if self.file is not None:
                self.file.close()
            self.name = item.file
            self.file = open(item.file or "", "rb")  # noqa: SIM115 - closed on the next file
            self.stack.callback(self.file.close)
        assert self.file is not None and item.start_byte is not None and item.end_byte is not None
        self.file.seek(item.start_byte)
        data = self.file.read(item.end_byte - item.start_byte)
        return data + (b"\r\n\r\n" if b"\r\n" in data else b"\n\n")


def iter_selected(paths: list[str], criteria: Criteria, *, jobs: int = 1) -> Iterator[Selected]:
    """The matches over ``paths`` in input order (unreadable paths skipped), for callers and
    tests that want the verdicts rather than the bytes."""
    from pdn.base.paths import PathError
    from pdn.batch.parallel import map_paths

    for item in map_paths(paths, partial(select_spans, criteria=criteria), jobs=jobs):
        if item is not None and not isinstance(item, PathError):
            yield item
