"""Issue 24, robustness: a lost worker, Ctrl-C, Dask without a worker, control characters from
the data in human output. Small inputs built in each test."""

from __future__ import annotations

import importlib
import json
import multiprocessing
import os
import pkgutil
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from conftest import run_cli

import pdn
from pdn.pdnfile.reader import read_games

GAME = '[Event "e{n}"]\n[Date "2024-12-14"]\n[GameType "20"]\n1. 32-28 19-23 2. 28x19 14x23 *\n'
LOST = "a worker process died (killed by the system? out of memory?)"

needs_fork = pytest.mark.skipif(
    multiprocessing.get_start_method() != "fork",
    reason="the dying worker is patched in the parent and inherited by fork",
)


def games_file(path: Path, count: int) -> Path:
    path.write_text("\n".join(GAME.format(n=n) for n in range(count)), encoding="utf-8")
    return path


def kill_workers_on(
    monkeypatch: pytest.MonkeyPatch, file: str | None = None, after: Path | None = None
) -> None:
    """Every worker process that parses a span (of ``file``, else any) kills itself (SIGKILL,
    as the out-of-memory killer does), once the file ``after`` holds the fixed date (at most
    60 s later: the parent has rewritten it); the parent parses as usual."""
    from pdn.pdnfile import reader

    # Every pdn module first, so none imported later (the verbs import lazily) binds the
    # patched function beyond this test.
    for module in pkgutil.walk_packages(pdn.__path__, "pdn."):
        if module.name != "pdn.__main__":
            importlib.import_module(module.name)
    parent, original = os.getpid(), reader.parse_span

    def dying(span: Any, *args: Any, **kwargs: Any) -> Any:
        if os.getpid() != parent and (file is None or span.source.file == file):
            deadline = time.monotonic() + 60
            while after is not None and b"2024.12.14" not in after.read_bytes():
                if time.monotonic() > deadline:
                    break
                time.sleep(0.02)
            os.kill(os.getpid(), signal.SIGKILL)
        return original(span, *args, **kwargs)

    for module in list(sys.modules.values()):
        if getattr(module, "__name__", "").startswith("pdn.") and (
            getattr(module, "parse_span", None) is original
        ):
            monkeypatch.setattr(module, "parse_span", dying)


@needs_fork
@pytest.mark.parametrize(
    "argv",
    [
        ["fix", "{in}", "-o", "{out}", "-q"],
        ["fix", "{in}", "--in-place", "-q"],
        ["convert", "{in}", "-o", "{out}"],
        ["stats", "{in}"],
        ["dedupe", "{in}", "-o", "{out}"],
        ["report", "{in}", "-o", "{out}"],
        ["index", "{out}", "{in}"],
    ],
    ids=lambda argv: " ".join(argv[:3]),
)
def test_a_lost_worker_is_one_line_and_exit_2(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
) -> None:
    source = games_file(tmp_path / "in.pdn", 40)
    before = source.read_bytes()
    kill_workers_on(monkeypatch)
    out = tmp_path / "out"
    args = [part.format(**{"in": source, "out": out}) for part in argv]
    code, stdout, err = run_cli(capsys, *args, "--jobs", "2")
    assert code == 2
    assert err == f"pdn {argv[0]}: {LOST}: no output written\n"
    assert stdout == "" and source.read_bytes() == before
    left = sorted(path.name for path in tmp_path.iterdir())
    assert left == (["in.pdn", "out"] if argv[0] == "index" else ["in.pdn"])


@needs_fork
def test_check_says_a_worker_was_lost(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    source = games_file(tmp_path / "in.pdn", 40)
    kill_workers_on(monkeypatch)
    code, _out, err = run_cli(capsys, "check", str(source), "--jobs", "2", "--no-summary")
    assert (code, err) == (2, f"pdn check: {LOST}\n")


@needs_fork
def test_fix_in_place_names_what_it_rewrote_before_the_loss(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    first, second = games_file(tmp_path / "a.pdn", 5), games_file(tmp_path / "b.pdn", 5)
    original = second.read_bytes()
    kill_workers_on(monkeypatch, file=str(second), after=first)
    code, _out, err = run_cli(
        capsys,
        "fix",
        str(first),
        str(second),
        "--in-place",
        "-q",
        "--jobs",
        "2",
        "--normalize",
        "all",
    )
    assert code == 2
    assert err == f"pdn fix: {LOST}; {second} is untouched (1 file(s) before it were rewritten)\n"
    assert second.read_bytes() == original and b"2024.12.14" in first.read_bytes()


def _workers_started(pid: int, seconds: float) -> None:
    """Wait (at most ``seconds``) until process ``pid`` has two child processes, its workers;
    without Linux's /proc, wait a second and a half."""
    children = Path(f"/proc/{pid}/task/{pid}/children")
    if not children.parent.is_dir():
        time.sleep(1.5)
        return
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if len(children.read_text().split()) >= 2:
                break
        except OSError:
            break  # the process is gone: the assertions say why
        time.sleep(0.05)
    time.sleep(0.3)  # into their work


def test_ctrl_c_with_workers_is_one_line_and_exit_130(tmp_path: Path) -> None:
    """SIGINT to the whole process group, as a terminal's Ctrl-C: one line, 130, nothing left.
    The input is seconds of work for the compiled build too, and the signal waits for the
    workers (not a fixed time that a fast build outruns)."""
    source = games_file(tmp_path / "in.pdn", 200_000)
    before = source.read_bytes()
    for argv in (
        ["fix", str(source), "-o", str(tmp_path / "out.pdn"), "-q"],
        ["stats", str(source)],
    ):
        process = subprocess.Popen(
            [sys.executable, "-m", "pdn", *argv, "--jobs", "2"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        _workers_started(process.pid, 60)
        os.killpg(process.pid, signal.SIGINT)
        _out, err = process.communicate(timeout=30)
        assert process.returncode == 130
        assert len(err.splitlines()) == 1 and "interrupted" in err
        assert source.read_bytes() == before
        assert sorted(path.name for path in tmp_path.iterdir()) == ["in.pdn"]


def test_dask_without_a_worker_waits_then_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    distributed = pytest.importorskip("distributed")
    source = games_file(tmp_path / "in.pdn", 2)
    with distributed.LocalCluster(n_workers=0, dashboard_address=None) as cluster:
        address = cluster.scheduler_address
        started = time.monotonic()
        code, _out, err = run_cli(
            capsys, "check", str(source), "--dask", address, "--dask-wait", "1"
        )
    assert code == 2 and time.monotonic() - started < 30
    assert err.splitlines() == [
        f"pdn check: waiting for Dask workers at {address}...",
        f"pdn check: no Dask worker joined {address} in 1 s (start one: dask worker {address})",
    ]


# -- control characters ------------------------------------------------------------------------

CLIPBOARD, CLEAR = "\x1b]52;c;aGVsbG8=\x07", "\x1b[2J"
HOSTILE = (
    f'[Event "E{CLIPBOARD}x"]\n[White "W{CLEAR}w"]\n[Black "B\x9bb"]\n[Result "1-0"]\n'
    f'[GameType "20"]\n1. 32-28 19-23 {{c{CLEAR}red}} 2. 28x19 14x23 1-0\n'
)


@pytest.fixture
def hostile(tmp_path: Path) -> Path:
    path = tmp_path / "hostile.pdn"
    path.write_text(HOSTILE, encoding="utf-8")
    return path


def assert_escaped(text: str) -> None:
    assert "\x1b" not in text and "\x07" not in text and "\x9b" not in text
    assert "\\x1b[2J" in text


@pytest.mark.parametrize(
    "argv",
    [["show"], ["list"], ["list", "--format", "table"], ["stats"]],
    ids=" ".join,
)
def test_terminal_output_escapes_control_characters(
    hostile: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    code, out, _err = run_cli(capsys, *argv, str(hostile))
    assert code == 0
    assert_escaped(out)


def test_search_escapes_control_characters(
    hostile: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database = str(tmp_path / "games.db")
    assert run_cli(capsys, "index", database, str(hostile))[0] == 0
    code, out, _err = run_cli(capsys, "search", database, "--position", "W:W31-50:B1-20")
    assert code == 0 and "game(s)" in out
    assert_escaped(out)


@pytest.mark.parametrize("option", ["--svg", "--svg-terminal"])
def test_svg_text_escapes_control_characters(
    hostile: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str
) -> None:
    target = tmp_path / "board.svg"
    assert run_cli(capsys, "show", str(hostile), option, str(target))[0] == 0
    svg = target.read_text(encoding="utf-8")
    assert "\x1b" not in svg and "\x9b" not in svg
    ET.fromstring(svg)  # control characters are not allowed in XML: it parses


def test_report_escapes_control_characters(hostile: Path, tmp_path: Path) -> None:
    target = tmp_path / "report.html"
    pdn.report([str(hostile)], str(target))
    page = target.read_text(encoding="utf-8")
    assert "\x1b" not in page and "\x07" not in page


def test_json_keeps_the_exact_text(hostile: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = run_cli(capsys, "list", str(hostile), "--format", "json")
    assert code == 0
    row = json.loads(out)
    assert (row["Event"], row["White"], row["Black"]) == (f"E{CLIPBOARD}x", f"W{CLEAR}w", "B\x9bb")
    code, out, _err = run_cli(capsys, "stats", str(hostile), "--format", "json")
    assert f"W{CLEAR}w" in {row["player"] for row in json.loads(out)["players"]}
    assert next(read_games(hostile)).headers["White"] == f"W{CLEAR}w"
