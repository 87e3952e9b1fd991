"""`pdn report`: one self-contained, well-formed HTML page; one card per finding up to the cap;
boards that show the positions the replay gives."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest
from conftest import CORPUS

from pdn.arbiter.replay import replay
from pdn.cli.main import main
from pdn.pdnfile.reader import read_games

FAULTS = Path(__file__).resolve().parents[1] / "corpus" / "irregular" / "faults.pdn"
LINKED = (
    '[Event "https://example.org/event"]\n[Site "http://lidraughts.org/abc"]\n'
    '[GameType "20"]\n{see https://example.org} 1. 32-28 19-23 2. 33-29 23x32 3. 37x28 *\n\n'
)


def report(tmp_path: Path, *argv: str) -> tuple[int, str]:
    out = tmp_path / "report.html"
    code = main(["report", *argv, "-o", str(out)])
    return code, out.read_text(encoding="utf-8")


def check_json(capsys: pytest.CaptureFixture[str], *argv: str) -> list[dict[str, object]]:
    main(["check", "--format", "json", "--no-summary", *argv])
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def cards(page: str) -> list[ET.Element]:
    root = ET.fromstring(page)  # well formed: the standard library's XML parser reads it whole
    return [e for e in root.iter("div") if "card" in (e.get("class") or "").split()]


def test_page_is_well_formed_with_one_card_per_finding(tmp_path: Path, capsys) -> None:
    code, page = report(tmp_path, str(FAULTS), "-v")
    findings = check_json(capsys, str(FAULTS))
    assert code == 1  # errors found, as pdn check says
    assert page.startswith("<!DOCTYPE html>")
    drawn = cards(page)
    assert len(drawn) == len(findings) > 5
    assert Counter(card.get("data-code") for card in drawn) == Counter(
        finding["code"] for finding in findings
    )
    # without -v: the errors and warnings only
    _, page = report(tmp_path, str(FAULTS))
    assert Counter(card.get("data-code") for card in cards(page)) == Counter(
        finding["code"] for finding in findings if finding["severity"] != "info"
    )
    # errors first within each game
    root = ET.fromstring(page)
    for game in root.iter("article"):
        ranks = [
            {"error": 0, "warning": 1, "info": 2}[card.get("data-severity", "")]
            for card in game.iter("div")
            if "card" in (card.get("class") or "").split()
        ]
        assert ranks == sorted(ranks)


def test_no_network_reference_even_from_the_file(tmp_path: Path) -> None:
    source = tmp_path / "linked.pdn"
    source.write_text(LINKED, encoding="utf-8")
    code, page = report(tmp_path, str(source), str(FAULTS))
    assert code == 1
    assert "http://" not in page and "https://" not in page
    assert "example.org" in page  # the text is kept, only no longer an address
    assert 'src="' not in page and "@import" not in page and "url(" not in page


def test_errors_are_drawn_whatever_the_cap(tmp_path: Path) -> None:
    games = "".join(
        f'[GameType "20"][Round "{n}"]\n1. 32-28 19-23 2. 33-29 23x32 3. 37x28 *\n\n'
        for n in range(4)
    )
    source = tmp_path / "missed.pdn"
    source.write_text(games, encoding="utf-8")
    code, page = report(tmp_path, str(source), "--max-cards", "2")
    assert code == 1
    assert [card.get("data-code") for card in cards(page)] == ["missed-capture"] * 4
    assert "4 drawn</td>" in page and "Not drawn as cards" not in page


def test_select_and_ignore_choose_the_cards(tmp_path: Path) -> None:
    _, page = report(tmp_path, str(FAULTS), "--select", "result,repetition", "-v")
    assert {card.get("data-code") for card in cards(page)} == {"result", "repetition"}
    _, page = report(tmp_path, str(FAULTS), "--ignore", "illegal-move,missed-capture")
    drawn = {card.get("data-code") for card in cards(page)}
    assert "illegal-move" not in drawn and "missed-capture" not in drawn and "result" in drawn


def pieces(card: ET.Element) -> dict[int, str]:
    return {
        int(e.get("data-square", "0")): e.get("data-piece", "")
        for e in card.iter()
        if e.get("data-piece")
    }


def test_boards_show_the_replayed_positions(tmp_path: Path) -> None:
    _, page = report(tmp_path, str(FAULTS), "-v")
    by_id = {card.get("id"): card for card in cards(page)}
    checked = 0
    for game in read_games(FAULTS):
        replayed = replay(game)
        for index, finding in enumerate(
            sorted(
                replayed.findings,
                key=lambda f: ({"error": 0, "warning": 1, "info": 2}[f.severity or ""], f.ply),
            )
        ):
            card = by_id[f"g0-{game.source.game}-{index}"]
            assert card.get("data-code") == finding.code
            assert finding.ply is not None
            # draw rules and results: the board after the ply; the others: before it
            after = finding.code in ("move-limit", "repetition", "result")
            position = replayed.positions[finding.ply if after else finding.ply - 1]
            expected = {square: piece.value for square, piece in position.pieces()}
            assert pieces(card) == expected, (finding.code, finding.ply)
            checked += 1
    assert checked >= 8


def test_irregular_move_card_lists_the_legal_moves_and_marks_the_move(tmp_path: Path) -> None:
    _, page = report(tmp_path, str(FAULTS), "--select", "missed-capture")
    (card,) = cards(page)
    alternatives = "".join(
        next(e for e in card.iter("p") if e.get("class") == "alternatives").itertext()
    )
    assert "28x19" in alternatives
    arrows = {e.get("data-kind"): e.get("data-path") for e in card.iter() if e.get("data-kind")}
    assert arrows == {"fault": "33 29", "alternative": "28 19"}
    context = next(e for e in card.iter("p") if e.get("class") == "context")
    assert [mark.text for mark in context.iter("mark")] == ["33-29"]
    assert "".join(context.itertext()).startswith("1. 32-28 19-23 2. 33-29 23x32 3. 37x28")


def test_draw_rule_card_shows_the_count(tmp_path: Path) -> None:
    _, page = report(tmp_path, str(FAULTS), "--select", "move-limit,repetition", "-v")
    counts = {
        card.get("data-code"): "".join(
            "".join(p.itertext()) for p in card.iter("p") if p.get("class") == "count"
        )
        for card in cards(page)
    }
    assert "counted at the start, 10 plies since, 5 moves by White" in counts["move-limit"]
    assert (
        "the same position at the start, after ply 4 and again after ply 8" in counts["repetition"]
    )


def test_filters_need_javascript_and_cards_do_not(tmp_path: Path) -> None:
    _, page = report(tmp_path, str(FAULTS))
    root = ET.fromstring(page)
    nav = next(root.iter("nav"))
    assert nav.get("hidden") == ""  # the script shows it
    assert not [card for card in cards(page) if card.get("hidden") is not None]
    links = [a.get("href") for a in root.iter("a")]
    targets = {e.get("id") for e in root.iter() if e.get("id")}
    assert links and all(link[1:] in targets for link in links if link)


def test_usage_errors_exit_2(tmp_path: Path, capsys) -> None:
    assert main(["report", str(tmp_path / "missing.pdn"), "-o", str(tmp_path / "r.html")]) == 2
    assert "missing.pdn" in capsys.readouterr().err
    assert main(["report", "-", "-o", str(tmp_path / "r.html")]) == 2
    assert "standard input" in capsys.readouterr().err


def test_variation_findings_get_their_board_and_no_main_line_link(tmp_path: Path) -> None:
    source = tmp_path / "variation.pdn"
    source.write_text(
        '[GameType "20"]\n1. 32-28 19-23 2. 28x19 (2. 33-29 23x32 3. 37x28) 14x23 *\n',
        encoding="utf-8",
    )
    code, page = report(tmp_path, str(source))
    assert code == 1
    (card,) = cards(page)
    assert card.get("data-code") == "missed-capture"
    (game,) = read_games(source)
    expected = {square: piece.value for square, piece in replay(game).positions[2].pieces()}
    assert pieces(card) == expected
    root = ET.fromstring(page)
    moves = next(e for e in root.iter("details") if e.get("class") == "moves")
    assert not list(moves.iter("a"))  # the main line's ply 3 (28x19) has no finding


def test_clean_files_say_so_without_filters(tmp_path: Path) -> None:
    source = tmp_path / "clean.pdn"
    source.write_text('[GameType "20"]\n1. 32-28 19-23 2. 28x19 14x23 *\n', encoding="utf-8")
    code, page = report(tmp_path, str(source))
    assert code == 0
    assert "No findings: every game replayed without a problem." in page
    assert "<nav" not in page and not cards(page)


def test_the_cap_is_spent_by_severity_errors_first() -> None:
    from pdn.base.findings import Finding
    from pdn.batch.parallel import GameReport
    from pdn.views.htmlreport import ReportPage

    # in file order the info notes come first: they must not take the warnings' cards
    page = ReportPage(max_cards=4, verbose=True)
    kinds = [("variant", "info")] * 5 + [("variant", "warning")] * 3 + [("tag", "warning")] * 3
    kinds += [("illegal-move", "error")] * 2
    for game, (code, severity) in enumerate(kinds, 1):
        findings = [Finding(code, "note", severity=severity, file="f.pdn", game=game)]
        page.count(GameReport("f.pdn", game, "international", 10, findings), findings)
    page.choose()
    # 2 errors always; the 2 cards left shared by the warning codes; none left for info
    assert page.drawn == {
        ("illegal-move", "error"): 2,
        ("tag", "warning"): 1,
        ("variant", "warning"): 1,
        ("variant", "info"): 0,
    }
    summary = page.html()
    assert "1 drawn, 2 not</td>" in summary
    assert "4 warnings of 6 (<code>--max-cards 4</code>; errors are always drawn)" in summary
    assert "5 info notes of 5" in summary


def test_files_with_errors_come_first(tmp_path: Path) -> None:
    warned = tmp_path / "a-warned.pdn"
    warned.write_text('[GameType "20"]\n[Result "1-0"]\n1. 32-28 1/2-1/2\n\n', encoding="utf-8")
    faulty = tmp_path / "z-faulty.pdn"
    faulty.write_text(LINKED, encoding="utf-8")
    _, page = report(tmp_path, str(warned), str(faulty))
    root = ET.fromstring(page)
    order = [
        "".join(next(s.iter("h2")).itertext())
        for s in root.iter("section")
        if s.get("class") == "file"
    ]
    assert order == ["z-faulty.pdn", "a-warned.pdn"]  # named relative to their folder


PLAYSTRATEGY = CORPUS / "miskibin" / "py-draughts" / "test__games__american__random_pdns.pdn"


@pytest.mark.skipif(not PLAYSTRATEGY.is_file(), reason="../shared/corpus is absent")
def test_split_captures_and_rotated_squares_read_as_on_the_board(tmp_path: Path) -> None:
    # playstrategy English: squares rotated 180 degrees, captures written jump by jump
    _, page = report(tmp_path, str(PLAYSTRATEGY), "--select", "repetition")
    root = ET.fromstring(page)
    for card in cards(page):
        context = next(e for e in card.iter("p") if e.get("class") == "context")
        (marked,) = ["".join(mark.itertext()) for mark in context.iter("mark")]
        game = next(
            article
            for article in root.iter("article")
            if any(e.get("id") == card.get("id") for e in article.iter("div"))
        )
        moves = next(e for e in game.iter("details") if e.get("class") == "moves")
        linked = ["".join(a.itertext()) for a in moves.iter("a")]
        assert linked == [marked]  # the full list links the very move the card marks
        head = "".join(next(e for e in card.iter("div") if e.get("class") == "head").itertext())
        assert f"{marked} on the board drawn" in head


def test_fen_findings_show_the_start_position(tmp_path: Path) -> None:
    source = tmp_path / "fen.pdn"
    source.write_text('[GameType "20"]\n[FEN "W:W3,28:B46,19"]\n1. 28-22 *\n', encoding="utf-8")
    code, page = report(tmp_path, str(source), "--select", "fen")
    assert code == 1
    drawn = cards(page)
    assert len(drawn) == 2
    for card in drawn:
        assert pieces(card) == {3: "w", 28: "w", 46: "b", 19: "b"}


def test_the_page_does_not_depend_on_the_number_of_workers(tmp_path: Path) -> None:
    _, alone = report(tmp_path, str(FAULTS))
    _, spread = report(tmp_path, str(FAULTS), "--jobs", "2")
    assert alone == spread
