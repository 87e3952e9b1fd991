"""A game span, the unit of work between the scanner and everything that reads games: one
game's text, where it is in its file and its header tags (``Span``), and where a piece of a
file starts (``TextStart``). Frozen dataclasses in a module of their own, so that they pickle
to ``--jobs`` workers and Dask in every build (``pdn.pdnfile.scan``, which makes them, is
compiled in the compiled build; a compiled frozen class cannot be unpickled). Cost: nothing
until ``Span.plies`` is read (one regex pass over the text).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pdn.base.findings import Finding
from pdn.game.record import Source

_RESULTS = r"2-0|0-2|1-1|1-0|0-1|0-0|1/2-1/2|1:0|0:1|1/2:1/2|0:0|\*"
#: A game terminator standing as a word (the first-character check makes the many words that
#: are no result fail at once).
RESULT_WORD = rf"(?=[012*])(?<![\w/\-:.])(?:{_RESULTS})(?![\w/.:-])"
_PLY_TOKENS = re.compile(
    rf"(?P<result>{RESULT_WORD})|(?P<skip>\{{[^}}]*\}}?|;[^\n]*|(?m:^)%[^\n]*"
    r'|\[[^\]\n"]*(?:"[^"\n]*"?)?[^\]\n]*\]?)|(?P<open>\()|(?P<close>\))'
    r"|(?<![^\s.])(?:\d{1,2}[-xX:]|[a-lA-L]\d|[a-lA-L][a-lA-L]\d|--(?!\S)|\d{4}(?!\S))"
)


@dataclass(frozen=True)
class Span:
    """One game's text and where it is (``source``: file, ordinal, line and column, offsets;
    the read game's ``Game.source``). Picklable: the unit of parallel work."""

    text: str
    source: Source = Source()
    tags: tuple[tuple[str, str], ...] = ()
    findings: tuple[Finding, ...] = field(default=())

    @property
    def plies(self) -> int:
        """Approximate main-line plies: move-like words outside tags, comments and
        variations (``- -`` and padded ``1- 6`` miscount); a last word equal to the Result tag
        is the game's score, as the reader reads it. Computed on access, O(len(text))."""
        depth = count = last = 0
        for match in _PLY_TOKENS.finditer(self.text):
            kind = match.lastgroup
            if kind == "open":
                depth += 1
            elif kind == "close":
                depth = max(0, depth - 1)
            elif kind == "result" and not depth:
                break  # the game's end: words after it are a stray fragment
            elif kind is None and not depth:
                count += 1
                last = match.start()
        result = next((value for name, value in self.tags if name == "Result"), None)
        if (
            count
            and result is not None
            and "".join(self.text[last:].split()) == "".join(result.split())
        ):
            count -= 1
        return count


@dataclass(frozen=True)
class TextStart:
    """Where a piece of a file starts, at the start of a line: its line number, and how many
    characters (decoded, byte order mark excluded) and bytes of the file come before it."""

    line: int = 1
    char: int = 0
    byte: int = 0
