"""Text carried with comments: commands (``[%clk 0:05:00]``, ``[%eval 0.3]``) as parsed
values, and ``EscapeLine`` (a ``%`` line kept among a node's comments).

``commands_in(comment)`` finds them; ``Command.value`` holds the parsed value of the known
ones. Pure text work, O(len(comment)); the record (``pdn.game.record``), the reader and the writer
use it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

COMMAND_PATTERN = re.compile(r"\[%([A-Za-z_][A-Za-z0-9_]*)\s*([^\]]*)\]")
_TIME_PATTERN = re.compile(r"^(?:(\d+):)?(\d{1,2}):(\d{1,2}(?:\.\d+)?)$")
_CLOCK_ITEM = re.compile(r"([wWbB])\s*(\d+:\d{1,2}(?::\d{1,2}(?:\.\d+)?)?)")
_TIME_COMMANDS = frozenset({"clk", "emt", "egt", "mct"})


def parse_time(text: str) -> float | None:
    """Seconds in ``h:mm:ss``, ``h:mm:ss.f`` or ``mm:ss`` (``None`` when not a time). O(len)."""
    match = _TIME_PATTERN.match(text.strip())
    if not match:
        return None
    hours, minutes, seconds = match.groups()
    return int(hours or 0) * 3600 + int(minutes) * 60 + float(seconds)


@dataclass(frozen=True)
class ClockReading:
    """One clock of a ``[%clock ...]`` command: side ``"W"``/``"B"``, seconds, running or not."""

    side: str
    seconds: float
    running: bool


@dataclass(frozen=True)
class Command:
    """An embedded ``[%name text]`` command of a comment; ``value`` is parsed when known.

    ``value``: ``eval`` -> float (pawn units); ``clk``/``emt``/``egt``/``mct`` -> seconds;
    ``clock`` -> tuple of ``ClockReading`` (upper-case side letter = that clock runs);
    anything else or unparsable -> ``None``. Equality compares ``name`` and ``text``.
    """

    name: str
    text: str
    value: Any = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "value", _command_value(self.name.lower(), self.text))


def _command_value(name: str, text: str) -> Any:
    if name == "eval":
        try:
            return float(text.split()[0]) if text.split() else None
        except ValueError:
            return None
    if name in _TIME_COMMANDS:
        return parse_time(text)
    if name == "clock":
        readings = []
        for side, time in _CLOCK_ITEM.findall(text):
            seconds = parse_time(time)
            if seconds is not None:
                readings.append(ClockReading(side.upper(), seconds, side.isupper()))
        return tuple(readings) or None
    return None


def commands_in(comment: str) -> list[Command]:
    """Every ``[%name text]`` command embedded in a comment text, in order. O(len)."""
    return [Command(name, text) for name, text in command_spellings_in(comment)]


def command_spellings_in(comment: str) -> list[tuple[str, str]]:
    """``(name, text)`` of each of ``commands_in(comment)``, what a ``Command`` compares by,
    without parsing their values. O(len)."""
    if "[%" not in comment:
        return []
    return [(name, text.strip()) for name, text in COMMAND_PATTERN.findall(comment)]


class EscapeLine(str):
    """A ``%`` escape line of the source (``%`` included), kept among a node's comments in
    reading order; written back on a line of its own. Compares equal to its text."""

    __slots__ = ()
