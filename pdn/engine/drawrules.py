"""Draw rules as data (named profiles) and the tracker that counts them along one line.

A ``DrawProfile`` is a repetition limit, "quiet move" limits (plies without a man move and
without a capture: FMJD 25-move, English 40-move, ...) and ending rules (material
configurations with a move budget: FMJD 16/5-move, FMJD-64 7.2.x, CBJD 3 kings v 1, ...).
Every number is kept in plies; the summaries say it in the rule's own words (RULES.md §0).

``DrawTracker`` is fed ply by ply (the position after the ply, the move played) and returns
the rules that expire at that ply, each rule at most once per line. Cost per ply is O(1)
amortised: material is recounted only after a capture or a promotion (listing then the ending
rules it allows, so most plies match no ending at all), and the repetition
table is emptied by every irreversible move (man move or capture), after which no earlier
position can recur.
"""

from __future__ import annotations

import copy
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field
from itertools import product
from typing import TYPE_CHECKING, Any, Literal

from pdn.base.pickling import by_fields
from pdn.engine.variants import Variant, as_variant

if TYPE_CHECKING:
    from pdn.engine.movegen import Move
    from pdn.engine.position import Position

#: (men, kings) of one side.
Force = tuple[int, int]
#: (white men, white kings, black men, black kings).
Material = tuple[int, int, int, int]

LONE_KING: Force = (0, 1)
#: Materials whose ending rules a profile remembers (``DrawProfile.endings_for``).
MEMO_MATERIALS = 4096


@dataclass(frozen=True)
class QuietRule:
    """Draw after ``plies`` successive plies with no man move (promotions included) and no
    capture, by either side."""

    name: str
    summary: str
    plies: int

    def __reduce__(self) -> tuple[type[Any], tuple[Any, ...]]:
        return by_fields(self)  # pickle and copy through __init__


@dataclass(frozen=True)
class EndingRule:
    """Draw when a material configuration lasts ``moves`` more moves.

    ``forces`` holds (strong, weak) pairs of ``Force``; the count starts at the ply that
    creates the configuration and restarts when another rule's configuration replaces it
    (or, with ``exact_material``, when the material changes at all: FMJD-64 7.2.6).
    ``counted``: ``"each"`` = ``moves`` moves by each side (2 x moves plies); ``"strong"`` =
    the strong side's ``moves``-th move. ``diagonal``: the rule only holds while the lone
    king (``"weak"``) or one of the strong side's kings (``"strong"``) is on the long
    diagonal.
    """

    name: str
    summary: str
    forces: frozenset[tuple[Force, Force]]
    moves: int
    counted: Literal["each", "strong"] = "each"
    diagonal: Literal["weak", "strong"] | None = None
    exact_material: bool = False

    def __reduce__(self) -> tuple[type[Any], tuple[Any, ...]]:
        return by_fields(self)  # pickle and copy through __init__


@dataclass(frozen=True)
class DrawProfile:
    """A named set of draw rules; ``repetition`` = occurrences of a position (same side to
    move) that make a draw, ``None`` for no repetition rule. ``repetition_automatic``: the
    repetition ends the game by itself (later moves are after the end); otherwise a player
    may claim it and play goes on. ``repetition_source`` cites where both come from.
    ``boards``: the same profile's rules for other board sizes, by number of playable squares
    (DamPlay: 3 kings v a lone king is 15 moves on 100 squares, diagonal cases on 64);
    ``for_board`` picks them."""

    name: str
    description: str
    repetition: int | None = 3
    quiet: tuple[QuietRule, ...] = ()
    endings: tuple[EndingRule, ...] = ()
    repetition_automatic: bool = False
    repetition_source: str = ""
    boards: tuple[tuple[int, DrawProfile], ...] = ()
    #: ``endings_for``'s answers by material (a memo, not part of the profile's value)
    _endings_by_material: dict[Material, tuple[tuple[EndingRule, str], ...]] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False
    )

    def endings_for(self, material: Material) -> tuple[tuple[EndingRule, str], ...]:
        """(rule, strong side) of every ending rule whose forces ``material`` has, in rule
        order, White as the strong side first. Memoised: the same materials recur in every
        game (O(ending rules) the first time)."""
        found = self._endings_by_material.get(material)
        if found is None:
            if len(self._endings_by_material) >= MEMO_MATERIALS:
                self._endings_by_material.clear()
            white, black = material[:2], material[2:]
            found = self._endings_by_material[material] = tuple(
                (rule, strong_side)
                for rule in self.endings
                for strong_side, strong, weak in (("W", white, black), ("B", black, white))
                if (strong, weak) in rule.forces
            )
        return found

    def for_board(self, squares: int) -> DrawProfile:
        """The rules of this profile on a board of ``squares`` playable squares (32 for
        8x8, 50 for 10x10): its own, unless ``boards`` holds that size. O(len(boards))."""
        for size, profile in self.boards:
            if size == squares:
                return profile
        return self

    def __reduce__(self) -> tuple[type[Any], tuple[Any, ...]]:
        return by_fields(self)  # pickle and copy through __init__


def _versus(
    strong: Iterable[Force], weak: Iterable[Force] = (LONE_KING,)
) -> frozenset[tuple[Force, Force]]:
    return frozenset(product(strong, weak))


def _kings_on_both_sides(total: range) -> frozenset[tuple[Force, Force]]:
    """Every (side, side) pair where both sides have a king and the pieces number ``total``."""
    sides = [(men, kings) for men in range(8) for kings in range(1, 8)]
    return frozenset(
        (one, other) for one, other in product(sides, sides) if sum(one) + sum(other) in total
    )


def _moves_each(name: str, moves: int, condition: str) -> QuietRule:
    """The quiet rule "``moves`` moves each ``condition``": 2 x ``moves`` plies."""
    return QuietRule(name, f"{moves} moves each {condition}", 2 * moves)


#: The two wordings of the quiet rules' condition (the same condition: no man moves, no capture).
_KINGS_ONLY = "with only kings moved and no capture"
_NO_PROGRESS = "without a man move or a capture"

THREE_PIECES = ((0, 3), (1, 2), (2, 1))  # 3K, 2K+1M, 1K+2M
TWO_PIECES_OR_KING = ((0, 2), (1, 1), (0, 1))  # 2K, 1K+1M, 1K

FMJD_REPEAT = "FMJD 6.1"
FMJD = DrawProfile(
    "fmjd",
    "FMJD international rules, article 6",
    repetition_automatic=True,
    repetition_source="FMJD rule 6.1: the game is drawn, no claim needed",
    quiet=(_moves_each("FMJD 6.2", 25, _KINGS_ONLY),),
    endings=(
        EndingRule(
            "FMJD 6.4",
            "2 kings, king+man or king v lone king: 5 more moves each",
            _versus(TWO_PIECES_OR_KING),
            5,
        ),
        EndingRule(
            "FMJD 6.3",
            "3 pieces with a king v lone king: 16 more moves each",
            _versus(THREE_PIECES),
            16,
        ),
    ),
)

#: Seed 003 (DamPlay) 5-move endings on 64 squares, also used by the CBJD profile.
DAMPLAY_FIVE_MOVE = frozenset(
    {
        ((0, 1), (0, 1)),
        ((0, 2), (0, 1)),
        ((0, 2), (0, 2)),
        ((0, 2), (1, 1)),
        ((1, 1), (1, 1)),
        ((1, 1), (0, 1)),
    }
)


def _brazilian(name: str, description: str, king_moves: int) -> DrawProfile:
    """Seed 003's rules: on 64 squares the long-diagonal 3K v K cases (5 or 20 moves), on 100
    squares 3K v K in 15 moves; the 5-move small endings and the king-move limit on both."""
    quiet = (_moves_each(f"{name} kings", king_moves, _KINGS_ONLY),)
    small = EndingRule(
        f"{name} small endings",
        "small king endings (2K v K, K+M v K+M, ...): 5 moves each",
        DAMPLAY_FIVE_MOVE,
        5,
    )
    source = "FMJD-64 art. 7.2.3, whose numbering the Brazilian rules follow"
    hundred = DrawProfile(
        name,
        description + ", 100 squares",
        repetition_automatic=True,
        repetition_source=source,
        quiet=quiet,
        endings=(
            EndingRule(
                f"{name} 3K v K",
                "3 kings v a lone king on 100 squares: 15 moves each",
                _versus([(0, 3)]),
                15,
            ),
            small,
        ),
    )
    return DrawProfile(
        name,
        description,
        repetition_automatic=True,
        repetition_source=source,
        quiet=quiet,
        boards=((50, hundred),),
        endings=(
            EndingRule(
                f"{name} 3K v K diagonal",
                "3 kings v a lone king holding the long diagonal: 5 moves each",
                _versus([(0, 3)]),
                5,
                diagonal="weak",
            ),
            EndingRule(
                f"{name} 3K v K",
                "3 kings (one on the long diagonal) v a lone king: 20 moves each",
                _versus([(0, 3)]),
                20,
                diagonal="strong",
            ),
            small,
        ),
    )


CBJD = _brazilian("cbjd", "CBJD Brazilian rules (20 king moves; DamPlay's small endings)", 20)
DAMPLAY = _brazilian("damplay", "DamPlay summary of the Brazilian rules (25 king moves)", 25)

FMJD64 = DrawProfile(
    "fmjd64",
    "FMJD-64 / IDF draughts-64 rules 7.2.x (as lidraughts applies them)",
    repetition_automatic=True,
    repetition_source="FMJD-64 art. 7.2.3: the game is drawn, no claim needed",
    quiet=(_moves_each("FMJD-64 7.2.5", 15, _KINGS_ONLY),),
    endings=(
        EndingRule(
            "FMJD-64 7.2.8",
            "2 kings, king+man or king v lone king: 5 moves each",
            _versus(TWO_PIECES_OR_KING),
            5,
        ),
        EndingRule(
            "FMJD-64 7.2.7",
            "3 pieces with a king v a lone king on the long diagonal: the strong side's 5th move",
            _versus(THREE_PIECES),
            5,
            counted="strong",
            diagonal="weak",
        ),
        EndingRule(
            "FMJD-64 7.2.4",
            "3 or more kings v a lone king: the strong side's 15th move",
            _versus([(0, kings) for kings in range(3, 13)]),
            15,
            counted="strong",
        ),
        EndingRule(
            "FMJD-64 7.2.6 (4-5 pieces)",
            "both sides with kings, no change of material, 4-5 pieces: 30 moves each",
            _kings_on_both_sides(range(4, 6)),
            30,
            exact_material=True,
        ),
        EndingRule(
            "FMJD-64 7.2.6 (6-7 pieces)",
            "both sides with kings, no change of material, 6-7 pieces: 60 moves each",
            _kings_on_both_sides(range(6, 8)),
            60,
            exact_material=True,
        ),
    ),
)

PORTUGUESE = DrawProfile(
    "portuguese",
    "Portuguese/Spanish rules (FPD; king-move and Forcada counts unverified)",
    repetition_source="FPD rules of Damas Clássicas, items 13-14: threefold repetition, on claim",
    quiet=(_moves_each("FPD kings", 20, _KINGS_ONLY),),
    endings=(
        EndingRule(
            "Forcada",
            "3 kings v a lone king, one king on the long diagonal (rio): 12 moves each",
            _versus([(0, 3)]),
            12,
            diagonal="strong",
        ),
    ),
)

ENGLISH = DrawProfile(
    "english",
    "English draughts / checkers laws",
    repetition_source="the English draughts laws: a player may claim it",
    quiet=(_moves_each("40-move", 40, _NO_PROGRESS),),
)

ITALIAN = DrawProfile(
    "italian",
    "Italian rules (FID; per dctl: 4th repetition, 40 moves each without progress)",
    repetition=4,
    repetition_source="the 4th occurrence, as the dctl engine reads FID Regolamento Tecnico art. 9"
    " (text not verified); a claim assumed",
    quiet=(_moves_each("FID 40-move", 40, _NO_PROGRESS),),
)

CZECH = DrawProfile(
    "czech",
    "Czech rules",
    repetition_source="threefold, Czech rules (fmjd.org); no text says it is automatic",
    quiet=(_moves_each("15-move", 15, _NO_PROGRESS),),
)

POOL = DrawProfile(
    "pool",
    "Pool checkers (APCA rule 26, per dctl)",
    repetition_source="threefold, as the dctl engine reads the APCA rules; a claim assumed",
    quiet=(QuietRule("APCA 26", "30 plies without a man move or a capture", 30),),
)

#: The repetition rule of variants whose rules name none.
_UNNAMED_THREEFOLD = "the rules name none: the common threefold, a claim assumed"

FRISIAN = DrawProfile(
    "frisian",
    "Frisian rules (as lidraughts applies them)",
    repetition_source=_UNNAMED_THREEFOLD,
    endings=(
        EndingRule("king v king", "a king each: 2 more moves each", _versus([LONE_KING]), 2),
        EndingRule("2K v K", "2 kings v a lone king: 7 moves each", _versus([(0, 2)]), 7),
    ),
)

TURKISH = DrawProfile(
    "turkish",
    "Turkish rules (TUDAF: one piece each is a draw)",
    repetition_source=_UNNAMED_THREEFOLD,
    endings=(
        EndingRule(
            "one piece each",
            "one piece each: a draw at once",
            _versus([(1, 0), (0, 1)], [(1, 0), (0, 1)]),
            0,
        ),
    ),
)

GIVEAWAY = DrawProfile(
    "giveaway",
    "giveaway variants: repetition only",
    repetition_source="lidraughts' threefold in Antidraughts; no federation text",
)

# Thai (Mak-hot): RULES.md has no Thai section and PDN.md gives only its GameType; no source
# on its draw rules was found (the pages describing the moves are silent), so this is the
# common threefold repetition alone, on claim, named so that findings say so.
THAI = DrawProfile(
    "thai",
    "Thai (Mak-hot): no source found for draw rules; repetition only",
    repetition_source="no source found: the common threefold, a claim assumed",
)

PROFILES: dict[str, DrawProfile] = {
    profile.name: profile
    for profile in (
        FMJD,
        CBJD,
        DAMPLAY,
        FMJD64,
        PORTUGUESE,
        ENGLISH,
        ITALIAN,
        CZECH,
        POOL,
        FRISIAN,
        TURKISH,
        GIVEAWAY,
        THAI,
    )
}


def profile_named(name: str) -> DrawProfile:
    """The profile called ``name``; ValueError listing the names otherwise."""
    try:
        return PROFILES[name.strip().lower()]
    except KeyError:
        raise ValueError(
            f"unknown draw-rules profile {name!r}; known: {', '.join(PROFILES)}"
        ) from None


def profile_for(variant: Variant | str, name: str | None = None) -> DrawProfile:
    """The profile ``name`` if given, else the variant's own ``draw_profile`` (every variant
    names one of ``PROFILES``; ValueError otherwise), with its rules for the variant's board
    (``DrawProfile.for_board``). ``variant``: a ``Variant`` or its name."""
    variant = as_variant(variant)
    return profile_named(name or variant.draw_profile).for_board(len(variant.board))


@dataclass(frozen=True)
class DrawEvent:
    """A rule that expired at ``ply`` (1-based along the line): ``kind`` is ``"repetition"``
    or ``"move-limit"``."""

    kind: Literal["repetition", "move-limit"]
    rule: str
    summary: str
    ply: int

    def __reduce__(self) -> tuple[type[Any], tuple[Any, ...]]:
        return by_fields(self)  # pickle and copy through __init__


@dataclass
class _Ending:
    """The ending rule being counted: since which ply, for which strong side."""

    rule: EndingRule
    identity: Hashable
    start_ply: int
    strong_side: str
    strong_moves: int = 0


@dataclass
class DrawTracker:
    """Counts the rules of ``profile`` along one line; ``copy()`` forks it at a branch point.

    Build with ``DrawTracker.start(profile, position)``; feed each ply with ``push``.
    """

    profile: DrawProfile
    diagonal_bits: int  # the long diagonal as a mask in the position's bit layout
    ply: int = 0
    quiet_plies: int = 0
    material: Material = (0, 0, 0, 0)
    ending: _Ending | None = None
    seen: dict[Hashable, int] = field(default_factory=dict)
    expired: set[str] = field(default_factory=set)
    # (rule, strong side) of every ending rule whose forces the material has, in rule order:
    # set with the material, so plies without a capture or promotion test no forces
    material_endings: tuple[tuple[EndingRule, str], ...] = ()

    @classmethod
    def start(cls, profile: DrawProfile, position: Position) -> DrawTracker:
        """A tracker at ``position`` (counted as the first occurrence for repetition)."""
        index_of = position.rules.index_of
        mask = sum(1 << index_of[square] for square in long_diagonal(position.variant))
        tracker = cls(profile, mask)
        tracker._set_material(material_of(position))
        tracker.ending = tracker._matching_ending(position)
        tracker.seen[position.key()] = 1
        return tracker

    def copy(self) -> DrawTracker:
        """An independent tracker in the same state. O(positions since the last man move)."""
        twin = copy.copy(self)
        twin.seen = dict(self.seen)
        twin.expired = set(self.expired)
        twin.ending = copy.copy(self.ending)
        return twin

    def push(self, position: Position, move: Move) -> list[DrawEvent]:
        """Count one ply (``position`` is the position after ``move``); return the rules that
        expire at this ply, move limits first, then repetition. O(1) amortised; no position
        key at all while the board has no king (every next ply is a man move, which empties
        the repetition table before any lookup)."""
        self.ply += 1
        kings = position.king_bits
        if move.captures or move.promotes:
            self._set_material(material_of(position))
            irreversible = True
        else:  # a man move unless a king (or nothing) stands where the move ended
            landed = 1 << position.rules.index_of[move.path[-1]]
            occupied = position.white_bits | position.black_bits
            irreversible = bool(occupied & landed) and not kings & landed
        events: list[DrawEvent] = []
        self.quiet_plies = 0 if irreversible else self.quiet_plies + 1
        for rule in self.profile.quiet:
            if self.quiet_plies >= rule.plies:
                self._expire(events, "move-limit", rule.name, rule.summary)
        if self.material_endings:
            self._count_ending(position, "B" if position.turn == "W" else "W", events)
        else:  # no ending rule can hold with this material: O(1) for most plies
            self.ending = None
        if irreversible:
            self.seen.clear()
        repetition = self.profile.repetition
        if repetition is not None and (kings or not irreversible or repetition < 2):
            key = position.key()
            count = self.seen.get(key, 0) + 1
            self.seen[key] = count
            if count >= repetition:
                summary = f"the same position, same side to move, for the {_ordinal(count)} time"
                self._expire(events, "repetition", "repetition", summary)
        return events

    def _set_material(self, material: Material) -> None:
        """Set the material and the ending rules whose forces it has. O(1) amortised."""
        self.material = material
        self.material_endings = self.profile.endings_for(material)

    def _count_ending(self, position: Position, mover: str, events: list[DrawEvent]) -> None:
        """Follow the ending configuration: same one -> count on, another -> count afresh."""
        ending = self._matching_ending(position)
        if (
            ending is not None
            and self.ending is not None
            and ending.identity == self.ending.identity
        ):
            ending = self.ending
            if mover == ending.strong_side:
                ending.strong_moves += 1
        self.ending = ending
        if ending is None:
            return
        rule = ending.rule
        if rule.counted == "each":
            due = self.ply - ending.start_ply >= 2 * rule.moves
        else:
            due = ending.strong_moves >= rule.moves and mover == ending.strong_side
        if due:
            self._expire(events, "move-limit", rule.name, rule.summary)

    def _matching_ending(self, position: Position) -> _Ending | None:
        """The first ending rule that holds in ``position`` (a fresh count), or ``None``."""
        for rule, strong_side in self.material_endings:
            if rule.diagonal and not self._on_diagonal(position, rule.diagonal, strong_side):
                continue
            identity = (rule.name, strong_side, self.material if rule.exact_material else None)
            return _Ending(rule, identity, self.ply, strong_side)
        return None

    def _on_diagonal(self, position: Position, who: str, strong_side: str) -> bool:
        side = strong_side if who == "strong" else ("B" if strong_side == "W" else "W")
        own = position.white_bits if side == "W" else position.black_bits
        return bool(own & position.king_bits & self.diagonal_bits)

    def _expire(
        self,
        events: list[DrawEvent],
        kind: Literal["repetition", "move-limit"],
        rule: str,
        summary: str,
    ) -> None:
        if rule in self.expired:
            return
        self.expired.add(rule)
        events.append(DrawEvent(kind, rule, summary, self.ply))


def _ordinal(count: int) -> str:
    return {2: "second", 3: "third", 4: "fourth", 5: "fifth"}.get(count, f"{count}th")


def material_of(position: Position) -> Material:
    """(white men, white kings, black men, black kings). O(1): bit counts."""
    white, black, kings = position.white_bits, position.black_bits, position.king_bits
    return (
        (white & ~kings).bit_count(),
        (white & kings).bit_count(),
        (black & ~kings).bit_count(),
        (black & kings).bit_count(),
    )


def long_diagonal(variant: Variant | str) -> frozenset[int]:
    """The squares of the corner-to-corner diagonal of dark squares (a1-h8, or h1-a8 on
    boards where a1 is light) of ``variant`` (a ``Variant`` or its name). Empty for boards
    that are not square."""
    board = as_variant(variant).board
    size = board.width
    if board.height != size:
        return frozenset()
    rising = board.square_at(0, 0) is not None
    squares = (board.square_at(file, file if rising else size - 1 - file) for file in range(size))
    return frozenset(square for square in squares if square is not None)
