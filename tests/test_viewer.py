"""The game viewer's data and HTML (``pdn.views.viewer``) and ``pdn html``
(``pdn.database.publishing``, ``pdn.cli.html``): positions equal to the replay's, findings at
their moves, escaping, no network address, one page or a folder, and what a folder may hold.
The viewer in a browser: tests/test_viewer_browser.py."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import run_cli

from pdn.arbiter.detect import written_notation
from pdn.base.output import InputOverwriteError
from pdn.database.publishing import GENERATOR, MAX_PAGE_GAMES, HtmlError, html
from pdn.pdnfile.reader import read_game, read_games
from pdn.views.viewer import game_data, viewer_assets, viewer_definitions, viewer_element

ROOT = Path(__file__).resolve().parents[1]
GENERATED = ROOT / "corpus" / "generated"
FAULTS = ROOT / "corpus" / "irregular" / "faults.pdn"
VARIATIONS = (
    '[GameType "20"]\n\n1. 32-28 19-23 (1... 17-22 2. 28x17 11x22) 2. 28x19 14x23 {a comment}'
    " 3. 33-28 $1 (3. 37-32 (3. 34-29 23x34) 10-14) 3... 23x32 *\n"
)


def payload(element: str) -> dict[str, object]:
    found = re.search(r'<script type="application/json" class="pv-data">(.*?)</script>', element)
    assert found
    loaded: dict[str, object] = json.loads(found.group(1))
    return loaded


@pytest.mark.parametrize("path", sorted(GENERATED.glob("*.pdn")), ids=lambda path: path.stem)
def test_every_main_line_position_is_the_replays(path: Path) -> None:
    for game in read_games(str(path)):
        replayed = game.replayed()
        notation = written_notation(game) or replayed.variant.default_notation
        data = game_data(game, replayed)
        nodes = data["nodes"]
        assert len(data["mainline"]) == len(replayed.positions)
        squares = replayed.variant.board.squares
        for ply, (index, position) in enumerate(
            zip(data["mainline"], replayed.positions, strict=True)
        ):
            node = nodes[index]
            assert (node["t"], node["y"]) == (position.turn, ply)
            pieces = dict(position.pieces())
            assert [
                square for square, letter in zip(squares, node["b"], strict=True) if letter != "."
            ] == sorted(pieces)
            if ply:
                move = replayed.moves[ply - 1]
                assert (node["m"], node["c"]) == (list(move.path), list(move.captures))
                assert nodes[node["p"]] is nodes[data["mainline"][ply - 1]]
        last = len(replayed.positions) - 1
        for ply in (0, last // 2, last):  # the board drawn in the HTML, by Position.fen
            fen = replayed.positions[ply].fen(notation)
            assert f'data-fen="{fen}" data-ply="{ply}"' in viewer_element(data, ply)
        json.dumps(data)  # JSON-able as promised


def test_variations_comments_and_nags_are_in_the_move_list() -> None:
    game = read_game(VARIATIONS)
    data = game_data(game, game.replayed())
    nodes, moves = data["nodes"], data["movesHtml"]
    assert moves.count('<span class="pv-variation">(') == 3
    assert "{a comment}" in moves and "33-28!" in moves
    # each variation's first move branches where the move it replaces was played
    texts = re.findall(r'data-node="(\d+)">([^<]+)<', moves)
    index = {text: int(number) for number, text in texts}
    assert nodes[index["17-22"]]["p"] == nodes[index["19-23"]]["p"] == index["32-28"]
    assert nodes[index["34-29"]]["p"] == nodes[index["37-32"]]["p"] == nodes[index["33-28!"]]["p"]
    assert nodes[index["23x34"]]["y"] == 6
    assert data["mainline"][-1] == index["23x32"]


def test_findings_are_marked_at_their_moves() -> None:
    games = list(read_games(str(FAULTS)))
    first = game_data(games[0], games[0].replayed())
    # missed-capture at ply 3: the move is marked and the message follows it
    assert re.search(
        r'<span class="pv-move error" data-node="3">33-29</span> <span class="pv-finding error" '
        r'data-severity="error">error\[missed-capture\] a capture was compulsory: 28x19</span>',
        first["movesHtml"],
    )
    illegal = game_data(games[1], games[1].replayed())
    # the illegal move is marked and not replayed: no position, not on the main line
    assert 'class="pv-move error unplayed" data-node="1"' in illegal["movesHtml"]
    assert illegal["nodes"][1]["b"] is None and illegal["mainline"] == [0]
    result = game_data(games[3], games[3].replayed())
    assert "warning[result]" in result["movesHtml"] + result["headerFindingsHtml"]


def test_the_element_opens_at_a_ply_and_escapes_file_text() -> None:
    game = read_game(
        '[White "<script>alert(1)</script>"]\n[Black "Ann\x07 http://x.org"]\n'
        '[GameType "20"]\n\n1. 32-28 {</script><b>} 19-23 *\n'
    )
    data = game_data(game, game.replayed())
    element = viewer_element(data, 2, element_id="g1")
    assert 'id="g1"' in element and 'data-ply="2"' in element
    assert f'data-fen="{game.replayed().positions[2].fen()}"' in element
    assert "<script>alert" not in element and "<b>" not in element and "\x07" not in element
    assert "://" not in element and "&lt;script&gt;" in element
    assert payload(element)["pdn"] == data["pdn"]  # the PDN copied is the game's own text
    assert "</script><b>" in str(payload(element)["pdn"])
    assert 'data-ply="2"' in viewer_element(data, 99)  # a ply past the end: the last one


def test_assets_and_definitions_refer_to_no_network() -> None:
    game = read_game(VARIATIONS)
    data = game_data(game, game.replayed())
    page = viewer_assets() + viewer_definitions([data]) + viewer_element(data)
    assert "://" not in page
    for key in data["boards"]:
        assert f'id="{key}"' in page  # both ways up, for the flip


def test_one_page_of_a_few_games(tmp_path: Path) -> None:
    out = tmp_path / "faults.html"
    summary = html([str(FAULTS)], str(out))
    page = out.read_text()
    assert (summary.games, summary.pages, summary.worst) == (7, 1, "error")
    assert page.count('class="pdn-viewer"') == 7 and 'class="pv-picker"' in page
    assert GENERATOR in page and "://" not in page


def test_too_many_games_for_one_page_are_refused(tmp_path: Path) -> None:
    out = tmp_path / "all.html"
    with pytest.raises(HtmlError, match=f"at most {MAX_PAGE_GAMES}"):
        html([str(GENERATED)], str(out))
    assert not out.exists()


def test_a_folder_links_both_ways(tmp_path: Path) -> None:
    out = tmp_path / "site"
    summary = html([str(GENERATED / "international-numeric.pdn")], str(out))
    assert (summary.games, summary.pages) == (12, 13)
    index = (out / "index.html").read_text()
    pages = sorted(path.name for path in out.glob("game-*.html"))
    assert pages == [f"game-{number:04d}.html" for number in range(1, 13)]
    assert all(f'href="{name}"' in index for name in pages)
    second = (out / "game-0002.html").read_text()
    assert 'href="index.html"' in second
    assert 'href="game-0001.html" rel="prev"' in second
    assert 'href="game-0003.html" rel="next"' in second
    assert 'rel="next"' not in (out / "game-0012.html").read_text()
    assert second.count('class="pdn-viewer"') == 1


def test_a_folder_with_other_files_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "site"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    with pytest.raises(HtmlError, match=r"notes\.txt, which pdn html did not write"):
        html([str(FAULTS)], str(out))
    assert sorted(path.name for path in out.iterdir()) == ["notes.txt"]
    (out / "notes.txt").unlink()
    (out / "page.html").write_text("<html>someone's page</html>")
    with pytest.raises(HtmlError, match=r"page\.html"):
        html([str(FAULTS)], str(out))


def test_pdns_own_folder_is_replaced_stale_pages_removed(tmp_path: Path) -> None:
    out = tmp_path / "site"
    html([str(GENERATED / "international-numeric.pdn")], str(out))
    html([str(FAULTS)], str(out))
    assert len(list(out.glob("game-*.html"))) == 7
    assert "faults.pdn" in (out / "index.html").read_text()


def test_an_output_that_is_an_input_is_refused(tmp_path: Path) -> None:
    games = tmp_path / "games.html"
    games.write_bytes(FAULTS.read_bytes())
    with pytest.raises(InputOverwriteError):
        html([str(games)], str(games))
    assert games.read_bytes() == FAULTS.read_bytes()


def test_cli_exit_codes_and_messages(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = run_cli(capsys, "html", str(FAULTS), "-o", str(tmp_path / "f.html"))
    assert (code, out) == (1, "") and "wrote 1 page (7 games)" in err
    clean = str(GENERATED / "international-numeric.pdn")
    code, _, err = run_cli(capsys, "html", clean, "-o", str(tmp_path / "few"), "--folder")
    assert code == 0 and "wrote 13 pages (12 games)" in err and "few/index.html" in err
    code, _, err = run_cli(capsys, "html", str(GENERATED), "-o", str(tmp_path / "x.html"))
    assert code == 2 and err.startswith("pdn html: more than 20 games")
    code, _, err = run_cli(capsys, "html", str(tmp_path / "absent.pdn"), "-o", str(tmp_path / "y"))
    assert code == 2 and "absent.pdn" in err
    code, out, _ = run_cli(capsys, "html", clean, "-o", "-")
    assert code == 0 and out.startswith("<!DOCTYPE html>") and out.count('class="pdn-viewer"') == 12


ROUND_ROBIN = "".join(
    f'[Event "Club cup"]\n[White "{white}"]\n[Black "{black}"]\n[Result "{result}"]\n'
    f'[GameType "20"]\n\n1. 32-28 19-23 {result}\n\n'
    for white, black, result in (
        ("Ann", "Bob", "2-0"),
        ("Bob", "Cid", "1-1"),
        ("Cid", "Ann", "0-2"),
    )
)


def test_a_tournaments_index_has_its_standings(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    games = tmp_path / "cup.pdn"
    games.write_text(ROUND_ROBIN)
    code, _, _ = run_cli(
        capsys, "html", str(games), str(tmp_path / "absent.pdn"), "-o", str(tmp_path / "cup")
    )
    index = (tmp_path / "cup" / "index.html").read_text()
    assert code == 2  # a path not read: the pages are written, the exit code says so
    assert index.index('class="pdn-standings"') < index.index('class="games"')
    assert re.search(r"<td[^>]*>1</td>\s*<td[^>]*>Ann</td>", index)
    assert "Not read" in index and "absent.pdn" in index
    assert "<h1>Club cup</h1>" in index and "3 games from" in index
