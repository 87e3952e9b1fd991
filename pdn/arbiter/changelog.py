"""The repair's plan and change log: what to repair with (``RepairOptions``), every fix and the
finding codes it answers (``FIXES``), one record per change (``Change``) and one repair run
(``RepairWork``: the record being repaired, its log and its one replay, redone only after a
repair changed the moves). The repairs themselves are ``tagrepair``, ``moverepair`` and
``resultrepair``; ``pdn.arbiter.repair`` runs them. Cost: O(1) per change logged;
``on_mainline`` O(plies + findings).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pdn.arbiter.normalize import NORMALIZING_FIXES, option_of
from pdn.base.findings import Finding, Place
from pdn.engine.variants import Variant

if TYPE_CHECKING:
    from pdn.arbiter.replay import Replay
    from pdn.game.record import Game, GameNode

FIXES: dict[str, tuple[str, ...]] = {
    "encoding": ("encoding",),
    "junk": ("syntax",),
    "tag-space": ("tag",),
    "empty-tag": ("tag",),
    "date": ("tag",),
    "split-capture": ("variant",),
    "capture-sign": ("notation",),
    "capture-path": ("ambiguous-move",),
    "cut-after-end": ("moves-after-end",),
    "cut-irregular": ("illegal-move", "missed-capture", "capture-rule"),
    "move-number": ("move-number",),
    "gametype": ("variant",),
    "result-board": ("result",),
    "result-tag": ("result",),
    "missing-result-tag": ("result",),
    "result-style": ("result",),
}
UNDECIDED = "cannot be decided"
NO_TAGS = "a game without tags cannot get any (the tagless games after it would join it)"


@dataclass(frozen=True)
class RepairOptions:
    """What to repair with: the variant of games without a usable GameType (``--variant``),
    a draw-rules profile name, the codes or fix names to limit the repairs to (``None``: all),
    the two cut options, and the ``--normalize`` names (``pdn.arbiter.normalize``) whose
    fixes run (none by default: they tidy valid spellings)."""

    variant: Variant | None = None
    rules: str | None = None
    only: frozenset[str] | None = None
    cut_irregular: bool = False
    cut_after_end: bool = False
    normalize: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Change(Place):
    """One record of the change log: where (a finding's ``Place`` fields), which ``fix``,
    ``before`` and ``after``; ``after is None`` for a problem logged but not changed (``note``
    says why, starting with "cannot be decided")."""

    fix: str
    code: str | None
    before: str | None
    after: str | None
    note: str | None = None

    @property
    def changed(self) -> bool:
        """True for a change, False for a problem logged as undecided."""
        return self.after is not None

    def to_dict(self) -> dict[str, Any]:
        """The JSON Lines object: finding fields, then fix, before, after, note."""
        return {
            **self.place_fields(),
            "code": self.code,
            "fix": self.fix,
            "before": self.before,
            "after": self.after,
            "note": self.note,
        }

    def to_text(self) -> str:
        """A compiler-style line: ``file:line:col: fix[name] game 3 ply 5: 'a' -> 'b'``."""
        place, context = self.place_text()
        before = "(none)" if self.before is None else self.before
        what = f"{before} -> {self.after or '(removed)'}" if self.changed else f"{before} kept"
        note = f" ({self.note})" if self.note else ""
        return f"{place}: fix[{self.fix}]{context}: {what}{note}"


@dataclass
class RepairWork:
    """One repair run: the record being repaired, the options, the log and the replay."""

    game: Game
    options: RepairOptions
    changes: list[Change] = field(default_factory=list)
    stale: bool = True  # the moves changed since the game's kept replay was made
    dirty: bool = False  # a change was made since the kept replay was made

    @property
    def replay(self) -> Replay:
        """The game's replay (``Game.replayed``) as the record is now (redone after
        ``moved``)."""
        replayed = self.game.replayed(
            variant=self.options.variant, rules=self.options.rules, fresh=self.stale
        )
        if self.stale:
            self.stale = self.dirty = False
        return replayed

    def moved(self) -> None:
        """The record changed: the next ``replay`` replays again."""
        self.stale = True

    def allowed(self, fix: str) -> bool:
        """True when ``fix`` runs: chosen by ``--only`` (or no ``--only``), and for a
        normalizing fix, its ``--normalize`` name given."""
        options = self.options
        if fix in NORMALIZING_FIXES and option_of(fix) not in options.normalize:
            return False
        only = options.only
        return only is None or fix in only or not only.isdisjoint(FIXES[fix])

    def log(
        self,
        fix: str,
        before: str | None,
        after: str | None,
        *,
        node: GameNode | None = None,
        ply: int | None = None,
        note: str | None = None,
        code: str | None = None,
    ) -> None:
        self.dirty = self.dirty or after is not None
        source = self.game.source
        line = node.line if node is not None and node.line else source.line
        column = node.column if node is not None and node.column else source.column
        self.changes.append(
            Change(
                fix,
                code or next(iter(FIXES[fix]), None),
                before,
                after,
                file=source.file,
                game=source.game,
                ply=ply,
                move=node.move_text if node is not None else None,
                line=line,
                column=column,
                note=note,
            )
        )

    def findings(self, *codes: str) -> list[Finding]:
        return [finding for finding in self.replay.findings if finding.code in codes]


def tag_text(name: str, value: str) -> str:
    return f'[{name} "{value}"]'


def on_mainline(
    game: Game, replayed: Replay, codes: Collection[str]
) -> list[tuple[Finding, GameNode]]:
    """The findings of ``codes`` at main-line moves, in file order, with their nodes (matched
    by ply, move text, line and column, as the replay locates findings). O(plies + findings)."""
    nodes: dict[tuple[int | None, str | None, int | None, int | None], GameNode] = {}
    ply = 0
    for node in game.mainline():
        played = replayed.played.get(node)
        ply = played.ply if played is not None else ply + 1
        nodes.setdefault((ply, node.move_text, node.line or None, node.column or None), node)
    found = []
    for finding in replayed.findings:
        at = nodes.get((finding.ply, finding.move, finding.line, finding.column))
        if finding.code in codes and at is not None:
            found.append((finding, at))
    return found
