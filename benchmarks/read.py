"""Reading speed: pdn vs pydraughts and py-draughts on the same PDN files, in one run.

Run from the repository root (the corpus is ../shared/corpus):

    .venv/bin/python benchmarks/read.py                 # International files, best of 3
    .venv/bin/python benchmarks/read.py --all --repeat 5
    .venv/bin/python benchmarks/read.py --profile       # where pdn's reading time goes

Columns are games/s and MB/s of decoded text per CPU second (``time.process_time``, so other
load on the machine counts less), best of ``--repeat`` runs, one core:
  pdn read_games   path -> records: scan + decode + parse (fast path, lark fallback);
  pdn scan only    ``iter_spans``: splitting and headers only (what ``pdn list`` costs);
  pdn lark only    every span through lark (``parse_span(fast=False)``), for scale;
  pydraughts       ``PDNReader(filename=...)``, its whole-file reader (parse, no replay);
  py-draughts      ``Board.from_pdn`` on each game's text (it has no file reader; it parses
                   AND replays, so it is not a parse-only number; failures are counted).
Two tables: the corpus files as they are (small files, 33 KB on average), then the same games
joined into one file, as a real database is (pydraughts' reader slows down with file size).
The peers run in ``benchmarks/.venv-peers`` (``bash benchmarks/setup-peers.sh``) through a
subprocess; without it the pdn numbers are printed alone.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import subprocess
import sys
import tempfile
from pathlib import Path

from timing import best_of

HERE = Path(__file__).resolve().parent
CORPUS = HERE.parent.parent / "shared" / "corpus"
PEERS = HERE / ".venv-peers"
INTERNATIONAL = ("rhalbersma/mobydam/*.pdn", "mig0/Games-Checkers/data__games__internt__*.pdn")


def corpus_files(everything: bool) -> list[Path]:
    if everything:
        return sorted(CORPUS.rglob("*.pdn"))
    return sorted(path for pattern in INTERNATIONAL for path in CORPUS.glob(pattern))


def pdn_rows(files: list[Path], repeat: int) -> dict[str, tuple[int, float]]:
    from pdn.pdnfile.reader import parse_span, read_games
    from pdn.pdnfile.scan import iter_spans

    next(read_games(files[0]))  # build the parser outside the timings
    rows = {
        "pdn read_games": best_of(repeat, lambda: sum(1 for p in files for _ in read_games(p))),
        "pdn scan only": best_of(repeat, lambda: sum(1 for p in files for _ in iter_spans(p))),
    }
    spans = [span for path in files for span in iter_spans(path)]
    rows["pdn lark only"] = best_of(1, lambda: len([parse_span(s, fast=False) for s in spans]))
    return rows


def peer_main(peer: str, names: list[str], repeat: int) -> None:
    """Runs inside the peers' venv; prints {row: [games, seconds, failures]} as JSON."""
    files = [Path(name) for name in names]
    if peer == "pydraughts":
        from draughts.PDN import PDNReader  # type: ignore[import-not-found]

        broken: set[Path] = set()

        def read_all() -> int:
            games = 0
            for path in files:
                try:
                    games += len(PDNReader(filename=str(path)).games)
                except Exception:  # noqa: BLE001 - a peer's failure is data here
                    broken.add(path)
            return games

        games, seconds = best_of(repeat, read_all)
        print(json.dumps({"pydraughts": [games, seconds, f"{len(broken)} files raised"]}))
        return
    from draughts import StandardBoard  # type: ignore[import-not-found]

    from pdn.pdnfile.scan import iter_spans

    texts = [span.text for path in files for span in iter_spans(path)]
    failures = 0

    def replay_all() -> int:
        nonlocal failures
        failures = 0
        for text in texts:
            try:
                StandardBoard.from_pdn(text)
            except Exception:  # noqa: BLE001 - a peer's failure is data here
                failures += 1
        return len(texts)

    games, seconds = best_of(max(1, repeat // 3), replay_all)
    print(json.dumps({"py-draughts": [games, seconds, f"{failures} games raised"]}))


def peer_rows(files: list[Path], repeat: int) -> dict[str, tuple[int, float, str]]:
    python = PEERS / "bin" / "python"
    if not python.exists():
        print("(no benchmarks/.venv-peers: run bash benchmarks/setup-peers.sh)", file=sys.stderr)
        return {}
    rows: dict[str, tuple[int, float, str]] = {}
    for peer in ("pydraughts", "py-draughts"):
        env = dict(os.environ)
        if peer == "pydraughts":
            env["PYTHONPATH"] = str(PEERS / "pydraughts")
        command = [str(python), __file__, "--peer", peer, "--repeat", str(repeat)]
        done = subprocess.run(
            [*command, *map(str, files)], capture_output=True, text=True, env=env, check=False
        )
        if done.returncode:
            print(f"({peer} failed: {done.stderr.strip().splitlines()[-1:]})", file=sys.stderr)
            continue
        for name, (games, seconds, note) in json.loads(done.stdout).items():
            rows[name] = (games, seconds, note)
    return rows


def profile(files: list[Path]) -> None:
    from pdn.pdnfile.reader import read_games

    profiler = cProfile.Profile()
    profiler.enable()
    for path in files:
        for _ in read_games(path):
            pass
    profiler.disable()
    pstats.Stats(profiler).sort_stats("tottime").print_stats(15)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--all", action="store_true", help="every corpus file, all variants")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--peer", choices=("pydraughts", "py-draughts"), help=argparse.SUPPRESS)
    parser.add_argument("files", nargs="*", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.peer:
        peer_main(args.peer, args.files, args.repeat)
        return
    if not CORPUS.is_dir():
        sys.exit(f"corpus not found at {CORPUS}")
    files = corpus_files(args.all)
    if args.profile:
        profile(files)
        return
    table(files, args.repeat, f"{len(files)} corpus files as they are")
    with tempfile.TemporaryDirectory() as folder:
        joined = Path(folder) / "joined.pdn"
        joined.write_bytes(b"\n".join(path.read_bytes() for path in files))
        table([joined], args.repeat, "the same games joined into one file (a database)")


def table(files: list[Path], repeat: int, title: str) -> None:
    """Time every reader on ``files`` and print one table."""
    from pdn.pdnfile.scan import read_text

    megabytes = sum(len(read_text(path)) for path in files) / 1e6
    ours = pdn_rows(files, repeat)
    rows = {name: (games, seconds, "") for name, (games, seconds) in ours.items()}
    rows.update(peer_rows(files, repeat))
    base = rows["pdn read_games"][1]
    print(f"\n{title}: {megabytes:.2f} MB, best of {repeat} (CPU seconds)")
    print(f"{'reader':16} {'games':>6} {'games/s':>9} {'MB/s':>7} {'x pdn time':>10}  notes")
    for name, (games, seconds, note) in rows.items():
        print(
            f"{name:16} {games:6d} {games / seconds:9.0f} {megabytes / seconds:7.2f} "
            f"{seconds / base:10.2f}  {note}"
        )


if __name__ == "__main__":
    main()
