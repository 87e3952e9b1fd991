"""The `pdn` command: one argparse parser, one module per verb in `pdn.cli`.

Each verb module exposes ``add_parser(subparsers)`` (registers its sub-parser and sets
``func``) and its own ``run(args) -> int``. Exit codes (DESIGN.md): 0 clean, 1 findings of
severity error (``--strict``: also warnings), 2 usage or I/O failure.
"""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
import threading
from collections.abc import Iterator, Sequence

from pdn.base.output import discard_stdout
from pdn.batch.parallel import WorkerLostError
from pdn.cli import (
    check,
    completion,
    convert,
    dedupe,
    fix,
    index,
    moves,
    perft,
    report,
    search,
    select,
    show,
    stats,
)
from pdn.cli import list as list_verb
from pdn.cli.arguments import Parser
from pdn.cli.exitcodes import EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE

#: Verb modules, in the order ``pdn --help`` lists them (each: ``add_parser``, ``run``).
VERBS = (
    check,
    fix,
    convert,
    show,
    list_verb,
    perft,
    moves,
    select,
    dedupe,
    index,
    search,
    stats,
    report,
    completion,
)


def build_parser() -> Parser:
    """The full parser: every verb of ``VERBS``."""
    parser = Parser(
        prog="pdn",
        description=(
            "Read, write, replay and audit draughts game records (PDN) in every variant.\n"
            "Data goes to stdout, diagnostics and progress to stderr; '-' means stdin/stdout."
        ),
        epilog=(
            "exit codes: 0 clean, 1 findings of severity error (--strict: also warnings), "
            "2 usage or I/O failure.\nRun 'pdn VERB --help' for each verb."
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    from pdn import __version__

    parser.add_argument("--version", action="version", version=f"pdn {__version__}")
    subparsers = parser.add_subparsers(dest="verb", metavar="VERB")
    for module in VERBS:
        module.add_parser(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default ``sys.argv[1:]``) and return the exit code."""
    parser = build_parser()
    try:
        args, extras = parser.parse_known_args(argv)
        if extras:
            parser.refuse_unknown(extras)
    except SystemExit as exit_:
        return int(exit_.code or 0)
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    with _sigterm_unwinds():
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    """Run the chosen verb; turn output failures and a lost worker into one line and exit 2
    (every output file is replaced only when whole, so none was written)."""
    try:
        code = int(args.func(args))
        sys.stdout.flush()  # a write error (``> /dev/full``) surfaces here, not at exit
        return code
    except BrokenPipeError:  # the reader went away (``| head``): stop quietly
        discard_stdout()
        return EXIT_OK
    except OSError as error:  # output that cannot be written; inputs are reported by the verbs
        where = f"{error.filename}: " if error.filename else ""
        print(f"pdn {args.verb}: {where}{error.strerror or error}", file=sys.stderr)
        discard_stdout()
        return EXIT_USAGE
    except WorkerLostError as error:
        print(f"pdn {args.verb}: {error}: no output written", file=sys.stderr)
        discard_stdout()
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("pdn: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


@contextlib.contextmanager
def _sigterm_unwinds() -> Iterator[None]:
    """While a verb runs, SIGTERM unwinds like an error (worker pools shut down, temporary
    files removed) and exits with the conventional 128 + 15. Main thread only."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _terminated(signum: int, _frame: object) -> None:
    raise SystemExit(128 + signum)
