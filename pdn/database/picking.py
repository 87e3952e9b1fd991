"""Games by number and the selection turned inside out: ``--games``, ``--not``, ``--rest``.

``game_numbers("3,10-20,40-")`` reads the numbers (1 = the first game of the first input,
counting on across the inputs in order); ``Picking.chooses(number, passed)`` is the final
verdict on a game that passed (or failed) the ``Criteria``: inside the numbers, then inverted
with ``--not``. O(ranges) per game.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_RANGE = re.compile(r"^(\d+)(?:\s*(-)\s*(\d+)?)?$")

#: Inclusive (first, last) game numbers; ``last`` is ``None`` for "to the end".
NumberRange = tuple[int, int | None]


def game_numbers(text: str) -> tuple[NumberRange, ...]:
    """``"3,10-20,40-"`` -> ((3, 3), (10, 20), (40, None)); ``ValueError`` naming the form
    for anything else (``0``, ``20-10``, ``a``)."""
    ranges: list[NumberRange] = []
    for part in text.split(","):
        match = _RANGE.match(part.strip())
        first = int(match[1]) if match else 0
        last = (int(match[3]) if match[3] else None) if match and match[2] else first
        if match is None or first < 1 or (last is not None and last < first):
            raise ValueError(
                f"{text!r} is not a list of game numbers: expected e.g. 3,10-20,40- "
                "(numbers from 1, ranges FIRST-LAST, FIRST- to the end)"
            )
        ranges.append((first, last))
    return tuple(ranges)


@dataclass(frozen=True)
class Picking:
    """What ``select`` decides beyond the criteria: ``numbers`` (empty: every game) and
    ``invert`` (``--not``: the games that would not be chosen)."""

    numbers: tuple[NumberRange, ...] = ()
    invert: bool = False

    def chooses(self, number: int, passed: bool) -> bool:
        """Is game ``number`` (from 1, across the inputs) chosen, when the criteria say
        ``passed``?"""
        inside = passed and (
            not self.numbers
            or any(
                first <= number and (last is None or number <= last) for first, last in self.numbers
            )
        )
        return inside != self.invert

    @property
    def last(self) -> int | None:
        """The highest number that can be chosen, or ``None`` when games to the end can."""
        if self.invert or not self.numbers or any(last is None for _, last in self.numbers):
            return None
        return max(last for _, last in self.numbers if last is not None)
