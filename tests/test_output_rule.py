"""The one output rule (issue 24): no output of any verb is, or resolves to, an input of the run;
every file is written whole or not at all (``-o``, ``--log``, ``--rejects``, ``--svg``);
``fix --in-place`` never writes through a link at ``NAME.bak``, never replaces an earlier
backup, and refuses a read-only, hard-linked or changed file; a requested file is written, or
the exit code is 2, whatever happened to stdout."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import run_cli as run

import pdn.batch.fixing as fixing

FAULTY = (
    '[Event " Club "]\n[Date "14.12.2024"]\n[Result "1-0"]\n[GameType "20"]\n\n'
    "1. 32-28 19-23 5. 28x19 14x23 1-0\n"
)
BROKEN = '[Event "broken"]\n\n1. 32-28 ) 19-23 *\n'
GAMES = FAULTY + "\n" + BROKEN


def _leftovers(folder: Path) -> list[str]:
    return sorted(name for name in os.listdir(folder) if name.endswith(".tmp"))


def _clash(verb: str, option: str, target: Path, source: Path) -> str:
    return (
        f"pdn {verb}: {option} {target} is an input of this run "
        f"(writing it would overwrite the input {source})\n"
    )


#: Each verb and option that writes a file: the command line with ``{IN}`` and ``{OUT}``.
WRITERS = [
    ("fix", "-o", ["fix", "{IN}", "-o", "{OUT}"]),
    ("fix", "--log", ["fix", "{IN}", "-o", "{FREE}", "--log", "{OUT}"]),
    ("fix", "--rejects", ["fix", "{IN}", "-o", "{FREE}", "--rejects", "{OUT}"]),
    ("fix", "--log", ["fix", "{IN}", "--in-place", "--log", "{OUT}"]),
    ("fix", "--rejects", ["fix", "{IN}", "--in-place", "--rejects", "{OUT}"]),
    ("convert", "-o", ["convert", "{IN}", "-o", "{OUT}"]),
    ("select", "-o", ["select", "{IN}", "-o", "{OUT}"]),
    ("dedupe", "-o", ["dedupe", "{IN}", "-o", "{OUT}"]),
    ("dedupe", "--report", ["dedupe", "{IN}", "--report", "{OUT}"]),
    ("report", "-o", ["report", "{IN}", "-o", "{OUT}"]),
    ("show", "--svg", ["show", "{IN}", "--svg", "{OUT}"]),
    ("show", "--svg-terminal", ["show", "{IN}", "--svg-terminal", "{OUT}"]),
]


def _same(source: Path, how: str) -> Path:
    """A name for ``source``: itself, a symbolic link to it, or a hard link to it."""
    if how == "itself":
        return source
    other = source.with_name("other.pdn")
    if how == "symlink":
        other.symlink_to(source.name)
    else:
        os.link(source, other)
    return other


@pytest.mark.parametrize("how", ["itself", "symlink", "hard link"])
@pytest.mark.parametrize(("verb", "option", "argv"), WRITERS)
def test_an_output_that_is_an_input_is_refused_before_anything_is_written(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    verb: str,
    option: str,
    argv: list[str],
    how: str,
) -> None:
    source = tmp_path / "in.pdn"
    source.write_text(GAMES, encoding="utf-8")
    target = _same(source, how)
    free = tmp_path / "free.pdn"
    words = {"{IN}": str(source), "{OUT}": str(target), "{FREE}": str(free)}
    code, _, err = run(capsys, *(words.get(word, word) for word in argv))
    assert code == 2
    assert err == _clash(verb, option, target, source)
    assert source.read_text(encoding="utf-8") == GAMES
    assert not free.exists() and not (tmp_path / "in.pdn.bak").exists()
    assert _leftovers(tmp_path) == []


@pytest.mark.parametrize(("verb", "option", "argv"), WRITERS)
def test_a_file_inside_an_input_folder_is_an_input(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    verb: str,
    option: str,
    argv: list[str],
) -> None:
    folder = tmp_path / "db"
    folder.mkdir()
    inside = folder / "x.pdn"
    inside.write_text(GAMES, encoding="utf-8")
    given = str(inside) if verb in ("convert", "show") else str(folder)  # one file only
    words = {"{IN}": given, "{OUT}": str(inside), "{FREE}": str(tmp_path / "free.pdn")}
    code, _, err = run(capsys, *(words.get(word, word) for word in argv))
    assert code == 2
    assert err == _clash(verb, option, inside, inside)
    assert inside.read_text(encoding="utf-8") == GAMES


def test_two_outputs_that_are_one_file_are_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    source = tmp_path / "in.pdn"
    source.write_text(GAMES, encoding="utf-8")
    both = tmp_path / "both.txt"
    code, _, err = run(capsys, "fix", str(source), "-o", str(both), "--log", str(both))
    assert code == 2
    assert err == f"pdn fix: --log {both} is also -o: one file each\n"
    assert not both.exists()


def _interrupt_on_file(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """Make the repair of the first game of file ``name`` raise ``KeyboardInterrupt``."""
    real: Callable[..., object] = fixing.repair

    def repair(game: object, options: object) -> object:
        if getattr(getattr(game, "source", None), "file", "").endswith(name):
            raise KeyboardInterrupt
        return real(game, options)

    monkeypatch.setattr(fixing, "repair", repair)


def test_log_and_rejects_are_committed_whole_or_not_at_all(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = tmp_path / "a.pdn", tmp_path / "b.pdn"
    first.write_text(GAMES, encoding="utf-8")
    second.write_text(GAMES, encoding="utf-8")
    log, rejects, out = tmp_path / "log.jsonl", tmp_path / "rejects.pdn", tmp_path / "out.pdn"
    for earlier in (log, rejects, out):
        earlier.write_text("earlier\n")
    _interrupt_on_file(monkeypatch, "b.pdn")
    argv = ["fix", str(first), str(second), "-o", str(out), "-q"]
    code, _, err = run(capsys, *argv, "--log", str(log), "--rejects", str(rejects))
    assert code == 130
    assert err == "pdn fix: interrupted; the input files are untouched\n"
    for earlier in (log, rejects, out):  # the run wrote nothing: the earlier files stay
        assert earlier.read_text() == "earlier\n"
    assert _leftovers(tmp_path) == []


def test_a_failed_in_place_run_commits_the_log_of_what_it_rewrote(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = tmp_path / "a.pdn", tmp_path / "b.pdn"
    first.write_text(GAMES, encoding="utf-8")
    second.write_text(GAMES, encoding="utf-8")
    log, rejects = tmp_path / "log.jsonl", tmp_path / "rejects.pdn"
    _interrupt_on_file(monkeypatch, "b.pdn")
    argv = ["fix", str(first), str(second), "--in-place", "--no-backup", "-q", "--normalize", "all"]
    code, _, err = run(capsys, *argv, "--log", str(log), "--rejects", str(rejects))
    assert code == 130
    assert (
        err == f"pdn fix: interrupted; {second} is untouched (1 file(s) before it were rewritten)\n"
    )
    assert first.read_text(encoding="utf-8").startswith('[Event "Club"]')
    assert second.read_text(encoding="utf-8") == GAMES
    records = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert records and {record["file"] for record in records} == {str(first)}
    assert rejects.read_text(encoding="utf-8") == BROKEN  # the game taken out of a.pdn
    assert _leftovers(tmp_path) == []


def test_a_link_at_the_backup_name_is_never_followed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    source = tmp_path / "a.pdn"
    source.write_text(GAMES, encoding="utf-8")
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    (tmp_path / "a.pdn.bak").symlink_to(victim)
    code, _, err = run(capsys, "fix", str(source), "--in-place", "-q")
    assert code == 2
    assert err == (
        f"pdn fix: {source}.bak exists: {source} not rewritten, an earlier backup is never "
        f"replaced (move it away first); {source} is untouched\n"
    )
    assert victim.read_text() == "precious\n"
    assert source.read_text(encoding="utf-8") == GAMES
    assert _leftovers(tmp_path) == []


def test_an_earlier_backup_is_never_replaced(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    source = tmp_path / "a.pdn"
    source.write_text(GAMES, encoding="utf-8")
    backup = tmp_path / "a.pdn.bak"
    backup.write_text("the only copy of the original\n")
    code, _, err = run(capsys, "fix", str(source), "--in-place", "-q")
    assert code == 2
    assert f"{backup} exists: {source} not rewritten" in err and err.count("\n") == 1
    assert backup.read_text() == "the only copy of the original\n"
    assert source.read_text(encoding="utf-8") == GAMES


def test_the_backup_is_a_copy_of_bytes_mode_and_time(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    source = tmp_path / "a.pdn"
    source.write_text(GAMES, encoding="utf-8")
    source.chmod(0o640)
    os.utime(source, ns=(1_000_000_000, 2_000_000_000))
    code, _, _ = run(capsys, "fix", str(source), "--in-place", "-q", "--normalize", "all")
    assert code == 1  # the unreadable game is left as it is
    backup = tmp_path / "a.pdn.bak"
    assert backup.read_text(encoding="utf-8") == GAMES
    assert stat.S_IMODE(backup.stat().st_mode) == 0o640
    assert backup.stat().st_mtime_ns == 2_000_000_000
    assert source.read_text(encoding="utf-8").startswith('[Event "Club"]')


def test_a_file_changed_while_it_was_fixed_is_left_as_the_editor_saved_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = tmp_path / "a.pdn"
    source.write_text(GAMES, encoding="utf-8")
    saved = GAMES + "\n" + FAULTY
    real: Callable[..., object] = fixing.repair

    def repair(game: object, options: object) -> object:
        source.write_text(saved, encoding="utf-8")  # an editor saves the file meanwhile
        return real(game, options)

    monkeypatch.setattr(fixing, "repair", repair)
    code, _, err = run(capsys, "fix", str(source), "--in-place", "-q")
    assert code == 2
    assert err == (
        f"pdn fix: {source} changed while it was being fixed: not rewritten (run again); "
        f"{source} is untouched\n"
    )
    assert source.read_text(encoding="utf-8") == saved
    assert not (tmp_path / "a.pdn.bak").exists()
    assert _leftovers(tmp_path) == []


def test_a_read_only_file_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    source = tmp_path / "a.pdn"
    source.write_text(GAMES, encoding="utf-8")
    source.chmod(0o444)
    code, _, err = run(capsys, "fix", str(source), "--in-place", "--no-backup", "-q")
    assert code == 2
    assert err == (
        f"pdn fix: {source} is read-only: not rewritten (make it writable first); "
        f"{source} is untouched\n"
    )
    assert source.read_text(encoding="utf-8") == GAMES
    assert stat.S_IMODE(source.stat().st_mode) == 0o444
    assert _leftovers(tmp_path) == []


def test_a_read_only_file_with_nothing_to_fix_is_simply_left(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    source = tmp_path / "a.pdn"
    clean = '[Event "Clean"]\n[Result "*"]\n[GameType "20"]\n\n1. 32-28 19-23 *\n'
    source.write_text(clean, encoding="utf-8")
    source.chmod(0o444)
    code, _, _ = run(capsys, "fix", str(source), "--in-place", "-q")
    assert code == 0
    assert source.read_text(encoding="utf-8") == clean


def test_a_hard_linked_file_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    source = tmp_path / "a.pdn"
    source.write_text(GAMES, encoding="utf-8")
    other = tmp_path / "other-name.pdn"
    os.link(source, other)
    code, _, err = run(capsys, "fix", str(source), "--in-place", "--no-backup", "-q")
    assert code == 2
    assert err == (
        f"pdn fix: {source} has 2 names (hard links): not rewritten, a new file would split "
        f"it from its other names; {source} is untouched\n"
    )
    assert source.read_text(encoding="utf-8") == GAMES
    assert os.path.samefile(source, other)


def _closed_stdout(*argv: str) -> int:
    """Run ``pdn ARGV`` with a stdout whose reader has gone (``| true``); its exit code."""
    process = subprocess.Popen(
        [sys.executable, "-m", "pdn", *argv],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert process.stdout is not None
    process.stdout.close()
    return process.wait(timeout=300)


@pytest.mark.parametrize(
    "argv",
    [
        ["dedupe", "{IN}", "-o", "{OUT}"],
        ["fix", "{IN}", "-o", "{OUT}", "--log", "-", "-q"],
        ["fix", "{IN}", "--rejects", "{OUT}", "-q"],
        ["dedupe", "{IN}", "-o", "-", "--report", "{OUT}"],
    ],
)
def test_a_closed_stdout_does_not_stop_a_requested_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str]
) -> None:
    source = tmp_path / "in.pdn"
    games = "\n".join([GAMES] * 300)  # more than a pipe's buffer
    source.write_text(games, encoding="utf-8")
    reference, target = tmp_path / "reference.txt", tmp_path / "out.txt"
    run(capsys, *(str(reference) if word == "{OUT}" else word for word in _with(argv, source)))
    code = _closed_stdout(
        *(str(target) if word == "{OUT}" else word for word in _with(argv, source))
    )
    assert code == 0
    assert target.read_bytes() == reference.read_bytes()  # complete
    assert source.read_text(encoding="utf-8") == games
    assert _leftovers(tmp_path) == []


def _with(argv: list[str], source: Path) -> list[str]:
    return [str(source) if word == "{IN}" else word for word in argv]
