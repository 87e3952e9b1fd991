"""Index build rate, database size per game and search latency on >= 100,000 games.

    .venv/bin/python benchmarks/index.py --copies 23 --jobs 2 --workdir /tmp/pdn-index-bench

The shared corpus (``../shared/corpus``, 4,405 games) is copied ``--copies`` times into
``--workdir`` (byte-identical copies in their own folders: every game is a distinct game of
the index, and every position occurs ``--copies`` times as often as in the corpus: a harder
case for position queries than distinct games). Then ``pdn index`` builds the database
(wall time: the work runs on ``--jobs`` processes), and each query is answered in process, best wall
time of ``--repeat`` runs (``pdn.database.index.Index.search`` with the default ``--limit 50``:
what ``pdn search`` does after opening the file); finally one ``pdn search`` command end to end.
``--keep`` queries an index built before. Prints markdown.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from pdn.base.paths import expand_paths
from pdn.database.filters import Criteria, MaterialSpec
from pdn.database.index import Index

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
QUERIES = {
    "start position (White to move)": Criteria(position="W:W31-50:B1-20"),
    "after 1. 32-28 (most played)": Criteria(position="B:W28,31,33-50:B1-20"),
    "a position of ply 10 (29 corpus games)": Criteria(
        position="W:W26,29,32-49:B2-15,17-22", variant="international"
    ),
    "material K3:K1 (any variant)": Criteria(material=MaterialSpec.parse("K3:K1")),
    "player 'Sijbrands'": Criteria(players=("Sijbrands",)),
}


def make_copies(workdir: Path, copies: int) -> int:
    """Copy the corpus files ``copies`` times; returns the bytes written."""
    total = 0
    files = list(expand_paths([str(CORPUS)]))
    for copy in range(copies):
        folder = workdir / "games" / f"copy-{copy:03d}"
        folder.mkdir(parents=True, exist_ok=True)
        for index, path in enumerate(files):
            target = folder / f"{index:03d}-{Path(path).name}"
            if not target.exists():
                shutil.copyfile(path, target)
            total += target.stat().st_size
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--copies", type=int, default=23)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/pdn-index-bench"))
    parser.add_argument("--keep", action="store_true", help="reuse an index already built")
    args = parser.parse_args()
    size = make_copies(args.workdir, args.copies)
    db_path = args.workdir / "games.db"
    pdn = [sys.executable, "-m", "pdn"]
    if not (args.keep and db_path.exists()):
        db_path.unlink(missing_ok=True)
        started = time.perf_counter()
        command = [
            *pdn,
            "index",
            str(db_path),
            str(args.workdir / "games"),
            "--jobs",
            str(args.jobs),
        ]
        subprocess.run(command, check=True)
        build = time.perf_counter() - started
    else:
        build = float("nan")
    index = Index(str(db_path))
    db = index.connection
    games = db.execute("SELECT count(*) FROM games").fetchone()[0]
    positions = db.execute("SELECT count(*) FROM positions").fetchone()[0]
    db_size = os.path.getsize(db_path)
    print(f"\n{games:,} games ({size / 1e6:.0f} MB of PDN), {positions:,} positions")
    print(f"build: {build:.0f} s wall with --jobs {args.jobs} = {games / build:,.0f} games/s")
    print(f"database: {db_size / 1e6:.0f} MB = {db_size / games:,.0f} bytes per game\n")
    print(f"| query | games found | best of {args.repeat} (ms) |")
    print("|---|---|---|")
    for name, criteria in QUERIES.items():
        best = float("inf")
        found = 0
        for _ in range(args.repeat):
            started = time.perf_counter()
            found = index.search(criteria, limit=50).total
            best = min(best, time.perf_counter() - started)
        print(f"| {name} | {found:,} | {best * 1000:.1f} |")
    started = time.perf_counter()
    command = [*pdn, "search", str(db_path), "--position", "B:W28,31,33-50:B1-20", "--limit", "5"]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    print(
        f"\n`pdn search` command end to end (Python start-up included): "
        f"{(time.perf_counter() - started) * 1000:.0f} ms"
    )


if __name__ == "__main__":
    main()
