"""``pdn.html`` (the library call, no CLI) puts a tournament's standings on a folder's index by
itself, and leaves them out for a database of many events."""

from __future__ import annotations

from pathlib import Path

import pdn


def round_robin(event: str) -> str:
    return "".join(
        f'[Event "{event}"]\n[White "{white}"]\n[Black "{black}"]\n[Result "{result}"]\n'
        f'[GameType "20"]\n\n1. 32-28 19-23 {result}\n\n'
        for white, black, result in (
            ("Ann", "Bob", "2-0"),
            ("Bob", "Cid", "1-1"),
            ("Cid", "Ann", "0-2"),
        )
    )


def test_a_tournaments_index_starts_with_its_standings(tmp_path: Path) -> None:
    source = tmp_path / "cup.pdn"
    source.write_text(round_robin("Club cup"))
    summary = pdn.html([str(source)], str(tmp_path / "site"))
    index = (tmp_path / "site" / "index.html").read_text()
    assert summary.games == 3
    assert index.index('class="pdn-standings"') < index.index('class="games"')
    assert "Sonneborn-Berger" in index


def test_a_database_of_many_events_has_no_standings(tmp_path: Path) -> None:
    source = tmp_path / "many.pdn"
    source.write_text("".join(round_robin(f"Event {number}") for number in range(6)))
    pdn.html([str(source)], str(tmp_path / "site"))
    assert 'class="pdn-standings"' not in (tmp_path / "site" / "index.html").read_text()
