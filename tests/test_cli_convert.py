"""`pdn convert` and `pdn list` through ``pdn.cli.main.main`` (golden outputs for a small file)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from conftest import CORPUS
from conftest import run_cli as run

from pdn.cli.main import main

SMALL = """\
[Event "Club"]
[GameType "20"]
[Result "2-0"]

1. 32-28 19-23 {a reply} 2. 28x19 14x23 (2... 13x24 3. 34-29) 3. 33-28 2-0

[Event "Grozny"]
[GameType "25"]
[Result "0:1"]

1. c3-d4 f6-e5 2. d4xf6 g7xe5 0:1
"""

BROKEN = """\
[Event "Broken"]

1. 32-28 ) 19-23 *
"""


@pytest.fixture()
def small(tmp_path: Path) -> Path:
    path = tmp_path / "small.pdn"
    path.write_text(SMALL, encoding="utf-8")
    return path


def test_convert_keeps_moves_and_writes_results_in_the_variant_style(
    small: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "convert", str(small))
    assert (code, err) == (0, "")
    assert out == SMALL.replace("0:1", "0-1")


def test_convert_to_algebraic_with_standard_numbers(
    small: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "convert", str(small), "--notation", "algebraic", "--renumber")
    assert code == 0
    assert out.split("\n\n")[1] == (
        "1. d4-e5 g7-f6 {a reply} 2. e5xg7 h8xf6 (2... f8xh6 3. h4-g5) 3. f4-e5 2-0"
    )
    assert out.endswith("1. c3-d4 f6-e5 2. d4:f6 g7:e5 0-1\n")  # Russian separator ':'


def test_convert_to_numeric_with_full_captures(
    small: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "convert", str(small), "--notation", "numeric", "--captures", "full")
    assert code == 0
    assert out.endswith("1. 22-18 11-15 2. 18:11 8:15 0-1\n")


def test_convert_to_json_lines(small: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "convert", str(small), "--to", "json")
    assert code == 0
    first, second = (json.loads(line) for line in out.splitlines())
    assert first["variant"] == "international" and second["variant"] == "russian"
    assert first["tags"][0] == ["Event", "Club"]
    assert [move["move"] for move in first["moves"]] == [
        "32-28",
        "19-23",
        "28x19",
        "14x23",
        "33-28",
    ]
    assert first["moves"][3]["variations"][0][0]["move"] == "13x24"
    assert second["result"] == "0:1" and second["winner"] == "B"


def test_convert_reports_syntax_errors_and_keeps_the_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "broken.pdn"
    path.write_text(BROKEN, encoding="utf-8")
    code, out, err = run(capsys, "convert", str(path))
    assert code == 1
    assert out == BROKEN
    assert err == f"{path}:3:10: error[syntax] game 1: ')' without an opening '('\n"


def test_convert_stdin_to_output_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(SMALL.encode())))
    target = tmp_path / "out.pdn"
    code, out, _ = run(capsys, "convert", "-", "-o", str(target))
    assert (code, out) == (0, "")
    assert target.read_text(encoding="utf-8") == SMALL.replace("0:1", "0-1")


def test_convert_variant_option_for_games_without_gametype(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bare.pdn"
    path.write_text("1. 22-18 11-15 *\n", encoding="utf-8")
    code, out, _ = run(
        capsys, "convert", str(path), "--variant", "russian", "--notation", "algebraic"
    )
    assert (code, out) == (0, '[GameType "25"]\n\n1. c3-d4 f6-e5 *\n')  # says what it became


def test_usage_and_io_failures_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "convert", str(tmp_path / "missing.pdn"))
    assert code == 2 and "missing.pdn" in err
    code, _, err = run(capsys, "convert", str(tmp_path / "missing.pdn"), "--variant", "chess")
    assert code == 2 and "unknown variant" in err
    assert run(capsys, "convert", "x.pdn", "--to", "yaml")[0] == 2
    assert run(capsys, "list", str(tmp_path / "missing.pdn"))[0] == 2
    source = tmp_path / "same.pdn"
    source.write_text(SMALL, encoding="utf-8")
    code, _, err = run(capsys, "convert", str(source), "-o", str(source))
    assert code == 2 and "overwrite" in err
    assert source.read_text(encoding="utf-8") == SMALL


@pytest.mark.parametrize(
    "options",
    [(), ("--notation", "algebraic"), ("--captures", "full"), ("--to", "json"), ("--renumber",)],
)
def test_convert_on_workers_writes_the_same_bytes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], options: tuple[str, ...]
) -> None:
    # more games than one chunk of work, a broken one among them: same output, same
    # findings on stderr, same exit code as in one process
    path = tmp_path / "many.pdn"
    path.write_text("\n".join([SMALL] * 20 + [BROKEN] + [SMALL] * 20), encoding="utf-8")
    alone = run(capsys, "convert", str(path), *options)
    assert alone[0] == 1 and "error" in alone[2] and alone[1].count("Grozny") == 40
    assert run(capsys, "convert", str(path), *options, "--jobs", "2") == alone
    missing = run(capsys, "convert", str(tmp_path / "missing.pdn"), "--jobs", "2")
    assert missing[0] == 2 and "missing.pdn" in missing[2]


def test_list_table(small: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "list", str(small), "--format", "table")
    assert code == 0
    rows = [line for line in out.splitlines() if "Club" in line or "Grozny" in line]
    assert len(rows) == 2
    assert rows[0].split()[:2] == ["1", "│"] and "2-0" in rows[0] and "5" in rows[0]


def test_list_shows_tag_values_as_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "markup.pdn"
    path.write_text('[Event "[/b] [red]x"]\n\n1. 32-28 *\n', encoding="utf-8")
    code, out, _ = run(capsys, "list", str(path), "--format", "table")
    assert code == 0 and "[/b] [red]x" in out


def test_list_json_and_csv(small: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "list", str(small), "--format", "json")
    assert code == 0
    assert [json.loads(line) for line in out.splitlines()] == [
        {
            "game": 1,
            "line": 1,
            "White": None,
            "Black": None,
            "Event": "Club",
            "Date": None,
            "Result": "2-0",
            "GameType": "20",
            "plies": 5,
        },
        {
            "game": 2,
            "line": 7,
            "White": None,
            "Black": None,
            "Event": "Grozny",
            "Date": None,
            "Result": "0:1",
            "GameType": "25",
            "plies": 4,
        },
    ]
    code, out, _ = run(capsys, "list", str(small), "--format", "csv")
    assert out == (
        "game,line,White,Black,Event,Date,Result,GameType,plies\n"
        "1,1,,,Club,,2-0,20,5\n"
        "2,7,,,Grozny,,0:1,25,4\n"
    )


OCA = CORPUS / "wiegerw" / "pdn" / "games__succeed__OCA_2.0.pdn"  # English, no GameType


@pytest.mark.skipif(not OCA.is_file(), reason="../shared/corpus not present")
def test_numeric_to_algebraic_to_numeric_through_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    algebraic, numeric, back = (tmp_path / name for name in ("a.pdn", "n.pdn", "b.pdn"))
    assert main(["convert", str(OCA), "--notation", "algebraic", "-o", str(algebraic)]) == 0
    assert main(["convert", str(OCA), "--notation", "numeric", "-o", str(numeric)]) == 0
    assert main(["convert", str(algebraic), "--notation", "numeric", "-o", str(back)]) == 0
    assert "1. f6-e5 g3-h4" in algebraic.read_text(encoding="utf-8")
    assert back.read_text(encoding="utf-8") == numeric.read_text(encoding="utf-8")
    assert numeric.read_text(encoding="utf-8").count('[GameType "21"]') == 43
    capsys.readouterr()


#: A playstrategy.org-style English game (PDN.md §5): squares seen from Black's side, and
#: Black's double jump f6xd4xb2 (in PDN 18x11x4) written in two parts "e5xc3 7. c3xa1".
PLAYSTRATEGY = """\
[Site "https://playstrategy.org/A1IYDksh"]
[P1 "a"]
[P2 "b"]
[Variant "American/English"]

1. c3-d4 d6-e5 2. b2-c3 c7-d6 3. a1-b2 b6-a5 4. e3-f4 a5-b4 5. a3xc5 d6xb4
6. c3xa5 e5xc3 7. c3xa1 c1-b2 8. a1xc3 d2xb4 *
"""


def test_convert_reads_the_playstrategy_dialect_and_keeps_every_part(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source, numeric, algebraic = (tmp_path / name for name in ("ps.pdn", "n.pdn", "a.pdn"))
    source.write_text(PLAYSTRATEGY, encoding="utf-8")
    assert main(["convert", str(source), "--notation", "numeric", "-o", str(numeric)]) == 0
    assert main(["convert", str(source), "--notation", "algebraic", "-o", str(algebraic)]) == 0
    # squares named on the PDN board; each written part of the split capture stays a move
    assert numeric.read_text(encoding="utf-8").endswith(
        '[GameType "21"]\n\n'
        "1. 11-15 23-18 2. 8-11 27-23 3. 4-8 24-20 4. 10-14 20-16 5. 12x19 23x16 6. 11x20\n"
        "18x11 7. 11x4 3-8 8. 4x11 7x16 *\n"
    )
    # algebraic stays in the dialect's frame the tags still announce: the moves read back
    assert algebraic.read_text(encoding="utf-8").endswith(PLAYSTRATEGY.split("\n\n")[1])
    for converted in (numeric, algebraic):
        assert main(["check", str(converted)]) == 0  # replays as the original: no errors
    capsys.readouterr()
