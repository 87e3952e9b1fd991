"""Issue 25 on small built-in games: each finding `check` gained (Result tag vs terminator,
`*` included; move numbers shifted by a half move; spaces around tag values; captures written
with `-`; spellings `--normalize` tidies) and what `fix` does with it by default and with
`--normalize`; `fix --dry-run`; the tags of a game whose moves cannot be read repaired."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import run_cli as run

from pdn.arbiter.changelog import RepairOptions
from pdn.arbiter.normalize import NORMALIZATIONS, normalizations
from pdn.arbiter.repair import repair
from pdn.arbiter.replay import audit
from pdn.base.findings import Finding
from pdn.pdnfile.reader import read_game
from pdn.pdnfile.writer import write_game

EVERY = frozenset(NORMALIZATIONS)


def found(text: str, code: str) -> list[Finding]:
    return [finding for finding in audit(read_game(text)) if finding.code == code]


def fixed(text: str, normalize: frozenset[str] = frozenset()) -> tuple[str, list[str]]:
    """The game after ``repair`` and the fix names of its changes (undecided ones left out)."""
    repaired = repair(read_game(text), RepairOptions(normalize=normalize))
    names = [change.fix for change in repaired.changes if change.changed]
    return write_game(repaired.game), names


# -- Result tag vs terminator ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tag", "terminator"), [("1/2-1/2", "*"), ("*", "2-0"), ("0-2", "1-1"), ("2-0", "0-1")]
)
def test_a_result_tag_and_terminator_that_disagree_are_a_warning(tag: str, terminator: str) -> None:
    text = f'[Result "{tag}"]\n1. 32-28 19-23 {terminator}'
    warnings = [f.message for f in found(text, "result") if f.severity == "warning"]
    assert warnings == [f"Result tag {tag!r} but the game ends with {terminator!r}"]
    repaired = repair(read_game(text))
    assert not repaired.changed  # the board cannot say which is right: logged, left
    (undecided,) = repaired.changes
    assert (undecided.fix, undecided.code) == ("result-tag", "result")
    assert undecided.note == f"cannot be decided: {warnings[0]}"


def test_the_same_result_in_both_styles_is_no_disagreement() -> None:
    assert [f.severity for f in found('[Result "1-0"]\n1. 32-28 19-23 2-0', "result")] == [
        "info"  # the 8x8 spelling of the tag: a note naming --normalize results
    ]


def test_fix_never_writes_a_tag_and_terminator_that_disagree() -> None:
    # a wrong claimed result corrected by the board: both are set, never one of them
    text = '[GameType "20"]\n[FEN "W:W28:B23"]\n[Result "0-2"]\n1. 28x19 0-2'
    out, names = fixed(text)
    assert names == ["result-board", "result-board"]
    assert '[Result "2-0"]' in out and out.rstrip().endswith("2-0")
    assert found(out, "result") == []


def test_a_missing_terminator_is_a_note_and_copied_from_the_tag() -> None:
    text = '[Event "a"]\n[Result "2-0"]\n1. 32-28 19-23\n\n[Event "b"]\n1. 33-29 *'
    first = read_game(text.split("\n\n")[0])
    (finding,) = [f for f in audit(first) if f.code == "result"]
    assert (finding.severity, finding.message) == (
        "info",
        "no result terminator; the Result tag says '2-0'",
    )
    out, names = fixed(text.split("\n\n")[0])
    assert names == ["result-tag"] and out.rstrip().endswith("2-0")


def test_a_missing_result_tag_is_added_only_with_normalize() -> None:
    text = '[Event "a"]\n1. 32-28 19-23 2-0'
    (finding,) = found(text, "result")
    assert finding.severity == "info" and "--normalize results" in finding.message
    assert fixed(text)[1] == []
    out, names = fixed(text, normalizations(["results"]))
    assert names == ["missing-result-tag"] and '[Result "2-0"]' in out


def test_an_unknown_result_is_left_unknown() -> None:
    # the board decides (Black has no piece), but '*' says "unknown": never contradicted
    text = '[GameType "20"]\n[FEN "W:W28:B23"]\n[Result "*"]\n1. 28x19 *'
    assert found(text, "result") == []
    assert fixed(text)[1] == []


# -- move numbers ------------------------------------------------------------------------------


def test_black_s_reply_numbered_as_the_next_move_is_a_half_move_shift() -> None:
    text = "1. 32-28 2. 19-23 28x19 3. 14x23 *"
    (finding,) = found(text, "move-number")
    assert (finding.ply, finding.severity) == (2, "warning")
    assert "shifted by a half move" in finding.message
    out, names = fixed(text)
    assert names == ["move-number", "move-number"]
    assert "1. 32-28 1... 19-23 28x19 2... 14x23 *" in out
    assert found(out, "move-number") == []


def test_sage_numbering_from_a_fen_is_a_half_move_shift() -> None:
    # English: Black moves first; White to move from the FEN opens with "1...", not "1."
    text = '[GameType "21"]\n[FEN "W:W27,22:B20,7"]\n1. 27-24 2. 20x27 22-18 *'
    (finding,) = found(text, "move-number")
    assert finding.ply == 1 and finding.message.startswith("move number 1. where 1... was expected")
    assert "White's move" in finding.message
    out, names = fixed(text)
    assert names == ["move-number"] and "1... 27-24 2. 20x27 22-18" in out
    assert found(out, "move-number") == []


def test_standard_numbers_are_no_finding() -> None:
    assert (
        found('[GameType "21"]\n[FEN "W:W27,22:B20,7"]\n1... 27-24 2. 20x27 *', "move-number") == []
    )
    assert found("1. 32-28 19-23 2. 28x19 14x23 *", "move-number") == []


# -- tags --------------------------------------------------------------------------------------


def test_spaces_around_a_tag_value_are_a_note_tidied_only_with_normalize() -> None:
    text = '[Event " Club "]\n[Site ""]\n[Result "*"]\n1. 32-28 *'
    notes = [(f.severity, f.message) for f in found(text, "tag")]
    assert notes == [
        ("info", "Event ' Club ': spaces around the value; --normalize tags strips them"),
        ("info", "Site is empty; --normalize tags removes it"),
    ]
    assert fixed(text) == (write_game(read_game(text)), [])
    out, names = fixed(text, normalizations(["tags"]))
    assert names == ["tag-space", "empty-tag"] and '[Event "Club"]' in out and "Site" not in out


def test_a_date_written_another_way_is_tidied_only_with_normalize() -> None:
    text = '[Date "14.12.2024"]\n1. 32-28 *'
    (finding,) = found(text, "tag")
    assert finding.severity == "info"
    assert finding.message.endswith("; --normalize dates writes 2024.12.14")
    assert fixed(text)[1] == []
    assert '[Date "2024.12.14"]' in fixed(text, normalizations(["dates"]))[0]


def test_a_result_in_the_other_style_is_respelled_only_with_normalize() -> None:
    text = '[Result "1-0"]\n1. 32-28 1-0'
    (finding,) = found(text, "result")
    assert finding.severity == "info"
    assert finding.message == (
        "result '1-0' is not in international's style; --normalize results writes '2-0'"
    )
    assert fixed(text)[1] == []
    out, names = fixed(text, normalizations(["results"]))
    assert names == ["result-style", "result-style"] and '[Result "2-0"]' in out


def test_normalize_names() -> None:
    assert normalizations(["all"]) == EVERY == {"results", "dates", "tags"}
    with pytest.raises(ValueError, match="unknown normalization 'spaces'"):
        normalizations(["spaces"])


# -- captures written with '-' -----------------------------------------------------------------


def test_a_capture_written_with_a_hyphen_names_pdn_1_0() -> None:
    text = "1. 32-28 19-23 2. 28-19 14-23 *"
    notes = found(text, "notation")
    assert [(f.ply, f.severity) for f in notes] == [(3, "info"), (4, "info")]
    assert "PDN 1.0" in notes[0].message and "28x19" in notes[0].message
    out, names = fixed(text)
    assert names == ["capture-sign", "capture-sign"] and "2. 28x19 14x23" in out
    assert found(out, "notation") == []


def test_thai_writes_captures_with_a_hyphen() -> None:
    text = '[GameType "31"]\n[FEN "B:W18:B22,5"]\n1. 22-15 *'
    assert found(text, "notation") == []
    assert fixed(text)[1] == []


# -- a game whose moves cannot be read -----------------------------------------------------------


def test_the_tags_of_an_unreadable_game_are_repaired(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "in.pdn"
    unreadable = (
        '[Event "nine "]\n[Date "2024-12-14"]\n[Result "2-0"]\n1. 32-28 19-23 9n 28x19 2-0\n'
    )
    source.write_text(unreadable + "\n" + '[Date "1996"]\n1. 32-28 *\n', encoding="utf-8")
    out = tmp_path / "out.pdn"
    code, _, _ = run(capsys, "fix", str(source), "-o", str(out), "-q", "--normalize", "dates,tags")
    assert code == 1  # the unreadable moves are left as they are
    assert out.read_text(encoding="utf-8") == (
        '[Event "nine"]\n[Date "2024.12.14"]\n[Result "2-0"]\n1. 32-28 19-23 9n 28x19 2-0\n\n'
        '[Date "1996.??.??"]\n\n1. 32-28 *\n'
    )
    code, _, _ = run(capsys, "fix", str(source), "-o", str(out), "-q")
    assert out.read_text(encoding="utf-8").startswith(unreadable)  # nothing to do by default


# -- fix --dry-run -------------------------------------------------------------------------------


def test_dry_run_prints_the_log_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "in.pdn"
    source.write_text("1. 32-28 2. 19-23 28x19 3. 14x23 *\n\n1. 32-28 ) *\n", encoding="utf-8")
    log = tmp_path / "log.jsonl"
    code, _, _ = run(
        capsys, "fix", str(source), "-o", str(tmp_path / "out.pdn"), "--log", str(log), "-q"
    )
    (tmp_path / "out.pdn").unlink()
    listing = sorted(tmp_path.iterdir())
    dry, stdout, err = run(capsys, "fix", str(source), "--dry-run")
    assert (dry, code) == (1, 1)  # the same exit code: an unreadable game is left
    assert stdout == log.read_text(encoding="utf-8")
    assert [json.loads(line)["fix"] for line in stdout.splitlines()] == ["move-number"] * 2
    assert "dry run: nothing written" in err and "fix[move-number]" in err
    assert sorted(tmp_path.iterdir()) == listing
    second = tmp_path / "dry.jsonl"
    assert run(capsys, "fix", str(source), "--dry-run", "--log", str(second))[:2] == (1, "")
    assert second.read_text(encoding="utf-8") == stdout


@pytest.mark.parametrize("option", [["-o", "out.pdn"], ["--in-place"], ["--rejects", "bad.pdn"]])
def test_dry_run_refuses_an_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: list[str]
) -> None:
    source = tmp_path / "in.pdn"
    source.write_text("1. 32-28 *\n", encoding="utf-8")
    code, out, err = run(capsys, "fix", str(source), "--dry-run", *option)
    assert (code, out) == (2, "")
    assert err == f"pdn fix: --dry-run writes nothing: drop {option[0]}\n"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["in.pdn"]


def test_an_unknown_normalization_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "in.pdn"
    source.write_text("1. 32-28 *\n", encoding="utf-8")
    code, out, err = run(capsys, "fix", str(source), "--normalize", "spaces")
    assert (code, out) == (2, "")
    assert "unknown normalization(s) spaces" in err
