"""Tournament standings as HTML: a fragment per event (the table, then the crosstable of a round
robin) for a page of one's own, or a whole page.

Takes the plain documents of ``pdn.database.standings.EventStandings.to_dict`` (this layer sits
below the database one): ``event``, ``variant``, ``scoring``, ``system``, ``tiebreak``,
``games``, ``without_result``, ``without_players``, ``duplicates``, ``standings`` (rows with
``rank``, ``player``, ``games``, ``wins``, ``draws``, ``losses``, ``points``, ``tiebreak``,
``without_result``) and ``crosstable`` (None, or per row per opponent the points of each game,
None for a game without a result, shown ``*``).
Every text from a file is escaped (``pdn.views.markup.text``); no script, no network.
Cost: O(players**2) per round robin, O(players) otherwise.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pdn.views.markup import text

#: The fragment's styles, scoped to ``.pdn-standings`` (a page that embeds it includes them once).
STANDINGS_CSS = """\
.pdn-standings { font-family: system-ui, sans-serif; margin: 1em 0 2em; }
.pdn-standings h2 { font-size: 1.25em; margin: 0 0 .25em; }
.pdn-standings .about { color: #555; margin: 0 0 .75em; }
.pdn-standings .scroll { overflow-x: auto; max-width: 100%; }
.pdn-standings table { border-collapse: collapse; margin-bottom: 1em; }
.pdn-standings th, .pdn-standings td { padding: .25em .6em; border-bottom: 1px solid #ddd; }
.pdn-standings th { background: #f3f3f3; text-align: left; }
.pdn-standings td.number, .pdn-standings th.number { text-align: right; }
.pdn-standings td.player { white-space: nowrap; }
.pdn-standings tbody tr:nth-child(even) { background: #fafafa; }
.pdn-standings caption { text-align: left; font-weight: bold; padding: .25em 0; }
.pdn-standings .crosstable th, .pdn-standings .crosstable td { padding: .2em .4em; }
.pdn-standings .crosstable td { text-align: center; border-left: 1px solid #eee; }
.pdn-standings .crosstable td.player { text-align: left; }
.pdn-standings .crosstable td.self { background: #ccc; }
.pdn-standings .crosstable th.opponent { text-align: center; }
"""


#: Column headings of the tie-breaks (the full name is the heading's tooltip and in the line
#: above the table).
TIEBREAK_HEADINGS = {"Sonneborn-Berger": "SB"}
_FRACTIONS = {0.25: "¼", 0.5: "½", 0.75: "¾"}


def points_text(value: float) -> str:
    """Points as people write them: ``2``, ``10½``, ``½``, ``92¾`` (tie-breaks in 1-½-0);
    other fractions as decimals (``3.4`` under a scoring of one's own)."""
    whole, part = divmod(value, 1)
    if part == 0:
        return f"{whole:.0f}"
    if part in _FRACTIONS:
        return f"{whole:.0f}{_FRACTIONS[part]}" if whole else _FRACTIONS[part]
    return f"{value:.2f}".rstrip("0")


def game_points_text(games: Sequence[float | None]) -> str:
    """A crosstable cell: the points of each game, ``*`` for one without a result."""
    return " ".join("*" if points is None else points_text(points) for points in games)


def scoring_text(scoring: Sequence[float]) -> str:
    """``2-1-0``, ``1-½-0``: points for a win, a draw and a loss."""
    return "-".join(points_text(points) for points in scoring)


def about_text(event: Mapping[str, Any]) -> str:
    """One line on how the standings were computed (the same line the terminal shows)."""
    system = "round robin" if event["system"] == "round-robin" else "Swiss"
    parts = [
        f"{event['variant']}",
        f"{_count(event['games'], 'game')}",
        f"{system}: tie-break {event['tiebreak']}",
        f"scoring {scoring_text(event['scoring'])} (win-draw-loss)",
    ]
    if event["without_result"]:
        parts.append(f"{_count(event['without_result'], 'game')} without a result, not scored")
    if event["without_players"]:
        parts.append(f"{_count(event['without_players'], 'game')} without both players, left out")
    if event["duplicates"]:
        parts.append(f"{_count(event['duplicates'], 'copy', 'copies')} of a game counted once")
    return "; ".join(parts)


def standings_fragment(events: Iterable[Mapping[str, Any]]) -> str:
    """One ``<section class="pdn-standings">`` per event: heading, how it was computed, the
    table and, for a round robin, the crosstable. Needs ``STANDINGS_CSS`` on the page."""
    return "".join(_section(event) for event in events)


def standings_page(events: Iterable[Mapping[str, Any]], title: str = "Standings") -> str:
    """A whole HTML page of ``standings_fragment`` (UTF-8, its styles inline, no script)."""
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{text(title)}</title>\n<style>\n{STANDINGS_CSS}</style>\n</head>\n<body>\n"
        f"{standings_fragment(events)}</body>\n</html>\n"
    )


def _count(number: int, noun: str, nouns: str | None = None) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {nouns or noun + 's'}"


def _section(event: Mapping[str, Any]) -> str:
    name = event["event"] or "(no Event tag)"
    rows = event["standings"]
    unscored = any(row["without_result"] for row in rows)
    heads = ["#", "Player", "Games", "W", "D", "L", "Points"]
    header = "".join(
        f"<th>{text(head)}</th>" if head == "Player" else f'<th class="number">{text(head)}</th>'
        for head in heads
    )
    tiebreak = event["tiebreak"]
    short = TIEBREAK_HEADINGS.get(tiebreak, tiebreak)
    header += f'<th class="number"><abbr title="{text(tiebreak)}">{text(short)}</abbr></th>'
    if unscored:
        header += '<th class="number">No result</th>'
    body = []
    for row in rows:
        cells = [
            _number(row["rank"]),
            f'<td class="player">{text(row["player"])}</td>',
            _number(row["games"]),
            _number(row["wins"]),
            _number(row["draws"]),
            _number(row["losses"]),
            _number(points_text(row["points"])),
            _number(points_text(row["tiebreak"])),
        ]
        if unscored:
            cells.append(_number(row["without_result"] or ""))
        body.append(f"<tr>{''.join(cells)}</tr>")
    table = (
        f'<div class="scroll"><table class="standings-table"><thead><tr>{header}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table></div>"
    )
    crosstable = "" if event["crosstable"] is None else _crosstable(rows, event["crosstable"])
    return (
        f'<section class="pdn-standings"><h2>{text(name)}</h2>'
        f'<p class="about">{text(about_text(event))}</p>{table}{crosstable}</section>\n'
    )


def _number(value: object) -> str:
    return f'<td class="number">{text(value)}</td>'


def _crosstable(
    rows: Sequence[Mapping[str, Any]], cells: Sequence[Sequence[Sequence[float | None]]]
) -> str:
    numbers = "".join(f'<th class="opponent">{index}</th>' for index in range(1, len(rows) + 1))
    body = []
    for index, (row, line) in enumerate(zip(rows, cells, strict=True)):
        played = "".join(
            '<td class="self"></td>'
            if column == index
            else f"<td>{text(game_points_text(games))}</td>"
            for column, games in enumerate(line)
        )
        body.append(
            f'<tr><th class="number">{index + 1}</th><td class="player">'
            f"{text(row['player'])}</td>{played}{_number(points_text(row['points']))}</tr>"
        )
    return (
        '<div class="scroll"><table class="crosstable"><caption>Crosstable</caption>'
        '<thead><tr><th class="number">#</th>'
        f'<th>Player</th>{numbers}<th class="number">Points</th></tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table></div>"
    )
