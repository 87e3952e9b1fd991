"""Issues 28-29 on the index: the deep explorer (transpositions, the position after each next
move), an interrupted update that continues in the middle of its file, schema 4 rebuilt from
schema 3."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from dbgames import GAMES

from pdn.cli.main import main
from pdn.database import indexbuild
from pdn.database.filters import Criteria
from pdn.database.index import Index
from pdn.database.movestart import MoveStart

#: Three games reach the same position after four plies, two by one order, one by another.
ORDERS = "".join(
    f'[Event "e{number}"]\n[Result "{result}"]\n[GameType "20"]\n\n{moves} {result}\n\n'
    for number, (moves, result) in enumerate(
        (
            ("1. 31-26 20-24 2. 33-28 15-20 3. 34-30", "2-0"),
            ("1. 33-28 20-24 2. 31-26 15-20 3. 34-30", "1-1"),
            ("1. 31-26 20-24 2. 33-28 15-20 3. 35-30", "0-2"),
            ("1. 32-28 19-23", "2-0"),
        ),
        start=1,
    )
)
REACHED = "W:W26,28,32,34-50:B1-14,16-20,24"
AFTER_34_30 = "B:W26,28,30,32,35-50:B1-14,16-20,24"


def search(capsys: pytest.CaptureFixture[str], db: Path, *argv: str) -> dict:
    capsys.readouterr()
    assert main(["search", str(db), "--format", "json", "--limit", "0", *argv]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.fixture
def orders(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> Path:
    path = tmp_path / "orders.pdn"
    path.write_text(ORDERS, encoding="utf-8")
    db = tmp_path / "orders.db"
    assert main(["index", str(db), str(path)]) == 0
    return db


def test_deep_explorer_counts_move_orders_and_the_next_positions(
    capsys: pytest.CaptureFixture[str], orders: Path
) -> None:
    plain = search(capsys, orders, "--position", REACHED)
    deep = search(capsys, orders, "--position", REACHED, "--deep")
    assert "move_orders" not in plain and "after" not in plain["moves"][0]
    assert deep["total"] == 3 and (deep["move_orders"], deep["transposed"]) == (2, 1)
    after = {line["move"]: line["after"] for line in deep["moves"]}
    direct = search(capsys, orders, "--position", AFTER_34_30)
    assert after["34-30"] == {"games": 2, "white": 1, "draws": 1, "black": 0}
    assert direct["total"] == 2
    assert after["35-30"]["games"] == 1 and after["35-30"]["black"] == 1
    assert deep["games"] == plain["games"]


def test_the_start_position_is_one_move_order(
    capsys: pytest.CaptureFixture[str], orders: Path
) -> None:
    deep = search(capsys, orders, "--position", "W:W31-50:B1-20", "--deep")
    assert (deep["total"], deep["move_orders"], deep["transposed"]) == (4, 1, 0)
    capsys.readouterr()
    assert main(["search", str(orders), "--position", REACHED, "--deep"]) == 0
    table = capsys.readouterr().out
    assert "reached by 2 move order(s); 1 game(s) by another order" in table
    assert "2: 1/1/0" in table  # after 34-30: 2 games, 1 White win, 1 draw


def test_an_interrupted_update_continues_in_the_middle_of_its_file(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "six.pdn"
    path.write_text(GAMES + "\n" + GAMES.replace("Open 2004", "Open 2005"), encoding="utf-8")
    db, fresh = tmp_path / "resumed.db", tmp_path / "fresh.db"
    monkeypatch.setattr(indexbuild, "BATCH_GAMES", 1)
    monkeypatch.setattr(indexbuild, "CHECKPOINT_SECONDS", 0.0)
    insert = indexbuild._insert
    calls = []

    def interrupted(*args: object) -> int:
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return insert(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(indexbuild, "_insert", interrupted)
    with pytest.raises(KeyboardInterrupt), Index(str(db), create=True) as index:
        index.update([str(path)])
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT sha256, games, resume_after FROM files").fetchone() == (
            "",
            2,
            2,
        )
    monkeypatch.setattr(indexbuild, "_insert", insert)
    with Index(str(db)) as index:
        report = index.update([str(path)])
    assert report.games == 4 and report.indexed == [str(path.resolve())]
    with Index(str(fresh), create=True) as index:
        index.update([str(path)])

    def contents(database: Path) -> list[object]:
        with sqlite3.connect(database) as conn:
            return [
                conn.execute("SELECT games, resume_after, sha256 != '' FROM files").fetchall(),
                conn.execute("SELECT ordinal, white, plies FROM games ORDER BY id").fetchall(),
                conn.execute("SELECT count(*), sum(length(boards)) FROM game_boards").fetchall(),
                conn.execute("SELECT count(*), sum(ply) FROM positions").fetchall(),
            ]

    assert contents(db) == contents(fresh)
    with Index(str(db)) as resumed, Index(str(fresh)) as whole:
        start = Criteria(position="W:W31-50:B1-20")
        assert resumed.search(start).total == whole.search(start).total == 6
    with Index(str(db)) as index:
        assert index.update([str(path)]).unchanged == 1


def test_a_schema_3_index_is_rebuilt_by_index_and_refused_by_search(
    capsys: pytest.CaptureFixture[str], orders: Path, tmp_path: Path
) -> None:
    with sqlite3.connect(orders) as conn:
        conn.execute("PRAGMA user_version = 3")
    assert main(["search", str(orders)]) == 2
    assert "schema 3, this pdn reads 6" in capsys.readouterr().err
    path = tmp_path / "orders.pdn"
    assert main(["index", str(orders), str(path)]) == 0
    assert search(capsys, orders, "--position", REACHED)["total"] == 3


def test_deep_needs_a_position_and_an_opening_is_for_select(
    capsys: pytest.CaptureFixture[str], orders: Path
) -> None:
    capsys.readouterr()
    assert main(["search", str(orders), "--deep"]) == 2
    assert capsys.readouterr().err == (
        "pdn search: --deep explores a position: give --position FEN too\n"
    )
    opening = Criteria(opening=MoveStart.parse("31-26 20-24"))
    with Index(str(orders)) as index, pytest.raises(ValueError, match="answered by pdn select"):
        index.search(opening)  # the index has no written moves to compare
