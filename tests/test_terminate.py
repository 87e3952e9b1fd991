"""SIGTERM and Ctrl-C end ``pdn check --jobs 2`` at once, workers included, even while those
workers are in the middle of a piece of a big file (seconds of work each)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from pdn.batch.parallel import PIECE_BYTES

#: Seconds the run may take to end after the signal: ending the workers takes a fraction of
#: one; finishing the pieces they hold, as the run did before it ended them, takes seconds.
PROMPT = 3

pytestmark = pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux /proc")


def _children(pid: int) -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):  # the thread ended meanwhile
            found.update(int(word) for word in (task / "children").read_text().split())
    return found


def _stat(pid: int) -> list[str] | None:
    """The fields of ``/proc/PID/stat`` after the command name, None once the process is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def _alive(pid: int) -> bool:
    fields = _stat(pid)
    return fields is not None and fields[0] != "Z"


def _two_working(pid: int) -> bool:
    """Whether ``pid`` has two children that have used CPU time (user + system ticks): its
    workers have started their pieces."""
    workers = [_stat(child) for child in _children(pid)]
    return (
        sum(fields is not None and int(fields[11]) + int(fields[12]) > 0 for fields in workers) >= 2
    )


def _big_file(corpus: Path, path: Path) -> Path:
    """The corpus's UTF-8 files joined, repeated to five pieces or more (real games, so each
    piece is seconds of work; ``pdn.batch.parallel`` sends such a file as ``Piece`` s)."""
    texts = []
    for file in sorted(corpus.rglob("*.pdn")):
        with contextlib.suppress(UnicodeDecodeError):
            texts.append(file.read_bytes().decode("utf-8").lstrip("\ufeff").strip() + "\n\n")
    joined = "".join(texts).encode("utf-8")
    path.write_bytes(joined * (5 * PIECE_BYTES // len(joined) + 1))
    return path


def _wait(condition: Callable[[], bool], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


@contextlib.contextmanager
def _working(*argv: str) -> Iterator[tuple[subprocess.Popen[str], set[int]]]:
    """``python -m pdn ARGV`` in a process group of its own, once two of its workers are
    working: the process and its workers' ids. Whatever is left is killed on the way out."""
    process = subprocess.Popen(
        [sys.executable, "-m", "pdn", *argv],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own group: the Ctrl-C case signals the whole run
    )
    try:
        assert _wait(lambda: _two_working(process.pid), 120), "no two workers started working"
        yield process, _children(process.pid)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def _stopped(process: subprocess.Popen[str], workers: set[int]) -> str:
    """The stderr of ``process``, which must end within ``PROMPT`` seconds, its workers too."""
    try:
        _out, err = process.communicate(timeout=PROMPT)
    except subprocess.TimeoutExpired:
        pytest.fail(f"still running {PROMPT} s after the signal")
    assert _wait(lambda: not any(map(_alive, workers)), 5), "workers outlived the run"
    return err


@pytest.mark.parametrize(
    ("signum", "to_group", "code", "word"),
    [(signal.SIGTERM, False, 143, "terminated"), (signal.SIGINT, True, 130, "interrupted")],
    ids=["SIGTERM", "Ctrl-C"],
)
def test_a_signal_ends_check_and_its_workers_at_once(
    corpus: Path, tmp_path: Path, signum: int, to_group: bool, code: int, word: str
) -> None:
    big = _big_file(corpus, tmp_path / "big.pdn")
    with _working("check", "--jobs", "2", "--no-summary", str(big)) as (process, workers):
        if to_group:
            os.killpg(process.pid, signum)
        else:
            process.send_signal(signum)
        err = _stopped(process, workers)
        assert process.returncode == code
        assert err == f"pdn: {word}\n"
        assert sorted(path.name for path in tmp_path.iterdir()) == ["big.pdn"]


def test_sigterm_during_fix_in_place_says_what_it_left_untouched(
    corpus: Path, tmp_path: Path
) -> None:
    big = _big_file(corpus, tmp_path / "big.pdn")
    before = big.read_bytes()
    argv = ("fix", str(big), "--in-place", "--jobs", "2", "-q", "--normalize", "all")
    with _working(*argv) as (process, workers):
        process.send_signal(signal.SIGTERM)
        err = _stopped(process, workers)
        assert process.returncode == 143
        assert err == f"pdn fix: terminated; {big} is untouched\n"
    assert big.read_bytes() == before
    assert sorted(path.name for path in tmp_path.iterdir()) == ["big.pdn"]
