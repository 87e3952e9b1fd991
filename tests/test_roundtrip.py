"""Round trips: parse(write(g)) == g and write idempotence, on generated records and on every
game of the real corpus (../shared/corpus, skipped when absent); numeric <-> algebraic."""

from __future__ import annotations

import re
from functools import lru_cache

import pytest
from conftest import CORPUS, budget, needs_corpus
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import games

from pdn.engine.variants import Variant
from pdn.game.record import Game
from pdn.pdnfile.reader import read_game, read_games
from pdn.pdnfile.writer import game_json_text, game_to_json, json_text, variant_of, write_game

WIDTH = 80


@given(games())
@settings(max_examples=budget(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_generated_records_round_trip(game: Game) -> None:
    text = write_game(game)
    again = read_game(text)
    assert [finding for finding in again.findings if finding.code == "syntax"] == [], text
    assert again.same_record(game), text
    assert write_game(again) == text  # idempotent


@given(games(max_nodes=60))
@settings(max_examples=budget(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_json_text_is_the_json_of_the_game_object(game: Game) -> None:
    # the text convert --to json writes is built without the move objects: same bytes
    variant = Variant.from_name("international")
    assert game_json_text(game, variant=variant) == json_text(game_to_json(game, variant=variant))


@given(games(max_nodes=60))
@settings(max_examples=budget(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_wrapping_keeps_atoms_whole(game: Game) -> None:
    text = write_game(game, width=WIDTH)
    assert overlong_lines(text) == []


@given(games(), st.sampled_from(["international", "english", "russian"]))
@settings(max_examples=budget(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_renumbered_and_converted_output_is_stable(game: Game, name: str) -> None:
    variant = Variant.from_name(name)
    for options in (
        {"move_numbers": "renumber"},
        {"notation": "algebraic"},
        {"notation": "numeric", "captures": "full"},
    ):
        text = write_game(game, variant=variant, **options)  # type: ignore[arg-type]
        assert write_game(read_game(text), variant=variant, **options) == text  # type: ignore[arg-type]


@given(games())
@settings(max_examples=budget(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_numeric_algebraic_numeric_gives_the_same_moves(game: Game) -> None:
    variant = Variant.from_name("international")
    numeric = read_game(write_game(game, variant=variant, notation="numeric"))
    algebraic = write_game(game, variant=variant, notation="algebraic")
    back = read_game(write_game(read_game(algebraic), variant=variant, notation="numeric"))
    assert [node.move_text for node in back.walk()] == [node.move_text for node in numeric.walk()]


_TAG_OR_LINE_COMMENT = re.compile(r"\[|\(*(?:\d+\.(?:\.\.)? )?;")
_ONE_ATOM = re.compile(r"\(*(?:\d+\.(?:\.\.)? )?(?:\{\}|\S+)\)*")


def overlong_lines(text: str, width: int = WIDTH) -> list[str]:
    """Lines longer than ``width`` that hold more than one unbreakable atom. An atom is a tag
    line, a ``;`` comment, a ``{comment}`` (its lines too, when it spans several), or one
    token with its move number and glued parentheses."""
    bad = []
    inside = False  # the line starts inside a {comment} that spans lines
    for line in text.splitlines():
        outside: list[str] = []
        rest = line
        while rest:
            if inside:
                end = rest.find("}")
                if end < 0:
                    rest = ""
                    break
                outside.append("{}")
                rest, inside = rest[end + 1 :], False
            else:
                start = rest.find("{")
                if start < 0:
                    outside.append(rest)
                    break
                outside.append(rest[:start])
                rest, inside = rest[start + 1 :], True
        shape = "".join(outside)
        if len(line) <= width or _TAG_OR_LINE_COMMENT.match(line) or not shape.strip():
            continue
        if inside:  # the line opens a comment that goes on below
            shape += "{}"
        if not _ONE_ATOM.fullmatch(shape):
            bad.append(line)
    return bad


@lru_cache(maxsize=1)
def corpus_games() -> list[tuple[str, Game]]:
    """Every game of the corpus with its file name (read once per test session)."""
    found = []
    for path in sorted(CORPUS.rglob("*.pdn")):
        found.extend((path.name, game) for game in read_games(path))
    return found


@needs_corpus
def test_every_corpus_game_round_trips() -> None:
    failures = []
    count = 0
    for name, game in corpus_games():
        count += 1
        text = write_game(game)
        again = read_game(text)
        if game.raw is None and (not again.same_record(game) or write_game(again) != text):
            failures.append(f"{name} game {game.source.game}")
        if game.raw is not None and text.rstrip("\n") != game.raw.rstrip("\n"):
            failures.append(f"{name} game {game.source.game}: raw text not kept")
    assert count > 1000
    assert failures == []


@needs_corpus
def test_every_corpus_game_has_the_same_json_either_way() -> None:
    games_checked = [
        f"{name} game {game.source.game}"
        for name, game in corpus_games()
        if game_json_text(game) != json_text(game_to_json(game))
    ]
    assert games_checked == []


@needs_corpus
def test_corpus_lines_stay_within_80_columns() -> None:
    for name, game in corpus_games():
        if game.raw is None:
            assert overlong_lines(write_game(game)) == [], name


def eight_by_eight_numeric(game: Game) -> bool:
    """A cheap pre-filter: a parsed game whose main line uses numeric squares up to 32."""
    if game.raw is not None or not game.variations:
        return False
    squares = [square for move in game.mainline_texts() for square in re.split(r"[-x:]", move)]
    return all(square.isdigit() and 1 <= int(square) <= 32 for square in squares)


@needs_corpus
def test_numeric_to_algebraic_to_numeric_gives_the_same_text() -> None:
    checked = 0
    candidates = [(name, game) for name, game in corpus_games() if eight_by_eight_numeric(game)]
    for name, game in candidates[::3]:  # a third of them keeps this test at a few seconds
        variant = variant_of(game)
        if (variant.board.width, variant.board.height) != (8, 8):
            continue
        numeric = write_game(game, variant=variant, notation="numeric")
        algebraic = write_game(game, variant=variant, notation="algebraic")
        assert algebraic != numeric, name
        back = write_game(read_game(algebraic), variant=variant, notation="numeric")
        assert back == numeric, name
        checked += 1
    assert checked >= 50


def test_long_games_and_deep_variations_round_trip() -> None:
    game = Game(result="*")
    node = game
    for ply in range(5000):
        node = node.add_variation("32-28" if ply % 2 else "19-23")
    deep = Game(result="*")
    branch = deep.add_variation("32-28")
    for _ in range(200):
        branch.add_variation("19-23")
        branch = branch.add_variation("18-23")
    for record in (game, deep):
        text = write_game(record)
        assert read_game(text).same_record(record)


def test_overlong_line_check_can_fail() -> None:
    assert overlong_lines("1. 32-28 " * 20) != []
    assert overlong_lines("{" + "a " * 50 + "}\n12. " + "b" * 90) == []
    assert overlong_lines("32-28 {" + "a " * 50 + "} 19-23") != []


@pytest.mark.parametrize(
    "text",
    [
        "$1 *",
        '{before the tags}\n[Event "x"]\n{only a comment, no moves} *',
        '/FEN "B:W31:B1"/ *',
        "1. 32-28 ;a line comment with } in it\n19-23 *",
        "1. ... 19-23 2. 32-28 *",
        "32-28 19-23 (18-23 38-32 (37-32? 23-29! { Black wins }) 12-18) 28x19 14x23",
        "1. 32-28 {[%clock w0:10:00 B0:09:58]} 1... 19-23 {[%eval -0.4][%depth 12]} *",
        "1. 32-28 1... {why} 19-23?? $4 2. 28x19(?) *",
    ],
)
def test_quirky_texts_round_trip(text: str) -> None:
    game = read_game(text)
    assert game.raw is None
    written = write_game(game)
    assert read_game(written).same_record(game), written
    assert write_game(read_game(written)) == written
