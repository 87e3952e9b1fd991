"""Manoeuvres and themes (``--move`` of ``select`` and ``search``): moves by piece, squares and
captures, promotions, shots (a sacrifice ending in a larger capture), coups that win material,
sequences with gaps and counts, as Turbo Dambase's manoeuvre search and CQL's move filters.

A query is words separated by spaces (case does not matter)::

    QUERY  := STEP ( "then" [ "within" N ] STEP )*    B starts at most N plies after A ends
    STEP   := [ "at least" N ] ATOM MODIFIER*         the N-th occurrence completes the step
    ATOM   := MOVE | [ COLOUR ] THEME
    MOVE   := [W|B][m|K][FROM] (-|x) [TO]             Turbo Dambase's form: bK46x02 = a black
                                                      king capturing from 46 to 2; 32-28;
                                                      Wx (a white capture); x; K- (a king's
                                                      plain move); * for any square
    THEME  := move | capture | promotion | shot | coup   (plural allowed: "3 promotions")
    COLOUR := W | B | white | black
    MODIFIER := takes:R   pieces taken (R: 3, 3.., ..2, 2..4)
                men:R  kings:R   men / kings taken
                over:23,24       these squares among those captured
                promotes         the move crowns a man
                gives:R          (shot, coup) pieces given up before the capture
                window:N         (shot, coup) plies from the first sacrifice to the capture,
                                 at most N (default 6)

A *shot* by side S ends at S's capture at ply q: from ply p (S's move, the sacrifice) every
reply of the opponent up to q is a capture and every move of S between is not; S gives up G
pieces (those replies take them), G >= 1, q - p <= window, and the capture at q takes more than
G. ``takes`` of a shot is the size of that capture. A *coup* is a shot that wins material: S's
lead in pieces after the opponent's reply to q (or after q, when the game ends there) is larger
than before p. Plies count from 1 (ply n is the n-th move of the main line; the position after
it is ``select``'s position ply n). Occurrences are listed with the plies they cover.

``ManoeuvreQuery.parse(text)`` raises ``ValueError`` with the reason; ``find(positions, moves)``
returns the plies of the first match, or ``None``. Cost: O(plies) to describe a game's moves
(``describe``), then O(plies) per step (a sequence tries each occurrence of its first step).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from pdn.database.filters import int_range
from pdn.engine.geometry import Colour
from pdn.engine.movegen import Move
from pdn.engine.position import Position

_MOVE_WORD = re.compile(
    r"(?P<colour>[wb])?(?P<piece>[mk])?(?P<from>\d+|\*)?(?P<sep>[-x:])(?P<to>\d+|\*)?"
)
_THEMES = {
    "move": "move",
    "moves": "move",
    "capture": "capture",
    "captures": "capture",
    "promotion": "promotion",
    "promotions": "promotion",
    "shot": "shot",
    "shots": "shot",
    "sacrifice": "shot",
    "sacrifices": "shot",
    "combination": "shot",
    "combinations": "shot",
    "coup": "coup",
    "coups": "coup",
}
_COLOURS: dict[str, Colour] = {"w": "W", "white": "W", "b": "B", "black": "B"}
_DEFAULT_WINDOW = 6
Range = tuple[int, int]


@dataclass(frozen=True)
class Ply:
    """One main-line move as the queries see it (``describe``)."""

    ply: int  #: 1 for the first move
    colour: Colour
    king: bool  #: the moving piece was a king
    from_square: int
    to_square: int
    captures: tuple[int, ...]
    men_taken: int
    kings_taken: int
    promotes: bool
    lead: int  #: the mover's pieces minus the opponent's, after the move


def describe(positions: Sequence[Position], moves: Sequence[Move]) -> list[Ply]:
    """Each replayed move (``moves[i]`` played from ``positions[i]``) as a ``Ply``. O(plies)."""
    found = []
    for index, move in enumerate(moves[: len(positions) - 1]):
        before, after = positions[index], positions[index + 1]
        piece = before.piece_at(move.from_square)
        taken = [before.piece_at(square) for square in move.captures]
        kings = sum(1 for p in taken if p is not None and p.is_king)
        king = piece is not None and piece.is_king
        landed = after.piece_at(move.to_square)
        mine, theirs = (after.black_bits, after.white_bits)
        if before.turn == "W":
            mine, theirs = theirs, mine
        found.append(
            Ply(
                index + 1,
                before.turn,
                king,
                move.from_square,
                move.to_square,
                move.captures,
                len(move.captures) - kings,
                kings,
                not king and landed is not None and landed.is_king,
                mine.bit_count() - theirs.bit_count(),
            )
        )
    return found


@dataclass(frozen=True)
class Occurrence:
    """Where an atom happened: the plies it covers, first to last."""

    plies: tuple[int, ...]

    @property
    def first(self) -> int:
        return self.plies[0]

    @property
    def last(self) -> int:
        return self.plies[-1]


@dataclass(frozen=True)
class Atom:
    """A move or theme with its modifiers; ``None`` fields mean "any"."""

    theme: str  #: move, capture, promotion, shot or coup
    colour: Colour | None = None
    king: bool | None = None
    from_square: int | None = None
    to_square: int | None = None
    capture: bool | None = None
    takes: Range | None = None
    men: Range | None = None
    kings: Range | None = None
    over: frozenset[int] = frozenset()
    promotes: bool = False
    gives: Range | None = None
    window: int = _DEFAULT_WINDOW

    def occurrences(self, plies: Sequence[Ply]) -> list[Occurrence]:
        """Every occurrence in the game, by first ply. O(plies * window)."""
        if self.theme in ("shot", "coup"):
            return [o for q in range(len(plies)) if (o := self._shot(plies, q)) is not None]
        return [Occurrence((ply.ply,)) for ply in plies if self._move_matches(ply)]

    def _move_matches(self, ply: Ply) -> bool:
        taken = len(ply.captures)
        return (
            (self.colour is None or ply.colour == self.colour)
            and (self.king is None or ply.king == self.king)
            and (self.from_square is None or ply.from_square == self.from_square)
            and (self.to_square is None or ply.to_square == self.to_square)
            and (self.capture is None or bool(taken) == self.capture)
            and (self.theme != "capture" or taken > 0)
            and (not (self.promotes or self.theme == "promotion") or ply.promotes)
            and _within(taken, self.takes)
            and _within(ply.men_taken, self.men)
            and _within(ply.kings_taken, self.kings)
            and self.over <= set(ply.captures)
        )

    def _shot(self, plies: Sequence[Ply], q: int) -> Occurrence | None:
        """The shot (or coup) ending at ``plies[q]``, from its earliest sacrifice; else None."""
        final = plies[q]
        if not final.captures or not self._move_matches(final):
            return None
        given, start = 0, None
        p = q - 2
        while p >= 0 and final.ply - plies[p].ply <= self.window:
            reply = plies[p + 1]
            if not reply.captures or (p < q - 2 and plies[p + 2].captures):
                break
            given += len(reply.captures)
            if len(final.captures) > given and _within(given, self.gives):
                start = p
            p -= 2
        if start is None:
            return None
        if self.theme == "coup":
            before = -plies[start - 1].lead if start > 0 else _lead_at_start(plies[start])
            after = plies[q].lead if q + 1 >= len(plies) else -plies[q + 1].lead
            if after <= before:
                return None
        return Occurrence(tuple(ply.ply for ply in plies[start : q + 1]))


def _lead_at_start(ply: Ply) -> int:
    """The mover's lead before ``ply`` (the first move of a line), from its lead after."""
    return ply.lead - len(ply.captures)


def _within(value: int, bounds: Range | None) -> bool:
    return bounds is None or bounds[0] <= value <= bounds[1]


@dataclass(frozen=True)
class Step:
    """An atom, how many occurrences complete it, and how soon after the previous step it must
    start (``None``: any time later)."""

    atom: Atom
    at_least: int = 1
    within: int | None = None


@dataclass(frozen=True)
class ManoeuvreQuery:
    """A parsed ``--move``."""

    steps: tuple[Step, ...]
    text: str

    @classmethod
    def parse(cls, text: str) -> ManoeuvreQuery:
        """Read ``text`` (module docstring); ValueError naming the word that cannot be read."""
        words = text.lower().replace("at least", "at-least").split()
        if not words:
            raise ValueError("--move is empty: e.g. --move bK46x02, --move 'W shot takes:3..'")
        steps: list[Step] = []
        chunk: list[str] = []
        within: int | None = None  # of the step being read
        index = 0
        while index < len(words):
            word = words[index]
            if word == "then":
                steps.append(_step(chunk, within, text))
                chunk, within = [], None
                if index + 2 < len(words) and words[index + 1] == "within":
                    within = _count(words[index + 2], "within", text)
                    index += 2
            else:
                chunk.append(word)
            index += 1
        steps.append(_step(chunk, within, text))
        return cls(tuple(steps), text)

    #: ``describe(positions, moves)``: what ``find`` reads, computed once for many queries.
    describe = staticmethod(describe)

    def find(self, plies: Sequence[Ply]) -> tuple[int, ...] | None:
        """The plies of the first match (each step's occurrences) in a game's ``describe``d
        moves, else None."""
        found = [step.atom.occurrences(plies) for step in self.steps]
        return _search(self.steps, found, 0, 0)


def _search(
    steps: tuple[Step, ...], found: list[list[Occurrence]], index: int, after: int
) -> tuple[int, ...] | None:
    """The plies of steps ``index..`` matched after ply ``after`` (depth-first, earliest)."""
    if index == len(steps):
        return ()
    step = steps[index]
    later = [o for o in found[index] if o.first > after]
    for start in range(len(later) - step.at_least + 1):
        first = later[start]
        if index and step.within is not None and first.first - after > step.within:
            break
        counted = later[start : start + step.at_least]
        rest = _search(steps, found, index + 1, counted[-1].last)
        if rest is not None:
            return tuple(p for o in counted for p in o.plies) + rest
    return None


def _step(words: list[str], within: int | None, text: str) -> Step:
    """One step from its words (``at-least 3 promotions``, ``W shot takes:3..``)."""
    if not words:
        raise ValueError(f"--move {text!r}: 'then' needs a step on each side")
    at_least = 1
    if words[0] == "at-least":
        if len(words) < 3:
            raise ValueError(f"--move {text!r}: 'at least' needs a number and a move")
        at_least = _count(words[1], "at least", text)
        words = words[2:]
    elif words[0].isdigit() and len(words) > 1:
        at_least, words = _count(words[0], "count", text), words[1:]
    fields: dict[str, object] = {}
    head = words[0]
    rest = words[1:]
    if head in _COLOURS and rest and rest[0] in _THEMES:
        fields["colour"] = _COLOURS[head]
        head, rest = rest[0], rest[1:]
    if head in _THEMES:
        fields["theme"] = _THEMES[head]
    else:
        fields.update(_move_word(head, text))
    for word in rest:
        fields.update(_modifier(word, text))
    theme = fields.get("theme", "move")
    if theme not in ("shot", "coup") and ("gives" in fields or "window" in fields):
        raise ValueError(f"--move {text!r}: gives: and window: belong to shot and coup")
    return Step(Atom(**fields), at_least, within)  # type: ignore[arg-type]


def _move_word(word: str, text: str) -> dict[str, object]:
    """``bK46x02``, ``32-28``, ``Wx``, ``x`` -> the atom's fields."""
    match = _MOVE_WORD.fullmatch(word)
    if match is None:
        themes = ", ".join(sorted(set(_THEMES.values())))
        raise ValueError(
            f"--move {text!r}: {word!r} is neither a move (bK46x02, 32-28, Wx) nor a theme "
            f"({themes})"
        )
    fields: dict[str, object] = {"theme": "move", "capture": match["sep"] != "-"}
    if match["colour"]:
        fields["colour"] = _COLOURS[match["colour"]]
    if match["piece"]:
        fields["king"] = match["piece"] == "k"
    for name in ("from", "to"):
        square = match[name]
        if square and square != "*":
            fields[f"{name}_square"] = int(square)
    return fields


def _modifier(word: str, text: str) -> dict[str, object]:
    """``takes:3..``, ``men:2``, ``kings:1..``, ``over:23,24``, ``promotes``, ``gives:1``,
    ``window:8``."""
    if word == "promotes":
        return {"promotes": True}
    name, colon, value = word.partition(":")
    try:
        if colon and name in ("takes", "men", "kings", "gives"):
            return {name: int_range(value)}
        if colon and name == "over":
            return {"over": frozenset(int(s) for s in value.split(",") if s)}
        if colon and name == "window":
            return {"window": _count(value, "window", text)}
    except ValueError as error:
        raise ValueError(f"--move {text!r}: {word!r}: {error}") from None
    raise ValueError(
        f"--move {text!r}: {word!r} is not a modifier (takes:R, men:R, kings:R, over:SQUARES, "
        "promotes, gives:R, window:N)"
    )


def _count(word: str, what: str, text: str) -> int:
    if not word.isdigit() or int(word) < 1:
        raise ValueError(f"--move {text!r}: {what} needs a positive number, not {word!r}")
    return int(word)
