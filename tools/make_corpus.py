"""Write the project's own corpus: seeded random games played by pdn's rules engine.

    python tools/make_corpus.py [OUT_DIR]      (default: corpus/generated)

Each game is a random legal playout from the variant's start position. It stops when the side
to move has no legal move (the result follows the variant: a loss, or a win in giveaway), when a
draw rule of the variant's default profile expires (a draw), or after ``MAX_PLIES`` (result
``*``). The same seed always gives the same files, so the corpus is reproducible and
``pdn check corpus/generated`` must report no error. Moves are recorded with full paths and
written by ``pdn.pdnfile.writer`` in the file's notation, short where that is unambiguous.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from pdn.engine.drawrules import DrawTracker, profile_for
from pdn.engine.position import Position
from pdn.engine.variants import Variant
from pdn.game.record import Game
from pdn.pdnfile.writer import write_games

MAX_PLIES = 160
SEED = 20261129

#: (variant, notation, games): several families, both notations where the board has both.
PLAN: tuple[tuple[str, str, int], ...] = (
    ("international", "numeric", 12),
    ("brazilian", "algebraic", 8),
    ("brazilian", "numeric", 4),
    ("russian", "algebraic", 8),
    ("english", "numeric", 8),
    ("italian", "numeric", 6),
    ("portuguese", "numeric", 4),
    ("spanish", "numeric", 4),
    ("czech", "algebraic", 4),
    ("pool", "numeric", 4),
    ("frisian", "numeric", 4),
    ("turkish", "algebraic", 4),
    ("thai", "numeric", 4),
    ("canadian", "numeric", 3),
    ("brazilian-giveaway", "algebraic", 4),
    ("international-giveaway", "numeric", 4),
    ("russian-giveaway", "algebraic", 4),
)

_RESULT = {
    # (result style, outcome) -> spelling; outcome "first"/"second" is the variant's first mover
    ("international", "first"): "2-0",
    ("international", "second"): "0-2",
    ("international", "draw"): "1-1",
    ("default", "first"): "1-0",
    ("default", "second"): "0-1",
    ("default", "draw"): "1/2-1/2",
}


def playout(variant: Variant, rng: random.Random, number: int) -> Game:
    """One random legal game in ``variant`` as a record with tags, moves and result."""
    position = Position.initial(variant)
    tracker = DrawTracker.start(profile_for(variant), position)
    game = Game()
    node = game
    outcome = "unknown"
    termination = f"stopped after {MAX_PLIES} plies"
    for _ply in range(MAX_PLIES):
        moves = position.legal_moves
        if not moves:
            loser = position.turn
            winner = loser if variant.giveaway else ("B" if loser == "W" else "W")
            outcome = "first" if winner == variant.first_mover else "second"
            termination = "no legal move"
            break
        move = rng.choice(moves)
        node = node.add_variation(move.notation(variant.board, "numeric", full=True))
        position = position.play(move)
        events = tracker.push(position, move)
        if events:
            outcome = "draw"
            termination = events[0].summary
            break
    result = _RESULT.get((variant.result_style, outcome), "*")
    game.tags = [
        ("Event", "pdn generated corpus"),
        ("Site", "random playout"),
        ("Date", "2026.11.29"),
        ("Round", str(number)),
        ("White", "random"),
        ("Black", "random"),
        ("Result", result),
        *(
            [("GameType", variant.gametype_spec or str(variant.gametype))]
            if variant.gametype is not None
            else []
        ),
        ("Variant", variant.name),
        ("Termination", termination),
    ]
    game.result = result
    return game


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else Path("corpus/generated")
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(SEED)
    for name, notation, count in PLAN:
        variant = Variant.from_name(name)
        games = [playout(variant, rng, number) for number in range(1, count + 1)]
        path = out / f"{name}-{notation}.pdn"
        with path.open("w", encoding="utf-8", newline="\n") as stream:
            write_games(games, stream, variant=variant, notation=notation, move_numbers="renumber")
        print(f"{path}: {len(games)} games", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
