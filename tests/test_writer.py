"""The PDN writer and JSON output on records built in code (no reader involved)."""

from __future__ import annotations

import json

import pytest

from pdn.arbiter.replay import played_moves
from pdn.engine.variants import Variant
from pdn.game.embedded import Command
from pdn.game.record import Game, GameNode
from pdn.game.tags import known_outcome, outcome_of, result_in_style, winner
from pdn.pdnfile.reader import read_game
from pdn.pdnfile.writer import (
    convert_fen_text,
    convert_move_text,
    escape_tag_value,
    game_json_text,
    game_to_json,
    json_text,
    write_game,
    write_games,
)

ENGLISH = Variant.from_name("english")
INTERNATIONAL = Variant.from_name("international")
RUSSIAN = Variant.from_name("russian")


def line_of(game: Game, *moves: str, numbers: bool = False) -> GameNode:
    """Append ``moves`` as a main line after the end of ``game``; returns the last node."""
    node: GameNode = game.end()
    for ply, move in enumerate(moves, start=node.ply() + 1):
        number = (f"{(ply + 1) // 2}." if ply % 2 else None) if numbers else None
        node = node.add_variation(move, move_number=number)
    return node


def sample_game() -> Game:
    game = Game([("Event", 'Club "A"'), ("White", "C:\\games"), ("Result", "2-0")], result="2-0")
    first = game.add_variation("32-28", move_number="1.")
    first.add_comment("good [%clock w0:10:00 B0:09:58]")
    reply = first.add_variation("19-23", move_number="1...", strength="!", nags=[1])
    side = first.add_variation("18-23", comments_before=["or"])
    side.add_variation("38-32", move_number="2.")
    reply.add_variation("28x19", move_number="2.")
    return game


def test_golden_output_keeps_everything_as_recorded() -> None:
    assert write_game(sample_game()) == (
        '[Event "Club \\"A\\""]\n'
        '[White "C:\\games"]\n'
        '[Result "2-0"]\n'
        "\n"
        "1. 32-28 {good [%clock w0:10:00 B0:09:58]} 1... 19-23! $1 ({or} 18-23 2. 38-32)\n"
        "2. 28x19 2-0\n"
    )


def test_renumber_writes_first_mover_numbers_and_dots_after_interruptions() -> None:
    text = write_game(sample_game(), move_numbers="renumber", variant=INTERNATIONAL)
    assert "1. 32-28 {good [%clock w0:10:00 B0:09:58]} 1... 19-23! $1 (1... {or} 18-23" in text
    assert "2. 38-32) 2. 28x19 2-0" in text


def test_renumber_leaves_standard_numbers_as_they_are() -> None:
    game = Game(result="*")
    line_of(game, *(["32-28", "19-23"] * 5), numbers=True)
    branch = game.end().parent
    assert branch is not None
    side = branch.add_variation("18-23", move_number="5...")
    side.add_comment("and")
    side.add_variation("38-32", move_number="6.")
    kept = write_game(game)
    assert write_game(game, move_numbers="renumber", variant=INTERNATIONAL) == kept
    assert "(5... 18-23 {and} 6. 38-32)" in kept


def test_renumber_plain_second_mover_move_has_no_number() -> None:
    game = Game(result="*")
    line_of(game, "32-28", "19-23", "28x19")
    text = write_game(game, move_numbers="renumber", variant=INTERNATIONAL)
    assert text == "1. 32-28 19-23 2. 28x19 *\n"


def test_renumber_from_fen_with_the_second_mover_to_play() -> None:
    game = Game([("FEN", "B:W31-50:B1-20")], result="*")
    line_of(game, "20-25", "32-28")
    text = write_game(game, move_numbers="renumber", variant=INTERNATIONAL)
    assert text.endswith("\n1... 20-25 2. 32-28 *\n")
    english = Game([("FEN", "B:W21-32:B1-12")], result="*")
    line_of(english, "11-15", "23-19")  # Black moves first in English checkers
    assert write_game(english, move_numbers="renumber", variant=ENGLISH).endswith(
        "\n1. 11-15 23-19 *\n"
    )


def test_renumber_starts_from_the_fen_full_move_number() -> None:
    game = Game([("FEN", "B:W31-50:B1-20:H0:F12")], result="*")
    line_of(game, "20-25", "32-28")
    text = write_game(game, move_numbers="renumber", variant=INTERNATIONAL)
    assert text.endswith("\n12... 20-25 13. 32-28 *\n")


def test_renumber_continues_from_the_first_written_number() -> None:
    game = Game(result="*")
    first = game.add_variation("20-25", move_number="23...")
    first.add_variation("32-28", move_number="2.")  # wrong in the file; renumbered
    assert write_game(game, move_numbers="renumber") == "23... 20-25 24. 32-28 *\n"


@pytest.mark.parametrize(
    ("result", "variant", "written"),
    [
        ("0:1", INTERNATIONAL, "0-2"),
        ("1:0", INTERNATIONAL, "2-0"),
        ("1/2:1/2", INTERNATIONAL, "1-1"),
        ("0:1", RUSSIAN, "0-1"),
        ("1/2:1/2", ENGLISH, "1/2-1/2"),
        ("1-0", INTERNATIONAL, "1-0"),  # a standard spelling: kept as the source wrote it
        ("2-0", ENGLISH, "2-0"),
        ("4-6", INTERNATIONAL, "4-6"),  # not a known result: kept
        ("*", ENGLISH, "*"),
    ],
)
def test_results_in_the_variant_style(result: str, variant: Variant, written: str) -> None:
    assert result_in_style(result, variant) == written


def test_winner_reads_scores_from_the_first_mover() -> None:
    assert winner("1-0", ENGLISH) == "B"  # English: Black moves first
    assert winner("0-1", ENGLISH) == "W"
    assert winner("2-0", INTERNATIONAL) == "W"
    assert winner("0:2", INTERNATIONAL) == "B"
    assert winner("1/2-1/2", ENGLISH) == "draw"
    assert winner("*", ENGLISH) is None
    assert winner("4-6", INTERNATIONAL) == "B"  # scores compared, as the audit reads them
    assert winner("0-0", INTERNATIONAL) is None


def test_known_spellings_mean_what_their_scores_say() -> None:
    """One meaning of a result: the respelling table agrees with the score comparison."""
    from pdn.game.tags import KNOWN_SPELLINGS

    for spelling in KNOWN_SPELLINGS:
        expected = known_outcome(spelling)
        assert outcome_of(spelling) == (None if expected == "unknown" else expected), spelling


def test_results_variant_option_rewrites_tag_and_terminator() -> None:
    game = Game([("Result", "0:1")], result="0:1")
    line_of(game, "32-28")
    text = write_game(game, variant=INTERNATIONAL, results="variant")
    assert text == '[Result "0-2"]\n\n32-28 0-2\n'


def test_tag_escaping_only_quotes() -> None:
    assert escape_tag_value('say "hi"') == 'say \\"hi\\"'
    assert escape_tag_value("C:\\nemesis") == "C:\\nemesis"


def test_wrapping_never_exceeds_width_nor_parts_number_from_move() -> None:
    game = Game(result="2-0")
    line_of(game, *(["32-28", "19-23"] * 60), numbers=True)
    text = write_game(game, width=30)
    for line in text.splitlines():
        assert len(line) <= 30
        assert not line.rstrip().endswith(".")  # a number always has its move
    assert text.count("\n") > 10


def test_long_comment_is_kept_whole_on_its_own_line() -> None:
    game = Game(result="*")
    node = line_of(game, "32-28", "19-23")
    node.add_comment("x" * 100)
    line_of(game, "28x19")
    lines = write_game(game).splitlines()
    assert "{" + "x" * 100 + "}" in lines
    assert all(len(line) <= 80 for line in lines if "x" * 100 not in line)


def test_comment_with_closing_brace_is_written_as_line_comment() -> None:
    game = Game(result="*")
    node = line_of(game, "32-28")
    node.add_comment(" a } b")
    line_of(game, "19-23")
    assert write_game(game) == "32-28 ; a } b\n19-23 *\n"


def test_commands_not_carried_by_a_comment_are_still_written() -> None:
    game = Game(result="*")
    node = line_of(game, "32-28")
    node.commands.append(Command("clk", "1:55:21"))
    assert write_game(game) == "32-28 {[%clk 1:55:21]} *\n"


def test_a_command_is_written_as_many_times_as_the_node_has_it() -> None:
    game = Game(result="*")
    node = line_of(game, "32-28")
    node.add_comment("[%clk  1:55:21 ] [%eval 0.3]")  # carries clk and eval (text stripped)
    node.commands.append(Command("clk", "1:55:21"))  # a second clk, carried by no comment
    written = write_game(game)
    assert written == "32-28 {[%clk  1:55:21 ] [%eval 0.3]} {[%clk 1:55:21]} *\n"
    assert read_game(written).next().commands == node.commands


def test_setups_are_written_before_their_move() -> None:
    game = Game(result="*")
    node = game.add_variation("20-25", setup="B:W31-50:B1-20", move_number="1...")
    node.add_variation("32-28")
    assert write_game(game) == '/FEN "B:W31-50:B1-20"/ 1... 20-25 32-28 *\n'


def test_raw_games_are_written_verbatim() -> None:
    game = Game([("Event", "x")], result="*")
    game.raw = '[Event "x"]\n1. 32-28 ))) junk *'
    assert write_game(game) == game.raw + "\n"


def test_write_games_separates_games_with_a_blank_line() -> None:
    import io

    stream = io.StringIO()
    count = write_games([Game([("Event", "a")], result="*"), Game(result="2-0")], stream)
    assert count == 2
    assert stream.getvalue() == '[Event "a"]\n\n*\n\n2-0\n'


def test_long_game_and_deep_variations_write_without_recursion() -> None:
    game = Game(result="*")
    line_of(game, *(["32-28", "28-32"] * 2500))
    assert write_game(game).count("32-28") == 2500
    deep = Game(result="*")
    node: GameNode = deep.add_variation("32-28")
    for _ in range(200):
        node.add_variation("19-23")
        node = node.add_variation("18-23")  # an alternative, opening a nested variation
    text = write_game(deep)
    assert text.count("(") == text.count(")") == 200
    encoded = json.dumps(game_to_json(deep))  # JSON building is iterative too
    assert encoded.count('"18-23"') == 200
    assert len(json.dumps(game_to_json(game))) > 5000
    for record in (deep, game):
        assert game_json_text(record) == json_text(game_to_json(record))


def test_numeric_and_algebraic_move_and_fen_conversion() -> None:
    board = ENGLISH.board
    assert convert_move_text("11-15", board, "algebraic", "x") == "f6-e5"
    assert convert_move_text("9x18x27", board, "algebraic", ":") == "b6:d4:f2"
    assert convert_move_text("b6:d4:f2", board, "numeric", "x") == "9x18x27"
    assert convert_move_text("ed4", board, "numeric", "x") == "ed4"  # needs the engine
    assert convert_move_text("--", board, "numeric", "x") == "--"
    assert convert_move_text("99-98", board, "algebraic", "x") == "99-98"  # off the board
    fen = convert_fen_text("W:W21-23,K32:B1,2.", board, "algebraic")
    assert fen.count(",") == 4 and fen.endswith(".") and "K" in fen
    assert convert_fen_text(fen, board, "numeric") == "W:W21,22,23,K32:B1,2."
    assert convert_fen_text("garbage:Wzz", board, "numeric") == "garbage:Wzz"


def test_notation_option_converts_moves_fen_tag_and_setups() -> None:
    game = Game([("FEN", "W:W29:B1"), ("GameType", "25")], result="*")
    game.add_variation("29-25", setup="W:W29:B1")
    text = write_game(game, variant=RUSSIAN, notation="algebraic")
    assert '[FEN "W:Wa1:Bb8"]' in text
    assert '/FEN "W:Wa1:Bb8"/ a1-b2 *' in text


def test_rewritten_game_without_gametype_gets_one() -> None:
    game = Game([("Event", "x")], result="*")
    game.add_variation("11-15")
    assert write_game(game, variant=ENGLISH, notation="algebraic") == (
        '[Event "x"]\n[GameType "21"]\n\nf6-e5 *\n'
    )
    assert write_game(game, variant=ENGLISH) == '[Event "x"]\n\n11-15 *\n'


def test_game_to_json_shape() -> None:
    data = game_to_json(sample_game(), variant=INTERNATIONAL)
    assert data["tags"][0] == ["Event", 'Club "A"']
    assert data["variant"] == "international"
    assert data["result"] == "2-0" and data["winner"] == "W"
    first, reply, capture = data["moves"]
    assert first["commands"] == [{"name": "clock", "text": "w0:10:00 B0:09:58"}]
    assert reply["strength"] == "!" and reply["nags"] == [1]
    assert [move["move"] for move in reply["variations"][0]] == ["18-23", "38-32"]
    assert reply["variations"][0][0]["comments_before"] == ["or"]
    assert capture["move"] == "28x19"
    json.dumps(data)  # serialisable as is


def test_json_text_escapes_as_the_json_module_does() -> None:
    game = sample_game()
    node = game.end()
    node.add_comment('quote " backslash \\ tab \t bell \x07 é 中')
    node.nags.append(7)
    node.commands.append(Command("cmd", 'a "b"'))
    side = node.parent.add_variation("33-28", strength="?")  # a second alternative
    side.add_variation("17-22").add_comment("inner")
    text = game_json_text(game, variant=INTERNATIONAL)
    assert text == json.dumps(game_to_json(game, variant=INTERNATIONAL), ensure_ascii=False)
    assert json.loads(text)["moves"][2]["comments_after"][-1].endswith("é 中")


def test_an_ambiguous_capture_is_never_written_with_a_guessed_path() -> None:
    # RULES.md T14: two different 47x36 captures; the audit reads one by look-ahead and goes
    # on, but the record only says 47x36, so that is what is written
    game = read_game('[GameType "20"]\n[FEN "W:WK47:B14,19,29,31,42"]\n\n1. 47x36 14-20 2. 36-41 *')
    assert write_game(game, notation="numeric", captures="full").endswith(
        "1. 47x36 14-20 2. 36-41 *\n"
    )
    assert write_game(game, notation="algebraic").endswith("1. c1xa3 h8-i7 2. a3-b2 *\n")


def test_a_capture_is_written_short_when_resolving_or_a_search_finds_it_alone() -> None:
    # 38x27x18 written short: resolving found the only capture from 38 to 18
    # (Played.ends_unique), so the writer needs no capture search of its own; written with
    # its path, the writer searches and finds the short form unambiguous all the same
    setup = '[GameType "20"]\n[FEN "W:W38:B32,22"]\n\n1. '
    for written, known in (("38x18", True), ("38x27x18", False)):
        game = read_game(setup + written + " *")
        node = game.next()
        assert node is not None
        assert played_moves(game).played[node].ends_unique is known
        assert write_game(game, notation="numeric").endswith("1. 38x18 *\n")
        assert write_game(game, notation="algebraic").endswith("1. e3xe7 *\n")


@pytest.mark.parametrize("notation", ["numeric", "algebraic"])
def test_a_kings_capture_and_plain_move_on_one_path_keep_their_separators(
    notation: str,
) -> None:
    # the writer remembers move texts by path across games: a flying king's plain move
    # 46-37 and its capture 46x37 (over 41) share the path (46, 37), not the text
    plain = read_game('[GameType "20"]\n[FEN "W:WK46:B1"]\n\n1. 46-37 *')
    capture = read_game('[GameType "20"]\n[FEN "W:WK46:B41,1"]\n\n1. 46x37 *')
    plain_text = write_game(plain, notation=notation)  # type: ignore[arg-type]
    capture_text = write_game(capture, notation=notation)  # type: ignore[arg-type]
    assert "-" in plain_text.split("1. ")[1] and "x" not in plain_text.split("1. ")[1]
    assert "x" in capture_text.split("1. ")[1]
    assert read_game(capture_text).end().move.captures == capture.end().move.captures
