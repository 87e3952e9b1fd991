"""Replayed games for the pattern and manoeuvre tests: real ones from the corpus, generated
ones from random legal playouts, and the colour-swapped copy of a game as PDN."""

from __future__ import annotations

from pathlib import Path

from hypothesis import strategies as st

from pdn.database.gamefacts import GameFacts, game_facts
from pdn.database.patterns import mirror_position, mirror_square
from pdn.engine.movegen import Move
from pdn.engine.position import Position
from pdn.engine.variants import Variant
from pdn.pdnfile.scan import iter_spans

#: Corpus files of several variants (international, English, Russian, Italian, Frisian).
CORPUS_FILES = (
    "mig0/Games-Checkers/data__games__internt__dutch96h.pdn",
    "mig0/Games-Checkers/data__games__internt__prof2.pdn",
    "mig0/Games-Checkers/data__games__british__British_Computer_Championship_2002.pdn",
    "mig0/Games-Checkers/data__games__russian__abatsiev.pdn",
    "mig0/Games-Checkers/data__games__italian__40champ-1996.pdn",
    "miskibin/py-draughts/test__games__frisian__random_pdns.pdn",
)


def corpus_games(corpus: Path, limit: int = 250) -> list[GameFacts]:
    """Up to ``limit`` replayed games (positions and moves kept) of ``CORPUS_FILES``."""
    found: list[GameFacts] = []
    for name in CORPUS_FILES:
        for span in iter_spans(str(corpus / name)):
            facts = game_facts(span, keep_line=True)
            if len(facts.positions) > 1:
                found.append(facts)
            if len(found) >= limit:
                return found
    return found


@st.composite
def playouts(draw: st.DrawFn, variant: str = "international") -> tuple[list[Position], list[Move]]:
    """A random legal line from the start of ``variant``: its positions and moves."""
    position = Position.initial(Variant.from_name(variant))
    positions, moves = [position], []
    for _ in range(draw(st.integers(0, 120))):
        legal = position.legal_moves
        if not legal:
            break
        move = legal[draw(st.integers(0, len(legal) - 1))]
        position = position.play(move)
        positions.append(position)
        moves.append(move)
    return positions, moves


def line_pdn(positions: list[Position], moves: list[Move], *, mirror: bool = False) -> str:
    """A line as a PDN game (its start as a FEN, every move with its full path); ``mirror``:
    its colour-swapped copy (the mirrored start, each square mapped across the centre)."""
    start = positions[0]
    board = start.variant.board

    def square(number: int) -> str:
        return str(mirror_square(board, number) if mirror else number)

    texts = [
        "x".join(map(square, m.path)) if m.captures else "-".join(map(square, m.path))
        for m in moves
    ]
    fen = (mirror_position(start) if mirror else start).fen()
    return f'[GameType "{start.variant.gametype}"]\n[FEN "{fen}"]\n\n{" ".join(texts)} *\n'
