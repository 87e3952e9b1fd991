"""`pdn check`: output formats, filtering, summary, exit codes."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from conftest import run_cli
from rich.console import Console

from pdn.batch.parallel import GameReport
from pdn.cli.check import _with_progress

CLEAN = '[GameType "20"]\n[Result "2-0"]\n1. 32-28 19-23 2. 28x19 14x23 2-0\n\n'
MISSED = '[GameType "20"]\n1. 32-28 19-23\n2. 28-22 17x28 *\n\n'
WARNED = '[GameType "20"]\n[Date "1996.13.01"]\n1. 32-28 *\n\n'


@pytest.fixture
def pdn_file(tmp_path: Path):
    def write(text: str, name: str = "games.pdn") -> str:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return str(path)

    return write


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    return run_cli(capsys, "check", *argv)


def test_clean_file_exits_0_with_a_summary(pdn_file, capsys) -> None:
    code, out, err = run(capsys, pdn_file(CLEAN))
    assert (code, out) == (0, "")
    assert "1 games" in err and "4 plies" in err


def test_text_findings_look_like_compiler_messages(pdn_file, capsys) -> None:
    path = pdn_file(CLEAN + MISSED)
    code, out, _ = run(capsys, path, "--no-summary")
    assert code == 1
    assert (
        out == f"{path}:7:4: error[missed-capture] game 2 ply 3 28-22: " + (out.split(": ", 2)[2])
    )
    assert "a capture was compulsory" in out


def test_json_lines_follow_the_contract(pdn_file, capsys) -> None:
    path = pdn_file(MISSED + WARNED)
    code, out, _ = run(capsys, path, "--format", "json", "--no-summary")
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 1
    assert [list(row) for row in rows] == [
        ["file", "game", "ply", "move", "line", "column", "code", "severity", "message"]
    ] * 2
    assert [(row["game"], row["ply"], row["code"], row["severity"]) for row in rows] == [
        (1, 3, "missed-capture", "error"),
        (2, None, "tag", "warning"),
    ]


def test_select_ignore_and_strict(pdn_file, capsys) -> None:
    path = pdn_file(MISSED + WARNED)
    code, out, _ = run(capsys, path, "--select", "tag", "--no-summary")
    assert code == 0 and "[tag]" in out and "missed-capture" not in out
    code, out, _ = run(capsys, path, "--select", "tag", "--strict", "--no-summary")
    assert code == 1
    code, out, _ = run(capsys, path, "--ignore", "missed-capture,tag", "--no-summary")
    assert (code, out) == (0, "")


def test_summary_counts_by_code_variant_and_file(pdn_file, capsys) -> None:
    code, _, err = run(capsys, pdn_file(MISSED + WARNED + CLEAN))
    assert code == 1
    assert "3 games" in err and "2 findings" in err
    for word in ("missed-capture", "tag", "international", "games.pdn", "by code", "by file"):
        assert word in err
    _, _, err = run(capsys, pdn_file(CLEAN), "--no-summary")
    assert err == ""


def test_variant_and_rules_options(pdn_file, capsys) -> None:
    path = pdn_file("1. 32-28 19-23 *\n")
    code, out, _ = run(capsys, path, "--variant", "frisian", "--no-summary", "-v")
    assert code == 0 and "frisian from --variant" in out and "info[variant]" in out
    code, out, _ = run(capsys, path, "--rules", "damplay", "--no-summary", "-v")
    assert (code, out) == (0, "")  # International, PDN's default: nothing to say


@pytest.mark.parametrize(
    "argv",
    [
        ["--variant", "chess"],
        ["--rules", "nope"],
        ["--select", "not-a-code"],
        ["--format", "xml"],
        ["--jobs", "-1"],
    ],
)
def test_usage_errors_exit_2(pdn_file, capsys, argv: list[str]) -> None:
    code, out, err = run(capsys, pdn_file(CLEAN), *argv)
    assert code == 2 and out == "" and err


def test_unreadable_path_exits_2_and_the_others_are_checked(pdn_file, tmp_path, capsys) -> None:
    missing = str(tmp_path / "missing.pdn")
    code, out, err = run(capsys, missing, pdn_file(MISSED), "--no-summary")
    assert code == 2
    assert "missing.pdn" in err
    assert "missed-capture" in out


def test_jobs_give_the_same_output_in_the_same_order(pdn_file, capsys) -> None:
    path = pdn_file((MISSED + WARNED + CLEAN) * 20)
    _, sequential, _ = run(capsys, path, "--format", "json", "--no-summary")
    _, parallel, _ = run(capsys, path, "--format", "json", "--no-summary", "--jobs", "2")
    assert sequential == parallel and sequential.count("\n") == 40


def test_progress_bar_counts_bytes_only_on_a_terminal() -> None:
    reports = [
        GameReport("a.pdn", 1, "international", end_byte=1000),
        GameReport("a.pdn", 2, "international", end_byte=2000),
        GameReport("b.pdn", 1, "international", end_byte=3000),
    ]
    sizes = {"a.pdn": 2000, "b.pdn": 3000}
    terminal = Console(file=StringIO(), force_terminal=True, width=100)
    assert list(_with_progress(iter(reports), terminal, sizes)) == reports
    shown = terminal.file.getvalue()  # type: ignore[attr-defined]
    assert "5.0/5.0 kB" in shown and "3 games" in shown  # bytes done of the total
    redirected = Console(file=StringIO(), width=100)
    assert list(_with_progress(iter(reports), redirected, sizes)) == reports
    assert redirected.file.getvalue() == ""  # type: ignore[attr-defined]


def test_summary_rows_keep_each_findings_own_severity(pdn_file, capsys) -> None:
    # one variant warning (inferred from nothing but squares) and one variant info ([Variant]
    # names it exactly)
    path = pdn_file('[FEN "B:W18,24:B12,16"]\n*\n\n' + '[Variant "english"]\n1. 11-15 *\n\n')
    _, _, err = run(capsys, path)
    rows = [line.split() for line in err.splitlines() if "variant" in line and "│" in line]
    assert sorted((row[3], row[5]) for row in rows if row[1] == "variant") == [
        ("info", "1"),
        ("warning", "1"),
    ]
