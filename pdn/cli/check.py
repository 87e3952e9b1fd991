"""`pdn check`: audit PDN files and report findings like a compiler (text) or as JSON Lines.

Findings go to stdout; the summary and the progress bar go to stderr (the bar only when stderr
is a terminal). Text shows errors and warnings (``-v`` adds info), each repeat within a file
once (``pdn.arbiter.textreport``); JSON keeps every finding. Exit codes: 0 clean, 1 error findings
(``--strict``: also warnings), 2 usage errors or unreadable paths.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.table import Column, Table

from pdn.arbiter.textreport import TextReport
from pdn.base.findings import CODES, SEVERITY_RANK, Finding, printable
from pdn.base.paths import common_folder
from pdn.batch.parallel import DASK_WAIT, GameReport, NotPdnPathError
from pdn.cli import arguments
from pdn.cli.exitcodes import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE
from pdn.cli.progress import ByteProgress, file_sizes
from pdn.engine.drawrules import PROFILES

EXAMPLES = (
    """\
examples:
  pdn check games.pdn                       findings as file:line:col: severity[code] ...
  pdn check games.pdn -v                    the info notes too (inferences, cosmetic tags,
                                            what `pdn fix --normalize` would tidy)
  pdn check db/ --format json > out.jsonl   a folder, one JSON object per finding
  pdn check games.pdn --variant russian     games without GameType are Russian
  pdn check games.pdn --rules damplay       Brazilian games with the DamPlay draw rules
  pdn check games.pdn --select illegal-move,missed-capture --strict
  pdn check big.pdn --jobs 0                spread the games over every core

Text output shows errors and warnings; -v adds info. A finding repeated in many games of a
file is one line with its games: "... (games 3-57, 55 games)". JSON keeps every finding.
A folder means its PDN files (*.pdn, any case), searched recursively. Every change `pdn fix`
makes by default answers one of these findings (same game, same code): `pdn fix --dry-run`
prints them as its change log.
severities: error = the record is wrong, warning = it may be wrong, info = a note.

draw-rule profiles: """
    + ", ".join(PROFILES)
    + """
finding codes: """
    + ", ".join(CODES)
)

#: Files listed by name in the summary, at most.
SUMMARY_FILES = 10


def add_parser(subparsers: Any, summary: str) -> None:
    """Register `pdn check`."""
    parser = arguments.add_verb(
        subparsers,
        "check",
        run,
        summary=summary,
        description="Replay every game (main line and variations) through the rules engine "
        "and report what is wrong: irregular moves, repetitions, move-limit draws played "
        "past, results that contradict the board, bad tags and FENs.",
        examples=EXAMPLES,
    )
    arguments.add_inputs(parser)
    arguments.add_audit_arguments(parser)
    arguments.add_format(
        parser, ("text", "json"), "text (default) or JSON Lines, one finding a line"
    )
    parser.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="text output: show info findings too (JSON always has every finding)",
    )
    parser.add_argument("--dask", metavar="ADDRESS", help="Dask scheduler to send the work to")
    arguments.add_number(
        parser,
        "--dask-wait",
        f"with --dask: seconds to wait for a first worker, then exit 2 (default {DASK_WAIT})",
        default=DASK_WAIT,
        metavar="SECONDS",
    )
    parser.add_argument(
        "--no-summary", action="store_true", help="no summary table on stderr at the end"
    )


@dataclass
class Summary:
    """Counts for the closing table: games, plies, findings by code, file, variant."""

    games: int = 0
    plies: int = 0
    unreadable: int = 0
    not_pdn: int = 0
    by_code: Counter[tuple[str, str]] = field(default_factory=Counter)  # (code, severity)
    by_severity: Counter[str] = field(default_factory=Counter)
    by_file: Counter[str] = field(default_factory=Counter)
    games_by_variant: Counter[str] = field(default_factory=Counter)
    findings_by_variant: Counter[str] = field(default_factory=Counter)
    variants_by_file: dict[str, Counter[str]] = field(default_factory=dict)

    def add(self, report: GameReport, findings: list[Finding]) -> None:
        self.games += 1
        self.plies += report.plies
        self.games_by_variant[report.variant] += 1
        self.variants_by_file.setdefault(report.file or "<stdin>", Counter())[report.variant] += 1
        for finding in findings:
            severity = finding.severity or "error"
            self.by_code[finding.code, severity] += 1
            self.by_severity[severity] += 1
            self.by_file[report.file or "<stdin>"] += 1
            self.findings_by_variant[report.variant] += 1

    def render(self, console: Console, hidden: int = 0) -> None:
        total = sum(self.by_code.values())
        severities = ", ".join(f"{count} {name}" for name, count in self.by_severity.most_common())
        console.print(
            f"[bold]{self.games}[/] games, {self.plies} plies replayed, "
            f"[bold]{total}[/] findings"
            + (f" ({severities})" if severities else "")
            + (f", {self.unreadable} unreadable path(s)" if self.unreadable else "")
            + (f", {self.not_pdn} file(s) not PDN" if self.not_pdn else "")
        )
        if hidden:
            console.print(f"{hidden} info findings not shown (-v shows them)")
        if self.by_code:
            codes = Table("code", "severity", "findings", title="by code", title_justify="left")
            for (code, severity), count in self.by_code.most_common():
                codes.add_row(code, severity, str(count))
            console.print(codes)
        if self.games_by_variant:
            variants = Table(
                "variant", "games", "findings", title="by variant", title_justify="left"
            )
            for name, games in self.games_by_variant.most_common():
                variants.add_row(name, str(games), str(self.findings_by_variant[name]))
            console.print(variants)
        if self.by_file:
            folder = common_folder(list(self.by_file))
            title = f"by file (in {folder})" if folder else "by file"
            files = Table(
                Column("file", overflow="fold"), "findings", title=title, title_justify="left"
            )
            for name, count in self.by_file.most_common(SUMMARY_FILES):
                files.add_row(os.path.relpath(name, folder) if folder else name, str(count))
            hidden = len(self.by_file) - SUMMARY_FILES
            if hidden > 0:
                files.add_row(f"... {hidden} more files", "")
            console.print(files)
        for name, readings_of in self.variants_by_file.items():
            if len(readings_of) > 1:
                readings = ", ".join(
                    f"{variant} ({games})" for variant, games in readings_of.most_common()
                )
                line = f"{printable(name)}: games of several variants: {readings}"
                console.print(line, markup=False, soft_wrap=True)


def run(args: argparse.Namespace) -> int:
    """Check every path; print findings; return the exit code."""
    from pdn.base.paths import PathError, expand_paths
    from pdn.batch.parallel import check

    errors = Console(file=sys.stderr)
    summary = Summary()
    threshold = SEVERITY_RANK["warning" if args.strict else "error"]
    worst = -1
    text = TextReport(sys.stdout, verbose=args.verbose)
    paths = list(expand_paths(args.paths))  # for the progress bar's total
    try:
        stream = check(
            args.paths,
            variant=args.variant,
            rules=args.rules,
            jobs=args.jobs,
            dask=args.dask,
            dask_wait=args.dask_wait,
            on_wait=lambda words: errors.print(f"pdn check: {words}", markup=False, soft_wrap=True),
        )
        for item in _with_progress(stream, errors, file_sizes(paths)):
            if isinstance(item, PathError) and item.skipped:
                errors.print(
                    f"pdn check: note: {item.file}: {item.message}", markup=False, soft_wrap=True
                )
                continue
            if isinstance(item, NotPdnPathError):  # one error[file] finding, whatever --select
                summary.not_pdn += 1
                findings = [item.finding]
            elif isinstance(item, PathError):
                summary.unreadable += 1
                errors.print(
                    f"pdn check: {item.file}: {item.message}", markup=False, soft_wrap=True
                )
                continue
            else:
                findings = arguments.selected(item.findings, args)
                summary.add(item, findings)
            if args.format == "json":
                for finding in findings:
                    print(finding.to_json())
            else:
                text.add(findings)
            for finding in findings:
                worst = max(worst, SEVERITY_RANK[finding.severity or "error"])
        text.close()
    except BrokenPipeError:
        raise
    except (RuntimeError, OSError) as error:  # a lost worker; --dask: no package, no scheduler
        errors.print(f"pdn check: {error}", markup=False, soft_wrap=True)
        return EXIT_USAGE
    sys.stdout.flush()
    if not args.no_summary:
        summary.render(errors, text.hidden if args.format == "text" else 0)
    if summary.unreadable or summary.not_pdn:
        return EXIT_USAGE
    return EXIT_FINDINGS if worst >= threshold else EXIT_OK


def _with_progress(
    stream: Iterator[Any], console: Console, sizes: dict[str, int] | None
) -> Iterator[Any]:
    """``stream`` unchanged; on a terminal ``console``, a bar of the bytes checked out of
    ``sizes`` (every file's size) with the rate and the time left, and the games checked."""
    # findings printed to a terminal stdout go above the bar; a redirected stdout is untouched
    with ByteProgress(console, sizes, redirect_stdout=sys.stdout.isatty()) as progress:
        for item in stream:
            progress.advance(
                getattr(item, "file", None),
                getattr(item, "end_byte", None),
                isinstance(item, GameReport),
            )
            yield item
