"""Tournament standings from game files: per event, each player's games, wins, draws, losses,
points, rank and tie-break, and a crosstable for round robins.

Only headers are read (``pdn.pdnfile.scan.iter_spans``: White, Black, Event, Result and
GameType tags, and the terminator, which counts first as in ``pdn.database.gamefacts``); a game
without a usable GameType is parsed to infer its variant (``pdn.arbiter.detect``), never
replayed. Games are grouped by Event (case and spacing ignored) and variant; players by
``pdn.database.names.name_key``, shown as most often written; within an event, a name whose
words all match one other player's only (``name_matches``: ``Ndjofang, J.`` in an event with
``Ndjofang, J.M.``), who never met it, is that player.

- **Scoring**: points for a win, a draw and a loss; by default the variant's (FMJD's 2-1-0 where
  results are written ``2-0``/``1-1``: 10x10 and 12x12; 1-½-0 elsewhere), whatever spelling the
  file uses (``1-0`` on 10x10 is a win worth 2). A ``0-0`` (both lost) is a loss for both.
- **System**: a round robin when every two players met (as often as each other: a double round
  robin twice), else a Swiss event; ``system`` forces one.
- **Tie-break**: Sonneborn-Berger for a round robin (the points of each opponent, times the
  share of that game the player won: all of it, half for a draw), Buchholz for a Swiss event
  (the points of every opponent met). Equal points and tie-break share a rank.
- Games without a result (``*``, no Result tag) are counted apart (per player and per event),
  as are games without two known players (a missing or placeholder name, or one name twice).
- A game read twice (the same players, Date, Round and movetext: two files of one tournament)
  counts once; the copies are counted apart.

Cost: one scan of each file, O(games) memory for the pairings of the events kept.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import Any, BinaryIO, Literal

from pdn.arbiter.detect import detect_variant
from pdn.base.paths import PathError, walk_paths
from pdn.database.names import PARTICLES, name_key, name_matches
from pdn.engine.variants import Variant, as_variant, variant_from_gametype
from pdn.game.tags import KNOWN_SPELLINGS, outcome_of, tag_value
from pdn.pdnfile.reader import parse_span
from pdn.pdnfile.scan import iter_spans, stdin_bytes
from pdn.pdnfile.span import Span

#: Points for a win, a draw and a loss.
Scoring = tuple[float, float, float]
#: FMJD's scoring (10x10), and the 8x8 federations' one.
FMJD_SCORING: Scoring = (2.0, 1.0, 0.0)
ONE_HALF_ZERO: Scoring = (1.0, 0.5, 0.0)
System = Literal["round-robin", "swiss"]
TIEBREAKS: dict[System, str] = {"round-robin": "Sonneborn-Berger", "swiss": "Buchholz"}
#: A game's result from White's side: a win, a draw, a loss, both lost (0-0), or unknown.
Score = Literal["W", "D", "L", "none"]
_SCORING = re.compile(r"^\s*(\d+(?:\.\d+)?|½)\s*-\s*(\d+(?:\.\d+)?|½)\s*-\s*(\d+(?:\.\d+)?|½)\s*$")


def parse_scoring(text: str) -> Scoring:
    """``"2-1-0"``, ``"1-0.5-0"``, ``"1-½-0"``, ``"3-1-0"`` as (win, draw, loss) points;
    ValueError with the reason otherwise."""
    match = _SCORING.match(text)
    if match is None:
        raise ValueError(f"{text!r} is not WIN-DRAW-LOSS points (2-1-0, 1-0.5-0, 3-1-0)")
    win, draw, loss = (0.5 if part == "½" else float(part) for part in match.groups())
    return win, draw, loss


def scoring_of(variant: Variant) -> Scoring:
    """The variant's own scoring: 2-1-0 where results are written 2-0/1-1/0-2, else 1-½-0."""
    return FMJD_SCORING if variant.result_style == "international" else ONE_HALF_ZERO


@dataclass(frozen=True)
class Pairing:
    """One game of an event: the players' name keys and White's result (None: unknown)."""

    white: str
    black: str
    score: Score | None


@dataclass
class Line:
    """One player's row of the standings."""

    player: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    points: float = 0.0
    tiebreak: float = 0.0
    rank: int = 0
    without_result: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "player": self.player,
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "points": self.points,
            "tiebreak": self.tiebreak,
            "without_result": self.without_result,
        }


@dataclass
class EventStandings:
    """The standings of one event. ``lines`` are in rank order; ``crosstable`` (round robins
    only) has a row per line and in it, per opponent in the same order, the points the row's
    player scored in each of their games, None for a game without a result (empty on the
    diagonal and for pairs that did not meet)."""

    event: str
    variant: str
    scoring: Scoring
    system: System
    lines: list[Line]
    crosstable: list[list[list[float | None]]] | None
    games: int
    without_result: int
    without_players: int
    duplicates: int

    @property
    def tiebreak(self) -> str:
        return TIEBREAKS[self.system]

    def to_dict(self) -> dict[str, Any]:
        """The standings as plain values (JSON, CSV and ``pdn.views.standingsview``)."""
        return {
            "event": self.event,
            "variant": self.variant,
            "scoring": list(self.scoring),
            "system": self.system,
            "tiebreak": self.tiebreak,
            "games": self.games,
            "without_result": self.without_result,
            "without_players": self.without_players,
            "duplicates": self.duplicates,
            "standings": [line.to_dict() for line in self.lines],
            "crosstable": self.crosstable,
        }


@dataclass
class _Event:
    """The games of one event as they are read."""

    names: Counter[str] = field(default_factory=Counter)
    pairings: list[Pairing] = field(default_factory=list)
    without_players: int = 0
    seen: set[bytes] = field(default_factory=set)  # ``_copy_key`` of each game counted
    duplicates: int = 0


def standings(
    paths: Iterable[str],
    *,
    event: str | None = None,
    scoring: Scoring | None = None,
    system: System | None = None,
    variant: str | None = None,
    on_error: Callable[[PathError], object] | None = None,
) -> list[EventStandings]:
    """The standings of every event of ``paths`` (files, folders, ``-`` for stdin), in order of
    first appearance; ``event`` keeps the events whose name contains it (any case);
    ``scoring`` replaces each variant's own; ``system`` forces round robin or Swiss;
    ``variant`` for games without a usable GameType; a path that cannot be read goes to
    ``on_error`` and is skipped. One header scan per file (see the module docstring)."""
    override = None if variant is None else as_variant(variant)
    events: dict[tuple[str, str], _Event] = {}
    spellings: dict[str, Counter[str]] = defaultdict(Counter)
    for span in _spans(paths, on_error):
        name = (tag_value(span.tags, "Event", aliases=True) or "").strip()
        if event is not None and event.casefold() not in name.casefold():
            continue
        played_in = _variant_of(span, override)
        key = (" ".join(name.casefold().split()), played_in.name)
        found = events.setdefault(key, _Event())
        found.names[name] += 1
        players = []
        for tag in ("White", "Black"):
            written = (tag_value(span.tags, tag, aliases=True) or "").strip()
            players.append(name_key(written))
            if players[-1]:
                spellings[players[-1]][written] += 1
        if not all(players) or players[0] == players[1]:
            found.without_players += 1
            continue
        copy = _copy_key(span, players)
        if copy is not None and copy in found.seen:
            found.duplicates += 1
            continue
        if copy is not None:
            found.seen.add(copy)
        found.pairings.append(Pairing(players[0], players[1], _white_score(span, played_in)))
    return [
        _standings(found, variant_name, spellings, scoring, system)
        for (_, variant_name), found in events.items()
    ]


def _spans(paths: Iterable[str], on_error: Callable[[PathError], object] | None) -> Iterator[Span]:
    """The spans of every file of ``paths`` in turn; what cannot be read goes to
    ``on_error``."""
    for item in walk_paths(paths):
        if isinstance(item, PathError):
            if on_error is not None and not item.skipped:
                on_error(item)
            continue
        try:
            with ExitStack() as stack:
                source: BinaryIO = (
                    stdin_bytes() if item == "-" else stack.enter_context(open(item, "rb"))
                )
                yield from iter_spans(source, name="<stdin>" if item == "-" else item)
        except OSError as error:
            if on_error is not None:
                on_error(PathError(item, error.strerror or str(error)))


_TAG_LINES = re.compile(r"^[ \t]*(?:\[[^\]\r\n]*\][ \t]*)+\r?$", re.MULTILINE)


def _copy_key(span: Span, players: list[str]) -> bytes | None:
    """What makes two records one game filed twice (two files of one tournament): the
    players, Date, Round and the movetext (spacing aside); None for a game without moves
    (results-only records of one pairing may well be other games). O(len(text))."""
    words = _TAG_LINES.sub("", span.text).split()
    if len(words) < 2:
        return None
    said = [tag_value(span.tags, tag, aliases=True) or "" for tag in ("Date", "Round")]
    body = "\n".join([*players, *(value.strip() for value in said), " ".join(words)])
    return hashlib.blake2b(body.encode("utf-8", "surrogatepass"), digest_size=16).digest()


def _variant_of(span: Span, override: Variant | None) -> Variant:
    """The variant of a game: its GameType, else ``override``, else inferred (a parse)."""
    gametype = tag_value(span.tags, "GameType", aliases=True)
    if gametype is not None:
        stated, _problems = variant_from_gametype(gametype)
        if stated is not None:
            return stated
    if override is not None:
        return override
    return detect_variant(parse_span(span))[0]


def _white_score(span: Span, variant: Variant) -> Score | None:
    """White's result: the terminator's outcome when it has one, else the Result tag's."""
    words = span.text.split()
    terminator = KNOWN_SPELLINGS.get(words[-1]) if words else None
    outcome = terminator if terminator not in (None, "unknown") else None
    outcome = outcome or outcome_of(tag_value(span.tags, "Result", aliases=True))
    if outcome is None:
        return None
    if outcome in ("draw", "none"):
        return "D" if outcome == "draw" else "none"
    first_won = outcome == "first"
    return "W" if first_won == (variant.first_mover == "W") else "L"


def _same_players(pairings: list[Pairing], spellings: dict[str, Counter[str]]) -> dict[str, str]:
    """Each player key of ``pairings`` -> the key of the player it is: itself, or, merged, the
    one other player whose name all its words match (``name_matches``), when no two of the
    merged ever met. Candidates share a word that is not a particle, so the cost stays near
    O(players)."""
    players = list(dict.fromkeys(p for pairing in pairings for p in (pairing.white, pairing.black)))
    met = {frozenset((pairing.white, pairing.black)) for pairing in pairings}
    written = {key: spellings[key].most_common(1)[0][0] for key in players}
    by_word: dict[str, list[str]] = defaultdict(list)
    for key in players:
        for word in set(key.split()) - PARTICLES:
            by_word[word].append(key)
    root = {key: key for key in players}
    members = {key: [key] for key in players}
    for key in players:
        near = {other for word in set(key.split()) - PARTICLES for other in by_word[word]}
        fuller = [o for o in near - {key} if name_matches(written[key], written[o])]
        if len(fuller) != 1:
            continue
        kept, merged = root[key], root[fuller[0]]
        if kept == merged or any(
            frozenset((one, other)) in met for one in members[kept] for other in members[merged]
        ):
            continue
        for other in members.pop(merged):
            root[other] = kept
            members[kept].append(other)
    return root


def _standings(
    found: _Event,
    variant_name: str,
    spellings: dict[str, Counter[str]],
    scoring: Scoring | None,
    system: System | None,
) -> EventStandings:
    points = scoring or scoring_of(as_variant(variant_name))
    canonical = _same_players(found.pairings, spellings)
    names: dict[str, Counter[str]] = defaultdict(Counter)
    for key, target in canonical.items():
        names[target].update(spellings[key])
    pairings = [
        Pairing(canonical[pairing.white], canonical[pairing.black], pairing.score)
        for pairing in found.pairings
    ]
    lines: dict[str, Line] = {}
    shares: dict[str, list[tuple[str, float]]] = defaultdict(list)  # (opponent, share won)
    met: Counter[frozenset[str]] = Counter()
    for pairing in pairings:
        for player in (pairing.white, pairing.black):
            lines.setdefault(player, Line(names[player].most_common(1)[0][0]))
        met[frozenset((pairing.white, pairing.black))] += 1
        if pairing.score is None:
            lines[pairing.white].without_result += 1
            lines[pairing.black].without_result += 1
            continue
        for player, opponent, share in _shares(pairing):
            line = lines[player]
            line.games += 1
            line.wins += share == 1
            line.draws += share == 0.5
            line.losses += share == 0
            line.points += _points(points, share)
            shares[player].append((opponent, share))
    kind = system or _system(list(lines), met)
    for player, line in lines.items():
        line.tiebreak = sum(
            lines[opponent].points * (share if kind == "round-robin" else 1)
            for opponent, share in shares[player]
        )
    ranked = sorted(lines, key=lambda player: (-lines[player].points, -lines[player].tiebreak))
    for place, player in enumerate(ranked, 1):
        line = lines[player]
        before = lines[ranked[place - 2]] if place > 1 else None
        tied = before is not None and (before.points, before.tiebreak) == (
            line.points,
            line.tiebreak,
        )
        line.rank = before.rank if tied and before is not None else place
    crosstable: list[list[list[float | None]]] | None = None
    if kind == "round-robin":
        column = {player: index for index, player in enumerate(ranked)}
        crosstable = [[[] for _ in ranked] for _ in ranked]
        for pairing in pairings:
            for player, opponent, share in _shares(pairing):
                cell = crosstable[column[player]][column[opponent]]
                cell.append(None if pairing.score is None else _points(points, share))
    return EventStandings(
        event=found.names.most_common(1)[0][0],
        variant=variant_name,
        scoring=points,
        system=kind,
        lines=[lines[player] for player in ranked],
        crosstable=crosstable,
        games=len(found.pairings) + found.without_players + found.duplicates,
        without_result=sum(1 for pairing in found.pairings if pairing.score is None),
        without_players=found.without_players,
        duplicates=found.duplicates,
    )


def _shares(pairing: Pairing) -> tuple[tuple[str, str, float], tuple[str, str, float]]:
    """(player, opponent, share of the game won: 1, 0.5 or 0) for White and for Black."""
    white = {"W": 1.0, "D": 0.5, "L": 0.0, "none": 0.0}[pairing.score or "none"]
    black = 0.0 if pairing.score == "none" else 1.0 - white
    return (pairing.white, pairing.black, white), (pairing.black, pairing.white, black)


def _points(scoring: Scoring, share: float) -> float:
    win, draw, loss = scoring
    return win if share == 1 else draw if share == 0.5 else loss


def _system(players: list[str], met: Counter[frozenset[str]]) -> System:
    """A round robin when every two players met, as often as any other two; else Swiss."""
    pairs = len(players) * (len(players) - 1) // 2
    return "round-robin" if len(met) == pairs and len(set(met.values())) == 1 else "swiss"
