"""Move text out: the moves, numbers, comments, NAGs, setups and variations of a game tree
as PDN atoms (``MovetextAtoms``, a ``Game.accept`` visitor), moves rewritten from the replay
(``MoveRewriter``), moves and FENs converted square by square (``convert_move_text``,
``convert_fen_text``), lines wrapped without splitting a token (``wrap``).

The per-move loop of ``pdn.pdnfile.writer``, which writes the tags and the rest of a record and
keeps the public API (its functions check their arguments in pure Python); compiled in the compiled
build. Cost: O(nodes), plus one capture search per capture written short over several jumps
that resolving did not find alone between its ends.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache
from typing import TYPE_CHECKING, Final

from pdn.engine.geometry import NOTATIONS, Notation
from pdn.engine.movegen import rules_for
from pdn.game.embedded import EscapeLine, command_spellings_in
from pdn.game.visitor import GameVisitor

if TYPE_CHECKING:
    from pdn.arbiter.replay import Played, PlayedMoves, Replay
    from pdn.engine.geometry import Board
    from pdn.engine.movegen import Move
    from pdn.game.numbering import MoveNumber
    from pdn.game.record import Game, GameNode

_SQUARE = r"(?:[a-l][0-9]{1,2}|[0-9]{1,3})"  # files a-l: never the x separator
_SEPARATED_MOVE = re.compile(rf"{_SQUARE}(?:[-x:]{_SQUARE})+")
_MOVE_PART = re.compile(rf"({_SQUARE})|([-x:])")

#: A move text spelled like a result (kept with a leading zero: ``_never_a_result``).
_RESULT_SPELLING = re.compile(r"2-0|0-2|1-1|1-0|0-1|0-0|1:0|0:1|0:0")


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
        self.memos = {  # one notation when given, else each move's own
            own: _path_texts(variant.board, own, variant.capture_separator)
            for own in ((notation,) if notation else NOTATIONS)
        }

    def text(self, node: GameNode) -> str:
        """The text to write for ``node``'s move. O(1) for a move whose path was written
        before in this notation; else O(path), plus a capture search for a capture written
        short over several jumps."""
        played = self.played.get(node)
        if played is None or played.parts or played.chosen:
            return self._square_by_square(node)
        own = self.notation or _own_notation(node.move_text or "--")
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


#: Most move texts ``_path_texts`` keeps per board and notation (and ``_own_notation`` in
#: all) before starting afresh.
_PATH_TEXTS_KEPT: Final = 100_000
_FILE_LETTER: Final = re.compile("[a-l]")
#: ``_own_notation``'s memo: a dict read in the compiled per-move loop (``Final``: a C static
#: there, not a lookup in the module's dict), not an lru_cache call.
_OWN_NOTATIONS: Final[dict[str, Notation]] = {}


def _own_notation(written: str) -> Notation:
    """The notation a move text is written in: algebraic when it names a file letter (so
    spaces around the text change nothing). O(1) for a text seen before."""
    notation = _OWN_NOTATIONS.get(written)
    if notation is None:
        if len(_OWN_NOTATIONS) >= _PATH_TEXTS_KEPT:
            _OWN_NOTATIONS.clear()
        notation = "algebraic" if _FILE_LETTER.search(written) else "numeric"
        _OWN_NOTATIONS[written] = notation
    return notation


@lru_cache(maxsize=64)
def _path_texts(
    board: Board, notation: Notation, separator: str
) -> dict[tuple[int, ...] | tuple[tuple[int, ...], bool], str]:
    """The memo of ``Move.notation`` texts shared by every game written on ``board`` in
    ``notation`` with ``separator``: a plain move's by its path, a capture's by ``(path,
    full)`` (``MoveRewriter.text`` empties it when it holds ``_PATH_TEXTS_KEPT`` texts)."""
    return {}


class MovetextAtoms(GameVisitor[list[str]]):
    """The move text as unbreakable atoms (a move number travels with its move, a
    variation's ``(`` with its first atom and ``)`` with its last), for ``Game.accept``:
    moves as written, or as ``rewriter`` writes them; numbers as written, or as
    ``accept``'s numbering gives them when ``renumber``; setups through ``fen``. A bare move
    (most of a record) costs one atom and no list of the node."""

    def __init__(
        self, rewriter: MoveRewriter | None, *, renumber: bool, fen: Callable[[str], str]
    ) -> None:
        self.renumber = renumber
        self.numbered = renumber  # the numbers as written need none worked out
        self.fen = fen
        self.move_text = rewriter.text if rewriter is not None else _written_move
        self.atoms: list[str] = []
        self.interrupted = True  # text since the last move calls for ``N...``
        self.opening = ""  # the "(" of a variation, for the first atom of its first move

    def begin_game(self, game: Game) -> None:
        atoms = self.atoms
        if not game.tags:
            atoms.extend(comment_atoms(game.comments_before))
        if game.setup is not None:
            atoms.append(self._setup_atom(game.setup))
        atoms.extend(comment_atoms(game.comments_after))
        atoms.extend(f"${nag}" for nag in game.nags)  # read from a game without moves
        missing = _missing_commands(game)
        if missing:
            atoms.append(missing)

    def visit_move(self, node: GameNode, ply: int, number: MoveNumber) -> None:
        """Setup, move number, comments before, move + strength, NAGs, comments after. The
        number comes before the comments, so a reader attaches those to this move."""
        atoms = self.atoms
        interrupted = self.interrupted
        opening = self.opening
        if opening:
            self.opening = ""
        if node.setup is not None:
            atoms.append(opening + self._setup_atom(node.setup))
            opening = ""
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
            text, *rest = [*comment_atoms(before), text]
        if label:  # an escape line starts its own line right after the number
            text = f"{label}{text}" if text[:1] == "\n" else f"{label} {text}"
        atoms.append(opening + text if opening else text)
        if rest:
            atoms.extend(rest)
        if not annotated:
            if interrupted:
                self.interrupted = False
            return
        if node.nags:
            atoms.extend(f"${nag}" for nag in node.nags)
        after = node.comments_after
        if after:
            atoms.extend(comment_atoms(after))
        missing = _missing_commands(node)
        if missing:
            atoms.append(missing)
        # text written after the move calls for ``N...`` before the next move
        self.interrupted = bool(after or missing)

    def _setup_atom(self, fen: str) -> str:
        return f'/FEN "{self.fen(fen)}"/'

    def begin_variation(self, node: GameNode) -> None:
        self.opening += "("
        self.interrupted = True

    def end_variation(self, node: GameNode) -> None:
        self.atoms[-1] += ")"  # a variation has a move: its atoms come before
        self.interrupted = True

    def end_game(self) -> list[str]:
        return self.atoms


def comment_atoms(comments: list[str]) -> Iterator[str]:
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
    carried = [  # compared by name and text, as commands are
        spelling
        for text in node.comments_before + node.comments_after
        for spelling in command_spellings_in(text)
    ]
    missing = []
    for command in node.commands:
        spelling = (command.name, command.text)
        if spelling in carried:
            carried.remove(spelling)
        else:
            missing.append(
                f"[%{command.name} {command.text}]" if command.text else f"[%{command.name}]"
            )
    return missing


def _missing_commands(node: GameNode) -> str:
    """One comment carrying the commands no comment of the node carries, or ""."""
    texts = _missing_command_texts(node)
    return "{" + "".join(texts) + "}" if texts else ""


def wrap(atoms: Iterable[str], width: int) -> str:
    """Atoms joined by spaces into lines of at most ``width`` columns; an atom is never split
    (one longer than ``width`` gets a line of its own; one ending in a newline ends its
    line). O(total length)."""
    lines: list[str] = []
    parts: list[str] = []  # the line being filled, its atoms a space apart (joined once)
    column = 0
    for atom in atoms:
        if "\n" not in atom:  # the common atom: one line
            size = len(atom)
            if parts and column + 1 + size <= width:
                parts.append(atom)
                column += 1 + size
                continue
            if parts:
                lines.append(" ".join(parts))
            parts = [atom] if atom else []
            column = size
            continue
        current = " ".join(parts)
        newline = atom.find("\n")
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
        if newline < 0:  # the rest of an escape line's atom
            current = joined
            column += first_line
        elif atom.endswith("\n"):
            lines.append(joined[:-1])
            current, column = "", 0
        else:
            current = joined
            column = len(atom) - atom.rfind("\n") - 1
        parts = [current] if current else []
    if parts:
        lines.append(" ".join(parts))
    return "\n".join(lines)


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
