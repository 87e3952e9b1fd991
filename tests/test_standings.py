"""`pdn standings` and ``pdn.standings``: points in the variant's scoring whatever the result
spelling, round robin (Sonneborn-Berger, crosstable) and Swiss (Buchholz) events, names across
spellings, games without a result counted apart; the HTML fragment; a real tournament."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from pdn.cli.main import main
from pdn.database.standings import EventStandings, parse_scoring, standings
from pdn.views.standingsview import points_text, standings_fragment, standings_page

#: GameType and a legal first move pair of each variant used here.
OPENINGS = {"20": "1. 32-28 19-23", "25": "1. c3-d4 f6-g5", "21": "1. 11-15 23-19"}


def record(
    white: str, black: str, result: str | None, *, event: str = "Club", gametype: str = "20"
) -> str:
    tags = {"Event": event, "White": white, "Black": black}
    if result is not None:
        tags["Result"] = result
    head = "".join(f'[{name} "{value}"]\n' for name, value in tags.items())
    return f'{head}[GameType "{gametype}"]\n\n{OPENINGS[gametype]} {result or "*"}\n\n'


def write(tmp_path: Path, *games: str, name: str = "event.pdn") -> str:
    path = tmp_path / name
    path.write_text("".join(games), encoding="utf-8")
    return str(path)


def by_player(event: EventStandings) -> dict[str, tuple[int, int, int, int, float, float, int]]:
    return {
        line.player: (
            line.games,
            line.wins,
            line.draws,
            line.losses,
            line.points,
            line.tiebreak,
            line.rank,
        )
        for line in event.lines
    }


# A single round robin of four, results in both 10x10 styles and names in several spellings.
ROUND_ROBIN = (
    record("Sijbrands, Ton", "Harm Wiersma", "2-0"),
    record("Rob Clerc", "Kees Thijssen", "1/2-1/2"),
    record("ton sijbrands", "Rob Clerc", "1-1"),
    record("Wiersma, Harm", "Kees Thijssen", "0-1"),
    record("Kees Thijssen", "Tón Sijbrands", "0-2"),
    record("Harm Wiersma", "Rob Clerc", "1-0"),
)


def test_round_robin_fmjd_points_sonneborn_berger_and_crosstable(tmp_path: Path) -> None:
    [event] = standings([write(tmp_path, *ROUND_ROBIN)])
    assert (event.system, event.tiebreak, event.scoring) == (
        "round-robin",
        "Sonneborn-Berger",
        (2.0, 1.0, 0.0),
    )
    # Sijbrands W2 D1: 5; Wiersma beat Clerc only: 2; Clerc 2 draws: 2; Thijssen W1 D1 L1: 3
    table = by_player(event)
    assert table["Sijbrands, Ton"][:5] == (3, 2, 1, 0, 5.0)
    assert table["Kees Thijssen"][:5] == (3, 1, 1, 1, 3.0)
    assert table["Harm Wiersma"][:5] == (3, 1, 0, 2, 2.0)
    assert table["Rob Clerc"][:5] == (3, 0, 2, 1, 2.0)
    # SB: Sijbrands beat Wiersma (2) and Thijssen (3), drew Clerc (2): 2 + 3 + 1 = 6
    assert table["Sijbrands, Ton"][5] == 6.0
    # Wiersma beat Clerc (2): 2; Clerc drew Sijbrands (5) and Thijssen (3): 4
    assert (table["Harm Wiersma"][5], table["Rob Clerc"][5]) == (2.0, 4.0)
    assert [line.player for line in event.lines] == [
        "Sijbrands, Ton",
        "Kees Thijssen",
        "Rob Clerc",
        "Harm Wiersma",
    ]
    assert [line.rank for line in event.lines] == [1, 2, 3, 4]
    assert event.crosstable is not None
    assert event.crosstable[0] == [[], [2.0], [1.0], [2.0]]  # Sijbrands v Thijssen, Clerc, Wiersma
    for row in range(4):  # every game's points add up to a win's
        for column in range(4):
            if row != column:
                mine, theirs = event.crosstable[row][column], event.crosstable[column][row]
                assert [a + b for a, b in zip(mine, theirs, strict=True)] == [2.0]


def test_8x8_scores_one_half_zero_and_scoring_can_be_chosen(tmp_path: Path) -> None:
    games = [
        record("A", "B", "1-0", gametype="25"),
        record("B", "C", "1/2-1/2", gametype="25"),
        record("C", "A", "1-1", gametype="25"),
    ]
    path = write(tmp_path, *games)
    [event] = standings([path])
    assert event.variant == "russian" and event.scoring == (1.0, 0.5, 0.0)
    assert {line.player: line.points for line in event.lines} == {"A": 1.5, "B": 0.5, "C": 1.0}
    [event] = standings([path], scoring=parse_scoring("3-1-0"))
    assert {line.player: line.points for line in event.lines} == {"A": 4.0, "B": 1.0, "C": 2.0}


def test_result_is_read_from_the_first_movers_side(tmp_path: Path) -> None:
    """English checkers: Black moves first, so ``1-0`` is a win for Black."""
    [event] = standings([write(tmp_path, record("Wendy", "Bob", "1-0", gametype="21"))])
    assert {line.player: line.wins for line in event.lines} == {"Bob": 1, "Wendy": 0}


@pytest.mark.parametrize(
    ("text", "scoring"),
    [("2-1-0", (2.0, 1.0, 0.0)), ("1-½-0", (1.0, 0.5, 0.0)), ("3 - 1 - 0", (3.0, 1.0, 0.0))],
)
def test_parse_scoring(text: str, scoring: tuple[float, float, float]) -> None:
    assert parse_scoring(text) == scoring


def test_parse_scoring_refuses_other_texts() -> None:
    with pytest.raises(ValueError, match="WIN-DRAW-LOSS"):
        parse_scoring("fmjd")


# A Swiss event: six players, three rounds, nobody meets everybody.
SWISS = (
    record("P1", "P2", "2-0", event="Open"),
    record("P3", "P4", "1-1", event="Open"),
    record("P5", "P6", "0-2", event="Open"),
    record("P1", "P6", "1-1", event="Open"),
    record("P4", "P2", "2-0", event="Open"),
    record("P3", "P5", "2-0", event="Open"),
    record("P3", "P1", "0-2", event="Open"),
    record("P6", "P4", "2-0", event="Open"),
    record("P2", "P5", "1-1", event="Open"),
)


def test_swiss_event_is_ranked_by_buchholz(tmp_path: Path) -> None:
    [event] = standings([write(tmp_path, *SWISS)])
    assert (event.system, event.tiebreak, event.crosstable) == ("swiss", "Buchholz", None)
    points = {line.player: line.points for line in event.lines}
    assert points == {"P1": 5.0, "P2": 1.0, "P3": 3.0, "P4": 3.0, "P5": 1.0, "P6": 5.0}
    buchholz = {line.player: line.tiebreak for line in event.lines}
    # P1 met P2, P6, P3: 1 + 5 + 3; P6 met P5, P1, P4: 1 + 5 + 3; P3 met P4, P5, P1: 3 + 1 + 5
    assert (buchholz["P1"], buchholz["P6"], buchholz["P3"]) == (9.0, 9.0, 9.0)
    assert buchholz["P4"] == 3.0 + 1.0 + 5.0  # P3, P2, P6
    ranks = {line.player: line.rank for line in event.lines}
    assert ranks["P1"] == ranks["P6"] == 1  # equal points and Buchholz share the rank
    assert ranks["P3"] == ranks["P4"] == 3
    assert standings([write(tmp_path, *SWISS)], system="round-robin")[0].tiebreak == (
        "Sonneborn-Berger"
    )


def test_games_without_a_result_or_players_are_counted_apart(tmp_path: Path) -> None:
    games = [
        record("A", "B", "2-0"),
        record("B", "C", "*"),
        record("C", "A", None),  # no Result tag, terminator *
        record("?", "A", "2-0"),
        record("A", "A", "1-1"),
    ]
    [event] = standings([write(tmp_path, *games)])
    assert (event.games, event.without_result, event.without_players) == (5, 2, 2)
    table = {line.player: (line.games, line.without_result, line.points) for line in event.lines}
    assert table == {"A": (1, 1, 2.0), "B": (1, 1, 0.0), "C": (0, 2, 0.0)}
    assert event.system == "round-robin"  # every two players met, scored or not
    assert event.crosstable is not None
    assert event.crosstable[0] == [[], [2.0], [None]]  # A v B, A v C (no result)


def test_terminator_counts_before_the_result_tag(tmp_path: Path) -> None:
    game = record("A", "B", "*").replace("19-23 *", "19-23 0-2")
    [event] = standings([write(tmp_path, game)])
    assert {line.player: line.points for line in event.lines} == {"A": 0.0, "B": 2.0}


def test_events_are_apart_and_matched_by_name(tmp_path: Path) -> None:
    path = write(tmp_path, *ROUND_ROBIN, *SWISS, record("X", "Y", "2-0", event="  open  "))
    events = standings([path])
    assert [event.event for event in events] == ["Club", "Open"]  # "  open  " is Open
    assert events[1].games == len(SWISS) + 1
    assert [event.event for event in standings([path], event="CLU")] == ["Club"]


def test_initials_merge_only_without_ambiguity(tmp_path: Path) -> None:
    games = [
        record("Jansen, Gerard", "Clerc, Rob", "1-1"),
        record("G. Jansen", "Wiersma, Harm", "2-0"),  # the only Jansen: Gerard Jansen
        record("Clerc, Rob", "Wiersma, Harm", "1-1"),
    ]
    [event] = standings([write(tmp_path, *games)])
    assert sorted(line.player for line in event.lines) == [
        "Clerc, Rob",
        "Jansen, Gerard",
        "Wiersma, Harm",
    ]
    games.append(record("A. Jansen", "Clerc, Rob", "0-2"))
    games.append(record("Jansen", "Wiersma, Harm", "1-1"))  # Gerard or A.: not merged
    [event] = standings([write(tmp_path, *games)])
    assert "Jansen" in {line.player for line in event.lines}


def test_points_text() -> None:
    assert [points_text(value) for value in (0, 2, 0.5, 10.5, 92.75, 3.4)] == [
        "0",
        "2",
        "½",
        "10½",
        "92¾",
        "3.4",
    ]


def test_html_fragment_escapes_and_shows_the_crosstable_of_round_robins(tmp_path: Path) -> None:
    hostile = [
        record("<script>alert(1)</script>", "B\x1b]52;c;x\x07", "2-0", event="<b>Open</b>"),
        record("B\x1b]52;c;x\x07", "C", "1-1", event="<b>Open</b>"),
        record("C", "<script>alert(1)</script>", "0-2", event="<b>Open</b>"),
    ]
    events = [event.to_dict() for event in standings([write(tmp_path, *hostile)])]
    fragment = standings_fragment(events)
    assert "<script>" not in fragment and "&lt;script&gt;" in fragment
    assert "<b>Open" not in fragment and "&lt;b&gt;Open&lt;/b&gt;" in fragment
    assert "\x1b" not in fragment and "\\x1b" in fragment
    assert fragment.count('class="crosstable"') == 1 and "Sonneborn-Berger" in fragment
    swiss = standings_fragment([event.to_dict() for event in standings([write(tmp_path, *SWISS)])])
    assert 'class="crosstable"' not in swiss and "Buchholz" in swiss
    page = standings_page(events, title="<Open>")
    assert page.startswith("<!DOCTYPE html>") and "<title>&lt;Open&gt;</title>" in page
    assert "http" not in page and "<script" not in page  # no network, no script


def test_cli_formats(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, *ROUND_ROBIN)
    assert main(["standings", path]) == 0
    shown = capsys.readouterr().out
    assert "Club" in shown and "Sonneborn-Berger" in shown and "crosstable" in shown
    assert "Sijbrands, Ton" in shown
    assert main(["standings", path, "--format", "json"]) == 0
    [event] = json.loads(capsys.readouterr().out)["events"]
    assert event["standings"][0]["player"] == "Sijbrands, Ton" and event["tiebreak"] == (
        "Sonneborn-Berger"
    )
    assert main(["standings", path, "--format", "csv", "--scoring", "1-0.5-0"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert (
        len(rows) == 4
        and rows[0]["points"] == "2.5"
        and rows[0]["tiebreak_name"] == ("Sonneborn-Berger")
    )
    page = tmp_path / "club.html"
    assert main(["standings", path, "--format", "html", "-o", str(page)]) == 0
    assert 'class="crosstable"' in page.read_text(encoding="utf-8")


def test_cli_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, *ROUND_ROBIN)
    assert main(["standings", path, str(tmp_path / "missing.pdn")]) == 2
    assert "missing.pdn" in capsys.readouterr().err
    assert main(["standings", path, "--event", "nowhere"]) == 0
    assert "no event with 'nowhere'" in capsys.readouterr().err
    assert main(["standings", path, "-o", path]) == 2  # never over an input
    assert main(["standings", path, "--scoring", "lots"]) == 2
    assert "WIN-DRAW-LOSS" in capsys.readouterr().err


def test_real_round_robin(corpus: Path) -> None:
    """NK 2003 (mig0's full file): 14 players, 91 games, a single round robin."""
    path = corpus / "mig0" / "Games-Checkers" / "data__games__internt__nk2003-amsterdam.pdn"
    [event] = standings([str(path)])
    assert (event.event, event.variant, event.system) == ("NK 2003", "international", "round-robin")
    assert (event.games, len(event.lines), event.without_result) == (91, 14, 0)
    assert all(line.games == 13 for line in event.lines)
    assert sum(line.points for line in event.lines) == 2 * 91
    assert event.crosstable is not None
    assert all(len(cell) == 1 for row in event.crosstable for cell in row if cell)
    assert [line.rank for line in event.lines] == sorted(line.rank for line in event.lines)


def test_real_russian_round_robin(corpus: Path) -> None:
    """The 1947 USSR championship: 18 players on 8x8, 1-½-0."""
    [event] = standings([str(corpus / "wiegerw" / "pdn" / "games__succeed__ussr1947.pdn")])
    assert (event.variant, event.system, event.scoring) == ("russian", "round-robin", (1, 0.5, 0))
    assert (event.games, len(event.lines)) == (153, 18)
    assert sum(line.points for line in event.lines) == 153


def test_a_game_filed_twice_counts_once(tmp_path: Path) -> None:
    first = write(tmp_path, *ROUND_ROBIN, name="a.pdn")
    second = write(tmp_path, ROUND_ROBIN[0].replace("\n", "\r\n"), name="b.pdn")  # CRLF copy
    [event] = standings([first, second])
    assert (event.games, event.duplicates, event.system) == (7, 1, "round-robin")
    assert by_player(event)["Sijbrands, Ton"][:5] == (3, 2, 1, 0, 5.0)
    assert "1 copy of a game counted once" in standings_fragment([event.to_dict()])


def test_results_without_moves_are_never_taken_for_copies(tmp_path: Path) -> None:
    bare = '[Event "Match"]\n[White "A"]\n[Black "B"]\n[Result "2-0"]\n\n2-0\n\n'
    [event] = standings([write(tmp_path, bare, bare)])
    assert (event.duplicates, event.lines[0].games, event.lines[0].points) == (0, 2, 4.0)
