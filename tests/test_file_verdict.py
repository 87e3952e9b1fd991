"""A verdict per file before per game: a file that is no PDN text is one error[file] finding."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pdn.cli.main import main
from pdn.pdnfile.verdict import not_pdn

CASES = {
    "image.pdn": (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x01\x02", "looks like a PNG image"),
    "chess.pgn": (
        b'[Event "x"]\n[ECO "C20"]\n\n1. e4 e5 2. Nf3 Nc6 *\n',
        "looks like a chess PGN (SAN moves e4, Nf3)",
    ),
    "data.pdn": (b'{"games": [{"white": "A"}]}\n', "looks like JSON"),
    "page.pdn": (b"<!DOCTYPE html>\n<html><body>games</body></html>\n", "looks like HTML or XML"),
    "empty.pdn": (b"", "empty file"),
}
GOOD = b'[GameType "20"]\n[White "A"]\n1. 32-28 19-23 *\n'


@pytest.mark.parametrize("name", sorted(CASES))
def test_check_gives_one_file_error_and_goes_on(
    tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    data, looks = CASES[name]
    (tmp_path / name).write_bytes(data)
    (tmp_path / "good.pdn").write_bytes(GOOD)
    paths = [str(tmp_path / name), str(tmp_path / "good.pdn")]
    assert main(["check", *paths, "--format", "json", "--no-summary"]) == 2
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    verdicts = [record for record in records if record["code"] == "file"]
    assert verdicts == [
        {
            "file": paths[0],
            "game": None,
            "ply": None,
            "move": None,
            "line": 1,
            "column": 1,
            "code": "file",
            "severity": "error",
            "message": f"not a PDN file: {looks}",
        }
    ]
    assert all(record["file"] == paths[1] for record in records if record["code"] != "file")
    assert main(["check", paths[1], "--no-summary"]) == 0  # the other file is audited, clean


@pytest.mark.parametrize("name", sorted(CASES))
def test_list_and_select_read_no_game(
    tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    data, looks = CASES[name]
    path = tmp_path / name
    path.write_bytes(data)
    assert main(["list", str(path), "--format", "json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"pdn list: {path}: not a PDN file: {looks}\n"
    (tmp_path / "good.pdn").write_bytes(GOOD)
    code = main(["select", str(path), str(tmp_path / "good.pdn"), "--white", "A"])
    captured = capsys.readouterr()
    assert code == 2
    assert captured.out.count("[GameType") == 1  # the good file's game only
    assert f"not a PDN file: {looks}" in captured.err


@pytest.mark.parametrize(
    "head",
    [
        GOOD,
        b'[Event "x"]\n[ECO "C20"]\n[PlyCount "4"]\n1. 32-28 19-23 2. 37-32 14-19 1-0\n',
        b'[GameType "25"]\n1. c3-d4 f6-e5 2. d4:f6 *\n',
        b"\xef\xbb\xbf1. 32-28 *\n",
        b"\xff\xfe[\x00G\x00",
        b"{a comment} 1. 32-28 *\n",
    ],
)
def test_pdn_is_not_refused(head: bytes) -> None:
    assert not_pdn(head) is None


def test_a_file_of_several_variants_says_so_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mixed = tmp_path / "mixed.pdn"
    mixed.write_text(
        '[GameType "20"]\n1. 32-28 *\n\n[GameType "25"]\n1. c3-d4 *\n\n'
        '[GameType "20"]\n1. 33-29 *\n',
        encoding="utf-8",
    )
    single = tmp_path / "single.pdn"
    single.write_text('[GameType "20"]\n1. 32-28 *\n', encoding="utf-8")
    main(["check", str(mixed), str(single)])
    err = capsys.readouterr().err
    assert err.count("games of several variants") == 1
    assert f"{mixed}: games of several variants: international (2), russian (1)\n" in err
