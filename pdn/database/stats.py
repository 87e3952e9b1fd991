"""Counts over a game database: per variant, per player, per file.

``Stats.add(facts)`` takes one replayed game (``pdn.database.gamefacts.GameFacts``);
``Stats.tables()`` gives the three tables as rows of plain values (for rich tables, JSON and CSV
alike):

- per variant: games, the share of first-player wins, second-player wins and draws (over
  games with a known result), average length in plies, and the most played first moves (games
  from the variant's start position) with the first player's score after each;
- per player (names compared with ``pdn.database.names.name_key``, shown as most often written):
  games, wins, draws, losses, score (wins + half the draws, over games with a result);
- per file: games and findings by severity.

``Stats.name_variants()`` proposes a names file from the spellings merged per player.

``stats(paths)`` fills one over the games of files and folders.

Memory: O(variants + players + files + distinct first moves); cost O(1) per game.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache, partial
from typing import Any

from pdn.base.paths import PathError
from pdn.database.gamefacts import GameFacts
from pdn.database.names import name_key, names_file_text
from pdn.engine.position import Position
from pdn.engine.variants import Variant
from pdn.engine.zobrist import position_key

#: First moves listed per variant, at most.
FIRST_MOVES = 5


@cache
def _start_key(variant: str) -> int:
    return position_key(Position.initial(Variant.from_name(variant)))


@dataclass
class _Results:
    """Games and results from one side's point of view (or the first player's)."""

    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0

    def add(self, points: float | None) -> None:
        self.games += 1
        if points == 1:
            self.wins += 1
        elif points == 0.5:
            self.draws += 1
        elif points == 0:
            self.losses += 1

    @property
    def decided(self) -> int:
        return self.wins + self.draws + self.losses

    def share(self, count: int) -> float | None:
        return round(count / self.decided, 4) if self.decided else None

    @property
    def score(self) -> float | None:
        return round((self.wins + self.draws / 2) / self.decided, 4) if self.decided else None


@dataclass
class Stats:
    """The running counts; see the module docstring."""

    variants: dict[str, _Results] = field(default_factory=lambda: defaultdict(_Results))
    plies: Counter[str] = field(default_factory=Counter)
    first_moves: dict[str, dict[str, _Results]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(_Results))
    )
    players: dict[str, _Results] = field(default_factory=lambda: defaultdict(_Results))
    spellings: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    files: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))

    def add(self, facts: GameFacts) -> None:
        """Count one game. O(tags + findings)."""
        first_points = _points(facts, facts.first_mover)
        self.variants[facts.variant].add(first_points)
        self.plies[facts.variant] += facts.plies
        if facts.moves and facts.keys[0] == _start_key(facts.variant):
            self.first_moves[facts.variant][facts.moves[0]].add(first_points)
        for colour, tag in (("W", "White"), ("B", "Black")):
            name = facts.tag(tag)
            key = name_key(name)
            if name and key:
                self.players[key].add(_points(facts, colour))
                self.spellings[key][name.strip()] += 1
        counts = self.files[facts.file or "<stdin>"]
        counts["games"] += 1
        for finding in facts.findings:
            counts[finding.severity or "error"] += 1

    def name_variants(self) -> str:
        """A names file (``pdn.database.names.names_file_text``) of the players written more
        than one way, as ``fix --names`` reads it. O(spellings)."""
        return names_file_text(self.spellings.values())

    def tables(self, *, players: int = 0) -> dict[str, list[dict[str, Any]]]:
        """The three tables as lists of rows; ``players`` > 0 keeps that many players (most
        games first)."""
        variants = []
        for name, results in sorted(self.variants.items(), key=lambda item: -item[1].games):
            moves = sorted(
                self.first_moves[name].items(), key=lambda item: (-item[1].games, item[0])
            )
            variants.append(
                {
                    "variant": name,
                    "games": results.games,
                    "first_wins": results.share(results.wins),
                    "second_wins": results.share(results.losses),
                    "draws": results.share(results.draws),
                    "average_plies": round(self.plies[name] / results.games, 1),
                    "first_moves": [
                        {"move": move, "games": line.games, "score": line.score}
                        for move, line in moves[:FIRST_MOVES]
                    ],
                }
            )
        ranked = sorted(self.players.items(), key=lambda item: (-item[1].games, item[0]))
        if players > 0:
            ranked = ranked[:players]
        people = [
            {
                "player": self.spellings[key].most_common(1)[0][0],
                "games": results.games,
                "wins": results.wins,
                "draws": results.draws,
                "losses": results.losses,
                "score": results.score,
            }
            for key, results in ranked
        ]
        files = [
            {
                "file": name,
                "games": counts["games"],
                "error": counts["error"],
                "warning": counts["warning"],
                "info": counts["info"],
            }
            for name, counts in self.files.items()
        ]
        return {"variants": variants, "players": people, "files": files}


def stats(
    paths: Iterable[str],
    *,
    variant: str | None = None,
    jobs: int = 1,
    on_error: Callable[[PathError], object] | None = None,
) -> Stats:
    """The counts over every game of ``paths`` (files, folders, ``-`` for stdin). ``variant``
    for games without a usable GameType; ``jobs`` processes parse and replay (0: every core);
    a path that cannot be read goes to ``on_error`` and is skipped. One parse and replay per
    game."""
    from pdn.batch.parallel import map_paths
    from pdn.database.index import facts_of_spans

    counts = Stats()
    for item in map_paths(paths, partial(facts_of_spans, variant=variant), jobs=jobs):
        if isinstance(item, PathError):
            if on_error is not None:
                on_error(item)
        else:
            counts.add(item)
    return counts


def _points(facts: GameFacts, colour: str) -> float | None:
    """1, 0.5 or 0 for ``colour`` in this game; ``None`` when the result is unknown."""
    winner = facts.winner
    if winner is None:
        return None
    if winner == "D":
        return 0.5
    return 1.0 if winner == colour else 0.0
