"""Findings as compiler-style text lines, for people: what to show and each repeat once.

``TextReport`` takes the findings of one file after another (in file order) and writes the
lines of each file when the next file starts or at ``flush()``. ``info`` findings are shown
only when ``verbose``. A finding repeated across the games of a file (same code, severity and
message, e.g. the same inference for every game) is one line: the first place, then the count
and the games, ``(games 3-57, 55 games)``; repeats inside one game keep their own lines.
JSON output does not come here: it keeps every finding. Memory: one entry per distinct
message of the current file (and the findings of a message while they are in one game).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import TextIO

from pdn.base.findings import Finding

#: Game ranges named in a grouped line, at most (then "...").
SHOWN_RANGES = 6


@dataclass
class MessageGroup:
    """One message of a file: its findings while they are in one game, its count, its games."""

    findings: list[Finding] = field(default_factory=list)  # while they are in one game
    count: int = 0
    games: list[int] = field(default_factory=list)


class TextReport:
    """Writes findings to ``out`` one file at a time (see the module docstring)."""

    def __init__(self, out: TextIO, *, verbose: bool = False) -> None:
        self.out = out
        self.verbose = verbose
        self.file: str | None = None
        self.groups: dict[tuple[str, str | None, str], MessageGroup] = {}
        self.hidden = 0  # info findings left out

    def add(self, findings: Iterable[Finding]) -> None:
        """Take findings (of one game, or of any games of one file, in file order)."""
        for finding in findings:
            if finding.severity == "info" and not self.verbose:
                self.hidden += 1
                continue
            if finding.file != self.file:
                self.flush()
                self.file = finding.file
            key = (finding.code, finding.severity, finding.message)
            group = self.groups.get(key)
            if group is None:
                group = self.groups[key] = MessageGroup()
            group.count += 1
            if finding.game is not None and (not group.games or group.games[-1] != finding.game):
                group.games.append(finding.game)
            if len(group.games) <= 1 or not group.findings:
                group.findings.append(finding)

    def flush(self) -> None:
        """Write the lines of the current file."""
        for group in self.groups.values():
            if len(group.games) <= 1:  # repeats within one game are faults at several plies
                for finding in group.findings:
                    self.out.write(finding.to_text() + "\n")
            else:
                line = grouped_line(group.findings[0], group.count, group.games)
                self.out.write(line + "\n")
        self.groups.clear()

    close = flush


def grouped_line(first: Finding, count: int, games: list[int]) -> str:
    """The text line of a finding seen ``count`` times in ``games`` (its first place)."""
    if count == 1:
        return first.to_text()
    line = replace(first, game=None, ply=None, move=None).to_text()
    where = game_ranges(games)
    times = f", {count} times" if count != len(games) else ""
    return f"{line} ({where}{times})"


def game_ranges(games: list[int]) -> str:
    """``games 1-4, 7, 9-12 (10 games)``-style words for ascending game numbers."""
    if len(games) == 1:
        return f"game {games[0]}"
    ranges: list[tuple[int, int]] = []
    for game in games:
        if ranges and game == ranges[-1][1] + 1:
            ranges[-1] = (ranges[-1][0], game)
        else:
            ranges.append((game, game))
    words = [f"{low}-{high}" if high > low else str(low) for low, high in ranges[:SHOWN_RANGES]]
    if len(ranges) > SHOWN_RANGES:
        words.append("...")
    return f"games {', '.join(words)}, {len(games)} games"
