"""`pdn list`: one row per game from the headers only (the scanner, no grammar, no replay).

Columns: (File, for several files or a folder,) game number, line, White, Black, Event, Date,
Result, GameType, plies. Output as a
rich table, JSON Lines (one object per game) or CSV. Cost: one scan of the file.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
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
from pdn.base.paths import PathError, walk_paths
from pdn.cli import arguments
from pdn.cli.exitcodes import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE
from pdn.game.tags import tag_value
from pdn.pdnfile.scan import iter_spans, stdin_bytes
from pdn.pdnfile.span import Span

#: Output columns: (key in JSON/CSV, table heading); a listing of several files has
#: ("file", "File") first.
Columns = tuple[tuple[str, str], ...]
COLUMNS: Columns = (
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
  pdn list games/ more.pdn                every PDN file of games/, then more.pdn
  cat games.pdn | pdn list -              read standard input
"""


def add_parser(subparsers: Any, summary: str) -> None:
    """Register ``list`` and its options."""
    parser = arguments.add_verb(
        subparsers,
        "list",
        run,
        summary=summary,
        description="List the games of PDN files from their headers: no parsing, no replay.\n"
        "Several files or a folder: a File column first.",
        examples=EXAMPLES,
    )
    arguments.add_inputs(parser)
    arguments.add_format(
        parser,
        ("table", "lines", "json", "csv"),
        "table (default on a terminal), lines (tab-separated, default when stdout is a "
        "file or a pipe: never wrapped), JSON Lines, or CSV with a header row",
        by_output=True,
    )


def run(args: argparse.Namespace) -> int:
    """List the games of ``args.paths`` (folders: their PDN files, in order) to stdout, with a
    File column first when more than one file or a folder is named; scanning findings to
    stderr; exit code per DESIGN.md."""
    errors: list[Finding] = []
    unreadable = arguments.Unreadable("list")
    files: list[str] = []
    for item in walk_paths(args.paths):
        if isinstance(item, PathError) and item.skipped:
            print(f"pdn list: note: {item.file}: {item.message}", file=sys.stderr)
        elif isinstance(item, PathError):
            unreadable(item)
        else:
            files.append(item)
    several = len(args.paths) > 1 or any(os.path.isdir(path) for path in args.paths)
    columns = ((("file", "File"),) if several else ()) + COLUMNS
    rows = _rows(_spans(files, unreadable), errors, several)
    form = args.format or ("table" if sys.stdout.isatty() else "lines")
    if form == "table":
        _print_table(Console(file=sys.stdout), rows, columns)
    elif form == "lines":
        _lines(rows, columns)
    elif form == "json":
        for row in rows:
            sys.stdout.write(json.dumps(row, ensure_ascii=False) + "\n")
    else:
        writer = csv.DictWriter(
            sys.stdout, fieldnames=[key for key, _ in columns], lineterminator="\n"
        )
        writer.writeheader()
        writer.writerows(rows)
    if unreadable.failed:
        return EXIT_USAGE
    return EXIT_FINDINGS if errors else EXIT_OK


def _spans(files: Iterable[str], unreadable: arguments.Unreadable) -> Iterator[Span]:
    """The spans of each file in turn (``-``: standard input); a file that cannot be read is
    said by ``unreadable`` and the next one follows."""
    for path in files:
        try:
            with ExitStack() as stack:
                source: BinaryIO = (
                    stdin_bytes() if path == "-" else stack.enter_context(open(path, "rb"))
                )
                yield from iter_spans(source, name="<stdin>" if path == "-" else path)
        except BrokenPipeError:
            raise
        except OSError as error:
            unreadable(PathError(path, error.strerror or str(error)))


def _rows(
    spans: Iterable[Span], errors: list[Finding], with_file: bool
) -> Iterator[dict[str, Any]]:
    """Listing rows (with the file's name first when ``with_file``); each span's scanning
    findings go to stderr, errors also to ``errors``."""
    for span in spans:
        for finding in span.findings:
            print(finding.to_text(), file=sys.stderr)
            if finding.severity == "error":
                errors.append(finding)
        row = game_row(span)
        yield {"file": span.source.file, **row} if with_file else row


def game_row(span: Span) -> dict[str, Any]:
    """The listing row of one span: ordinal, line, first value of each header tag, plies."""
    row: dict[str, Any] = {"game": span.source.game, "line": span.source.line}
    row.update((tag, tag_value(span.tags, tag, aliases=True)) for tag in _TAG_COLUMNS)
    row["plies"] = span.plies
    return row


#: Columns whose values are short codes: never wrapped; names and events give way instead.
_NO_WRAP = frozenset({"game", "line", "Date", "Result", "GameType", "plies"})


def _lines(rows: Iterable[dict[str, Any]], columns: Columns) -> None:
    """One tab-separated line per game after a heading line (tabs and line breaks inside a
    value become spaces, control characters are escaped): for grep, cut and sort, never
    wrapped."""
    sys.stdout.write("\t".join(heading for _, heading in columns) + "\n")
    for row in rows:
        values = (
            "" if row[key] is None else printable(" ".join(str(row[key]).split()))
            for key, _ in columns
        )
        sys.stdout.write("\t".join(values) + "\n")


_NUMBERS = frozenset({"game", "line", "plies"})
#: Rows per printed page of the table: the listing streams (memory flat in the file size).
PAGE_ROWS = 500


def _print_table(console: Console, rows: Iterator[dict[str, Any]], columns: Columns) -> None:
    """Print the rows as one table in pages of ``PAGE_ROWS``: the header once. A listing of
    one page is sized to its content; a longer one gets the widths of its first page (room
    for 8-digit numbers, 12-character names) on every page, so the pages line up."""
    page = [_cells(row, columns) for row in islice(rows, PAGE_ROWS + 1)]
    if len(page) <= PAGE_ROWS:
        console.print(_table(page, columns, None, True))
        return
    widths = [
        max(
            [cell_len(heading), 8 if key in _NUMBERS else 12]
            + [cells[index].cell_len for cells in page]
        )
        for index, (key, heading) in enumerate(columns)
    ]
    header = True
    while page:
        console.print(_table(page, columns, widths, header))
        header = False
        page = [_cells(row, columns) for row in islice(rows, PAGE_ROWS)]


def _cells(row: dict[str, Any], columns: Columns) -> list[Text]:
    # Text, not markup: a tag value like "[/b]" is shown as written, never interpreted;
    # control characters escaped
    return [Text("" if row[key] is None else printable(str(row[key]))) for key, _ in columns]


def _table(
    page: list[list[Text]], columns: Columns, widths: list[int] | None, header: bool
) -> Table:
    table = Table(show_edge=False, pad_edge=False, show_header=header)
    for index, (key, heading) in enumerate(columns):
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
