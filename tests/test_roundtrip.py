"""Round trips: parse(write(g)) == g and write idempotence, on generated records and on every
game of the real corpus (../shared/corpus, skipped when absent); numeric <-> algebraic."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import games

from pdn.reader import read_game, read_games
from pdn.record import Game
from pdn.variants import Variant
from pdn.writer import variant_of, write_game

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
needs_corpus = pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus not present")
WIDTH = 80


@given(games())
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_generated_records_round_trip(game: Game) -> None:
    text = write_game(game)
    again = read_game(text)
    assert [finding for finding in again.findings if finding.code == "syntax"] == [], text
    assert again == game, text
    assert write_game(again) == text  # idempotent


@given(games(max_nodes=60))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_wrapping_keeps_atoms_whole(game: Game) -> None:
    text = write_game(game, width=WIDTH)
    for line in text.splitlines():
        if len(line) > WIDTH:
            assert _single_atom(line), line


@given(games(), st.sampled_from(["international", "english", "russian"]))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_renumbered_and_converted_output_is_stable(game: Game, name: str) -> None:
    variant = Variant.from_name(name)
    for options in ({"move_numbers": "renumber"}, {"notation": "algebraic"},
                    {"notation": "numeric", "captures": "full"}):
        text = write_game(game, variant=variant, **options)  # type: ignore[arg-type]
        assert write_game(read_game(text), variant=variant, **options) == text  # type: ignore[arg-type]


@given(games())
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_numeric_algebraic_numeric_gives_the_same_moves(game: Game) -> None:
    variant = Variant.from_name("international")
    numeric = read_game(write_game(game, variant=variant, notation="numeric"))
    algebraic = write_game(game, variant=variant, notation="algebraic")
    back = read_game(write_game(read_game(algebraic), variant=variant, notation="numeric"))
    assert [node.move for node in back.walk()] == [node.move for node in numeric.walk()]


def _single_atom(line: str) -> bool:
    """True when ``line`` is one unbreakable piece of a written game: a tag line, (part of) a
    comment, or one token with its move number and parentheses."""
    if line.startswith("[") or "{" in line or "}" in line or line.startswith(";"):
        return True
    return re.fullmatch(r"\(*(?:\d+\.(?:\.\.)? )?\S+", line) is not None


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
        if game.raw is None and (again != game or write_game(again) != text):
            failures.append(f"{name} game {game.source.game}")
        if game.raw is not None and text.rstrip("\n") != game.raw.rstrip("\n"):
            failures.append(f"{name} game {game.source.game}: raw text not kept")
    assert count > 1000
    assert failures == []


@needs_corpus
def test_corpus_lines_stay_within_80_columns() -> None:
    for name, game in corpus_games():
        if game.raw is not None:
            continue
        for line in write_game(game).splitlines():
            assert len(line) <= WIDTH or _single_atom(line), (name, line)


def eight_by_eight_numeric(game: Game) -> bool:
    """A cheap pre-filter: a parsed game whose main line uses numeric squares up to 32."""
    if game.raw is not None or not game.variations:
        return False
    squares = [square for move in game.mainline_moves() for square in re.split(r"[-x:]", move)]
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
        assert read_game(text) == record
