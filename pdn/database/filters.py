"""Which games to take: the criteria of ``pdn select`` and ``pdn search``.

A ``Criteria`` holds every filter of the command line, already read (ranges, dates, material,
FEN checked). ``tags_match(tags)`` decides from the header tags alone (cheap: the scanner's
tags, before any parsing); ``match(facts)`` decides on a replayed game (``GameFacts``) and
returns where the position and the material were first met. The index (``pdn.database.index``) uses
the same criteria: the keys of ``position_keys`` and the signatures of ``MaterialSpec`` are what it
stores. Every parser here raises ``ValueError`` with the reason in words.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from pdn.database.gamefacts import GameFacts
from pdn.database.movestart import MoveStart
from pdn.database.names import name_matches
from pdn.database.tagfilters import TagTest, tags_pass
from pdn.engine.drawrules import Material
from pdn.engine.errors import FenError
from pdn.engine.position import Position
from pdn.engine.variants import VARIANTS, Variant
from pdn.engine.zobrist import position_key
from pdn.game.tags import outcome_of, tag_value

if TYPE_CHECKING:  # their modules read ranges with ``int_range`` from here
    from pdn.database.manoeuvres import ManoeuvreQuery
    from pdn.database.patterns import Pattern

#: Finding severities that make a game not ``--clean``.
#: The tags the header filters read (``tags_match``).
_HEADER_FILTER_TAGS = ("White", "Black", "Event", "Date")
UNCLEAN = frozenset({"error", "warning"})
#: ``--result`` words and the winner they mean (``"D"``: draw).
RESULT_WORDS = {"white": "W", "black": "B", "draw": "D"}

DateBound = tuple[int, int, int]
_DATE_PARTS = re.compile(r"(\d{4})(?:[.\-/](\d{1,2}|\?\?)(?:[.\-/](\d{1,2}|\?\?))?)?")
_DMY = re.compile(r"^(\d{1,2})[.\-/](\d{1,2})[.\-/](\d{4})$")
_INT_RANGE = re.compile(r"(\d+)?(?:(\.\.)(\d+)?)?")
_RANGE_DATE = re.compile(r"(\d{4})(?:\.(\d{1,2})(?:\.(\d{1,2}))?)?")
_MATERIAL_SIDE = re.compile(r"^(?P<colour>[WB])?(?P<men>\d+)?(?:K(?P<kings>\d+))?$")


def int_range(text: str) -> tuple[int, int]:
    """``"10..40"``, ``"10.."``, ``"..40"`` or ``"25"`` -> (low, high), inclusive; anything
    else (``"10-40"``) a ``ValueError`` naming the accepted forms."""
    match = _INT_RANGE.fullmatch(text.strip())
    if match is None or not text.strip():
        raise ValueError(
            f"{text!r} is not a range: expected MIN..MAX, e.g. 10..40 (or MIN.., ..MAX, one number)"
        )
    low, dots, high = match.groups()
    first = int(low) if low else 0
    last = int(high) if high else (10**9 if dots else first)
    if first > last:
        raise ValueError(f"range {text!r} runs backwards")
    return first, last


def date_bounds(text: str) -> tuple[DateBound, DateBound] | None:
    """The first and last day a written date can mean: ``"1996"`` -> 1996-01-01..1996-12-31,
    ``"2004.10.27"`` one day, ``"13-01-1996"`` too; ``None`` when no year can be read."""
    text = text.strip()
    dmy = _DMY.match(text)
    if dmy:
        day, month, year = (int(part) for part in dmy.groups())
        return (year, month, day), (year, month, day)
    match = _DATE_PARTS.search(text)
    if not match:
        return None
    year = int(match[1])
    month = int(match[2]) if match[2] and match[2].isdigit() else 0
    day = int(match[3]) if match[3] and match[3].isdigit() and month else 0
    return (year, month or 1, day or 1), (year, month or 12, day or 31)


def date_range(text: str) -> tuple[DateBound, DateBound]:
    """``--date FROM..TO``, each side ``YYYY``, ``YYYY.MM`` or ``YYYY.MM.DD`` (either side may be
    empty; one date alone = that date: ``1990`` is the whole year) -> the first and last day;
    anything else (``"1990-1999"``) a ``ValueError`` naming the accepted forms."""
    low, dots, high = text.strip().partition("..")
    if not text.strip():
        _range_date("", text)  # the usage error
    if not dots:
        high = low
    first = _range_date(low, text) if low else ((0, 1, 1), (0, 1, 1))
    last = _range_date(high, text) if high else ((9999, 12, 31), (9999, 12, 31))
    if first[0] > last[1]:
        raise ValueError(f"date range {text!r} runs backwards")
    return first[0], last[1]


def _range_date(side: str, text: str) -> tuple[DateBound, DateBound]:
    """One side of ``--date``: the first and last day it means."""
    match = _RANGE_DATE.fullmatch(side)
    month = int(match[2] or 1) if match else 0
    day = int(match[3] or 1) if match else 0
    if match is None or not (1 <= month <= 12 and 1 <= day <= 31):
        raise ValueError(
            f"{text!r} is not a date range: expected FROM..TO, e.g. 1990..1999 "
            "(or FROM.., ..TO, one date; "
            "a date is YYYY, YYYY.MM or YYYY.MM.DD)"
        )
    bounds = date_bounds(side)
    assert bounds is not None  # a side that matched has a year
    return bounds


@dataclass(frozen=True)
class MaterialSpec:
    """``--material``: two sides, ``K3:K1`` (three kings v one, either colour), ``W12:B11``
    (White 12 men v Black 11 men), ``W3K1:K2``. A number alone counts men, ``K<n>`` kings;
    what is not written is zero. A side without a colour may be either."""

    first: tuple[str | None, int, int]  # colour, men, kings
    second: tuple[str | None, int, int]

    @classmethod
    def parse(cls, text: str) -> MaterialSpec:
        parts = text.upper().replace(" ", "").split(":")
        sides = []
        for part in parts:
            match = _MATERIAL_SIDE.match(part)
            if len(parts) != 2 or not part or not match:
                raise ValueError(
                    f"{text!r} is not a material spec such as K3:K1 (kings), W12:B11 (men) "
                    "or W3K1:B4"
                )
            sides.append((match["colour"], int(match["men"] or 0), int(match["kings"] or 0)))
        if sides[0][0] is not None and sides[0][0] == sides[1][0]:
            raise ValueError(f"material spec {text!r} gives both sides the same colour")
        return cls(sides[0], sides[1])

    @cached_property
    def materials(self) -> frozenset[Material]:
        """Every (White men, White kings, Black men, Black kings) the spec accepts."""
        found = set()
        for white, black in ((self.first, self.second), (self.second, self.first)):
            if white[0] in (None, "W") and black[0] in (None, "B"):
                found.add((white[1], white[2], black[1], black[2]))
        return frozenset(found)


def material_signature(material: Material) -> int:
    """One integer per material (the index stores it): 8 bits per count."""
    men_w, kings_w, men_b, kings_b = material
    return men_w | kings_w << 8 | men_b << 16 | kings_b << 24


@dataclass(frozen=True)
class Match:
    """A game that passed: the first ply where ``--position`` / ``--material`` held."""

    position_ply: int | None = None
    material_ply: int | None = None
    pattern_ply: int | None = None  #: the first position ply where ``--pattern`` held
    move_plies: tuple[int, ...] | None = None  #: the plies of the ``--move`` matches


@dataclass(frozen=True)
class Criteria:
    """Every filter of ``select``/``search``; ``None`` (or empty) means "any"."""

    variant: str | None = None
    players: tuple[str, ...] = ()
    white: str | None = None
    black: str | None = None
    event: str | None = None
    date: tuple[DateBound, DateBound] | None = None
    result: str | None = None
    plies: tuple[int, int] | None = None
    with_findings: frozenset[str] | None = None
    clean: bool = False
    position: str | None = None
    material: MaterialSpec | None = None
    pattern: Pattern | None = None
    moves: tuple[ManoeuvreQuery, ...] = ()
    tag_tests: tuple[TagTest, ...] = ()
    opening: MoveStart | None = None

    def __post_init__(self) -> None:
        if self.result is not None:
            self.result_filter  # noqa: B018 - reads it now: ValueError on a bad value
        if self.position is not None and not self.readable_variants:
            raise ValueError(f"FEN {self.position!r} cannot be read: {self._fen_error()}")

    # -- what the values mean --------------------------------------------------------------
    @cached_property
    def result_filter(self) -> tuple[str, str | None]:
        """("winner", W/B/D) for a word, ("outcome", first/second/draw/none) for a score,
        ("unknown", None) for ``*``."""
        text = (self.result or "").strip()
        if text.lower() in RESULT_WORDS:
            return "winner", RESULT_WORDS[text.lower()]
        if text == "*":
            return "unknown", None
        outcome = outcome_of(text)
        if outcome is None:
            raise ValueError(
                f"result {text!r} is not a score (2-0, 1-0, 1-1, 1/2-1/2, ...), "
                "white, black, draw or *"
            )
        return "outcome", outcome

    @cached_property
    def readable_variants(self) -> dict[str, int]:
        """Variant name -> key of ``position`` in it, for each variant whose board reads the
        FEN (only ``--variant`` when given)."""
        if self.position is None:
            return {}
        names = [self.variant] if self.variant else list(VARIANTS)
        keys = {}
        for name in names:
            variant = Variant.from_name(name)
            try:
                position = Position.from_fen(self.position, variant)
            except FenError:
                continue
            if not position.problems():
                keys[variant.name] = position_key(position)
        return keys

    def _fen_error(self) -> str:
        variant = Variant.from_name(self.variant or "international")
        try:
            problems = Position.from_fen(self.position or "", variant).problems()
        except FenError as error:
            return str(error)
        return "; ".join(problems) or "not a position of any variant"

    @property
    def needs_replay(self) -> bool:
        """Do the criteria look past the header tags?"""
        return bool(
            self.variant
            or self.result
            or self.plies
            or self.with_findings
            or self.clean
            or self.position
            or self.material
            or self.pattern
            or self.moves
            or self.opening
        )

    @property
    def reads_tags(self) -> bool:
        """Do the criteria test header tags (players, White, Black, Event, Date, ``--tag``)?"""
        return bool(
            self.players or self.white or self.black or self.event or self.date or self.tag_tests
        )

    @property
    def filters_summaries(self) -> bool:
        """Can ``passes`` turn a game down (a tag, the variant, result, length or findings)?"""
        return bool(
            self.reads_tags
            or self.variant
            or self.result is not None
            or self.plies
            or self.with_findings
            or self.clean
        )

    @property
    def needs_line(self) -> bool:
        """Do the criteria read the replayed line (``game_facts(keep_line=True)``)?"""
        return self.pattern is not None or bool(self.moves)

    # -- matching -------------------------------------------------------------------------
    def tags_match(self, tags: Iterable[tuple[str, str]]) -> bool:
        """The header filters (players, White, Black, Event, Date, ``--tag``) on ``tags``,
        each tag read under its PDN or translated name (``tag_value(aliases=True)``). O(tags),
        O(1) when no header filter is asked (``reads_tags``)."""
        if not self.reads_tags:
            return True
        listed = tuple(tags)
        first = {name: tag_value(listed, name, aliases=True) for name in _HEADER_FILTER_TAGS}
        return self.headers_match(first) and tags_pass(self.tag_tests, listed)

    def headers_match(self, headers: Mapping[str, str | None]) -> bool:
        """``tags_match`` on a mapping of tag name -> first value."""
        white, black = headers.get("White"), headers.get("Black")
        if self.white and not name_matches(self.white, white):
            return False
        if self.black and not name_matches(self.black, black):
            return False
        for player in self.players:
            if not (name_matches(player, white) or name_matches(player, black)):
                return False
        event = headers.get("Event")
        if self.event and (not event or self.event.casefold() not in event.casefold()):
            return False
        if self.date:
            bounds = date_bounds(headers.get("Date") or "")
            if bounds is None or bounds[0] < self.date[0] or bounds[1] > self.date[1]:
                return False
        return True

    def passes(self, game: GameSummary) -> bool:
        """Every filter except position and material. O(tags + findings)."""
        if not self.tags_match(game.tags):
            return False
        if self.variant and game.variant != self.variant:
            return False
        if self.result is not None and not self._result_match(game):
            return False
        if self.plies and not self.plies[0] <= game.plies <= self.plies[1]:
            return False
        if self.with_findings and not game.codes & self.with_findings:
            return False
        return not (self.clean and game.severities & UNCLEAN)

    def match(self, facts: GameFacts) -> Match | None:
        """Every filter on a replayed game: ``None`` when it fails, else where the position,
        the material and the pattern were first met and the plies of the manoeuvres (those two
        read ``facts.positions``: ``game_facts(keep_line=True)``, see ``needs_line``).
        O(plies)."""
        if not self.passes(GameSummary.of(facts)):
            return None
        if self.opening is not None and not self.opening.starts(facts):
            return None
        position_ply = material_ply = None
        if self.position is not None:
            key = self.readable_variants.get(facts.variant)
            if key is None or key not in facts.keys:
                return None
            position_ply = facts.keys.index(key)
        if self.material is not None:
            wanted = self.material.materials
            material_ply = next((ply for ply, m in facts.material if m in wanted), None)
            if material_ply is None:
                return None
        pattern_ply = move_plies = None
        if self.pattern is not None:
            pattern_ply = self.pattern.first_ply(facts.positions)
            if pattern_ply is None:
                return None
        if self.moves:
            plies = self.moves[0].describe(facts.positions, facts.played)
            found = [query.find(plies) for query in self.moves]
            if None in found:
                return None
            move_plies = tuple(sorted({ply for one in found for ply in one or ()}))
        return Match(position_ply, material_ply, pattern_ply, move_plies)

    def _result_match(self, game: GameSummary) -> bool:
        kind, value = self.result_filter
        if kind == "winner":
            return game.winner == value
        if kind == "unknown":
            return game.outcome is None
        return game.outcome == value


@dataclass(frozen=True)
class GameSummary:
    """What ``Criteria.passes`` looks at: from ``GameFacts``, or from an index row."""

    tags: tuple[tuple[str, str], ...]
    variant: str
    winner: str | None
    outcome: str | None
    plies: int
    codes: frozenset[str]
    severities: frozenset[str]

    @classmethod
    def of(cls, facts: GameFacts) -> GameSummary:
        return cls(
            facts.tags,
            facts.variant,
            facts.winner,
            facts.outcome,
            facts.plies,
            frozenset(finding.code for finding in facts.findings),
            frozenset(finding.severity or "error" for finding in facts.findings),
        )
