"""pdn.batch.parallel: every mode yields the same reports, in input order, and unreadable paths go
on."""

from __future__ import annotations

from pathlib import Path

import distributed

from pdn.base.paths import PathError, expand_paths
from pdn.batch.parallel import AuditOptions, GameReport, check_paths

GAME = """[Event "{n}"]
[GameType "20"]
1. 32-28 19-23 2. 28x19 14x23 *

"""


def _write_files(tmp_path: Path, files: int, games: int) -> list[str]:
    paths = []
    for f in range(files):
        text = "".join(GAME.format(n=f"{f}.{g}") for g in range(games))
        path = tmp_path / f"file{f}.pdn"
        path.write_text(text, encoding="utf-8")
        paths.append(str(path))
    return paths


def _keys(reports: list[GameReport | PathError]) -> list[tuple[str, int | None]]:
    return [(r.file, None) if isinstance(r, PathError) else (str(r.file), r.game) for r in reports]


def test_sequential_reports_every_game_in_order(tmp_path: Path) -> None:
    paths = _write_files(tmp_path, files=3, games=40)
    reports = list(check_paths(paths, AuditOptions()))
    assert _keys(reports) == [(p, g) for p in paths for g in range(1, 41)]


def test_processes_give_the_same_reports_as_sequential(tmp_path: Path) -> None:
    paths = _write_files(tmp_path, files=2, games=70)
    sequential = list(check_paths(paths, AuditOptions()))
    parallel = list(check_paths(paths, AuditOptions(), jobs=2))
    assert _keys(parallel) == _keys(sequential)
    assert [r.findings for r in parallel] == [r.findings for r in sequential]  # type: ignore[union-attr]


def test_unreadable_path_is_reported_and_the_batch_goes_on(tmp_path: Path) -> None:
    paths = _write_files(tmp_path, files=1, games=2)
    missing = str(tmp_path / "missing.pdn")
    reports = list(check_paths([missing, *paths], AuditOptions()))
    assert isinstance(reports[0], PathError)
    assert reports[0].file == missing
    assert _keys(reports[1:]) == [(paths[0], 1), (paths[0], 2)]


def test_directories_expand_to_sorted_pdn_files(tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    for name in ("b/2.pdn", "1.pdn", "notes.md"):
        (tmp_path / name).write_text("*", encoding="utf-8")
    assert list(expand_paths([str(tmp_path), "-"])) == [
        str(tmp_path / "1.pdn"),
        str(tmp_path / "b" / "2.pdn"),
        "-",
    ]


def test_dask_local_cluster_gives_the_same_reports(tmp_path: Path) -> None:
    paths = _write_files(tmp_path, files=2, games=35)
    sequential = list(check_paths(paths, AuditOptions()))
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        on_dask = list(check_paths(paths, AuditOptions(), dask=cluster.scheduler_address))
    assert _keys(on_dask) == _keys(sequential)
