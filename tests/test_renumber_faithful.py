"""``convert --renumber`` and plain ``convert`` change how a game is numbered, never what it
says: the same moves (as replayed: who moved, which path), strengths, NAGs, comments on the
same move, setups and variations. Games modelled on the real corpus (unknown moves ``- -``
from abatsiev.pdn, numbers missing or shifted, comments and variations mid-move), and a
property over the repository's corpus/ folder."""

from __future__ import annotations

from pathlib import Path

import pytest

import pdn
from pdn.engine.errors import NotReplayedError
from pdn.game.record import Game, GameNode
from pdn.pdnfile.reader import read_games

CORPUS = Path(__file__).resolve().parents[1] / "corpus"

#: abatsiev.pdn game 36 (fewer tags): every move of the game unknown, two ``-`` a move number
UNKNOWN_MOVES = (
    '[Event       "XXXIII pervenstvo SSSR"]\n[White       "Abaciev N."]\n'
    '[Black       "Lebedev Ju."]\n[Result      "1/2-1/2"]\n\n'
    + " ".join(f"{number}. - -" for number in range(1, 26))
    + " \n\n                                     1/2-1/2\n"
)
#: a Russian game of the same file, its numbers missing, shifted and interrupted by comments
#: and a variation
IRREGULAR_NUMBERS = (
    '[GameType "25"]\n[Result "1/2-1/2"]\n\n'
    "1. c3-d4 {a comment} f6-g5 b2-c3 g5-h4 (2... g7-f6 {inside} 3. c3-b4 g5-h4) 3. c3-b4 "
    "g7-f6! $1 5. d4-c5 {before the capture} b6xd4 e3xc5 f6-e5 1/2-1/2\n"
)


def says(line: list[GameNode]) -> list[object]:
    """What a line says, its move numbers left out: per move the move as replayed (path and
    who moved; the text where it does not replay), strength, NAGs, comments, setup and the
    variations, recursively."""
    said: list[object] = []
    for node in line:
        try:
            played: object = (node.move.path, node.position().turn)
        except NotReplayedError:  # an unknown move, or the line stopped before it
            played = node.move_text
        said.append(
            (
                played,
                node.strength,
                list(node.nags),
                list(node.comments_before),
                list(node.comments_after),
                node.setup,
                [says(alternative(variation)) for variation in node.parent.variations[1:]]
                if node.parent is not None and node is node.parent.variations[0]
                else [],
            )
        )
    return said


def alternative(first: GameNode) -> list[GameNode]:
    """A variation's moves: its first move and the main line on from it."""
    return [first, *first.mainline()]


def game_says(game: Game) -> tuple[object, ...]:
    """A game's tags, comments before its first move, and what its main line says."""
    return (dict(game.headers), list(game.comments_after), says(list(game.mainline())))


def converted(tmp_path: Path, source: Path, **options: object) -> list[Game]:
    """The games of ``pdn.convert(source, options)``'s output, read back."""
    target = tmp_path / f"out-{len(list(tmp_path.iterdir()))}.pdn"
    pdn.convert(str(source), str(target), **options)  # type: ignore[arg-type]
    return list(read_games(target))


@pytest.mark.parametrize("renumber", [False, True])
@pytest.mark.parametrize("text", [UNKNOWN_MOVES, IRREGULAR_NUMBERS], ids=["unknown", "irregular"])
def test_convert_keeps_what_the_game_says(tmp_path: Path, text: str, renumber: bool) -> None:
    source = tmp_path / "source.pdn"
    source.write_text(text, encoding="utf-8")
    (original,) = read_games(source)
    (again,) = converted(tmp_path, source, renumber=renumber)
    assert game_says(again) == game_says(original)
    assert len(list(again.walk())) == len(list(original.walk()))


def test_renumber_writes_the_unknown_moves_as_plies_of_the_record(tmp_path: Path) -> None:
    # the reader keeps each "- -" as one unknown ply: renumbering numbers those plies
    source = tmp_path / "source.pdn"
    source.write_text(UNKNOWN_MOVES, encoding="utf-8")
    (original,) = read_games(source)
    (again,) = converted(tmp_path, source, renumber=True)
    assert again.mainline_texts() == original.mainline_texts() == ["--"] * 25


@pytest.mark.parametrize(
    "path", sorted(CORPUS.rglob("*.pdn")), ids=lambda path: str(path.relative_to(CORPUS))
)
def test_corpus_convert_keeps_the_main_line(tmp_path: Path, path: Path) -> None:
    originals = list(read_games(path))
    for options in ({}, {"renumber": True}):
        again = converted(tmp_path, path, **options)
        assert [game.mainline_texts() for game in again] == [
            game.mainline_texts() for game in originals
        ], options
        assert [says(list(game.mainline())) for game in again] == [
            says(list(game.mainline())) for game in originals
        ], options
