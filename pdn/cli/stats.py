"""`pdn stats`: per variant, per player and per file counts of a game database.

Rich tables in the terminal; ``--format json`` one JSON document with the three tables;
``--format csv`` one long table (``table,row,column,value``) that any spreadsheet pivots.
Cost: one parse and replay per game (``--jobs`` spreads it), O(1) memory per game.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from pdn.base.findings import printable
from pdn.base.output import STDIO, atomic_output
from pdn.cli import arguments
from pdn.cli.exitcodes import EXIT_OK, EXIT_USAGE

EXAMPLES = """\
examples:
  pdn stats db/                      three tables: variants, players, files
  pdn stats db/ --players 0          every player, not only the 20 with most games
  pdn stats games.pdn --format json  for scripts
  pdn stats db/ --format csv > s.csv table,row,column,value (one value per line)
  pdn stats db/ --name-variants names.tsv   also propose canonical spellings (check them)
  pdn fix db/ --names names.tsv -o fixed.pdn   ... then rewrite the names to them

scores: wins + half the draws, over games with a known result; a variant's first moves
come from games that start at its initial position, scored for the first player.
"""


def add_parser(subparsers: Any, summary: str) -> None:
    """Register `pdn stats`."""
    parser = arguments.add_verb(
        subparsers,
        "stats",
        run,
        summary=summary,
        description="Count a game database: per variant games, results, average length and "
        "the most played first moves with scores; per player games and score; per file "
        "games and findings by severity.",
        examples=EXAMPLES,
    )
    arguments.add_inputs(parser)
    arguments.add_format(
        parser,
        ("table", "json", "csv"),
        "rich tables (default), one JSON document, or CSV rows table,row,column,value",
    )
    arguments.add_number(parser, "--players", "players listed (0: all)", minimum=0, default=20)
    arguments.add_variant(parser, "variant of games without a usable GameType")
    arguments.add_jobs(parser)
    parser.add_argument(
        "--name-variants",
        nargs="?",
        const=STDIO,
        metavar="FILE",
        help="write a names file (canonical<TAB>variant...) of the players written more than "
        "one way to FILE, for fix --names; without FILE (or '-') print it instead of the tables",
    )


def run(args: argparse.Namespace) -> int:
    """Count every game; print the tables; 0, or 2 when a path cannot be read."""
    from pdn.database.stats import stats

    unreadable = arguments.Unreadable("stats")
    if args.name_variants not in (None, STDIO) and arguments.overwrites_input(
        "stats", {"--name-variants": args.name_variants}, args.paths
    ):
        return EXIT_USAGE
    counts = stats(args.paths, variant=args.variant, jobs=args.jobs, on_error=unreadable)
    if args.name_variants is not None:
        try:
            with atomic_output(args.name_variants) as stream:
                stream.write(counts.name_variants())
        except OSError as error:
            print(f"pdn stats: {args.name_variants}: {error.strerror or error}", file=sys.stderr)
            return EXIT_USAGE
        if args.name_variants == STDIO:
            return EXIT_USAGE if unreadable.failed else EXIT_OK
    tables = counts.tables(players=args.players)
    if args.format == "json":
        print(json.dumps(tables, ensure_ascii=False))
    elif args.format == "csv":
        _csv(tables)
    else:
        console = Console(file=sys.stdout)
        for title, rows in _for_terminal(tables).items():
            console.print(_table(title, rows))
    return EXIT_USAGE if unreadable.failed else EXIT_OK


def _csv(tables: dict[str, list[dict[str, Any]]]) -> None:
    writer = csv.writer(sys.stdout, lineterminator="\n")
    writer.writerow(("table", "row", "column", "value"))
    for title, rows in tables.items():
        for row in rows:
            label = str(next(iter(row.values())))
            for column, value in list(row.items())[1:]:
                if column == "first_moves":
                    for line in value:
                        writer.writerow(
                            (title, label, f"first move {line['move']} games", line["games"])
                        )
                        writer.writerow(
                            (title, label, f"first move {line['move']} score", line["score"])
                        )
                else:
                    writer.writerow((title, label, column, "" if value is None else value))


def _for_terminal(tables: dict[str, list[dict[str, Any]]]) -> dict[str, list[dict[str, Any]]]:
    """The first moves as a table of their own (a nested list does not fit a cell)."""
    variants = [{k: v for k, v in row.items() if k != "first_moves"} for row in tables["variants"]]
    moves = [
        {"variant": row["variant"], **line}
        for row in tables["variants"]
        for line in row["first_moves"]
    ]
    return {
        "variants": variants,
        "first moves (first player's score)": moves,
        "players": tables["players"],
        "files": tables["files"],
    }


#: Columns holding a share (0..1), shown as percentages.
_SHARES = frozenset({"first_wins", "second_wins", "draws", "score"})


def _cell(column: str, value: Any) -> str:
    if value is None:
        return ""
    if column in _SHARES and isinstance(value, float):
        return f"{100 * value:.0f}%"
    return str(value)


def _table(title: str, rows: list[dict[str, Any]]) -> Table:
    table = Table(title=title, title_justify="left", show_edge=False, pad_edge=False)
    if not rows:
        return table
    for index, column in enumerate(rows[0]):
        numeric = index > 0 and column != "move"
        table.add_column(
            column.replace("_", " "),
            justify="right" if numeric else "left",
            no_wrap=index == 0 or numeric,
        )
    for row in rows:
        table.add_row(*(Text(printable(_cell(column, value))) for column, value in row.items()))
    return table
