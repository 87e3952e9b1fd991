"""`pdn list`: one row per game from the headers only (the scanner, no grammar, no replay).

Columns: game number, line, White, Black, Event, Date, Result, GameType, plies. Output as a
rich table, JSON Lines (one object per game) or CSV. Cost: one scan of the file.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from collections.abc import Iterable, Iterator
from contextlib import ExitStack
from itertools import islice
from typing import Any, BinaryIO

from rich.cells import cell_len
from rich.console import Console
from rich.table import Table
from rich.text import Text

from pdn.base.findings import Finding, printable
from pdn.cli import arguments
from pdn.cli.exitcodes import EXIT_FINDINGS, EXIT_OK, path_error
from pdn.pdnfile.scan import Span, iter_spans, stdin_bytes

#: Output columns: (key in JSON/CSV, table heading).
COLUMNS = (
    ("game", "#"),
    ("line", "Line"),
    ("White", "White"),
    ("Black", "Black"),
    ("Event", "Event"),
    ("Date", "Date"),
    ("Result", "Result"),
    ("GameType", "GameType"),
    ("plies", "Plies"),
)
_TAG_COLUMNS = ("White", "Black", "Event", "Date", "Result", "GameType")

EXAMPLES = """\
examples:
  pdn list games.pdn                      a table on a terminal, tab-separated lines in a pipe
  pdn list games.pdn --format csv > g.csv
  pdn list games.pdn --format json        one JSON object per game
  cat games.pdn | pdn list -              read standard input
"""


def add_parser(subparsers: Any) -> None:
    """Register ``list`` and its options."""
    parser = arguments.add_verb(
        subparsers,
        "list",
        run,
        summary="one line per game from the headers (fast, no replay)",
        description="List the games of a PDN file from their headers: no parsing, no replay.",
        examples=EXAMPLES,
    )
    arguments.add_input(parser)
    arguments.add_format(
        parser,
        ("table", "lines", "json", "csv"),
        "table (default on a terminal), lines (tab-separated, default when stdout is a "
        "file or a pipe: never wrapped), JSON Lines, or CSV with a header row",
        by_output=True,
    )


def run(args: argparse.Namespace) -> int:
    """List ``args.path`` to stdout; scanning findings to stderr; exit code per DESIGN.md."""
    errors: list[Finding] = []
    try:
        with ExitStack() as stack:
            source: BinaryIO = (
                stdin_bytes() if args.path == "-" else stack.enter_context(open(args.path, "rb"))
            )
            name = "<stdin>" if args.path == "-" else args.path
            rows = _rows(iter_spans(source, name=name), errors)
            form = args.format or ("table" if sys.stdout.isatty() else "lines")
            if form == "table":
                _print_table(Console(file=sys.stdout), rows)
            elif form == "lines":
                _lines(rows)
            elif form == "json":
                for row in rows:
                    sys.stdout.write(json.dumps(row, ensure_ascii=False) + "\n")
            else:
                writer = csv.DictWriter(
                    sys.stdout, fieldnames=[key for key, _ in COLUMNS], lineterminator="\n"
                )
                writer.writeheader()
                writer.writerows(rows)
    except BrokenPipeError:
        raise
    except OSError as error:
        return path_error("list", error)
    return EXIT_FINDINGS if errors else EXIT_OK


def _rows(spans: Iterable[Span], errors: list[Finding]) -> Iterator[dict[str, Any]]:
    """Listing rows; each span's scanning findings go to stderr, errors also to ``errors``."""
    for span in spans:
        for finding in span.findings:
            print(finding.to_text(), file=sys.stderr)
            if finding.severity == "error":
                errors.append(finding)
        yield game_row(span)


def game_row(span: Span) -> dict[str, Any]:
    """The listing row of one span: ordinal, line, first value of each header tag, plies."""
    tags: dict[str, str] = {}
    for tag, value in span.tags:
        tags.setdefault(tag, value)
    row: dict[str, Any] = {"game": span.source.game, "line": span.source.line}
    row.update((tag, tags.get(tag)) for tag in _TAG_COLUMNS)
    row["plies"] = span.plies
    return row


#: Columns whose values are short codes: never wrapped; names and events give way instead.
_NO_WRAP = frozenset({"game", "line", "Date", "Result", "GameType", "plies"})


def _lines(rows: Iterable[dict[str, Any]]) -> None:
    """One tab-separated line per game after a heading line (tabs and line breaks inside a
    value become spaces, control characters are escaped): for grep, cut and sort, never
    wrapped."""
    sys.stdout.write("\t".join(heading for _, heading in COLUMNS) + "\n")
    for row in rows:
        values = (
            "" if row[key] is None else printable(" ".join(str(row[key]).split()))
            for key, _ in COLUMNS
        )
        sys.stdout.write("\t".join(values) + "\n")


_NUMBERS = frozenset({"game", "line", "plies"})
#: Rows per printed page of the table: the listing streams (memory flat in the file size).
PAGE_ROWS = 500


def _print_table(console: Console, rows: Iterator[dict[str, Any]]) -> None:
    """Print the rows as one table in pages of ``PAGE_ROWS``: the header once. A listing of
    one page is sized to its content; a longer one gets the widths of its first page (room
    for 8-digit numbers, 12-character names) on every page, so the pages line up."""
    page = [_cells(row) for row in islice(rows, PAGE_ROWS + 1)]
    if len(page) <= PAGE_ROWS:
        console.print(_table(page, None, True))
        return
    widths = [
        max(
            [cell_len(heading), 8 if key in _NUMBERS else 12]
            + [cells[index].cell_len for cells in page]
        )
        for index, (key, heading) in enumerate(COLUMNS)
    ]
    header = True
    while page:
        console.print(_table(page, widths, header))
        header = False
        page = [_cells(row) for row in islice(rows, PAGE_ROWS)]


def _cells(row: dict[str, Any]) -> list[Text]:
    # Text, not markup: a tag value like "[/b]" is shown as written, never interpreted;
    # control characters escaped
    return [Text("" if row[key] is None else printable(str(row[key]))) for key, _ in COLUMNS]


def _table(page: list[list[Text]], widths: list[int] | None, header: bool) -> Table:
    table = Table(show_edge=False, pad_edge=False, show_header=header)
    for index, (key, heading) in enumerate(COLUMNS):
        table.add_column(
            heading,
            justify="right" if key in _NUMBERS else "left",
            no_wrap=key in _NO_WRAP,
            overflow="fold" if key in _NO_WRAP else "ellipsis",
            width=None if widths is None else widths[index],
        )
    for cells in page:
        table.add_row(*cells)
    return table
