"""A game record as PDN text: its tag lines, its move text and its result, wrapped, as
``pdn.pdnfile.writer.write_game`` writes them once it has checked its arguments (``record_text``
takes them checked), with the conversions of one game (``RecordOptions``). Compiled in the
compiled build, with the per-move loop it calls (``pdn.pdnfile.movetext``): the writer's work per
game is not left to the interpreter. O(size of the record), plus one replay when moves are
rewritten.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from pdn.game.numbering import Numbering
from pdn.game.tags import result_in_style, tag_value
from pdn.pdnfile.movetext import MoveRewriter, MovetextAtoms, comment_atoms, convert_fen_text, wrap

if TYPE_CHECKING:
    from pdn.engine.geometry import Notation
    from pdn.engine.variants import Variant
    from pdn.game.record import Game

_MOVE_NUMBER = re.compile(r"([0-9]+)\.(\.\.)?")


def record_text(
    game: Game,
    *,
    variant: Variant | None,
    notation: Notation | None,
    captures: str,
    width: int,
    renumber: bool,
    results: str,
) -> str:
    """``write_game``'s text of ``game``, its options checked (``captures`` ``"short"`` or
    ``"full"``, ``results`` ``"keep"`` or ``"variant"``)."""
    if game.raw is not None:
        return game.raw if game.raw.endswith("\n") else game.raw + "\n"
    options = RecordOptions(game, variant, notation, captures, results)
    tag_lines = [
        f'[{name} "{escape_tag_value(options.tag(name, value))}"]' for name, value in options.tags()
    ]
    if tag_lines and game.comments_before:  # before the first tag: still this game's
        tag_lines.insert(0, wrap(comment_atoms(game.comments_before), width))
    numbering = _numbering(game, options) if renumber else None
    visitor = MovetextAtoms(options.rewriter, renumber=renumber, fen=options.fen)
    atoms: list[str] = game.accept(visitor, numbering=numbering)
    if game.result is not None:
        atoms.append(options.result(game.result))
    parts = []
    if tag_lines:
        parts.append("\n".join(tag_lines) + "\n")
    if atoms:
        parts.append(wrap(atoms, width) + "\n")
    return "\n".join(parts)


def variant_of(game: Game, override: Variant | str | None = None) -> Variant:
    """The game's variant: its GameType, else ``override`` (``--variant``), else inferred
    (``pdn.arbiter.detect``; costs at most a few main-line replays when there is no GameType)."""
    from pdn.arbiter.detect import detect_variant

    return detect_variant(game, override)[0]


def escape_tag_value(value: str) -> str:
    """A tag value for between double quotes: each ``"`` written ``\\"``. Other backslashes
    stay as they are (``C:\\games`` is common in files), exactly what the reader undoes."""
    return value.replace('"', '\\"')


class RecordOptions:
    """What to convert while writing one game. The variant is the replay's when moves are
    rewritten, else detected once on first use (a plain rewrite may never need it)."""

    def __init__(
        self,
        game: Game,
        variant: Variant | None,
        notation: Notation | None,
        captures: str,
        results: str,
    ) -> None:
        self.game = game
        self._variant = variant
        self.notation = notation
        self.results = results
        self.rewriter: MoveRewriter | None = None
        if notation is not None or captures == "full":  # moves rewritten: one replay
            from pdn.arbiter.replay import played_moves

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


def _numbering(game: Game, options: RecordOptions) -> Numbering:
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
