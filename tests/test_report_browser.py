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


def browser(javascript: bool = True, prefs: dict[str, Any] | None = None) -> Any:
    """Headless Chromium through the system chromedriver; ``prefs``: Chromium preferences
    (e.g. the download folder)."""
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in FLAGS:
        options.add_argument(flag)
    chosen = dict(prefs or {})
    if not javascript:
        chosen["profile.managed_default_content_settings.javascript"] = 2
    if chosen:
        options.add_experimental_option("prefs", chosen)
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


def current_card(chrome: Any) -> dict[str, Any]:
    """The card the bar points at (``aria-current``), whether it has the focus, where it sits
    under the sticky bar, and what the bar says."""
    return dict(
        chrome.execute_script(
            "var c=document.querySelector('.card[aria-current]');"
            "var cards=Array.prototype.slice.call(document.querySelectorAll('.card'));"
            "return {index:cards.indexOf(c),focused:document.activeElement===c,"
            "severity:c&&c.dataset.severity,top:c&&c.getBoundingClientRect().top,"
            "bar:document.getElementById('filters').getBoundingClientRect().bottom,"
            "at:document.getElementById('at').textContent}"
        )
    )


def test_the_first_card_is_an_error_and_n_p_step_through_the_errors(
    page: Path, driver: Any
) -> None:
    from selenium.webdriver.common.by import By

    driver.get(page.as_uri())
    cards = driver.find_elements(By.CSS_SELECTOR, ".card")
    severities = [card.get_attribute("data-severity") for card in cards]
    assert severities[0] == "error"
    errors = [index for index, severity in enumerate(severities) if severity == "error"]
    assert len(errors) >= 3 and len(errors) < len(cards)
    assert current_card(driver)["index"] == -1  # nothing chosen until asked
    body = driver.find_element(By.TAG_NAME, "body")
    seen = []
    for _ in errors:
        body.send_keys("n")
        now = current_card(driver)
        assert now["severity"] == "error" and now["focused"]
        assert now["top"] >= now["bar"] - 1  # scrolled into view, not under the sticky bar
        assert now["at"] == f"error {len(seen) + 1} of {len(errors)}"
        seen.append(now["index"])
    assert seen == errors  # every error in page order, never a warning
    body.send_keys("n")  # past the last: back to the first
    assert current_card(driver)["index"] == errors[0]
    body.send_keys("p")
    assert current_card(driver)["index"] == errors[-1]
    driver.find_element(By.ID, "previous").click()  # the buttons do the same
    assert current_card(driver)["index"] == errors[-2]
    driver.find_element(By.ID, "next").click()
    assert current_card(driver)["index"] == errors[-1]


def test_a_by_code_row_shows_only_its_cards(page: Path, driver: Any) -> None:
    from selenium.webdriver.common.by import By

    driver.get(page.as_uri())
    every = len(visible_cards(driver))
    driver.find_element(By.CSS_SELECTOR, 'a.only[data-only-code="result"]').click()
    shown = visible_cards(driver)
    assert shown and {card.get_attribute("data-code") for card in shown} == {"result"}
    assert current_card(driver)["index"] >= 0 and current_card(driver)["severity"] == "warning"
    driver.find_element(By.ID, "all").click()
    assert len(visible_cards(driver)) == every


#: The window's width, the page's, its content's, and the elements that stick out on the right.
WIDTHS = """
var page=document.documentElement,wide=[];
document.querySelectorAll('body *').forEach(function(e){var r=e.getBoundingClientRect();
if(r.right>page.clientWidth+0.5)wide.push(e.tagName+'.'+e.className+' '+r.right)});
return [window.innerWidth,page.clientWidth,page.scrollWidth,wide.slice(0,10)]
"""


@pytest.fixture(scope="module")
def long_names(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A report whose file names, headings and tables are long (as on the shared corpus)."""
    folder = tmp_path_factory.mktemp("long") / "data__games__international__tournaments"
    folder.mkdir()
    text = FAULTS.read_text(encoding="utf-8")
    for number in (9, 10):
        name = f"British_Computer_Championship_2002_and_its_unabridged_annotations_{number}.pdn"
        (folder / name).write_text(text, encoding="utf-8")
    out = folder.parent / "report.html"
    assert main(["report", str(folder.parent), "-o", str(out), "-v"]) == 1
    return out


@pytest.mark.parametrize("width", [400, 1100])
def test_no_horizontal_overflow(long_names: Path, driver: Any, width: int) -> None:
    driver.set_window_size(width, 1000)
    driver.get(long_names.as_uri())
    inner, client, scroll, wide = driver.execute_script(WIDTHS)
    assert inner == width and scroll <= client, wide
