"""`pdn standings`: per event, each player's games, wins, draws, losses, points, rank and
tie-break; a crosstable for round robins.

Output (stdout or ``-o``): rich tables, one JSON document (``{"events": [...]}``, each event as
``pdn.database.standings.EventStandings.to_dict``), CSV (one row per player and event), or an
HTML page (``pdn.views.standingsview``). Cost: one header scan per file
(``pdn.database.standings``).
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from typing import IO, Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from pdn.base.findings import printable
from pdn.base.output import atomic_output
from pdn.cli import arguments
from pdn.cli.exitcodes import EXIT_OK, EXIT_USAGE

EXAMPLES = """\
examples:
  pdn standings nk2003.pdn                       standings and crosstable in the terminal
  pdn standings db/ --event "WK 2003"            the events whose name contains WK 2003
  pdn standings wk.pdn --format html -o wk.html  a page to publish (no script, no network)
  pdn standings games.pdn --scoring 3-1-0        3 points a win, 1 a draw
  pdn standings games.pdn --format csv > s.csv   one row per player and event

scoring: the variant's own by default (2-1-0 on 10x10 and 12x12 whatever the file writes,
1-1/2-0 on 8x8). A round robin (every two players met, as often as any other two) is
ranked by Sonneborn-Berger, any other event as a Swiss one by Buchholz; the output says which.
Games without a result are counted apart, never scored; a game read twice (same players,
Date, Round and moves) counts once: for other copies run `pdn dedupe` first.
"""
#: Characters of a name in the crosstable (the standings table above has them whole).
CROSSTABLE_NAME = 14
_CSV_COLUMNS = (
    "event",
    "variant",
    "system",
    "rank",
    "player",
    "games",
    "wins",
    "draws",
    "losses",
    "points",
    "tiebreak_name",
    "tiebreak",
    "without_result",
)


def add_parser(subparsers: Any, summary: str) -> None:
    """Register `pdn standings`."""
    parser = arguments.add_verb(
        subparsers,
        "standings",
        run,
        summary=summary,
        description="Tournament standings from the headers of game files: per event (the "
        "Event tag) each player's games, wins, draws, losses and points, the rank and a "
        "tie-break, with a crosstable for round robins. Names match across spellings "
        '("Sijbrands, Ton" = "Ton Sijbrands").',
        examples=EXAMPLES,
    )
    arguments.add_inputs(parser)
    arguments.add_output(parser, "the standings")
    arguments.add_format(
        parser,
        ("table", "json", "csv", "html"),
        "rich tables (default), one JSON document, CSV rows, or an HTML page",
    )
    parser.add_argument(
        "--event", metavar="TEXT", help="only the events whose name contains TEXT (any case)"
    )
    parser.add_argument(
        "--scoring",
        type=arguments.parsed(_scoring),
        metavar="W-D-L",
        help="points for a win, a draw and a loss, e.g. 2-1-0, 1-0.5-0, 3-1-0 "
        "(default: the variant's)",
    )
    parser.add_argument(
        "--system",
        choices=("auto", "round-robin", "swiss"),
        default="auto",
        help="round robin (Sonneborn-Berger) or Swiss (Buchholz); default: from the pairings",
    )
    arguments.add_variant(parser, "variant of games without a usable GameType")


def _scoring(text: str) -> tuple[float, float, float]:
    from pdn.database.standings import parse_scoring

    return parse_scoring(text)


def run(args: argparse.Namespace) -> int:
    """Compute and print the standings; 0, or 2 on a path or output that fails."""
    from pdn.database.standings import standings

    if arguments.overwrites_input("standings", {"-o": args.output}, args.paths):
        return EXIT_USAGE
    unreadable = arguments.Unreadable("standings")
    events = [
        event.to_dict()
        for event in standings(
            args.paths,
            event=args.event,
            scoring=args.scoring,
            system=None if args.system == "auto" else args.system,
            variant=args.variant,
            on_error=unreadable,
        )
    ]
    if not events:
        wanted = f" with {args.event!r} in its name" if args.event else ""
        print(f"pdn standings: no event{wanted} in the games read", file=sys.stderr)
    try:
        with atomic_output(args.output) as stream:
            _write(stream, events, args.format)
    except BrokenPipeError:  # stdout closed (``| head``): the verb ends quietly (pdn.cli.main)
        raise
    except OSError as error:
        print(f"pdn standings: {error}", file=sys.stderr)
        return EXIT_USAGE
    return EXIT_USAGE if unreadable.failed else EXIT_OK


def _write(stream: IO[str], events: list[dict[str, Any]], form: str) -> None:
    from pdn.views.standingsview import standings_page

    if form == "json":
        stream.write(json.dumps({"events": events}, ensure_ascii=False) + "\n")
    elif form == "csv":
        writer = csv.writer(stream, lineterminator="\n")
        writer.writerow(_CSV_COLUMNS)
        for event in events:
            for row in event["standings"]:
                said = {**event, **row, "tiebreak_name": event["tiebreak"]}
                writer.writerow([said[column] for column in _CSV_COLUMNS])
    elif form == "html":
        title = events[0]["event"] if len(events) == 1 and events[0]["event"] else "Standings"
        stream.write(standings_page(events, title))
    else:
        _print_tables(Console(file=stream), events)


def _print_tables(console: Console, events: list[dict[str, Any]]) -> None:
    """Each event: its name, how it was computed, the table, the crosstable of a round robin
    (never squeezed below its width: wider than the console, its lines run on)."""
    from pdn.views.standingsview import about_text

    for number, event in enumerate(events):
        if number:
            console.print()
        console.print(Text(printable(event["event"] or "(no Event tag)"), style="bold"))
        console.print(Text(printable(about_text(event))))
        for table in _tables(event):
            width = console.measure(table).maximum
            console.print(table, width=max(width, console.width), crop=False)


def _tables(event: dict[str, Any]) -> list[Table]:
    """The standings table of ``event`` and, for a round robin, its crosstable."""
    from pdn.views.standingsview import TIEBREAK_HEADINGS, game_points_text, points_text

    rows = event["standings"]
    unscored = any(row["without_result"] for row in rows)
    table = Table(show_edge=False, pad_edge=False)
    tiebreak = TIEBREAK_HEADINGS.get(event["tiebreak"], event["tiebreak"])
    heads = ["#", "Player", "Games", "W", "D", "L", "Points"]
    for head in [*heads, tiebreak, *(["No result"] if unscored else [])]:
        table.add_column(head, justify="left" if head == "Player" else "right", no_wrap=True)
    for row in rows:
        cells = [
            str(row["rank"]),
            printable(row["player"]),
            *(str(row[key]) for key in ("games", "wins", "draws", "losses")),
            points_text(row["points"]),
            points_text(row["tiebreak"]),
        ]
        if unscored:
            cells.append(str(row["without_result"] or ""))
        table.add_row(*(Text(cell) for cell in cells))
    if event["crosstable"] is None:
        return [table]
    marks = [
        ["×" if column == index else game_points_text(games) for column, games in enumerate(line)]
        for index, line in enumerate(event["crosstable"])
    ]
    cross = Table(
        title="crosstable", title_justify="left", show_edge=False, pad_edge=False, padding=(0, 1)
    )
    cross.add_column("#", justify="right", no_wrap=True, min_width=len(str(len(rows))))
    cross.add_column("Player", no_wrap=True, max_width=CROSSTABLE_NAME, overflow="ellipsis")
    for column in range(len(rows)):
        widest = max(len(str(column + 1)), *(len(line[column]) for line in marks))
        cross.add_column(str(column + 1), justify="center", no_wrap=True, min_width=widest)
    cross.add_column("Pts", justify="right", no_wrap=True, min_width=3)
    for index, (row, played) in enumerate(zip(rows, marks, strict=True)):
        shown = (str(index + 1), printable(row["player"]), *played, points_text(row["points"]))
        cross.add_row(*(Text(cell) for cell in shown))
    return [table, cross]
