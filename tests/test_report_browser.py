"""`pdn report` in a real browser: Debian's headless Chromium, driven by Selenium through the
system chromedriver. The page must draw (a screenshot that is not blank, with the board's
colours in it), its filters must work with JavaScript, and every card must show without it.

Skipped, with the reason, when Selenium, Chromium or chromedriver is missing (``.ci/run``
installs all three). Nothing is downloaded: Selenium is pointed at the system driver.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from render_png import png_colours

from pdn.cli.main import main

FAULTS = Path(__file__).resolve().parents[1] / "corpus" / "irregular" / "faults.pdn"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--window-size=1100,1400",
)
#: The board's dark squares and the black men, as drawn by pdn.views.svgboard.
DARK_SQUARE = (0xB5, 0x88, 0x63)
BLACK_MAN = (0x26, 0x26, 0x26)

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None or CHROMEDRIVER is None,
    reason="no system browser: apt-get install chromium chromium-driver",
)


def browser(javascript: bool = True) -> Any:
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in FLAGS:
        options.add_argument(flag)
    if not javascript:
        options.add_experimental_option(
            "prefs", {"profile.managed_default_content_settings.javascript": 2}
        )
    return webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)), options=options)


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("report") / "report.html"
    assert main(["report", str(FAULTS), "-o", str(out)]) == 1
    return out


@pytest.fixture
def driver() -> Iterator[Any]:
    chrome = browser()
    try:
        yield chrome
    finally:
        chrome.quit()


def visible_cards(chrome: Any) -> list[Any]:
    from selenium.webdriver.common.by import By

    return [card for card in chrome.find_elements(By.CSS_SELECTOR, ".card") if card.is_displayed()]


def test_screenshot_is_not_blank(page: Path, driver: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    driver.get(page.as_uri())
    assert driver.title == "pdn report"
    whole = tmp_path / "report.png"
    assert driver.save_screenshot(str(whole)) and whole.stat().st_size > 10_000
    card = driver.find_element(By.CSS_SELECTOR, ".card")
    colours = png_colours(card.screenshot_as_png)
    pixels = sum(colours.values())
    assert len(colours) > 50  # text, board, pieces, arrows: not one flat colour
    assert colours.most_common(1)[0][1] < 0.8 * pixels
    assert colours[DARK_SQUARE] > 0.02 * pixels  # the board is drawn
    assert colours[BLACK_MAN] > 0.005 * pixels  # and its pieces


def test_filters_hide_and_show_cards(page: Path, driver: Any) -> None:
    from selenium.webdriver.common.by import By

    driver.get(page.as_uri())
    everything = len(visible_cards(driver))
    assert everything == len(driver.find_elements(By.CSS_SELECTOR, ".card")) > 5
    errors = len(driver.find_elements(By.CSS_SELECTOR, '.card[data-severity="error"]'))
    driver.find_element(By.CSS_SELECTOR, 'input[name="severity"][value="error"]').click()
    assert len(visible_cards(driver)) == everything - errors
    assert driver.find_element(By.ID, "shown").text == f"{everything - errors} cards shown"
    driver.find_element(By.CSS_SELECTOR, 'input[name="severity"][value="error"]').click()
    assert len(visible_cards(driver)) == everything


def test_every_card_shows_without_javascript(page: Path) -> None:
    from selenium.webdriver.common.by import By

    chrome = browser(javascript=False)
    try:
        chrome.get(page.as_uri())
        assert not chrome.find_element(By.ID, "filters").is_displayed()
        cards = chrome.find_elements(By.CSS_SELECTOR, ".card")
        assert len(visible_cards(chrome)) == len(cards) > 5
    finally:
        chrome.quit()
