"""Peak memory of one long game (issue 24): ``pdn check`` and ``pdn show`` on a game of NAGs, one
of side variations and one of nested variations, each just under a size (default: the cap,
``pdn.pdnfile.scan.MAX_GAME_CHARS``).

Each run is a fresh ``python -m pdn`` process; its peak RSS comes from ``wait4``. The ``x text``
column is the peak above the same verb's peak on a one-move game, over the game's characters:
the memory a game costs per character of its text. Usage::

    .venv/bin/python benchmarks/memory.py                 # just under the cap
    .venv/bin/python benchmarks/memory.py --chars 1048576 --verbs check
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile

from pdn.pdnfile.scan import MAX_GAME_CHARS

HEAD = '[Event "memory"]\n[GameType "20"]\n[Result "*"]\n\n'
SIDE_LINES = ("(1. 33-28)", "(1. 33-29)", "(1. 31-27)", "(1. 31-26)")


def game(shape: str, chars: int) -> str:
    """A game of about ``chars`` characters (never more) in ``shape``: ``nags`` (one move and
    ``$1`` after ``$1``), ``variations`` (side lines at the first move, one after another) or
    ``nested`` (each side line inside the one before)."""
    room = chars - len(HEAD) - len("1. 32-28  *\n")
    if shape == "nags":
        body = " ".join(["$1"] * (room // 3))
    elif shape == "variations":
        body = " ".join(SIDE_LINES[index % 4] for index in range(room // 11))
    else:
        depth = room // 11
        body = "(1. 33-28 " * depth + ")" * depth
    return f"{HEAD}1. 32-28 {body} *\n"


def peak_rss(verb: str, path: str) -> int:
    """Peak RSS in bytes of ``python -m pdn VERB PATH`` (output discarded)."""
    with open(os.devnull, "wb") as null:
        process = subprocess.Popen(
            [sys.executable, "-m", "pdn", verb, path], stdout=null, stderr=null
        )
        _pid, _status, usage = os.wait4(process.pid, 0)
    return usage.ru_maxrss * 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chars", type=int, default=MAX_GAME_CHARS - 1, help="game size")
    parser.add_argument("--verbs", nargs="+", default=["check", "show"])
    parser.add_argument("--shapes", nargs="+", default=["nags", "variations", "nested"])
    args = parser.parse_args()
    print(f"{'shape':<11} {'verb':<6} {'chars':>9} {'peak MB':>8} {'x text':>7}")
    with tempfile.TemporaryDirectory() as folder:
        small = os.path.join(folder, "small.pdn")
        with open(small, "w", encoding="utf-8") as stream:
            stream.write(f"{HEAD}1. 32-28 *\n")
        base = {verb: peak_rss(verb, small) for verb in args.verbs}
        for shape in args.shapes:
            path = os.path.join(folder, f"{shape}.pdn")
            text = game(shape, args.chars)
            with open(path, "w", encoding="utf-8") as stream:
                stream.write(text)
            for verb in args.verbs:
                peak = peak_rss(verb, path)
                ratio = (peak - base[verb]) / len(text)
                print(f"{shape:<11} {verb:<6} {len(text):>9,} {peak / 2**20:>8.0f} {ratio:>7.1f}")


if __name__ == "__main__":
    main()
