"""`pdn.arbiter.repair`: each repair on small hand-written games, with its change record."""

from __future__ import annotations

import random

import pytest

from pdn.arbiter.changelog import Change, RepairOptions
from pdn.arbiter.normalize import NORMALIZATIONS
from pdn.arbiter.repair import repair
from pdn.arbiter.replay import audit
from pdn.arbiter.tagrepair import normal_date, split_glued_junk
from pdn.engine.position import Position
from pdn.engine.variants import VARIANTS
from pdn.pdnfile.reader import read_game
from pdn.pdnfile.writer import write_game

#: Every ``--normalize`` name: these tests see the tidying fixes too (tests/test_agree.py
#: tests what runs without them).
EVERY_NORMALIZATION = frozenset(NORMALIZATIONS)


def fixed(text: str, **options: object) -> tuple[str, list[Change]]:
    """The repaired game as PDN text and its change log (every normalization on unless
    ``normalize`` is given)."""
    options.setdefault("normalize", EVERY_NORMALIZATION)
    repaired = repair(read_game(text), RepairOptions(**options))  # type: ignore[arg-type]
    return write_game(repaired.game), repaired.changes


def changes_of(changes: list[Change], fix: str) -> list[tuple[str | None, str | None]]:
    return [(change.before, change.after) for change in changes if change.fix == fix]


def test_the_input_game_is_not_modified() -> None:
    game = read_game('[Event " x "]\n[GameType "20"]\n\n1. 32-28 1-0')
    repaired = repair(game, RepairOptions(normalize=EVERY_NORMALIZATION))
    assert repaired.changed
    assert game.tags[0] == ("Event", " x ") and game.result == "1-0"


def test_tag_spaces_and_empty_tags() -> None:
    text, changes = fixed(
        '[Event " Club "]\n[Site ""]\n[Result " 2-0"]\n[GameType "20"]\n\n1. 32-28 2-0'
    )
    assert text.startswith('[Event "Club"]\n[Result "2-0"]\n[GameType "20"]\n')
    assert changes_of(changes, "tag-space") == [
        ('[Event " Club "]', '[Event "Club"]'),
        ('[Result " 2-0"]', '[Result "2-0"]'),
    ]
    assert changes_of(changes, "empty-tag") == [('[Site ""]', "")]
    assert all(change.code == "tag" for change in changes)


@pytest.mark.parametrize(
    ("written", "date"),
    [
        ("2024-12-14", "2024.12.14"),
        ("14.12.2024", "2024.12.14"),
        ("13-01-1996", "1996.01.13"),
        ("12/31/1999", "1999.12.31"),  # month first: 31 cannot be a month
        ("1.1.1984", "1984.01.01"),
        ("1996", "1996.??.??"),
        ("1950.", "1950.??.??"),
        ("1847-??-??", "1847.??.??"),
        ("1995.11.1", "1995.11.01"),
        ("10.02.1996", None),  # 10 February or 2 October
        ("2004.10.27 - 2004.11.01", None),
        ("1-2 June 2002", None),
        ("2024.13.01", None),
    ],
)
def test_dates_only_where_one_reading_exists(written: str, date: str | None) -> None:
    assert normal_date(written) == date


def test_an_ambiguous_date_is_logged_and_kept() -> None:
    text, changes = fixed('[Date "10.02.1996"]\n[Result "*"]\n[GameType "20"]\n\n1. 32-28 *')
    assert '[Date "10.02.1996"]' in text
    (change,) = changes
    assert (change.fix, change.after, change.code) == ("date", None, "tag")
    assert change.note is not None and change.note.startswith("cannot be decided")


def test_result_tag_and_terminator_spelled_in_the_variant_style() -> None:
    text, changes = fixed('[Result "1-0"]\n[GameType "20"]\n\n1. 32-28 1-0')
    assert '[Result "2-0"]' in text and text.endswith("1. 32-28 2-0\n")
    assert changes_of(changes, "result-style") == [
        ('[Result "1-0"]', '[Result "2-0"]'),
        ("1-0", "2-0"),
    ]
    text, _ = fixed('[Result "1-1"]\n[GameType "21"]\n\n1. 22-18 1-1')
    assert '[Result "1/2-1/2"]' in text and text.endswith("1/2-1/2\n")  # 8x8: 1-0 style


def test_a_missing_terminator_or_result_tag_is_copied_from_the_other() -> None:
    text, changes = fixed('[Result "2-0"]\n[GameType "20"]\n\n1. 32-28')
    assert text.endswith("1. 32-28 2-0\n")
    assert changes_of(changes, "result-tag") == [(None, "2-0")]
    text, changes = fixed('[Event "e"]\n[GameType "20"]\n\n1. 32-28 0-2')
    assert '[Result "0-2"]' in text
    assert changes_of(changes, "missing-result-tag") == [(None, '[Result "0-2"]')]


def test_a_result_tag_spelled_in_another_case_is_the_result_tag() -> None:
    # one case rule for tag names (pdn.game.tags): never a second Result tag beside 'result'
    text, changes = fixed('[result "1-0"]\n[GameType "20"]\n\n1. 32-28 1-0')
    assert '[result "2-0"]' in text and "[Result" not in text
    assert changes_of(changes, "result-style")[0] == ('[result "1-0"]', '[result "2-0"]')


def test_the_board_decides_the_result() -> None:
    # Black has no piece left after 28x19, yet the record says Black won
    text, changes = fixed('[Result "0-2"]\n[GameType "20"]\n[FEN "W:W28:B23"]\n\n1. 28x19 0-2')
    assert '[Result "2-0"]' in text and text.endswith("28x19 2-0\n")
    assert changes_of(changes, "result-board") == [
        ('[Result "0-2"]', '[Result "2-0"]'),
        ("0-2", "2-0"),
    ]
    assert not [f for f in audit(read_game(text)) if f.code == "result"]


def test_a_star_stays_when_the_board_does_not_decide() -> None:
    text, changes = fixed('[Result "*"]\n[GameType "20"]\n\n1. 32-28 19-23 *')
    assert text.endswith("19-23 *\n") and changes == []


def test_a_disagreement_the_board_cannot_settle_is_logged_not_changed() -> None:
    text, changes = fixed('[Result "0-2"]\n[GameType "20"]\n\n1. 32-28 19-23 1-1')
    assert '[Result "0-2"]' in text and text.endswith(" 1-1\n")
    (change,) = changes
    assert (change.fix, change.code, change.after) == ("result-tag", "result", None)
    assert change.note is not None and "cannot be decided" in change.note


def test_move_numbers_renumbered() -> None:
    text, changes = fixed('[GameType "20"]\n\n1. 32-28 19-23 5. 28x19 14x23 3. 33-28 *')
    assert text.endswith("1. 32-28 19-23 2. 28x19 14x23 3. 33-28 *\n")
    assert changes_of(changes, "move-number") == [("5.", "2.")]
    assert changes[0].ply == 3 and changes[0].move == "28x19"


def test_captures_written_with_a_dash_get_the_capture_separator() -> None:
    text, changes = fixed('[GameType "20"]\n\n1. 32-28 19-23 2. 28-19 14-23 *')
    assert text.endswith("2. 28x19 14x23 *\n")
    assert changes_of(changes, "capture-sign") == [("28-19", "28x19"), ("14-23", "14x23")]


AMBIGUOUS = '[GameType "20"]\n[FEN "W:WK47:B14,19,29,31,42"]\n\n1. 47x36 {}*'


def test_an_ambiguous_capture_settled_by_the_later_moves() -> None:
    # 47x36 takes 19 (47x38x24x13x36) or 14 (47x38x20x9x36); Black then moves the man on 19
    text, changes = fixed(AMBIGUOUS.format("19-23 "))
    assert "1. 47x38x20x9x36 19-23 *" in text
    assert changes_of(changes, "capture-path") == [("47x36", "47x38x20x9x36")]
    assert not [f for f in audit(read_game(text)) if f.code == "ambiguous-move"]
    text, _ = fixed(AMBIGUOUS.format("14-20 "))  # the man on 14 is still there: the other one
    assert "1. 47x38x24x13x36 14-20 *" in text


def test_an_ambiguous_capture_nothing_settles_is_logged_and_kept() -> None:
    text, changes = fixed(AMBIGUOUS.format(""))
    assert "1. 47x36 *" in text
    (change,) = changes
    assert (change.fix, change.code, change.before, change.after) == (
        "capture-path",
        "ambiguous-move",
        "47x36",
        None,
    )
    assert change.note == "cannot be decided: 2 readings of 2 let the rest of the line replay"


def test_a_capture_written_jump_by_jump_is_joined() -> None:
    # playstrategy.org writes each jump as a move; the numbers then count the jumps too
    text, changes = fixed(
        '[Site "playstrategy.org"]\n[GameType "20"]\n[FEN "W:W32,40:B28,18,3"]\n\n'
        "1. 32x23 {first jump} 2. 23x12 3... 3-9 4. 40-34 *"
    )
    assert text.endswith("1. 32x23x12 {first jump} 1... 3-9 2. 40-34 *\n")
    assert changes_of(changes, "split-capture") == [("32x23 23x12", "32x23x12")]
    assert {change.fix for change in changes} == {"split-capture", "move-number"}
    assert audit(read_game(text)) == [f for f in audit(read_game(text)) if f.code == "variant"]


def test_text_glued_to_a_move_becomes_a_comment() -> None:
    text = '[GameType "20"]\n\n1. 32-28abc 19-23, 2. 33-29 *'
    game = read_game(text)
    assert game.raw is not None
    split = split_glued_junk(game, text)
    assert split is not None
    new_text, changes = split
    assert new_text.endswith("1. 32-28 {abc} 19-23 {,} 2. 33-29 *")
    assert read_game(new_text).raw is None
    assert [(c.fix, c.code, c.before, c.after) for c in changes] == [
        ("junk", "syntax", "32-28abc", "32-28 {abc}"),
        ("junk", "syntax", "19-23,", "19-23 {,}"),
    ]
    assert split_glued_junk(read_game("1. 32-28 *"), "1. 32-28 *") is None


def test_gametype_from_the_variant_option() -> None:
    text, changes = fixed('[Event "e"]\n\n1. 22-18 11-15 *', variant=VARIANTS["italian"])
    assert '[GameType "22"]' in text
    assert changes_of(changes, "gametype") == [(None, "22")]
    text, changes = fixed("1. 32-28 19-23 *", variant=VARIANTS["international"])
    assert "GameType" not in text and changes == []  # PDN's default: no tag needed


def _random_game(variant_name: str, seed: int, plies: int) -> list[str]:
    variant, rng = VARIANTS[variant_name], random.Random(seed)
    position, moves = Position.initial(variant), []
    for _ in range(plies):
        legal = position.legal_moves
        if not legal:
            break
        move = rng.choice(legal)
        moves.append(move.notation(variant.board, variant.default_notation, True))
        position = position.play(move)
    return moves


def test_a_game_without_tags_gets_none_and_keeps_one() -> None:
    # tags would make the scanner read the tagless games after this one as part of it
    text, changes = fixed("1. 22-18 11-15 *", variant=VARIANTS["italian"])
    assert "GameType" not in text
    assert [(c.fix, c.after) for c in changes] == [("gametype", None)]
    text, changes = fixed('[Event ""]\n[Site ""]\n\n1. 32-28 *')
    assert text.startswith('[Event ""]\n[Site ""]\n')
    assert [(c.fix, c.after) for c in changes] == [("empty-tag", None), ("empty-tag", None)]


def test_gametype_only_when_a_single_variant_plays_every_move() -> None:
    # a short opening plays in several 8x8 variants: logged, no tag
    text, changes = fixed("1. c3-d4 f6-e5 *")
    assert "GameType" not in text
    (change,) = [change for change in changes if change.fix == "gametype"]
    assert change.note == "cannot be decided: russian and brazilian both play every main-line move"
    # a long random Russian game: only Russian rules play it
    moves = _random_game("russian", 1, 80)
    record = '[Event "e"]\n\n' + " ".join(moves) + " *"
    text, changes = fixed(record)
    assert '[GameType "25"]' in text, [c.note for c in changes]


FAULTS_CUT = (
    '[Result "1-0"]\n[GameType "25"]\n[FEN "W:WKc1,Ke1:BKd8,Kf8"]\n\n'
    "1. c1-b2 d8-c7 2. b2-c1 c7-d8 3. c1-b2 d8-c7 4. b2-c1 c7-d8 5. e1-f2 1-0"
)


def test_moves_after_a_draw_by_rule_become_a_variation() -> None:
    text, changes = fixed(FAULTS_CUT, cut_after_end=True)
    assert " ".join(text.split()).endswith(
        "4. b2-c1 c7-d8 (4... c7-d8 5. {pdn fix: main line cut here: moves-after-end: move "
        "played after the game was over: drawn by repetition (fmjd64) at ply 8} e1-f2) 1/2-1/2"
    )
    assert len(read_game(text).mainline_texts()) == 8
    assert '[Result "1/2-1/2"]' in text
    fixes = [(c.fix, c.before, c.after) for c in changes]
    assert fixes[0] == ("cut-after-end", "e1-f2", "variation")
    assert ("cut-after-end", '[Result "1-0"]', '[Result "1/2-1/2"]') in fixes
    # the main line ends at the draw; the variation still shows the move after it
    assert [(f.code, f.ply) for f in audit(read_game(text)) if f.code != "repetition"] == [
        ("moves-after-end", 9)
    ]


def test_without_the_cut_option_moves_after_the_end_stay() -> None:
    text, changes = fixed(FAULTS_CUT)
    assert "5. e1-f2 1-0" in text
    assert {(c.fix, c.after) for c in changes} == {("cut-after-end", None), ("result-tag", None)}


def test_irregular_moves_become_a_variation_and_the_result_a_star() -> None:
    record = '[Result "2-0"]\n[GameType "20"]\n\n1. 32-28 19-23 2. 33-29 23x32 3. 37x28 2-0'
    text, changes = fixed(record, cut_irregular=True)
    assert " ".join(text.split()).endswith(
        "1. 32-28 19-23 (1... 19-23 2. {pdn fix: main line cut here: missed-capture: a capture "
        "was compulsory: 28x19} 33-29 23x32 3. 37x28) *"
    )
    assert '[Result "*"]' in text
    assert changes[0].fix == "cut-irregular" and changes[0].code == "missed-capture"
    again, more = fixed(text, cut_irregular=True)
    assert again == text and more == []
    text, changes = fixed(record)  # without the option: kept as it is, and logged
    assert "2. 33-29 23x32 3. 37x28 2-0" in text
    assert [(c.fix, c.code, c.ply, c.after) for c in changes] == [
        ("cut-irregular", "missed-capture", 3, None)
    ]


def test_an_irregular_first_move_cannot_be_cut() -> None:
    text, changes = fixed('[GameType "20"]\n\n1. 33-27 17-21 *', cut_irregular=True)
    assert text.endswith("1. 33-27 17-21 *\n")
    (change,) = changes
    assert change.after is None and change.code == "illegal-move"


def test_only_limits_the_repairs() -> None:
    record = '[Date "2024-12-14"]\n[Result "1-0"]\n[GameType "20"]\n\n1. 32-28 5. 19-23 1-0'
    _, changes = fixed(record, only=frozenset({"tag"}))
    assert {change.fix for change in changes} == {"date"}
    _, changes = fixed(record, only=frozenset({"result-style", "move-number"}))
    assert {change.fix for change in changes} == {"result-style", "move-number"}


def test_comments_nags_variations_and_unknown_tags_are_kept() -> None:
    record = (
        '[X_custom "keep me"]\n[Result "1-0"]\n[GameType "20"]\n\n'
        "{start} 1. 32-28 $1 {[%clk 0:05:00]} 19-23 (1... 18-23 {side}) 2. 28-19 1-0"
    )
    text, changes = fixed(record)
    assert text == (
        '[X_custom "keep me"]\n[Result "2-0"]\n[GameType "20"]\n\n'
        "1. {start} 32-28 $1 {[%clk 0:05:00]} 19-23 (1... 18-23 {side}) 2. 28x19 2-0\n"
    )
    assert {change.fix for change in changes} == {"result-style", "capture-sign"}


def test_an_irregular_move_in_a_variation_is_not_the_main_line() -> None:
    record = '[Result "0-2"]\n[GameType "20"]\n[FEN "W:W28:B23"]\n\n1. 28x19 (1. 28-22) 0-2'
    text, changes = fixed(record, cut_irregular=True)
    assert text.endswith("1. 28x19 (1. 28-22) 2-0\n")  # the board decides; nothing is cut
    assert {change.fix for change in changes} == {"result-board"}


def test_change_text_keeps_the_record_s_own_text() -> None:
    _, changes = fixed('[Event " Cup : round 2 "]\n[GameType "20"]\n\n1. 32-28 *')
    (change,) = [change for change in changes if change.fix == "tag-space"]
    assert change.to_text() == (
        '<input>:1:1: fix[tag-space] game 1: [Event " Cup : round 2 "] -> [Event "Cup : round 2"]'
    )
    assert Change("junk", None, "a", "b").to_text() == "<input>: fix[junk]: a -> b"
