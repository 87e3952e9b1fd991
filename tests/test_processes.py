"""Processes and folders: workers end with their parent; folders say what they leave out."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from pdn.base import paths
from pdn.base.paths import PathError, walk_paths
from pdn.cli.main import main
from pdn.pdnfile.scan import iter_spans

GAME = '[Event "a"]\n1. 32-28 19-23 2. 28x19 14x23 0-2\n\n'


def _children(pid: int) -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        text = (task / "children").read_text() if (task / "children").exists() else ""
        found.update(int(word) for word in text.split())
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _wait(condition: object, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return True
        time.sleep(0.05)
    return False


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux /proc")
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGKILL])
def test_workers_end_with_their_parent(tmp_path: Path, signum: int) -> None:
    path = tmp_path / "many.pdn"
    path.write_text(GAME * 20_000)
    parent = subprocess.Popen(
        [sys.executable, "-m", "pdn", "check", str(path), "--jobs", "2", "--no-summary"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        assert _wait(lambda: len(_children(parent.pid)) >= 2, 60), "no workers started"
        workers = _children(parent.pid)
        parent.send_signal(signum)
        parent.wait(timeout=180)  # a loaded machine is slow; a hang is what fails
        assert _wait(lambda: not any(_alive(pid) for pid in workers), 30), "workers outlived it"
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()


def test_a_folder_reports_unreadable_subfolders_and_skips_fifos(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "ok").mkdir()
    (tmp_path / "ok" / "g.pdn").write_text(GAME)
    (tmp_path / "locked").mkdir()
    (tmp_path / "locked" / "g.pdn").write_text(GAME)
    os.mkfifo(tmp_path / "ok" / "pipe.pdn")
    real = os.scandir

    def scandir(path: str) -> object:  # root may read a chmod 000 folder: deny it here
        if os.path.basename(path) == "locked":
            raise PermissionError(13, "Permission denied", path)
        return real(path)

    monkeypatch.setattr(paths.os, "scandir", scandir)
    items = list(walk_paths([str(tmp_path)]))
    assert items == [
        PathError(str(tmp_path / "locked"), "folder not read: Permission denied"),
        str(tmp_path / "ok" / "g.pdn"),
        PathError(
            str(tmp_path / "ok" / "pipe.pdn"), "not a regular file (FIFO, socket...): skipped", True
        ),
    ]
    assert main(["check", str(tmp_path), "--no-summary"]) == 2  # the FIFO never blocks
    err = " ".join(capsys.readouterr().err.split())  # the console may wrap long lines
    assert "locked: folder not read: Permission denied" in err
    assert "note: " in err and "pipe.pdn" in err


def test_a_folder_without_pdn_files_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "notes.doc").write_text("x")
    assert main(["check", str(tmp_path), "--no-summary"]) == 2
    assert "no PDN file" in " ".join(capsys.readouterr().err.split())


def test_a_fifo_named_on_the_command_line_is_read_as_a_stream(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fifo = tmp_path / "pipe.pdn"
    os.mkfifo(fifo)

    def feed() -> None:
        with open(fifo, "w") as stream:
            stream.write(GAME * 3)

    writer = threading.Thread(target=feed)
    writer.start()
    try:
        assert main(["list", str(fifo), "--format", "csv"]) == 0
    finally:
        writer.join(timeout=30)
    assert len(capsys.readouterr().out.splitlines()) == 4


@pytest.mark.parametrize("address", ["not a url", "http://localhost:8786", "tcp://"])
def test_a_malformed_dask_address_is_one_line_and_exit_2(
    address: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("distributed")
    path = tmp_path / "g.pdn"
    path.write_text(GAME)
    assert main(["check", str(path), "--dask", address, "--no-summary"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"pdn check: --dask {address!r} is not a scheduler address")
    assert len(err.strip().splitlines()) == 1


def test_list_table_streams_in_pages_that_line_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    from rich.console import Console

    from pdn.cli import list as listing

    monkeypatch.setattr(listing, "PAGE_ROWS", 3)
    consumed = 0
    spans = list(
        iter_spans(io.StringIO(GAME * 4 + '[White "Someone Long"]\n1. 32-28 *\n' + GAME * 5))
    )

    def rows() -> Iterator[dict[str, object]]:
        nonlocal consumed
        for span in spans:
            consumed += 1
            yield listing.game_row(span)

    printed_after: list[int] = []

    class Spy(Console):
        def print(self, *args: object, **kwargs: object) -> None:  # type: ignore[override]
            printed_after.append(consumed)
            super().print(*args, **kwargs)  # type: ignore[arg-type]

    out = io.StringIO()
    listing._print_table(Spy(file=out, width=120), rows(), listing.COLUMNS)
    assert printed_after == [4, 7, 10]  # a page is printed before the next is read
    lines = out.getvalue().splitlines()
    assert sum("White" in line and "Black" in line for line in lines) == 1  # one header
    assert {line.split()[0] for line in lines if "│" in line} >= {"1", "9", "10"}
    assert len({line.index("│") for line in lines if "│" in line}) == 1  # pages line up
