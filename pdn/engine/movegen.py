"""Legal moves for every variant's capture law, and perft.

The engine works on int bitboards in the layout of `bit_layout`: the dark squares with one ghost
bit per two ranks (55 bits for 10x10, 36 for 8x8: small ints, unboxed in the compiled build),
or the padded layout of `pdn.engine.geometry.Board` where that does not fit. Plain moves and "is
there a capture at all" are found bit-parallel with shifts; capture sequences are searched piece by
piece along precomputed rays. Variant rules come only from the `Variant` data fields.

Capture paths follow RULES.md §0: a path records the landing square after each captured piece;
when a flying king goes on capturing along the same line, the empty squares between the two
captured pieces are not separate paths. Duplicates (RULES.md A.2) are merged by (from, to,
captured set, promotes) plus, for Italian, the order in which kings were taken.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pdn.base.pickling import by_fields
from pdn.engine.geometry import Board, Notation
from pdn.engine.variants import VARIANTS, Variant, as_variant

if TYPE_CHECKING:
    from pdn.engine.position import Position

#: Raw engine move: (from index, to index, captured mask, promotes, path indexes, captured
#: indexes in jump order). Plain moves have an empty path and captures.
RawMove = tuple[int, int, int, bool, tuple[int, ...], tuple[int, ...]]


@dataclass(frozen=True)
class Move:
    """A move: ``path`` = from, the landing square after each captured piece, to (a plain
    move is ``(from, to)``); ``captures`` = captured squares in jump order."""

    path: tuple[int, ...]
    captures: tuple[int, ...] = ()
    promotes: bool = False

    @property
    def from_square(self) -> int:
        return self.path[0]

    @property
    def to_square(self) -> int:
        return self.path[-1]

    @property
    def is_capture(self) -> bool:
        return bool(self.captures)

    def notation(
        self,
        board: Board,
        notation: Notation = "numeric",
        full: bool = False,
        separator: str | None = None,
    ) -> str:
        """PDN text: short form ``from-to`` / ``fromxto``, or with ``full`` every landing
        square of a capture (PDN.md §1.4). ``separator`` replaces ``x`` between capture squares
        (``":"`` Russian, ``"-"`` Thai); plain moves always use ``-``."""
        squares = self.path if full else (self.path[0], self.path[-1])
        names = [board.format_square(square, notation) for square in squares]
        return ((separator or "x") if self.captures else "-").join(names)

    def __reduce__(self) -> tuple[type[Any], tuple[Any, ...]]:
        return by_fields(self)  # pickle and copy through __init__


def legal_moves(position: Position, keep_duplicates: bool = False) -> list[Move]:
    """Every legal move of ``position`` under its variant's rules: captures only when one
    exists, filtered by the capture law; duplicates merged unless ``keep_duplicates``.
    Cost: bit-parallel for plain moves, a depth-first search per capturing piece."""
    rules = position.rules
    own, opponent = position.sides()
    raw = rules.generate(own, opponent, position.king_bits, position.turn == "W", keep_duplicates)
    return [rules.to_move(move) for move in raw]


#: Deepest perft accepted: far beyond what can finish, well within Python's recursion limit.
MAX_PERFT_DEPTH = 64


def perft(position: Position, depth: int, keep_duplicates: bool = False) -> list[int]:
    """Node counts [n1, ..., n_depth] of the move tree below ``position`` (no draw rules; a
    side without moves is a leaf). Bulk-counts the last ply without making the moves.
    ValueError for a depth over ``MAX_PERFT_DEPTH`` (the search recurses once per ply)."""
    if depth > MAX_PERFT_DEPTH:
        raise ValueError(f"perft depth {depth} is over the limit of {MAX_PERFT_DEPTH}")
    if depth < 1:
        return []
    rules = position.rules
    counts = [0] * depth
    own, opponent = position.sides()
    rules.perft(
        own, opponent, position.king_bits, position.turn == "W", depth, keep_duplicates, counts, 0
    )
    return counts


#: Engine tables per distinct variant definition (equal variants share them).
_RULES_BY_VALUE: dict[Variant, Rules] = {}
#: Fast path for the registered variants: id -> (variant, tables), no field hashing.
_RULES_BY_ID: dict[int, tuple[Variant, Rules]] = {}


def rules_for(variant: Variant | str) -> Rules:
    """The engine tables for ``variant`` (a ``Variant`` or its name), built once per distinct
    definition. O(1) for the variants of `pdn.engine.variants.VARIANTS`; one hash of the fields for
    variants made with ``dataclasses.replace``; a name is looked up first."""
    entry = _RULES_BY_ID.get(id(variant))
    if entry is not None and entry[0] is variant:
        return entry[1]
    variant = as_variant(variant)
    rules = _RULES_BY_VALUE.get(variant)
    if rules is None:
        rules = _RULES_BY_VALUE[variant] = Rules(variant)
    if VARIANTS.get(variant.name) is variant:
        _RULES_BY_ID[id(variant)] = (variant, rules)
    return rules


#: A capture sequence while searching: (path, captured in jump order, captured mask, ends as
#: a king).
Sequence = tuple[tuple[int, ...], tuple[int, ...], int, bool]
#: One next jump: (direction id, victim index, landing indexes).
Jump = tuple[int, int, tuple[int, ...]]


class Rules:
    """Precomputed tables of one variant and its move generator (see module docstring).

    Directions are ids into ``offsets`` (bit-index deltas); ``[white]`` indexes per-colour
    tables (0 = Black, 1 = White).
    """

    def __init__(self, variant: Variant) -> None:
        board = variant.board
        self.variant = variant
        if variant.geometry == "diagonal":
            king_steps = [(1, 1), (-1, 1), (1, -1), (-1, -1)]
            orthogonal = [(2, 0), (-2, 0), (0, 2), (0, -2)]
            man_moves = [(1, 1), (-1, 1)]
            man_captures = [(1, 1), (-1, 1)]
            if variant.men_capture_backward:
                man_captures += [(1, -1), (-1, -1)]
            if variant.orthogonal_captures:
                man_captures += orthogonal
            king_captures = king_steps + (orthogonal if variant.orthogonal_captures else [])
        else:
            king_steps = [(0, 1), (0, -1), (1, 0), (-1, 0)]
            man_moves = [(0, 1), (1, 0), (-1, 0)]
            man_captures = list(man_moves)
            king_captures = list(king_steps)
        vectors: list[tuple[int, int]] = []
        for step in king_captures + man_captures:
            for vector in (step, (step[0], -step[1]), (-step[0], -step[1])):
                if vector not in vectors:
                    vectors.append(vector)
        #: square number -> bit index (index 0 unused), and one bit-index delta per vector
        self.index_of, self.offsets = bit_layout(board, vectors)
        size = max(self.index_of) + 1
        self.playable = _mask(self.index_of, board.squares)
        self.reverse = [vectors.index((-df, -dr)) for df, dr in vectors]

        def ids(steps: list[tuple[int, int]], white: bool) -> tuple[int, ...]:
            return tuple(vectors.index(s if white else (s[0], -s[1])) for s in steps)

        man_capture_dirs = (ids(man_captures, False), ids(man_captures, True))
        self.king_capture_dirs = ids(king_captures, True)
        self.man_move_offsets = tuple(
            _split([self.offsets[d] for d in ids(man_moves, white)]) for white in (False, True)
        )
        self.man_capture_offsets = tuple(
            _split([self.offsets[d] for d in ds]) for ds in man_capture_dirs
        )
        self.king_move_offsets = _split([self.offsets[d] for d in ids(king_steps, True)])
        # the same steps as signed bit-index deltas, for listing moves one target at a time
        self.man_move_steps = tuple(
            up + tuple(-o for o in down) for up, down in self.man_move_offsets
        )
        self.king_move_steps = self.king_move_offsets[0] + tuple(
            -o for o in self.king_move_offsets[1]
        )
        self.king_capture_offsets = _split([self.offsets[d] for d in self.king_capture_dirs])
        self.rays: list[list[tuple[int, ...]]] = [[] for _ in range(size)]
        index_of = self.index_of
        for square in board.squares:
            self.rays[index_of[square]] = [
                tuple(index_of[s] for s in board.ray(square, vector)) for vector in vectors
            ]
        # one-square jumps (men, short kings): index -> ((direction, victim, landing), ...)
        self.man_jumps = tuple(self._jumps(dirs, size) for dirs in man_capture_dirs)
        self.king_jumps = self._jumps(self.king_capture_dirs, size)
        self.crown = (
            _mask(index_of, variant.crowning_squares("B")),
            _mask(index_of, variant.crowning_squares("W")),
        )
        self.flying = variant.king_range != "short"
        self.many_landings = variant.king_range == "flying"
        # men-only captures can be counted without paths when no rule looks past the count
        self.counts_men_alone = not variant.promote_in_passing and variant.capture_law in (
            "free",
            "quantity",
            "czech",
        )
        self.plain_move_cache: dict[tuple[int, int, bool], Move] = {}
        self.square_of = [0] * size
        for square in board.squares:
            self.square_of[index_of[square]] = square

    def _jumps(self, dirs: tuple[int, ...], size: int) -> list[tuple[tuple[int, int, int], ...]]:
        table: list[tuple[tuple[int, int, int], ...]] = [() for _ in range(size)]
        for index, rays in enumerate(self.rays):
            if rays:
                table[index] = tuple((d, rays[d][0], rays[d][1]) for d in dirs if len(rays[d]) > 1)
        return table

    # -- public engine API ----------------------------------------------------------------
    def to_move(self, raw: RawMove) -> Move:
        """The `Move` of a raw engine move."""
        source, target, _captured, promotes, path, captured = raw
        square_of = self.square_of
        if not path:
            key = (source, target, promotes)
            move = self.plain_move_cache.get(key)
            if move is None:
                move = self.plain_move_cache[key] = Move(
                    (square_of[source], square_of[target]), (), promotes
                )
            return move
        return Move(
            tuple([square_of[i] for i in path]), tuple([square_of[i] for i in captured]), promotes
        )

    def generate(self, own: int, opp: int, kings: int, white: bool, keep: bool) -> list[RawMove]:
        """Legal raw moves of the side owning ``own``."""
        if self.has_capture(own, opp, kings, white):
            return self.captures(own, opp, kings, white, keep)
        return self.plain_moves(own, opp, kings, white)

    def count_moves(self, own: int, opp: int, kings: int, white: bool, keep: bool) -> int:
        """Number of legal moves; plain moves counted bit-parallel without listing them."""
        if self.has_capture(own, opp, kings, white):
            return self.count_captures(own, opp, kings, white, keep)
        empty = self.playable & ~(own | opp)
        men = own & ~kings
        count = 0
        up, down = self.man_move_offsets[white]
        for offset in up:
            count += ((men << offset) & empty).bit_count()
        for offset in down:
            count += ((men >> offset) & empty).bit_count()
        own_kings = own & kings
        if own_kings:
            up, down = self.king_move_offsets
            flying = self.flying
            for offset in up:
                reach = (own_kings << offset) & empty
                count += reach.bit_count()
                while reach and flying:
                    reach = (reach << offset) & empty
                    count += reach.bit_count()
            for offset in down:
                reach = (own_kings >> offset) & empty
                count += reach.bit_count()
                while reach and flying:
                    reach = (reach >> offset) & empty
                    count += reach.bit_count()
        return count

    def perft(
        self,
        own: int,
        opp: int,
        kings: int,
        white: bool,
        depth: int,
        keep: bool,
        counts: list[int],
        ply: int,
    ) -> None:
        """Add the move counts below this node to ``counts[ply:]`` (make by bit arithmetic)."""
        if depth == 1:
            counts[ply] += self.count_moves(own, opp, kings, white, keep)
            return
        moves = self.generate(own, opp, kings, white, keep)
        counts[ply] += len(moves)
        for source, target, captured, promotes, _path, _caps in moves:
            source_bit, target_bit = 1 << source, 1 << target
            after = kings & ~captured
            if kings & source_bit:
                after = (after & ~source_bit) | target_bit
            elif promotes:
                after |= target_bit
            self.perft(
                opp & ~captured,
                own ^ source_bit ^ target_bit,
                after,
                not white,
                depth - 1,
                keep,
                counts,
                ply + 1,
            )

    # -- plain moves ----------------------------------------------------------------------
    def plain_moves(
        self, own: int, opp: int, kings: int, white: bool, movers: int = -1
    ) -> list[RawMove]:
        """Every non-capturing move of the pieces in the ``movers`` mask (default: all of
        ``own``), in the same order as without a mask (call only when no capture exists)."""
        empty = self.playable & ~(own | opp)
        own &= movers
        men = own & ~kings
        crown = self.crown[white]
        moves: list[RawMove] = []
        for offset in self.man_move_steps[white]:
            targets = (men << offset if offset > 0 else men >> -offset) & empty
            while targets:
                bit = targets & -targets
                targets ^= bit
                index = bit.bit_length() - 1
                moves.append((index - offset, index, 0, bool(crown & bit), (), ()))
        own_kings = own & kings
        steps = self.king_move_steps
        while own_kings:
            bit = own_kings & -own_kings
            own_kings ^= bit
            source = bit.bit_length() - 1
            for offset in steps:
                target = source + offset
                while target >= 0 and (empty >> target) & 1:
                    moves.append((source, target, 0, False, (), ()))
                    if not self.flying:
                        break
                    target += offset
        return moves

    def plain_move(
        self, own: int, opp: int, kings: int, white: bool, source: int, target: int
    ) -> RawMove | None:
        """The non-capturing move from bit index ``source`` to ``target`` when the piece of
        ``own`` there makes it (the one `plain_moves` lists with those ends), else None. The
        piece's movement only: a legal move only when no capture exists. O(1) for a man,
        O(board width) for a king."""
        empty = self.playable & ~(own | opp)
        if not (own >> source) & 1 or not (empty >> target) & 1:
            return None
        if not (kings >> source) & 1:
            if target - source in self.man_move_steps[white]:
                return (source, target, 0, bool((self.crown[white] >> target) & 1), (), ())
            return None
        for offset in self.king_move_steps:
            square = source + offset
            while square >= 0 and (empty >> square) & 1:
                if square == target:
                    return (source, target, 0, False, (), ())
                if not self.flying:
                    break
                square += offset
        return None

    # -- captures -------------------------------------------------------------------------
    def has_capture(self, own: int, opp: int, kings: int, white: bool) -> bool:
        """Whether the side owning ``own`` has any capture (bit-parallel, first jump only)."""
        empty = self.playable & ~(own | opp)
        men = own & ~kings
        if men:
            victims = opp if self.variant.men_capture_kings else opp & ~kings
            up, down = self.man_capture_offsets[white]
            for offset in up:
                if (((men << offset) & victims) << offset) & empty:
                    return True
            for offset in down:
                if (((men >> offset) & victims) >> offset) & empty:
                    return True
        own_kings = own & kings
        if own_kings:
            up, down = self.king_capture_offsets
            flying = self.flying
            for offset in up:
                reach = own_kings << offset
                found = reach & opp
                reach &= empty
                while reach and flying:
                    reach <<= offset
                    found |= reach & opp
                    reach &= empty
                if (found << offset) & empty:
                    return True
            for offset in down:
                reach = own_kings >> offset
                found = reach & opp
                reach &= empty
                while reach and flying:
                    reach >>= offset
                    found |= reach & opp
                    reach &= empty
                if (found >> offset) & empty:
                    return True
        return False

    def captures(
        self, own: int, opp: int, kings: int, white: bool, keep: bool, movers: int = -1
    ) -> list[RawMove]:
        """Every legal capture as raw moves: duplicates merged unless ``keep``; ``movers``
        as in `capture_sequences`."""
        crown = self.crown[white]
        moves: list[RawMove] = []
        seen: set[tuple[object, ...]] = set()
        king_order = self.variant.king_order_matters
        for path, caps, taken, final_king in self.capture_sequences(own, opp, kings, white, movers):
            source, target = path[0], path[-1]
            promotes = not (kings >> source) & 1 and (final_king or bool((crown >> target) & 1))
            if not keep:
                key: tuple[object, ...] = (source, target, taken, promotes)
                if king_order:
                    key += tuple((kings >> v) & 1 for v in caps)
                if key in seen:
                    continue
                seen.add(key)
            moves.append((source, target, taken, promotes, path, caps))
        return moves

    def count_captures(self, own: int, opp: int, kings: int, white: bool, keep: bool) -> int:
        """``len(captures(...))`` without building the moves."""
        if self.counts_men_alone and not own & kings:
            return self._count_man_captures(own, opp, kings, white, keep)
        sequences = self.capture_sequences(own, opp, kings, white)
        if keep or len(sequences) == 1:
            return len(sequences)
        if self.variant.king_order_matters or self.variant.promote_in_passing:
            return len(self.captures(own, opp, kings, white, keep))
        return len({(path[0], path[-1], taken) for path, _caps, taken, _king in sequences})

    def _count_man_captures(self, own: int, opp: int, kings: int, white: bool, keep: bool) -> int:
        """`count_captures` when only men capture and the law looks at nothing but the
        number of pieces: the same search as `capture_sequences` with an explicit stack,
        keeping only (start, end, captured, length) — the perft hot path."""
        jumps = self.man_jumps[white]
        victims = opp if self.variant.men_capture_kings else opp & ~kings
        immediate = self.variant.immediate_removal
        occupied = own | opp
        empty = self.playable & ~occupied
        starters = 0
        up, down = self.man_capture_offsets[white]
        for offset in up:
            starters |= (((empty >> offset) & victims) >> offset) & own
        for offset in down:
            starters |= (((empty << offset) & victims) << offset) & own
        ends: list[tuple[int, int, int, int]] = []
        while starters:
            bit = starters & -starters
            starters ^= bit
            start = bit.bit_length() - 1
            base = occupied & ~bit
            stack = [(start, 0, 0)]
            while stack:
                square, taken, length = stack.pop()
                occ = base & ~taken if immediate else base
                extended = False
                for _d, victim, land in jumps[square]:
                    if (
                        (victims >> victim) & 1
                        and not (taken >> victim) & 1
                        and not (occ >> land) & 1
                    ):
                        stack.append((land, taken | (1 << victim), length + 1))
                        extended = True
                if not extended and length:
                    ends.append((start, square, taken, length))
        if self.variant.capture_law == "quantity":
            best = max(end[3] for end in ends)
            ends = [end for end in ends if end[3] == best]
        if keep:
            return len(ends)
        return len({end[:3] for end in ends})

    def capture_sequences(
        self, own: int, opp: int, kings: int, white: bool, movers: int = -1
    ) -> list[Sequence]:
        """Every capture sequence the capture law allows (duplicates included), of the pieces
        in the ``movers`` mask only (default: all; a mask is meant for the free-choice law,
        where the law does not compare pieces). Cost: a depth-first search from each piece
        that can start a capture (men here, kings in `_king_sequences`)."""
        variant = self.variant
        immediate = variant.immediate_removal
        in_passing = variant.promote_in_passing
        crown = self.crown[white]
        man_jumps = self.man_jumps[white]
        occupied = own | opp
        man_victims = opp if variant.men_capture_kings else opp & ~kings
        empty = self.playable & ~occupied
        men = own & ~kings
        starters = own & kings
        up, down = self.man_capture_offsets[white]
        for offset in up:
            starters |= (((empty >> offset) & man_victims) >> offset) & men
        for offset in down:
            starters |= (((empty << offset) & man_victims) << offset) & men
        starters &= movers
        sequences: list[Sequence] = []
        while starters:
            bit = starters & -starters
            starters ^= bit
            start = bit.bit_length() - 1
            base = occupied & ~bit  # occupancy with the moving piece lifted
            if kings & bit:
                self._king_sequences(opp, base, (start,), (), 0, -1, sequences)
                continue
            # a man: depth-first with an explicit stack, each step's jumps pushed in reverse
            # so the sequences come out in the order of the jump tables; an entry whose
            # ``arrived`` is a direction is a man crowned in passing, going on as a king
            stack: list[tuple[tuple[int, ...], tuple[int, ...], int, int]] = [((start,), (), 0, -1)]
            while stack:
                path, caps, taken, arrived = stack.pop()
                if arrived >= 0:
                    self._king_sequences(opp, base, path, caps, taken, arrived, sequences)
                    continue
                occ = base & ~taken if immediate else base
                found = [
                    (d, victim, land)
                    for d, victim, land in man_jumps[path[-1]]
                    if (man_victims >> victim) & 1
                    and not (taken >> victim) & 1
                    and not (occ >> land) & 1
                ]
                if not found:
                    if caps:
                        sequences.append((path, caps, taken, False))
                    continue
                for d, victim, land in reversed(found):
                    crowned = in_passing and (crown >> land) & 1
                    stack.append(
                        (
                            path + (land,),
                            caps + (victim,),
                            taken | (1 << victim),
                            d if crowned else -1,
                        )
                    )
        return self._apply_law(sequences, kings) if len(sequences) > 1 else sequences

    def _king_sequences(
        self,
        opp: int,
        base: int,
        path: tuple[int, ...],
        caps: tuple[int, ...],
        taken: int,
        arrived: int,
        sequences: list[Sequence],
    ) -> None:
        """Append to ``sequences`` every capture sequence of a king standing at the end of
        ``path`` (arrived from direction ``arrived``, -1 for a king that starts there) with
        ``caps`` taken so far; ``base`` is the occupancy without the moving piece."""
        variant = self.variant
        rays = self.rays
        reverse = self.reverse
        immediate = variant.immediate_removal
        may_reverse = variant.king_may_reverse
        king_jumps = self.king_jumps
        king_dirs = self.king_capture_dirs
        flying = self.flying
        many_landings = self.many_landings

        def king_options(
            square: int, taken: int, arrived: int, only: int, exclude: int
        ) -> list[Jump]:
            """Next jumps of a king on ``square``; ``only``/``exclude`` a direction (-1: none)."""
            occ = base & ~taken if immediate else base
            found: list[Jump] = []
            if not flying:
                for d, victim, land in king_jumps[square]:
                    if (
                        (opp >> victim) & 1
                        and not (taken >> victim) & 1
                        and not (occ >> land) & 1
                        and not (
                            immediate and arrived >= 0 and d == reverse[arrived] and not may_reverse
                        )
                    ):
                        found.append((d, victim, (land,)))
                return found
            for d in king_dirs:
                if (only >= 0 and d != only) or d == exclude:
                    continue
                if immediate and arrived >= 0 and d == reverse[arrived] and not may_reverse:
                    continue
                ray = rays[square][d]
                length = len(ray)
                i = 0
                while i < length and not (occ >> ray[i]) & 1:
                    i += 1
                if i + 1 >= length:
                    continue
                victim = ray[i]
                if not (opp >> victim) & 1 or (taken >> victim) & 1 or (occ >> ray[i + 1]) & 1:
                    continue
                j = i + 2
                if many_landings:
                    while j < length and not (occ >> ray[j]) & 1:
                        j += 1
                found.append((d, victim, ray[i + 1 : j]))
            return found

        def expand(
            path: tuple[int, ...], caps: tuple[int, ...], taken: int, jumps: list[Jump]
        ) -> None:
            for d, victim, landings in jumps:
                caps2 = caps + (victim,)
                taken2 = taken | (1 << victim)
                if len(landings) == 1:
                    land = landings[0]
                    following = king_options(land, taken2, d, -1, -1)
                    if following:
                        expand(path + (land,), caps2, taken2, following)
                    else:
                        sequences.append((path + (land,), caps2, taken2, True))
                    continue
                # a flying king with several landing squares: it must land where it can go on
                # capturing if any landing allows it; going straight on is one path (RULES §0)
                straight = king_options(landings[0], taken2, d, d, -1)
                turns = [king_options(land, taken2, d, -1, d) for land in landings]
                if straight or any(turns):
                    for land, turn in zip(landings, turns, strict=True):
                        if turn:
                            expand(path + (land,), caps2, taken2, turn)
                    if straight:
                        expand(path + (landings[0],), caps2, taken2, straight)
                else:
                    sequences.extend((path + (land,), caps2, taken2, True) for land in landings)

        following = king_options(path[-1], taken, arrived, -1, -1)
        if following:
            expand(path, caps, taken, following)
        elif caps:
            sequences.append((path, caps, taken, True))

    def _apply_law(self, sequences: list[Sequence], kings: int) -> list[Sequence]:
        """The sequences the variant's capture law allows among ``sequences``."""
        law = self.variant.capture_law
        if len(sequences) < 2 or law == "free":
            return sequences
        if law == "czech":
            return [s for s in sequences if (kings >> s[0][0]) & 1] or sequences
        if law == "quantity":
            best = max(len(s[1]) for s in sequences)
            return [s for s in sequences if len(s[1]) == best]
        scores = [_score(law, s[0][0], s[1], kings) for s in sequences]
        top = max(scores)
        return [s for s, score in zip(sequences, scores, strict=True) if score == top]


def _score(law: str, source: int, caps: tuple[int, ...], kings: int) -> tuple[int, ...]:
    """Comparable strength of a capture under ``law`` (greater = preferred)."""
    flags = tuple((kings >> v) & 1 for v in caps)
    by_king = (kings >> source) & 1
    if law == "quantity-kings":
        return (len(caps), sum(flags))
    if law == "frisian":  # a king is worth more than a man, less than two (RULES B§10)
        return (100 * len(caps) + 99 * sum(flags), by_king)
    return (len(caps), by_king, sum(flags), *flags)  # italian precedence (RULES B§7)


def _split(offsets: list[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Offsets as (left shifts, right shift amounts) for bit-parallel stepping."""
    return tuple(o for o in offsets if o > 0), tuple(-o for o in offsets if o < 0)


def _mask(index_of: tuple[int, ...], squares: Iterable[int]) -> int:
    """The bitboard of ``squares`` (``index_of``: square -> bit index)."""
    mask = 0
    for square in squares:
        mask |= 1 << index_of[square]
    return mask


#: Bits of an int the compiled build keeps unboxed (mypyc's tagged ints hold 63-bit values):
#: a bitboard wider than this becomes a heap object at every operation.
SMALL_INT_BITS = 62


def bit_layout(board: Board, vectors: list[tuple[int, int]]) -> tuple[tuple[int, ...], list[int]]:
    """The engine's bit layout for stepping by ``vectors`` (file, rank) on ``board``: square
    -> bit index (index 0 unused) and each vector's bit-index delta.

    The dark squares of a board with an even number of files, two ranks after each other and
    then one ghost bit (International: 5 + 5 + 1 bits per two ranks, 55 in all), when every
    vector is one delta from every square and a step off the board lands on no square; and
    when the board then fits in ``SMALL_INT_BITS`` with a step to spare, so the compiled
    engine's bitboards stay unboxed ints. Else ``Board``'s padded layout (``rank * stride +
    file``, two ghost files: orthogonal and all-square boards, 12x12), which always works. The
    moves and their squares are the same in both. O(squares * vectors), once per variant."""
    for start in (0, 1):
        compact = _compact_layout(board, vectors, start)
        if compact is not None:
            return compact
    stride = board.stride
    index_of = (0, *(board.bit_index(square) for square in board.squares))
    return index_of, [df + dr * stride for df, dr in vectors]


def _compact_layout(
    board: Board, vectors: list[tuple[int, int]], start: int
) -> tuple[tuple[int, ...], list[int]] | None:
    """``bit_layout``'s ghost-bit layout with its first rank the second of a pair when
    ``start`` is 1 (the bits then start at 0 all the same); None when it does not hold. The
    bits keep the padded layout's order (by rank, then file), so moves come in the same
    order."""
    width = board.width
    if width % 2 or board.all_squares:
        return None
    half = width // 2
    bit: dict[tuple[int, int], int] = {}
    for square in board.squares:
        file, rank = board.coords(square)
        place = rank + start
        bit[file, rank] = place // 2 * (width + 1) + place % 2 * half + file // 2 - start * half
    used = set(bit.values())
    if len(used) != len(bit):
        return None
    deltas: list[int] = []
    for df, dr in vectors:
        seen = {
            bit[f + df, r + dr] - index for (f, r), index in bit.items() if (f + df, r + dr) in bit
        }
        if len(seen) != 1:
            return None
        delta = seen.pop()
        for (f, r), index in bit.items():
            if (f + df, r + dr) not in bit and index + delta in used:
                return None  # a step off the board would land on a square
        deltas.append(delta)
    if max(used) + max(deltas) >= SMALL_INT_BITS:
        return None
    index_of = (0, *(bit[board.coords(square)] for square in board.squares))
    return index_of, deltas
