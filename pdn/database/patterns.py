"""Patterns: pieces that must, may or must not stand on squares (``--pattern``, ``--pattern-not``,
``--mirror`` of ``select`` and ``search``), as Turbo Dambase's three pattern boards.

The text form (a superset of a partial FEN, so a partial FEN is the stable form for scripts)::

    TURN:FIELD:FIELD...        TURN: W, B, or ? (either side to move)
    W<items>  B<items>         that colour's pieces, items comma-separated:
        24  K24  *24           a man / a king / a man or king must stand on 24
        31-35                  ranges, with any prefix (K31-35, *31-35)
        !24  !K24  !*24        ... must NOT stand there (``!24``: no man, ``!*24``: no piece)
        ?24  ?K24              ... MAY stand there (a man or king / only a king); a field with
                               a ``?`` item is closed: that colour has no piece on a square
                               its field does not list
    E<squares>                 squares that must be empty (``E23,28-29``)

``?:WK46:B`` = a white king on 46, either side to move; ``W:W24:B19`` = a white man on 24 and a
black man on 19, White to move; ``W:WK6,27-29:B!*45:E23`` = White to move, a white king on 6,
white men on 27, 28, 29, no black piece on 45, square 23 empty; ``?:W?*31-50:B`` = every white
piece on 31-50 (a closed field). Squares are the variant's own numbers (or algebraic names,
``Wc3``). ``--pattern-not`` is a partial FEN of pieces each of which must be absent
(``?:W24:BK19`` = no white man on 24 and no black king on 19: the ``!`` items of a pattern).
``--mirror`` also accepts the colour-swapped pattern: White's items become Black's, each square
mapped across the board's centre (square s -> 51 - s on the international board), the side to
move swapped.

Contract with the index (``pdn search`` answers the same queries in SQL), stable:

- ``square_boards(position)`` -> ``Boards(white_men, white_kings, black_men, black_kings)``:
  four integers, bit ``s - 1`` set for a piece on square ``s`` (the variant's own square
  numbers, not the engine's bit layout). What the index stores per position (with the side to
  move).
- ``Pattern.conditions(variant)`` -> a tuple of one ``Condition`` (two with ``mirror``); a
  position matches the pattern when it matches ANY condition. A ``Condition`` holds masks in the
  same square bits: ``turn`` (``"W"``, ``"B"`` or ``None``: either), ``required`` (a ``Boards``:
  those exact pieces), ``required_white`` / ``required_black`` (a piece of that colour, man or
  king), ``forbidden`` (a ``Boards``: none of those pieces). A position (turn t; wm, wk, bm, bk)
  matches iff ``turn in (None, t)`` and for each of the four boards ``x & required.x ==
  required.x`` and ``x & forbidden.x == 0``, and ``(wm | wk) & required_white ==
  required_white``, ``(bm | bk) & required_black == required_black``.
  ``Condition.matches_boards(turn, boards)`` is that test, the reference for the SQL.
- ``Pattern.matches(position)`` and ``Pattern.first_ply(positions)`` (the first index whose
  position matches: JSON ``ply`` of ``select``) are the streaming forms.

A pattern never matches a variant whose board lacks one of its squares (``conditions`` is then
empty). Parsing raises ``ValueError`` with the reason in words. Cost: parsing O(len(text));
``conditions`` O(squares) once per variant (cached); ``matches`` O(1) bit tests per condition.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Literal, NamedTuple

from pdn.engine.geometry import Board, Colour, other_side
from pdn.engine.position import Position
from pdn.engine.variants import Variant

Kind = Literal["man", "king", "any"]
Mode = Literal["must", "may", "not"]

_KIND_PREFIX: dict[str, Kind] = {"K": "king", "*": "any"}
_MODE_PREFIX: dict[str, Mode] = {"!": "not", "?": "may"}


class Boards(NamedTuple):
    """Four square bitboards (bit ``s - 1`` = square ``s``)."""

    white_men: int = 0
    white_kings: int = 0
    black_men: int = 0
    black_kings: int = 0


@dataclass(frozen=True)
class Item:
    """One pattern item: ``colour``'s ``kind`` on ``squares`` (names as written), ``mode``
    must/may/not; ``colour`` ``None`` with mode ``not`` and kind ``any``: the square is empty."""

    colour: Colour | None
    kind: Kind
    mode: Mode
    squares: tuple[str, ...]


@dataclass(frozen=True)
class Condition:
    """One set of masks a position must meet (see the module docstring: the index's contract)."""

    turn: Colour | None
    required: Boards
    required_white: int
    required_black: int
    forbidden: Boards

    def matches_boards(self, turn: str, boards: Boards) -> bool:
        """Does a position with ``turn`` to move and these square ``boards`` meet the masks?"""
        if self.turn is not None and self.turn != turn:
            return False
        for have, need, banned in zip(boards, self.required, self.forbidden, strict=True):
            if have & need != need or have & banned:
                return False
        white, black = boards[0] | boards[1], boards[2] | boards[3]
        return (
            white & self.required_white == self.required_white
            and black & self.required_black == self.required_black
        )


@dataclass(frozen=True)
class _EngineCondition:
    """A ``Condition`` in one variant's engine bit layout (what ``matches`` tests): masks of
    white men, white kings, black men, black kings, then white and black of either kind."""

    turn: Colour | None
    required: tuple[int, int, int, int, int, int]
    forbidden: tuple[int, int, int, int]

    def holds(self, position: Position) -> bool:
        if self.turn is not None and self.turn != position.turn:
            return False
        white, black, kings = position.white_bits, position.black_bits, position.king_bits
        need, banned = self.required, self.forbidden
        men_w, kings_w, men_b, kings_b = (
            white & ~kings,
            white & kings,
            black & ~kings,
            black & kings,
        )
        return not (
            men_w & need[0] != need[0]
            or kings_w & need[1] != need[1]
            or men_b & need[2] != need[2]
            or kings_b & need[3] != need[3]
            or white & need[4] != need[4]
            or black & need[5] != need[5]
            or men_w & banned[0]
            or kings_w & banned[1]
            or men_b & banned[2]
            or kings_b & banned[3]
        )


@dataclass(frozen=True)
class Pattern:
    """A parsed ``--pattern`` (with its ``--pattern-not`` items and ``--mirror``)."""

    turn: Colour | None
    items: tuple[Item, ...]
    mirror: bool = False
    text: str = ""

    @classmethod
    def parse(cls, text: str | None, *, absent: str | None = None, mirror: bool = False) -> Pattern:
        """``--pattern text`` (``None``: any position), ``--pattern-not absent``, ``--mirror``."""
        turn, items = _parse(text if text is not None else "?", negate=False)
        if absent is not None:
            absent_turn, absent_items = _parse(absent, negate=True)
            if absent_turn is not None and turn is not None and absent_turn != turn:
                raise ValueError(
                    f"--pattern-not {absent!r} asks for the other side to move than --pattern"
                )
            turn = turn or absent_turn
            items += absent_items
        shown = " ".join(filter(None, (text, absent and f"not {absent}")))
        numbered = [(item, [int(s) for s in item.squares if s.isdigit()]) for item in items]
        size = max((max(squares, default=0) for _, squares in numbered), default=0)
        _masks(turn, numbered, size, shown)  # the ValueError of a pattern that can never hold
        return cls(turn, items, mirror, shown)

    def conditions(self, variant: Variant) -> tuple[Condition, ...]:
        """The pattern's masks on ``variant``'s board (the mirrored one second); ``()`` when a
        square is not on that board, or when its squares' names meet on it (``c3`` and ``22``
        both asked to hold a piece): a pattern that can never hold. Computed once per
        variant."""
        found = self._conditions.get(variant.name)
        if found is None:
            found = self._conditions[variant.name] = _conditions(self, variant)
        return found

    @cached_property
    def _conditions(self) -> dict[str, tuple[Condition, ...]]:
        return {}

    def matches(self, position: Position) -> bool:
        """Does ``position`` meet the pattern (or, with ``mirror``, its colour-swapped copy)?"""
        return any(c.holds(position) for c in self._engine(position.variant))

    def first_ply(self, positions: Iterable[Position]) -> int | None:
        """The index of the first of ``positions`` that matches, else ``None``. O(len)."""
        for ply, position in enumerate(positions):
            if ply == 0:
                checks = self._engine(position.variant)
                if not checks:
                    return None
            if any(c.holds(position) for c in checks):
                return ply
        return None

    def _engine(self, variant: Variant) -> tuple[_EngineCondition, ...]:
        return self._compiled.get(variant.name) or self._compile(variant)

    @cached_property
    def _compiled(self) -> dict[str, tuple[_EngineCondition, ...]]:
        return {}

    def _compile(self, variant: Variant) -> tuple[_EngineCondition, ...]:
        index_of = Position.initial(variant).rules.index_of
        size = len(variant.board)

        def engine(mask: int) -> int:
            return sum(1 << index_of[s] for s in range(1, size + 1) if mask >> (s - 1) & 1)

        compiled = []
        for c in self.conditions(variant):
            men_w, kings_w, men_b, kings_b = map(engine, c.required)
            white, black = engine(c.required_white), engine(c.required_black)
            banned = map(engine, c.forbidden)
            required = (men_w, kings_w, men_b, kings_b, white, black)
            compiled.append(_EngineCondition(c.turn, required, Boards(*banned)))
        self._compiled[variant.name] = tuple(compiled)
        return self._compiled[variant.name]


def square_boards(position: Position) -> Boards:
    """The four square bitboards of ``position`` (bit ``s - 1`` = square ``s``). O(pieces)."""
    boards = [0, 0, 0, 0]
    for square, piece in position.pieces():
        boards[(0 if piece.colour == "W" else 2) + piece.is_king] |= 1 << (square - 1)
    return Boards(*boards)


def mirror_square(board: Board, square: int) -> int:
    """``square`` seen across the board's centre (file and rank both reversed)."""
    file, rank = board.coords(square)
    mirrored = board.square_at(board.width - 1 - file, board.height - 1 - rank)
    if mirrored is None:
        raise ValueError(f"square {square} has no mirror square on this board")
    return mirrored


def mirror_position(position: Position) -> Position:
    """``position`` with colours swapped and squares mapped across the centre (the other side
    to move): what ``--mirror`` finds. O(pieces)."""
    from pdn.engine.position import Piece

    board = position.variant.board
    pieces = {
        mirror_square(board, square): Piece.of(other_side(piece.colour), piece.is_king)
        for square, piece in position.pieces()
    }
    return Position.from_pieces(position.variant, pieces, other_side(position.turn))


# -- parsing ------------------------------------------------------------------------------


def _parse(text: str, *, negate: bool) -> tuple[Colour | None, tuple[Item, ...]]:
    """Side to move and items of one pattern text; ``negate``: ``--pattern-not`` (every piece
    listed must be absent)."""
    fields = [field.strip() for field in text.strip().strip('"').split(":")]
    head = fields[0].upper()
    if head not in ("W", "B", "?"):
        raise ValueError(
            f"pattern {text!r} must start with the side to move W, B or ? "
            "(e.g. ?:WK46:B, a white king on 46)"
        )
    turn: Colour | None = None if head == "?" else head  # type: ignore[assignment]
    items: list[Item] = []
    for field in fields[1:]:
        if not field:
            continue
        colour_text, body = field[0].upper(), field[1:]
        if field[:5].lower() == "empty":
            colour_text, body = "E", field[5:]
        if colour_text not in ("W", "B", "E"):
            raise ValueError(
                f"pattern field {field!r} does not start with W, B or E (empty squares)"
            )
        for part in body.split(","):
            part = part.strip()
            if part:
                items.append(_item(part, colour_text, negate, text))
    return turn, tuple(items)


def _item(part: str, colour_text: str, negate: bool, text: str) -> Item:
    """One comma-separated item of a field (``K6``, ``!*45``, ``?27-29``, ``23``)."""
    body = part
    mode: Mode = "not" if negate else "must"
    if body[0] in _MODE_PREFIX:
        if negate:
            raise ValueError(f"--pattern-not {text!r}: item {part!r} takes no ! or ? prefix")
        mode, body = _MODE_PREFIX[body[0]], body[1:]
    kind: Kind = "man"
    if body[:1] in _KIND_PREFIX:
        kind, body = _KIND_PREFIX[body[0]], body[1:]
    if colour_text == "E":
        if part != body:
            raise ValueError(f"pattern {text!r}: an empty square ({part!r}) takes no prefix")
        return Item(None, "any", "not", _squares(body, part, text))
    colour: Colour = "W" if colour_text == "W" else "B"
    return Item(colour, kind, mode, _squares(body, part, text))


def _squares(body: str, part: str, text: str) -> tuple[str, ...]:
    """The square names of ``24``, ``31-35`` or ``c3``."""
    low, dash, high = body.partition("-")
    if dash:
        if not (low.isdigit() and high.isdigit() and len(high) <= 3):
            raise ValueError(f"pattern {text!r}: {part!r} is not a range of two square numbers")
        first, last = int(low), int(high)
        if first > last:
            raise ValueError(f"pattern {text!r}: range {part!r} runs backwards")
        return tuple(str(square) for square in range(first, last + 1))
    if not body or not body.isalnum():
        raise ValueError(f"pattern {text!r}: {part!r} is not a square")
    return (body,)


# -- masks --------------------------------------------------------------------------------


def _conditions(pattern: Pattern, variant: Variant) -> tuple[Condition, ...]:
    board = variant.board
    try:
        placed = [(item, [board.parse_square(s) for s in item.squares]) for item in pattern.items]
    except ValueError:
        return ()
    try:
        found = [_masks(pattern.turn, placed, len(board), pattern.text)]
    except ValueError:
        return ()  # algebraic and numeric names of one square contradict: never holds
    if pattern.mirror:
        swapped = [
            (
                Item(item.colour and other_side(item.colour), item.kind, item.mode, item.squares),
                [mirror_square(board, square) for square in squares],
            )
            for item, squares in placed
        ]
        turn = pattern.turn and other_side(pattern.turn)
        mirrored = _masks(turn, swapped, len(board), pattern.text)
        if mirrored != found[0]:
            found.append(mirrored)
    return tuple(found)


def _masks(
    turn: Colour | None, placed: Sequence[tuple[Item, list[int]]], size: int, text: str
) -> Condition:
    """The masks of items placed on square numbers; ValueError when they contradict."""
    required = [0, 0, 0, 0]
    forbidden = [0, 0, 0, 0]
    any_of = {"W": 0, "B": 0}
    listed = {"W": 0, "B": 0}
    closed = {"W": False, "B": False}
    for item, squares in placed:
        mask = sum(1 << (square - 1) for square in squares)
        colours: tuple[Colour, ...] = (item.colour,) if item.colour else ("W", "B")
        for colour in colours:
            base = 0 if colour == "W" else 2
            boards = {"man": (base,), "king": (base + 1,), "any": (base, base + 1)}[item.kind]
            listed[colour] |= mask
            if item.mode == "not":
                for board in boards:
                    forbidden[board] |= mask
            elif item.mode == "may":
                closed[colour] = True
                for board in {base, base + 1} - set(boards):
                    forbidden[board] |= mask
            elif item.kind == "any":
                any_of[colour] |= mask
            else:
                required[boards[0]] |= mask
    full = (1 << size) - 1
    for colour, base in (("W", 0), ("B", 2)):
        if closed[colour]:
            outside = full & ~listed[colour]
            forbidden[base] |= outside
            forbidden[base + 1] |= outside
    _check_consistent(required, forbidden, any_of, text)
    return Condition(turn, Boards(*required), any_of["W"], any_of["B"], Boards(*forbidden))


def _check_consistent(
    required: list[int], forbidden: list[int], any_of: dict[str, int], text: str
) -> None:
    """ValueError for a pattern no position can meet (a square asked to hold two pieces, or
    to hold and not hold one)."""
    names = ("white man", "white king", "black man", "black king")
    white_any = any_of["W"] & forbidden[0] & forbidden[1]
    black_any = any_of["B"] & forbidden[2] & forbidden[3]
    clashes = [need & banned for need, banned in zip(required, forbidden, strict=True)] + [
        white_any,
        black_any,
    ]
    for index, clash in enumerate(clashes):
        if clash:
            square = clash.bit_length()
            what = names[index] if index < 4 else ("white", "black")[index - 4] + " piece"
            raise ValueError(
                f"pattern {text!r} can never hold: square {square} must and must not hold a {what}"
            )
    white = required[0] | required[1] | any_of["W"]
    black = required[2] | required[3] | any_of["B"]
    double = required[0] & required[1] | required[2] & required[3] | white & black
    if double:
        raise ValueError(
            f"pattern {text!r} can never hold: square {double.bit_length()} must hold two pieces"
        )
