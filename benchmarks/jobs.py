"""``pdn check --jobs N`` on a big file: wall time per job count and peak memory of the whole
process tree (the main process and its workers together).

Run from the repository root (the corpus is ../shared/corpus):

    .venv/bin/python benchmarks/jobs.py                       # 10,000 games, --jobs 1 and 2
    .venv/bin/python benchmarks/jobs.py --games 0 --mb 1024   # a 1 GB file: peak memory
    .venv/bin/python benchmarks/jobs.py --mb 1024 --seconds 600 --jobs 2

The input is one corpus file (``--source``) repeated until it holds ``--games`` games or
``--mb`` megabytes, written to a temporary folder and deleted afterwards (never committed).
Each run is ``pdn check FILE --format json --no-summary --jobs N`` with stdout to /dev/null;
the tree's resident memory (the sum over the process and its descendants, from /proc) is
sampled every 50 ms. ``--seconds`` stops a run after that long and reports the games it had
checked then (the JSON lines carry the game number), so a 1 GB file can be sampled for
memory without waiting for the whole of it. Linux only (/proc).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPUS = HERE.parent.parent / "shared" / "corpus"
SOURCE = "mig0/Games-Checkers/data__games__internt__dutch96h.pdn"
PDN = Path(sys.executable).parent / "pdn"


def make_input(folder: Path, source: Path, games: int, megabytes: int) -> tuple[Path, int]:
    """``source`` repeated into one file of at least ``games`` games or ``megabytes`` MB;
    (path, games written)."""
    text = source.read_text(encoding="utf-8", errors="replace").rstrip() + "\n\n"
    per_copy = text.count("[Event ")
    if per_copy == 0:
        sys.exit(f"{source} has no [Event tags to count games by")
    copies = -(-games // per_copy) if games else -(-megabytes * 1_000_000 // len(text.encode()))
    path = folder / "big.pdn"
    with path.open("w", encoding="utf-8") as out:
        for _ in range(copies):
            out.write(text)
    return path, copies * per_copy


def tree_rss(root: int) -> int:
    """Resident bytes of ``root`` and every descendant (one scan of /proc)."""
    parents: dict[int, int] = {}
    rss: dict[int, int] = {}
    page = os.sysconf("SC_PAGE_SIZE")
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid = int(entry)
        parents[pid] = int(fields[1])
        rss[pid] = int(fields[21]) * page
    total = 0
    for pid, size in rss.items():
        walk = pid
        while walk > 1 and walk != root:
            walk = parents.get(walk, 0)
        if walk == root:
            total += size
    return total


def run(path: Path, jobs: int, seconds: float | None) -> tuple[float, int, int, bool]:
    """(wall seconds, peak tree RSS bytes, games reported, finished) of one check run."""
    command = [str(PDN), "check", str(path), "--format", "json", "--no-summary"]
    command += ["--jobs", str(jobs)]
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    peak = 0
    last_game = 0

    def count() -> None:
        nonlocal last_game
        assert process.stdout is not None
        for line in process.stdout:
            marker = line.find(b'"game": ')
            if marker >= 0:
                end = line.find(b",", marker)
                last_game = max(last_game, int(line[marker + 8 : end]))

    reader = threading.Thread(target=count, daemon=True)
    reader.start()
    finished = True
    while process.poll() is None:
        peak = max(peak, tree_rss(process.pid))
        if seconds is not None and time.perf_counter() - started > seconds:
            process.terminate()
            finished = False
            break
        time.sleep(0.05)
    process.wait()
    reader.join()
    return time.perf_counter() - started, peak, last_game, finished


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=10_000, help="games in the file (0: --mb)")
    parser.add_argument("--mb", type=int, default=0, help="size of the file when --games is 0")
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--seconds", type=float, help="stop each run after this long")
    parser.add_argument("--source", default=SOURCE, help="corpus file repeated (relative)")
    args = parser.parse_args()
    if not args.games and not args.mb:
        parser.error("give --games N or --games 0 --mb M")
    with tempfile.TemporaryDirectory() as folder:
        path, games = make_input(Path(folder), CORPUS / args.source, args.games, args.mb)
        size = path.stat().st_size
        print(f"input: {args.source} repeated, {games:,} games, {size / 1e6:,.1f} MB")
        print(f"{'jobs':>4} {'wall s':>8} {'games/s':>8} {'speedup':>7} {'peak MB':>8}  notes")
        base = None
        for jobs in args.jobs:
            wall, peak, done, finished = run(path, jobs, args.seconds)
            rate = (games if finished else done) / wall
            base = base or rate
            note = "" if finished else f"stopped after {wall:.0f} s: {done:,} games reported"
            print(f"{jobs:4d} {wall:8.1f} {rate:8.0f} {rate / base:7.2f} {peak / 1e6:8.0f}  {note}")


if __name__ == "__main__":
    main()
