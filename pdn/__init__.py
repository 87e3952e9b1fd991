"""pdn — read, write, replay and audit draughts game records (PDN) in every variant.

The public API is importable from here; names load on first use, so ``import pdn`` stays cheap
(no engine, lark or rich until a name is used)::

    import pdn
    for game in pdn.read_games("games.pdn"):
        for finding in pdn.audit(game):
            print(finding.to_text())

Module names and function names never clash: ``pdn.audit`` is the function (in ``pdn.replay``),
``pdn.resolve`` is the resolver module (``Position.parse_move`` is its public face).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

#: The one place the version is written (pyproject.toml reads it: ``[tool.hatch.version]``).
__version__ = "0.1.0"

#: Public name -> module that defines it.
_EXPORTS: dict[str, str] = {
    "read_games": "pdn.reader",
    "read_game": "pdn.reader",
    "write_game": "pdn.writer",
    "write_games": "pdn.writer",
    "game_to_json": "pdn.writer",
    "Game": "pdn.record",
    "GameNode": "pdn.record",
    "GameVisitor": "pdn.visitor",
    "MoveNumber": "pdn.numbering",
    "Numbering": "pdn.numbering",
    "Board": "pdn.geometry",
    "Variant": "pdn.variants",
    "VARIANTS": "pdn.variants",
    "Position": "pdn.position",
    "Piece": "pdn.position",
    "Move": "pdn.movegen",
    "perft": "pdn.movegen",
    "detect_variant": "pdn.detect",
    "audit": "pdn.replay",
    "Replay": "pdn.replay",
    "Played": "pdn.replay",
    "Finding": "pdn.findings",
    "outcome_of": "pdn.tags",
    "PdnError": "pdn.errors",
    "FenError": "pdn.errors",
    "MoveError": "pdn.errors",
    "IllegalMoveError": "pdn.errors",
    "AmbiguousMoveError": "pdn.errors",
    "NotReplayedError": "pdn.errors",
}

__all__ = ["__version__", *_EXPORTS]

if TYPE_CHECKING:
    from pdn.detect import detect_variant as detect_variant
    from pdn.errors import AmbiguousMoveError as AmbiguousMoveError
    from pdn.errors import FenError as FenError
    from pdn.errors import IllegalMoveError as IllegalMoveError
    from pdn.errors import MoveError as MoveError
    from pdn.errors import NotReplayedError as NotReplayedError
    from pdn.errors import PdnError as PdnError
    from pdn.findings import Finding as Finding
    from pdn.geometry import Board as Board
    from pdn.movegen import Move as Move
    from pdn.movegen import perft as perft
    from pdn.numbering import MoveNumber as MoveNumber
    from pdn.numbering import Numbering as Numbering
    from pdn.position import Piece as Piece
    from pdn.position import Position as Position
    from pdn.reader import read_game as read_game
    from pdn.reader import read_games as read_games
    from pdn.record import Game as Game
    from pdn.record import GameNode as GameNode
    from pdn.replay import Played as Played
    from pdn.replay import Replay as Replay
    from pdn.replay import audit as audit
    from pdn.tags import outcome_of as outcome_of
    from pdn.variants import VARIANTS as VARIANTS
    from pdn.variants import Variant as Variant
    from pdn.visitor import GameVisitor as GameVisitor
    from pdn.writer import game_to_json as game_to_json
    from pdn.writer import write_game as write_game
    from pdn.writer import write_games as write_games


def __getattr__(name: str) -> Any:
    """Load a public name from its module on first access (PEP 562)."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'pdn' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
