"""The audit of PDN files as one self-contained HTML page (``pdn.views.htmlreport``).

``report(paths, output)`` audits every game (first pass, ``jobs`` processes), spends the card
budget (``ReportPage.choose``), then reads again and replays only the games that get a card
(second pass: its cards and its viewer, the selected findings marked) and writes the page
through ``pdn.base.output.atomic_output``. Cost: one parse and audit per game, one more parse and
replay per game with a card; memory: the counts and the cards' HTML.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass

from pdn.arbiter.replay import replay
from pdn.base.findings import SEVERITY_RANK, passing
from pdn.base.output import Target, atomic_output, refuse_inputs
from pdn.base.paths import PathError
from pdn.batch.parallel import AuditOptions, check_paths
from pdn.pdnfile.reader import parse_span
from pdn.pdnfile.scan import iter_spans
from pdn.views.htmlreport import MAX_CARDS, ReportPage


class ReportError(Exception):
    """A file that could not be read again, or the page that could not be written;
    ``str(error)`` says which and why."""


@dataclass(frozen=True)
class ReportSummary:
    """What the page holds: games audited, findings by severity (those selected), cards
    drawn, and the paths that could not be read (path, message)."""

    games: int
    by_severity: Counter[str]
    cards: int
    unreadable: list[tuple[str, str]]

    @property
    def findings(self) -> int:
        return sum(self.by_severity.values())

    @property
    def worst(self) -> str | None:
        """The most severe severity found (``error``, ``warning``, ``info``), None if none."""
        return max(self.by_severity, key=SEVERITY_RANK.__getitem__, default=None)


def report(
    paths: Iterable[str],
    output: Target,
    *,
    variant: str | None = None,
    rules: str | None = None,
    select: Collection[str] | None = None,
    ignore: Collection[str] | None = None,
    max_cards: int = MAX_CARDS,
    verbose: bool = False,
    title: str = "pdn report",
    jobs: int = 1,
    on_error: Callable[[PathError], object] | None = None,
) -> ReportSummary:
    """Audit the games of ``paths`` (files or folders) and write the page to ``output`` (a
    path, ``-`` for stdout, or a text stream). ``variant`` overrides detection, ``rules`` names
    a draw-rules profile; findings whose code is in ``select`` (None: all) and not in
    ``ignore`` are counted. Cards: every error, then warnings up to ``max_cards`` cards in all
    (each code its fair part), then, with ``verbose``, info notes; without it the info notes are
    folded one line per message, as ``pdn check`` shows them. A path that cannot be
    read is named on the page and goes to ``on_error``. Raises ``ReportError`` when a file
    cannot be read again or the page cannot be written, ``InputOverwriteError`` (before any
    work) when ``output`` is one of the inputs."""
    paths = list(paths)
    refuse_inputs({"-o": output}, paths)
    page = ReportPage(max_cards=max_cards, rules=rules, title=title, verbose=verbose)
    for item in check_paths(paths, AuditOptions(variant=variant, rules=rules), jobs=jobs):
        if isinstance(item, PathError):
            page.unreadable_path(item.file, item.message)
            if on_error is not None:
                on_error(item)
        else:
            page.count(item, passing(item.findings, select, ignore))
    page.choose()
    for file in list(page.files):
        wanted = page.wanted(file)
        if not wanted:
            continue
        try:
            for span in iter_spans(file):
                if span.source.game in wanted:
                    game = parse_span(span)
                    replayed = replay(game, variant=variant, rules=rules)
                    marked = passing(replayed.findings, select, ignore)
                    page.add_game(file, game, replayed, marked)
        except OSError as error:
            raise ReportError(f"cannot read {file} again: {error.strerror or error}") from error
    try:
        with atomic_output(output) as out:
            out.write(page.html())
    except OSError as error:
        raise ReportError(f"cannot write {output}: {error.strerror or error}") from error
    counts = page.counts
    return ReportSummary(counts.games, counts.by_severity, page.card_count, page.unreadable)
