"""The `pdn` command: one argparse parser, one module per verb in `pdn.cli`.

Each verb module exposes ``add_parser(subparsers)`` (registers its sub-parser and sets
``func``) and its own ``run(args) -> int``. Exit codes (DESIGN.md): 0 clean, 1 findings of
severity error (``--strict``: also warnings), 2 usage or I/O failure.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import signal
import sys
import threading
from collections.abc import Iterable, Iterator, Sequence
from types import ModuleType

from pdn.base.output import discard_stdout
from pdn.batch.parallel import WorkerLostError
from pdn.cli.arguments import Parser
from pdn.cli.exitcodes import EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, Terminated

#: The verbs, in the order ``pdn --help`` lists them, each with its line there. Verb ``NAME``
#: is the module ``pdn.cli.NAME``, with ``add_parser(subparsers)`` (registers its sub-parser
#: and sets ``func``) and ``run(args) -> int``; it is imported only when it runs, so
#: ``pdn --help`` and one verb's start-up import no other verb.
VERBS = {
    "check": "audit games: illegal moves, draw rules, results, tags (findings on stdout)",
    "fix": "repair games where the answer is certain; every change logged, nothing dropped",
    "convert": "rewrite PDN as PDN (numeric/algebraic, wrapped) or JSON Lines",
    "show": "draw a game: boards, moves, findings (terminal or SVG)",
    "html": "games as web pages: a board to step through, the moves, the tags",
    "list": "one line per game from the headers (fast, no replay)",
    "perft": "count positions d plies deep (rules-engine check)",
    "moves": "list the legal moves of a position",
    "select": "the games that pass filters, written unchanged",
    "dedupe": "duplicate games and variant readings; one copy of each game",
    "index": "build or update an SQLite index of games and positions",
    "search": "find games in an index by position, material, players, tags",
    "stats": "per variant, player and file: games, results, lengths, first moves, findings",
    "standings": "per event: points, rank, tie-breaks, crosstable (table, JSON, CSV, HTML)",
    "report": "the audit as one HTML page: errors, then warnings, as cards with boards",
    "completion": "print a shell completion script (bash, zsh, fish)",
}
#: Verbs whose work needs every verb's full parser (the completion script lists their options).
_EVERY_VERB = frozenset({"completion"})


def verb_module(name: str) -> ModuleType:
    """The module of verb ``name`` (imported on first use)."""
    return importlib.import_module(f"pdn.cli.{name}")


def build_parser(verbs: Iterable[str] | None = None) -> Parser:
    """The parser of ``pdn``: the full sub-parsers of ``verbs`` (default: every verb of
    ``VERBS``), each other verb only its name and line (enough for ``pdn --help`` and the
    unknown-verb hint). Cost: an import of each of ``verbs``' modules."""
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
    full = set(VERBS if verbs is None else verbs)
    for name, summary in VERBS.items():
        if name in full:
            verb_module(name).add_parser(subparsers, summary)
        else:
            subparsers.add_parser(name, help=summary)
    return parser


def _verbs_to_build(argv: Sequence[str]) -> Iterable[str]:
    """The verbs whose full parser a command line needs: the one it names first (every verb
    for one of ``_EVERY_VERB``), none for ``pdn --help``, ``--version`` or an unknown verb."""
    named = next((word for word in argv if not word.startswith("-")), None)
    if named not in VERBS:
        return ()
    return VERBS if named in _EVERY_VERB else (named,)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default ``sys.argv[1:]``) and return the exit code."""
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(_verbs_to_build(argv))
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
    (every output file is replaced only when whole, so none was written), Ctrl-C and SIGTERM
    into one line and 130 or 143."""
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
    except Terminated as terminated:
        print("pdn: terminated", file=sys.stderr)
        return int(terminated.code or 0)


@contextlib.contextmanager
def _sigterm_unwinds() -> Iterator[None]:
    """While a verb runs, SIGTERM unwinds like an error (worker pools shut down, temporary
    files removed) as ``Terminated``, which ``_run`` turns into one line and the conventional
    exit 143 (128 + 15). Main thread only."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _terminated(_signum: int, _frame: object) -> None:
    raise Terminated
