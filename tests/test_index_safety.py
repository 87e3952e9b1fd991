"""The index is a database: one writer at a time, a file's games replace its earlier ones, every
SQLite error one line and exit 2, `search` says which files changed since indexing, numeric
options bounded. Each test builds its files in tmp_path."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from dbgames import GAMES

from pdn.cli.main import main
from pdn.database.index import Index, UnusableIndexError


@pytest.fixture
def games(tmp_path: Path) -> Path:
    path = tmp_path / "games.pdn"
    path.write_text(GAMES, encoding="utf-8")
    return path


def count(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute("SELECT count(*) FROM games").fetchone()[0])


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(arg) for arg in argv])
    out, err = capsys.readouterr()
    return code, out, err


def pdn(*argv: str | Path) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "pdn", *map(str, argv)]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_two_runs_at_once_store_each_game_once(tmp_path: Path, games: Path) -> None:
    other = tmp_path / "other.pdn"
    other.write_text(GAMES.replace("Open 2004", "Open 2005") * 20, encoding="utf-8")
    db = tmp_path / "games.db"
    runs = [pdn("index", db, games, other) for _ in range(2)]
    results = [(process.wait(), process.communicate()[1]) for process in runs]
    assert [code for code, _err in results] == [0, 0], results
    assert count(db) == 3 + 60
    assert "0 file(s) indexed" in pdn("index", db, tmp_path).communicate()[1]
    assert count(db) == 63


def test_threads_with_their_own_connections_update_once(tmp_path: Path, games: Path) -> None:
    db = tmp_path / "games.db"
    start = threading.Barrier(3)
    errors: list[BaseException] = []

    def update() -> None:
        start.wait()
        try:
            with Index(str(db), create=True) as index:
                index.update([str(games)])
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)

    threads = [threading.Thread(target=update) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == [] and count(db) == 3


def test_a_second_writer_says_it_waits_then_gives_up_after_its_wait(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, games: Path
) -> None:
    db = tmp_path / "games.db"
    assert run(capsys, "index", db, games)[0] == 0
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another run's update in progress
    said: list[str] = []
    with pytest.raises(UnusableIndexError) as refused:
        Index(str(db), create=True, wait=0.2, on_wait=said.append)
    assert said == [f"{db} is being updated by another run; waiting..."]
    assert str(refused.value) == (
        f"{db}: still being updated by another run after 0.2 s; try again when it ends"
    )
    codes: list[int] = []
    waiting = threading.Thread(target=lambda: codes.append(main(["index", str(db), str(games)])))
    waiting.start()
    deadline = time.monotonic() + 20
    while "waiting..." not in capsys.readouterr().err and time.monotonic() < deadline:
        time.sleep(0.05)  # the CLI says so, then waits
    assert waiting.is_alive()
    holder.execute("COMMIT")
    holder.close()
    waiting.join()
    assert codes == [0] and count(db) == 3


def test_reindexing_the_same_files_keeps_the_count(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, games: Path
) -> None:
    db = tmp_path / "games.db"
    for paths in ([games], [tmp_path], [games, tmp_path, games]):
        assert run(capsys, "index", db, *paths)[0] == 0
        assert count(db) == 3
    games.write_text(GAMES, encoding="utf-8")  # the same bytes, a new mtime
    assert run(capsys, "index", db, games)[0] == 0 and count(db) == 3
    games.write_text(GAMES + GAMES, encoding="utf-8")  # the file's games replace its old ones
    assert run(capsys, "index", db, games)[0] == 0 and count(db) == 6
    with sqlite3.connect(db) as conn, pytest.raises(sqlite3.IntegrityError):
        conn.execute("INSERT INTO games(file_id, ordinal) SELECT file_id, ordinal FROM games")


def test_random_bytes_are_not_a_pdn_index(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, games: Path
) -> None:
    db = tmp_path / "noise.db"
    noise = os.urandom(8192)
    db.write_bytes(noise)
    for argv in (["search", db], ["index", db, games], ["index", "--rebuild", db, games]):
        code, out, err = run(capsys, *argv)
        assert code == 2 and out == "" and err.count("\n") == 1, err
        assert f"{db}: not a pdn index" in err
    assert db.read_bytes() == noise


def test_a_foreign_sqlite_database_is_refused_and_left_alone(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, games: Path
) -> None:
    db = tmp_path / "app.db"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE customers(id INTEGER PRIMARY KEY, name TEXT)")
        conn.execute("INSERT INTO customers(name) VALUES ('Ada')")
    before = db.read_bytes()
    for argv in (["search", db], ["index", db, games], ["index", "--rebuild", db, games]):
        code, out, err = run(capsys, *argv)
        assert code == 2 and out == "" and err.count("\n") == 1, err
        assert "not a pdn index" in err
    assert db.read_bytes() == before


def test_a_damaged_index_says_rebuild_and_rebuild_mends_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, games: Path
) -> None:
    db = tmp_path / "games.db"
    games.write_text(GAMES * 30, encoding="utf-8")
    assert run(capsys, "index", db, games)[0] == 0
    with open(db, "r+b") as stream:  # the header stands, the pages after the first do not
        stream.seek(4096)
        stream.write(os.urandom(os.path.getsize(db) - 4096))
    said = f"pdn {{}}: {db}: damaged: rebuild with pdn index --rebuild {db} PATH...\n"
    for verb, argv in (("search", ["search", db]), ("index", ["index", db, games])):
        assert run(capsys, *argv) == (2, "", said.format(verb))
    assert run(capsys, "index", "--rebuild", db, games)[0] == 0
    assert count(db) == 90
    code, out, _err = run(capsys, "search", db, "--format", "json", "--limit", "0")
    assert code == 0 and json.loads(out)["total"] == 90


def test_a_rebuild_not_committed_leaves_the_file_as_it_was(tmp_path: Path, games: Path) -> None:
    db = tmp_path / "games.db"
    with Index(str(db), create=True) as index:
        index.update([str(games)])
    before = db.read_bytes()
    rebuild = Index(str(db), rebuild=True)
    rebuild.update([str(games), str(games)])
    rebuild.close()  # no commit: a run stopped before its end
    assert db.read_bytes() == before


def in_a_child(argv: list[str], cwd: Path) -> tuple[int, str, str]:
    """``main(argv)`` in a forked process in ``cwd``, as user nobody when this is root (root
    ignores file modes): its exit code, stdout and stderr."""
    read_out, write_out = os.pipe()
    read_err, write_err = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child
        code = 70
        try:
            os.chdir(cwd)
            if os.geteuid() == 0:
                os.setgroups([])
                os.setgid(65534)
                os.setuid(65534)
            sys.stdout = open(write_out, "w")  # noqa: SIM115 - the child's own stdout
            sys.stderr = open(write_err, "w")  # noqa: SIM115
            code = main(argv)
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)
    os.close(write_out)
    os.close(write_err)
    with open(read_out) as out, open(read_err) as err:
        output, errors = out.read(), err.read()
    return os.waitstatus_to_exitcode(os.waitpid(child, 0)[1]), output, errors


def test_a_read_only_index_is_one_line(tmp_path: Path, games: Path) -> None:
    """0444 for real: as root the run is made as user nobody."""
    db = tmp_path / "games.db"
    with Index(str(db), create=True) as index:
        index.update([str(games)])
    db.chmod(0o444)
    closed = [path for path in (tmp_path, *tmp_path.parents) if not path.stat().st_mode & 0o001]
    modes = [path.stat().st_mode for path in closed]
    for path, mode in zip(closed, modes, strict=True):
        path.chmod(mode | 0o005)  # nobody may reach the files (SQLite opens by full path)
    try:
        said = "pdn index: games.db: read-only; make it writable, or index into another file\n"
        assert in_a_child(["index", db.name, games.name], tmp_path) == (2, "", said)
        code, out, err = in_a_child(["search", db.name, "--format", "json"], tmp_path)
        assert (code, err) == (0, "") and json.loads(out)["total"] == 3  # reading works
    finally:
        for path, mode in zip(closed, modes, strict=True):
            path.chmod(mode)


def test_search_says_which_files_changed_since_indexing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, games: Path
) -> None:
    strange = tmp_path / "odd\x1b]52;c;aGk=\x07\nname.pdn"
    strange.write_text(GAMES, encoding="utf-8")
    kept = tmp_path / "kept.pdn"
    kept.write_text(GAMES, encoding="utf-8")
    db = tmp_path / "games.db"
    assert run(capsys, "index", db, tmp_path)[0] == 0
    unchanged = run(capsys, "search", db, "--format", "json", "--limit", "0")
    assert unchanged[0] == 0 and unchanged[2] == ""
    games.write_text(GAMES[: len(GAMES) // 2], encoding="utf-8")
    strange.unlink()
    code, out, err = run(capsys, "search", db, "--format", "json", "--limit", "0")
    assert code == 0 and out == unchanged[1]  # the answer as the index has it
    shrunk = f"({os.path.getsize(games)} bytes, {len(GAMES.encode())} then)"
    update = f"update it: pdn index {db} PATH..."
    escaped = f"{tmp_path}/odd\\x1b]52;c;aGk=\\x07\\nname.pdn"
    assert err.splitlines() == [
        f"pdn search: {games}: changed since it was indexed {shrunk}; {update}",
        f"pdn search: {escaped}: gone since it was indexed; {update}",
    ]
    assert run(capsys, "search", db, "--strict") == (2, "", err)
    assert run(capsys, "index", db, tmp_path)[0] == 0
    assert run(capsys, "search", db, "--strict", "--format", "json")[::2] == (0, "")


@pytest.mark.parametrize(
    ("argv", "bounds"),
    [
        (["search", "DB", "--limit", "9223372036854775808"], "from 0 to 9223372036854775807"),
        (["index", "DB", "GAMES", "--jobs", "9223372036854775808"], "from 0 to 1024"),
    ],
)
def test_numeric_options_are_bounded(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, games: Path, argv: list[str], bounds: str
) -> None:
    db = tmp_path / "games.db"
    assert run(capsys, "index", db, games)[0] == 0
    given = [str(db) if arg == "DB" else str(games) if arg == "GAMES" else arg for arg in argv]
    code, out, err = run(capsys, *given)
    assert (code, out) == (2, "")
    assert f"expected a whole number {bounds}, not '9223372036854775808'" in err
    assert run(capsys, "search", db, "--limit", "9223372036854775807")[0] == 0
