"""`pdn report` leads with what is wrong: errors, then warnings, as cards; info notes folded as
`pdn check` folds them; the card budget spent by severity; an index of files (natural order,
relative names) and games; cards that carry their game and ply for a viewer."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from conftest import CORPUS

from pdn.cli.main import main
from pdn.views.htmlreport import natural_key, plural, share

#: Two games with one Date note, a third with another Date and a missed capture at ply 3.
GAMES = (
    '[Event "e"]\n[Date "1996"]\n1. 32-28 19-23 2. 28x19 14x23 *\n\n'
    '[Event "e"]\n[Date "1996"]\n1. 32-28 19-23 2. 28x19 14x23 *\n\n'
    '[Event "e"]\n[Date "1997"]\n1. 32-28 19-23 2. 33-29 *\n\n'
)
NAMES = ("draw10.pdn", "draw9.pdn", "Draw100.pdn", "draw1.pdn")


def write_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "games"
    (folder / "sub").mkdir(parents=True)
    for name in NAMES:
        (folder / name).write_text(GAMES, encoding="utf-8")
    (folder / "sub" / "draw2.pdn").write_text(GAMES, encoding="utf-8")
    return folder


def report(tmp_path: Path, *argv: str) -> tuple[int, ET.Element, str]:
    out = tmp_path / "report.html"
    code = main(["report", *argv, "-o", str(out)])
    page = out.read_text(encoding="utf-8")
    return code, ET.fromstring(page), page


def cards(root: ET.Element) -> list[ET.Element]:
    return [e for e in root.iter("div") if "card" in (e.get("class") or "").split()]


def words(element: ET.Element) -> str:
    return "".join(element.itertext())


def by_id(root: ET.Element, name: str) -> ET.Element:
    return next(e for e in root.iter() if e.get("id") == name)


def test_info_is_folded_as_check_folds_it_and_drawn_only_with_v(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = write_folder(tmp_path)
    code, root, _ = report(tmp_path, str(folder / "draw9.pdn"))
    assert code == 1
    assert [card.get("data-severity") for card in cards(root)] == ["error"]
    notes = [words(li) for li in by_id(root, "notes").iter("li")]
    main(["check", "-v", "--no-summary", str(folder / "draw9.pdn")])
    checked = [line for line in capsys.readouterr().out.splitlines() if "info[" in line]
    assert len(notes) == len(checked) == 2  # one line for games 1-2, one for game 3
    assert notes[0].endswith("(games 1-2, 2 games)") and checked[0].endswith("(games 1-2, 2 games)")
    assert "game 3" in notes[1] and "Date '1997'" in notes[1]
    _, root, _ = report(tmp_path, str(folder / "draw9.pdn"), "-v")
    assert sorted(card.get("data-severity") for card in cards(root)) == ["error"] + ["info"] * 3


def test_files_in_natural_order_named_relative_to_the_folder(tmp_path: Path) -> None:
    folder = write_folder(tmp_path)
    _, root, _ = report(tmp_path, str(folder))
    index = by_id(root, "index")
    listed = [words(span) for span in index.iter("span") if span.get("class") == "path"]
    assert listed == ["draw1.pdn", "draw9.pdn", "draw10.pdn", "Draw100.pdn", "sub/draw2.pdn"]
    headings = [words(e) for e in root.iter("h2") if e.get("class") == "path"]
    assert headings == listed  # the same worst severity everywhere: natural order
    options = [e.get("value") for e in root.iter("option") if e.get("value")]
    assert options == listed
    assert str(folder) not in "".join(headings + options)
    assert f"in {folder}" in words(next(root.iter("header")))  # the folder, said once


def test_the_index_links_every_game_with_cards(tmp_path: Path) -> None:
    folder = write_folder(tmp_path)
    _, root, _ = report(tmp_path, str(folder), "-v")
    ids = {e.get("id") for e in root.iter() if e.get("id")}
    links = [a.get("href", "") for a in by_id(root, "index").iter("a")]
    games = {article.get("id") for article in root.iter("article")}
    assert {link[1:] for link in links if link.startswith("#g")} == games
    assert all(link[1:] in ids for link in links)
    assert len(games) == 3 * len(NAMES) + 3  # every game has an info card with -v


def test_cards_carry_their_file_game_and_ply(tmp_path: Path) -> None:
    folder = write_folder(tmp_path)
    _, root, _ = report(tmp_path, str(folder), "-v")
    for section in root.iter("section"):
        if section.get("class") != "file":
            continue
        for article in section.iter("article"):
            assert article.get("data-file") == section.get("data-file")
            for card in cards(article):
                assert card.get("data-severity") in ("error", "warning", "info")
                assert card.get("data-file") == section.get("data-file")
                assert card.get("data-game") == article.get("data-game")
                if card.get("data-code") == "missed-capture":
                    assert card.get("data-ply") == "3" and card.get("data-game") == "3"


def test_plurals_are_right(tmp_path: Path) -> None:
    source = tmp_path / "one.pdn"
    source.write_text('[GameType "20"]\n1. 32-28 19-23 2. 33-29 *\n', encoding="utf-8")
    _, _, page = report(tmp_path, str(source))
    text = re.sub(r"<[^>]+>", "", page)
    assert "1 file in" in text and "1 game," in text and "1 finding" in text
    assert "1 error" in text and "1 card drawn" in text
    assert not re.search(r"\b1 (files|games|findings|errors|warnings|cards)\b", text)
    assert plural(2, "ply", "plies") == "2 plies" and plural(1, "ply", "plies") == "1 ply"


def test_a_by_code_row_names_the_cards_it_shows(tmp_path: Path) -> None:
    folder = write_folder(tmp_path)
    _, root, _ = report(tmp_path, str(folder))
    rows = {
        (a.get("data-only-code"), a.get("data-only-severity"))
        for a in root.iter("a")
        if a.get("class") == "only"
    }
    assert rows == {("missed-capture", "error")}  # the info row links to the notes instead
    assert any(a.get("href") == "#notes" for a in by_id(root, "summary").iter("a"))


def test_natural_key_and_share() -> None:
    assert sorted(["draw10", "draw100", "Draw12", "draw9"], key=natural_key) == [
        "draw9",
        "draw10",
        "Draw12",
        "draw100",
    ]
    assert share(10, {"a": 100, "b": 2, "c": 100}) == {"b": 2, "a": 4, "c": 4}
    assert share(0, {"a": 5}) == {"a": 0}
    assert sum(share(7, {"a": 9, "b": 9, "c": 9}).values()) == 7


@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is absent")
def test_on_the_corpus_errors_lead_and_warnings_get_cards(tmp_path: Path) -> None:
    _, root, _ = report(tmp_path, str(CORPUS), "--jobs", "2")
    drawn = cards(root)
    severities = [card.get("data-severity") for card in drawn]
    assert severities[0] == "error" and "info" not in severities
    errors = severities.count("error")
    variant_warnings = [c for c in drawn if c.get("data-code") == "variant"]
    assert variant_warnings  # the issue: 1036 variant warnings, 0 drawn
    assert len(drawn) <= max(500, errors)
