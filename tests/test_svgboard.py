"""SVG board diagrams: contents readable back from the data attributes, geometry per variant."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from render_png import PNG_TOOL, png_size, svg_to_png

from pdn.cli.main import main
from pdn.engine.position import Position
from pdn.engine.resolve import resolve
from pdn.engine.variants import Variant
from pdn.views.svgboard import SQUARE, TOP, Arrow, Diagram


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def pieces_of(root: ET.Element) -> dict[int, str]:
    """square -> piece letter, read from the diagram's data attributes."""
    return {
        int(element.get("data-square", "0")): element.get("data-piece", "")
        for element in root.iter()
        if element.get("data-piece")
    }


def played(variant: str, moves: int) -> Position:
    """The position after the first legal move ``moves`` times (engine order)."""
    position = Position.initial(Variant.from_name(variant))
    for _ in range(moves):
        position = position.play(position.legal_moves[0])
    return position


@pytest.mark.parametrize("variant", ["international", "brazilian", "english", "turkish"])
def test_pieces_and_squares_match_the_position(variant: str) -> None:
    position = played(variant, 7)
    root = parse(Diagram.of(position).svg())
    expected = {square: piece.value for square, piece in position.pieces()}
    assert pieces_of(root) == expected
    squares = {e.get("data-square") for e in root.iter() if e.tag.endswith("rect")}
    squares.discard(None)
    assert len(squares) == len(position.variant.board)


def test_kings_are_drawn_as_kings() -> None:
    variant = Variant.from_name("international")
    position = Position.from_fen("W:WK46,28:BK5,19", variant)
    svg = Diagram.of(position).svg()
    assert pieces_of(parse(svg)) == {46: "W", 28: "w", 5: "B", 19: "b"}
    assert 'href="#pdn-wk"' in svg and 'href="#pdn-bk"' in svg


def test_arrow_follows_the_path_and_marks_the_captures() -> None:
    variant = Variant.from_name("international")
    position = Position.from_fen("W:W37:B32,22", variant)
    (move,) = position.legal_moves
    assert move.captures == (32, 22)
    root = parse(Diagram.of(position, arrows=[Arrow.from_move(move, "fault")]).svg())
    (arrow,) = [e for e in root.iter() if e.get("class") == "arrow"]
    assert arrow.get("data-path") == " ".join(map(str, move.path))
    assert arrow.get("data-kind") == "fault"
    captured = {int(e.get("data-captured", "0")) for e in root.iter() if e.get("data-captured")}
    assert captured == {32, 22}


def test_square_one_is_where_the_variant_numbers_it() -> None:
    # International: 1 is on the top rank; flipped, on the bottom rank
    board = Variant.from_name("international").board
    plain = Diagram(board, {}, notation="numeric")
    flipped = Diagram(board, {}, notation="numeric", flip=True)
    assert plain.corner(1)[1] == TOP
    assert flipped.corner(1)[1] == TOP + SQUARE * (board.height - 1)
    # Portuguese: 1 = h1, bottom right seen from White
    portuguese = Variant.from_name("portuguese").board
    x, y = Diagram(portuguese, {}).corner(1)
    assert y == TOP + SQUARE * 7 and x == Diagram(portuguese, {}).corner(4)[0] + 3 * 2 * SQUARE


def test_margin_labels_follow_the_notation() -> None:
    brazilian = parse(Diagram.of(Position.initial(Variant.from_name("brazilian"))).svg())
    words = {e.text for e in brazilian.iter() if e.tag.endswith("text")}
    assert set("abcdefgh") <= words and {"1", "8"} <= words
    international = parse(Diagram.of(Position.initial(Variant.from_name("international"))).svg())
    words = {e.text for e in international.iter() if e.tag.endswith("text")}
    assert {"1", "5", "46", "50", "27"} <= words and "a" not in words


def test_output_is_deterministic_and_self_contained() -> None:
    position = played("russian", 5)
    first = Diagram.of(position, caption="after 5 plies").svg()
    assert first == Diagram.of(position, caption="after 5 plies").svg()
    ids = {e.get("id") for e in parse(first).iter() if e.get("id")}
    references = {e.get("href", "")[1:] for e in parse(first).iter() if e.get("href")}
    assert references <= ids  # every <use> points inside the picture
    without = Diagram.of(position).svg(defs=False, xmlns=False)
    assert "<defs>" not in without and "xmlns" not in without


@pytest.mark.skipif(PNG_TOOL is None, reason="rsvg-convert (librsvg2-bin) is not installed")
def test_standalone_svg_renders(tmp_path: Path) -> None:
    svg = tmp_path / "board.svg"
    svg.write_text(Diagram.of(played("international", 3)).svg(), encoding="utf-8")
    width, height = png_size(svg_to_png(svg, tmp_path / "board.png"))
    assert width > 300 and height > 300


def test_show_svg_draws_diagrams_and_svg_terminal_the_screen(tmp_path: Path) -> None:
    source = tmp_path / "game.pdn"
    source.write_text('[GameType "20"]\n1. 32-28 19-23 2. 28x19 14x23 *\n', encoding="utf-8")
    boards, screen = tmp_path / "boards.svg", tmp_path / "screen.svg"
    assert main(["show", str(source), "--plies", "0,3", "--svg", str(boards)]) == 0
    assert main(["show", str(source), "--svg-terminal", str(screen)]) == 0
    root = parse(boards.read_text(encoding="utf-8"))
    drawn = [e for e in root.iter() if e.get("class") == "pdn-board"]
    assert len(drawn) == 2
    after = Position.initial(Variant.from_name("international"))
    for move in ("32-28", "19-23", "28x19"):
        resolved = resolve(after, move).move
        assert resolved is not None
        after = after.play(resolved)
    assert pieces_of(drawn[1]) == {square: piece.value for square, piece in after.pieces()}
    (arrow,) = [e for e in drawn[1].iter() if e.get("class") == "arrow"]
    assert arrow.get("data-path") == "28 19"
    tinted = [e for e in drawn[1].iter() if e.get("class") == "hl"]
    assert len(tinted) == 2  # the last move's two ends

    assert "data-piece" not in screen.read_text(encoding="utf-8")  # rich's terminal picture
