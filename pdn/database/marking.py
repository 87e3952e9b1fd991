"""``select --mark``: a selected game with a comment after each move where its pattern or
manoeuvre matched, as CQL marks the positions it found.

``marked(selected, notes)`` reads the game's bytes, replays it, adds ``{NOTE}`` after the last
written node of each matching ply (before the first move for a pattern that held at the start)
and writes the game again through the PDN writer: the moves, tags, comments and variations are
kept, the layout is the writer's. Cost: one parse, one replay and one write of the game.
"""

from __future__ import annotations

from pdn.arbiter.replay import replay
from pdn.database.filters import Criteria, Match
from pdn.pdnfile.reader import read_game
from pdn.pdnfile.writer import write_game


def notes_of(criteria: Criteria, match: Match) -> dict[int, list[str]]:
    """Ply -> the comments to add: ``pattern TEXT`` at the pattern's first position ply,
    ``move QUERY`` at each ply ``--move`` matched."""
    notes: dict[int, list[str]] = {}
    if criteria.pattern is not None and match.pattern_ply is not None:
        notes.setdefault(match.pattern_ply, []).append(f"pattern {criteria.pattern.text}")
    if match.move_plies:
        label = "move " + " & ".join(query.text for query in criteria.moves)
        for ply in match.move_plies:
            notes.setdefault(ply, []).append(label)
    return notes


def marked(data: bytes, notes: dict[int, list[str]]) -> bytes:
    """The game of ``data`` with ``notes`` (ply -> comments) after its main-line plies; the
    game unchanged when there is nothing to mark. UTF-8 out."""
    if not notes:
        return data
    game = read_game(data)
    plies = replay(game).mainline_plies
    for ply, texts in sorted(notes.items()):
        if ply > len(plies):
            continue  # past the replayed line: nothing was found there
        node = plies[ply - 1][-1] if ply else game
        for text in texts:
            node.add_comment(text.replace("}", ")"))
    newline = "\r\n" if b"\r\n" in data else "\n"
    return write_game(game).replace("\n", newline).rstrip(newline).encode("utf-8")
