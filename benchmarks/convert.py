"""``pdn convert`` in every mode against ``pdn check`` on the same file, as whole processes.

Run from the repository root (the corpus is ../shared/corpus):

    .venv/bin/python benchmarks/convert.py                 # CPU seconds, best of 3 rounds
    .venv/bin/python benchmarks/convert.py --rounds 5
    .venv/bin/python benchmarks/convert.py --callgrind     # instructions (valgrind), 1 in 10 games
    .venv/bin/python benchmarks/convert.py --together --rounds 9   # beside check, paired ratios
    .venv/bin/python benchmarks/convert.py --python /tmp/venv-compiled/bin/python

The input is every corpus file joined in sorted order (4,402 games), written to a temporary
folder and deleted afterwards; ``--callgrind`` keeps one game in ten of it (441 games), since
valgrind runs some fifty times slower. Each command is ``PYTHON -m pdn VERB FILE ARGS`` with
stdout and stderr to /dev/null, run from the temporary folder (no ``pdn/`` of the working tree
on the path). CPU mode: the commands alternate within a round and each keeps its least user
time (``getrusage`` of the children). Callgrind mode: one run each, and the start of the
process (each verb on an empty file) is subtracted to give the work; the hash seed is fixed
and address randomisation off (``setarch -R``), so the counts repeat. Together mode (two CPUs
or more): each round runs every ``convert`` command at the same time as a ``check``, one per
CPU (``taskset``, swapped every round), so a slow spell of a shared machine slows both; it
prints the median and range of the per-round ratios. The ratio is to ``check --format json``.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPUS = HERE.parent.parent / "shared" / "corpus"
CHECK = ("check", "--format", "json")
#: The convert commands by the name ``--mode`` picks them with.
MODES = {
    "algebraic": ("convert", "--notation", "algebraic"),
    "full": ("convert", "--captures", "full"),
    "json": ("convert", "--to", "json"),
    "renumber": ("convert", "--renumber"),
    "as-written": ("convert",),
}
VERBS = ("check", "convert")


def joined_corpus(folder: Path, every: int) -> Path:
    """Every corpus file joined in sorted order (one game in ``every`` of them kept)."""
    from pdn.pdnfile.scan import iter_spans

    texts = [
        span.text
        for path in sorted(CORPUS.rglob("*"))
        if path.suffix.lower() == ".pdn"
        for span in iter_spans(str(path))
    ]
    target = folder / "joined.pdn"
    target.write_text("\n\n".join(texts[::every]) + "\n", encoding="utf-8")
    print(f"input: {len(texts[::every])} games of {len(texts)}, {target.stat().st_size:,} bytes")
    return target


def cpu_seconds(python: str, command: tuple[str, ...], path: Path, folder: Path) -> float:
    """User CPU seconds of one run of ``python -m pdn`` on ``path``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    verb, *options = command
    argv = [python, "-m", "pdn", verb, str(path), *options]
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=folder)
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - before


def cpu_seconds_together(
    python: str,
    commands: tuple[tuple[str, ...], tuple[str, ...]],
    path: Path,
    folder: Path,
    swap: bool,
) -> tuple[float, float]:
    """User CPU seconds of two ``python -m pdn`` runs started at the same time, the first on
    CPU 0 and the second on CPU 1 (the other way round when ``swap``)."""
    processes = []
    for cpu, (verb, *options) in zip((1, 0) if swap else (0, 1), commands, strict=True):
        argv = [python, "-m", "pdn", verb, str(path), *options]
        if shutil.which("taskset"):
            argv = ["taskset", "-c", str(cpu), *argv]
        quiet = subprocess.DEVNULL
        processes.append(subprocess.Popen(argv, stdout=quiet, stderr=quiet, cwd=folder))
    first, second = (os.wait4(process.pid, 0)[2].ru_utime for process in processes)
    return first, second


def instructions(python: str, command: tuple[str, ...], path: Path, folder: Path) -> int:
    """Instructions valgrind's callgrind counts for one run of ``python -m pdn``, with a
    fixed hash seed and, where ``setarch`` can, no address randomisation (nodes hash by
    address): two runs then agree within a few million instructions."""
    verb, *options = command
    argv = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
    argv += [python, "-m", "pdn", verb, str(path), *options]
    if shutil.which("setarch"):
        argv = ["setarch", platform.machine(), "-R", *argv]
    env = dict(os.environ, PYTHONHASHSEED="0")
    run = subprocess.run(argv, capture_output=True, text=True, cwd=folder, env=env)
    refs = [line for line in run.stderr.splitlines() if "refs:" in line]
    return int(refs[-1].split()[-1].replace(",", ""))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", default=sys.executable, help="interpreter with pdn")
    parser.add_argument("--rounds", type=int, default=3, help="CPU mode: rounds (best kept)")
    parser.add_argument("--callgrind", action="store_true", help="count instructions instead")
    parser.add_argument(
        "--together", action="store_true", help="CPU mode: each convert beside a check, paired"
    )
    parser.add_argument(
        "--mode",
        action="append",
        choices=MODES,
        help="only this convert command (repeatable; default: every one)",
    )
    args = parser.parse_args(argv)
    commands = (CHECK, *(MODES[mode] for mode in args.mode or MODES))
    if not CORPUS.is_dir():
        print(f"no corpus at {CORPUS}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        path = joined_corpus(folder, 10 if args.callgrind else 1)
        if args.callgrind:
            empty = folder / "empty.pdn"
            empty.write_text("", encoding="utf-8")
            # each verb's own start (its imports differ), on an empty file
            start = {verb: instructions(args.python, (verb,), empty, folder) for verb in VERBS}
            print(
                "start of the process: "
                + ", ".join(f"{verb} {count / 1e6:,.0f}" for verb, count in start.items())
                + " million instructions"
            )
            counts = {
                command: instructions(args.python, command, path, folder) - start[command[0]]
                for command in commands
            }
            check = counts[CHECK]
            for command, count in counts.items():
                print(f"{' '.join(command):32s} {count / 1e6:9,.0f} M  {count / check:.3f}x check")
            return 0
        if args.together:
            return _together(args.python, args.rounds, path, folder, commands[1:])
        best = dict.fromkeys(commands, float("inf"))
        for _ in range(args.rounds):
            for command in commands:
                seconds = cpu_seconds(args.python, command, path, folder)
                best[command] = min(best[command], seconds)
        check = best[CHECK]
        for command, seconds in best.items():
            print(f"{' '.join(command):32s} {seconds:6.2f} s  {seconds / check:.2f}x check")
    return 0


def _together(
    python: str, rounds: int, path: Path, folder: Path, converts: tuple[tuple[str, ...], ...]
) -> int:
    """Together mode: per-round ratios of each convert command to the check beside it."""
    if (os.cpu_count() or 1) < 2:
        print("--together needs two CPUs", file=sys.stderr)
        return 2
    ratios: dict[tuple[str, ...], list[float]] = {command: [] for command in converts}
    for round_ in range(rounds):
        for command in converts:
            base, seconds = cpu_seconds_together(
                python, (CHECK, command), path, folder, swap=round_ % 2 == 1
            )
            ratios[command].append(seconds / base)
    for command, values in ratios.items():
        print(
            f"{' '.join(command):32s} {statistics.median(values):.3f}x check "
            f"(median of {rounds}; {min(values):.3f} to {max(values):.3f})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
