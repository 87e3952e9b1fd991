"""Messy real files (issue 8): one fault gives one finding and a game stays one game.

Every test writes its own small file: header junk, a ``*`` glued to a move, junk glued to a
move, stray fragments after a result, words that are no square of any board.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from pdn.arbiter.detect import detect_variant
from pdn.arbiter.replay import audit
from pdn.arbiter.textreport import TextReport, game_ranges
from pdn.base.findings import Finding
from pdn.cli.main import main
from pdn.pdnfile.reader import read_game, read_games
from pdn.pdnfile.scan import iter_spans
from pdn.pdnfile.writer import write_game


def spans_of(text: str) -> list:
    return list(iter_spans(io.StringIO(text)))


def syntax(text: str) -> list[tuple[int | None, str | None, str]]:
    return [
        (f.line, f.severity, f.message)
        for game in read_games(io.StringIO(text))
        for f in game.findings
        if f.code == "syntax"
    ]


# a real export wrote the two characters \r after every tag line
HEADER_JUNK = (
    '[Event "X"]\\r\n[White "A"]\\r\n[\n[Site "s"].\n.\n[GameType "20"]\\r\n'
    "1. 32-28 19-23 2. 28x19 14x23 2-0\n"
    '.\n[Event "Y"]\\r\n[GameType "20"]\\r\n1. 32-28 19-23 *\n'
)


def test_junk_between_tags_keeps_the_header_one_game() -> None:
    first, second = spans_of(HEADER_JUNK)
    assert [name for name, _ in first.tags] == ["Event", "White", "Site", "GameType"]
    assert [name for name, _ in second.tags] == ["Event", "GameType"]
    assert (first.plies, second.plies) == (4, 2)


def test_junk_of_a_header_is_one_syntax_warning() -> None:
    assert syntax(HEADER_JUNK) == [
        (
            1,
            "warning",
            "text in the header is not PDN and is skipped (lines 1-6): '\\\\r' (3 times), '['",
        ),
        (
            9,
            "warning",
            "text in the header is not PDN and is skipped (lines 9-10): '\\\\r' (2 times)",
        ),
    ]
    game = read_game(HEADER_JUNK)
    assert game.headers["GameType"] == "20" and len(list(game.mainline())) == 4


def test_a_star_glued_to_a_move_is_its_annotation_not_the_end() -> None:
    text = (
        '[GameType "20"]\n1. 32-28 19-23 2. 28x19* {sic} 14x23 3. 37-32 *\n[Event "h"]\n1. 32-28 *'
    )
    first, second = spans_of(text)
    assert first.plies == 5 and second.tags == (("Event", "h"),)
    game = read_game(text)
    assert [node.move_text for node in game.mainline()] == [
        "32-28",
        "19-23",
        "28x19",
        "14x23",
        "37-32",
    ]
    assert game.result == "*"
    assert syntax(text) == [
        (
            2,
            "warning",
            "'*' glued to the move 28x19 is kept as its annotation, "
            "not read as the end of the game",
        )
    ]
    assert "28x19*" in write_game(game)  # nothing is lost on writing
    assert [f.code for f in audit(game) if f.severity != "info"] == ["syntax"]


def test_junk_glued_to_a_move_keeps_the_move_and_is_reported_once() -> None:
    text = '[GameType "20"]\n1. 32-28 19-23Redoversteppedthetimecontrol. 2. 33-29 *'
    game = read_game(text)
    assert [node.move_text for node in game.mainline()] == ["32-28", "19-23", "33-29"]
    assert syntax(text) == [
        (
            2,
            "warning",
            "unreadable text 'Redoversteppedthetimecontrol.': not a move, move number, "
            "comment or result",
        )
    ]


def test_a_stray_fragment_after_a_result_belongs_to_that_game() -> None:
    text = '[Event "a"]\n1. 32-28 19-23 2-0\n\n\n36x27 1-0\n[Event "b"]\n1. 33-29 *\n'
    first, second = spans_of(text)
    assert first.plies == 2 and first.text.endswith("36x27 1-0")
    assert syntax(text) == [(5, "error", "text after the result is not read: '36x27 1-0'")]
    # games without any tag stay games of their own
    assert len(spans_of("1. 32-28 2-0\n1. 33-29 0-2\n")) == 2


def test_a_tagless_game_after_a_tagged_game_is_a_game_of_its_own() -> None:
    # a move number after the result starts a game: only numberless fragments are strays
    text = '[Event "a"]\n1. 32-28 19-23 2-0\n\n1. 33-29 18-22 0-2\n'
    first, second = spans_of(text)
    assert (first.plies, second.plies) == (2, 2) and second.tags == ()
    assert syntax(text) == []


def test_a_tag_glued_to_junk_is_read_as_the_scanner_reads_it() -> None:
    # found by the fuzzer: ':[Event "x"]' (scanner and reader must agree on the tags)
    (span,) = spans_of(':[Event "x"] ')
    assert span.tags == (("Event", "x"),)
    assert read_game(':[Event "x"] ').tags == [("Event", "x")]


def test_a_junk_token_is_quoted_by_its_first_80_characters() -> None:
    junk = "Q" * 100_000
    ((_line, _severity, message),) = syntax(f"1. 32-28 {junk} 19-23 *")
    assert "Q" * 77 + "...'" in message and len(message) < 200


def test_words_that_are_no_square_are_no_evidence_of_the_board() -> None:
    for text in ("1. 99-88 *", "1. 2024 *"):
        variant, findings = detect_variant(read_game(text))
        assert variant.name == "international", text
        assert not any("canadian" in f.message for f in findings)


# -- quiet on clean games ---------------------------------------------------------------------


def check(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["check", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_international_without_gametype_and_cosmetic_tags_pass_strict(tmp_path, capsys) -> None:
    path = tmp_path / "clean.pdn"
    path.write_text(
        '[Date "2024-12-14"]\n[Round 3]\n1. 32-28 19-23 2. 28x19 14x23 *\n\n'
        '[Date "10.07.2007"]\n[Event]\n1. 33-29 18-23 *\n\n'
        '[Date "0000.00.00"]\n1. 31-27 17-21 *\n',
        encoding="utf-8",
    )
    assert check(capsys, str(path), "--strict", "--no-summary") == (0, "", "")
    code, out, _ = check(capsys, str(path), "--strict", "--no-summary", "--format", "json")
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and {(row["code"], row["severity"]) for row in rows} == {("tag", "info")}
    assert len(rows) == 5  # three dates, an unquoted and an empty value: notes JSON keeps


@pytest.mark.parametrize(
    ("date", "severity"),
    [
        ("2024-12-14", "info"),
        ("10.07.2007", "info"),
        ("0000.00.00", "info"),
        ("2024.13.01", "warning"),
    ],
)
def test_a_date_written_another_way_is_a_note_a_month_13_a_warning(
    date: str, severity: str
) -> None:
    (finding,) = audit(read_game(f'[GameType "20"]\n[Date "{date}"]\n*'))
    assert (finding.code, finding.severity) == ("tag", severity)


# four English problem games without GameType: the variant is a guess (a warning), the odd
# date a note (info); both repeat in every game
PROBLEMS = '[Date "1900"]\n[FEN "B:W18,24:B12,16"]\n*\n\n' * 4


def test_text_shows_a_repeated_finding_once_with_its_games(tmp_path, capsys) -> None:
    path = tmp_path / "problems.pdn"
    path.write_text(PROBLEMS, encoding="utf-8")
    code, out, err = check(capsys, str(path))
    assert code == 0 and len(out.splitlines()) == 1
    assert out.startswith(f"{path}:1:1: warning[variant]: no usable GameType: inferred english")
    assert out.endswith("(games 1-4, 4 games)\n")
    assert "4 info findings not shown (-v shows them)" in err
    _, verbose, _ = check(capsys, str(path), "-v", "--no-summary")
    assert [line.split("[")[0].split()[-1] for line in verbose.splitlines()] == ["warning", "info"]
    assert all(line.endswith("(games 1-4, 4 games)") for line in verbose.splitlines())
    _, everything, _ = check(capsys, str(path), "--format", "json", "--no-summary")
    assert len(everything.splitlines()) == 8  # JSON keeps every finding of every game


def test_game_ranges_name_runs_and_count() -> None:
    assert game_ranges([3]) == "game 3"
    assert game_ranges([1, 2, 3, 4, 7, 9, 10]) == "games 1-4, 7, 9-10, 7 games"
    assert game_ranges(list(range(1, 40, 2))).endswith("..., 20 games")


# -- small things a user hits at once ---------------------------------------------------------


def test_a_folder_means_its_pdn_files_and_an_empty_one_says_so(tmp_path, capsys) -> None:
    (tmp_path / "README.txt").write_text("Games of the club, one word after another.\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "games.PDN").write_text("1. 32-28 19-23 *\n")
    code, out, err = check(capsys, str(tmp_path), "--no-summary")
    assert (code, out, err) == (0, "", "")  # README.txt is not read
    code, out, _ = check(capsys, str(tmp_path / "README.txt"), "--no-summary")
    # named on the command line: read (prose is one warning, not one error per word)
    assert code == 0 and out.count("README.txt") == 1 and "warning[syntax]" in out
    empty = tmp_path / "empty"
    empty.mkdir()
    code, out, err = check(capsys, str(empty), "--no-summary")
    assert (code, out) == (2, "")
    folder = "a folder means its *.pdn files, searched recursively"
    assert err.strip() == f"pdn check: {empty}: no PDN file found ({folder})"


def test_list_counts_moves_glued_to_their_numbers_and_stops_at_the_result() -> None:
    (span,) = spans_of("1.32-28 18-23 2.33-29 12-18 3.39-33 2-0")
    assert span.plies == 5


def test_list_on_a_pipe_writes_plain_lines_never_wrapped(tmp_path, capsys) -> None:
    name = "Alexander Schwarzmann-Baliakin " * 4
    path = tmp_path / "long.pdn"
    path.write_text(f'[White "{name.strip()}"]\n[Event "E\tF"]\n1.32-28 19-23 2.33-29 *\n')
    assert main(["list", str(path)]) == 0  # captured stdout is not a terminal
    heading, row = capsys.readouterr().out.splitlines()
    assert heading.split("\t") == [
        "#",
        "Line",
        "White",
        "Black",
        "Event",
        "Date",
        "Result",
        "GameType",
        "Plies",
    ]
    assert row.split("\t") == ["1", "1", name.strip(), "", "E F", "", "", "", "3"]


def test_utf16_with_a_byte_order_mark_is_read_as_utf16() -> None:
    text = (
        '[Event "Tournoi de Montréal"]\r\n[White "Élodie"]\r\n1. 32-28 19-23 *\r\n[Event "b"]\r\n*'
    )
    for data in (text.encode("utf-16"), b"\xfe\xff" + text.encode("utf-16-be")):
        first, second = list(iter_spans(io.BytesIO(data)))
        assert first.tags == (("Event", "Tournoi de Montréal"), ("White", "Élodie"))
        assert (first.source.start_byte, second.source.line) == (2, 4)
        assert second.source.end_byte == len(data)
        (note,) = first.findings
        assert (note.code, note.severity) == ("encoding", "info")
        assert "UTF-16" in note.message and not second.findings


def test_cr_only_line_endings_give_real_line_numbers() -> None:
    text = '[GameType "20"]\r\r1. 32-28 19-23\r2. 28x19 14x23\r5. 37-32 *\r'
    (game,) = read_games(io.BytesIO(text.encode()))
    (finding,) = audit(game)
    assert (finding.code, finding.line, finding.column) == ("move-number", 5, 4)


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        (" 0-1", "0-1"),
        ("0-1", "0-1"),
        ("0-2 ", "0-2"),
        ("0:1", "0-2"),
        ("1:1", "1-1"),
        ("4-6", "4-6"),
    ],
)
def test_convert_spells_every_result_by_one_rule(
    tmp_path, capsys, written: str, expected: str
) -> None:
    path = tmp_path / "r.pdn"
    path.write_text(f'[GameType "20"]\n[Result "{written}"]\n1. 32-28 *\n')
    main(["convert", str(path)])
    assert f'[Result "{expected}"]' in capsys.readouterr().out


VERBS_READING_A_FILE = (["check"], ["list"], ["convert"], ["show"], ["select"], ["dedupe"], ["fix"])


@pytest.mark.parametrize("argv", VERBS_READING_A_FILE)
def test_a_missing_file_is_one_wording_in_every_verb(tmp_path, capsys, argv: list[str]) -> None:
    missing = str(tmp_path / "missing.pdn")
    assert main([*argv, missing]) == 2
    first = capsys.readouterr().err.splitlines()[0]
    assert first.startswith(f"pdn {argv[0]}: {missing}: No such file or directory")


@pytest.mark.parametrize(
    "argv", [*VERBS_READING_A_FILE, ["check", "--format", "json"], ["show", "--all"]]
)
def test_a_closed_stdout_ends_every_verb_quietly(tmp_path, argv: list[str]) -> None:
    path = tmp_path / "many.pdn"
    path.write_text(
        '[Date "1"]\n1. 32-28 19-23 2. 28x19 14x23 0-2\n\n[Event "b"]\n1. 11-15 11-15 *\n\n' * 300
    )
    done = subprocess.run(
        f"{sys.executable} -m pdn {' '.join(argv)} {path} | head -c 1 >/dev/null",
        shell=True,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "Broken pipe" not in done.stderr and "Traceback" not in done.stderr
    assert "Exception ignored" not in done.stderr


# -- speak the file's language ----------------------------------------------------------------


def test_messages_name_squares_as_the_file_writes_them() -> None:
    # Russian is algebraic by default: a numeric file gets numbers (22-15 is c3-e5) ...
    (numeric,) = audit(read_game('[GameType "25"]\n1. 22-15 *'))
    assert numeric.code == "illegal-move" and "the man on 22 cannot go to 15" in numeric.message
    assert "c3" not in numeric.message
    # ... and International is numeric by default: an algebraic file gets algebraic squares
    (algebraic,) = audit(read_game('[GameType "20"]\n1. c3-e5 *'))
    assert "the man on c3 cannot go to e5" in algebraic.message
    assert "(legal: b4-c5, d4-e5" in algebraic.message
    assert "look like" not in algebraic.message  # one move is no evidence of another board


def test_8x8_moves_under_gametype_20_say_so() -> None:
    game = read_game('[GameType "20"]\n1. c3-d4 f6-e5 2. d4xf6 g7xe5 3. b2-c3 h6-g5 *')
    (first, *_rest) = [f for f in audit(game) if f.severity == "error"]
    assert "the moves look like 8x8 russian" in first.message
    assert "is GameType '20' right?" in first.message


def test_a_lidraughts_variation_after_the_move_it_follows_is_a_warning() -> None:
    game = read_game('[GameType "20"]\n1. 32-28 (1... 17-21 2. 28-22) 19-23 2. 28x19 14x23 *')
    findings = audit(game)
    assert [(f.code, f.severity) for f in findings] == [("move-number", "warning")]
    assert "alternative to the move after it (lidraughts" in findings[0].message
    # the variation is replayed from after 32-28: its second move is checked there
    bad = read_game('[GameType "20"]\n1. 32-28 (1... 17-21 2. 28-21) 19-23 *')
    assert [f.code for f in audit(bad)] == ["move-number", "illegal-move"]


def test_a_repeat_inside_one_game_keeps_its_lines() -> None:
    out = io.StringIO()
    report = TextReport(out)
    same = [
        Finding("missed-capture", "a capture was compulsory: 8x19", game=3, ply=p) for p in (5, 9)
    ]
    other = [Finding("tag", "tag Event appears more than once", game=g) for g in (1, 2, 4)]
    report.add(other[:2] + same + other[2:])
    report.close()
    lines = out.getvalue().splitlines()
    assert lines[0].endswith("tag Event appears more than once (games 1-2, 4, 3 games)")
    assert [line.split("game 3 ")[1][:5] for line in lines[1:]] == ["ply 5", "ply 9"]


def test_remarks_in_parentheses_are_one_warning_per_game() -> None:
    text = (
        '[GameType "21"]\n1. 11-15 (A fine opening move by the champion.) 23-19\n'
        "2. 8-11 (Black will soon regret this one.) 22-17 *"
    )
    game = read_game(text)
    assert [node.move_text for node in game.mainline()] == ["11-15", "23-19", "8-11", "22-17"]
    assert syntax(text) == [
        (
            2,
            "warning",
            "text in parentheses is not a variation (prose?): 'A fine opening move by the "
            "champion.' (and 1 more in this game, lines 2-3)",
        )
    ]
