"""The audit on hand-made games: every finding code, in every variant family, at the right ply."""

from __future__ import annotations

import random

import pytest
from conftest import budget
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import games as records

from pdn.arbiter.replay import INTERNAL_ERROR, audit, replay
from pdn.base.findings import CODES, Finding
from pdn.batch.parallel import AuditOptions, audit_game
from pdn.engine.position import Position
from pdn.engine.variants import VARIANTS, Variant
from pdn.game.record import Game
from pdn.game.tags import date_problem, outcome_of
from pdn.pdnfile.reader import read_game, read_games

INTERNATIONAL = '[GameType "20"]\n'


def found(text: str, **options: str) -> list[Finding]:
    return audit(read_game(text), **options)  # type: ignore[arg-type]


def codes(text: str, **options: str) -> list[tuple[str, int | None]]:
    """(code, ply) of every finding except the notes on the variant and on the result (a
    missing Result tag: these fragments have none)."""
    return [
        (f.code, f.ply)
        for f in found(text, **options)
        if f.code != "variant" and not (f.code == "result" and f.severity == "info")
    ]


# -- irregular moves --------------------------------------------------------------------------


def test_clean_game_has_no_findings() -> None:
    assert found(INTERNATIONAL + "1. 32-28 19-23 2. 28x19 14x23 3. 33-29 *") == []


def test_missed_capture_is_applied_as_played_and_replay_goes_on() -> None:
    text = INTERNATIONAL + "1. 32-28 19-23 2. 28-22 17x28 3. 33x22 18x27 4. 31x22 *"
    [finding] = found(text)
    assert (finding.code, finding.ply, finding.move) == ("missed-capture", 3, "28-22")
    assert finding.severity == "error"
    assert "28x19" in finding.message  # the compulsory capture is named


def test_illegal_move_stops_the_line() -> None:
    text = INTERNATIONAL + "1. 32-26 19-23 2. 40-10 *"
    [finding] = found(text)
    assert (finding.code, finding.ply) == ("illegal-move", 1)
    assert "not replayed" in finding.message
    assert "32-28" in finding.message  # legal alternatives are listed


def test_capture_rule_majority() -> None:
    # RULES.md T5: only 48x39x30x19 (three pieces) is legal; 48x37 takes one king
    text = INTERNATIONAL + '[FEN "W:W48:B24,K31,34,K42,43"]\n1. 48x37 *'
    assert codes(text) == [("capture-rule", 1)]


def test_ambiguous_capture_needs_the_full_path() -> None:
    # RULES.md T14: two different "47x36" captures
    text = INTERNATIONAL + '[FEN "W:WK47:B14,19,29,31,42"]\n1. 47x36 *'
    [finding] = found(text)
    assert (finding.code, finding.severity, finding.ply) == ("ambiguous-move", "warning", 1)
    assert found(INTERNATIONAL + '[FEN "W:WK47:B14,19,29,31,42"]\n1. 47x38x24x13x36 *') == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # English: Black first, men forward only; 12-8 goes backwards
        ('[GameType "21"]\n1. 11-15 23-19 2. 8-11 22-17 3. 12-8 *', [("illegal-move", 5)]),
        # English: capture compulsory (15x24)
        ('[GameType "21"]\n1. 11-15 24-19 2. 9-13 *', [("missed-capture", 3)]),
        # Russian algebraic with ':' captures; the man on d4 must capture c5
        ('[GameType "25"]\n1. c3-d4 b6-c5 2. g3-h4 *', [("missed-capture", 3)]),
        ('[GameType "25"]\n1. c3-d4 b6-c5 2. d4:b6 a7:c5 *', []),
        # Brazilian: majority applies (2 pieces beat 1)
        ('[GameType "26"]\n[FEN "W:Wc3:Bd4,f6,d6"]\n1. c3:e5 *', [("capture-rule", 1)]),
        # Italian: a man may not capture a king; 30-27 is the legal move
        ('[GameType "22"]\n[FEN "W:W30:BK26"]\n1. 30x21 *', [("capture-rule", 1)]),
        ('[GameType "22"]\n[FEN "W:W30:BK26"]\n1. 30-27 *', []),
        # Czech: a king that can capture must capture
        ('[GameType "29"]\n[FEN "W:WKa1,e3:Bc3,f4"]\n1. e3xg5 *', [("capture-rule", 1)]),
    ],
)
def test_irregular_moves_in_other_families(text: str, expected: list[tuple[str, int]]) -> None:
    assert codes(text) == expected


@pytest.mark.parametrize(
    ("variant", "fen", "plain", "capture"),
    [
        ("international", "W:W28,31:B23", "31-27", "28x19"),
        ("frisian", "W:W33,45:B23", "45-40", "33x13"),  # orthogonal capture
        ("canadian", "W:W40,60:B35", "60-54", "40x29"),
        ("brazilian", "W:Wc3,a1:Bd4,h8", "a1-b2", "c3xe5"),
        ("russian", "W:Wc3,a1:Bd4,h8", "a1-b2", "c3:e5"),
        ("czech", "W:Wc3,a1:Bd4,h8", "a1-b2", "c3xe5"),
        ("pool", "B:W18,25:B14", "14-17", "14x23"),
        ("english", "B:W18,25:B14", "14-17", "14x23"),
        ("italian", "W:W21,29:B18", "29-25", "21x14"),
        ("portuguese", "W:W9,1:B13", "1-5", "9x18"),
        ("spanish", "W:W9,1:B13", "1-5", "9x18"),
        ("turkish", "W:Wd3,a2:Bd4", "a2-a3", "d3xd5"),
        ("thai", "B:W18:B22,5", "5-1", "22-15"),
        ("brazilian-giveaway", "W:Wc3,a1:Bd4,h8", "a1-b2", "c3xe5"),
        ("international-giveaway", "W:W28,31:B23", "31-27", "28x19"),
    ],
)
def test_missed_capture_in_every_family(variant: str, fen: str, plain: str, capture: str) -> None:
    start = f'[FEN "{fen}"]\n'
    assert codes(start + f"{plain} *", variant=variant) == [("missed-capture", 1)]
    assert codes(start + f"{capture} *", variant=variant) == []


# -- move numbers -----------------------------------------------------------------------------


def test_move_number_out_of_sequence_is_reported_once() -> None:
    text = INTERNATIONAL + "1. 32-28 18-23 3. 37-32 12-18 3. 41-37 *"
    assert codes(text) == [("move-number", 3)]


def test_move_numbers_follow_the_first_mover_and_the_fen() -> None:
    # English: Black moves first; a White-to-move FEN starts with "1..."
    assert codes('[GameType "21"]\n1. 11-15 23-19 2. 8-11 *') == []
    english = '[GameType "21"]\n[FEN "W:W21,22:B1,2"]\n1... 22-18 2. 2-6 *'
    assert codes(english) == []
    lidraughts = INTERNATIONAL + '[FEN "B:W31,32:B19,20:H0:F12"]\n12... 19-23 13. 32-28 *'
    assert codes(lidraughts) == []


# -- draw rules, end of game, results ---------------------------------------------------------


def test_repetition_at_the_third_occurrence() -> None:
    text = INTERNATIONAL + '[FEN "W:WK50,30:BK1,21"]\n' + "50-45 1-6 45-50 6-1 " * 2 + "*"
    [finding] = found(text)
    assert (finding.code, finding.ply) == ("repetition", 8)


def test_move_limit_then_moves_after_end_then_result() -> None:
    # 3 kings v 1 (FMJD 6.3): 16 moves each, then the game is a draw; a win claimed after it.
    # The kings wander without repeating a position (a repetition would end the game first).
    wander = (
        "46-41 3-9 47-42 9-4 48-43 4-15 41-47 15-10 47-36 10-5 42-38 5-10 43-39 10-5 36-31 "
        "5-10 38-33 10-5 39-34 5-10 31-27 10-5 33-29 5-10 34-30 10-5 27-22 5-10 29-24 10-5 "
        "30-25 5-10 "
    )
    text = INTERNATIONAL + '[FEN "W:WK46,K47,K48:BK3"]\n' + wander + "22-18 2-0"
    found_codes = codes(text)
    assert ("move-limit", 32) in found_codes
    assert ("moves-after-end", 33) in found_codes
    assert ("result", 33) in found_codes
    limit = next(f for f in found(text) if f.code == "move-limit")
    assert "FMJD 6.3" in limit.message and "fmjd" in limit.message


def test_rules_profile_changes_the_counting() -> None:
    # 44 plies of king moves, no capture, no position twice (a repetition would end the game)
    wander = (
        "a1-b2 f8-e7 b2-c3 e7-f8 c3-d4 f8-e7 d4-h8 e7-f8 h8-g7 f8-e7 g7-d4 e7-f8 d4-h8 f8-e7 "
        "h8-b2 e7-f8 b2-c3 f8-e7 c3-a5 e7-f8 a5-b6 f8-g7 b6-d8 g7-h8 d8-h4 h8-g7 h4-g3 g7-e5 "
        "g3-h4 e5-h8 h4-d8 h8-g7 d8-h4 g7-f8 h4-f2 f8-g7 f2-g1 g7-h8 g1-h2 h8-e5 h2-g1 e5-f6 "
        "g1-f2 f6-h8 "
    )
    text = '[GameType "26"]\n[FEN "W:WKa1,a3,e3:BKf8,h6,d6"]\n' + wander + "*"

    def limit_ply(rules: str | None) -> int | None:
        options = {"rules": rules} if rules else {}
        return next((f.ply for f in found(text, **options) if f.code == "move-limit"), None)

    assert limit_ply(None) == 40  # cbjd: 20 king moves each
    assert limit_ply("fmjd64") == 30  # 15 moves each
    assert limit_ply("damplay") is None  # 25 moves each = 50 plies, not reached


@pytest.mark.parametrize(
    ("gametype", "fen", "shuffle", "win"),
    [
        ("20", "W:WK50,30:BK1,21", "50-45 1-6 45-50 6-1 ", "2-0"),  # FMJD 6.1
        ("25", "W:WKa1,c3:BKh8,f6", "a1-b2 h8-g7 b2-a1 g7-h8 ", "2-0"),  # FMJD-64 7.2.3
        ("26", "W:WKa1,c3:BKh8,f6", "a1-b2 h8-g7 b2-a1 g7-h8 ", "1-0"),  # Brazil: 7.2.3 too
    ],
)
def test_automatic_repetition_ends_the_game(
    gametype: str, fen: str, shuffle: str, win: str
) -> None:
    text = f'[GameType "{gametype}"]\n[FEN "{fen}"]\n' + shuffle * 2 + shuffle.split()[0]
    assert codes(text + " " + win) == [("repetition", 8), ("moves-after-end", 9), ("result", 9)]
    assert "drawn" in next(f.message for f in found(text + " *") if f.code == "repetition")


@pytest.mark.parametrize(
    ("gametype", "fen", "shuffle", "win"),
    [
        ("21", "B:WK29,K32:BK1,K4", "1-5 29-25 5-1 25-29 ", "1-0"),  # English laws: a claim
        ("28", "W:WK4,K3:BK29,K30", "3-7 30-26 7-3 26-30 ", "1-0"),  # Portuguese: on claim
    ],
)
def test_repetition_on_claim_is_reported_and_the_game_goes_on(
    gametype: str, fen: str, shuffle: str, win: str
) -> None:
    text = f'[GameType "{gametype}"]\n[FEN "{fen}"]\n' + shuffle * 3 + win
    assert codes(text) == [("repetition", 8)]
    assert "claim" in next(f.message for f in found(text) if f.code == "repetition")


def test_moves_after_the_last_piece_is_taken() -> None:
    text = INTERNATIONAL + '[FEN "W:W28:B23"]\n1. 28x19 14-20 2-0'
    assert codes(text) == [("moves-after-end", 2)]


def test_result_tag_against_terminator() -> None:
    [finding] = found(INTERNATIONAL + '[Result "2-0"]\n1. 32-28 0-2')
    assert (finding.code, finding.ply) == ("result", None)


def test_result_against_the_final_position() -> None:
    assert codes(INTERNATIONAL + '[FEN "W:W28:B23"]\n1. 28x19 2-0') == []
    assert codes(INTERNATIONAL + '[FEN "W:W28:B23"]\n1. 28x19 0-2') == [("result", 1)]
    assert codes(INTERNATIONAL + '[FEN "W:W28:B23"]\n1. 28x19 1-1') == [("result", 1)]


def test_english_result_counts_from_the_first_mover() -> None:
    # Black moves first in English: 1-0 is a win for Black
    assert codes('[GameType "21"]\n[FEN "B:W18:B14"]\n1. 14x23 1-0') == []
    assert codes('[GameType "21"]\n[FEN "B:W18:B14"]\n1. 14x23 0-1') == [("result", 1)]


def test_giveaway_result_is_inverted() -> None:
    # Antidraughts: Black has no pieces left, so Black wins
    assert codes('[GameType "98"]\n[FEN "W:W28:B23"]\n1. 28x19 0-2') == []
    assert codes('[GameType "98"]\n[FEN "W:W28:B23"]\n1. 28x19 2-0') == [("result", 1)]


@pytest.mark.parametrize(
    ("result", "outcome"),
    [
        ("2-0", "first"),
        ("1-0", "first"),
        ("0-2", "second"),
        ("0:1", "second"),
        ("1-1", "draw"),
        ("1/2-1/2", "draw"),
        ("0-0", "none"),
        ("*", None),
        ("4-6", "second"),
        (None, None),
    ],
)
def test_outcome_of_every_result_style(result: str | None, outcome: str | None) -> None:
    assert outcome_of(result) == outcome


# -- tags and FEN -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tags", "fragment"),
    [
        ('[SetUp "1"]', "SetUp"),
        ('[FEN "W:W31:B1"]\n[SetUp "0"]', "SetUp"),
        ('[Date "1996"]', "YYYY.MM.DD"),
        ('[Date "2001.13.01"]', "month 13"),
        ('[UTCDate "2001.01.32"]', "day 32"),
    ],
)
def test_tag_findings(tags: str, fragment: str) -> None:
    [finding] = found(INTERNATIONAL + tags + "\n*")
    assert finding.code == "tag" and fragment in finding.message


def test_good_dates() -> None:
    assert [date_problem(text) for text in ("2004.10.27", "????.??.??", "1847.??.??")] == [
        None,
        None,
        None,
    ]


def test_unreadable_fen_is_an_error_and_nothing_is_replayed() -> None:
    assert codes(INTERNATIONAL + '[FEN "W:W99:Bfoo"]\n1. 1-2 3-4 *') == [("fen", None)]


def test_impossible_fen_is_reported_and_replayed() -> None:
    findings = codes(INTERNATIONAL + '[FEN "W:W3,40:B20"]\n1. 40-35 *')
    assert findings == [("fen", None)]


def test_setup_command_in_the_body_restarts_the_position() -> None:
    text = INTERNATIONAL + '1. 32-28 /FEN "W:W28:B23"/ 28x19 *'
    assert codes(text) == []


# -- variations, locations, scale -------------------------------------------------------------


def test_variations_are_replayed_from_their_branch_point() -> None:
    text = INTERNATIONAL + (
        "1. 32-28 (1. 32-26) 19-23 (1... 17-22 2. 28x17 (2. 28-23) 11x22) 2. 28x19 14x23 *"
    )
    assert sorted(codes(text), key=str) == [("illegal-move", 1), ("missed-capture", 3)]


def test_findings_carry_file_game_ply_move_line_and_column(tmp_path) -> None:
    path = tmp_path / "two.pdn"
    path.write_text(
        INTERNATIONAL + "1. 32-28 19-23 *\n\n" + INTERNATIONAL + "1. 32-28 19-23\n2. 28-22 *\n"
    )
    games = list(read_games(str(path)))
    report = audit_game(games[1], AuditOptions())
    [finding] = report.findings
    assert (finding.file, finding.game, finding.ply, finding.move) == (str(path), 2, 3, "28-22")
    assert (finding.line, finding.column) == (6, 4)
    assert (report.variant, report.plies, report.game) == ("international", 3, 2)


def test_long_lines_replay_without_recursion() -> None:
    game = Game([("GameType", "20"), ("FEN", "W:WK50,30:BK1,21")])
    node = game
    for index in range(3000):
        node = node.add_variation(("50-45", "1-6", "45-50", "6-1")[index % 4])
    report = audit_game(game, AuditOptions())
    assert report.plies == 3000
    # FMJD 6.1 is automatic: the third occurrence ends the game, the rest is after the end
    assert [f.code for f in report.findings] == ["repetition", "moves-after-end"]


def test_unknown_variant_or_profile_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        found("*", variant="chess")
    with pytest.raises(ValueError):
        found("*", rules="nope")


# -- random legal games read back from PDN text: no findings ---------------------------------

PLAYOUT_VARIANTS = [
    "international",
    "brazilian",
    "russian",
    "english",
    "italian",
    "czech",
    "frisian",
    "portuguese",
    "pool",
]


def random_game_moves(variant: Variant, seed: int, plies: int = 70) -> tuple[str, list[str]]:
    """A GameType header and the moves of a random legal game (full capture paths)."""
    rng = random.Random(seed)
    position = Position.initial(variant)
    moves = []
    for _ in range(plies):
        legal = position.legal_moves
        if not legal:
            break
        move = rng.choice(legal)
        separator = variant.capture_separator if move.is_capture else None
        moves.append(
            move.notation(variant.board, variant.default_notation, full=True, separator=separator)
        )
        position = position.play(move)
    return f'[GameType "{variant.gametype_spec or variant.gametype}"]\n', moves


def random_game_text(variant: Variant, seed: int, plies: int = 70) -> str:
    """A random legal game written as PDN text, numbered, with its GameType."""
    header, moves = random_game_moves(variant, seed, plies)
    words = [f"{ply // 2 + 1}. {move}" if ply % 2 == 0 else move for ply, move in enumerate(moves)]
    return header + " ".join(words) + " *"


@pytest.mark.parametrize("name", PLAYOUT_VARIANTS)
def test_random_legal_playouts_have_no_findings(name: str) -> None:
    variant = VARIANTS[name]
    for seed in range(3):
        text = random_game_text(variant, seed)
        assert found(text) == [], text


# -- bad input never crashes ------------------------------------------------------------------


@settings(max_examples=budget(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(records())
def test_any_record_is_audited_without_raising(game: Game) -> None:
    for finding in audit(game):
        assert finding.code in CODES
        assert INTERNAL_ERROR not in finding.message


@settings(max_examples=budget(40), deadline=None)
@given(
    st.sampled_from(PLAYOUT_VARIANTS),
    st.integers(0, 10_000),
    st.integers(0, 59),
    st.sampled_from(["drop", "swap", "junk", "repeat"]),
)
def test_a_corrupted_legal_game_is_flagged_from_the_corruption_on(
    name: str, seed: int, at: int, how: str
) -> None:
    """A random legal game with one move damaged: no crash, nothing reported before it."""
    header, moves = random_game_moves(VARIANTS[name], seed, 60)
    if at >= len(moves) - 1:
        return
    if how == "drop":
        del moves[at]
    elif how == "swap":
        moves[at], moves[at + 1] = moves[at + 1], moves[at]
    elif how == "junk":
        moves[at] = "99-98"
    else:
        moves.insert(at, moves[at])
    findings = found(header + " ".join(moves) + " *")
    assert all(INTERNAL_ERROR not in finding.message for finding in findings)
    plies = [f.ply for f in findings if f.code not in ("repetition", "move-limit")]
    assert all(ply is not None and ply >= at + 1 for ply in plies)


def test_findings_come_in_file_order() -> None:
    text = INTERNATIONAL + (
        '[Date "1996"]\n1. 32-28 (1. 32-26) 19-23 (1... 17-22 2. 28x17 (2. 28-23) 11x22)\n'
        "2. 28x19 14x23 3. 99-98 *"
    )
    findings = found(text)
    assert [f.code for f in findings] == ["tag", "illegal-move", "missed-capture", "illegal-move"]
    assert [(f.line, f.column) for f in findings] == sorted((f.line, f.column) for f in findings)


def test_empty_board_is_a_fen_finding_not_a_result_one() -> None:
    assert codes('[GameType "21"]\n[FEN "W::."]\n1/2-1/2') == [("fen", None)]


def test_null_move_setup_keeps_the_pieces_and_passes_the_turn() -> None:
    # PDN.md 1.8: /FEN "B::"/ is a null move; White passes and Black plays on
    assert codes(INTERNATIONAL + '1. 32-28 /FEN "W::"/ 28-22 *') == []
    assert codes(INTERNATIONAL + '1. 32-28 /FEN "B::"/ 19-23 *') == []


# -- dialects: the playstrategy.org English export ---------------------------------------------

PLAYSTRATEGY = (
    '[Site "https://playstrategy.org/A1IYDksh"]\n[P1 "a"]\n[P2 "b"]\n[Variant "American/English"]\n'
)
#: A corpus game: squares seen from Black's side, "e5xc3 7. c3xa1" is one capture in two parts.
SPLIT_CAPTURE = (
    "1. c3-d4 d6-e5 2. b2-c3 c7-d6 3. a1-b2 b6-a5 4. e3-f4 a5-b4 5. a3xc5 d6xb4 "
    "6. c3xa5 e5xc3 7. c3xa1 c1-b2 8. a1xc3 d2xb4 *"
)


def test_playstrategy_game_replays_with_rotated_squares_and_joined_captures() -> None:
    findings = found(PLAYSTRATEGY + SPLIT_CAPTURE)
    # American/English names the variant by a word of the tag; read as the export means
    # them, the first moves confirm it: a note, not a warning
    assert [(f.code, f.severity) for f in findings if f.severity != "info"] == []
    assert any("english plays the first" in f.message for f in findings if f.code == "variant")
    assert any("playstrategy" in f.message for f in findings if f.severity == "info")


def test_replay_records_the_joined_capture_on_each_of_its_parts() -> None:
    game = read_game(PLAYSTRATEGY + SPLIT_CAPTURE)
    replayed = replay(game)
    nodes = list(game.mainline())
    first, second = nodes[11], nodes[12]  # e5xc3 7. c3xa1: f6... rotated, 18x11x4 in PDN
    assert (first.move_text, second.move_text) == ("e5xc3", "c3xa1")
    whole = replayed.played[first]
    assert whole.move.path == (18, 11, 4) and whole.move.captures == (15, 8)
    assert (whole.ply, whole.part, whole.parts) == (12, 1, 2)
    assert replayed.played[second] == type(whole)(whole.move, 12, whole.before, whole.after, 2, 2)
    assert first.move == second.move == whole.move  # node.move: the whole capture on each part
    # one ply for the two parts: 16 written moves, 15 plies, 16 positions
    assert replayed.mainline_plies[11] == (first, second)
    assert len(replayed.positions) == 16 and len(replayed.moves) == 15
    assert replayed.positions[12].piece_at(4) is not None
    assert replayed.positions[12].piece_at(4).is_king  # type: ignore[union-attr]
    assert replayed.stopped is None and replayed.findings == audit(game)


def test_replay_says_where_the_main_line_stops_and_keeps_variations() -> None:
    game = read_game(INTERNATIONAL + "1. 32-28 19-23 (1... 18-23) 2. 28-12 23x32 *")
    replayed = replay(game)
    assert len(replayed.positions) == 3  # start, after 32-28, after 19-23
    assert replayed.stopped == "boards stop at ply 2: ply 3 (28-12) cannot be played"
    side = game.next().variations[1]  # type: ignore[union-attr]
    assert replayed.played[side].ply == 2  # the variation is replayed from its branch
    assert game.end() not in replayed.played


def test_replay_exact_keeps_the_variant_asked_for() -> None:
    game = read_game(INTERNATIONAL + "1. 11-15 *")
    english = Variant.from_name("english")
    assert replay(game, variant=english).variant.name == "international"
    exact = replay(game, variant=english, exact=True)
    assert exact.variant is english and exact.variant_findings == []
    assert exact.moves[0].path == (11, 15)


def test_the_same_moves_without_dialect_evidence_are_illegal() -> None:
    # without the export's tags the squares are PDN's own: Black cannot start with c3-d4
    assert codes('[GameType "21"]\n' + SPLIT_CAPTURE)[0] == ("illegal-move", 1)


def test_playstrategy_faults_are_still_found() -> None:
    # a capture left unfinished (e5xc3 must go on to a1) is not joined with another piece's
    unfinished = SPLIT_CAPTURE.split(" 7. ")[0] + " 7. d2xb4 *"
    assert codes(PLAYSTRATEGY + unfinished) == [("capture-rule", 12)]
    # the numbering counts each written part: 8. is right above, 9. is not
    assert codes(PLAYSTRATEGY + SPLIT_CAPTURE.replace("8. a1xc3", "9. a1xc3")) == [
        ("move-number", 14)
    ]


# -- Frisian: the same king at most 3 times in a row while its side has men ---------------------

FRISIAN = '[GameType "40"]\n'


@pytest.mark.parametrize(
    ("fen", "moves", "expected"),
    [
        # the 4th move in a row of the king from 21, White still has a man: illegal, applied
        # (Black has no men: its king may shuffle)
        ("W:WK21,45:BK9", "21-17 9-4 17-21 4-9 21-17 9-4 17-21 4-10", [("illegal-move", 7)]),
        # another king moves in between: the count starts again
        ("W:WK21,K50,45:BK9", "21-17 9-4 17-21 4-9 50-44 9-4 21-17 4-9 17-21 9-4", []),
        # a man move in between: the count starts again
        ("W:WK21,45:BK9", "21-17 9-4 17-21 4-9 21-17 9-4 45-40 4-9 17-21 9-4", []),
        # no men left: kings move freely
        ("W:WK21,K50:BK9", "21-17 9-4 17-21 4-9 21-17 9-4 17-21 4-10", []),
        # a capture by the king starts the count again: 3 moves after 12x14 are fine, a 4th not
        ("W:WK21,45:BK9,6", "21-17 9-4 17-12 4-13 12x14 6-11 14-10 11-17 10-5 17-22 5-10", []),
        (
            "W:WK21,45:BK9,6",
            "21-17 9-4 17-12 4-13 12x14 6-11 14-10 11-17 10-5 17-22 5-10 22-27 10-5",
            [("illegal-move", 13)],
        ),
    ],
)
def test_frisian_king_may_not_move_more_than_three_times_in_a_row(
    fen: str, moves: str, expected: list[tuple[str, int]]
) -> None:
    text = FRISIAN + f'[FEN "{fen}"]\n{moves} *'
    assert [c for c in codes(text) if c[0] != "repetition"] == expected
    report = audit_game(read_game(text), AuditOptions())
    assert report.plies == len(moves.split())  # RULES.md A.1: the move is applied as played
