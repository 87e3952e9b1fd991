"""pdn — read, write, replay and audit draughts game records (PDN) in every variant.

The public API is importable from here; names load on first use, so ``import pdn`` stays cheap
(no engine, lark or rich until a name is used)::

    import pdn
    for game in pdn.read_games("games.pdn"):
        for finding in pdn.audit(game):
            print(finding.to_text())

Module names and function names never clash: ``pdn.audit`` is the function (in
``pdn.arbiter.replay``), ``pdn.engine.resolve`` is the resolver module (``Position.parse_move`` is
its public face).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from pdn.base import hooks as _hooks

#: The one place the version is written (pyproject.toml reads it: ``[tool.hatch.version]``).
__version__ = "0.1.0"

#: Public name -> module that defines it.
_EXPORTS: dict[str, str] = {
    "read_games": "pdn.pdnfile.reader",
    "read_game": "pdn.pdnfile.reader",
    "write_game": "pdn.pdnfile.writer",
    "write_games": "pdn.pdnfile.writer",
    "game_to_json": "pdn.pdnfile.writer",
    "Game": "pdn.game.record",
    "GameNode": "pdn.game.record",
    "GameVisitor": "pdn.game.visitor",
    "MoveNumber": "pdn.game.numbering",
    "Numbering": "pdn.game.numbering",
    "Board": "pdn.engine.geometry",
    "Variant": "pdn.engine.variants",
    "VARIANTS": "pdn.engine.variants",
    "Position": "pdn.engine.position",
    "Piece": "pdn.engine.position",
    "Move": "pdn.engine.movegen",
    "perft": "pdn.engine.movegen",
    "detect_variant": "pdn.arbiter.detect",
    "audit": "pdn.arbiter.replay",
    "Replay": "pdn.arbiter.replay",
    "Played": "pdn.arbiter.replay",
    "Finding": "pdn.base.findings",
    "outcome_of": "pdn.game.tags",
    "PdnError": "pdn.engine.errors",
    "FenError": "pdn.engine.errors",
    "MoveError": "pdn.engine.errors",
    "IllegalMoveError": "pdn.engine.errors",
    "AmbiguousMoveError": "pdn.engine.errors",
    "NotReplayedError": "pdn.engine.errors",
    "check": "pdn.batch.parallel",
    "fix": "pdn.batch.fixing",
    "convert": "pdn.batch.converting",
    "Criteria": "pdn.database.filters",
    "TagTest": "pdn.database.tagfilters",
    "MoveStart": "pdn.database.movestart",
    "Pattern": "pdn.database.patterns",
    "ManoeuvreQuery": "pdn.database.manoeuvres",
    "Picking": "pdn.database.picking",
    "split_games": "pdn.database.splitting",
    "select": "pdn.database.selection",
    "Selected": "pdn.database.selection",
    "write_selected": "pdn.database.selection",
    "dedupe": "pdn.database.dedupe",
    "stats": "pdn.database.stats",
    "Stats": "pdn.database.stats",
    "standings": "pdn.database.standings",
    "Index": "pdn.database.index",
    "report": "pdn.batch.reporting",
    "html": "pdn.database.publishing",
}

__all__ = ["__version__", *_EXPORTS]

if TYPE_CHECKING:
    from pdn.arbiter.detect import detect_variant as detect_variant
    from pdn.arbiter.replay import Played as Played
    from pdn.arbiter.replay import Replay as Replay
    from pdn.arbiter.replay import audit as audit
    from pdn.base.findings import Finding as Finding
    from pdn.batch.converting import convert as convert
    from pdn.batch.fixing import fix as fix
    from pdn.batch.parallel import check as check
    from pdn.batch.reporting import report as report
    from pdn.database.dedupe import dedupe as dedupe
    from pdn.database.filters import Criteria as Criteria
    from pdn.database.index import Index as Index
    from pdn.database.manoeuvres import ManoeuvreQuery as ManoeuvreQuery
    from pdn.database.movestart import MoveStart as MoveStart
    from pdn.database.patterns import Pattern as Pattern
    from pdn.database.picking import Picking as Picking
    from pdn.database.publishing import html as html
    from pdn.database.selection import Selected as Selected
    from pdn.database.selection import select as select
    from pdn.database.selection import write_selected as write_selected
    from pdn.database.splitting import split_games as split_games
    from pdn.database.standings import standings as standings
    from pdn.database.stats import Stats as Stats
    from pdn.database.stats import stats as stats
    from pdn.database.tagfilters import TagTest as TagTest
    from pdn.engine.errors import AmbiguousMoveError as AmbiguousMoveError
    from pdn.engine.errors import FenError as FenError
    from pdn.engine.errors import IllegalMoveError as IllegalMoveError
    from pdn.engine.errors import MoveError as MoveError
    from pdn.engine.errors import NotReplayedError as NotReplayedError
    from pdn.engine.errors import PdnError as PdnError
    from pdn.engine.geometry import Board as Board
    from pdn.engine.movegen import Move as Move
    from pdn.engine.movegen import perft as perft
    from pdn.engine.position import Piece as Piece
    from pdn.engine.position import Position as Position
    from pdn.engine.variants import VARIANTS as VARIANTS
    from pdn.engine.variants import Variant as Variant
    from pdn.game.numbering import MoveNumber as MoveNumber
    from pdn.game.numbering import Numbering as Numbering
    from pdn.game.record import Game as Game
    from pdn.game.record import GameNode as GameNode
    from pdn.game.tags import outcome_of as outcome_of
    from pdn.game.visitor import GameVisitor as GameVisitor
    from pdn.pdnfile.reader import read_game as read_game
    from pdn.pdnfile.reader import read_games as read_games
    from pdn.pdnfile.writer import game_to_json as game_to_json
    from pdn.pdnfile.writer import write_game as write_game
    from pdn.pdnfile.writer import write_games as write_games
    from pdn.views.boardview import BoardView
    from pdn.views.gameview import GameView


def _replayed(game: Game, variant: str | Variant | None, rules: str | None) -> Replay:
    from pdn.arbiter.replay import replay

    return replay(game, variant=variant, rules=rules)


def _game_text(game: Game) -> str:
    from pdn.pdnfile.writer import write_game

    return write_game(game)


def _game_view(game: Game) -> GameView:
    from pdn.views.gameview import GameView

    return GameView(game)


def _board_view(position: Position) -> BoardView:
    from pdn.views.boardview import BoardView

    return BoardView.from_position(position)


# The methods of the lower layers that the upper ones carry out (pdn.base.hooks): lent here,
# at the top, so that no module imports a layer above its own.
_hooks.lend("Game.replayed", _replayed)
_hooks.lend("Game.__str__", _game_text)
_hooks.lend("Game.__rich__", _game_view)
_hooks.lend("Position.__rich__", _board_view)


def __getattr__(name: str) -> Any:
    """Load a public name from its module on first access (PEP 562)."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'pdn' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
