"""pdn.replay as an API: played[node], node.position() / position_after() from one cached replay."""

from __future__ import annotations

import pytest

from pdn.reader import read_game
from pdn.record import GameNode
from pdn.replay import NotReplayedError, replay

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


def test_a_node_outside_a_game_has_no_position() -> None:
    with pytest.raises(TypeError):
        GameNode("32-28").position()
