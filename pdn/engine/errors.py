"""The toolkit's exceptions: one base, ``PdnError``, for everything pdn raises on purpose.

Bad *files* never raise (they become findings); these are for the library API: a FEN or a
move given in code that cannot be read or played, a position asked of a node the replay did
not reach. Each also derives from the built-in exception it refines (``ValueError``,
``LookupError``), so ``except ValueError`` in older callers keeps working.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pdn.engine.movegen import Move


class PdnError(Exception):
    """Base of every exception pdn raises on purpose."""


class FenError(PdnError, ValueError):
    """A FEN that cannot be read; ``str(error)`` is the reason in words."""


class MoveError(PdnError, ValueError):
    """A written move that does not name exactly one legal move in a position.

    ``text``: the move as given; ``code``: the resolver's finding code (``illegal-move``,
    ``missed-capture``, ``capture-rule``, ``ambiguous-move``); ``reason``: its words;
    ``candidates``: the legal moves in question (the matches of an ambiguous move, else the
    legal alternatives).
    """

    def __init__(self, text: str, code: str, reason: str, candidates: tuple[Move, ...]) -> None:
        super().__init__(f"{text}: {reason}" if reason else text)
        self.text = text
        self.code = code
        self.reason = reason
        self.candidates = candidates


class IllegalMoveError(MoveError):
    """The move is not legal here (no such move, a capture missed, a capture rule broken)."""


class AmbiguousMoveError(MoveError):
    """The move fits several legal captures; ``candidates`` are the readings."""


class NotReplayedError(PdnError, LookupError):
    """Asked for the position at a node the replay did not reach; the message says why."""
