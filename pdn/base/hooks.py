"""Methods of a lower layer that an upper layer carries out, so no import ever goes up a layer.

``Game.replayed`` (the arbiter), ``Game.__str__`` (the PDN writer), ``Game.__rich__`` and
``Position.__rich__`` (the views) ask this table for the function that does their work;
``pdn/__init__.py``, which runs before any module of the package and sits above every layer,
lends those functions when the package is imported. O(1) per call.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_LENT: dict[str, Callable[..., Any]] = {}


def lend(name: str, function: Callable[..., Any]) -> None:
    """Let the method ``name`` (``"Game.replayed"``, say) call ``function``."""
    _LENT[name] = function


def lent(name: str) -> Callable[..., Any]:
    """The function lent for the method ``name``; ``LookupError`` if none was."""
    try:
        return _LENT[name]
    except KeyError:
        raise LookupError(f"{name} needs pdn's upper layers, which were not loaded") from None
