"""Game.accept: one walk of the tree in text order, and one move-number computation."""

from __future__ import annotations

import re

from pdn.game.numbering import UNNUMBERED, MoveNumber, Numbering
from pdn.game.record import Game, GameNode
from pdn.game.visitor import GameVisitor
from pdn.pdnfile.reader import read_game
from pdn.pdnfile.writer import write_game
from pdn.views.gameview import GameView


class Trace(GameVisitor[list[str]]):
    def begin_game(self, game: Game) -> None:
        self.events: list[str] = []

    def visit_move(self, node: GameNode, ply: int, number: MoveNumber) -> None:
        self.events.append(f"{number.number}{'.' if number.first else '...'}{node.move_text}@{ply}")

    def begin_variation(self, node: GameNode) -> None:
        self.events.append("(")

    def end_variation(self, node: GameNode) -> None:
        self.events.append(")")

    def visit_result(self, result: str | None) -> None:
        self.events.append(f"={result}")

    def end_game(self) -> list[str]:
        return self.events


def test_text_order_with_nested_variations_and_result() -> None:
    text = "1. 32-28 (1. 33-29 19-23 (19-24) 2. 40-35) (1. 31-27) 19-23 2. 28x19 1-0"
    assert read_game(text).accept(Trace()) == [
        "1.32-28@1",
        "(",
        "1.33-29@1",
        "1...19-23@2",
        "(",
        "1...19-24@2",
        ")",
        "2.40-35@3",
        ")",
        "(",
        "1.31-27@1",
        ")",
        "1...19-23@2",
        "2.28x19@3",
        "=1-0",
    ]


def test_numbering_from_the_fen_and_restarted_by_a_setup() -> None:
    game = read_game(
        '[FEN "B:W28:B19:F12"]\n12... 19-23 13. 28x19 /FEN "W:W40:B10:F30"/ 30. 40-35 *'
    )
    numbering = Numbering.of_game(game, "W")
    assert game.accept(Trace(), numbering=numbering)[:3] == [
        "12...19-23@1",
        "13.28x19@2",
        "30.40-35@3",
    ]


def test_a_visitor_that_reads_no_numbers_gets_none_worked_out() -> None:
    class Numbers(GameVisitor[list[MoveNumber]]):
        numbered = False

        def begin_game(self, game: Game) -> None:
            self.numbers: list[MoveNumber] = []

        def visit_move(self, node: GameNode, ply: int, number: MoveNumber) -> None:
            self.numbers.append(number)

        def end_game(self) -> list[MoveNumber]:
            return self.numbers

    game = read_game("1. 32-28 (1. 33-29) 19-23 *")
    assert game.accept(Numbers()) == [UNNUMBERED] * 3
    assert game.accept(Trace())[:3] == ["1.32-28@1", "(", "1.33-29@1"]


def test_deep_trees_do_not_recurse() -> None:
    game = Game()
    node: GameNode = game
    for _ in range(3000):
        node.add_variation("1-2")
        node = node.add_main_variation("3-4")  # each move has a side line before it
    events = game.accept(Trace())
    assert events.count("(") == events.count(")") == 3000


def test_writer_and_game_view_number_a_fen_with_full_move_alike() -> None:
    """The :F12 disagreement: write_game(renumber) wrote 12... while pdn show said 1..."""
    text = '[GameType "20"]\n[FEN "B:W28,33:B17,19:F12"]\n19-23 28x19 17-22 *'
    game = read_game(text)
    written = write_game(game, move_numbers="renumber")
    assert "12... 19-23 13. 28x19 17-22" in written
    shown = " ".join(token.plain for token in GameView(game).moves({}))
    assert re.match(r"12\.\.\. 19-23 13\. 28x19 17-22", shown), shown
