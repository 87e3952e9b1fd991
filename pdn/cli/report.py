"""`pdn report`: the audit of PDN files as one self-contained HTML page
(``pdn.views.htmlreport``)."""

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


def _fail(message: str) -> int:
    print(f"pdn report: {message}", file=sys.stderr)
    return EXIT_USAGE


def run(args: argparse.Namespace) -> int:
    """Audit every path (first pass), replay the games with cards (second pass), write."""
    from pdn.arbiter.replay import replay
    from pdn.base.output import atomic_output
    from pdn.base.paths import PathError
    from pdn.batch.parallel import AuditOptions, check_paths
    from pdn.pdnfile.reader import parse_span
    from pdn.pdnfile.scan import iter_spans
    from pdn.views.htmlreport import ReportPage

    page = ReportPage(max_cards=args.max_cards, rules=args.rules, title=args.title)
    worst = -1
    options = AuditOptions(variant=args.variant, rules=args.rules)
    for item in check_paths(args.paths, options, jobs=args.jobs):
        if isinstance(item, PathError):
            page.unreadable_path(item.file, item.message)
            print(f"pdn report: {item.file}: {item.message}", file=sys.stderr)
            continue
        findings = arguments.selected(item.findings, args)
        page.count(item, findings)
        for finding in findings:
            worst = max(worst, SEVERITY_RANK[finding.severity or "error"])
    for file in list(page.files):
        wanted = page.wanted(file)
        if not wanted:
            continue
        try:
            for span in iter_spans(file):
                if span.source.game in wanted:
                    game = parse_span(span)
                    page.add_game(file, game, replay(game, variant=args.variant, rules=args.rules))
        except OSError as error:
            return _fail(f"cannot read {file} again: {error.strerror or error}")
    try:
        with atomic_output(args.output) as out:
            out.write(page.html())
    except OSError as error:
        return _fail(f"cannot write {args.output}: {error.strerror or error}")
    if args.output != "-":
        counts = page.counts
        print(
            f"pdn report: wrote {args.output}: {counts.games} games, "
            f"{sum(counts.by_severity.values())} findings, {page.card_count} cards",
            file=sys.stderr,
        )
    if page.unreadable:
        return EXIT_USAGE
    threshold = SEVERITY_RANK["warning" if args.strict else "error"]
    return EXIT_FINDINGS if worst >= threshold else EXIT_OK
