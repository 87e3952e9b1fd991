"""`pdn report`: the audit of PDN files as one self-contained HTML page
(``pdn.batch.reporting``, drawn by ``pdn.views.htmlreport``)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from pdn.base.findings import SEVERITY_RANK
from pdn.cli import arguments
from pdn.cli.exitcodes import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE
from pdn.views.htmlreport import MAX_CARDS, plural

EXAMPLES = f"""\
examples:
  pdn report games.pdn -o report.html            audit one file, open report.html in a browser
  pdn report db/ -o db.html --jobs 0             a folder, audited on every core
  pdn report games.pdn -o r.html --select illegal-move,missed-capture,capture-rule
  pdn report big.pdn -o r.html --max-cards 50    every error, warnings up to 50 cards in all
  pdn report games.pdn -o r.html -v              info notes as cards too
  pdn report games.pdn -o - > report.html        the page on standard output

The page leads with what is wrong: a card per error, then per warning, grouped by file and
game (the files and games with errors first). Every error gets a card; warnings fill up to
--max-cards cards in all (default {MAX_CARDS}), each code its fair part; the page says what it
left out. Info notes are folded as `pdn check` folds them, one line per message with its games
(-v draws them as cards too, within the cap). A bar stays on top with the filters and their
counts; n and p (or its buttons) go to the next and previous error. An index lists every
file (named relative to their folder, in natural order: draw9 before draw10) and its games
with cards. The page needs no network: boards are inline SVG, the bar a few lines of inline
JavaScript (without it every card shows).
Exit code 1 when a finding of severity error was found (--strict: also warnings), 2 for usage
or I/O problems.
"""


def add_parser(subparsers: Any, summary: str) -> None:
    """Register `pdn report`."""
    parser = arguments.add_verb(
        subparsers,
        "report",
        run,
        summary=summary,
        description="Audit PDN files as `pdn check` does and write one self-contained HTML "
        "page: a summary (tables and bar charts), then a card per error and warning with the board "
        "before the move (the written move as an arrow, captures crossed), the legal "
        "alternatives, the count behind a draw rule, and the moves around it.",
        examples=EXAMPLES,
    )
    arguments.add_inputs(parser, refuse_stdin="read twice")
    arguments.add_output(parser, "the HTML file to write", default=None, required=True)
    arguments.add_audit_arguments(parser)
    arguments.add_number(
        parser,
        "--max-cards",
        f"cards drawn in all (default {MAX_CARDS}): every error, then warnings, then with -v "
        "info, each code its fair part; the rest are counted",
        minimum=0,
        default=MAX_CARDS,
    )
    parser.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="info notes as cards too (without it they are folded, one line per message)",
    )
    parser.add_argument("--title", default="pdn report", help="the page's title")


def run(args: argparse.Namespace) -> int:
    """Write the page (``pdn.batch.reporting.report``); its counts to stderr."""
    from pdn.base.output import InputOverwriteError
    from pdn.batch.reporting import ReportError, report

    try:
        summary = report(
            args.paths,
            args.output,
            variant=args.variant,
            rules=args.rules,
            select=args.select,
            ignore=args.ignore,
            max_cards=args.max_cards,
            verbose=args.verbose,
            title=args.title,
            jobs=args.jobs,
            on_error=arguments.Unreadable("report"),
        )
    except (ReportError, InputOverwriteError) as error:
        print(f"pdn report: {error}", file=sys.stderr)
        return EXIT_USAGE
    if args.output != "-":
        print(
            f"pdn report: wrote {args.output}: {plural(summary.games, 'game')}, "
            f"{plural(summary.findings, 'finding')}, {plural(summary.cards, 'card')}",
            file=sys.stderr,
        )
    if summary.unreadable:
        return EXIT_USAGE
    threshold = SEVERITY_RANK["warning" if args.strict else "error"]
    worst = SEVERITY_RANK[summary.worst] if summary.worst else -1
    return EXIT_FINDINGS if worst >= threshold else EXIT_OK
