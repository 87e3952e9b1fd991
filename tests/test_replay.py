"""pdn.arbiter.replay as an API: played[node], node.position() / position_after() from one cached
replay."""

from __future__ import annotations

from importlib.machinery import EXTENSION_SUFFIXES

import pytest

import pdn.arbiter.replay
from pdn.arbiter.replay import replay
from pdn.engine.errors import NotReplayedError
from pdn.game.record import Game, GameNode
from pdn.pdnfile.reader import read_game

INTERNATIONAL = '[GameType "20"]\n'


def test_played_is_keyed_by_node_and_positions_chain() -> None:
    game = read_game(INTERNATIONAL + "1. 32-28 19-23 (18-23 2. 28x19) 2. 28x19 14x23 *")
    replayed = replay(game)
    first, second = game.next(), game.next().next()  # type: ignore[union-attr]
    assert first is not None and second is not None
    side = first.variations[1]
    assert replayed.played[first].after is replayed.played[second].before
    assert replayed.played[side].before is replayed.played[second].before
    assert replayed.played[side].ply == 2
    assert [node.position_after() for node in game.mainline()] == replayed.positions[1:]
    assert game.position() is game.position_after() is replayed.positions[0]


def test_positions_come_from_one_cached_replay() -> None:
    game = read_game(INTERNATIONAL + "1. 32-28 19-23 *")
    kept = game.replayed()
    assert game.replayed() is kept and game.end().position() is kept.played[game.end()].before
    russian = game.replayed(variant="russian")
    assert russian is not kept and game.replayed() is russian  # no arguments: the kept one
    assert game.replayed(fresh=True) is not russian


def test_a_node_the_replay_did_not_reach_says_why() -> None:
    game = read_game(INTERNATIONAL + "1. 32-28 19-24 2. 28x19 3. 33-29 *")
    stuck = game.end().parent  # 28x19: nothing on 19 to capture, not a piece movement either
    assert stuck is not None and stuck.position().turn == "W"  # reached, played from here
    with pytest.raises(NotReplayedError, match="33-29.*ply 3 \\(28x19\\) cannot be played"):
        game.end().position()


def test_node_move_is_the_resolved_move_of_the_cached_replay() -> None:
    game = read_game(INTERNATIONAL + "1. 32-28 19-23 (17-22 2. 28x17) 2. 28x19 14x23 *")
    assert game.move is None
    nodes = list(game.walk())
    replayed = game.replayed()
    assert [node.move for node in nodes] == [replayed.played[node].move for node in nodes]
    capture = game.end().parent
    assert capture is not None and capture.move_text == "28x19"
    assert capture.move is not None
    assert (capture.move.path, capture.move.captures) == ((28, 19), (23,))
    assert game.replayed() is replayed  # asking moves did not replay again


def test_reading_a_game_never_replays_it(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import pdn.arbiter.replay

    calls = []
    real = pdn.arbiter.replay.replay

    def counted(*args: object, **kwargs: object) -> object:
        calls.append(args)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(pdn.arbiter.replay, "replay", counted)
    game = read_game(INTERNATIONAL + "1. 32-28 19-23 2. 28x19 14x23 *")
    assert [node.move_text for node in game.walk()] == ["32-28", "19-23", "28x19", "14x23"]
    assert calls == []
    assert [node.move.path for node in game.mainline()] == [  # type: ignore[union-attr]
        (32, 28),
        (19, 23),
        (28, 19),
        (14, 23),
    ]
    assert len(calls) == 1


def test_a_node_the_replay_did_not_play_has_no_move() -> None:
    game = read_game(INTERNATIONAL + "1. 32-28 19-24 2. 28x19 3. 33-29 *")
    stuck = game.end().parent  # 28x19: nothing on 19 to capture, not a piece movement either
    assert stuck is not None and stuck.parent is not None and stuck.parent.move is not None
    with pytest.raises(NotReplayedError, match="28x19.*cannot be played"):
        _ = stuck.move
    with pytest.raises(NotReplayedError, match="33-29.*ply 3 \\(28x19\\) cannot be played"):
        _ = game.end().move


def test_a_node_outside_a_game_has_no_position() -> None:
    with pytest.raises(TypeError):
        GameNode("32-28").position()
    root = GameNode()
    with pytest.raises(TypeError):
        _ = root.add_variation("32-28").move
    assert root.move is None


@pytest.mark.skipif(
    (pdn.arbiter.replay.__file__ or "").endswith(tuple(EXTENSION_SUFFIXES)),
    reason="compiled build: its replay calls Position.play directly, never the patched method",
)
def test_an_engine_fault_is_an_internal_error_never_an_illegal_move(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from pdn.engine.position import Position

    def broken(self: Position, move: object) -> Position:
        raise RuntimeError("engine bug")

    monkeypatch.setattr(Position, "play", broken)
    game = read_game(INTERNATIONAL + "1. 32-28 19-23 *")
    codes = {finding.code for finding in replay(game).findings}
    assert "internal-error" in codes and "illegal-move" not in codes


def test_position_api_raises_typed_errors() -> None:
    from pdn.engine.errors import AmbiguousMoveError, IllegalMoveError, PdnError
    from pdn.engine.position import Position
    from pdn.engine.variants import Variant

    start = Position.initial(Variant.from_name("international"))
    with pytest.raises(IllegalMoveError) as raised:
        start.parse_move("32-23")
    assert isinstance(raised.value, PdnError) and raised.value.code == "illegal-move"
    assert raised.value.candidates  # the legal alternatives
    with pytest.raises(IllegalMoveError):
        start.push(start.parse_move("32-28").__class__(path=(32, 23), captures=(), promotes=False))
    ambiguous = Position.from_fen("W:WK47:B14,19,29,31,42", Variant.from_name("international"))
    with pytest.raises(AmbiguousMoveError) as two:  # RULES.md T14: two different captures
        ambiguous.parse_move("47x36")
    assert two.value.code == "ambiguous-move" and len(two.value.candidates) == 2


def _shipped_corpus_and_a_misplaced_variation() -> list[Game]:
    """Every game of the shipped corpus (dialects, irregular records, generated games of
    every variant) and a lidraughts variation that stands after the move it replaces."""
    from pathlib import Path

    from pdn.pdnfile.reader import read_games

    folder = Path(__file__).resolve().parents[1] / "corpus"
    games = [game for path in sorted(folder.rglob("*.pdn")) for game in read_games(path)]
    games.append(read_game(INTERNATIONAL + "1. 32-28 (1... 17-21) 19-23 2. 28x19 14x23 *"))
    assert len(games) > 100
    return games


def test_audited_keeps_the_variant_plies_and_findings_of_the_replay() -> None:
    """``audited`` (pdn check's unit) skips the Played records, never a finding: on every game
    of the shipped corpus (dialects, irregular records, generated games of every variant)
    and on a lidraughts variation that stands after the move it replaces."""
    from pdn.arbiter.replay import audited

    games = _shipped_corpus_and_a_misplaced_variation()
    misplaced = 0
    for game in games:
        replayed = replay(game)
        kept = audited(game)
        assert (kept.variant, kept.plies, kept.findings) == (
            replayed.variant,
            replayed.plies,
            replayed.findings,
        )
        misplaced += any("lidraughts writes" in finding.message for finding in kept.findings)
    assert misplaced >= 1


def test_played_moves_keeps_the_variant_dialect_and_every_played_record_of_the_replay() -> None:
    """``played_moves`` (the writer's unit) skips the findings and their bookkeeping, never a
    played move: the same records as ``replay`` on every game of the shipped corpus and on a
    misplaced lidraughts variation, as detected and read exactly as Russian (irregular moves
    applied as played, lines that stop)."""
    from pdn.arbiter.replay import played_moves

    games = _shipped_corpus_and_a_misplaced_variation()
    records = 0
    for game in games:
        for variant, exact in ((None, False), ("russian", True)):
            replayed = replay(game, variant=variant, exact=exact)
            kept = played_moves(game, variant=variant, exact=exact)
            assert (kept.variant, kept.dialect, kept.played) == (
                replayed.variant,
                replayed.dialect,
                replayed.played,
            )
            records += len(kept.played)
    assert records > 1000
