"""`pdn perft` and `pdn moves`: output contracts of DESIGN.md and exit codes."""

from __future__ import annotations

import json

import pytest
from conftest import run_cli as run

T13 = "W:WK38:B18,19,32,33"
T14 = "W:WK47:B14,19,29,31,42"


def test_perft_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "perft", "--variant", "international", "--depth", "3", "--format", "json"
    )
    assert code == 0
    report = json.loads(out)
    assert report["variant"] == "international"
    assert report["nodes"] == [9, 81, 658]
    assert report["fen"].startswith("W:")


def test_perft_text_lists_each_depth(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "perft", "--variant", "english", "--depth", "4")
    assert code == 0
    for count in ("7", "49", "302", "1,469"):
        assert count in out
    assert "nodes/s" in err


def test_perft_keep_duplicates_counts_every_path(capsys: pytest.CaptureFixture[str]) -> None:
    base = ("perft", "--variant", "international", "--fen", T13, "--depth", "1", "--format", "json")
    assert json.loads(run(capsys, *base)[1])["nodes"] == [5]
    assert json.loads(run(capsys, *base, "--keep-duplicates")[1])["nodes"] == [6]


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (("perft", "--variant", "chess", "--depth", "2"), "chess"),
        (("perft", "--variant", "international", "--fen", "W:W99", "--depth", "2"), "FEN"),
        (("perft", "--variant", "international", "--fen", "not a fen", "--depth", "2"), "FEN"),
        (("perft", "--variant", "international", "--depth", "0"), "depth"),
        (("moves", "--variant", "russian", "--fen", "X:Wz9"), "FEN"),
        (("moves", "--variant", "nonsense"), "nonsense"),
    ],
)
def test_bad_input_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], words: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert words in err


def test_moves_json_contract_numeric(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "moves", "--variant", "international", "--fen", T14, "--format", "json"
    )
    assert code == 0
    moves = json.loads(out)
    assert len(moves) == 2
    for entry in moves:
        assert set(entry) == {"move", "from", "to", "captures"}
        assert (entry["from"], entry["to"]) == (47, 36)
        assert entry["move"].startswith("47x") and entry["move"].endswith("x36")
        assert entry["move"].count("x") == 4
    assert {frozenset(entry["captures"]) for entry in moves} == {
        frozenset({42, 31, 19, 29}),
        frozenset({42, 31, 14, 29}),
    }


def test_moves_json_uses_algebraic_strings_on_algebraic_boards(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(
        capsys, "moves", "--variant", "russian", "--fen", "W:Wc3:Bd4", "--format", "json"
    )
    assert code == 0
    (entry,) = json.loads(out)
    assert (entry["from"], entry["to"], entry["captures"]) == ("c3", "e5", ["d4"])


def test_moves_text_one_full_path_a_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "moves", "--variant", "international")
    assert code == 0
    lines = out.split()
    assert len(lines) == 9
    assert "32-28" in lines and "31-26" in lines


def test_moves_keep_duplicates(capsys: pytest.CaptureFixture[str]) -> None:
    base = ("moves", "--variant", "international", "--fen", T13)
    assert len(run(capsys, *base)[1].split()) == 5
    assert len(run(capsys, *base, "--keep-duplicates")[1].split()) == 6


@pytest.mark.parametrize("verb", ["perft", "moves"])
def test_help_shows_examples(capsys: pytest.CaptureFixture[str], verb: str) -> None:
    code, out, _ = run(capsys, verb, "--help")
    assert code == 0
    assert "examples:" in out and f"pdn {verb} --variant" in out


def test_moves_text_uses_the_variants_capture_separator(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(
        capsys, "moves", "--variant", "russian", "--fen", "W:WKd2:Bc5,e5,c3,e3", "--keep-duplicates"
    )
    assert code == 0
    assert sorted(out.split()) == sorted(
        ["d2:f4:d6:b4:d2", "d2:f4:d6:b4:e1", "d2:b4:d6:f4:d2", "d2:b4:d6:f4:c1"]
    )
