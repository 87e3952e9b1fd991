"""The PDN reader: one focused test per dialect feature, findings, depth and length limits."""

from __future__ import annotations

import gc
import io
import pickle

import pytest

from pdn.game.embedded import EscapeLine
from pdn.game.record import Game, GameNode
from pdn.pdnfile.reader import parse_span, read_game, read_games
from pdn.pdnfile.scan import span_of_text


def both(text: str) -> Game:
    """Read ``text`` through the fast path and through lark; they must agree."""
    fast = parse_span(span_of_text(text))
    slow = parse_span(span_of_text(text), fast=False)
    assert fast.same_record(slow)
    assert [f.to_dict() for f in fast.findings] == [f.to_dict() for f in slow.findings]
    return slow


def moves(game: Game) -> list[str]:
    return game.mainline_texts()


def codes(game: Game) -> list[str]:
    return [finding.code for finding in game.findings]


# -- tags ----------------------------------------------------------------------------------
def test_tags_in_order_with_padded_names_and_localized_names() -> None:
    game = both('[Event       "Liepaja"]\n[Bianco "Rossi"]\n[Nero "Bianchi"]\n1. 32-28 *')
    assert game.tags == [("Event", "Liepaja"), ("Bianco", "Rossi"), ("Nero", "Bianchi")]
    assert game.findings == []


def test_cyrillic_tag_name_and_value() -> None:
    game = both('[Событие "Чемпионат"]\n1. c3-d4 *')
    assert game.headers["Событие"] == "Чемпионат"


def test_unquoted_tag_value_is_a_tag_finding() -> None:
    game = both('[Event "x"]\n[Round 17]\n1. 32-28 *')
    assert game.headers["Round"] == "17"
    (finding,) = game.findings
    assert (finding.code, finding.line, finding.column) == ("tag", 2, 1)
    assert "not in double quotes" in finding.message


def test_malformed_tag_keeps_its_text() -> None:
    game = both("[Game # 612]\n1. 32-28 *")
    assert game.tags == [("Game", "# 612")]
    assert codes(game) == ["tag"]


def test_unterminated_string_and_unclosed_bracket() -> None:
    game = both('[Round "11.1]\n[Site "Den Haag\n1. 32-28 *')
    assert game.tags == [("Round", "11.1"), ("Site", "Den Haag")]
    assert codes(game) == ["tag", "tag", "tag"]
    assert [f.line for f in game.findings] == [1, 2, 2]


def test_duplicate_tag_first_value_wins() -> None:
    game = both('[Event "A"]\n[Event "B"]\n*')
    assert game.tags == [("Event", "A"), ("Event", "B")]
    assert game.headers["Event"] == "A"
    assert codes(game) == ["tag"] and "more than once" in game.findings[0].message


def test_brackets_inside_value_and_backslashes_that_are_not_escapes() -> None:
    text = '[Event "Qualifier Fryslân Open [4/4]"]\n[Comment "C:\\nemesis\\games"]\n*'
    game = both(text)
    assert game.tags == [
        ("Event", "Qualifier Fryslân Open [4/4]"),
        ("Comment", "C:\\nemesis\\games"),
    ]
    assert game.findings == []


def test_escaped_quote_in_value() -> None:
    game = both('[Annotator "the \\"Tiger\\""]\n*')
    assert game.headers["Annotator"] == 'the "Tiger"'


def test_tag_move_and_terminator_on_one_line() -> None:
    game = both('[FEN "W:W31-50:B1-20"] 1. 32-28 *')
    assert (game.tags, moves(game), game.result) == ([("FEN", "W:W31-50:B1-20")], ["32-28"], "*")


# -- move numbers and moves ------------------------------------------------------------------
def test_move_numbers_plain_black_and_leading_zeros() -> None:
    game = both("01. 34-29 18-22 02. 32-28 23... 16-21 1. ... 11-16 7.32-28 *")
    numbers = [node.move_number for node in game.mainline()]
    assert numbers == ["1.", None, "2.", "23...", "1...", "7."]
    assert moves(game)[:3] == ["34-29", "18-22", "32-28"]


def test_numeric_separators_leading_zeros_and_padding() -> None:
    game = both("1. 06-11 1- 6 28x19 32:21 3228 28X19x10 *")
    assert moves(game) == ["6-11", "1-6", "28x19", "32:21", "3228", "28x19x10"]


def test_algebraic_moves_uppercase_full_paths_and_short_forms() -> None:
    game = both("1. E3-D4 c3:e5 a3xc5xe7 a3b4 ed4 gf4 *")
    assert moves(game) == ["e3-d4", "c3:e5", "a3xc5xe7", "a3b4", "ed4", "gf4"]


def test_unknown_moves_and_lone_dot() -> None:
    game = both("1. - - 2. -- 3. 32-28 . 19-23 *")
    assert moves(game) == ["--", "--", "32-28", "19-23"]


def test_move_positions_are_file_positions() -> None:
    game = both('[Event "x"]\n\n1. 32-28 19-23\n2. 28x19 *')
    assert [(node.line, node.column) for node in game.mainline()] == [(3, 4), (3, 10), (4, 4)]


def test_move_positions_of_a_game_that_starts_mid_line() -> None:
    text = '[A "1"] 1. 32-28 *  [B "2"] 1. 33-29 (1. 32-28\n 18-23) 19-23\n2. 29x18 *'
    first, second = read_games(io.StringIO(text))
    assert [(node.line, node.column) for node in first.walk()] == [(1, 12)]
    places = [(node.move_text, node.line, node.column) for node in second.walk()]
    assert places == [
        ("33-29", 1, 32),
        ("19-23", 2, 9),
        ("29x18", 3, 4),
        ("32-28", 1, 42),
        ("18-23", 2, 2),
    ]
    assert pickle.loads(pickle.dumps(second)).variations[1].column == 42
    again = read_games(io.StringIO(text))
    next(again)
    # place() answers both at once, first or after line and column were read
    assert [node.place() for node in next(again).walk()] == [place[1:] for place in places]
    assert [node.place() for node in second.walk()] == [place[1:] for place in places]


def test_a_read_node_is_edited_like_a_built_one() -> None:
    # the four lists are made on first read and its place found once; a slot read of a node
    # stays a plain one (no __getattr__ on the class: it would slow down every read)
    game = read_game('[Event "x"]\n\n1. 32-28 {good} 19-23 *')
    first, reply = game.mainline()
    assert first.has_annotations() and not reply.has_annotations()
    assert reply.nags == [] and not reply.has_annotations()  # reading makes no annotation
    reply.nags.append(1)
    reply.comments_after = ["sharp"]
    assert reply.has_annotations() and reply.nags == [1]
    assert "19-23 $1 {sharp}" in str(game)
    reply.line = 9  # kept over the place the reader found
    assert (reply.line, reply.column) == (9, 17)
    assert not hasattr(GameNode, "__getattr__")


# -- annotations -------------------------------------------------------------------------------
def test_strengths_including_parenthesised() -> None:
    game = both("1. 32-28!? 19-23(?) 2. 28x19?? (33-29!) 14x23 *")
    assert [node.strength for node in game.mainline()] == ["!?", "(?)", "??", None]
    third = list(game.mainline())[1]  # the variation replaces 28x19, the third move
    assert third.variations[1].move_text == "33-29" and third.variations[1].strength == "!"


def test_nags_attach_to_the_move_before() -> None:
    game = both("1. 32-28 $1 $14 19-23 $2 *")
    assert [node.nags for node in game.mainline()] == [[1, 14], [2]]


def test_comments_before_after_and_line_comments() -> None:
    text = "{intro} 1. 32-28 {good} ; rest of line\n19-23\n% escaped line 1-0\n2. {pre} 33-29 *"
    game = both(text)
    first, second, third = game.mainline()
    assert first.comments_before == ["intro"]
    assert first.comments_after == ["good", " rest of line"]
    assert second.comments_after == ["% escaped line 1-0"]  # kept: issue 9
    assert isinstance(second.comments_after[0], EscapeLine)
    assert third.comments_before == ["pre"]
    assert game.result == "*"


def test_embedded_commands_are_parsed_into_values() -> None:
    text = "1. 32-28 {[%clock w0:10:00 B0:09:58]} 19-23 {[%clk 1:55:21] [%eval -0.35]} *"
    first, second = both(text).mainline()
    (clock,) = first.commands
    assert clock.name == "clock"
    assert [(r.side, r.seconds, r.running) for r in clock.value] == [
        ("W", 600.0, False),
        ("B", 598.0, True),
    ]
    assert [(c.name, c.value) for c in second.commands] == [("clk", 6921.0), ("eval", -0.35)]


def test_comment_before_tags_belongs_to_the_game() -> None:
    game = both('{ three games }\n[Event "x"]\n1. 32-28 *')
    assert game.comments_before == [" three games "]
    assert moves(game) == ["32-28"]


# -- variations and setups ----------------------------------------------------------------------
def test_nested_variations_replace_the_last_move() -> None:
    game = both("1. 32-28 19-23 (18-23 38-32 (37-32? 23-29!) 12-18) 2. 28x19 *")
    first = game.next()
    assert first is not None
    main, side = first.variations
    assert (main.move_text, side.move_text) == ("19-23", "18-23")
    assert [node.move_text for node in side.variations] == ["38-32", "37-32"]
    assert moves(game) == ["32-28", "19-23", "28x19"]


def test_variation_before_any_main_move_stays_a_side_line() -> None:
    game = both("({why} 22-18) 1... 21-14 2. 14-10 *")
    assert [node.move_text for node in game.variations] == ["21-14", "22-18"]
    assert game.variations[1].comments_before == ["why"]
    assert moves(game) == ["21-14", "14-10"]


def test_setup_before_a_move_and_without_moves() -> None:
    game = both('1. 32-28 /FEN "B:W28:B19"/ 19-23 *')
    assert [node.setup for node in game.mainline()] == [None, "B:W28:B19"]
    problem = both('[FEN "W:W31-50:B1-20"]\n/FEN "B::"/ 1-0')
    assert problem.setup == "B::" and problem.result == "1-0"


# -- results -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "result",
    ["2-0", "1-1", "0-2", "1-0", "0-1", "1/2-1/2", "0:1", "1:0", "1/2:1/2", "0-0", "*"],
)
def test_every_result_style(result: str) -> None:
    game = both(f"1. 32-28 19-23 {result}")
    assert (moves(game), game.result) == (["32-28", "19-23"], result)


def test_one_one_is_not_the_start_of_one_ten() -> None:
    game = both("1. 1-10 1-1")
    assert (moves(game), game.result) == (["1-10"], "1-1")


def test_score_without_a_result_tag_saying_so_is_a_move() -> None:
    for text in ("1. 34-29 4-6", '[Result "2-0"]\n1. 34-29 4-6', '[Result "4-6"]\n1. 4-6 19-23'):
        game = both(text)
        assert game.result is None and moves(game)[-1] in ("4-6", "19-23")


@pytest.mark.parametrize("score", ["4-6", "1-9", "0-10", "04-06"])
def test_score_equal_to_the_result_tag_ends_the_game(score: str) -> None:
    game = both(f'[Result "{score}"]\n1. 34-29 {{ends}} 10-14 {score}')
    assert (moves(game), game.result) == (["34-29", "10-14"], score)
    assert game.end().comments_after == [] and game.variations[0].comments_after == ["ends"]


def test_score_terminator_of_a_variation_line_or_comment_stays_put() -> None:
    game = both('[Result "4-6"]\n1. 34-29 (33-28 4-6) 10-14 4-6 {after}')
    assert game.result is None and moves(game) == ["34-29", "10-14", "4-6"]


def test_glued_terminator_ends_the_game() -> None:
    games = list(read_games(io.StringIO('[Event "a"]\n1. 32-28 0-1[Event "b"]\n1. 33-29 *')))
    assert [(g.headers["Event"], g.result) for g in games] == [("a", "0-1"), ("b", "*")]


# -- faults ------------------------------------------------------------------------------------
def test_junk_is_a_syntax_finding_and_the_game_is_kept() -> None:
    text = '[Event "x"]\n1. 32-28 19-23\n9n 28x19 *\n[Event "y"]\n1. 33-29 *'
    first, second = read_games(io.StringIO(text), name="junk.pdn")
    (finding,) = first.findings
    assert (finding.code, finding.file, finding.game, finding.line, finding.column) == (
        "syntax",
        "junk.pdn",
        1,
        3,
        1,
    )
    assert "'9n'" in finding.message
    assert moves(first) == ["32-28", "19-23", "28x19"] and first.raw is not None
    assert moves(second) == ["33-29"] and second.findings == [] and second.raw is None


def test_parentheses_in_tags_and_escaped_lines_are_not_variations() -> None:
    game = both('[Site "open ( \n% (\n; (\n1. 32-28 (\n')
    assert game.tags == [("Site", "open (")] and moves(game) == ["32-28"]
    assert [f.message for f in game.findings if f.code == "syntax"] == [
        "1 variation(s) '(' never closed with ')'"
    ]


def test_nested_comment_points_at_the_stray_brace() -> None:
    game = both("1. 33-29 19-23 2. 35-30 { nested { comment } } ")
    (finding,) = game.findings
    assert (finding.line, finding.column) == (1, 46) and "'}'" in finding.message


def test_unclosed_comment_and_variation() -> None:
    assert "never closed" in both("1. 32-28 {oops 19-23 *").findings[0].message
    game = both("1. 32-28 (33-29 19-23 *")
    assert "never closed" in game.findings[-1].message
    assert game.next() is not None


def test_stray_parenthesis_strength_and_result_in_variation() -> None:
    game = both("1. 32-28 ) 19-23 (17-21 1-0) ! *")
    messages = " | ".join(f.message for f in game.findings)
    assert "')' without an opening '('" in messages
    assert "'1-0' inside a variation" in messages
    assert "not right after a move" in messages
    assert moves(game) == ["32-28", "19-23"] and game.result == "*"


def test_prose_in_parentheses_is_one_finding() -> None:
    game = both("9-13 22-18 (Roberto's first choice, the Wilderness.) 11-16 *")
    (finding,) = game.findings
    assert "not a variation" in finding.message and (finding.line, finding.column) == (1, 13)
    assert moves(game) == ["9-13", "22-18", "11-16"]


def test_absurdly_long_numbers_do_not_raise() -> None:
    game = both("9" * 5000 + ". 32-28 $" + "9" * 5000 + " *")
    assert moves(game) == ["32-28"] and game.next().nags == [0]  # type: ignore[union-attr]
    assert game.next().move_number == "9" * 5000 + "."  # type: ignore[union-attr]


def test_junk_glued_to_a_move() -> None:
    game = both("1. 8-11Redoversteppedthetimecontrolonthismove. 0-1")
    assert moves(game) == ["8-11"] and game.result == "0-1"
    assert codes(game) == ["syntax"]


# -- size limits: nothing recurses ---------------------------------------------------------------
def test_five_thousand_ply_game() -> None:
    body = " ".join(f"{n}. 32-28 19-23" for n in range(1, 2501))
    game = both(body + " *")
    assert len(moves(game)) == 5000 and game.end().move_number is None
    assert pickle.loads(pickle.dumps(game)).same_record(game)


def test_two_hundred_deep_variations() -> None:
    text = "1. 32-28 " + "19-23 (18-23 " * 200 + "17-21" + ")" * 200 + " *"
    game = both(text)
    depth, branch = 0, game.next()
    while branch is not None and len(branch.variations) > 1:
        branch = branch.variations[1]
        depth += 1
    assert depth == 200 and branch is not None and branch.next() is not None
    assert branch.next().move_text == "17-21"  # type: ignore[union-attr]
    assert sum(1 for _ in game.walk()) == 1 + 2 * 200 + 1


# -- API ---------------------------------------------------------------------------------------
def test_read_game_and_empty_text() -> None:
    assert moves(read_game("1. 32-28 *")) == ["32-28"]
    empty = read_game("")
    assert (empty.tags, empty.variations, empty.result) == ([], [], None)


def test_parse_span_of_a_pickled_span_locates_findings() -> None:
    from pdn.pdnfile.scan import iter_spans

    spans = list(iter_spans(io.StringIO('[A "1"]\n1. 32-28 *\n[B "2"]\n1. 33-29 zz *')))
    game = parse_span(pickle.loads(pickle.dumps(spans[1])))
    assert [(f.game, f.line, f.column) for f in game.findings] == [(2, 4, 10)]
    assert game.source.game == 2 and game.source.line == 3


def test_same_record_ignores_positions_but_not_content() -> None:
    one = both("1. 32-28 19-23 *")
    two = both("\n\n1.   32-28\n19-23 *")
    assert one.same_record(two) and one != two  # == is identity: nodes key dicts
    three = both("1. 32-28 19-23 {x} *")
    assert not one.same_record(three)
    assert len({one, two, one.next()}) == 3


def test_reading_restores_the_garbage_collector_state() -> None:
    text = '[Event "x"]\n1. 32-28 19-23 *'
    assert gc.isenabled()
    read_game(text)
    assert gc.isenabled()
    gc.disable()
    try:
        read_game(text)
        assert not gc.isenabled()
    finally:
        gc.enable()


THREE_GAMES = (
    '[Event "one"]\n[Result "2-0"]\n\n1. 32-28 19-23 2. 28x19 14x23 2-0\n\n'
    '[Event "two"]\n[Result "0-2"]\n\n1. 33-29 {a comment} 17-21 (1... 18-22) 0-2\n\n'
    '[Event "three"]\n\n1. 31-27 *\n'
)


def _moves(game: Game) -> list[str | None]:
    return [node.move_text for node in game.walk()]


def test_read_game_on_a_handle_gives_the_games_of_read_games_then_none() -> None:
    expected = list(read_games(io.StringIO(THREE_GAMES)))
    handle = io.StringIO(THREE_GAMES)
    games = [read_game(handle) for _ in expected]
    assert [game.headers if game else None for game in games] == [g.headers for g in expected]
    assert [_moves(game) if game else None for game in games] == [_moves(g) for g in expected]
    assert read_game(handle) is None
    assert read_game(handle) is None
    assert handle.read() == ""  # left at the end of input


def test_read_game_leaves_the_handle_where_the_next_game_starts() -> None:
    handle = io.StringIO(THREE_GAMES)
    first = read_game(handle)
    assert first is not None and first.headers["Event"] == "one"
    rest = handle.read()
    assert rest.startswith('[Event "two"]')
    assert THREE_GAMES.endswith(rest)


def test_read_game_of_text_still_reads_the_first_game() -> None:
    assert read_game(THREE_GAMES).headers["Event"] == "one"
    assert read_game("").variations == []  # an empty record, not None
