"""The progress bar of the database verbs (``pdn.cli.progress``) and the per-game callback
that feeds it from ``Index.update``."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

from rich.console import Console

from pdn.cli.progress import ByteProgress, file_sizes
from pdn.database.index import Index

GAMES = '[Event "a"]\n1. 32-28 19-23 *\n\n[Event "b"]\n1. 33-29 17-22 *\n'


def test_bar_counts_bytes_per_file_and_games() -> None:
    terminal = Console(file=StringIO(), force_terminal=True, width=100)
    with ByteProgress(terminal, {"a.pdn": 100, "b.pdn": 50}) as progress:
        progress.advance("a.pdn", 40)
        progress.advance("b.pdn", 30)
        progress.advance("a.pdn", 100)
        progress.advance("b.pdn", None)  # a game whose end is unknown: the bytes stay
        task = progress.bar.tasks[0]
        assert (task.completed, task.total, task.fields["games"]) == (130, 150, 4)


def test_no_bar_off_a_terminal() -> None:
    redirected = StringIO()
    with ByteProgress(Console(file=redirected), {"a.pdn": 100}) as progress:
        progress.advance("a.pdn", 40)
        assert progress.bar is None
    assert redirected.getvalue() == ""


def test_sizes_unknown_for_stdin(tmp_path: Path) -> None:
    games = tmp_path / "g.pdn"
    games.write_text(GAMES)
    assert file_sizes([str(games)]) == {str(games): len(GAMES)}
    assert file_sizes([str(games), "-"]) is None


def test_index_update_reports_each_game(tmp_path: Path) -> None:
    games = tmp_path / "g.pdn"
    games.write_text(GAMES)
    seen: list[tuple[str | None, int | None]] = []
    with Index(str(tmp_path / "g.db"), create=True) as index:
        report = index.update([str(games)], on_game=lambda file, end: seen.append((file, end)))
    assert report.games == 2
    assert [end for _file, end in seen] == [GAMES.index("\n\n"), len(GAMES.rstrip("\n"))]
    assert {file for file, _end in seen} == {str(games)}
