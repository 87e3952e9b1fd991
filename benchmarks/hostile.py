"""Reading cost against input size for three hostile shapes (issue 9): an unterminated ``{`` at
the start of a tagless file, one long word, one long tagless game.

Each size runs in a fresh process (so peak memory is that size's own): CPU seconds and peak
RSS of ``list(read_games(...))``, and the ratios per input byte. Linear time shows as a flat
seconds-per-MB column, bounded memory as a flat (small) bytes-per-byte column once past the
interpreter's own footprint. Usage::

    .venv/bin/python benchmarks/hostile.py            # 1, 2, 4, 8 MB
    .venv/bin/python benchmarks/hostile.py --sizes 1 4 16
"""

from __future__ import annotations

import argparse
import subprocess
import sys

SHAPES = ("open-comment", "long-word", "long-game")

_CHILD = """
import io, resource, sys, time
from pdn.pdnfile.reader import read_games
shape, size = sys.argv[1], int(sys.argv[2])
unit = {"open-comment": b"a b c d e\\n", "long-word": b"x", "long-game": b"1. 32-28 19-23 "}
data = (b"{" if shape == "open-comment" else b"") + unit[shape] * (size // len(unit[shape]))
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
started = time.process_time()
games = sum(1 for _ in read_games(io.BytesIO(data)))
seconds = time.process_time() - started
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(games, seconds, before * 1024, peak * 1024)
"""


def measure(shape: str, size: int) -> tuple[int, float, int, int]:
    """(games, CPU seconds, RSS before, peak RSS) for one shape of ``size`` bytes."""
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, shape, str(size)],
        capture_output=True,
        text=True,
        check=True,
    )
    games, seconds, before, peak = done.stdout.split()
    return int(games), float(seconds), int(before), int(peak)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 2, 4, 8], help="MB")
    args = parser.parse_args()
    print(
        f"{'shape':<13} {'MB':>4} {'games':>5} {'CPU s':>7} {'s/MB':>6} {'peak MB':>8} "
        f"{'extra B/B':>9}"
    )
    for shape in SHAPES:
        for megabytes in args.sizes:
            size = megabytes << 20
            games, seconds, before, peak = measure(shape, size)
            extra = (peak - before) / size
            print(
                f"{shape:<13} {megabytes:>4} {games:>5} {seconds:>7.2f} "
                f"{seconds / megabytes:>6.2f} {peak / 2**20:>8.0f} {extra:>9.1f}"
            )


if __name__ == "__main__":
    main()
