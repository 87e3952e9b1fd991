"""The engine's and the replay's value objects survive ``pickle`` and ``copy`` in both builds
(a Dask or multiprocessing worker sends them back; the compiled build's frozen classes refuse
the default protocol, and an immutable ``Position`` refused it in both)."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import pytest

from pdn.arbiter.detect import Dialect
from pdn.arbiter.replay import replay
from pdn.engine.drawrules import DrawEvent, profile_for
from pdn.engine.resolve import WrittenMove, resolve
from pdn.engine.variants import Variant
from pdn.game.numbering import Numbering
from pdn.pdnfile.reader import read_game

GAME = '[GameType "20"]\n1. 32-28 19-23 2. 28x19 14x23 3. 37-32 *'


def _values() -> dict[str, Any]:
    replayed = replay(read_game(GAME))
    position = replayed.positions[-1]
    profile = profile_for(Variant.from_name("russian"), None)
    return {
        "position": position,
        "move": position.legal_moves[0],
        "board": position.variant.board,
        "variant": position.variant,
        "played": next(iter(replayed.played.values())),
        "resolution": resolve(position, "18-22"),
        "irregular": resolve(position, "1-2"),
        "written move": WrittenMove((32, 28)),
        "dialect": Dialect("playstrategy", rotated=True, split_captures=True),
        "draw profile": profile,
        "quiet rule": profile.quiet[0],
        "ending rule": profile.endings[0],
        "draw event": DrawEvent("repetition", "7.2.3", "threefold repetition", 12),
        "numbering": Numbering(start_number=12, start_turn="B"),
    }


@pytest.mark.parametrize("name", list(_values()))
def test_pickle_and_copy_give_an_equal_value(name: str) -> None:
    value = _values()[name]
    for again in (pickle.loads(pickle.dumps(value)), copy.copy(value), copy.deepcopy(value)):
        assert type(again) is type(value)
        assert again == value


def test_a_pickled_position_plays_on_as_the_original() -> None:
    position = _values()["position"]
    again = pickle.loads(pickle.dumps(position))
    assert again.fen() == position.fen()
    assert again.legal_moves == position.legal_moves
    move = position.legal_moves[-1]
    assert again.play(move) == position.play(move)
