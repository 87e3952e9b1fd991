"""`pdn fix`: repair PDN files where the answer is certain, log every change, drop nothing.

The arguments of ``pdn.batch.fixing.fix``, which does the work (games in input order, unreadable
ones verbatim or to ``--rejects``, each change a JSON Lines record in ``--log``); each change is
also a readable line on stderr. ``--in-place``, ``-o``, ``--log`` and ``--rejects`` write a
temporary file beside the target and rename it over the target only when the whole file was
written; an output that is an input is refused before anything is written
(``pdn.base.output``).
``--dry-run`` writes no game: the change log goes to stdout (or ``--log FILE``), the exit
code is the one the run would give. By default every change answers a finding ``pdn check``
reports on the same game with the same code; ``--normalize`` adds the tidying of valid
spellings (``pdn.arbiter.normalize``).
Exit codes: 0 written and nothing left undecided, 1 written but something could not be
decided or read, 2 usage or I/O failure (the input is then untouched).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from pdn.arbiter.changelog import FIXES, Change
from pdn.arbiter.namerepair import read_names_file
from pdn.arbiter.normalize import NORMALIZATIONS
from pdn.base.findings import CODES
from pdn.base.output import InputOverwriteError
from pdn.batch.fixing import FixSummary, fix
from pdn.batch.parallel import WorkerLostError
from pdn.cli import arguments
from pdn.cli.exitcodes import (
    EXIT_FINDINGS,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_TERMINATED,
    EXIT_USAGE,
    Terminated,
)

EXAMPLES = """\
examples:
  pdn fix games.pdn -o fixed.pdn --log changes.jsonl
  pdn fix db/ --in-place                    every file of a folder, NAME.bak kept
  pdn fix games.pdn --dry-run               the change log on stdout, nothing written
  pdn fix games.pdn --normalize results,dates -o out.pdn   also respell valid results, dates
  pdn fix games.pdn --only tag,result       only tag and result repairs
  pdn fix games.pdn --cut-irregular -o out.pdn
  pdn fix games.pdn --rejects bad.pdn -o out.pdn   unreadable games set aside
  pdn fix db/ --names names.tsv -o out.pdn   player names to canonical spellings

Every default change answers a finding `pdn check` reports on the same game, with the same
code; valid spellings are tidied only with --normalize (`pdn check -v` names each one).
fix names (--only takes these or finding codes): """ + ", ".join(FIXES)


#: argparse type of ``--only``: comma-separated finding codes and fix names.
only_list = arguments.name_list([*CODES, *FIXES], "finding code(s) or fix(es)")
#: argparse type of ``--normalize``: comma-separated normalization names.
normalize_list = arguments.name_list([*NORMALIZATIONS, "all"], "normalization(s)")


def add_parser(subparsers: Any, summary: str) -> None:
    """Register `pdn fix`."""
    parser = arguments.add_verb(
        subparsers,
        "fix",
        run,
        summary=summary,
        description=(
            "Repair what `pdn check` finds, where the answer is certain: the GameType, results\n"
            "(a missing terminator, the board's verdict on a claimed result), moves (full path\n"
            "of an ambiguous capture the later moves settle, split captures joined, '-'\n"
            "captures, move numbers). With --normalize, also tidy valid spellings: results in\n"
            "the variant's style (and a missing Result tag), dates as YYYY.MM.DD, spaces around\n"
            "tag values, empty tags.\n"
            "Every change is logged (JSON Lines with --log, a line on stderr); what cannot be\n"
            "decided is logged and left as is. Games come out in input order; unreadable games\n"
            "verbatim (or to --rejects)."
        ),
        examples=EXAMPLES,
    )
    arguments.add_inputs(parser)
    target = parser.add_mutually_exclusive_group()
    arguments.add_output(target, "the fixed games")
    target.add_argument(
        "--in-place",
        action="store_true",
        help="rewrite each input that changes (NAME.bak keeps the original); refused, stopping "
        "the run with exit 2: a file whose NAME.bak exists (an earlier backup is never "
        "replaced, a link there never followed), a read-only file, a file with hard links, a "
        "file changed while it was fixed",
    )
    parser.add_argument(
        "--no-backup", action="store_true", help="with --in-place: keep no NAME.bak"
    )
    parser.add_argument("--log", metavar="FILE", help="the change log, JSON Lines ('-': stdout)")
    parser.add_argument("--only", type=only_list, metavar="CODES", help="only these codes or fixes")
    parser.add_argument(
        "--normalize",
        type=normalize_list,
        metavar="NAMES",
        default=frozenset(),
        help="also tidy valid spellings: results (the variant's style: 2-0 / 1-0), dates "
        "(YYYY.MM.DD), tags (spaces around values, empty tags); all: every one",
    )
    parser.add_argument(
        "--dry-run",
        action="store_true",
        help="write nothing: print the change log (JSON Lines, as --log holds it) to stdout, "
        "or to --log FILE; the exit code is the run's",
    )
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
    parser.add_argument(
        "--names",
        metavar="NAMES.tsv",
        help="rewrite player names to canonical spellings: a file of canonical<TAB>variant... "
        "lines (pdn stats --name-variants proposes one); each rename is logged",
    )
    arguments.add_jobs(parser)
    parser.add_argument("-q", "--quiet", action="store_true", help="no line per change on stderr")


def _names(path: str | None) -> dict[str, str] | None:
    """The ``--names`` file read (``pdn.arbiter.namerepair.read_names_file``), or None."""
    if path is None:
        return None
    with open(path, encoding="utf-8-sig") as source:
        return read_names_file(source.read(), file=path)


def run(args: argparse.Namespace) -> int:
    """Fix every path (``pdn.batch.fixing.fix``); the exit code per the module docstring."""
    if args.in_place and "-" in args.paths:
        print("pdn fix: --in-place cannot rewrite stdin", file=sys.stderr)
        return EXIT_USAGE
    if args.no_backup and not args.in_place:
        print("pdn fix: --no-backup goes with --in-place", file=sys.stderr)
        return EXIT_USAGE
    written = [
        name for name, given in _WRITTEN.items() if getattr(args, given) not in (None, "-", False)
    ]
    if args.dry_run and written:
        print(f"pdn fix: --dry-run writes nothing: drop {', '.join(written)}", file=sys.stderr)
        return EXIT_USAGE
    try:
        names = _names(args.names)
    except OSError as error:
        print(f"pdn fix: --names {args.names}: {error.strerror or error}", file=sys.stderr)
        return EXIT_USAGE
    except UnicodeDecodeError as error:
        print(f"pdn fix: --names {args.names}: not UTF-8 (byte {error.start})", file=sys.stderr)
        return EXIT_USAGE
    except ValueError as error:
        print(f"pdn fix: --names {error}", file=sys.stderr)
        return EXIT_USAGE
    summary = FixSummary()
    try:
        fix(
            args.paths,
            args.output,
            in_place=args.in_place,
            backup=not args.no_backup,
            log="-" if args.dry_run and args.log is None else args.log,
            rejects=args.rejects,
            only=args.only,
            normalize=args.normalize,
            cut_irregular=args.cut_irregular,
            cut_after_end=args.cut_after_end,
            dry_run=args.dry_run,
            variant=args.variant,
            rules=args.rules,
            notation=args.notation,
            captures=args.captures,
            names=names,
            jobs=args.jobs,
            on_change=None if args.quiet else _print_change,
            summary=summary,
        )
    except BrokenPipeError:  # stdout closed (``| head``): the verb ends quietly (pdn.cli.main)
        raise
    except InputOverwriteError as error:
        print(f"pdn fix: {error}", file=sys.stderr)
        return EXIT_USAGE
    except OSError as error:
        print(f"pdn fix: {error}; {summary.untouched()}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print(f"pdn fix: interrupted; {summary.untouched()}", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Terminated:
        print(f"pdn fix: terminated; {summary.untouched()}", file=sys.stderr)
        return EXIT_TERMINATED
    except WorkerLostError as error:
        if not summary.rewritten:
            raise  # nothing written: pdn.cli.main says so
        print(f"pdn fix: {error}; {summary.untouched()}", file=sys.stderr)
        return EXIT_USAGE
    for line in summary.lines():
        print(line, file=sys.stderr)
    return EXIT_FINDINGS if summary.undecided or summary.unreadable else EXIT_OK


#: The options that write games, by argparse destination (refused with ``--dry-run``).
_WRITTEN = {"-o": "output", "--in-place": "in_place", "--rejects": "rejects"}


def _print_change(change: Change) -> None:
    print(change.to_text(), file=sys.stderr)
