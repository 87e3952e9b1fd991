"""The index at scale (issues 28-29): generated games, build size, and the queries in process.

    .venv/bin/python benchmarks/index_scale.py make /tmp/gen100k --games 100000
    .venv/bin/pdn index /tmp/gen100k.db /tmp/gen100k --jobs 2        # timed from outside
    .venv/bin/python benchmarks/index_scale.py query /tmp/gen100k.db

``make`` writes ``--games`` random legal International games (``tools/make_corpus.py``'s
``playout``, seeded: the same files every time) in files of ``--per-file`` games. ``query``
prints, as markdown, the database's size per game and per table, then each query's best wall
time of ``--repeat`` runs of ``Index.search`` (what ``pdn search`` does after opening the file,
``--limit 50``, ``--jobs``): positions (the start, after one move, one reached by ~20 games,
ply 20 of a game), the deep explorer, patterns, a manoeuvre, materials.
"""

from __future__ import annotations

import argparse
import os
import random
import sqlite3
import sys
import time
from pathlib import Path

from pdn.database.filters import Criteria, MaterialSpec
from pdn.database.index import Index
from pdn.database.manoeuvres import ManoeuvreQuery
from pdn.database.patterns import Pattern

TOOLS = Path(__file__).resolve().parents[1] / "tools"


def make(out: Path, games: int, per_file: int) -> None:
    """Write the generated games, ``per_file`` to a file."""
    sys.path.insert(0, str(TOOLS))
    from make_corpus import SEED, playout

    from pdn.engine.variants import Variant
    from pdn.pdnfile.writer import write_games

    variant = Variant.from_name("international")
    rng = random.Random(SEED)
    out.mkdir(parents=True, exist_ok=True)
    for first in range(0, games, per_file):
        batch = [playout(variant, rng, number) for number in range(first + 1, first + per_file + 1)]
        path = out / f"generated-{first // per_file:04d}.pdn"
        with path.open("w", encoding="utf-8") as stream:
            write_games(batch, stream, variant=variant, notation="numeric", move_numbers="renumber")
        print(f"{path}: {len(batch)} games", file=sys.stderr)


def _a_position_of(db: sqlite3.Connection, games: int) -> str:
    """The FEN of a position of ply 10 or more reached in about ``games`` games (from the
    index itself, so the query has answers)."""
    from pdn.database.index import _line, _pieces
    from pdn.engine.position import Position
    from pdn.engine.variants import Variant

    row = db.execute(  # the explorer's rows: plies before EXPLORER_PLIES (schema 6)
        "SELECT game_id, ply FROM (SELECT key, min(game_id) AS game_id, min(ply) AS ply,"
        " count(*) AS n FROM positions WHERE ply >= 6 GROUP BY key"
        " ORDER BY abs(count(*) - ?) LIMIT 1)",
        (games,),
    ).fetchone()
    game_id, ply = row
    variant = Variant.from_name("international")
    packed = db.execute("SELECT turn, boards FROM game_boards WHERE game_id = ?", (game_id,))
    turn, boards = _line(variant, *packed.fetchone())[ply]
    return Position.from_pieces(variant, _pieces(boards), turn).fen()  # type: ignore[arg-type]


def _a_later_position(db: sqlite3.Connection) -> str:
    """The FEN of ply 20 of the index's middle game (a position of ``position_keys``)."""
    from pdn.database.index import _line, _pieces
    from pdn.engine.position import Position
    from pdn.engine.variants import Variant

    variant = Variant.from_name("international")
    turn, blob = db.execute(
        "SELECT turn, boards FROM game_boards WHERE game_id >="
        " (SELECT (min(game_id) + max(game_id)) / 2 FROM game_boards) LIMIT 1"
    ).fetchone()
    side, boards = _line(variant, turn, blob)[20]
    return Position.from_pieces(variant, _pieces(boards), side).fen()  # type: ignore[arg-type]


def query(db_path: Path, repeat: int, jobs: int) -> None:
    index = Index(str(db_path))
    db = index.connection
    games = db.execute("SELECT count(*) FROM games").fetchone()[0]
    size = os.path.getsize(db_path)
    print(f"{games:,} games; database {size / 1e6:,.0f} MB = {size / games:,.0f} bytes per game")
    try:
        tables = db.execute(
            "SELECT name, sum(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC"
        ).fetchall()
        print(", ".join(f"{name} {pages / games:,.0f}" for name, pages in tables[:6]), "(B/game)")
    except sqlite3.Error:
        pass
    middle = _a_position_of(db, 20)
    deep = _a_later_position(db)
    criteria = {
        "--position start": (Criteria(position="W:W31-50:B1-20"), False),
        "--position after 32-28": (Criteria(position="B:W28,31,33-50:B1-20"), False),
        f"--position {middle}": (Criteria(position=middle), False),
        "--position after 32-28 --deep": (Criteria(position="B:W28,31,33-50:B1-20"), True),
        "--position (ply 6-7 one) --deep": (Criteria(position=middle), True),
        f"--position {deep} (ply 20 of a game)": (Criteria(position=deep), False),
        "--position (ply 20 one) --deep": (Criteria(position=deep), True),
        "--pattern '?:WK46:B'": (Criteria(pattern=Pattern.parse("?:WK46:B")), False),
        "--pattern 'W:W24:B19'": (Criteria(pattern=Pattern.parse("W:W24:B19")), False),
        "--pattern 'W:W24:B19' --mirror": (
            Criteria(pattern=Pattern.parse("W:W24:B19", mirror=True)),
            False,
        ),
        "--move 'bK46x02' (manoeuvre)": (Criteria(moves=(ManoeuvreQuery.parse("bK46x02"),)), False),
        "--material 20:20": (Criteria(material=MaterialSpec.parse("20:20")), False),
        "--material K3:K1": (Criteria(material=MaterialSpec.parse("K3:K1")), False),
    }
    print(f"\n| query | games found | best of {repeat} (ms) |\n|---|---|---|")
    for name, (asked, deep) in criteria.items():
        best, found = float("inf"), 0
        for _ in range(repeat):
            started = time.perf_counter()
            found = index.search(asked, limit=50, deep=deep, jobs=jobs).total
            best = min(best, time.perf_counter() - started)
        print(f"| `{name}` | {found:,} | {best * 1000:,.1f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    verbs = parser.add_subparsers(dest="verb", required=True)
    making = verbs.add_parser("make")
    making.add_argument("out", type=Path)
    making.add_argument("--games", type=int, default=100_000)
    making.add_argument("--per-file", type=int, default=10_000)
    asking = verbs.add_parser("query")
    asking.add_argument("db", type=Path)
    asking.add_argument("--repeat", type=int, default=3)
    asking.add_argument("--jobs", type=int, default=1, help="as pdn search --jobs")
    args = parser.parse_args()
    if args.verb == "make":
        make(args.out, args.games, args.per_file)
    else:
        query(args.db, args.repeat, args.jobs)


if __name__ == "__main__":
    main()
