"""pdn.views.boardview, pdn.views.gameview, pdn.views.render: board diagrams for every board, plain
and colour output, game view, SVG.

Snapshots live in tests/snapshots; after a deliberate change of the drawing, rewrite them with
``PDN_UPDATE_SNAPSHOTS=1 pytest tests/test_render.py`` and look at the diff.
"""

from __future__ import annotations

import os
from io import StringIO
from pathlib import Path

import pytest
from conftest import CORPUS, budget
from hypothesis import HealthCheck, given, settings
from render_png import PNG_TOOL, png_size, svg_to_png
from rich.console import Console
from strategies import games

from pdn.base.findings import Finding
from pdn.cli.main import main
from pdn.engine.geometry import Board, board_for_gametype
from pdn.engine.position import Piece, Position
from pdn.engine.variants import Variant
from pdn.game.record import Game
from pdn.pdnfile.reader import read_game, read_games
from pdn.views.boardview import BoardView, LastMove, piece_letter
from pdn.views.gameview import GameView
from pdn.views.render import export_svg

SNAPSHOTS = Path(__file__).parent / "snapshots"

#: Every board kind: (name, board, notation). Built from PDN GameType fields (PDN.md section 2).
BOARDS = {
    "english": (board_for_gametype(8, 8, "N1", False, "B"), "numeric"),
    "italian": (board_for_gametype(8, 8, "N2", True), "numeric"),
    "portuguese": (board_for_gametype(8, 8, "N1", True), "numeric"),
    "russian": (board_for_gametype(8, 8, "A0", False), "algebraic"),
    "international": (board_for_gametype(10, 10, "N2", False), "numeric"),
    "canadian": (board_for_gametype(12, 12, "N2", False), "numeric"),
    "spantsiretti": (board_for_gametype(10, 8, "A0", False), "algebraic"),
    "turkish": (board_for_gametype(8, 8, "A0", False, all_squares=True), "algebraic"),
}


def assert_snapshot(name: str, text: str) -> None:
    """``text`` equals the stored snapshot ``name`` (rewritten when PDN_UPDATE_SNAPSHOTS=1)."""
    path = SNAPSHOTS / name
    if os.environ.get("PDN_UPDATE_SNAPSHOTS") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no snapshot {path}; create it with PDN_UPDATE_SNAPSHOTS=1"
    assert text == path.read_text(encoding="utf-8")


def plain_console(width: int = 80) -> Console:
    """A recording console writing to a string: not a terminal, so no colour."""
    return Console(file=StringIO(), width=width, record=True, legacy_windows=False, _environ={})


def colour_console(width: int = 80, **options: object) -> Console:
    return Console(
        file=StringIO(),
        width=width,
        record=True,
        force_terminal=True,
        color_system="truecolor",
        legacy_windows=False,
        _environ={},
        **options,  # type: ignore[arg-type]
    )


def sample_pieces(board: Board) -> dict[int, str]:
    """Men and kings of both colours: Black men on the first squares, White men on the last,
    one king of each colour in the middle."""
    n = len(board)
    pieces = dict.fromkeys(range(1, n // 4 + 1), "b")
    pieces.update(dict.fromkeys(range(n - n // 4 + 1, n + 1), "w"))
    pieces[n // 2] = "B"
    pieces[n // 2 + 1] = "W"
    return pieces


def sample_move(board: Board) -> LastMove:
    """A made-up White king capture ending on the White king: 3 path squares, 2 captured."""
    n = len(board)
    path = (n - n // 4 + 1, n // 2 + 2, n // 2 + 1)
    return LastMove(path=path, captures=(n // 2 - 2, n // 2 - 3))


def render(view: BoardView, console: Console) -> str:
    console.print(view)
    return console.export_text()


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_board_snapshot_plain(name: str) -> None:
    board, notation = BOARDS[name]
    pieces = sample_pieces(board)
    move = sample_move(board)
    for square in (*move.captures, move.path[0]):
        pieces.pop(square, None)
    view = BoardView(
        board, pieces, notation=notation, last_move=move, glyphs="unicode", caption=name
    )
    assert_snapshot(f"board_{name}.txt", render(view, plain_console()))


def test_board_snapshot_no_color_terminal() -> None:
    """A terminal with NO_COLOR: bold/dim/italic escapes only, pieces and marks by shape."""
    board, _ = BOARDS["international"]
    pieces = sample_pieces(board)
    move = sample_move(board)
    for square in (*move.captures, move.path[0]):
        pieces.pop(square, None)
    console = colour_console(no_color=True)
    console.print(BoardView(board, pieces, last_move=move, glyphs="unicode", caption="no colour"))
    ansi = console.file.getvalue()  # type: ignore[attr-defined]
    assert "38;" not in ansi and "48;" not in ansi  # no colour at all
    assert_snapshot("board_international_no_color.ansi", ansi)


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_board_fits_80_columns_and_measures_its_width(name: str) -> None:
    board, notation = BOARDS[name]
    view = BoardView(board, sample_pieces(board), notation=notation, glyphs="unicode")
    lines = render(view, plain_console()).splitlines()
    assert max(len(line) for line in lines) <= view.width() <= 80
    assert len(lines) == board.height + (notation == "algebraic")


def test_every_square_is_drawn_where_the_geometry_puts_it() -> None:
    board, _ = BOARDS["international"]
    for square in (1, 5, 23, 46, 50):
        view = BoardView(board, {square: "W"}, glyphs="ascii")
        rows = render(view, plain_console()).splitlines()
        file, rank = board.coords(square)
        row = rows[board.height - 1 - rank]
        margin = 3
        assert row[margin + 3 * file + 1] == "W", (square, row)


def test_flip_turns_the_board_half_round() -> None:
    board, _ = BOARDS["russian"]
    normal = render(
        BoardView(board, {29: "w"}, notation="algebraic", glyphs="ascii"), plain_console()
    )
    flipped = render(
        BoardView(board, {29: "w"}, notation="algebraic", flip=True, glyphs="ascii"),
        plain_console(),
    )
    assert normal.splitlines()[-1].split() == list("abcdefgh")
    assert flipped.splitlines()[-1].split() == list("hgfedcba")
    assert normal.splitlines()[7].startswith("1  w")  # a1 bottom left
    assert flipped.splitlines()[0].rstrip().endswith("w")  # a1 top right
    assert flipped.splitlines()[0].startswith("1 ")


def test_a_caption_wider_than_the_board_breaks_at_its_separators() -> None:
    board, _ = BOARDS["russian"]
    caption = "12... c3xe5xg3xe1xc3 · White to move · an extra remark that is far too long"
    view = BoardView(board, {}, notation="algebraic", caption=caption)
    lines = render(view, plain_console()).splitlines()[-3:]
    assert [line.strip() for line in lines[:2]] == ["12... c3xe5xg3xe1xc3", "White to move"]
    assert lines[2].endswith("…") and len(lines[2]) == view.width()


@pytest.mark.parametrize("glyphs", ["unicode", "ascii"])
def test_pieces_stay_distinct_without_colour(glyphs: str) -> None:
    board, _ = BOARDS["english"]
    pieces = {1: "w", 2: "W", 3: "b", 4: "B"}
    for console in (plain_console(), colour_console(no_color=True)):
        text = render(BoardView(board, pieces, glyphs=glyphs), console)  # type: ignore[arg-type]
        top_row = text.splitlines()[0]
        shown = [char for char in top_row if not char.isspace() and not char.isdigit()]
        assert len(set(shown)) == 4, top_row


def test_no_color_keeps_the_last_move_marks() -> None:
    board, _ = BOARDS["international"]
    view = BoardView(board, {23: "w"}, last_move=LastMove((32, 28, 23), (27, 33)), glyphs="ascii")
    for console in (plain_console(), colour_console(no_color=True)):
        text = render(view, console)
        assert "[w]" in text
        assert text.count(" + ") == 2  # from square and the turning square
        assert text.count(" × ") == 2
    assert "\x1b[" not in render(view, colour_console(no_color=True))


def test_colour_output_highlights_the_last_move_instead_of_brackets() -> None:
    board, _ = BOARDS["international"]
    view = BoardView(board, {28: "w"}, last_move=LastMove((32, 28)), glyphs="unicode")
    console = colour_console()
    console.print(view)
    ansi = console.file.getvalue()  # type: ignore[attr-defined]
    assert "48;2;164;161;59" in ansi  # the last-move background
    assert "[" not in console.export_text()
    assert "●" in ansi  # a filled disc: colour tells the sides apart


class AsciiFile(StringIO):
    """A text stream that can only hold ASCII, as a C-locale pipe."""

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return "ascii"


def test_auto_glyphs_follow_the_console_encoding() -> None:
    board, _ = BOARDS["english"]
    view = BoardView(board, {1: "B", 2: "w"})
    assert "◉" in render(view, plain_console())
    ascii_console = Console(file=AsciiFile(), width=80, record=True, _environ={})
    text = render(view, ascii_console)
    assert " B " in text and " w " in text
    assert text.isascii()


def test_piece_letter_accepts_letters_and_engine_pieces() -> None:
    assert [piece_letter(p) for p in "wWbB"] == list("wWbB")
    assert [piece_letter(p) for p in Piece] == [p.value for p in Piece]
    assert piece_letter(Piece.WHITE_KING) == "W"
    for bad in ("x", "", None, 3):
        with pytest.raises(ValueError):
            piece_letter(bad)


# -- games ------------------------------------------------------------------------------------

INTERNATIONAL_GAME = """[Event "Club match"]
[Date "2024.05.01"]
[White "Alice"]
[Black "Bob"]
[Result "2-0"]
[GameType "20"]

1. 32-28 {a classic start} 19-23 2. 28x19 14x23!? 3. 37-32 $1 (3. 33-28 23x32 4. 38x27) 10-14
4. 32-28 23x32 5. 38x27 2-0
"""

#: ply 3 plays 35-30 although 28x19 is compulsory: missed-capture at ply 3.
IRREGULAR_GAME = """[White "A"]
[Black "B"]
[GameType "20"]

1. 32-28 19-23 2. 35-30 23x32 3. 37x28 *
"""


def game_view(text: str, **options: object) -> GameView:
    return GameView(read_game(text), **options)  # type: ignore[arg-type]


def test_game_view_shows_header_moves_comments_nags_and_variations() -> None:
    console = plain_console()
    console.print(game_view(INTERNATIONAL_GAME, glyphs="ascii"))
    text = " ".join(console.export_text().split())
    for expected in (
        "Alice – Bob",
        "Club match",
        "2024.05.01",
        "international (GameType 20)",
        "{a classic start}",
        "14x23!?",
        "37-32!",
        "(3. 33-28 23x32 4. 38x27)",
        "3... 10-14",
        "2-0",
        "5. 38x27 · Black to move",
    ):
        assert expected in text, expected
    assert "19-23!" not in text  # a NAG belongs to its own move only


def test_header_reads_italian_tag_names_and_falls_back_to_the_event() -> None:
    italian = game_view(
        '[Bianco "Rossi"]\n[Nero "Verdi"]\n[Dati "Torneo"]\n[Risultato "1-0"]\n\n'
        "1. 21-17 12-15 1-0\n",
        variant=Variant.from_name("italian"),
    )
    assert italian.title() == "Rossi – Verdi"
    console = plain_console()
    console.print(italian.header())
    text = console.export_text()
    assert "Torneo" in text and "1-0" in text and "italian (as asked)" in text
    nameless = game_view('[Event "01.DAM"]\n[White "?"]\n[GameType "20"]\n\n1. 32-28 *\n')
    assert nameless.title() == "01.DAM"


def test_moves_are_shown_as_written_unless_a_notation_is_asked_for() -> None:
    console = plain_console(width=200)
    console.print(game_view(INTERNATIONAL_GAME, glyphs="ascii"))
    assert "1. 32-28 {a classic start}" in console.export_text()
    console.print(game_view(INTERNATIONAL_GAME, notation="algebraic", glyphs="ascii"))
    text = console.export_text()
    assert "1. d4-e5 {a classic start}" in text  # 32 = d4, 28 = e5
    assert "5. e3xc5 · Black to move" in text  # 38x27 in the board caption too
    assert any(line.split() == list("abcdefghij") for line in text.splitlines())


def test_final_position_is_the_default_board() -> None:
    view = game_view(INTERNATIONAL_GAME)
    assert view.plies == [view.last_ply] == [9]
    final = view.replay.positions[9]
    assert final.piece_at(27) is not None and final.piece_at(32) is None


def test_irregular_move_is_marked_at_its_ply_and_listed() -> None:
    view = game_view(IRREGULAR_GAME, glyphs="ascii")
    console = plain_console(width=100)
    console.print(view)
    text = console.export_text()
    assert "35-30[1]" in text
    assert "[1] ply 3" in text and "missed-capture" in text
    colour = colour_console(width=100)
    colour.print(view)
    ansi = colour.file.getvalue()  # type: ignore[attr-defined]
    assert "\x1b[1;31m35-30" in ansi  # red, bold


def test_draw_rule_expiry_has_its_own_mark() -> None:
    finding = Finding("move-limit", "25-move rule expired", ply=2, move="19-23")
    view = game_view(INTERNATIONAL_GAME, findings=[finding], glyphs="ascii")
    console = colour_console(width=100)
    console.print(view)
    ansi = console.file.getvalue()  # type: ignore[attr-defined]
    assert "[1] ply 2 19-23: info[move-limit] 25-move rule expired" in console.export_text()
    assert "\x1b[1;4;35m19-23" in ansi  # magenta, bold, underlined


def test_boards_side_by_side_fit_80_columns() -> None:
    view = game_view(INTERNATIONAL_GAME, plies=[0, 9], glyphs="ascii")
    console = plain_console()
    console.print(view)
    lines = console.export_text().splitlines()
    assert max(len(line) for line in lines) <= 80
    assert any(line.count("46") == 2 for line in lines)  # two boards on one row
    assert any("start · White to move" in line and "Black to move" in line for line in lines)


def test_svg_snapshot_is_deterministic() -> None:
    first = export_svg(game_view(INTERNATIONAL_GAME, plies=[3]), title="Alice – Bob")
    second = export_svg(game_view(INTERNATIONAL_GAME, plies=[3]), title="Alice – Bob")
    assert first == second
    assert first.startswith("<svg") and "Alice" in first
    assert_snapshot("game_international.svg", first)


@pytest.mark.skipif(PNG_TOOL is None, reason="rsvg-convert (librsvg2-bin) is not installed")
def test_svg_renders_to_a_png(tmp_path: Path) -> None:
    svg = tmp_path / "game.svg"
    svg.write_text(export_svg(game_view(INTERNATIONAL_GAME), title="game"), encoding="utf-8")
    width, height = png_size(svg_to_png(svg, tmp_path / "game.png"))
    assert width > 400 and height > 300


def test_board_of_a_position_says_who_moves() -> None:
    position = Position.initial(Variant.from_name("english"))
    console = plain_console()
    console.print(BoardView.from_position(position, glyphs="ascii"))
    text = console.export_text()
    assert "Black to move" in text
    assert text.count("b") == 12 and text.count("w") == 12


def test_rich_print_of_position_and_game() -> None:
    console = plain_console()
    console.print(Position.initial(Variant.from_name("english")), read_game(INTERNATIONAL_GAME))
    text = console.export_text()
    assert "Black to move" in text and "Alice – Bob" in text


@settings(max_examples=budget(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_any_record_renders_without_raising(game: Game) -> None:
    console = plain_console()
    console.print(GameView(game, glyphs="ascii"))
    assert "Variant" in console.export_text()


# -- the command ------------------------------------------------------------------------------


def run_show(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], *args: str
) -> tuple[int, str, str]:
    path = tmp_path / "games.pdn"
    path.write_text(INTERNATIONAL_GAME + "\n" + IRREGULAR_GAME, encoding="utf-8")
    code = main(["show", str(path), *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_show_draws_the_chosen_game_and_plies(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run_show(tmp_path, capsys, "--plies", "1,2", "--glyphs", "ascii")
    assert (code, err) == (0, "")
    assert "1. 32-28 · Black to move" in out and "1... 19-23 · White to move" in out
    code, out, _ = run_show(tmp_path, capsys, "--game", "2", "--flip")
    assert code == 1 and "A – B" in out  # exit 1: the game has an error finding


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--game", "3"), "has no game 3"),
        (("--ply", "10"), "plies 0..9 only, not 10"),
        (("--plies", "0,-1"), "in '0,-1': expected a whole number of at least 0, not '-1'"),
        (("--ply", "-1"), "expected a whole number of at least 0, not '-1'"),
        (("--variant", "chess"), "unknown variant 'chess'"),
    ],
)
def test_show_errors_go_to_stderr_with_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str
) -> None:
    code, out, err = run_show(tmp_path, capsys, *args)
    assert (code, out) == (2, "")
    assert message in err


def test_show_without_a_readable_start_says_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.pdn"
    path.write_text('[GameType "20"]\n[FEN "W:W99:Bxx"]\n\n1. 32-28 *\n', encoding="utf-8")
    assert main(["show", str(path), "--glyphs", "ascii"]) == 1
    out, err = capsys.readouterr()
    assert "1. 32-28 *" in out and "error[fen]" in out and err == ""
    assert main(["show", str(path), "--ply", "0"]) == 2
    assert "has no position to show: the start position cannot be read" in capsys.readouterr().err


def test_show_writes_svg(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_path = tmp_path / "game.svg"
    code, out, _ = run_show(tmp_path, capsys, "--all", "--svg", str(out_path))
    assert (code, out) == (0, "")
    assert out_path.read_text(encoding="utf-8").startswith("<svg")


# -- real files -------------------------------------------------------------------------------

CORPUS_GAMES = [
    ("rhalbersma/mobydam/book__games__loi20.pdn", "numeric"),
    ("miskibin/py-draughts/test__games__brazilian__random_pdns.pdn", "algebraic"),
    ("wiegerw/pdn/games__succeed__Campionato_Assoluto_2005.pdn", "numeric"),
]


@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is absent")
@pytest.mark.parametrize(("name", "notation"), CORPUS_GAMES)
def test_corpus_games_replay_to_the_end_and_render(name: str, notation: str) -> None:
    game = next(read_games(CORPUS / name))
    view = GameView(game, glyphs="ascii")
    assert view.notation == notation
    assert view.replay.stopped is None
    assert view.last_ply == len(list(game.mainline())) > 0
    console = plain_console()
    console.print(view)
    assert "to move" in console.export_text()


def test_show_reads_the_playstrategy_dialect_as_the_audit_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from test_cli_convert import PLAYSTRATEGY  # squares from Black's side, a split capture

    game = read_game(PLAYSTRATEGY)
    view = GameView(game, glyphs="ascii")
    # 16 written moves, 15 plies: "e5xc3 7. c3xa1" is one capture, 18x11x4 on the PDN board
    assert view.last_ply == 15 and view.replay.stopped is None
    board = view.board_at(12)
    assert board.pieces[4] == "W" and 11 not in board.pieces and 15 not in board.pieces
    assert board.last_move == LastMove((18, 11, 4), (15, 8))
    assert board.caption == "6... 18x11 11x4 · Black to move"  # numbered as written
    path = tmp_path / "ps.pdn"
    path.write_text(PLAYSTRATEGY, encoding="utf-8")
    assert main(["show", str(path), "--glyphs", "ascii"]) == 0
    out = capsys.readouterr().out
    assert "1. 11-15 23-18 2. 8-11" in out and "18x11 7. 11x4 3-8" in out
    assert "boards stop" not in out


@pytest.mark.parametrize("columns", [24, 12, 6])
def test_a_board_fits_a_narrow_console_instead_of_wrapping(columns: int) -> None:
    """10x10 is 36 cells wide: narrower consoles get the compact board, cropped if need be."""
    board = Variant.from_name("international").board
    view = BoardView(board, sample_pieces(board), glyphs="ascii")
    console = Console(width=columns, color_system=None, record=True)
    console.print(view)
    lines = console.export_text().splitlines()
    assert len(lines) == board.height  # one line a rank: nothing wrapped
    assert max(len(line) for line in lines) <= columns
    measured = view.__rich_measure__(console, console.options)
    assert measured.maximum <= columns and measured.minimum == min(board.width, columns)
