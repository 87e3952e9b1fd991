"""Game records out: PDN text (numeric or algebraic, wrapped) and JSON objects.

``write_game`` is lossless by default: ``read_game(write_game(game)).same_record(game)``
(moves, move numbers, comments, NAGs, strengths, setups, variations, tags and terminator as
recorded).
Options convert on the way out: ``notation`` rewrites squares and capture separators for the
variant's board, ``move_numbers="renumber"`` writes standard numbers, ``results="variant"``
spells results in the variant's own style (never changing who won). Rewritten moves come from
the audit's one replay (``pdn.replay.played_moves``), so a dialect (playstrategy.org) is read as the
audit reads it. Games that could not be parsed (``game.raw``) are written back verbatim. Every
walk is a loop with an explicit stack: 5,000-ply games and 200-deep variations are fine. Cost:
O(size of the record), plus one replay when moves are rewritten.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from functools import lru_cache
from typing import IO, TYPE_CHECKING, Any, Literal, get_args

from pdn.embedded import EscapeLine, commands_in
from pdn.geometry import Notation
from pdn.movegen import rules_for
from pdn.numbering import MoveNumber, Numbering
from pdn.tags import result_in_style, tag_value, winner
from pdn.variants import as_variant
from pdn.visitor import GameVisitor

if TYPE_CHECKING:
    from pdn.geometry import Board
    from pdn.movegen import Move
    from pdn.record import Game, GameNode
    from pdn.replay import Played, PlayedMoves, Replay
    from pdn.variants import Variant


Captures = Literal["short", "full"]
MoveNumbers = Literal["keep", "renumber"]
Results = Literal["keep", "variant"]

_SQUARE = r"(?:[a-l][0-9]{1,2}|[0-9]{1,3})"  # files a-l: never the x separator
_SEPARATED_MOVE = re.compile(rf"{_SQUARE}(?:[-x:]{_SQUARE})+")
_MOVE_PART = re.compile(rf"({_SQUARE})|([-x:])")
_MOVE_NUMBER = re.compile(r"([0-9]+)\.(\.\.)?")


# -- squares and FEN in another notation -----------------------------------------------------
def convert_move_text(move: str, board: Board, notation: Notation, capture_separator: str) -> str:
    """A separated move (``32x21``, ``c3:e5:g7``) with squares in ``notation`` and captures
    written with ``capture_separator``; text it cannot read (``ed4``, ``--``) unchanged."""
    if not _SEPARATED_MOVE.fullmatch(move):
        return move
    parts = []
    try:
        for square, separator in _MOVE_PART.findall(move):
            if square:
                parts.append(board.format_square(board.parse_square(square), notation))
            else:
                parts.append("-" if separator == "-" else capture_separator)
    except (ValueError, KeyError, IndexError):
        return move
    return "".join(parts)


def convert_fen_text(fen: str, board: Board, notation: Notation) -> str:
    """The FEN with every piece square in ``notation`` (numeric ranges expanded when going
    algebraic); other fields kept; unreadable FEN text returned unchanged. O(len)."""
    body = fen.strip()
    dot = "." if body.endswith(".") else ""
    fields = body.rstrip(".").split(":")
    try:
        converted = [fields[0]]
        for piece_field in fields[1:]:
            if not piece_field or piece_field[0] not in "WB":
                converted.append(piece_field)
                continue
            items = [item for item in piece_field[1:].split(",") if item.strip()]
            squares = [_fen_item(item.strip(), board, notation) for item in items]
            converted.append(piece_field[0] + ",".join(squares))
    except (ValueError, KeyError, IndexError):
        return fen
    return ":".join(converted) + dot


def _fen_item(item: str, board: Board, notation: Notation) -> str:
    king = "K" if item[:1] in ("K", "k") else ""
    text = item[len(king) :]
    if "-" in text:
        low, high = (board.parse_square(end) for end in text.split("-", 1))
        if notation == "numeric":
            return f"{king}{low}-{high}"
        return ",".join(
            king + board.format_square(square, notation) for square in range(low, high + 1)
        )
    return king + board.format_square(board.parse_square(text), notation)


# -- PDN text ---------------------------------------------------------------------------------
def escape_tag_value(value: str) -> str:
    """A tag value for between double quotes: each ``"`` written ``\\"``. Other backslashes
    stay as they are (``C:\\games`` is common in files), exactly what the reader undoes."""
    return value.replace('"', '\\"')


class _Options:
    """What to convert while writing one game. The variant is the replay's when moves are
    rewritten, else detected once on first use (a plain rewrite may never need it)."""

    def __init__(
        self,
        game: Game,
        variant: Variant | None,
        notation: Notation | None,
        captures: Captures,
        move_numbers: MoveNumbers,
        results: Results,
    ) -> None:
        self.game = game
        self._variant = variant
        self.notation = notation
        self.move_numbers = move_numbers
        self.results = results
        self.rewriter: MoveRewriter | None = None
        if notation is not None or captures == "full":  # moves rewritten: one replay
            from pdn.replay import played_moves

            # exactly as ``variant`` when given, else as detected: the replay then reuses the
            # main-line plies that variant inference replayed (no ply resolved twice)
            replayed = played_moves(game, variant=variant, exact=variant is not None)
            self._variant = replayed.variant
            self.rewriter = MoveRewriter(replayed, notation, full=captures == "full")

    @property
    def variant(self) -> Variant:
        if self._variant is None:
            self._variant = variant_of(self.game)
        return self._variant

    def fen(self, text: str) -> str:
        if self.notation is None:
            return text
        return convert_fen_text(text, self.variant.board, self.notation)

    def result(self, text: str) -> str:
        # the variant (detected when no GameType names it) only for a result respelled
        return text if self.results == "keep" else result_in_style(text, lambda: self.variant)

    def tags(self) -> list[tuple[str, str]]:
        """The tags to write: rewritten moves of a game without GameType get one, so the
        converted text names the variant it was converted for (algebraic 8x8 text alone
        would read as Russian or Brazilian)."""
        if self.rewriter is None or tag_value(self.game.tags, "GameType") is not None:
            return self.game.tags
        gametype = self.variant.gametype
        if gametype is None:
            return self.game.tags
        return [*self.game.tags, ("GameType", str(gametype))]

    def tag(self, name: str, value: str) -> str:
        if name == "FEN":
            return self.fen(value)
        if name == "Result":
            return self.result(value)
        return value


def rewritten_moves(
    game: Game, variant: Variant | str, notation: Notation | None, *, full: bool
) -> dict[GameNode, str]:
    """``node -> move text`` for every move of the tree, as the audit replays it
    (``pdn.replay.played_moves``, read as ``variant``): see ``moves_in_notation``. Cost: one
    replay without findings, plus one legal-move generation per capture."""
    from pdn.replay import played_moves

    replayed = played_moves(game, variant=variant, exact=True)
    return moves_in_notation(game, replayed, notation, full=full)


def moves_in_notation(
    game: Game,
    replayed: Replay | PlayedMoves,
    notation: Notation | None,
    *,
    full: bool,
    board_squares: bool = False,
) -> dict[GameNode, str]:
    """``node -> move text`` for every move of ``game`` from its replay, as
    ``MoveRewriter.text`` writes it. O(nodes), plus one capture search per replayed capture
    written short over several jumps."""
    rewriter = MoveRewriter(replayed, notation, full=full, board_squares=board_squares)
    return {node: rewriter.text(node) for node in game.walk()}


class MoveRewriter:
    """Move texts from a game's replay: squares in ``notation`` (``None``: each move's
    own), the variant's capture separator, the full capture path when ``full`` or when the
    short form would be ambiguous.

    Lossless: every node keeps its own text. Nodes the replay did not reach (a line that
    stopped, an unreadable setup), ambiguous moves (``Played.chosen``: a path is never
    guessed into the record) and the parts of a capture written jump by jump (a dialect's
    split capture, ``Played.parts``) are converted square by square, so each part stays one
    node and reads back as the same part. In a rotated dialect (playstrategy English)
    algebraic squares are written in the dialect's own frame, which the game's tags still
    announce, so the text reads back the same; ``board_squares=True`` names them on the PDN
    board instead (for display next to a board). The text of a move's squares is worked out
    once per path (``_path_texts``).
    """

    def __init__(
        self,
        replayed: Replay | PlayedMoves,
        notation: Notation | None,
        *,
        full: bool,
        board_squares: bool = False,
    ) -> None:
        variant = replayed.variant
        self.played = replayed.played
        self.dialect = replayed.dialect
        self.board, self.separator = variant.board, variant.capture_separator
        self.notation = notation
        self.full = full
        self.rotated = replayed.dialect.rotated and not board_squares
        self.memos = {
            own: _path_texts(variant.board, own, variant.capture_separator)
            for own in get_args(Notation)
        }

    def text(self, node: GameNode) -> str:
        """The text to write for ``node``'s move. O(1) for a move whose path was written
        before in this notation; else O(path), plus a capture search for a capture written
        short over several jumps."""
        played = self.played.get(node)
        if played is None or played.parts or played.chosen:
            return self._square_by_square(node)
        own = self.notation or _own_notation((node.move_text or "--").strip())
        move = played.move
        path = move.path
        full = False
        key: tuple[int, ...] | tuple[tuple[int, ...], bool] = path  # a plain move: its path
        if move.captures:  # a king's capture and plain move may share their path
            # a one-jump capture's full path is its short form, and resolving may have found
            # the short form unambiguous already: else one capture search to know
            full = self.full or (
                len(path) > 2 and not played.ends_unique and _short_capture_ambiguous(move, played)
            )
            key = (path, full)
        memo = self.memos[own]
        text = memo.get(key)
        if text is None:
            if len(memo) >= _PATH_TEXTS_KEPT:
                memo.clear()
            notation = move.notation(self.board, own, full, self.separator)
            text = memo[key] = _never_a_result(notation)
        if self.rotated and own == "algebraic":  # back into the dialect's frame (letters:
            return self.dialect.move_text(text, self.board)  # never spelled like a result)
        return text

    def _square_by_square(self, node: GameNode) -> str:
        """``text`` for a move not replayed, joined from parts or chosen: its written squares
        converted one by one."""
        board, dialect = self.board, self.dialect
        written = (node.move_text or "--").strip()
        own = self.notation or _own_notation(written)
        text = convert_move_text(dialect.move_text(written, board), board, own, self.separator)
        if self.rotated and own == "algebraic":
            text = dialect.move_text(text, board)  # back into the dialect's frame
        return _never_a_result(text)


def _written_move(node: GameNode) -> str:
    """The text to write for a move kept as written."""
    return _never_a_result(node.move_text or "--")


def _never_a_result(text: str) -> str:
    """``text``, with a leading zero when it is spelled like a result: a move written
    ``1-01`` (kept as ``1-1``) would end the game when read back, ``01-1`` reads back as
    the same move."""
    return "0" + text if len(text) == 3 and _RESULT_SPELLING.fullmatch(text) else text


@lru_cache(maxsize=4096)
def _own_notation(written: str) -> Notation:
    """The notation a move text is written in: algebraic when it names a file letter."""
    return "algebraic" if re.search("[a-l]", written) else "numeric"


#: Most move texts ``_path_texts`` keeps per board and notation before starting afresh.
_PATH_TEXTS_KEPT = 100_000


@lru_cache(maxsize=64)
def _path_texts(
    board: Board, notation: Notation, separator: str
) -> dict[tuple[int, ...] | tuple[tuple[int, ...], bool], str]:
    """The memo of ``Move.notation`` texts shared by every game written on ``board`` in
    ``notation`` with ``separator``: a plain move's by its path, a capture's by ``(path,
    full)`` (``MoveRewriter.text`` empties it when it holds ``_PATH_TEXTS_KEPT`` texts)."""
    return {}


def variant_of(game: Game, override: Variant | str | None = None) -> Variant:
    """The game's variant: its GameType, else ``override`` (``--variant``), else inferred
    (``pdn.detect``; costs at most a few main-line replays when there is no GameType)."""
    from pdn.detect import detect_variant

    return detect_variant(game, override)[0]


def _numbering(game: Game, options: _Options) -> Numbering:
    """Standard numbers for ``move_numbers="renumber"``: from the first move's written number
    when it has one (a fragment keeps its place in its game) and no setup of its own, else
    from the FEN tag; ``Game.accept`` restarts them at every setup."""
    first_mover = options.variant.first_mover
    first = game.next()
    written = _MOVE_NUMBER.fullmatch(first.move_number or "") if first else None
    if written and first is not None and first.setup is None:  # a setup numbers its own line
        second = "B" if first_mover == "W" else "W"
        turn = second if written.group(2) else first_mover
        return Numbering(int(written.group(1)), turn, first_mover)
    return Numbering.of_game(game, first_mover)


class _MovetextAtoms(GameVisitor[list[str]]):
    """The move text as unbreakable atoms (a move number travels with its move)."""

    def __init__(self, options: _Options) -> None:
        self.options = options
        self.renumber = options.move_numbers == "renumber"
        rewriter = options.rewriter
        self.move_text = rewriter.text if rewriter is not None else _written_move
        self.atoms: list[str] = []
        self.interrupted = True  # text since the last move calls for ``N...``

    def begin_game(self, game: Game) -> None:
        atoms = self.atoms
        if not game.tags:
            atoms.extend(_comment_atoms(game.comments_before))
        if game.setup is not None:
            atoms.append(_setup_atom(game.setup, self.options))
        atoms.extend(_comment_atoms(game.comments_after))
        atoms.extend(f"${nag}" for nag in game.nags)  # read from a game without moves
        missing = _missing_commands(game)
        if missing:
            atoms.append(missing)

    def visit_move(self, node: GameNode, ply: int, number: MoveNumber) -> None:
        """Setup, move number, comments before, move + strength, NAGs, comments after. The
        number comes before the comments, so a reader attaches those to this move. A bare
        move (most of a record) costs one atom and no list of the node."""
        options, atoms = self.options, self.atoms
        interrupted = self.interrupted
        if node.setup is not None:
            atoms.append(_setup_atom(node.setup, options))
            interrupted = True
        annotated = node.has_annotations()
        before = node.comments_before if annotated else None
        if self.renumber:
            label = number.label(resumed=interrupted or bool(before))
        else:
            label = node.move_number
        text = self.move_text(node)
        if node.strength:
            text += node.strength
        rest = None
        if before:  # the number goes before the comments
            text, *rest = [*_comment_atoms(before), text]
        if label:  # an escape line starts its own line right after the number
            text = f"{label}{'' if text[:1] == chr(10) else ' '}{text}"
        atoms.append(text)
        if rest:
            atoms.extend(rest)
        if not annotated:
            self.interrupted = False
            return
        if node.nags:
            atoms.extend(f"${nag}" for nag in node.nags)
        after = node.comments_after
        if after:
            atoms.extend(_comment_atoms(after))
        missing = _missing_commands(node)
        if missing:
            atoms.append(missing)
        # text written after the move calls for ``N...`` before the next move
        self.interrupted = bool(after or missing)

    def begin_variation(self, node: GameNode) -> None:
        self.atoms.append("(")
        self.interrupted = True

    def end_variation(self, node: GameNode) -> None:
        self.atoms.append(")")
        self.interrupted = True

    def end_game(self) -> list[str]:
        return self.atoms


def _setup_atom(fen: str, options: _Options) -> str:
    return f'/FEN "{options.fen(fen)}"/'


def _comment_atoms(comments: list[str]) -> Iterator[str]:
    """``{text}``; a text holding ``}`` (read from a ``;`` comment) as ``;text`` plus a line
    break, the only way PDN can carry it."""
    for text in comments:
        if isinstance(text, EscapeLine):
            yield "\n" + text + "\n"  # a line of its own
        elif "}" in text and "\n" not in text:
            yield ";" + text + "\n"
        else:
            yield "{" + text + "}"


def _missing_command_texts(node: GameNode) -> list[str]:
    """Commands of a node that none of its comments carries (records built in code)."""
    if not node.commands:
        return []
    carried = [
        command
        for text in node.comments_before + node.comments_after
        for command in commands_in(text)
    ]
    missing = []
    for command in node.commands:
        if command in carried:
            carried.remove(command)
        else:
            missing.append(
                f"[%{command.name} {command.text}]" if command.text else f"[%{command.name}]"
            )
    return missing


def _missing_commands(node: GameNode) -> str:
    """One comment carrying the commands no comment of the node carries, or ""."""
    texts = _missing_command_texts(node)
    return "{" + "".join(texts) + "}" if texts else ""


def _glue_parentheses(atoms: Iterable[str]) -> list[str]:
    """Atoms with ``(`` joined to the atom after it and ``)`` to the atom before it."""
    glued: list[str] = []
    opening = ""
    for atom in atoms:
        if atom == "(":
            opening += "("
        elif atom == ")" and glued:
            glued[-1] += ")"
        else:
            glued.append(opening + atom)
            opening = ""
    return glued


def _wrap(atoms: Iterable[str], width: int) -> str:
    """Atoms joined by spaces into lines of at most ``width`` columns; an atom is never split
    (one longer than ``width`` gets a line of its own; one ending in a newline ends its
    line). O(total length)."""
    lines: list[str] = []
    current = ""
    column = 0
    for atom in atoms:
        newline = atom.find("\n") if "\n" in atom else -1  # -1 for the common atom: one line
        if newline == 0:  # starts a line of its own (an escape line)
            if current:
                lines.append(current)
            current, column, atom = "", 0, atom[1:]
            newline = atom.find("\n")
        first_line = len(atom) if newline < 0 else newline
        if current and column + 1 + first_line > width:
            lines.append(current)
            current, column = "", 0
        if current:
            joined = f"{current} {atom}"
            column += 1
        else:
            joined = atom
        if newline < 0:
            current = joined
            column += first_line
        elif atom.endswith("\n"):
            lines.append(joined[:-1])
            current, column = "", 0
        else:
            current = joined
            column = len(atom) - atom.rfind("\n") - 1
    if current:
        lines.append(current)
    return "\n".join(lines)


def _check_choice(name: str, value: object, choices: Any, *, none: bool = False) -> None:
    """ValueError naming the accepted values when ``value`` is not one of the Literal
    ``choices`` (or ``None`` when ``none``): a typo never writes something else silently."""
    allowed = get_args(choices)
    if value in allowed or (none and value is None):
        return
    spelled = ", ".join(map(repr, allowed + ((None,) if none else ())))
    raise ValueError(f"{name}={value!r} is not one of {spelled}")


def _short_capture_ambiguous(move: Move, played: Played) -> bool:
    """Whether another legal capture goes from and to the squares of ``move`` (so its short
    form ``fromxto`` names several moves), counted as among ``Position.legal_moves``. Cost: one
    capture search (of the moving piece alone under free choice, where no law compares
    pieces), no `Move` objects."""
    before = played.before
    rules = rules_for(before.variant)
    own, opponent = before.sides()
    source = rules.index_of[move.path[0]]
    target = rules.index_of[move.path[-1]]
    movers = 1 << source if before.variant.capture_law == "free" else -1
    raw = rules.captures(own, opponent, before.king_bits, before.turn == "W", False, movers)
    return sum(1 for other in raw if other[0] == source and other[1] == target) > 1


def write_game(
    game: Game,
    *,
    variant: Variant | str | None = None,
    notation: Notation | None = None,
    captures: Captures = "short",
    width: int = 80,
    move_numbers: MoveNumbers = "keep",
    results: Results = "keep",
) -> str:
    """One game as PDN text ending in a newline: tag lines, a blank line, wrapped move text.

    ``variant``: the rules for conversions (default: detected from the game, when needed).
    ``notation``: ``None`` keeps moves as written; else every move is replayed and written
    in that notation with the variant's capture separator (FEN tag and setups converted too,
    and a GameType tag added when the game has none).
    ``captures``: ``"full"`` replays and writes every capture with its full path; ``"short"``
    (from x to, the path only where that is ambiguous) applies when moves are rewritten.
    ``move_numbers``: ``"keep"`` as recorded, ``"renumber"`` standard. ``results``:
    ``"keep"`` as written, ``"variant"`` the variant's style. O(size of the record), plus one
    replay (``pdn.replay.played_moves``) when moves are rewritten.
    """
    variant = None if variant is None else as_variant(variant)
    _check_choice("notation", notation, Notation, none=True)
    _check_choice("captures", captures, Captures)
    _check_choice("move_numbers", move_numbers, MoveNumbers)
    _check_choice("results", results, Results)
    if game.raw is not None:
        return game.raw if game.raw.endswith("\n") else game.raw + "\n"
    options = _Options(game, variant, notation, captures, move_numbers, results)
    tag_lines = [
        f'[{name} "{escape_tag_value(options.tag(name, value))}"]' for name, value in options.tags()
    ]
    if tag_lines and game.comments_before:  # before the first tag: still this game's
        tag_lines.insert(0, _wrap(_comment_atoms(game.comments_before), width))
    numbering = _numbering(game, options) if move_numbers == "renumber" else None
    movetext: list[str] = game.accept(_MovetextAtoms(options), numbering=numbering)
    atoms = _glue_parentheses(movetext)
    if game.result is not None:
        atoms.append(options.result(game.result))
    parts = []
    if tag_lines:
        parts.append("\n".join(tag_lines) + "\n")
    if atoms:
        parts.append(_wrap(atoms, width) + "\n")
    return "\n".join(parts)


def write_games(
    games: Iterable[Game],
    stream: IO[str],
    *,
    variant: Variant | str | None = None,
    notation: Notation | None = None,
    captures: Captures = "short",
    width: int = 80,
    move_numbers: MoveNumbers = "keep",
    results: Results = "keep",
) -> int:
    """Write each game (options as ``write_game``) to ``stream``, a blank line between games;
    returns how many were written. One game in memory at a time when ``games`` streams.
    (A game without terminator followed by one without tags reads back as one game.)"""
    count = 0
    for game in games:
        if count:
            stream.write("\n")
        stream.write(
            write_game(
                game,
                variant=variant,
                notation=notation,
                captures=captures,
                width=width,
                move_numbers=move_numbers,
                results=results,
            )
        )
        count += 1
    return count


# -- JSON -------------------------------------------------------------------------------------
def _node_json(node: GameNode) -> dict[str, Any]:
    nags: list[int]
    before: list[str]
    after: list[str]
    commands: list[dict[str, str]]
    if node.has_annotations():
        nags, before, after = list(node.nags), list(node.comments_before), list(node.comments_after)
        commands = [{"name": command.name, "text": command.text} for command in node.commands]
    else:  # a bare move (most of a record): no list of the node to copy
        nags, before, after, commands = [], [], [], []
    return {
        "move": node.move_text,
        "number": node.move_number,
        "strength": node.strength,
        "nags": nags,
        "comments_before": before,
        "comments_after": after,
        "commands": commands,
        "setup": node.setup,
        "line": node.line or None,
        "column": node.column or None,
        "variations": [],
    }


class _MovesJson(GameVisitor[list[dict[str, Any]]]):
    """The lines as lists of move objects; a side line goes into the ``variations`` of the
    move it replaces."""

    def __init__(self) -> None:
        self.moves: list[dict[str, Any]] = []
        self.lines = [self.moves]  # the enclosing lines, innermost last

    def visit_move(self, node: GameNode, ply: int, number: MoveNumber) -> None:
        self.lines[-1].append(_node_json(node))

    def begin_variation(self, node: GameNode) -> None:
        variation: list[dict[str, Any]] = []
        self.lines[-1][-1]["variations"].append(variation)  # the move it replaces
        self.lines.append(variation)

    def end_variation(self, node: GameNode) -> None:
        self.lines.pop()

    def end_game(self) -> list[dict[str, Any]]:
        return self.moves


def moves_to_json(start: GameNode) -> list[dict[str, Any]]:
    """The lines after ``start`` as a list of move objects; each object's ``variations`` holds
    the alternative lines to that move (lists of the same shape). Iterative, O(nodes)."""
    return start.accept(_MovesJson())


_RESULT_SPELLING = re.compile(r"2-0|0-2|1-1|1-0|0-1|0-0|1:0|0:1|0:0")


class _Raw(str):
    """JSON punctuation already encoded (``json_text``'s work stack holds it among values)."""


def json_text(value: Any) -> str:
    """``json.dumps(value, ensure_ascii=False)`` for any nesting depth: the json module's
    encoder, and for a value nested deeper than it can recurse (a record may nest thousands of
    variations) an explicit stack. Dicts, lists, tuples and JSON scalars. O(size of the
    output)."""
    try:
        return json.dumps(value, ensure_ascii=False)
    except RecursionError:
        return _json_text_by_stack(value)


def _json_text_by_stack(value: Any) -> str:
    """``json_text`` without recursion: one work stack of values and encoded punctuation."""
    out: list[str] = []
    work: list[Any] = [value]
    while work:
        item = work.pop()
        if isinstance(item, _Raw):
            out.append(item)
        elif isinstance(item, dict):
            out.append("{")
            work.append(_Raw("}"))
            entries = list(item.items())
            for index in range(len(entries) - 1, -1, -1):
                key, entry = entries[index]
                work.append(entry)
                separator = ", " if index else ""
                work.append(_Raw(f"{separator}{json.dumps(str(key), ensure_ascii=False)}: "))
        elif isinstance(item, (list, tuple)):
            out.append("[")
            work.append(_Raw("]"))
            for index in range(len(item) - 1, -1, -1):
                work.append(item[index])
                if index:
                    work.append(_Raw(", "))
        else:
            out.append(json.dumps(item, ensure_ascii=False))
    return "".join(out)


def game_to_json(game: Game, *, variant: Variant | str | None = None) -> dict[str, Any]:
    """One game as a JSON-ready dict (schema: docs/json-schema.md); ``variant`` (a ``Variant``
    or its name) when the game does not say. O(size of the record)."""
    resolved = as_variant(variant) if variant is not None else variant_of(game)
    source = game.source
    return {
        "file": source.file,
        "game": source.game,
        "line": source.line,
        "variant": resolved.name,
        "tags": [[name, value] for name, value in game.tags],
        "comments": list(game.comments_before) + list(game.comments_after),
        "nags": list(game.nags),
        "setup": game.setup,
        "moves": moves_to_json(game),
        "result": game.result,
        "winner": winner(game.result, resolved),
        "findings": [finding.to_dict() for finding in game.findings],
        "raw": game.raw,
    }
