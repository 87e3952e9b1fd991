"""pdn — read, write, replay and audit draughts game records (PDN) in every variant.

The public API is importable from here; names load on first use, so ``import pdn`` stays cheap::

    import pdn
    for game in pdn.read_games("games.pdn"):
        for finding in pdn.audit(game):
            print(finding.to_text())
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

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
    "Board": "pdn.geometry",
    "Variant": "pdn.variants",
    "VARIANTS": "pdn.variants",
    "Position": "pdn.position",
    "Piece": "pdn.position",
    "FenError": "pdn.position",
    "Move": "pdn.movegen",
    "perft": "pdn.movegen",
    "detect_variant": "pdn.detect",
    "Finding": "pdn.findings",
}

# ``audit`` and ``resolve`` share their names with their modules: imported eagerly so that
# ``pdn.audit`` is the function, even after ``import pdn.audit`` elsewhere.
from pdn.replay import audit  # noqa: E402
from pdn.resolve import resolve  # noqa: E402

__all__ = ["__version__", "audit", "resolve", *_EXPORTS]

if TYPE_CHECKING:
    from pdn.detect import detect_variant as detect_variant
    from pdn.findings import Finding as Finding
    from pdn.geometry import Board as Board
    from pdn.movegen import Move as Move
    from pdn.movegen import perft as perft
    from pdn.position import FenError as FenError
    from pdn.position import Piece as Piece
    from pdn.position import Position as Position
    from pdn.reader import read_game as read_game
    from pdn.reader import read_games as read_games
    from pdn.record import Game as Game
    from pdn.record import GameNode as GameNode
    from pdn.variants import VARIANTS as VARIANTS
    from pdn.variants import Variant as Variant
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
