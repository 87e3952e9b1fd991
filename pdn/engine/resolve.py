"""A written move (``32x21``, ``28x19x10``, ``c3:e5``, ``ed4``) in a position -> the legal move
it means, or why no legal move fits, in words a player understands.

Cost of :func:`resolve` for a regular move: a bit-parallel capture check, then the captures
(all of them: the capture law compares them) or only the written piece's plain moves, and a
`Move` object only for the moves whose ends fit the text. Irregular moves (rare) pay for the
whole legal-move list and a few small extra engine queries to say exactly what is wrong and
to compute ``as_played`` (RULES.md A.1).

Decisions (documented here, relied on by the audit):

* The separator is not used to choose a move: PDN 2.0 files write jumps with ``-`` and
  ``3228``/``a3b4`` have none. Squares decide.
* An unknown move (``--``, ``- -``, ``..``) resolves to ``illegal-move`` with the reason
  "the move is not recorded" and no ``as_played``: replay of that line stops.
* ``ambiguous-move`` is a warning, so its ``move`` is not None: it is the first candidate in
  engine order (``candidates`` lists every match); the audit may choose another by looking at
  the next move.
* Capture paths are compared by the key (from, to, set of captured squares): two paths with
  that key are one move (RULES.md A.2), so they never make a move ambiguous.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from pdn.base.findings import Code
from pdn.base.pickling import by_fields
from pdn.engine.geometry import Board, Notation, side_name
from pdn.engine.movegen import Move, RawMove, Rules, legal_moves
from pdn.engine.variants import Variant

if TYPE_CHECKING:  # positions are built through ``type(position)``: no import cycle with it
    from pdn.engine.position import Piece, Position

#: Texts that record "a move was played here but nobody wrote which".
_UNKNOWN_MOVE = re.compile(r"^(?:-\s*-|\.\.\.?)$")
#: Russian short form: from-file, optional separator, to-square (``ed4``, ``gf4``, ``c:e5``).
_SHORT_FORM = re.compile(r"^([a-z])[-x:]?([a-z]\d{1,2})$")
_SEPARATORS = re.compile(r"[-x:*]")
_ALGEBRAIC_SQUARE = re.compile(r"[a-z]\d{1,2}")
_ALGEBRAIC_PATH = re.compile(r"(?:[a-z]\d{1,2}){2,}")

#: Words for each ``Variant.capture_law`` other than free choice, for ``capture-rule`` reasons.
CAPTURE_LAW_WORDS: dict[str, str] = {
    "quantity": "the capture that takes the most pieces is compulsory",
    "quantity-kings": (
        "the capture that takes the most pieces is compulsory, and among those the one that "
        "takes the most kings"
    ),
    "italian": (
        "take the most pieces; if equal, capture with a king; then take the most kings; then "
        "meet a king earliest"
    ),
    "czech": "when a king can capture, a king must capture",
    "frisian": (
        "the capture of the highest value is compulsory (a king counts more than a man, less "
        "than two); on equal value a king must capture"
    ),
}


@dataclass(slots=True, init=False)
class Resolution:
    """What a written move means in a position (see module docstring for the decisions).
    A slotted dataclass, compared by value and not to be changed, with its ``__init__``
    written out as ``pdn.arbiter.replay.Played``'s: one is built per ply replayed, and the compiled
    build compiles that ``__init__`` where a named tuple's ``__new__`` stays a Python
    function. ``ends_unique``: ``move`` is the only legal move from its from-square to its
    to-square, found so by the fast path (False: not looked at), so its short form names it
    alone."""

    move: Move | None
    code: Code | None
    reason: str
    candidates: tuple[Move, ...]
    as_played: Move | None
    ends_unique: bool = False

    def __init__(
        self,
        move: Move | None,
        code: Code | None,
        reason: str,
        candidates: tuple[Move, ...],
        as_played: Move | None,
        ends_unique: bool = False,
    ) -> None:
        self.move = move
        self.code = code
        self.reason = reason
        self.candidates = candidates
        self.as_played = as_played
        self.ends_unique = ends_unique

    def __reduce__(self) -> tuple[type[Any], tuple[Any, ...]]:
        return by_fields(self)  # pickle and copy through __init__


@dataclass(frozen=True)
class WrittenMove:
    """The squares a move text names: full/partial path, or the short form's from-file."""

    squares: tuple[int, ...]
    from_file: int | None = None

    def __reduce__(self) -> tuple[type[Any], tuple[Any, ...]]:
        return by_fields(self)  # pickle and copy through __init__


def resolve(position: Position, written: str, notation: Notation | None = None) -> Resolution:
    """The legal move ``written`` means in ``position``, or an irregularity with its reason,
    naming squares in ``notation`` (the file's; default: the variant's own).

    Fast path for the usual text (``32-28``, ``28x19``: two squares): one bit-parallel
    capture check, then the captures, or without a capture the written piece's one plain
    move looked up directly; a `Move` is built only for the move found. Other texts get
    only the legal moves whose from and to squares a reading names as `Move` objects
    (`matching_moves` on them gives what it gives on the whole list); the complete list is
    built only for an irregular move's diagnosis.
    """
    rules = position.rules
    readings = _memo_readings(rules, written)
    if isinstance(readings, str):
        return _irregular("illegal-move", readings, legal_moves(position, keep_duplicates=True))
    white = position.turn == "W"
    own, opponent = position.sides()
    kings = position.king_bits
    capture = rules.has_capture(own, opponent, kings, white)
    first = readings[0]
    if len(readings) == 1 and len(first.squares) == 2 and first.from_file is None:
        # the usual text: one raw move from and to those squares is the move (several may
        # still be one move: duplicate paths, merged below)
        index_of = rules.index_of
        source, target = index_of[first.squares[0]], index_of[first.squares[1]]
        if not capture:
            hit = rules.plain_move(own, opponent, kings, white, source, target)
            if hit is not None:
                return Resolution(rules.to_move(hit), None, "", (), None, True)
            raw = []  # no plain move of that piece goes there: diagnosed below
        else:
            raw = _raw_candidates(rules, own, opponent, kings, white, readings, capture)
            hits = [move for move in raw if move[0] == source and move[1] == target]
            if len(hits) == 1:
                return Resolution(rules.to_move(hits[0]), None, "", (), None, True)
    else:
        raw = _raw_candidates(rules, own, opponent, kings, white, readings, capture)
    for reading in readings:
        groups = matching_moves(_with_written_ends(rules, raw, reading), position, reading)
        if len(groups) == 1:
            return Resolution(groups[0], None, "", (), None)
        if groups:
            return _ambiguous(position, written.strip(), groups, notation)
    return diagnose(position, readings[0], legal_moves(position, keep_duplicates=True), notation)


def _raw_candidates(
    rules: Rules,
    own: int,
    opponent: int,
    kings: int,
    white: bool,
    readings: Sequence[WrittenMove],
    capture: bool,
) -> list[RawMove]:
    """The legal raw moves (duplicate paths kept) a reading could name: those of the written
    from-squares (all pieces for a short form), except that every capture is searched when a
    capture law compares them; ``capture`` says whether the side has one. Cost: the
    captures or the plain moves of one or two pieces (of all pieces for such a law's
    captures)."""
    movers = 0
    for reading in readings:
        if reading.from_file is not None:
            movers = -1
            break
        movers |= 1 << rules.index_of[reading.squares[0]]
    if capture:
        if rules.variant.capture_law != "free":
            movers = -1
        return rules.captures(own, opponent, kings, white, True, movers)
    return rules.plain_moves(own, opponent, kings, white, movers)


def _with_written_ends(rules: Rules, raw: list[RawMove], reading: WrittenMove) -> list[Move]:
    """The moves among ``raw`` that start and end where ``reading`` says, in engine order."""
    index_of = rules.index_of
    target = index_of[reading.squares[-1]]
    if reading.from_file is None:
        source = index_of[reading.squares[0]]
        return [rules.to_move(move) for move in raw if move[0] == source and move[1] == target]
    board, square_of = rules.variant.board, rules.square_of
    return [
        rules.to_move(move)
        for move in raw
        if move[1] == target and board.coords(square_of[move[0]])[0] == reading.from_file
    ]


def parse_written(board: Board, written: str) -> tuple[WrittenMove, ...]:
    """Every reading of a move text (any case, spaces and a strength suffix ignored);
    ValueError says why there is none. Numbers without separator (``3228``) may split
    several ways (``123``: 1-23 or 12-3).
    """
    readings = _readings(board, written)
    if isinstance(readings, str):
        raise ValueError(readings)
    return readings


#: Readings of move texts already parsed, per engine tables (identity-hashed; the board is
#: theirs): texts recur across the games of a file. Emptied when full.
_MEMO: dict[Rules, dict[str, tuple[WrittenMove, ...] | str]] = {}
MEMO_TEXTS = 16384


def _memo_readings(rules: Rules, written: str) -> tuple[WrittenMove, ...] | str:
    """``_readings`` on the rules' board, memoised. O(1) for a text seen before."""
    memo = _MEMO.get(rules)
    if memo is None:
        memo = _MEMO[rules] = {}
    readings = memo.get(written)
    if readings is None:
        if len(memo) >= MEMO_TEXTS:
            memo.clear()
        readings = memo[written] = _readings(rules.variant.board, written)
    return readings


def _readings(board: Board, written: str) -> tuple[WrittenMove, ...] | str:
    """parse_written's readings, or the reason for a finding when there is none."""
    shown = written.strip()
    text = re.sub(r"\s+", "", written).rstrip("!?").lower()
    if not text or _UNKNOWN_MOVE.match(shown):
        return f"the move is not recorded ({shown or 'empty'!r})"
    try:
        short = _SHORT_FORM.match(text)
        if short:
            return (WrittenMove((_square(board, short.group(2)),), ord(short.group(1)) - 97),)
        parts = _SEPARATORS.split(text)
        if len(parts) == 1:
            if _ALGEBRAIC_PATH.fullmatch(text):
                parts = _ALGEBRAIC_SQUARE.findall(text)
            elif text.isdigit():
                return _numeric_splits(board, text)
        if len(parts) < 2 or not all(parts):
            raise ValueError("expected squares joined by '-', 'x' or ':'")
        return (WrittenMove(tuple(_square(board, part) for part in parts)),)
    except ValueError as error:
        return f"{shown!r} is not a move: {error}"


def _numeric_splits(board: Board, digits: str) -> tuple[WrittenMove, ...]:
    readings = []
    for cut in range(1, len(digits)):
        try:
            squares = (_square(board, digits[:cut]), _square(board, digits[cut:]))
        except ValueError:
            continue
        readings.append(WrittenMove(squares))
    if not readings:
        raise ValueError("the digits do not split into two squares of this board")
    return tuple(readings)


def _square(board: Board, text: str) -> int:
    try:
        return board.parse_square(text)
    except ValueError:
        raise ValueError(f"there is no playable square {text!r} on this board") from None


def matching_moves(moves: Sequence[Move], position: Position, reading: WrittenMove) -> list[Move]:
    """One move per distinct key among ``moves`` that the reading fits (first path kept):
    ends as written, then the written path itself, else a path passing the written inner
    squares, else a trajectory crossing them. O(len(moves) * path length)."""
    board = position.variant.board
    squares = reading.squares
    if reading.from_file is not None:
        fits = [
            move
            for move in moves
            if move.to_square == squares[-1]
            and board.coords(move.from_square)[0] == reading.from_file
        ]
    else:
        ends = [
            move
            for move in moves
            if move.from_square == squares[0] and move.to_square == squares[-1]
        ]
        inner = squares[1:-1]
        fits = ends
        if inner:  # the written path itself, else one passing its squares, else crossing them
            fits = [move for move in ends if move.path == squares]
            if not fits:
                fits = [move for move in ends if _in_order(inner, move.path[1:-1])]
            if not fits:
                fits = [move for move in ends if _in_order(inner, trajectory(board, move))]
    return fits if len(fits) < 2 else list(_unique(fits))


def move_key(move: Move) -> tuple[int, int, frozenset[int]]:
    """The identity of a move (RULES.md A.2): from, to and the set of captured squares."""
    return move.from_square, move.to_square, frozenset(move.captures)


def _in_order(wanted: Sequence[int], within: Sequence[int]) -> bool:
    """True when ``wanted`` is a subsequence of ``within``."""
    remaining = iter(within)
    return all(square in remaining for square in wanted)


def trajectory(board: Board, move: Move) -> list[int]:
    """Every square the moving piece passes or stops on after its start, in order."""
    visited: list[int] = []
    for start, end in zip(move.path, move.path[1:], strict=False):
        visited.extend(line_between(board, start, end))
        visited.append(end)
    return visited


def line_between(board: Board, start: int, end: int) -> list[int]:
    """Squares strictly between two squares on one straight line ([] if not on one line)."""
    (file0, rank0), (file1, rank1) = board.coords(start), board.coords(end)
    d_file, d_rank = file1 - file0, rank1 - rank0
    if not (d_file == 0 or d_rank == 0 or abs(d_file) == abs(d_rank)):
        return []
    steps = max(abs(d_file), abs(d_rank))
    step_file, step_rank = _sign(d_file), _sign(d_rank)
    between = []
    for step in range(1, steps):
        square = board.square_at(file0 + step * step_file, rank0 + step * step_rank)
        if square is None:
            return []
        between.append(square)
    return between


def _sign(value: int) -> int:
    return (value > 0) - (value < 0)


def full_path(move: Move, variant: Variant, notation: Notation | None = None) -> str:
    """The move with every landing square, in ``notation`` (default: the variant's own) and
    the variant's capture separator."""
    return move.notation(
        variant.board,
        notation or variant.default_notation,
        full=True,
        separator=variant.capture_separator,
    )


def _listing(
    position: Position, moves: Iterable[Move], notation: Notation | None, limit: int = 8
) -> str:
    """The moves' full paths for a message, one per key, at most ``limit`` of them."""
    texts = [full_path(move, position.variant, notation) for move in _unique(moves)]
    shown = ", ".join(texts[:limit])
    return shown + (f" and {len(texts) - limit} more" if len(texts) > limit else "")


def _unique(moves: Iterable[Move]) -> tuple[Move, ...]:
    """One move per key (the first path met), in the given order."""
    unique: dict[tuple[int, int, frozenset[int]], Move] = {}
    for move in moves:
        unique.setdefault(move_key(move), move)
    return tuple(unique.values())


def _irregular(
    code: Code, reason: str, moves: Sequence[Move], as_played: Move | None = None
) -> Resolution:
    return Resolution(None, code, reason, _unique(moves), as_played)


def _ambiguous(
    position: Position, written: str, groups: list[Move], notation: Notation | None
) -> Resolution:
    reason = (
        f"{written!r} fits {len(groups)} legal moves: {_listing(position, groups, notation)}; "
        "the full path is needed"
    )
    return Resolution(groups[0], "ambiguous-move", reason, tuple(groups), None)


# --- irregular moves -------------------------------------------------------------------------


def diagnose(
    position: Position,
    reading: WrittenMove,
    moves: Sequence[Move],
    notation: Notation | None = None,
) -> Resolution:
    """Why no legal move fits ``reading``, and the piece movement as recorded if playable.

    Cost: only for irregular moves; at most one extra capture search (free choice) plus one
    tiny engine query per written leg.
    """
    variant = position.variant
    board = variant.board
    to_square = reading.squares[-1]
    notation = notation or variant.default_notation
    shown_to = board.format_square(to_square, notation)
    if reading.from_file is not None:
        return _irregular(
            "illegal-move",
            f"no {side_name(position.turn)} piece on the {chr(97 + reading.from_file)}-file "
            f"can go to {shown_to}",
            moves,
        )
    from_square = reading.squares[0]
    shown_from = board.format_square(from_square, notation)
    piece = position.piece_at(from_square)
    if piece is None:
        return _irregular("illegal-move", f"there is no piece on {shown_from}", moves)
    if piece.colour != position.turn:
        return _irregular(
            "illegal-move",
            f"the piece on {shown_from} is {side_name(piece.colour)}'s, but "
            f"{side_name(position.turn)} is to move",
            moves,
        )
    captures = [move for move in moves if move.is_capture]
    if len(reading.squares) == 2 and captures:
        step = _plain_move(position, from_square, to_square)
        if step is not None:
            return _irregular(
                "missed-capture",
                f"a capture was compulsory: {_listing(position, captures, notation)}",
                moves,
                as_played=step,
            )
    recorded = _free_choice_capture(position, reading)
    if recorded is not None:
        return _irregular(
            "capture-rule",
            _capture_rule_reason(position, recorded, captures, notation),
            moves,
            as_played=recorded,
        )
    unfinished = _capture_as_written(position, reading.squares)
    if unfinished is not None:
        longer = [move for move in captures if move.from_square == from_square]
        options = f" ({_listing(position, longer, notation)})" if longer else ""
        return _irregular(
            "capture-rule",
            f"the capture was not finished: it must go on while pieces can be taken{options}",
            moves,
            as_played=unfinished,
        )
    kind = "king" if piece.is_king else "man"
    return _irregular(
        "illegal-move",
        f"the {kind} on {shown_from} cannot go to {shown_to}: "
        f"{_why_not(position, piece, reading.squares, notation)}",
        moves,
    )


def _why_not(position: Position, piece: Piece, squares: Sequence[int], notation: Notation) -> str:
    """Words for a piece movement that is no move at all: occupied, blocked, or not a step
    this piece makes (asks the engine about the piece alone on the board)."""
    board = position.variant.board
    from_square, to_square = squares[0], squares[-1]
    if to_square != from_square and position.piece_at(to_square) is not None:
        return f"{board.format_square(to_square, notation)} is occupied"
    if len(squares) == 2:
        alone = type(position).from_pieces(position.variant, {from_square: piece}, position.turn)
        if any(move.path == (from_square, to_square) for move in alone.legal_moves):
            blockers = [
                board.format_square(square, notation)
                for square in line_between(board, from_square, to_square)
                if position.piece_at(square) is not None
            ]
            return f"the way is blocked at {', '.join(blockers)}"
    return "not a move this piece can make here (wrong direction, too far, or nothing to jump)"


def _pieces(count: int) -> str:
    return f"{count} piece" if count == 1 else f"{count} pieces"


def _plain_move(position: Position, from_square: int, to_square: int) -> Move | None:
    """The engine's non-capturing move from -> to, if the piece's movement allows it here
    (whether or not a capture is due: a missed capture is diagnosed with it)."""
    rules = position.rules
    own, opponent = position.sides()
    index_of = rules.index_of
    raw = rules.plain_move(
        own,
        opponent,
        position.king_bits,
        position.turn == "W",
        index_of[from_square],
        index_of[to_square],
    )
    return None if raw is None else rules.to_move(raw)


def _free_choice_capture(position: Position, reading: WrittenMove) -> Move | None:
    """The complete capture the reading names if the variant let the player choose freely
    among captures, and let men take kings (so: a real piece movement, forbidden only by the
    capture law), else None. Cost: one capture search, for irregular moves only."""
    variant = position.variant
    if variant.capture_law == "free" and variant.men_capture_kings:
        return None
    free = type(position)(
        replace(variant, capture_law="free", men_capture_kings=True),
        position.turn,
        position.white_bits,
        position.black_bits,
        position.king_bits,
    )
    matches = matching_moves(legal_moves(free, keep_duplicates=True), position, reading)
    captures = [move for move in matches if move.is_capture]
    return captures[0] if captures else None


def _capture_rule_reason(
    position: Position, recorded: Move, captures: Sequence[Move], notation: Notation
) -> str:
    """Words for a real capture that the variant's capture law (or its men) forbid."""
    variant = position.variant
    mover = position.piece_at(recorded.from_square)
    taken = [position.piece_at(square) for square in recorded.captures]
    took_king = any(piece is not None and piece.is_king for piece in taken)
    if not variant.men_capture_kings and took_king and mover is not None and not mover.is_king:
        rule = "a man may not capture a king"
    else:
        rule = CAPTURE_LAW_WORDS.get(variant.capture_law, "another capture was compulsory")
    legal = (
        f"the legal captures are {_listing(position, captures, notation)}"
        if captures
        else "no capture was legal"
    )
    return (
        f"{variant.name} rule: {rule}; {full_path(recorded, variant, notation)} takes "
        f"{_pieces(len(recorded.captures))}; {legal}"
    )


def _capture_as_written(position: Position, squares: Sequence[int]) -> Move | None:
    """The capture the written path describes, leg by leg, when each leg is one jump this
    piece may make over one enemy piece (pieces taken earlier in the move still block);
    else None. Used for a capture stopped halfway. Cost: one tiny engine query per leg.
    """
    from_square = squares[0]
    mover = position.piece_at(from_square)
    if mover is None:
        return None
    captured: list[int] = []
    promotes = False
    for start, end in itertools.pairwise(squares):
        if end != from_square and position.piece_at(end) is not None:
            return None
        blockers = [
            square
            for square in line_between(position.variant.board, start, end)
            if square != from_square and position.piece_at(square) is not None
        ]
        if len(blockers) != 1 or blockers[0] in captured:
            return None
        (taken,) = blockers
        victim = position.piece_at(taken)
        if victim is None or victim.colour == mover.colour:
            return None
        jump = _single_jump(position, start, end, taken, mover, victim)
        if jump is None:
            return None
        captured.append(taken)
        promotes = jump.promotes
        if promotes and position.variant.promote_in_passing:
            mover = type(mover).of(mover.colour, True)
    return Move(path=tuple(squares), captures=tuple(captured), promotes=promotes)


def _single_jump(
    position: Position, start: int, end: int, taken: int, mover: Piece, victim: Piece
) -> Move | None:
    """The engine's one-capture move start x end over ``taken``, on an otherwise empty board."""
    alone = type(position).from_pieces(
        position.variant, {start: mover, taken: victim}, position.turn
    )
    for move in legal_moves(alone, keep_duplicates=True):
        if move.path == (start, end) and move.captures == (taken,):
            return move
    return None
