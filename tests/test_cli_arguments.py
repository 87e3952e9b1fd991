"""The shared command-line rules (``pdn.cli.arguments``), verb by verb: whole numbers,
``--variant``, ``-`` for standard input, output files that would overwrite an input, help."""

from __future__ import annotations

import io
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from pdn.cli.main import VERBS, main

GAME = '[Event "e"]\n[Result "2-0"]\n\n1. 32-28 19-23 2. 28x19 14x23 2-0\n'

#: Verb and the arguments that make a valid command line around the option under test.
NUMBERS = [
    ("check", ["g.pdn"], "--jobs", 0),
    ("fix", ["g.pdn"], "--jobs", 0),
    ("select", ["g.pdn"], "--jobs", 0),
    ("dedupe", ["g.pdn"], "--jobs", 0),
    ("index", ["g.db", "g.pdn"], "--jobs", 0),
    ("stats", ["g.pdn"], "--jobs", 0),
    ("stats", ["g.pdn"], "--players", 0),
    ("report", ["g.pdn", "-o", "r.html"], "--jobs", 0),
    ("report", ["g.pdn", "-o", "r.html"], "--max-cards", 0),
    ("search", ["g.db"], "--limit", 0),
    ("convert", ["g.pdn"], "--width", 1),
    ("show", ["g.pdn"], "--game", 1),
    ("show", ["g.pdn"], "--ply", 0),
    ("perft", ["--variant", "russian"], "--depth", 1),
]


def parse_failure(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    """Run ``argv``, which must be a usage error: exit 2, nothing on stdout; its stderr."""
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    return err


@pytest.mark.parametrize(("verb", "rest", "option", "minimum"), NUMBERS)
@pytest.mark.parametrize("bad", ["x", "-1", "1.5", "", "below"])
def test_a_bad_whole_number_is_one_wording_in_every_verb(
    capsys: pytest.CaptureFixture[str],
    verb: str,
    rest: list[str],
    option: str,
    minimum: int,
    bad: str,
) -> None:
    value = str(minimum - 1) if bad == "below" else bad
    err = parse_failure(capsys, [verb, *rest, option, value])
    assert f"pdn {verb}: error: argument {option}: expected a whole number" in err
    assert f"at least {minimum}" in err or f"from {minimum} to" in err
    assert f"not {value!r}" in err


def test_perft_depth_names_its_range(capsys: pytest.CaptureFixture[str]) -> None:
    err = parse_failure(capsys, ["perft", "--variant", "russian", "--depth", "65"])
    assert "expected a whole number from 1 to 64, not '65'" in err


def test_plies_are_a_list_of_counts(capsys: pytest.CaptureFixture[str]) -> None:
    err = parse_failure(capsys, ["show", "g.pdn", "--plies", "3,x"])
    assert "argument --plies: in '3,x': expected a whole number of at least 0, not 'x'" in err
    err = parse_failure(capsys, ["show", "g.pdn", "--plies", ","])
    assert "expected comma-separated numbers, not ','" in err


#: Every verb with ``--variant``, with a command line around it.
VARIANT_VERBS = [
    ("check", ["g.pdn"]),
    ("fix", ["g.pdn"]),
    ("convert", ["g.pdn"]),
    ("show", ["g.pdn"]),
    ("perft", ["--depth", "1"]),
    ("moves", []),
    ("select", ["g.pdn"]),
    ("dedupe", ["g.pdn"]),
    ("index", ["g.db", "g.pdn"]),
    ("search", ["g.db"]),
    ("stats", ["g.pdn"]),
    ("standings", ["g.pdn"]),
    ("report", ["g.pdn", "-o", "r.html"]),
    ("html", ["g.pdn", "-o", "g.html"]),
]


def test_every_verb_with_a_variant_option_is_listed() -> None:
    with_variant = {verb for verb in VERBS if "--variant" in _help_of(verb)}
    assert with_variant == {verb for verb, _ in VARIANT_VERBS}


@pytest.mark.parametrize(("verb", "rest"), VARIANT_VERBS)
def test_an_unknown_variant_names_the_known_ones_in_every_verb(
    capsys: pytest.CaptureFixture[str], verb: str, rest: list[str]
) -> None:
    err = parse_failure(capsys, [verb, *rest, "--variant", "chess"])
    assert f"pdn {verb}: error: argument --variant: unknown variant 'chess'; known: " in err
    assert "international, brazilian, russian" in err


@pytest.mark.parametrize(("verb", "rest"), VARIANT_VERBS)
def test_the_variant_help_lists_the_variants(verb: str, rest: list[str]) -> None:
    help_text = _help_of(verb)
    assert "international, brazilian, russian" in " ".join(help_text.split())
    assert "brazilian-giveaway" in help_text  # never broken at its hyphen


def _help_of(verb: str) -> str:
    text = io.StringIO()
    with redirect_stdout(text):
        assert main([verb, "--help"]) == 0
    return text.getvalue()


@pytest.mark.parametrize("verb", VERBS)
def test_every_verb_help_teaches_with_examples(verb: str) -> None:
    help_text = _help_of(verb)
    assert "examples:" in help_text and f"pdn {verb} " in help_text.split("examples:")[1]


@pytest.mark.parametrize("verb", ["check", "fix", "select", "stats"])
def test_standard_input_is_read_once_at_most(capsys: pytest.CaptureFixture[str], verb: str) -> None:
    err = parse_failure(capsys, [verb, "-", "a.pdn", "-"])
    assert f"pdn {verb}: error: argument PATH: '-' (standard input) can be read only once" in err


@pytest.mark.parametrize(
    ("verb", "rest", "reason"),
    [
        ("dedupe", [], "read twice"),
        ("report", ["-o", "r.html"], "read twice"),
        ("index", [], "the index points into files"),
    ],
)
def test_verbs_that_need_files_refuse_standard_input_before_doing_anything(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    verb: str,
    rest: list[str],
    reason: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    first = ["g.db"] if verb == "index" else []
    err = parse_failure(capsys, [verb, *first, "-", *rest])
    assert f"argument PATH: '-': not standard input ({reason}); save it to a file first" in err
    assert list(tmp_path.iterdir()) == []  # no index, no report written
    assert f"(not '-': {reason})" in " ".join(_help_of(verb).split())


@pytest.mark.parametrize(
    ("argv", "shows"),
    [
        (["check", "-", "--no-summary"], ""),
        (["fix", "-", "-q"], "1. 32-28"),
        (["select", "-", "--result", "2-0"], "1. 32-28"),
        (["stats", "-", "--format", "csv"], "variants,international,games,1"),
        (["convert", "-"], "1. 32-28"),
        (["list", "-", "--format", "csv"], "1,1,,,e,,2-0,,4"),
        (["show", "-", "--glyphs", "ascii"], "2. 28x19 14x23"),
    ],
)
def test_a_dash_is_standard_input_in_every_verb_that_reads_it(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    shows: str,
) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(GAME.encode())))
    assert main(argv) == 0
    out, _ = capsys.readouterr()
    assert shows in out
    assert "'-': standard input)" in _help_of(argv[0])


@pytest.mark.parametrize(
    ("verb", "option"),
    [("convert", "-o"), ("select", "-o"), ("dedupe", "-o"), ("dedupe", "--report")],
)
def test_an_output_over_an_input_is_refused_alike(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, verb: str, option: str
) -> None:
    games = tmp_path / "g.pdn"
    games.write_text(GAME, encoding="utf-8")
    assert main([verb, str(games), option, str(games)]) == 2
    assert capsys.readouterr().err == (
        f"pdn {verb}: {option} {games} is an input of this run "
        f"(writing it would overwrite the input {games})\n"
    )
    assert games.read_text(encoding="utf-8") == GAME
