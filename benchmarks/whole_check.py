"""Whole processes: ``pdn check`` of International games against py-draughts replaying them.

    .venv/bin/python benchmarks/whole_check.py prepare OUT [--copies N]
    benchmarks/.venv-peers/bin/python benchmarks/whole_check.py peer OUT/moves.json

``prepare`` writes OUT/games.pdn (replay.py's International corpus games that start from the
initial position and replay cleanly, as pdn writes them, ``--copies`` times) and OUT/moves.json
(the same games' moves as py-draughts reads them). ``peer`` is one process that imports
py-draughts and replays every game of moves.json once (``replay.py``'s loop), printing the plies:
time it against ``pdn check OUT/games.pdn --format json`` from outside (start-up, reading,
detection, findings and output included on pdn's side; py-draughts only replays).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from replay import load_games, py_draughts_main


def prepare(out: Path, copies: int) -> None:
    from pdn.pdnfile.writer import write_games

    games, moves = load_games()
    out.mkdir(parents=True, exist_ok=True)
    international = games["international"] * copies
    with open(out / "games.pdn", "w", encoding="utf-8") as stream:
        write_games(international, stream)
    (out / "moves.json").write_text(json.dumps({"international": moves["international"] * copies}))
    plies = sum(len(game) for game in moves["international"]) * copies
    print(f"{len(international)} games, {plies} plies -> {out}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    verbs = parser.add_subparsers(dest="verb", required=True)
    making = verbs.add_parser("prepare")
    making.add_argument("out", type=Path)
    making.add_argument("--copies", type=int, default=4)
    peer = verbs.add_parser("peer")
    peer.add_argument("moves", type=Path)
    args = parser.parse_args()
    if args.verb == "prepare":
        prepare(args.out, args.copies)
    else:
        found = py_draughts_main(json.loads(args.moves.read_text()), 1)
        print(json.dumps(found))


if __name__ == "__main__":
    main()
