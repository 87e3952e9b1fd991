"""Which variant a game is: its GameType tag, else ``--variant``, else inferred from the text.

Inference reads cheap evidence first (a ``[Variant]`` tag, Italian tag names, board size from
the squares of the moves and the FEN, numeric vs algebraic squares, ``:`` separators, Russian
short forms, the direction of the first move), which orders a short list of candidates; then
the start of the main line (``DETECTION_PLIES``) is replayed in each candidate until one plays
it without an irregular move (the longest legal prefix wins otherwise). Every inference or
override is reported as a ``variant`` finding naming the evidence. Cost: O(squares in the
text) plus at most ``DETECTION_PLIES`` resolved plies per candidate (3 or fewer), only for
games without a usable GameType. ``detect_variant_replayed`` also hands over the chosen
candidate's replay (``PrefixPly``), so the audit does not resolve those plies again.

``detect_dialect`` recognises exports whose moves depart from PDN in a documented way (the
playstrategy.org export, PDN.md §5) from their tags, so the audit can read them as meant.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from pdn.base.findings import Finding, Severity
from pdn.base.pickling import by_fields
from pdn.engine.errors import FenError
from pdn.engine.position import Position
from pdn.engine.resolve import resolve
from pdn.engine.variants import VARIANTS, Variant, as_variant, variant_from_gametype
from pdn.game.tags import ITALIAN_TAGS, tag_value
from pdn.game.treewalk import mainline_nodes, walk_nodes

if TYPE_CHECKING:
    from pdn.engine.geometry import Board, Notation
    from pdn.engine.movegen import Move
    from pdn.game.record import Game, GameNode

#: Non-standard GameType numbers written by lidraughts (PDN.md §2), with what they are.
LIDRAUGHTS_CODES: dict[str, tuple[str, str]] = {
    "96": ("international", "lidraughts Breakthrough (International rules, first king wins)"),
    "97": ("frisian", "lidraughts Frysk! (Frisian with 5 men each)"),
    "98": ("international-giveaway", "lidraughts Antidraughts"),
}
#: Moves looked at for evidence: enough to see the board, cheap on huge games.
EVIDENCE_NODES = 400
#: Playable squares of the largest board (Canadian, 12x12): higher numbers are no square.
_MOST_SQUARES = max(len(variant.board.squares) for variant in VARIANTS.values())
#: Main-line plies a variant must play without a fault for its inference to be certain.
CERTAIN_PLIES = 6
#: Main-line plies replayed per candidate variant: variants part early, and this bounds the cost.
DETECTION_PLIES = 60

_NUMBER = re.compile(r"\d+")
_COMPACT = re.compile(r"^\d{4}$")  # 3228, or a year: never evidence of the board
_ALGEBRAIC = re.compile(r"([a-l])(\d{1,2})")
_SHORT_FORM = re.compile(r"^[a-h][a-h][1-8]$")
_FEN_ALGEBRAIC = re.compile(r"^K?([a-jA-J])(\d{1,2})$")
_SQUARE_NAME = re.compile(r"([a-l])(\d{1,2})")  # files a-l: never the x separator


@dataclass
class Evidence:
    """What the text of a game says about its board and notation."""

    numeric_max: int = 0
    algebraic_files: int = 0  # highest file index + 1 seen in algebraic squares
    algebraic_ranks: int = 0
    light_squares: bool = False  # an algebraic square with file + rank odd (a2, b1, ...)
    colon: bool = False
    short_form: bool = False
    first_move: tuple[int, int] | None = None  # numeric (from, to) of the first main-line move
    moves: int = 0
    mainline_moves: int = 0  # of the first EVIDENCE_NODES nodes
    fen_turn: str | None = None

    @property
    def algebraic(self) -> bool:
        return self.algebraic_files > 0 or self.short_form


class PrefixPly:
    """One main-line ply that inference replayed legally: ``move`` is what
    ``resolve(before, text)`` returned (no irregularity), ``ends_unique`` its
    ``Resolution.ends_unique``, and ``after`` is ``before.play(move)``.

    A plain class, not a dataclass: mypyc evaluates a dataclass's field types when the module
    loads, and ``GameNode`` is imported for type checking only (pdn.game.record ->
    pdn.arbiter.replay -> here would be an import cycle)."""

    __slots__ = ("node", "text", "before", "move", "ends_unique", "after")

    def __init__(
        self,
        node: GameNode,
        text: str,
        before: Position,
        move: Move,
        ends_unique: bool,
        after: Position,
    ) -> None:
        self.node: Final = node
        self.text: Final = text
        self.before: Final = before
        self.move: Final = move
        self.ends_unique: Final = ends_unique
        self.after: Final = after


def detect_variant(
    game: Game, override: Variant | str | None = None
) -> tuple[Variant, list[Finding]]:
    """The variant of ``game`` and the ``variant`` findings that explain it; ``override`` (a
    ``Variant`` or its name, as ``--variant``) is used when the game names none. Never raises
    for a game (ValueError for an unknown ``override`` name)."""
    variant, findings, _prefix = detect_variant_replayed(game, override)
    return variant, findings


def detect_variant_replayed(
    game: Game, override: Variant | str | None = None
) -> tuple[Variant, list[Finding], list[PrefixPly]]:
    """``detect_variant``, plus the legal main-line plies inference replayed in the variant it
    chose (empty when the variant was not inferred by replaying). Same cost."""
    override = None if override is None else as_variant(override)
    gametype = _tag(game, "GameType")
    if gametype is not None and gametype.strip():
        variant, findings = _from_gametype(gametype.strip())
        if variant is not None:
            if override is not None and override.name != variant.name:
                findings.append(
                    Finding(
                        "variant",
                        f"GameType {gametype.strip()!r} is {variant.name}; "
                        f"--variant {override.name} ignored",
                    )
                )
            return variant, findings, []
    else:
        findings = []
    if override is not None:
        findings.append(
            Finding("variant", f"no usable GameType: {override.name} from --variant", "info")
        )
        return override, findings, []
    stated = _stated_variant(game)
    if stated is not None:
        note = f"no usable GameType: [Variant {_tag(game, 'Variant')!r}] names {stated.name}"
        findings.append(Finding("variant", note, "info"))
        return stated, findings, []
    inference = _infer(game)
    variant = inference.variant
    if variant.name != "international" or findings:
        # International is PDN's default GameType (20): a game read so needs no note
        severity: Severity = "info" if inference.certain else "warning"
        message = f"no usable GameType: inferred {variant.name} ({inference.reason})"
        findings.append(Finding("variant", message, severity))
    return variant, findings, inference.prefix


def _stated_variant(game: Game) -> Variant | None:
    """The variant a ``[Variant "..."]`` tag names exactly (a pdn name or alias, as
    tools/make_corpus.py writes for variants without a GameType code), else None."""
    value = _tag(game, "Variant")
    if not value:
        return None
    try:
        return Variant.from_name(value)
    except ValueError:
        return None


@dataclass(frozen=True)
class Dialect:
    """How a game's moves depart from PDN, for the replay (PDN.md §5).

    ``rotated``: algebraic squares are named with the first mover drawn at the bottom, which
    for a Black-first variant is the PDN board turned 180 degrees (``c3`` means ``f6``).
    ``split_captures``: each jump of a multi-capture is written as its own move (with its own
    place in the move numbering); the audit joins the parts when the same piece goes on with
    an unfinished capture.
    """

    name: str
    rotated: bool = False
    split_captures: bool = False

    def move_text(self, text: str, board: Board) -> str:
        """``text`` with its algebraic squares named on the PDN board (turning the board is
        its own inverse: the same call names PDN squares in the dialect's frame). O(1) for a
        text seen before on a board of that size, else O(len(text))."""
        if not self.rotated:
            return text
        key = (text, board.width, board.height)
        turned = _TURNED_TEXTS.get(key)
        if turned is None:
            if len(_TURNED_TEXTS) >= _TURNED_TEXTS_KEPT:
                _TURNED_TEXTS.clear()
            turned = _TURNED_TEXTS[key] = _SQUARE_NAME.sub(
                lambda square: (
                    chr(ord("a") + board.width - 1 - (ord(square[1]) - ord("a")))
                    + str(board.height + 1 - int(square[2]))
                ),
                text.lower(),
            )
        return turned

    def __reduce__(self) -> tuple[type[Any], tuple[Any, ...]]:
        return by_fields(self)  # pickle and copy through __init__


#: ``Dialect.move_text``'s memo: (text, board width, board height) -> the text turned, for
#: a rotated dialect (each move of such a game is turned when replayed and when written).
_TURNED_TEXTS: Final[dict[tuple[str, int, int], str]] = {}
_TURNED_TEXTS_KEPT: Final = 16384


STANDARD = Dialect("pdn")
#: The host that writes the playstrategy.org dialect in its ``Site`` tag.
PLAYSTRATEGY_SITE = "playstrategy.org"


def detect_dialect(game: Game, variant: Variant) -> tuple[Dialect, list[Finding]]:
    """The dialect of ``game`` replayed as ``variant``, with an ``info`` finding naming the
    evidence; ``STANDARD`` and no finding for PDN as specified. O(tags).

    playstrategy.org (``Site`` on playstrategy.org, or its ``P1``/``P2`` player tags instead
    of White/Black) writes every jump of a capture as a move, and draws P1, the first mover,
    at the bottom: for English (Black moves first) its ``c3-d4`` is PDN's ``11-15``.
    """
    site = (_tag(game, "Site") or "").lower()
    players = _tag(game, "P1") is not None and _tag(game, "P2") is not None
    if PLAYSTRATEGY_SITE not in site and not players:
        return STANDARD, []
    evidence = "Site" if PLAYSTRATEGY_SITE in site else "P1/P2 tags"
    rotated = variant.first_mover == "B"
    dialect = Dialect(PLAYSTRATEGY_SITE, rotated=rotated, split_captures=True)
    note = f"{PLAYSTRATEGY_SITE} export ({evidence}): captures written jump by jump are joined"
    if rotated:
        note += (
            "; algebraic squares are seen from Black's side (the first mover at the bottom) "
            "and read rotated 180 degrees"
        )
    return dialect, [Finding("variant", note, "info")]


def _from_gametype(value: str) -> tuple[Variant | None, list[Finding]]:
    """The variant a GameType value names, with findings for anything non-standard."""
    code = value.split(",")[0].strip()
    if code in LIDRAUGHTS_CODES:
        name, meaning = LIDRAUGHTS_CODES[code]
        note = f"non-standard GameType {value!r} ({meaning}): replayed as {name}"
        return VARIANTS[name], [Finding("variant", note, "info")]
    try:
        variant, problems = variant_from_gametype(value)
    except ValueError as error:
        variant, problems = None, [str(error)]
    if variant is None:
        reason = "; ".join(problems) or "unknown code"
        return None, [Finding("variant", f"unusable GameType {value!r}: {reason}")]
    # the problems name the value and the reading already ("... read as standard russian")
    return variant, [Finding("variant", problem, "info") for problem in problems]


def written_notation(game: Game) -> Notation | None:
    """The notation the game's moves are written in (``algebraic`` when a move names a
    square like ``c3``, ``numeric`` when it names numbers), None without moves. Messages
    name squares so. O(first EVIDENCE_NODES moves)."""
    for node in walk_nodes(game, EVIDENCE_NODES):
        short_form, squares, numbers = _move_squares(node.move_text or "")
        if short_form or squares:
            return "algebraic"
        if numbers:
            return "numeric"
    return None


def infer_variant(game: Game) -> tuple[Variant, str]:
    """The most likely variant of a game without GameType, and the evidence in words."""
    inference = _infer(game)
    return inference.variant, inference.reason


def infer(game: Game) -> Inference:
    """The variant the moves of ``game`` read as, whatever its GameType says, with the
    evidence, its certainty and the replayed prefix. Cost: see ``detect_variant_replayed``."""
    return _infer(game)


@dataclass
class Inference:
    """A variant inferred for a game without GameType: the evidence weighed in words, whether
    it leaves no doubt (``certain``), and the main-line plies replayed in that variant."""

    variant: Variant
    reason: str
    certain: bool
    prefix: list[PrefixPly]


def _infer(game: Game) -> Inference:
    """``infer_variant`` with its certainty and the replayed prefix of the chosen candidate
    (see ``detect_variant_replayed``).

    Certain: the evidence names one variant (a board size only it has, a ``[Variant]`` tag,
    light squares), or the chosen variant plays at least ``CERTAIN_PLIES`` main-line plies
    (all of them when fewer) without a fault. Thin or contradictory: no moves to tell the
    candidates apart, too few moves, or no candidate plays the moves without a fault.
    """
    evidence = gather_evidence(game)
    candidates, reason = _candidates(game, evidence)
    named = _variant_tag(game) is not None  # a word of a [Variant] tag: a guess to confirm
    if len(candidates) == 1 and not named:
        return Inference(VARIANTS[candidates[0]], reason, True, [])
    others = ", ".join(candidates[1:]) or "the other variants"
    if evidence.moves == 0:
        reason += f"; no moves to tell it from {others}"
        return Inference(VARIANTS[candidates[0]], reason, False, [])
    best_name, best_plies, clean = candidates[0], -1, False
    best_prefix: list[PrefixPly] = []
    for name in candidates:
        prefix: list[PrefixPly] = []
        plies, clean = _replay_prefix(game, VARIANTS[name], DETECTION_PLIES, prefix)
        if clean:
            best_name, best_prefix = name, prefix
            break
        if plies > best_plies:
            best_name, best_plies, best_prefix = name, plies, prefix
    played = len(best_prefix)
    if not clean and named and played >= CERTAIN_PLIES:
        # the tag names the variant and the first moves confirm it; a later fault is the audit's
        reason += f"; {best_name} plays the first {played} plies"
        return Inference(VARIANTS[best_name], reason, True, best_prefix)
    if not clean:
        reason += f"; no candidate plays the moves without a fault, {best_name} plays the most"
        return Inference(VARIANTS[best_name], reason, False, best_prefix)
    if best_name != candidates[0]:
        reason += f"; only {best_name} plays the moves"
    else:
        reason += f"; {best_name} plays the first {played} plies"
    certain = named or played >= min(CERTAIN_PLIES, evidence.mainline_moves)
    if not certain:
        reason += f", too few to tell it from {others}"
    return Inference(VARIANTS[best_name], reason, certain, best_prefix)


def _candidates(game: Game, evidence: Evidence) -> tuple[list[str], str]:
    """Variant names to try, most likely first, and the evidence in words."""
    named = _variant_tag(game)
    if named is not None:
        return [named], f"[Variant {_tag(game, 'Variant')!r}]"
    italian = any(name in ITALIAN_TAGS for name, _ in game.tags)
    if evidence.algebraic:
        if evidence.algebraic_files > 8 or evidence.algebraic_ranks > 8:
            return _by_board_size(evidence), "algebraic squares beyond h8"
        if evidence.light_squares:
            return ["turkish"], "algebraic squares on light squares (orthogonal board)"
        reason = "algebraic 8x8 squares"
        if evidence.colon or evidence.short_form:
            reason += ", ':' captures" if evidence.colon else ", short moves like 'ed4'"
        return ["russian", "brazilian", "czech"], reason
    if evidence.numeric_max > 50:
        return ["canadian"], f"square {evidence.numeric_max} (12x12 board)"
    if evidence.numeric_max > 32:
        return ["international", "frisian"], f"square {evidence.numeric_max} (10x10 board)"
    if evidence.numeric_max == 0:
        return ["international"], "no squares to go by; PDN's default GameType 20"
    # squares up to 32 are 8x8 unless no 8x8 variant plays the moves (10x10 opening moves
    # such as 32-28 stay below 33): international comes last
    if italian:
        return ["italian", "english", "international"], "Italian tag names, squares up to 32"
    rising = evidence.first_move is not None and evidence.first_move[0] < evidence.first_move[1]
    falling = evidence.first_move is not None and evidence.first_move[0] > evidence.first_move[1]
    if falling and evidence.fen_turn is None:
        return ["italian", "russian", "international"], "squares up to 32, White moves first"
    if rising and evidence.fen_turn is None:
        return ["english", "portuguese", "international"], "squares up to 32, first move goes up"
    return ["english", "italian", "international"], "squares up to 32"


def _by_board_size(evidence: Evidence) -> list[str]:
    """The first algebraic variant whose board holds every square seen (else international)."""
    for name, variant in VARIANTS.items():
        board = variant.board
        if (
            variant.default_notation == "algebraic"
            and board.width >= evidence.algebraic_files
            and board.height >= evidence.algebraic_ranks
        ):
            return [name]
    return ["international"]


def _variant_tag(game: Game) -> str | None:
    """The variant a ``[Variant "..."]`` tag names (``American/English`` -> english)."""
    value = _tag(game, "Variant")
    if not value:
        return None
    for word in [value, *re.split(r"[/,;]+|\s+", value)]:
        try:
            return Variant.from_name(word.strip().lower()).name
        except ValueError:
            continue
    return None


def gather_evidence(game: Game) -> Evidence:
    """Board size, notation and separators seen in the FEN and the first ``EVIDENCE_NODES``
    moves of the tree: the main line first, then the variations (a square of the board can
    appear in a side line only). O(text), iterative."""
    evidence = Evidence()
    fen = _tag(game, "FEN")
    if fen:
        _fen_evidence(fen, evidence)
    first = game.next()
    # ``walk`` yields the whole main line first: its nodes are the first ``main`` of the walk
    main = len(mainline_nodes(game, EVIDENCE_NODES))
    for index, node in enumerate(walk_nodes(game, EVIDENCE_NODES)):
        text = node.move_text or ""
        if not text or text.startswith("-"):
            continue
        evidence.moves += 1
        evidence.mainline_moves += index < main
        if node.setup:
            _fen_evidence(node.setup, evidence)
        _move_evidence(text, evidence, first=node is first)
    return evidence


def _move_evidence(text: str, evidence: Evidence, *, first: bool) -> None:
    if ":" in text:
        evidence.colon = True
    short_form, squares, numbers = _move_squares(text)
    if short_form:
        evidence.short_form = True
        return
    if squares:
        for letter, rank in squares:
            _algebraic_square(letter, rank, evidence)
        return
    if numbers:
        evidence.numeric_max = max(evidence.numeric_max, *numbers)
        if first and len(numbers) >= 2:
            evidence.first_move = (numbers[0], numbers[-1])


@functools.lru_cache(maxsize=8192)
def _move_squares(text: str) -> tuple[bool, tuple[tuple[str, int], ...], tuple[int, ...]]:
    """(a Russian short form?, its algebraic squares, else its numbers) of a move text.
    A word that cannot be a move of any board (``99-88``: no board has 99 squares; ``2024``,
    four digits that may be a year) gives no evidence at all.
    Cached: the same move texts recur across the games of a file."""
    if _SHORT_FORM.match(text):
        return True, (), ()
    squares = tuple((letter, int(rank)) for letter, rank in _ALGEBRAIC.findall(text))
    if squares:
        return False, squares, ()
    numbers = tuple(int(number) for number in _NUMBER.findall(text))
    if _COMPACT.match(text) or any(not 0 < number <= _MOST_SQUARES for number in numbers):
        return False, (), ()
    return False, (), numbers


def _algebraic_square(letter: str, rank: int, evidence: Evidence) -> None:
    file = ord(letter) - ord("a")
    evidence.algebraic_files = max(evidence.algebraic_files, file + 1)
    evidence.algebraic_ranks = max(evidence.algebraic_ranks, rank)
    if (file + rank - 1) % 2 == 1:
        evidence.light_squares = True


def _fen_evidence(fen: str, evidence: Evidence) -> None:
    """Squares of a FEN's colour fields (``W:W31-50:B1-20``, ``W:Wa1,c1:B...``); the
    lidraughts ``:H0:F1`` fields and anything unreadable are skipped."""
    fields = fen.strip().rstrip(".").split(":")
    turn = fields[0].strip().upper()
    if turn in ("W", "B"):
        evidence.fen_turn = turn
    for part in fields[1:]:
        part = part.strip()
        if not part or part[0].upper() not in "WB":
            continue
        for item in part[1:].split(","):
            item = item.strip()
            algebraic = _FEN_ALGEBRAIC.match(item)
            if algebraic:
                _algebraic_square(algebraic[1].lower(), int(algebraic[2]), evidence)
                continue
            numbers = [int(number) for number in _NUMBER.findall(item)]
            if numbers:
                evidence.numeric_max = max(evidence.numeric_max, *numbers)


def start_position(game: Game, variant: Variant) -> Position:
    """The position the game starts from: its FEN tag, else the variant's start.

    Raises ``FenError`` when the FEN tag cannot be read for ``variant``.
    """
    fen = _tag(game, "FEN")
    if fen and fen.strip():
        return Position.from_fen(fen.strip(), variant)
    return Position.initial(variant)


def _replay_prefix(
    game: Game, variant: Variant, limit: int, prefix: list[PrefixPly]
) -> tuple[int, bool]:
    """(plies of the main line that replay as legal moves in ``variant``, all of the first
    ``limit`` plies legal?), appending each legal ply to ``prefix``. Cost: one replay of that
    prefix; stops at the first irregular move or at ``limit``, and also, still legal, at an
    ambiguous move or at a capture a dialect writes in parts (the audit decides those).
    """
    try:
        position = start_position(game, variant)
    except (FenError, ValueError):
        return -1, False
    dialect, _notes = detect_dialect(game, variant)  # squares as the export means them
    plies = 0
    for node in mainline_nodes(game, limit):
        text = node.move_text or ""
        if node.setup:
            try:
                position = Position.from_fen(node.setup, variant)
            except (FenError, ValueError):
                return plies, False
        if not text or text.startswith("-"):
            return plies, True
        text = dialect.move_text(text, variant.board)
        try:
            resolution = resolve(position, text)
            if resolution.code == "ambiguous-move" or (
                dialect.split_captures and resolution.code == "capture-rule"
            ):
                # a legal move written short, or a capture in parts the audit joins: the
                # variant plays it, the audit decides it (not replayed here)
                return plies, True
            if resolution.move is None or resolution.code is not None:
                return plies, False
            after = position.play(resolution.move)
        except Exception:  # noqa: BLE001 -- an engine failure counts as "does not play the moves"
            return plies, False
        prefix.append(
            PrefixPly(node, text, position, resolution.move, resolution.ends_unique, after)
        )
        position = after
        plies += 1
    return plies, True


def _tag(game: Game, name: str) -> str | None:
    """First value of tag ``name`` (any case, then its translated names), or ``None``."""
    return tag_value(game.tags, name, aliases=True)
