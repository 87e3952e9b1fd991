"""`pdn search DB`: games of an index by position, material, players, tags, findings.

Answers from the index alone (``pdn index`` builds it): each game with the ply where the
position (or the material) first stood, the move played there and the result, then an opening
explorer summary of the next moves with their results and the score of the side to move.
The filters are those of ``pdn select``, with the same answers. Each file of the games listed
that changed or vanished since it was indexed is one line on stderr (``--strict``: exit 2, no
answer). Cost: one index range read per position key, then the candidate games' rows, and one
``stat`` per file listed.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from pdn.base.findings import printable
from pdn.cli import arguments
from pdn.cli.exitcodes import EXIT_OK, EXIT_USAGE

EXAMPLES = """\
examples:
  pdn search games.db --position "B:W28,29,31,34-50:B1-15,17-21"   games and next moves
  pdn search games.db --material K3:K1 --variant international     3 kings v 1
  pdn search games.db --player "Sijbrands, Ton" --result white     his wins with White
  pdn search games.db --position "W:W31-50:B1-20" --format json    for scripts
  pdn search games.db --position "B:W28,31,33-50:B1-20" --deep     transpositions, and the
                                                 statistics of the position after each move
  pdn search games.db --pattern "?:WK46:B" --result 2-0   White won with a king on 46
  pdn search games.db --pattern "W:W24:B19" --mirror      also the colour-swapped pattern
  pdn search games.db --pattern "W:W24:B19" --jobs 0      on every core (a big index)
  pdn search games.db --move "shot takes:3.."             a shot of 3 pieces or more

Without --variant, a FEN is read in every variant whose board it fits.
"""


def add_parser(subparsers: Any, summary: str) -> None:
    """Register `pdn search`."""
    parser = arguments.add_verb(
        subparsers,
        "search",
        run,
        summary=summary,
        description="Find games in an index built by 'pdn index': each game, the ply where "
        "the position stood, the move played there and the result; then the next moves "
        "played in that position with their results (an opening explorer).",
        examples=EXAMPLES,
    )
    parser.add_argument("database", metavar="DB", help="an index built by pdn index")
    arguments.add_format(parser, ("table", "json"), "rich tables (default) or one JSON document")
    arguments.add_number(
        parser,
        "--limit",
        "games listed, at most (0: all)",
        minimum=0,
        maximum=2**63 - 1,  # SQLite's largest integer
        default=50,
    )
    parser.add_argument(
        "--deep",
        action="store_true",
        help="with --position: count the move orders that reached it (transpositions) and "
        "show, for each next move, the games and results of the position it leads to",
    )
    parser.add_argument(
        "--strict",
        action="store_true",
        help="exit 2, with no answer, when a file of the games listed changed since indexing",
    )
    arguments.add_jobs(parser, "processes a --pattern is tested on, for big indexes (0: all cores)")
    arguments.add_criteria_arguments(parser)


def run(args: argparse.Namespace) -> int:
    """Search the index; results on stdout, files changed since indexing on stderr; 0, or 2
    for a bad index or filter (or, with ``--strict``, a changed file)."""
    from pdn.database.index import Index, UnusableIndexError

    try:
        criteria = arguments.criteria_from(args)
        if args.deep and not criteria.position:
            raise ValueError("--deep explores a position: give --position FEN too")
        with Index(
            args.database, on_wait=lambda message: print(f"pdn search: {message}", file=sys.stderr)
        ) as index:
            found = index.search(criteria, limit=args.limit, deep=args.deep, jobs=args.jobs)
    except (ValueError, UnusableIndexError) as error:
        print(f"pdn search: {error}", file=sys.stderr)
        return EXIT_USAGE
    for change in found.changed:
        where = printable(change.file).replace("\n", "\\n")  # one line per file
        print(
            f"pdn search: {where}: {change.reason}; update it: pdn index {args.database} PATH...",
            file=sys.stderr,
        )
    if found.changed and args.strict:
        return EXIT_USAGE
    if args.format == "json":
        document: dict[str, object] = {
            "games": [hit.to_dict() for hit in found.hits],
            "total": found.total,
            "moves": [_move_fields(line, found) for line in found.moves],
        }
        if found.orders is not None:
            document["move_orders"] = len(found.orders)
            document["transposed"] = found.transposed
        print(json.dumps(document, ensure_ascii=False))
        return EXIT_OK
    console = Console(file=sys.stdout)
    console.print(_games_table(found.hits, found.total))
    if found.orders:
        console.print(
            f"reached by {len(found.orders)} move order(s); {found.transposed} game(s) by "
            "another order than the most played one",
            markup=False,
            highlight=False,
        )
    if found.moves:
        console.print(_moves_table(found))
    return EXIT_OK


def _move_fields(line: Any, found: Any) -> dict[str, object]:
    """An explorer line for JSON; with ``--deep``, ``after``: the next position's statistics."""
    fields = dict(line.__dict__)
    if found.next_positions is not None:
        after = found.next_positions.get(line.move)
        fields["after"] = None if after is None else after.__dict__
    return fields


def _games_table(hits: list[Any], total: int) -> Table:
    title = f"{total} game(s)" + (f", first {len(hits)}" if len(hits) < total else "")
    table = Table(title=title, title_justify="left", show_edge=False, pad_edge=False)
    for heading in ("file", "#", "White", "Black", "Date", "ply", "next", "result"):
        table.add_column(heading, justify="right" if heading in ("#", "ply") else "left")
    for hit in hits:
        ply = hit.ply if hit.ply is not None else hit.material_ply
        cells = (
            _short(hit.file),
            hit.game,
            hit.white,
            hit.black,
            hit.date,
            ply,
            hit.next_move,
            hit.result,
        )
        table.add_row(*(Text("" if cell is None else printable(str(cell))) for cell in cells))
    return table


def _short(path: str) -> str:
    """``path`` relative to the working folder when it is under it."""
    relative = os.path.relpath(path)
    return path if relative.startswith("..") else relative


def _moves_table(found: Any) -> Table:
    mover = {"W": "White", "B": "Black"}.get(found.turn, "mover")
    deep = found.next_positions is not None
    table = Table(title="next moves", title_justify="left", show_edge=False, pad_edge=False)
    headings = ["move", "games", "White won", "draws", "Black won", f"{mover} score"]
    if deep:  # the position after the move, reached by any move order
        headings.append("after: games W/D/B")
    for heading in headings:
        table.add_column(heading, justify="left" if heading == "move" else "right")
    for line in found.moves:
        score = "" if line.score is None else f"{100 * line.score:.0f}%"
        cells = [str(line.games), str(line.white), str(line.draws), str(line.black), score]
        if deep:
            after = found.next_positions.get(line.move)
            cells.append(
                "" if after is None else f"{after.games}: {after.white}/{after.draws}/{after.black}"
            )
        table.add_row(Text(printable(line.move or "(end)")), *cells)
    return table
