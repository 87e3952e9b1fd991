"""`pdn report`: the audit of PDN files as one self-contained HTML page
(``pdn.batch.reporting``, drawn by ``pdn.views.htmlreport``)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from pdn.base.findings import SEVERITY_RANK
from pdn.cli import arguments
from pdn.cli.exitcodes import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE
from pdn.views.htmlreport import MAX_CARDS

EXAMPLES = f"""\
examples:
  pdn report games.pdn -o report.html            audit one file, open report.html in a browser
  pdn report db/ -o db.html --jobs 0             a folder, audited on every core
  pdn report games.pdn -o r.html --select illegal-move,missed-capture,capture-rule
  pdn report big.pdn -o r.html --max-cards 50    at most 50 cards per finding code
  pdn report games.pdn -o - > report.html        the page on standard output

The page needs no network: boards are inline SVG, the filters a few lines of inline
JavaScript (without it every card shows). One card per finding, grouped by file and game,
errors first, at most --max-cards per code (default {MAX_CARDS}); the summary counts them all.
Exit code 1 when a finding of severity error was found (--strict: also warnings), 2 for usage
or I/O problems.
"""


def add_parser(subparsers: Any) -> None:
    """Register `pdn report`."""
    parser = arguments.add_verb(
        subparsers,
        "report",
        run,
        summary="the audit as one HTML page: summary, one card per finding with its board",
        description="Audit PDN files as `pdn check` does and write one self-contained HTML "
        "page: a summary (tables and bar charts), then a card per finding with the board "
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
        f"cards drawn per finding code (default {MAX_CARDS}; the rest are counted)",
        minimum=0,
        default=MAX_CARDS,
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
            title=args.title,
            jobs=args.jobs,
            on_error=arguments.Unreadable("report"),
        )
    except (ReportError, InputOverwriteError) as error:
        print(f"pdn report: {error}", file=sys.stderr)
        return EXIT_USAGE
    if args.output != "-":
        print(
            f"pdn report: wrote {args.output}: {summary.games} games, "
            f"{summary.findings} findings, {summary.cards} cards",
            file=sys.stderr,
        )
    if summary.unreadable:
        return EXIT_USAGE
    threshold = SEVERITY_RANK["warning" if args.strict else "error"]
    worst = SEVERITY_RANK[summary.worst] if summary.worst else -1
    return EXIT_FINDINGS if worst >= threshold else EXIT_OK
