"""Positions: pieces and side to move, FEN in and out, repetition key, validation.

A `Position` is immutable. Pieces live in three bitboards (White, Black, kings) in the bit
layout of the variant's rules engine (`pdn.engine.movegen.bit_layout`), which works on them
directly.
"""

from __future__ import annotations

import enum
from collections.abc import Hashable, Iterator
from functools import cache
from typing import TYPE_CHECKING, Any, cast

from pdn.base.hooks import lent
from pdn.engine.errors import FenError
from pdn.engine.geometry import Board, Colour, Notation, other_side, side_name
from pdn.engine.movegen import Rules, legal_moves, rules_for
from pdn.engine.variants import Variant, as_variant

__all__ = ["Colour", "FenError", "Notation", "Piece", "Position", "other_side", "side_name"]

if TYPE_CHECKING:
    from pdn.engine.movegen import Move
    from pdn.views.boardview import BoardView


class Piece(enum.Enum):
    """A piece: colour and man/king."""

    WHITE_MAN = "w"
    WHITE_KING = "W"
    BLACK_MAN = "b"
    BLACK_KING = "B"

    @property
    def colour(self) -> Colour:
        return "W" if self.value in "wW" else "B"

    @property
    def is_king(self) -> bool:
        return self.value.isupper()

    @classmethod
    def of(cls, colour: Colour, king: bool) -> Piece:
        """The piece of ``colour``, king or man."""
        return cls(colour if king else colour.lower())


class Position:
    """Pieces on a variant's board and the side to move. Immutable; ``play`` returns a new one.

    Build with `initial`, `from_fen` or `from_pieces`. Squares are the variant's own numbers.
    """

    __slots__ = ("variant", "turn", "white_bits", "black_bits", "king_bits", "rules", "_notes")

    variant: Variant
    turn: Colour
    white_bits: int  #: White pieces, bit layout of ``variant.board`` (engine use)
    black_bits: int
    king_bits: int
    rules: Rules  #: the variant's engine tables (``pdn.engine.movegen.rules_for``), looked up once
    _notes: tuple[str, ...]

    def __init__(
        self,
        variant: Variant,
        turn: Colour,
        white_bits: int,
        black_bits: int,
        king_bits: int,
        notes: tuple[str, ...] = (),
        rules: Rules | None = None,
    ) -> None:
        """Low-level constructor from bitboards; ``notes`` are problems met while reading;
        ``rules`` must be ``rules_for(variant)`` when given (``play`` hands its own on)."""
        _set_variant(self, variant)
        _set_turn(self, turn)
        _set_white(self, white_bits)
        _set_black(self, black_bits)
        _set_kings(self, king_bits)
        _set_rules(self, rules_for(variant) if rules is None else rules)
        _set_notes(self, notes)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Position is immutable")

    def __reduce__(self) -> tuple[type[Position], tuple[Any, ...]]:
        """``pickle`` and ``copy`` rebuild a position through ``__init__`` (the engine
        tables are looked up again): setting its attributes one by one is refused."""
        fields = (self.white_bits, self.black_bits, self.king_bits, self._notes)
        return type(self), (self.variant, self.turn, *fields)

    # -- construction ---------------------------------------------------------------------
    @classmethod
    def initial(cls, variant: Variant | str) -> Position:
        """The start position of ``variant`` (a ``Variant`` or its name)."""
        return _initial(as_variant(variant))

    @classmethod
    def from_pieces(
        cls, variant: Variant | str, pieces: dict[int, Piece], turn: Colour
    ) -> Position:
        """A position from {square: piece} (``variant``: a ``Variant`` or its name); ValueError
        for squares not on the board."""
        return cls._from_map(as_variant(variant), pieces, turn)

    @classmethod
    def _from_map(
        cls, variant: Variant, pieces: dict[int, Piece], turn: Colour, notes: tuple[str, ...] = ()
    ) -> Position:
        """Bitboards from {square: piece}, with FEN reading ``notes`` kept for ``problems``."""
        board, index_of = variant.board, rules_for(variant).index_of
        white = black = kings = 0
        for square, piece in pieces.items():
            board.bit_index(square)  # the ValueError for a square off the board
            bit = 1 << index_of[square]
            if piece.colour == "W":
                white |= bit
            else:
                black |= bit
            if piece.is_king:
                kings |= bit
        return cls(variant, turn, white, black, kings, notes)

    @classmethod
    def from_fen(cls, fen: str, variant: Variant | str) -> Position:
        """Read a PDN FEN in any dialect of PDN.md §3: numeric or algebraic squares, ranges
        (``31-50``), ``K`` kings, ``?`` turn (read as the variant's first mover), trailing
        ``.``, lidraughts ``:H0:F1``, empty sides (``B::``), leading zeros, any order.

        Squares off the board and contradictions (a square given twice) do not raise: they are
        kept as `problems`. FenError(reason) when the text cannot be read. ``variant`` is a
        ``Variant`` or its name. O(len(fen)).
        """
        variant = as_variant(variant)
        if not isinstance(fen, str):
            raise TypeError(f"a FEN is a string, not {type(fen).__name__}")
        text = fen.strip().strip('"').strip()
        while text.endswith("."):
            text = text[:-1].rstrip()
        if not text:
            raise FenError("empty FEN")
        fields = text.split(":")
        turn_text = fields[0].strip().upper()
        if turn_text not in ("W", "B", "?"):
            raise FenError(f"side to move {fields[0].strip()!r} is not W, B or ?")
        turn: Colour = variant.first_mover if turn_text == "?" else turn_text  # type: ignore[assignment]
        board = variant.board
        placed: dict[int, Piece] = {}
        notes: list[str] = []
        for field in fields[1:]:
            field = field.strip()
            if not field:
                continue
            head = field[0].upper()
            if head in "HF" and field[1:].isdigit():
                continue  # lidraughts half-move clock / full-move number
            if head == "?":
                raise FenError(f"piece list {field!r} has unknown colour '?'")
            if head not in "WB":
                raise FenError(f"piece list {field!r} does not start with W or B")
            colour: Colour = "W" if head == "W" else "B"
            for item in field[1:].split(","):
                item = item.strip()
                if item:
                    _place(item, colour, board, placed, notes)
        return cls._from_map(variant, placed, turn, tuple(notes))

    # -- reading --------------------------------------------------------------------------
    def fen(self, notation: Notation | None = None) -> str:
        """Canonical FEN: side to move, then White, then Black; every square written (no
        ranges), kings with ``K``, sorted by number (numeric) or by rank then file
        (algebraic, as lidraughts writes). ``notation`` defaults to the variant's."""
        notation = notation or self.variant.default_notation
        board = self.variant.board
        groups: dict[str, list[tuple[tuple[int, int], str]]] = {"W": [], "B": []}
        for square, piece in self.pieces():
            if notation == "algebraic":
                file, rank = board.coords(square)
                order, name = (rank, file), board.to_algebraic(square)
            else:
                order, name = (square, 0), str(square)
            groups[piece.colour].append((order, ("K" if piece.is_king else "") + name))
        parts = [",".join(name for _, name in sorted(groups[c])) for c in ("W", "B")]
        return f"{self.turn}:W{parts[0]}:B{parts[1]}"

    def key(self) -> Hashable:
        """Board + side to move, for repetition counting. O(1)."""
        return (self.white_bits, self.black_bits, self.king_bits, self.turn)

    def piece_at(self, square: int) -> Piece | None:
        """The piece on ``square``, None when empty; ValueError off the board. O(1)."""
        self.variant.board.bit_index(square)  # the ValueError for a square off the board
        bit = 1 << self.rules.index_of[square]
        if self.white_bits & bit:
            return Piece.WHITE_KING if self.king_bits & bit else Piece.WHITE_MAN
        if self.black_bits & bit:
            return Piece.BLACK_KING if self.king_bits & bit else Piece.BLACK_MAN
        return None

    def pieces(self) -> Iterator[tuple[int, Piece]]:
        """(square, piece) for every piece, by square number. O(pieces)."""
        square_of = self.rules.square_of
        found = []
        occupied = self.white_bits | self.black_bits
        while occupied:
            bit = occupied & -occupied
            occupied ^= bit
            square = square_of[bit.bit_length() - 1]
            king = bool(self.king_bits & bit)
            found.append((square, Piece.of("W" if self.white_bits & bit else "B", king)))
        found.sort(key=lambda item: item[0])
        return iter(found)

    def count(self, colour: Colour) -> int:
        """Number of pieces of ``colour``."""
        return (self.white_bits if colour == "W" else self.black_bits).bit_count()

    def sides(self) -> tuple[int, int]:
        """(bitboard of the side to move, bitboard of the other side). O(1)."""
        if self.turn == "W":
            return self.white_bits, self.black_bits
        return self.black_bits, self.white_bits

    def problems(self) -> list[str]:
        """Why this position is impossible for its variant, in words; [] when fine.

        Reports squares read off the board or given twice, men standing on their own crowning
        squares, and more pieces of a side than the variant starts with. Bit tests when
        fine; O(pieces) only to name men on crowning squares.
        """
        found = list(self._notes)
        variant = self.variant
        crown = self.rules.crown
        men = ~self.king_bits
        if self.white_bits & men & crown[True] or self.black_bits & men & crown[False]:
            crowning = {c: set(variant.crowning_squares(c)) for c in ("W", "B")}
            for square, piece in self.pieces():
                if not piece.is_king and square in crowning[piece.colour]:
                    found.append(
                        f"{side_name(piece.colour)} man on {self._name(square)}, "
                        "its crowning square (it would be a king)"
                    )
        start = Position.initial(variant)
        colours: tuple[Colour, ...] = ("W", "B")
        for colour in colours:
            have, most = self.count(colour), start.count(colour)
            if have > most:
                found.append(
                    f"{side_name(colour)} has {have} pieces; {variant.name} starts with {most}"
                )
        return found

    def _name(self, square: int) -> str:
        return self.variant.board.format_square(square, self.variant.default_notation)

    # -- moves ----------------------------------------------------------------------------
    @property
    def legal_moves(self) -> list[Move]:
        """Every legal move, as python-chess's ``board.legal_moves``: captures only when one
        exists, filtered by the capture law, two paths of one capture merged
        (``pdn.engine.movegen.legal_moves(position, keep_duplicates=True)`` keeps them). A new list
        on every access: one legal-move generation.

        >>> from pdn.engine.variants import Variant
        >>> position = Position.from_fen("W:W28:B23,24", Variant.from_name("international"))
        >>> [position.move_text(move, full=True) for move in position.legal_moves]
        ['28x19x30']
        """
        return legal_moves(self)

    def parse_move(self, text: str) -> Move:
        """The legal move ``text`` means here (numeric or algebraic, ``-``/``x``/``:``, short
        or full path, Russian short forms; ``pdn.engine.resolve``). Raises ``IllegalMoveError`` or
        ``AmbiguousMoveError`` (``pdn.engine.errors``) with the resolver's ``code``, ``reason`` and
        ``candidates``. Cost: the written piece's moves (all of them only to explain an error).

        >>> from pdn.engine.variants import Variant
        >>> start = Position.initial(Variant.from_name("international"))
        >>> start.parse_move("32-28").path
        (32, 28)
        >>> start.parse_move("32-23")
        Traceback (most recent call last):
        pdn.engine.errors.IllegalMoveError: 32-23: ...
        """
        from pdn.engine.errors import AmbiguousMoveError, IllegalMoveError
        from pdn.engine.resolve import resolve

        resolution = resolve(self, text)
        if resolution.code is None and resolution.move is not None:
            return resolution.move
        code = resolution.code or "illegal-move"
        error = AmbiguousMoveError if code == "ambiguous-move" else IllegalMoveError
        raise error(text, code, resolution.reason, resolution.candidates)

    def move_text(self, move: Move, *, full: bool = False, notation: Notation | None = None) -> str:
        """``move`` written for this position's variant: its default notation (or
        ``notation``) and capture separator; ``full`` writes every landing square of a
        capture. O(len(move.path)).

        >>> from pdn.engine.variants import Variant
        >>> start = Position.initial(Variant.from_name("russian"))
        >>> start.move_text(start.parse_move("c3-d4"), notation="numeric")
        '22-18'
        """
        variant = self.variant
        return move.notation(
            variant.board, notation or variant.default_notation, full, variant.capture_separator
        )

    def push(self, move: Move | str) -> Position:
        """The position after the legal ``move`` (a ``Move`` or its text): like ``play``, but
        checked (``IllegalMoveError`` for a move that is not legal here); positions are
        immutable, so this returns a new one. Cost: one legal-move generation.

        >>> from pdn.engine.variants import Variant
        >>> start = Position.initial(Variant.from_name("international"))
        >>> start.push("32-28").push("19-23").turn
        'W'
        """
        if isinstance(move, str):
            return self.play(self.parse_move(move))
        if move not in legal_moves(self, keep_duplicates=True):
            from pdn.engine.errors import IllegalMoveError

            text = self.move_text(move, full=True)
            raise IllegalMoveError(text, "illegal-move", "not a legal move here", ())
        return self.play(move)

    def outcome(self) -> Colour | None:
        """Who has won when the side to move cannot move (no piece left, or all blocked): the
        other side, or in a giveaway variant (``Variant.giveaway``) the side to move itself.
        ``None`` while a move exists, and for an empty board (a placeholder FEN decides
        nothing). Draws by rule are not a property of one position (``pdn.engine.drawrules``).
        Cost: one legal-move generation.

        >>> from pdn.engine.variants import Variant
        >>> Position.from_fen("W:W28:B", Variant.from_name("international")).outcome()
        >>> Position.from_fen("B:W28:B", Variant.from_name("international")).outcome()
        'W'
        >>> Position.from_fen("B:W28:B", Variant.from_name("international-giveaway")).outcome()
        'B'
        """
        if not self.white_bits | self.black_bits or self.legal_moves:
            return None
        return self.turn if self.variant.giveaway else other_side(self.turn)

    def play(self, move: Move) -> Position:
        """The position after ``move``, the other side to move; no legality check (the moving
        piece must exist). Captured squares are emptied; the piece is crowned when the move
        says so or when a man ends on its crowning square. ValueError when ``move.from_square``
        holds no piece of the side to move. O(len(move.captures))."""
        rules = self.rules
        index_of = rules.index_of
        size = len(index_of)
        path = move.path
        from_square, to_square = path[0], path[-1]
        if not (0 < from_square < size and 0 < to_square < size):
            for square in (from_square, to_square):
                self.variant.board.bit_index(square)  # raises the ValueError
        source = 1 << index_of[from_square]
        target = 1 << index_of[to_square]
        white = self.turn == "W"
        own, opponent = (
            (self.white_bits, self.black_bits) if white else (self.black_bits, self.white_bits)
        )
        if not own & source:
            raise ValueError(f"no {side_name(self.turn)} piece on {self._name(from_square)}")
        kings = self.king_bits
        crowned = kings & source or move.promotes or rules.crown[white] & target
        if move.captures:
            captured = 0
            for square in move.captures:
                if not 0 < square < size:
                    self.variant.board.bit_index(square)  # raises the ValueError
                captured |= 1 << index_of[square]
            opponent &= ~captured
            kings &= ~captured
        own = (own & ~source) | target
        opponent &= ~target
        kings &= ~(source | target)
        if crowned:
            kings |= target
        if white:
            return Position(self.variant, "B", own, opponent, kings, (), rules)
        return Position(self.variant, "W", opponent, own, kings, (), rules)

    # -- value semantics ------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Position)
            and self.variant.name == other.variant.name
            and self.key() == other.key()
        )

    def __hash__(self) -> int:
        return hash((self.variant.name, self.key()))

    def __repr__(self) -> str:
        return f"Position({self.variant.name!r}, {self.fen()!r})"

    def __rich__(self) -> BoardView:
        """``rich.print(position)`` draws the board (REPL, Jupyter)."""
        return cast("BoardView", lent("Position.__rich__")(self))


# The attributes' own setters: immutable to everyone else, about twice as fast as
# object.__setattr__ (a Position is built per ply played). ``vars`` rather than
# ``Position.__dict__``: the same descriptors when mypyc compiles this module.
(_set_variant, _set_turn, _set_white, _set_black, _set_kings, _set_rules, _set_notes) = (
    vars(Position)[name].__set__
    for name in ("variant", "turn", "white_bits", "black_bits", "king_bits", "rules", "_notes")
)


def _place(
    item: str, colour: Colour, board: Board, placed: dict[int, Piece], notes: list[str]
) -> None:
    """Put the pieces of one FEN item (``K12``, ``31-50``, ``Kc3``, ``05``) into ``placed``."""
    king = item[0] == "K" or (item[0] == "k" and board.width <= 10)
    body = item[1:] if king else item
    names: list[str]
    if "-" in body:
        low, _, high = body.partition("-")
        if not (low.isdigit() and high.isdigit()):
            raise FenError(f"range {item!r} is not two square numbers")
        # compared as numbers without int() on the text: a range is checked against the
        # board before it is expanded, so ``31-99999999999`` costs nothing
        first, last = _square_number(low), _square_number(high)
        if first > last:
            raise FenError(f"range {item!r} runs backwards")
        squares = len(board)
        if last > squares:
            end = high.lstrip("0")
            off = f"{max(first, squares + 1)}-{end if len(end) <= 12 else end[:9] + '...'}"
            notes.append(f"{side_name(colour)} pieces ignored: squares {off} are off the board")
            last = squares
        names = [str(n) for n in range(first, last + 1)]
    else:
        names = [body]
    side = side_name(colour)
    for name in names:
        if not name or not (name.isdigit() or (name[0].isalpha() and name[1:].isdigit())):
            raise FenError(f"{item!r} is not a square")
        try:
            square = board.parse_square(name)
        except ValueError as error:
            notes.append(f"{side} piece ignored: {error}")
            continue
        if square in placed:
            notes.append(f"square {name} is given twice (kept the first)")
            continue
        placed[square] = Piece.of(colour, king)


def _square_number(digits: str) -> int:
    """A square number from its digits; any number with more digits than a board has squares
    reads as a huge sentinel (so no giant int is built from hostile text)."""
    digits = digits.lstrip("0") or "0"
    return int(digits) if len(digits) <= 6 else 10**7


@cache
def _initial(variant: Variant) -> Position:
    return Position.from_fen(variant.start_fen, variant)
