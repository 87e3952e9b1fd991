"""One command-line convention: folders, ranges, unknown options and verbs, completion, show."""

from __future__ import annotations

from pathlib import Path

import pytest

from pdn.cli.main import VERBS, main

GAME = '[Event "a"]\n[Date "1995.01.02"]\n1. 32-28 19-23 *\n'


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    for name in ("a.pdn", "b.pdn"):
        (tmp_path / name).write_text(GAME)
    return tmp_path


def test_list_takes_folders_with_a_file_column(
    capsys: pytest.CaptureFixture[str], folder: Path
) -> None:
    assert main(["list", str(folder), "--format", "lines"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("File\t#\t")
    assert [line.split("\t")[0] for line in lines[1:]] == [
        str(folder / "a.pdn"),
        str(folder / "b.pdn"),
    ]
    assert main(["list", str(folder / "a.pdn"), "--format", "lines"]) == 0
    assert capsys.readouterr().out.startswith("#\tLine\t")


@pytest.mark.parametrize("verb", ["convert", "show"])
def test_convert_and_show_say_in_one_line_to_name_a_file(
    capsys: pytest.CaptureFixture[str], folder: Path, verb: str
) -> None:
    assert main([verb, str(folder)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert f"pdn {verb}: error: argument PATH: '{folder}' is a folder;" in err
    assert err.endswith("name a file of it\n")


@pytest.mark.parametrize(
    ("given", "games"),
    [("1990..1999", 1), ("1995", 1), ("1995.01", 1), ("1995.01.02..", 1), ("..1994", 0)],
)
def test_date_forms(
    capsys: pytest.CaptureFixture[str], folder: Path, given: str, games: int
) -> None:
    assert main(["select", str(folder / "a.pdn"), "--date", given]) == 0
    assert capsys.readouterr().out.count("[Event") == games


@pytest.mark.parametrize(
    ("option", "given", "what", "expected"),
    [
        ("--date", "1990-1999", "date range", "expected FROM..TO, e.g. 1990..1999"),
        ("--date", "1995.13", "date range", "expected FROM..TO, e.g. 1990..1999"),
        ("--plies", "10-40", "range", "expected MIN..MAX, e.g. 10..40"),
    ],
)
def test_other_range_forms_are_a_usage_error(
    capsys: pytest.CaptureFixture[str],
    folder: Path,
    option: str,
    given: str,
    what: str,
    expected: str,
) -> None:
    assert main(["select", str(folder), option, given]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(
        f"pdn select: error: argument {option}: '{given}' is not a {what}: {expected}"
    )
    assert err.count("\n") == 1


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (["check", "--strcit", "x"], "pdn check: unknown option --strcit (did you mean --strict?)"),
        (["chek", "x"], "pdn: unknown verb 'chek' (did you mean check?)"),
        (["check", "--zzzz", "x"], "pdn check: unknown option --zzzz"),
        (["--verison"], "pdn: unknown option --verison (did you mean --version?)"),
    ],
)
def test_unknown_options_and_verbs_are_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], line: str
) -> None:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert (out, err) == ("", line + "\n")


def test_usage_errors_print_no_usage(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check"]) == 2
    assert capsys.readouterr().err == (
        "pdn check: error: the following arguments are required: PATH\n"
    )


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_names_every_verb_and_option(
    capsys: pytest.CaptureFixture[str], shell: str
) -> None:
    assert main(["completion", shell]) == 0
    script = capsys.readouterr().out
    for verb in VERBS:
        assert verb in script
    assert "--variant" in script or "-l variant" in script
    assert "--strict" in script or "-l strict" in script


def test_show_names_the_pdn_default_and_marks_the_shown_ply(
    capsys: pytest.CaptureFixture[str], folder: Path
) -> None:
    from io import StringIO

    from rich.console import Console

    from pdn.pdnfile.reader import read_games
    from pdn.views.gameview import GameView

    assert main(["show", str(folder / "a.pdn"), "--ply", "1"]) == 0
    assert "Variant  international (PDN default (20))" in capsys.readouterr().out
    console = Console(file=StringIO(), force_terminal=True, color_system="truecolor", width=80)
    console.print(GameView(next(read_games(str(folder / "a.pdn"))), plies=[1]))
    text = console.file.getvalue()  # type: ignore[attr-defined]
    assert "\x1b[7m32-28\x1b[0m" in text
    assert "\x1b[7m19-23" not in text
