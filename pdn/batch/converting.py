"""Convert a PDN file: rewrite it as PDN (any notation, wrapped) or as JSON Lines.

``convert(path, output, ...)`` is ``pdn convert`` as a call; ``converted_games`` the
game-by-game iterator under it. Games stream one at a time (memory flat in file size), in
this process or, with ``jobs``, in chunks on worker processes (``pdn.batch.parallel.map_paths``;
the same bytes in input order). The output is replaced only when whole
(``pdn.base.output.atomic_output``), and never when it is the input (``refuse_inputs``).
Cost: one parse and one write per game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import ExitStack, contextmanager, nullcontext
from dataclasses import dataclass
from functools import partial
from typing import Literal, NamedTuple

from pdn.arbiter.addedtags import addable, added_tags
from pdn.base.findings import Finding
from pdn.base.output import Target, atomic_output, refuse_inputs
from pdn.base.paths import PathError
from pdn.batch.parallel import map_paths
from pdn.engine.geometry import Notation
from pdn.game.record import Game
from pdn.game.stripping import strip as strip_parts
from pdn.game.stripping import strippable
from pdn.pdnfile.reader import parse_span, read_games
from pdn.pdnfile.scan import stdin_bytes
from pdn.pdnfile.span import Span
from pdn.pdnfile.writer import Captures, game_json_text, variant_of, write_game


@dataclass(frozen=True)
class ConvertOptions:
    """How each game is written (picklable: it travels to the ``jobs`` workers): PDN or JSON
    Lines, the variant of games without a usable GameType, the notation (``None``: as
    written), the capture style, standard move numbers, the line width."""

    to: Literal["pdn", "json"] = "pdn"
    variant: str | None = None
    notation: Notation | None = None
    captures: Captures = "short"
    renumber: bool = False
    width: int = 80
    strip: frozenset[str] = frozenset()  # of pdn.game.stripping.STRIPPABLE
    add_tags: Sequence[str] = ()  # of pdn.arbiter.addedtags.ADDABLE


class Converted(NamedTuple):
    """One game converted: its reading findings and its text (PDN, or one JSON line)."""

    findings: list[Finding]
    text: str


def convert_game(game: Game, options: ConvertOptions) -> Converted:
    """``game`` written as ``options`` say, after ``strip`` and ``add_tags``. Cost:
    ``write_game`` or ``game_json_text``, and one replay to add tags."""
    if game.raw is None:  # a game that did not parse is copied as it is
        strip_parts(game, options.strip)
        added_tags(game, options.add_tags, variant=options.variant, notation=options.notation)
    # detected only when a conversion needs it; --variant for games without GameType
    variant = variant_of(game, options.variant) if options.variant else None
    if options.to == "json":
        return Converted(game.findings, game_json_text(game, variant=variant) + "\n")
    text = write_game(
        game,
        variant=variant,
        notation=options.notation,
        captures=options.captures,
        width=options.width,
        move_numbers="renumber" if options.renumber else "keep",
        results="variant",
    )
    return Converted(game.findings, text)


def convert_spans(spans: list[Span], options: ConvertOptions) -> list[Converted]:
    """``convert_game`` over a chunk of spans (the unit of work of ``jobs``)."""
    return [convert_game(parse_span(span), options) for span in spans]


def converted_games(
    path: str, options: ConvertOptions | None = None, *, jobs: int = 1
) -> Iterator[Converted]:
    """Every game of ``path`` (``-``: stdin) converted, in input order, on ``jobs`` processes
    (0: every core); ``OSError`` when ``path`` cannot be read."""
    with _converted(path, options or ConvertOptions(), jobs) as games:
        yield from games


@dataclass
class ConvertSummary:
    """What a ``convert`` run wrote: the games, and the reading findings of severity error."""

    games: int = 0
    errors: int = 0


def convert(
    path: str,
    output: Target = "-",
    *,
    to: Literal["pdn", "json"] = "pdn",
    variant: str | None = None,
    notation: Notation | None = None,
    captures: Captures = "short",
    renumber: bool = False,
    width: int = 80,
    strip: Iterable[str] = (),
    add_tags: Iterable[str] = (),
    jobs: int = 1,
    on_finding: Callable[[Finding], object] | None = None,
) -> ConvertSummary:
    """Convert every game of ``path`` (``-``: stdin) into ``output`` (a path, ``-`` for
    stdout, a text stream): PDN games a blank line apart, or one JSON object a line
    (``to="json"``). ``variant`` is for games without a usable GameType; ``notation``,
    ``captures``, ``renumber`` and ``width`` as ``pdn.pdnfile.writer.write_game``; ``strip``
    some of ``comments``, ``nags``, ``variations`` (``pdn.game.stripping``), ``add_tags`` some
    of ``PlyCount``, ``FinalFEN``, ``HashCode`` (``pdn.arbiter.addedtags``; ``ValueError`` for
    an unknown name, before anything is read). Games that do not parse are copied verbatim;
    ``on_finding`` is called with each reading finding.
    ``OSError`` when ``path`` cannot be read or ``output`` written (``output`` then untouched),
    ``InputOverwriteError`` (before anything is opened) when ``output`` is ``path``.
    """
    refuse_inputs({"-o": output}, [path])
    options = ConvertOptions(
        to, variant, notation, captures, renumber, width, strippable(strip), addable(add_tags)
    )
    summary = ConvertSummary()
    with ExitStack() as stack:
        games = stack.enter_context(_converted(path, options, jobs))  # input before output
        stream = stack.enter_context(atomic_output(output))
        for converted in games:
            for finding in converted.findings:
                if on_finding is not None:
                    on_finding(finding)
                summary.errors += finding.severity == "error"
            if to == "pdn" and summary.games:
                stream.write("\n")
            summary.games += 1
            stream.write(converted.text)
    return summary


@contextmanager
def _converted(path: str, options: ConvertOptions, jobs: int) -> Iterator[Iterator[Converted]]:
    """The games of ``path`` converted: streamed here when ``jobs`` is 1 (the file opened on
    entry, closed on exit), else on worker processes as the iterator is consumed."""
    if jobs != 1:
        yield _by_workers(path, options, jobs)
        return
    name = "<stdin>" if path == "-" else path
    with nullcontext(stdin_bytes()) if path == "-" else open(path, "rb") as source:
        yield (convert_game(game, options) for game in read_games(source, name=name))


def _by_workers(path: str, options: ConvertOptions, jobs: int) -> Iterator[Converted]:
    """Every game of ``path`` converted on ``jobs`` worker processes, in input order."""
    for item in map_paths([path], partial(convert_spans, options=options), jobs=jobs):
        if isinstance(item, PathError):
            raise OSError(0, item.message, item.file)
        yield item
