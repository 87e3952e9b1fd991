"""The game viewer of `pdn html` in a real browser: Debian's headless Chromium, driven by
Selenium through the system chromedriver. Stepping with the keys and clicking a move must
show, at every ply, the position pdn's own replay reaches (the board's ``data-fen``), for a
real 10x10 game (../shared/corpus, skipped when absent) and an 8x8 algebraic one; the
variation keys, the flip, the capture marks and the download button must work.

Skipped, with the reason, when Selenium, Chromium or chromedriver is missing (``.ci/run``
installs all three). Nothing is downloaded: Selenium is pointed at the system driver.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import CORPUS
from test_report_browser import CHROMEDRIVER, CHROMIUM, browser

from pdn.cli.main import main
from pdn.pdnfile.reader import read_game
from pdn.pdnfile.scan import iter_spans

ROOT = Path(__file__).resolve().parents[1]
#: A real International game (WK 2003, round 1) with captures of several pieces.
TEN = CORPUS / "mig0" / "Games-Checkers" / "data__games__internt__wk2003.pdn"
EIGHT = ROOT / "corpus" / "generated" / "russian-algebraic.pdn"
VARIATIONS = (
    '[GameType "20"]\n\n1. 32-28 19-23 (1... 17-22 2. 28x17 11x22) 2. 28x19 14x23 3. 33-28 *\n'
)

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None or CHROMEDRIVER is None,
    reason="no system browser: apt-get install chromium chromium-driver",
)


@pytest.fixture(scope="module")
def downloads(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("downloads")


@pytest.fixture(scope="module")
def driver(downloads: Path) -> Iterator[Any]:
    chrome = browser(prefs={"download.default_directory": str(downloads)})
    try:
        yield chrome
    finally:
        chrome.quit()


def one_game_page(text: str, folder: Path) -> tuple[Path, list[str]]:
    """A viewer page of the game ``text`` and the FEN of every main-line position of
    pdn's own replay."""
    source = folder / "game.pdn"
    source.write_text(text)
    page = folder / "game.html"
    assert main(["html", str(source), "-o", str(page)]) == 0
    replayed = read_game(text).replayed()
    return page, [position.fen() for position in replayed.positions]


def shown(chrome: Any) -> tuple[str, int]:
    from selenium.webdriver.common.by import By

    board = chrome.find_element(By.CSS_SELECTOR, ".pdn-viewer .pv-board")
    return board.get_attribute("data-fen"), int(board.get_attribute("data-ply"))


def press(chrome: Any, key: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(chrome).send_keys(key).perform()


def click_move(chrome: Any, node: int) -> None:
    from selenium.webdriver.common.by import By

    chrome.find_element(By.CSS_SELECTOR, f'.pv-moves [data-node="{node}"]').click()


def node_of_ply(chrome: Any, ply: int) -> int:
    return int(
        chrome.execute_script(
            "var v = PdnViewer.viewers;for (var id in v) return v[id].data.mainline[arguments[0]];",
            ply,
        )
    )


def step_through(chrome: Any, page: Path, fens: list[str]) -> None:
    """→ at every ply, then a click on a move and Home/End, each against the replay."""
    from selenium.webdriver.common.keys import Keys

    chrome.get(page.as_uri())
    assert shown(chrome) == (fens[0], 0)
    for ply in range(1, len(fens)):
        press(chrome, Keys.ARROW_RIGHT)
        assert shown(chrome) == (fens[ply], ply)
    press(chrome, Keys.ARROW_RIGHT)  # past the end: stays
    assert shown(chrome) == (fens[-1], len(fens) - 1)
    middle = len(fens) // 2
    click_move(chrome, node_of_ply(chrome, middle))
    assert shown(chrome) == (fens[middle], middle)
    press(chrome, Keys.ARROW_LEFT)
    assert shown(chrome) == (fens[middle - 1], middle - 1)
    press(chrome, Keys.HOME)
    assert shown(chrome) == (fens[0], 0)
    press(chrome, Keys.END)
    assert shown(chrome) == (fens[-1], len(fens) - 1)


def test_a_real_10x10_game_step_by_step(driver: Any, tmp_path: Path) -> None:
    if not TEN.is_file():
        pytest.skip(f"{TEN} is absent")
    span = next(iter_spans(str(TEN)))
    page, fens = one_game_page(span.text, tmp_path)
    assert len(fens) > 80 and fens[0].startswith("W:W31,")  # numeric, 10x10
    step_through(driver, page, fens)


def test_an_8x8_algebraic_game_step_by_step(driver: Any, tmp_path: Path) -> None:
    span = next(iter_spans(str(EIGHT)))
    page, fens = one_game_page(span.text, tmp_path)
    assert len(fens) > 30 and fens[0].startswith("W:Wa1,")  # algebraic, 8x8
    step_through(driver, page, fens)


def test_variation_keys_flip_and_capture_marks(driver: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    page, fens = one_game_page(VARIATIONS, tmp_path)
    game = read_game(VARIATIONS)
    replayed = game.replayed()
    side_line = game.next().variations[1]  # 1... 17-22
    driver.get(page.as_uri() + "#ply=1")
    assert shown(driver) == (fens[1], 1)
    press(driver, Keys.ARROW_DOWN)  # into the variation replacing 1... 19-23
    assert shown(driver) == (replayed.position_after(side_line).fen(), 2)
    press(driver, Keys.ARROW_RIGHT)  # 2. 28x17, the variation's capture
    assert shown(driver) == (replayed.position_after(side_line.next()).fen(), 3)
    board = driver.find_element(By.CSS_SELECTOR, ".pv-board")
    marks = board.find_elements(By.CSS_SELECTOR, "[data-captured]")
    assert [mark.get_attribute("data-captured") for mark in marks] == ["22"]
    assert board.find_element(By.CSS_SELECTOR, "[data-taken]").get_attribute("data-taken") == "b"
    press(driver, Keys.ARROW_UP)  # out of it: the main-line move it replaced
    assert shown(driver) == (fens[2], 2)
    piece = '.pv-board [data-square="1"]'
    before = driver.find_element(By.CSS_SELECTOR, piece).get_attribute("y")
    press(driver, "f")
    after = driver.find_element(By.CSS_SELECTOR, piece).get_attribute("y")
    assert (before, after) == ("2", "92")  # square 1 from the top row to the bottom one
    assert shown(driver) == (fens[2], 2)  # flipping keeps the position


def test_the_download_button_saves_the_games_pdn(
    driver: Any, downloads: Path, tmp_path: Path
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    page, _ = one_game_page(VARIATIONS, tmp_path)
    driver.get(page.as_uri())
    driver.find_element(By.CSS_SELECTOR, '[data-act="download"]').click()
    saved = downloads / "game-1.pdn"
    WebDriverWait(driver, 20).until(lambda _: saved.is_file() and saved.stat().st_size)
    assert saved.read_text() == str(read_game(VARIATIONS))
