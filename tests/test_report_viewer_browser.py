"""The report's cards open the game viewer, in a real browser (headless Chromium through the
system chromedriver, as ``test_report_browser``): each card's "open" button shows the one
viewer of the page at the card's ply, at the position pdn's own replay reaches there, with
the game's findings marked; the viewer's keys and the report's ``n``/``p`` never act at once;
without JavaScript the buttons stay hidden and every card still shows.

Skipped, with the reason, when Selenium, Chromium or chromedriver is missing.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_report_browser import CHROMEDRIVER, CHROMIUM, FAULTS, browser

from pdn.arbiter.detect import written_notation
from pdn.cli.main import main
from pdn.pdnfile.reader import read_games

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None or CHROMEDRIVER is None,
    reason="no system browser: apt-get install chromium chromium-driver",
)


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("report") / "report.html"
    assert main(["report", str(FAULTS), "-o", str(out)]) == 1
    return out


@pytest.fixture(scope="module")
def driver() -> Iterator[Any]:
    chrome = browser()
    try:
        yield chrome
    finally:
        chrome.quit()


def replay_fens() -> dict[int, list[str]]:
    """Each game's main-line FENs as pdn replays it, in the notation its moves are written."""
    fens = {}
    for game in read_games(str(FAULTS)):
        replayed = game.replayed()
        notation = written_notation(game) or replayed.variant.default_notation
        fens[game.source.game] = [position.fen(notation) for position in replayed.positions]
    return fens


def viewer_state(chrome: Any) -> dict[str, Any]:
    """Whether the dialog is open, and the board it shows (FEN and ply)."""
    return dict(
        chrome.execute_script(
            "var d=document.getElementById('viewer'),b=d.querySelector('.pv-board');"
            "return {open:d.open,fen:b&&b.dataset.fen,ply:b?+b.dataset.ply:-1,"
            "findings:d.querySelectorAll('.pv-moves .pv-finding').length,"
            "current:Array.prototype.indexOf.call(document.querySelectorAll('.card'),"
            "document.querySelector('.card[aria-current]'))}"
        )
    )


def press(chrome: Any, key: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(chrome).send_keys(key).perform()


def test_every_card_opens_the_viewer_at_its_ply(page: Path, driver: Any) -> None:
    from selenium.webdriver.common.by import By

    fens = replay_fens()
    driver.get(page.as_uri())
    cards = driver.find_elements(By.CSS_SELECTOR, ".card")
    opened = 0
    for card in cards:
        game = int(card.get_attribute("data-game"))
        button = card.find_element(By.CSS_SELECTOR, "button.open")
        ply = int(button.get_attribute("data-open-ply"))
        if ply == int(card.get_attribute("data-ply") or -1):
            opened += 1
        driver.execute_script("arguments[0].scrollIntoView({block:'center'})", button)
        button.click()
        state = viewer_state(driver)
        assert state["open"] and state["ply"] == min(ply, len(fens[game]) - 1), card.text
        assert state["fen"] == fens[game][state["ply"]]
        assert state["current"] == cards.index(card)  # n/p go on from the card opened
        press(driver, "\ue00c")  # Escape closes it
        assert not viewer_state(driver)["open"]
    assert opened > 5  # cards about a main-line ply, opened exactly there


def test_the_viewer_keys_and_n_p_do_not_fight(page: Path, driver: Any) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    driver.get(page.as_uri())
    card = next(
        c
        for c in driver.find_elements(By.CSS_SELECTOR, '.card[data-severity="error"][data-ply]')
        if int(c.get_attribute("data-ply")) > 1
    )
    card.find_element(By.CSS_SELECTOR, "button.open").click()
    before = viewer_state(driver)
    assert before["open"] and before["findings"] >= 1  # the game's findings are marked
    press(driver, "n")  # the report's key: nothing while the viewer is open
    assert viewer_state(driver) == before
    press(driver, Keys.ARROW_LEFT)  # the viewer's key: one ply back
    assert viewer_state(driver)["ply"] == before["ply"] - 1
    assert viewer_state(driver)["current"] == before["current"]
    press(driver, Keys.ESCAPE)
    closed = viewer_state(driver)
    assert not closed["open"]
    press(driver, Keys.ARROW_RIGHT)  # closed: the arrows are the page's again
    assert viewer_state(driver)["ply"] == closed["ply"]
    press(driver, "n")  # and n steps on from the card that was opened
    assert viewer_state(driver)["current"] != before["current"]
    assert driver.switch_to.active_element.get_attribute("data-severity") == "error"


def test_without_javascript_the_buttons_stay_hidden(page: Path) -> None:
    from selenium.webdriver.common.by import By

    chrome = browser(javascript=False)
    try:
        chrome.get(page.as_uri())
        buttons = chrome.find_elements(By.CSS_SELECTOR, "button.open")
        cards = chrome.find_elements(By.CSS_SELECTOR, ".card")
        assert len(buttons) == len(cards) > 5
        assert not any(button.is_displayed() for button in buttons)
        assert all(card.is_displayed() for card in cards)
        assert not chrome.find_element(By.ID, "viewer").is_displayed()
    finally:
        chrome.quit()
