"""Safe output: atomic replacement of `-o` files, the input never destroyed, stdout errors."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from pdn.base.output import atomic_output, same_file
from pdn.cli.main import main

GAME = '[Event "a"]\n1. 32-28 19-23 2-0\n'


def _leftovers(folder: Path) -> list[str]:
    return sorted(name for name in os.listdir(folder) if name.endswith(".tmp"))


def test_a_failed_write_leaves_the_earlier_output_untouched(tmp_path: Path) -> None:
    target = tmp_path / "out.pdn"
    target.write_text("good earlier output\n")
    with pytest.raises(RuntimeError), atomic_output(str(target)) as stream:
        stream.write("half a game")
        raise RuntimeError("disk full, crash, ...")
    assert target.read_text() == "good earlier output\n"
    assert _leftovers(tmp_path) == []


def test_ctrl_c_removes_the_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "out.pdn"
    with pytest.raises(KeyboardInterrupt), atomic_output(str(target)) as stream:
        stream.write("x" * 100_000)
        raise KeyboardInterrupt
    assert not target.exists()
    assert _leftovers(tmp_path) == []


def test_success_replaces_the_target_keeping_its_mode_and_symlink(tmp_path: Path) -> None:
    real = tmp_path / "real.pdn"
    real.write_text("old")
    real.chmod(0o640)
    link = tmp_path / "link.pdn"
    link.symlink_to(real)
    with atomic_output(str(link)) as stream:
        stream.write("new")
    assert link.is_symlink()
    assert real.read_text() == "new"
    assert stat.S_IMODE(real.stat().st_mode) == 0o640
    assert _leftovers(tmp_path) == []


def test_a_new_file_gets_the_umask_mode(tmp_path: Path) -> None:
    umask = os.umask(0o022)
    try:
        with atomic_output(str(tmp_path / "new.pdn")) as stream:
            stream.write("x")
    finally:
        os.umask(umask)
    assert stat.S_IMODE((tmp_path / "new.pdn").stat().st_mode) == 0o644


def test_same_file_sees_a_path_and_stdin(tmp_path: Path) -> None:
    path = tmp_path / "g.pdn"
    path.write_text(GAME)
    assert same_file(str(path), str(path))
    assert not same_file(str(path), str(tmp_path / "other.pdn"))
    assert not same_file(str(path), "-")


def _pdn(*argv: str, stdin: object = subprocess.DEVNULL) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pdn", *argv],
        stdin=stdin,  # type: ignore[arg-type]
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_convert_refuses_when_stdin_is_the_output_file(tmp_path: Path) -> None:
    path = tmp_path / "g.pdn"
    path.write_text(GAME)
    with path.open("rb") as stdin:
        done = _pdn("convert", "-", "-o", str(path), stdin=stdin)
    assert done.returncode == 2
    assert "would overwrite the input" in done.stderr
    assert path.read_text() == GAME


def test_convert_output_is_not_cut_when_the_run_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "in.pdn"
    source.write_text(GAME * 50)
    target = tmp_path / "out.pdn"
    target.write_text("earlier good output\n")
    import pdn.batch.converting as converting

    calls = 0
    real = converting.write_game

    def failing(*args: object, **kwargs: object) -> str:
        nonlocal calls
        calls += 1
        if calls == 10:
            raise KeyboardInterrupt
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(converting, "write_game", failing)
    assert main(["convert", str(source), "-o", str(target)]) == 130
    assert target.read_text() == "earlier good output\n"
    assert _leftovers(tmp_path) == []


def test_check_refuses_stdin_twice(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "-", "-"]) == 2
    assert "standard input) can be read only once" in capsys.readouterr().err


@pytest.mark.parametrize("verb", ["check", "list", "convert", "show"])
def test_closed_stdin_is_one_line_and_exit_2(verb: str) -> None:
    done = subprocess.run(
        ["sh", "-c", f'exec "$0" -m pdn {verb} - <&-', sys.executable],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert "stdin is closed" in done.stderr.splitlines()[0]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize(
    "argv", [["show"], ["convert"], ["list"], ["check", "--no-summary", "--format", "json"]]
)
def test_a_full_stdout_is_one_line_and_exit_2(tmp_path: Path, argv: list[str]) -> None:
    path = tmp_path / "g.pdn"
    # a date written another way: one info finding per game for check's JSON output
    path.write_text('[Event "a"]\n[Date "1"]\n1. 32-28 19-23 2. 28x19 14x23 0-2\n' * 3000)
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "pdn", *argv, str(path)],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
        )
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr
    assert "No space left on device" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
