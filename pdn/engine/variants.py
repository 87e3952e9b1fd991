"""Every rule set as data: board, PDN GameType, notation, results, start position, capture laws.

The rules engine (`pdn.engine.movegen`) reads only these fields; adding a variant means adding a
row. Sources are RULES.md (Part A decisions, Part B per-variant sections) and PDN.md §2/§4.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Literal

from pdn.engine.geometry import Board, Notation, board_for_gametype

CaptureLaw = Literal["free", "quantity", "quantity-kings", "italian", "frisian", "czech"]
KingRange = Literal["flying", "short", "land-behind"]


@dataclass(frozen=True)
class Variant:
    """One rule set. ``white_crowning`` / ``black_crowning``: squares where a man of that colour
    is crowned (empty tuple = the far rank). White always starts at the bottom (ranks 1..),
    whoever moves first.

    Capture-law fields: ``geometry`` (diagonal boards, or Turkish orthogonal on all squares),
    ``men_capture_backward``, ``orthogonal_captures`` (Frisian: men and kings also capture
    along ranks and files), ``king_range`` (flying; short = one square; land-behind = flying
    but landing right behind the captured piece, Thai), ``men_capture_kings`` (Italian: no),
    ``capture_law`` (which captures are allowed among the available ones: free choice,
    most pieces, most pieces then most kings, Italian precedence, Frisian value, Czech
    king-first), ``promote_in_passing`` (Russian: a man crossing the far rank mid-capture
    goes on as a king), ``immediate_removal`` (captured pieces vanish at once instead of the
    Turkish strike), ``king_may_reverse`` (with immediate removal: may a king turn 180°),
    ``king_order_matters`` (Italian: captures differing only in the order kings were taken
    are distinct moves).

    ``king_move_limit`` (Frisian: 3): a side that still has men may move the same king at most
    this many times in a row without capturing. Move generation ignores it (it depends on the
    history, not the position); the audit reports a breach as ``illegal-move``.
    """

    name: str
    board: Board
    gametype: int | None
    first_mover: Literal["W", "B"]
    default_notation: Notation
    capture_separator: str
    result_style: Literal["international", "default"]
    giveaway: bool
    start_fen: str
    draw_profile: str
    gametype_spec: str | None = None
    aliases: tuple[str, ...] = ()
    geometry: Literal["diagonal", "orthogonal"] = "diagonal"
    men_capture_backward: bool = True
    orthogonal_captures: bool = False
    king_range: KingRange = "flying"
    men_capture_kings: bool = True
    capture_law: CaptureLaw = "quantity"
    promote_in_passing: bool = False
    immediate_removal: bool = False
    king_may_reverse: bool = False
    king_order_matters: bool = False
    king_move_limit: int | None = None
    white_crowning: tuple[int, ...] = ()
    black_crowning: tuple[int, ...] = ()
    source: str = ""
    _crowning: dict[str, tuple[int, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        crowning = {}
        for colour, explicit in (("W", self.white_crowning), ("B", self.black_crowning)):
            far_rank = self.board.height - 1 if colour == "W" else 0
            crowning[colour] = explicit or tuple(
                s for s in self.board.squares if self.board.coords(s)[1] == far_rank
            )
        object.__setattr__(self, "_crowning", crowning)

    @classmethod
    def from_name(cls, name: str) -> Variant:
        """The variant called ``name`` or one of its aliases (case-insensitive); ValueError
        listing the known names otherwise; TypeError for anything but a string. O(1)."""
        if not isinstance(name, str):
            raise TypeError(f"a variant name is a string such as 'russian', not {name!r}")
        key = name.strip().lower().replace("_", "-").replace(" ", "-")
        found = _BY_NAME.get(key)
        if found is None:
            raise ValueError(f"unknown variant {name!r}; known: {', '.join(VARIANTS)}")
        return found

    def crowning_squares(self, colour: Literal["W", "B"]) -> tuple[int, ...]:
        """Squares where a man of ``colour`` is crowned (the far rank unless set). O(1)."""
        return self._crowning[colour]


def _from_gametype(
    spec: str,
    *,
    all_squares: bool = False,
    capture_separator: str = "x",
    result_style: Literal["international", "default"] = "default",
    **rules: Any,
) -> Variant:
    """A standard (not giveaway) variant whose board, GameType number, first mover and
    default notation (the notation code: ``A`` algebraic, ``N`` numeric) all come from its
    full PDN GameType ``spec`` (``"20,W,10,10,N2,0"``); captures written with PDN's ``x``
    and results in the default style unless said; ``rules`` are the remaining fields."""
    number, first, width, height, notation, invert = spec.split(",")
    mover: Literal["W", "B"] = "B" if first == "B" else "W"
    board = board_for_gametype(int(width), int(height), notation, invert == "1", mover, all_squares)
    return Variant(
        board=board,
        gametype=int(number),
        gametype_spec=spec,
        first_mover=mover,
        default_notation="algebraic" if notation.startswith("A") else "numeric",
        capture_separator=capture_separator,
        result_style=result_style,
        giveaway=False,
        **rules,
    )


_INTERNATIONAL = _from_gametype(
    "20,W,10,10,N2,0",
    name="international",
    result_style="international",
    start_fen="W:W31-50:B1-20",
    draw_profile="fmjd",
    aliases=("10x10", "dutch"),
    source="FMJD rules for international draughts",
)
_BRAZILIAN = _from_gametype(
    "26,W,8,8,A0,0",
    name="brazilian",
    start_fen="W:W21-32:B1-12",
    draw_profile="cbjd",
    source="CBJD rules (international rules on 8x8)",
)
_RUSSIAN = _from_gametype(
    "25,W,8,8,A0,0",
    name="russian",
    capture_separator=":",
    start_fen="W:W21-32:B1-12",
    draw_profile="fmjd64",
    aliases=("shashki",),
    capture_law="free",
    promote_in_passing=True,
    source="FMJD-64 / the Russian federation's rules",
)
_PORTUGUESE = _from_gametype(
    "28,W,8,8,N1,1",
    name="portuguese",
    start_fen="W:W1-12:B21-32",
    draw_profile="portuguese",
    men_capture_backward=False,
    capture_law="quantity-kings",
    source="FPD rules of Damas Clássicas",
)
_ITALIAN = _from_gametype(
    "22,W,8,8,N2,1",
    name="italian",
    start_fen="W:W21-32:B1-12",
    draw_profile="italian",
    men_capture_backward=False,
    king_range="short",
    men_capture_kings=False,
    capture_law="italian",
    king_order_matters=True,
    source="FID Regolamento Tecnico Capo I",
)
_ENGLISH = _from_gametype(
    "21,B,8,8,N1,0",
    name="english",
    start_fen="B:W21-32:B1-12",
    draw_profile="english",
    aliases=("checkers", "american", "english-checkers", "straight-checkers"),
    men_capture_backward=False,
    king_range="short",
    capture_law="free",
    source="ACF / EDA laws",
)
# Spanish: the Portuguese variant under its own GameType number (the same board and rules).
_SPANISH = replace(
    _PORTUGUESE,
    name="spanish",
    gametype=24,
    gametype_spec="24,W,8,8,N1,1",
    source="Portuguese (FPD) rules on the same mirrored board",
)
_CZECH = _from_gametype(
    "29,W,8,8,A0,0",
    name="czech",
    start_fen="W:W21-32:B1-12",
    draw_profile="czech",
    men_capture_backward=False,
    capture_law="czech",
    source="fmjd.org Czech rules",
)
_TURKISH = _from_gametype(
    "30,W,8,8,A0,0",
    name="turkish",
    all_squares=True,
    start_fen="W:W41-56:B9-24",
    draw_profile="turkish",
    aliases=("dama",),
    geometry="orthogonal",
    men_capture_backward=False,
    immediate_removal=True,
    source="TUDAF rules (kish crate summary)",
)
# Thai (Mak-hot). RULES.md has no Thai section; this follows PDN.md §2 for the board and who
# starts (GameType 31,B,8,8,N2,0: Black first, hyphen as capture separator) and, for the rules,
# checkers.fandom.com "Mak-hot", mindsports.nl "Thai" and coldmoon.io "Makhos": 8 men each on
# the two nearest ranks; men move and capture forward only; kings fly but land directly behind
# the captured piece; captured pieces are removed at once (a king may then turn back over the
# emptied square); capture is compulsory with free choice; a man crowned by a capture stops.
_THAI = _from_gametype(
    "31,B,8,8,N2,0",
    name="thai",
    capture_separator="-",
    start_fen="B:W1-8:B25-32",
    draw_profile="thai",
    aliases=("mak-hot", "makhos"),
    men_capture_backward=False,
    king_range="land-behind",
    capture_law="free",
    immediate_removal=True,
    king_may_reverse=True,
    source="PDN GameType 31; checkers.fandom.com Mak-hot; mindsports.nl Thai; coldmoon.io Makhos",
)
_FRISIAN = _from_gametype(
    "40,W,10,10,N2,0",
    name="frisian",
    result_style="international",
    start_fen="W:W31-50:B1-20",
    draw_profile="frisian",
    orthogonal_captures=True,
    capture_law="frisian",
    king_move_limit=3,
    source="Frisian rules (lidraughts Frisian, dctl)",
)
_CANADIAN = _from_gametype(
    "27,W,12,12,N2,0",
    name="canadian",
    result_style="international",
    start_fen="W:W43-72:B1-30",
    draw_profile="fmjd",
    source="international rules on 12x12, 30 men each",
)
_POOL = _from_gametype(
    "23,B,8,8,N1,0",
    name="pool",
    start_fen="B:W21-32:B1-12",
    draw_profile="pool",
    aliases=("american-pool", "pool-checkers"),
    capture_law="free",
    source="APCA pool checkers rules",
)


def _giveaway(base: Variant, name: str, aliases: tuple[str, ...]) -> Variant:
    """The giveaway form of ``base``: same moves, inverted result (RULES.md B§8)."""
    return replace(
        base,
        name=name,
        aliases=aliases,
        giveaway=True,
        gametype=98 if base.name == "international" else None,
        gametype_spec=None,
        draw_profile="giveaway",
        source=f"{base.name} moves, inverted result (lidraughts Antidraughts)",
    )


# Diagonal damas (RULES.md A.7; seed 000 section III; checkers.fandom.com "Diagonalnie Shashki
# (2)" for the 9-man form: men in the corner triangle, the single corners toward the players,
# crowning on the opposite single corner and its two nearest edge squares). The 12-man form
# adds the 3 middle squares of the next diagonal row (our reading, not confirmed by a rule
# text). Brazilian rules otherwise; men move "forward" by rank as on the ordinary board.
_DIAGONAL_9_WHITE = "a1,a3,b2,c1,a5,b4,c3,d2,e1"
_DIAGONAL_9_BLACK = "h8,h6,g7,f8,h4,g5,f6,e7,d8"


def _diagonal(name: str, white: str, black: str) -> Variant:
    board = _BRAZILIAN.board
    return replace(
        _BRAZILIAN,
        name=name,
        aliases=(),
        gametype=None,
        gametype_spec=None,
        start_fen=f"W:W{white}:B{black}",
        white_crowning=tuple(board.parse_square(s) for s in ("h8", "f8", "h6")),
        black_crowning=tuple(board.parse_square(s) for s in ("a1", "c1", "a3")),
        source="diagonal damas: checkers.fandom.com Diagonalnie Shashki (2);"
        " 12-man squares inferred",
    )


VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        _INTERNATIONAL,
        _BRAZILIAN,
        _RUSSIAN,
        _PORTUGUESE,
        _ITALIAN,
        _ENGLISH,
        _SPANISH,
        _CZECH,
        _TURKISH,
        _THAI,
        _FRISIAN,
        _CANADIAN,
        _POOL,
        _giveaway(_BRAZILIAN, "brazilian-giveaway", ("perde-ganha",)),
        _giveaway(_INTERNATIONAL, "international-giveaway", ("antidraughts", "giveaway")),
        _giveaway(_RUSSIAN, "russian-giveaway", ("poddavki",)),
        _diagonal("diagonal-9", _DIAGONAL_9_WHITE, _DIAGONAL_9_BLACK),
        _diagonal("diagonal-12", _DIAGONAL_9_WHITE + ",c5,d4,e3", _DIAGONAL_9_BLACK + ",f4,e5,d6"),
    )
}

_BY_NAME: dict[str, Variant] = {key: v for v in VARIANTS.values() for key in (v.name, *v.aliases)}

#: PDN GameType number -> variant (PDN 3.0 table plus lidraughts' 97/98).
_BY_GAMETYPE: dict[int, Variant] = {
    v.gametype: v for v in VARIANTS.values() if v.gametype is not None and not v.giveaway
}
_BY_GAMETYPE[98] = VARIANTS["international-giveaway"]
_BY_GAMETYPE[97] = _FRISIAN
_NONSTANDARD_GAMETYPES = {
    97: "GameType 97 is lidraughts' Frysk! (Frisian rules from a reduced start)",
    98: "GameType 98 is lidraughts' Antidraughts (not in PDN 3.0)",
}


def variant_from_gametype(value: str) -> tuple[Variant | None, list[str]]:
    """The variant a GameType tag value names, and the problems with the value in words.

    ``"20"`` or a full spec ``"20,W,10,10,N2,0"``. A full spec that disagrees with the
    standard one still selects the variant (real files use several), with a problem noted.
    Unknown or malformed values give ``(None, [reason])``. O(1).
    """
    text = value.strip()
    parts = [p.strip() for p in text.split(",")]
    if not parts[0].isdigit():
        return None, [f"GameType {value!r} does not start with a game number"]
    number = int(parts[0])
    variant = _BY_GAMETYPE.get(number)
    if variant is None:
        if number < 20:
            return None, [f"GameType {number} is not draughts (0-19 are chess games)"]
        return None, [f"GameType {number} is not a known draughts variant"]
    problems: list[str] = []
    if number in _NONSTANDARD_GAMETYPES:
        problems.append(_NONSTANDARD_GAMETYPES[number])
    if len(parts) > 1:
        if len(parts) not in (5, 6):
            problems.append(
                f"GameType {value!r} is not 'type,colour,width,height,notation[,invert]'"
            )
        else:
            spec = ",".join(parts + ["0"] * (6 - len(parts)))
            if variant.gametype_spec and spec.upper() != variant.gametype_spec:
                problems.append(
                    f"GameType {value!r} differs from the standard {variant.gametype_spec!r}"
                    f" for {variant.name}; read as standard {variant.name}"
                )
    return variant, problems


def as_variant(variant: Variant | str) -> Variant:
    """``variant`` itself, or the variant a name stands for (``"russian"``): the API takes
    either. TypeError for anything else, ValueError for an unknown name."""
    if isinstance(variant, Variant):
        return variant
    if isinstance(variant, str):
        return Variant.from_name(variant)
    raise TypeError(f"expected a Variant or a variant name, not {type(variant).__name__}")
