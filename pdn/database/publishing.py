"""Games as web pages for publishing (``pdn html``, ``pdn.html``): the viewer of
``pdn.views.viewer`` for every game, one page for a few games or a folder for many.

``html(paths, output)`` reads every game of ``paths`` (files or folders), replays it (on
``jobs`` processes, in input order) and writes:

- **one page** when ``output`` ends in ``.html`` (or ``-``, standard output): up to
  ``MAX_PAGE_GAMES`` games, a game picker on top when there are several; more games are
  refused (nothing is written) with the advice to write a folder.
- **a folder** otherwise (or with ``folder=True``): ``index.html`` (a tournament's standings
  first, as ``pdn.database.standings`` computes them and ``pdn.views.standingsview`` draws
  them, when the games are of at most ``STANDINGS_EVENTS`` events of ``STANDINGS_PLAYERS``
  players or more; then the games as a table of links: players, result, event, date, round,
  plies, findings) and ``game-0001.html``... one page per game, each linking
  back to the index and to the previous and next game. The folder must be new, empty, or
  pdn's own output (every file in it an HTML page whose head says ``pdn html`` wrote it):
  a folder with other files is refused before anything is read, and pages of an earlier run
  that this one does not write again are removed at the end.

Each page is written through ``pdn.base.output.atomic_output``. Every page carries the
``<meta name="generator" content="pdn html">`` by which a later run recognises it. Cost:
one parse and one replay per game, one header scan of the files for a folder's standings;
memory: one game's page at a time (the index keeps a line per game), a single page all its
games (at most ``MAX_PAGE_GAMES``).
"""

from __future__ import annotations

import dataclasses
import os
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from pdn.arbiter.replay import replay
from pdn.base.findings import SEVERITY_RANK
from pdn.base.output import STDIO, Target, atomic_output, refuse_inputs
from pdn.base.paths import PathError, common_folder
from pdn.batch.parallel import map_paths
from pdn.database.standings import standings
from pdn.pdnfile.reader import parse_span
from pdn.pdnfile.span import Span
from pdn.views.gameview import game_tag
from pdn.views.markup import text
from pdn.views.standingsview import STANDINGS_CSS, standings_fragment
from pdn.views.viewer import viewer_assets, viewer_definitions, viewer_element

#: Games one page holds at most (a game picker on top); more go to a folder.
MAX_PAGE_GAMES = 20
#: What marks a page as pdn html's own (a later run may replace it).
GENERATOR = '<meta name="generator" content="pdn html"/>'
INDEX = "index.html"
#: The tags of the index's columns.
INDEX_TAGS = ("White", "Black", "Result", "Event", "Date", "Round")
#: The index of a folder shows the standings of at most this many events (a tournament's,
#: not a database's), each of at least this many players.
STANDINGS_EVENTS = 5
STANDINGS_PLAYERS = 3


class HtmlError(Exception):
    """Pages that could not or must not be written; ``str(error)`` says which and why.
    Nothing of the run was written (or, for a failure while writing a folder, the pages
    already written are whole)."""


@dataclass(frozen=True)
class GamePage:
    """One game ready to be placed on a page (picklable: it comes back from the workers):
    where it is from (file, ordinal, the byte after it), the index's tags, its plies, its
    findings by severity and its viewer data (``pdn.views.viewer.game_data``)."""

    file: str
    game: int
    end_byte: int
    tags: dict[str, str]
    plies: int
    by_severity: dict[str, int]
    data: dict[str, Any]


@dataclass
class HtmlSummary:
    """What a run wrote: games, pages (a folder counts its index), the folder or page, the
    findings by severity over all games, and the paths that could not be read."""

    games: int = 0
    pages: int = 0
    output: str = ""
    by_severity: Counter[str] = field(default_factory=Counter)
    unreadable: list[tuple[str, str]] = field(default_factory=list)

    @property
    def worst(self) -> str | None:
        """The most severe severity found, None if no finding."""
        return max(self.by_severity, key=SEVERITY_RANK.__getitem__, default=None)


def game_page(span: Span, *, variant: str | None = None, rules: str | None = None) -> GamePage:
    """One span parsed, replayed and made ready for a page. Never raises on bad input (what
    is wrong becomes findings on the page). Cost: one parse and one replay."""
    from pdn.views.viewer import game_data

    game = parse_span(span)
    replayed = replay(game, variant=variant, rules=rules)
    tags = {name: game_tag(game, name) or "" for name in INDEX_TAGS}
    counts: Counter[str] = Counter(finding.severity or "error" for finding in replayed.findings)
    return GamePage(
        game.source.file or "<stdin>",
        game.source.game,
        game.source.end_byte or 0,
        tags,
        len(replayed.positions) - 1 if replayed.positions else 0,
        dict(counts),
        game_data(game, replayed),
    )


def game_pages(spans: list[Span], variant: str | None, rules: str | None) -> list[GamePage]:
    """``game_page`` over a chunk of spans (the unit of work of ``jobs``)."""
    return [game_page(span, variant=variant, rules=rules) for span in spans]


def html(
    paths: Iterable[str],
    output: Target,
    *,
    folder: bool | None = None,
    title: str | None = None,
    variant: str | None = None,
    rules: str | None = None,
    jobs: int = 1,
    on_error: Callable[[PathError], object] | None = None,
    on_game: Callable[[GamePage], object] | None = None,
) -> HtmlSummary:
    """Write the games of ``paths`` as viewer pages to ``output`` (see the module
    docstring): one page when ``output`` is a stream, ``-``, or ends in ``.html`` and
    ``folder`` is not True, else a folder. ``title``: of the page or index (default: the
    games' one event, else ``pdn html``); ``variant`` overrides detection (of the standings
    too), ``rules`` names a draw-rules profile. A folder's index starts with the standings
    of a tournament (see the module docstring). A path that cannot be read goes to
    ``on_error`` and is named on the index; ``on_game`` is told each game placed. Raises
    ``HtmlError`` (a folder that is not pdn's, too many games for a page, a page that cannot
    be written) and ``InputOverwriteError`` (before any work) when an output is an input."""
    paths = list(paths)
    as_folder = folder if folder is not None else _names_folder(output)
    if as_folder and not isinstance(output, str):
        raise HtmlError("a folder of pages needs a folder name, not a stream")
    if as_folder:
        assert isinstance(output, str)
        _check_own_folder(output)
        refuse_inputs({"-o": os.path.join(output, INDEX)}, paths)
    else:
        if isinstance(output, str) and os.path.isdir(output):
            raise HtmlError(f"{output} is a folder: name a file to write one page, or use --folder")
        refuse_inputs({"-o": output}, paths)
    summary = HtmlSummary(output=output if isinstance(output, str) else "<stream>")
    work = partial(game_pages, variant=variant, rules=rules)

    def games() -> Iterator[GamePage]:
        for item in map_paths(paths, work, jobs=jobs):
            if isinstance(item, PathError):
                summary.unreadable.append((item.file, item.message))
                if on_error is not None:
                    on_error(item)
                continue
            summary.games += 1
            summary.by_severity.update(item.by_severity)
            if on_game is not None:
                on_game(item)
            yield item

    if as_folder:
        assert isinstance(output, str)
        _write_folder(games(), output, title, variant, summary)
    else:
        _write_page(games(), output, title, summary)
    return summary


def _names_folder(output: Target) -> bool:
    """Does ``output`` name a folder of pages rather than one page?"""
    if not isinstance(output, str) or output == STDIO:
        return False
    return os.path.isdir(output) or not output.lower().endswith((".html", ".htm"))


def _check_own_folder(folder: str) -> None:
    """``HtmlError`` unless ``folder`` is absent, empty, or holds only pdn html's pages."""
    if not os.path.exists(folder):
        return
    if not os.path.isdir(folder):
        raise HtmlError(f"{folder} is a file: name a folder for the pages (or a .html file)")
    for entry in sorted(os.scandir(folder), key=lambda entry: entry.name):
        if not _is_own_page(entry.path):
            raise HtmlError(
                f"{folder} holds {entry.name}, which pdn html did not write: pages go to a new "
                "or empty folder, or to one pdn html wrote before"
            )


def _is_own_page(path: str) -> bool:
    """An HTML file (no link, no folder) whose head says pdn html wrote it."""
    if os.path.islink(path) or not os.path.isfile(path) or not path.endswith(".html"):
        return False
    try:
        with open(path, encoding="utf-8", errors="replace") as page:
            return GENERATOR in page.read(1000)
    except OSError:
        return False


def _page(title: str, body: str, games: list[dict[str, Any]]) -> str:
    """A whole page: the viewer's assets, the boards of ``games``, ``body``."""
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"/>'
        f'{GENERATOR}<meta name="viewport" content="width=device-width, initial-scale=1"/>'
        f"<title>{text(title)}</title>{viewer_assets()}<style>{_CSS}</style></head>"
        f"<body>{viewer_definitions(games)}{body}</body></html>\n"
    )


def _write(path: Target, content: str) -> None:
    try:
        with atomic_output(path) as out:
            out.write(content)
    except OSError as error:
        raise HtmlError(f"cannot write {path}: {error.strerror or error}") from error


def _title(title: str | None, pages: list[GamePage]) -> str:
    if title:
        return title
    events = {page.tags["Event"] for page in pages}
    return events.pop() if len(events) == 1 and "" not in events else "pdn html"


def _write_page(
    games: Iterator[GamePage], output: Target, title: str | None, summary: HtmlSummary
) -> None:
    """Every game on one page, a picker above them when there are several."""
    pages: list[GamePage] = []
    for page in games:
        pages.append(page)
        if len(pages) > MAX_PAGE_GAMES:
            raise HtmlError(
                f"more than {MAX_PAGE_GAMES} games: one page holds at most {MAX_PAGE_GAMES}; "
                "write a folder of pages instead (-o FOLDER, or --folder)"
            )
    if not pages:
        raise HtmlError("no game to write")
    viewers = "".join(
        viewer_element(page.data, element_id=f"game-{number}")
        for number, page in enumerate(pages, 1)
    )
    picker = ""
    if len(pages) > 1:
        options = "".join(
            f'<option value="game-{number}">{number}. {text(_label(page))}</option>'
            for number, page in enumerate(pages, 1)
        )
        picker = (
            '<nav class="pages"><label>Game <select class="pv-picker">'
            f"{options}</select></label></nav>"
        )
        viewers = f'<div class="pv-picked">{viewers}</div>'
    page_title = _title(title, pages)
    body = f"<h1>{text(page_title)}</h1>{picker}{viewers}"
    _write(output, _page(page_title, body, [page.data for page in pages]))
    summary.pages = 1


def _label(page: GamePage) -> str:
    tags = page.tags
    players = f"{tags['White'] or '?'} – {tags['Black'] or '?'}"
    return " ".join(part for part in (players, tags["Result"]) if part)


def _page_name(number: int) -> str:
    return f"game-{number:04d}.html"


def _write_folder(
    games: Iterator[GamePage],
    folder: str,
    title: str | None,
    variant: str | None,
    summary: HtmlSummary,
) -> None:
    """One page per game (written as soon as the next one is known), then the index."""
    os.makedirs(folder, exist_ok=True)
    before = {entry.name for entry in os.scandir(folder)}
    rows: list[GamePage] = []
    waiting: GamePage | None = None
    for page in games:
        if waiting is not None:
            _write_game_page(folder, waiting, len(rows), last=False)
            rows[-1] = dataclasses.replace(waiting, data={})  # the index needs no viewer data
        rows.append(page)
        waiting = page
    if waiting is not None:
        _write_game_page(folder, waiting, len(rows), last=True)
    files = list(dict.fromkeys(page.file for page in rows))
    index_title = _title(title, rows)
    common = common_folder(files)
    source = files[0] if len(files) == 1 else f"{len(files)} files in {common or '.'}"
    count = f"{len(rows)} game{'s' if len(rows) != 1 else ''}"
    said = f"{count} from {text(source)}" if files else "no game"
    body = [f'<h1>{text(index_title)}</h1><p class="source">{said}</p>']
    if files:
        body.append(_standings(files, variant))
    body.append(_index_table(rows, common))
    if summary.unreadable:
        items = "".join(f"<li>{text(path)}: {text(why)}</li>" for path, why in summary.unreadable)
        body.append(f'<h2>Not read</h2><ul class="unread">{items}</ul>')
    _write(os.path.join(folder, INDEX), _page(index_title, "".join(body), []))
    written = {INDEX, *(_page_name(number) for number in range(1, len(rows) + 1))}
    for stale in sorted(before - written):  # an earlier run's pages (the folder was checked)
        path = os.path.join(folder, stale)
        if _is_own_page(path):
            os.unlink(path)
    summary.pages = len(rows) + 1


def _standings(files: list[str], variant: str | None) -> str:
    """The standings of the games' events for the index: of a tournament, not a database,
    so only when at most ``STANDINGS_EVENTS`` events have ``STANDINGS_PLAYERS`` players or
    more (else nothing). Cost: one header scan of ``files``."""
    events = [
        event
        for event in standings(files, variant=variant)
        if len(event.lines) >= STANDINGS_PLAYERS
    ]
    if not events or len(events) > STANDINGS_EVENTS:
        return ""
    fragment = standings_fragment(event.to_dict() for event in events)
    return f"<style>{STANDINGS_CSS}</style>{fragment}"


def _write_game_page(folder: str, page: GamePage, number: int, *, last: bool) -> None:
    links = [f'<a href="{INDEX}">↑ all games</a>']
    if number > 1:
        links.append(f'<a href="{_page_name(number - 1)}" rel="prev">← previous</a>')
    if not last:
        links.append(f'<a href="{_page_name(number + 1)}" rel="next">next →</a>')
    body = (
        f'<nav class="pages">{" ".join(links)}</nav>{viewer_element(page.data, element_id="game")}'
    )
    title = f"{page.data['title']} ({page.tags['Event'] or page.file})"
    _write(os.path.join(folder, _page_name(number)), _page(title, body, [page.data]))


def _index_table(rows: list[GamePage], common: str) -> str:
    """The games as a table, each row's number and players a link to its page. The Event,
    Date and Round columns only when they differ between games, the file only for several."""
    varying = {"White", "Black", "Result"} | {
        name for name in INDEX_TAGS if len({page.tags[name] for page in rows}) > 1
    }
    shown = [name for name in INDEX_TAGS if name in varying]
    several_files = len({page.file for page in rows}) > 1
    head = "".join(
        f"<th>{name}</th>"
        for name in ("#", *shown, "Plies", "Findings", *(["File"] if several_files else []))
    )
    lines = []
    for number, page in enumerate(rows, 1):
        link = f'<a href="{_page_name(number)}">'
        cells = "".join(
            f"<td>{link}{text(page.tags[name])}</a></td>"
            if name in ("White", "Black")
            else f'<td class="nowrap">{text(page.tags[name])}</td>'
            for name in shown
        )
        findings = ", ".join(
            f'<span class="{severity}">{count} {severity}{"s" if count != 1 else ""}</span>'
            for severity in ("error", "warning")
            if (count := page.by_severity.get(severity, 0))
        )
        file = ""
        if several_files:
            name = os.path.relpath(page.file, common) if common else page.file
            file = f"<td>{text(name)} #{page.game}</td>"
        lines.append(
            f"<tr><td>{link}{number}</a></td>{cells}<td>{page.plies}</td>"
            f"<td>{findings}</td>{file}</tr>"
        )
    return (
        f'<table class="games"><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(lines)}</tbody></table>"
    )


_CSS = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 1em auto; max-width: 1100px; padding: 0 1em; }
h1 { font-size: 1.5em; margin: .2em 0 .5em; }
nav.pages { margin: 0 0 .8em; display: flex; gap: 1.2em; }
table.games { border-collapse: collapse; width: 100%; font-size: .92em; }
table.games th, table.games td { text-align: left; padding: .2em .5em;
  border-bottom: 1px solid #e4e4e4; }
table.games tbody tr:hover { background: #f3f6fd; }
.error { color: #b00016; } .warning { color: #8a5a00; } .nowrap { white-space: nowrap; }
@media (max-width: 600px) { table.games { display: block; overflow-x: auto; } }
"""
