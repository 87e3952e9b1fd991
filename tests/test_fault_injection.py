"""Issue 24, fault injection: ``pdn fix --in-place``, ``pdn index`` and ``pdn dedupe -o`` killed
(SIGKILL, to the process or to one of its ``--jobs 2`` workers) at seeded random points. After
each kill every input is byte-identical and every output is absent, the old file, or complete
(the same as an uninterrupted run's). Temporary files beside an output may stay behind after
SIGKILL (nothing can remove them), but never under an output's name."""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pdn.database.filters import Criteria
from pdn.database.index import Index

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")

GAME = '[Event "e{n}"]\n[Date "2024-12-14"]\n[GameType "20"]\n1. 32-28 19-23 2. 28x19 {m} *\n'
FILES, GAMES = 3, 800
#: Seconds after the start at which a run may be killed (a whole run takes about 1 s).
EARLIEST, LATEST = 0.25, 1.2
KILLS = 3


def pdn(*argv: str) -> list[str]:
    return [sys.executable, "-m", "pdn", *argv]


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three files of ``GAMES`` games each."""
    root = tmp_path_factory.mktemp("inputs")
    for index in range(FILES):
        games = (
            GAME.format(n=n % (GAMES // 2), m="14x23" if n % 3 else "13x24") for n in range(GAMES)
        )
        (root / f"g{index}.pdn").write_text("\n".join(games), encoding="utf-8")
    return root


def snapshot(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


def killed(
    argv: list[str], delay: float, *, worker: bool = False
) -> subprocess.CompletedProcess[str]:
    """Run ``argv`` and SIGKILL it after ``delay`` seconds (``worker``: one of its worker
    processes, ``delay`` seconds after they started), unless it ended first. Returns the ended
    process's code and stderr, and ``"killed"`` as its stdout when the kill was sent."""
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    targets = [process.pid]
    while worker and process.poll() is None and not (targets := workers(process.pid)):
        time.sleep(0.01)
    time.sleep(delay)
    killed = process.poll() is None and bool(targets)
    if killed:
        os.kill(targets[0], signal.SIGKILL)
    _out, err = process.communicate(timeout=60)
    return subprocess.CompletedProcess(argv, process.returncode, "killed" if killed else "", err)


def workers(parent: int) -> list[int]:
    """Child processes of ``parent`` forked from it (same command line: not a helper such as
    multiprocessing's resource tracker)."""
    own = Path(f"/proc/{parent}/cmdline").read_bytes()
    found = []
    for entry in Path("/proc").iterdir():
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) == parent and (entry / "cmdline").read_bytes() == own:
                found.append(int(entry.name))
        except (OSError, ValueError, IndexError):
            continue
    return sorted(found)


def outputs_only(folder: Path, names: set[str]) -> set[str]:
    """The files of ``folder`` but temporary ones (``.NAME.*.tmp``) left by a kill."""
    left = {path.name for path in folder.iterdir() if not path.name.endswith(".tmp")}
    assert left <= names, left - names
    return left


def test_fix_in_place_killed_leaves_each_file_old_or_fixed(folder: Path, tmp_path: Path) -> None:
    original = snapshot(folder)
    reference = tmp_path / "reference"
    shutil.copytree(folder, reference)
    subprocess.run(
        pdn("fix", str(reference), "--in-place", "-q", "--normalize", "dates"), check=True
    )
    fixed = snapshot(reference)
    assert all(fixed[name] != original[name] for name in original)
    chance = random.Random(24)
    for trial in range(KILLS):
        work = tmp_path / f"trial{trial}"
        shutil.copytree(folder, work)
        killed(
            pdn("fix", str(work), "--in-place", "-q", "--normalize", "dates"),
            chance.uniform(EARLIEST, LATEST),
        )
        outputs_only(work, set(fixed))
        for name, data in snapshot(work).items():
            if name.endswith(".bak"):
                assert data == original[name.removesuffix(".bak")]
            elif not name.endswith(".tmp"):
                assert data in (original[name], fixed[name]), name


def test_index_killed_leaves_the_old_index_or_the_whole_one(folder: Path, tmp_path: Path) -> None:
    original = snapshot(folder)
    old = tmp_path / "old.db"
    subprocess.run(pdn("index", str(old), str(folder / "g0.pdn")), check=True, capture_output=True)
    chance = random.Random(240)
    for trial in range(KILLS):
        database = tmp_path / f"trial{trial}.db"
        shutil.copyfile(old, database)
        killed(pdn("index", str(database), str(folder)), chance.uniform(EARLIEST, LATEST))
        assert snapshot(folder) == original
        with Index(str(database)) as index:
            assert index.search(Criteria(), limit=1).total in (GAMES, FILES * GAMES)


def test_dedupe_killed_leaves_the_old_output_or_the_whole_one(folder: Path, tmp_path: Path) -> None:
    original = snapshot(folder)
    complete = tmp_path / "complete.pdn"
    subprocess.run(pdn("dedupe", str(folder), "-o", str(complete)), check=True, capture_output=True)
    whole = complete.read_bytes()
    chance = random.Random(2400)
    for trial in range(KILLS + 1):
        work = tmp_path / f"trial{trial}"
        work.mkdir()
        target = work / "out.pdn"
        target.write_text(GAME.format(n="old", m="14x23"), encoding="utf-8")
        old = target.read_bytes()
        worker = trial == KILLS  # the last trial kills one of two workers
        argv = pdn("dedupe", str(folder), "-o", str(target), *(["--jobs", "2"] if worker else []))
        done = killed(
            argv,
            chance.uniform(0, 0.1) if worker else chance.uniform(EARLIEST, LATEST),
            worker=worker,
        )
        assert snapshot(folder) == original
        assert outputs_only(work, {"out.pdn"}) == {"out.pdn"}
        assert target.read_bytes() in (old, whole)
        if worker and done.stdout == "killed":  # a run that ended first was complete (above)
            assert done.returncode == 2 and target.read_bytes() == old
            assert done.stderr == (
                "pdn dedupe: a worker process died (killed by the system? out of memory?): "
                "no output written\n"
            )
