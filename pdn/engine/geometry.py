"""Boards: sizes, playable squares, square numbering, numeric <-> algebraic, bit layout, rays.

A `Board` is pure geometry. Coordinates are (file, rank), 0-based, a1 = (0, 0), White at the
bottom. Playable squares are numbered 1..n in the variant's own way (PDN GameType notation code
+ invert flag, PDN.md §2). Algebraic names are always chess-like from White's side (a1 bottom
left), which is how every algebraic draughts source writes them.

Every square also has a bit index in a padded layout: index = rank * stride + file with
``stride = width + 2``. The two ghost files guard every step of one or two files (diagonal
steps, Frisian orthogonal jumps, Turkish steps) against wrapping to another rank. The rules
engine uses it where its compact layout does not fit (``pdn.engine.movegen.bit_layout``), and
Zobrist keys are drawn per padded bit.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from pdn.base.pickling import by_fields

#: How squares are written: numbers (``32``) or file and rank (``c3``).
Notation = Literal["numeric", "algebraic"]
#: Every ``Notation``.
NOTATIONS: tuple[Notation, ...] = get_args(Notation)
#: A side: ``"W"`` White, ``"B"`` Black.
Colour = Literal["W", "B"]


def side_name(colour: str) -> str:
    """``"White"`` for ``"W"``, ``"Black"`` for ``"B"`` (message wording)."""
    return "White" if colour == "W" else "Black"


def other_side(colour: str) -> Colour:
    """The colour that is not ``colour`` (``"W"`` <-> ``"B"``)."""
    return "B" if colour == "W" else "W"


Corner = Literal["bottom-left", "bottom-right", "top-left", "top-right"]

#: PDN notation digit -> corner of square 1, seen from the player who moves first.
_CORNER_BY_DIGIT: tuple[Corner, ...] = ("bottom-left", "bottom-right", "top-left", "top-right")
_FILE_LETTERS = "abcdefghijklmnopqrstuvwxyz"


@dataclass(frozen=True)
class Board:
    """A rectangular board and the numbering of its playable squares.

    ``first_corner``: where square 1 lies, seen from White (numbering runs along the rank away
    from that corner's file edge, then rank by rank away from its rank edge). ``dark_a1``: a1 is
    a playable square. ``all_squares``: every square is playable (Turkish). Tables are built once
    at construction; every lookup is O(1).
    """

    width: int
    height: int
    first_corner: Corner = "top-left"
    dark_a1: bool = True
    all_squares: bool = False
    _coords: tuple[tuple[int, int], ...] = field(init=False, repr=False, compare=False)
    _by_coords: dict[tuple[int, int], int] = field(init=False, repr=False, compare=False)
    _bit_index: tuple[int, ...] = field(init=False, repr=False, compare=False)
    _square_by_index: dict[int, int] = field(init=False, repr=False, compare=False)
    _algebraic: tuple[str, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not (2 <= self.width <= len(_FILE_LETTERS) and 2 <= self.height <= 99):
            raise ValueError(f"unsupported board size {self.width}x{self.height}")
        ranks = range(self.height)
        files = range(self.width)
        if self.first_corner.startswith("top"):
            ranks = range(self.height - 1, -1, -1)
        if self.first_corner.endswith("right"):
            files = range(self.width - 1, -1, -1)
        coords = [(-1, -1)]  # index 0 unused: squares are 1-based
        coords += [(f, r) for r in ranks for f in files if self.is_playable(f, r)]
        stride = self.width + 2
        object.__setattr__(self, "_coords", tuple(coords))
        object.__setattr__(self, "_by_coords", {c: s for s, c in enumerate(coords) if s})
        bit_index = tuple(-1 if s == 0 else r * stride + f for s, (f, r) in enumerate(coords))
        object.__setattr__(self, "_bit_index", bit_index)
        object.__setattr__(self, "_square_by_index", {i: s for s, i in enumerate(bit_index) if s})
        names = tuple(f"{_FILE_LETTERS[f]}{r + 1}" for f, r in coords[1:])
        object.__setattr__(self, "_algebraic", ("", *names))  # written once per move: a table

    # -- squares -------------------------------------------------------------------------
    def is_playable(self, file: int, rank: int) -> bool:
        """True when (file, rank) is on the board and pieces may stand there."""
        if not (0 <= file < self.width and 0 <= rank < self.height):
            return False
        return self.all_squares or ((file + rank) % 2 == 0) == self.dark_a1

    def __len__(self) -> int:
        return len(self._coords) - 1

    @property
    def squares(self) -> range:
        """All square numbers, 1..n."""
        return range(1, len(self._coords))

    def coords(self, square: int) -> tuple[int, int]:
        """(file, rank) of a square number; ValueError when out of range."""
        if not 1 <= square < len(self._coords):
            raise ValueError(f"square {square} is not on this board (1-{len(self)})")
        return self._coords[square]

    def square_at(self, file: int, rank: int) -> int | None:
        """The square number at (file, rank), None for off-board or unplayable squares."""
        return self._by_coords.get((file, rank))

    def to_algebraic(self, square: int) -> str:
        """``"c3"`` style name of a square number."""
        self.coords(square)  # range check
        return self._algebraic[square]

    def parse_square(self, text: str) -> int:
        """``"32"``, ``"06"``, ``"c3"``, ``"C3"`` -> square number; ValueError with the reason."""
        text = text.strip()
        if text.isdigit():
            square = int(text)
            if not 1 <= square <= len(self):
                raise ValueError(f"square {text} is out of range 1-{len(self)}")
            return square
        lowered = text.lower()
        if len(lowered) >= 2 and lowered[0] in _FILE_LETTERS and lowered[1:].isdigit():
            file, rank = _FILE_LETTERS.index(lowered[0]), int(lowered[1:]) - 1
            if not (0 <= file < self.width and 0 <= rank < self.height):
                raise ValueError(f"square {text} is off the {self.width}x{self.height} board")
            found = self.square_at(file, rank)
            if found is None:
                raise ValueError(f"square {text} is not a playing square")
            return found
        raise ValueError(f"'{text}' is not a square")

    def format_square(self, square: int, notation: Notation) -> str:
        """A square as the variant writes it: its number, or its algebraic name."""
        self.coords(square)  # range check
        return self._algebraic[square] if notation == "algebraic" else str(square)

    # -- bit layout for the rules engine --------------------------------------------------
    @property
    def stride(self) -> int:
        """Bit-index distance between two ranks (width + 2 ghost files)."""
        return self.width + 2

    def bit_index(self, square: int) -> int:
        """Bit index of a square in the padded layout; ValueError when out of range."""
        if not 1 <= square < len(self._bit_index):
            raise ValueError(f"square {square} is not on this board (1-{len(self)})")
        return self._bit_index[square]

    def square_of_index(self, index: int) -> int:
        """Square number of a bit index; KeyError for ghost or unplayable indexes."""
        return self._square_by_index[index]

    @property
    def playable_mask(self) -> int:
        """Bitboard of every playable square."""
        mask = 0
        for index in self._bit_index[1:]:
            mask |= 1 << index
        return mask

    def ray(self, square: int, step: tuple[int, int]) -> tuple[int, ...]:
        """Squares reached by repeating ``step`` (d_file, d_rank) from ``square``, in order,
        stopping at the edge; unplayable squares in between end the ray. O(length)."""
        file, rank = self.coords(square)
        found: list[int] = []
        while True:
            file, rank = file + step[0], rank + step[1]
            next_square = self.square_at(file, rank)
            if next_square is None:
                return tuple(found)
            found.append(next_square)

    def __reduce__(self) -> tuple[type[Any], tuple[Any, ...]]:
        return by_fields(self)  # pickle and copy through __init__


def board_for_gametype(
    width: int,
    height: int,
    notation_code: str,
    invert: bool,
    first_mover: Literal["W", "B"] = "W",
    all_squares: bool = False,
) -> Board:
    """The board a PDN GameType describes (PDN.md §2), e.g. ``(8, 8, "N1", False, "B")`` =
    English. ``notation_code`` is ``[ANS][0-3]``: for numeric codes the digit places square 1 as
    seen by ``first_mover``; algebraic codes number squares international-style (square 1 on
    the top rank, from the left, as lidraughts does). ``invert``: a1 is not a playing square.
    ValueError for malformed codes.
    """
    if len(notation_code) != 2 or notation_code[0] not in "ANS" or notation_code[1] not in "0123":
        raise ValueError(f"notation code '{notation_code}' is not one of A0-A3, N0-N3, S0-S3")
    if notation_code[0] != "N":
        return Board(width, height, "top-left", not invert, all_squares)
    digit = int(notation_code[1])
    if first_mover == "B":
        digit ^= 3  # the opposite corner, seen from White
    return Board(width, height, _CORNER_BY_DIGIT[digit], not invert, all_squares)
