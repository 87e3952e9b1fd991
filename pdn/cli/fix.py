"""`pdn fix`: repair PDN files where the answer is certain, log every change, drop nothing.

Every game goes out in input order: repaired by ``pdn.arbiter.repair`` and written by the writer
when something changed, else its own text as read (line ends as ``\\n``, UTF-8). A game that could
not be read goes out verbatim (or to ``--rejects``). Each change is one JSON Lines record in
``--log`` and a readable line on stderr. ``--in-place`` (and ``-o``) write a temporary file
beside the target and rename it over the target only when the whole file was written.
Exit codes: 0 written and nothing left undecided, 1 written but something could not be
decided or read, 2 usage or I/O failure (the input is then untouched).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from collections import Counter
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from functools import partial
from typing import IO, Any

from pdn.arbiter.repair import FIXES, Change, RepairOptions, repair, split_glued_junk
from pdn.base.findings import CODES
from pdn.base.output import atomic_output
from pdn.base.paths import PathError, expand_paths
from pdn.batch.parallel import map_paths
from pdn.cli import arguments
from pdn.cli.exitcodes import EXIT_FINDINGS, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE
from pdn.engine.geometry import Notation
from pdn.engine.variants import Variant
from pdn.pdnfile.reader import parse_span
from pdn.pdnfile.scan import Span
from pdn.pdnfile.writer import Captures, write_game

EXAMPLES = """\
examples:
  pdn fix games.pdn -o fixed.pdn --log changes.jsonl
  pdn fix db/ --in-place                    every file of a folder, NAME.bak kept
  pdn fix games.pdn --only tag,result       only tag and result repairs
  pdn fix games.pdn --cut-irregular -o out.pdn
  pdn fix games.pdn --rejects bad.pdn -o out.pdn   unreadable games set aside

fix names (--only takes these or finding codes): """ + ", ".join(FIXES)


#: argparse type of ``--only``: comma-separated finding codes and fix names.
only_list = arguments.name_list([*CODES, *FIXES], "finding code(s) or fix(es)")


def add_parser(subparsers: Any) -> None:
    """Register `pdn fix`."""
    parser = arguments.add_verb(
        subparsers,
        "fix",
        run,
        summary="repair games where the answer is certain; every change logged, nothing dropped",
        description=(
            "Repair what can be repaired with certainty: tags (GameType, dates, spaces, empty\n"
            "tags), results (tag and terminator agree, the variant's style, the board's\n"
            "verdict), moves (full path of an ambiguous capture the later moves settle, split\n"
            "captures joined, '-' captures, move numbers). Every change is logged (JSON Lines\n"
            "with --log, a line on stderr); what cannot be decided is logged and left as is.\n"
            "Games come out in input order; unreadable games verbatim (or to --rejects)."
        ),
        examples=EXAMPLES,
    )
    arguments.add_inputs(parser)
    target = parser.add_mutually_exclusive_group()
    arguments.add_output(target, "the fixed games")
    target.add_argument(
        "--in-place", action="store_true", help="rewrite each input (NAME.bak keeps the original)"
    )
    parser.add_argument(
        "--no-backup", action="store_true", help="with --in-place: keep no NAME.bak"
    )
    parser.add_argument("--log", metavar="FILE", help="the change log, JSON Lines ('-': stdout)")
    parser.add_argument("--only", type=only_list, metavar="CODES", help="only these codes or fixes")
    parser.add_argument(
        "--cut-irregular",
        action="store_true",
        help="moves from the first irregular main-line move on become a variation; result '*'",
    )
    parser.add_argument(
        "--cut-after-end",
        action="store_true",
        help="moves after the game was over become a variation; result: the rule's outcome",
    )
    parser.add_argument("--rejects", metavar="FILE", help="unreadable games go here, not to OUT")
    arguments.add_variant(parser, "variant of games without a usable GameType")
    arguments.add_rules(parser)
    parser.add_argument(
        "--notation", choices=("numeric", "algebraic"), help="rewrite every move so"
    )
    parser.add_argument(
        "--captures", choices=("short", "full"), help="rewrite every capture short or with its path"
    )
    arguments.add_jobs(parser)
    parser.add_argument("-q", "--quiet", action="store_true", help="no line per change on stderr")


@dataclass(frozen=True)
class Settings:
    """What every worker needs to fix a game (picklable)."""

    repair: RepairOptions
    notation: Notation | None = None
    captures: Captures | None = None


@dataclass
class Fixed:
    """One game after ``fix``: its output text, its change log, and whether it was read."""

    text: str
    changes: list[Change]
    unreadable: bool


def fix_span(span: Span, settings: Settings) -> Fixed:
    """Parse, repair and write one game. Unchanged games keep their own text. Never raises on
    bad input. Cost: one parse and the repair's replays."""
    game = parse_span(span)
    before: list[Change] = []
    if game.raw is not None:
        split = split_glued_junk(game, span.text, settings.repair)
        if split is not None:
            again = parse_span(replace(span, text=split[0]))
            if again.raw is None:
                game, before = again, split[1]
    if game.raw is not None:
        return Fixed(_own_text(game.raw), [], True)
    try:
        repaired = repair(game, settings.repair)
    except Exception as error:  # noqa: BLE001 -- a bug of a repair must neither stop the batch nor lose the game
        source = game.source
        note = f"internal error, game copied unchanged: {error!r}"
        failed = Change(INTERNAL, None, None, None, file=source.file, game=source.game, note=note)
        return Fixed(_own_text(span.text), [failed], False)
    repaired.changes[:0] = before
    rewrite = settings.notation is not None or settings.captures is not None
    if not repaired.changed and not rewrite:
        return Fixed(_own_text(span.text), repaired.changes, False)
    text = write_game(
        repaired.game,
        notation=settings.notation,
        captures=settings.captures or "short",
    )
    return Fixed(_own_text(text), repaired.changes, False)


#: The ``fix`` name of the record made when a repair raised (a bug, reported, never a crash).
INTERNAL = "internal-error"


def fix_spans(spans: list[Span], settings: Settings) -> list[Fixed]:
    """``fix_span`` over a chunk (the unit of work of ``--jobs``)."""
    return [fix_span(span, settings) for span in spans]


def _own_text(text: str) -> str:
    """A game's text with ``\\n`` line ends (comments included), no surrounding blank space,
    one final newline: the same bytes when read and written again."""
    return text.replace("\r\n", "\n").replace("\r", "\n").strip() + "\n"


@dataclass
class Summary:
    """Counts for the closing lines on stderr."""

    games_in: int = 0
    games_out: int = 0
    rejected: int = 0
    unreadable: int = 0
    changed_games: int = 0
    by_fix: Counter[str] = field(default_factory=Counter)
    undecided: Counter[str] = field(default_factory=Counter)

    def lines(self) -> Iterator[str]:
        yield (
            f"pdn fix: {self.games_in} games in, {self.games_out} out"
            + (f" (+{self.rejected} to --rejects)" if self.rejected else "")
            + f"; {self.changed_games} changed, {sum(self.by_fix.values())} changes"
            + (f"; {self.unreadable} unreadable, kept verbatim" if self.unreadable else "")
        )
        for name, count in self.by_fix.most_common():
            yield f"  {name:<14} {count}"
        for name, count in self.undecided.most_common():
            yield f"  {name:<14} {count} logged, not changed"


class _Run:
    """One `pdn fix` invocation: the outputs, the log, the summary."""

    def __init__(self, args: argparse.Namespace, settings: Settings) -> None:
        self.args = args
        self.settings = settings
        self.log: IO[str] | None = None
        self.rejects: IO[str] | None = None
        self.summary = Summary()
        self.rejects_written = 0
        self.rewritten: list[str] = []  # --in-place: files replaced so far
        self.current: str | None = None  # --in-place: the file being rewritten

    def untouched(self) -> str:
        """What a failure left as it was, in words."""
        if not self.args.in_place or self.current is None:
            return "the input files are untouched"
        done = (
            f" ({len(self.rewritten)} file(s) before it were rewritten)" if self.rewritten else ""
        )
        return f"{self.current} is untouched{done}"

    def emit(self, fixed: Fixed, output: IO[str], written: int) -> int:
        """Write one fixed game (a blank line between games); the games written to ``output``."""
        summary = self.summary
        summary.games_in += 1
        summary.unreadable += fixed.unreadable
        for change in fixed.changes:
            (summary.by_fix if change.changed else summary.undecided)[change.fix] += 1
            if self.log is not None:
                self.log.write(json.dumps(change.to_dict(), ensure_ascii=False) + "\n")
            if not self.args.quiet:
                print(change.to_text(), file=sys.stderr)
        summary.changed_games += any(change.changed for change in fixed.changes)
        if fixed.unreadable and self.rejects is not None:
            self.rejects.write(("\n" if self.rejects_written else "") + fixed.text)
            self.rejects_written += 1
            summary.rejected += 1
            return written
        output.write(("\n" if written else "") + fixed.text)
        summary.games_out += 1
        return written + 1


def run(args: argparse.Namespace) -> int:
    """Fix every path; the exit code per the module docstring."""
    if args.in_place and "-" in args.paths:
        print("pdn fix: --in-place cannot rewrite stdin", file=sys.stderr)
        return EXIT_USAGE
    if args.no_backup and not args.in_place:
        print("pdn fix: --no-backup goes with --in-place", file=sys.stderr)
        return EXIT_USAGE
    settings = Settings(
        RepairOptions(
            variant=Variant.from_name(args.variant) if args.variant else None,
            rules=args.rules,
            only=args.only,
            cut_irregular=args.cut_irregular,
            cut_after_end=args.cut_after_end,
        ),
        notation=args.notation,
        captures=args.captures,
    )
    fixing = _Run(args, settings)
    try:
        with ExitStack() as stack:
            fixing.log = _open_plain(stack, args.log)
            fixing.rejects = _open_plain(stack, args.rejects)
            paths = list(expand_paths(args.paths))
            if args.in_place:
                for path in paths:
                    _fix_in_place(path, fixing)
            else:
                _fix_to(args.output, paths, fixing)
    except BrokenPipeError:  # stdout closed (``| head``): the verb ends quietly (pdn.cli.main)
        raise
    except OSError as error:
        print(f"pdn fix: {error}; {fixing.untouched()}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print(f"pdn fix: interrupted; {fixing.untouched()}", file=sys.stderr)
        return EXIT_INTERRUPTED
    for line in fixing.summary.lines():
        print(line, file=sys.stderr)
    summary = fixing.summary
    return EXIT_FINDINGS if summary.undecided or summary.unreadable else EXIT_OK


def _open_plain(stack: ExitStack, path: str | None) -> IO[str] | None:
    """A log or rejects file (``-``: stdout), or ``None``."""
    if path is None:
        return None
    if path == "-":
        return sys.stdout
    return stack.enter_context(open(path, "w", encoding="utf-8", newline="\n"))


def _fixed_games(paths: list[str], fixing: _Run) -> Iterator[Fixed]:
    """Every game of ``paths`` fixed, in input order (on ``--jobs`` processes); a path that
    cannot be read raises ``OSError`` (nothing is written for it)."""
    work = partial(fix_spans, settings=fixing.settings)
    for item in map_paths(paths, work, jobs=fixing.args.jobs):
        if isinstance(item, PathError):
            raise OSError(f"{item.file}: {item.message}")
        yield item


def _fix_to(output: str, paths: list[str], fixing: _Run) -> None:
    """All games of ``paths`` to ``output`` (stdout, or a file replaced only when complete)."""
    with atomic_output(output) as stream:
        written = 0
        for fixed in _fixed_games(paths, fixing):
            written = fixing.emit(fixed, stream, written)


class _UnchangedInputError(Exception):
    """Raised inside ``atomic_output`` to drop the temporary file of an unchanged input."""


def _fix_in_place(path: str, fixing: _Run) -> None:
    """Rewrite ``path`` through a temporary file beside it; ``path.bak`` keeps the original
    unless ``--no-backup``; a file in which nothing changed is left as it is (no backup)."""
    changed_before = fixing.summary.changed_games
    fixing.current = path
    try:
        with atomic_output(path) as stream:
            written = 0
            for fixed in _fixed_games([path], fixing):
                written = fixing.emit(fixed, stream, written)
            if fixing.summary.changed_games == changed_before:
                raise _UnchangedInputError
            if not fixing.args.no_backup:
                shutil.copy2(path, path + ".bak")
    except _UnchangedInputError:
        return
    fixing.rewritten.append(path)
