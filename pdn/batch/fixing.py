"""Fix PDN files: repair every game where the answer is certain, log every change, drop nothing.

``fix(paths, output, ...)`` is ``pdn fix`` as a call: every game goes out in input order,
repaired by ``pdn.arbiter.repair`` and written by the writer when something changed, else its
own text as read (line ends as ``\\n``, UTF-8). A game that could not be read goes out verbatim
(or to ``rejects``). Each change is one JSON Lines record in ``log``. The output (and each file
rewritten ``in_place``), the log and the rejects are replaced only when whole
(``pdn.base.output.atomic_output``), at the end of the run; a failed ``in_place`` run that
already rewrote a file still commits its log and rejects, which record what was rewritten. An
output that is one of the inputs is refused before anything is written
(``pdn.base.output.refuse_inputs``). ``fixed_games`` is the game-by-game iterator under it.
Cost: one parse and the repair's replays per game, on ``jobs`` processes; memory flat in file
size.
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from functools import partial
from typing import TYPE_CHECKING, Protocol

from pdn.arbiter.changelog import Change, RepairOptions
from pdn.arbiter.namerepair import rename_players
from pdn.arbiter.normalize import normalizations
from pdn.arbiter.repair import repair
from pdn.arbiter.tagrepair import split_glued_junk
from pdn.base.output import (
    StdoutBeside,
    Target,
    atomic_output,
    backup_copy,
    check_rewritable,
    refuse_inputs,
)
from pdn.base.paths import PathError, expand_paths
from pdn.batch.parallel import map_paths
from pdn.engine.geometry import Notation
from pdn.engine.variants import Variant
from pdn.pdnfile.reader import parse_span
from pdn.pdnfile.span import Span
from pdn.pdnfile.writer import Captures, escape_tag_value, write_game

if TYPE_CHECKING:
    from pdn.game.record import Game

#: The ``fix`` name of the record made when a repair raised (a bug, reported, never a crash).
INTERNAL = "internal-error"
#: One tag pair of a game's text, blank space before it included.
_TAG_TEXT = re.compile(r'\s*\[\s*([A-Za-z_]\w*)\s*"(?:[^"\\\r\n]|\\.)*"\s*\]')


@dataclass(frozen=True)
class FixSettings:
    """What every worker needs to fix a game (picklable): the repairs, and the notation and
    capture style to rewrite every move in (``None``: as written)."""

    repair: RepairOptions = field(default_factory=RepairOptions)
    notation: Notation | None = None
    captures: Captures | None = None
    names: Mapping[str, str] | None = None  # --names: variant -> canonical spelling


@dataclass
class Fixed:
    """One game after ``fix_span``: its output text, its change log, and whether it was read."""

    text: str
    changes: list[Change]
    unreadable: bool


def fix_span(span: Span, settings: FixSettings) -> Fixed:
    """Parse, repair and write one game. Unchanged games keep their own text. Never raises on
    bad input. Cost: one parse and the repair's replays."""
    game = parse_span(span)
    before: list[Change] = []
    if game.raw is not None:
        split = split_glued_junk(game, span.text, settings.repair)
        if split is not None:
            again = parse_span(replace(span, text=split[0]))
            if again.raw is None:
                game, before = again, split[1]
    try:
        repaired = repair(game, settings.repair)
    except Exception as error:  # noqa: BLE001 -- a bug of a repair must neither stop the batch nor lose the game
        source = game.source
        note = f"internal error, game copied unchanged: {error!r}"
        failed = Change(INTERNAL, None, None, None, file=source.file, game=source.game, note=note)
        return Fixed(_own_text(span.text), [failed], game.raw is not None)
    if game.raw is not None:
        text = (
            retagged(game.raw, [name for name, _ in game.tags], repaired.game)
            if repaired.changed
            else None
        )
        return Fixed(_own_text(text or game.raw), repaired.changes if text else [], True)
    repaired.changes[:0] = before
    if settings.names:
        repaired.changes += rename_players(repaired.game, settings.names)
    rewrite = settings.notation is not None or settings.captures is not None
    if not repaired.changed and not rewrite:
        return Fixed(_own_text(span.text), repaired.changes, False)
    text = write_game(
        repaired.game,
        notation=settings.notation,
        captures=settings.captures or "short",
    )
    return Fixed(_own_text(text), repaired.changes, False)


def retagged(raw: str, names: list[str], game: Game) -> str | None:
    """The text ``raw`` of an unreadable game with its leading tags replaced by ``game``'s
    (one a line), the rest kept verbatim; ``None`` (nothing changed) unless ``raw`` opens
    with exactly the tags ``names`` (as read), in order. O(len(raw))."""
    end = 0
    for name in names:
        tag = _TAG_TEXT.match(raw, end)
        if tag is None or tag[1] != name:
            return None
        end = tag.end()
    if _TAG_TEXT.match(raw, end):
        return None
    lines = [f'[{name} "{escape_tag_value(value)}"]' for name, value in game.tags]
    return "\n".join(lines) + raw[end:]


def fix_spans(spans: list[Span], settings: FixSettings) -> list[Fixed]:
    """``fix_span`` over a chunk (the unit of work of ``jobs``)."""
    return [fix_span(span, settings) for span in spans]


def fixed_games(
    paths: Iterable[str], settings: FixSettings | None = None, *, jobs: int = 1
) -> Iterator[Fixed]:
    """Every game of ``paths`` (``-``: stdin; a folder: its PDN files) fixed, in input order,
    on ``jobs`` processes (0: every core); a path that cannot be read raises ``OSError``
    (the games before it were yielded)."""
    work = partial(fix_spans, settings=settings or FixSettings())
    for item in map_paths(paths, work, jobs=jobs):
        if isinstance(item, PathError):
            raise OSError(f"{item.file}: {item.message}")
        yield item


def _own_text(text: str) -> str:
    """A game's text with ``\\n`` line ends (comments included), no surrounding blank space,
    one final newline: the same bytes when read and written again."""
    return text.replace("\r\n", "\n").replace("\r", "\n").strip() + "\n"


@dataclass
class FixSummary:
    """What a ``fix`` run did: the games in and out, the changes by fix name, what was logged
    but not changed (``undecided``), and with ``in_place`` the files rewritten so far and the
    one being rewritten when the run stopped (``current``)."""

    games_in: int = 0
    games_out: int = 0
    rejected: int = 0
    unreadable: int = 0
    changed_games: int = 0
    by_fix: Counter[str] = field(default_factory=Counter)
    undecided: Counter[str] = field(default_factory=Counter)
    rewritten: list[str] = field(default_factory=list)
    current: str | None = None
    dry_run: bool = False

    def lines(self) -> Iterator[str]:
        """The closing lines of ``pdn fix``."""
        yield (
            f"pdn fix: {self.games_in} games in, {self.games_out} out"
            + (f" (+{self.rejected} to --rejects)" if self.rejected else "")
            + f"; {self.changed_games} changed, {sum(self.by_fix.values())} changes"
            + (f"; {self.unreadable} unreadable, kept verbatim" if self.unreadable else "")
            + ("; dry run: nothing written" if self.dry_run else "")
        )
        for name, count in self.by_fix.most_common():
            yield f"  {name:<14} {count}"
        for name, count in self.undecided.most_common():
            yield f"  {name:<14} {count} logged, not changed"

    def untouched(self) -> str:
        """What a run that stopped left as it was, in words."""
        if self.current is None:
            return "the input files are untouched"
        done = (
            f" ({len(self.rewritten)} file(s) before it were rewritten)" if self.rewritten else ""
        )
        return f"{self.current} is untouched{done}"


def fix(
    paths: Iterable[str],
    output: Target = "-",
    *,
    in_place: bool = False,
    backup: bool = True,
    log: Target | None = None,
    rejects: Target | None = None,
    only: Iterable[str] | None = None,
    normalize: Iterable[str] = (),
    cut_irregular: bool = False,
    cut_after_end: bool = False,
    dry_run: bool = False,
    variant: str | Variant | None = None,
    rules: str | None = None,
    notation: Notation | None = None,
    captures: Captures | None = None,
    names: Mapping[str, str] | None = None,
    jobs: int = 1,
    on_change: Callable[[Change], object] | None = None,
    summary: FixSummary | None = None,
) -> FixSummary:
    """Fix every game of ``paths`` into ``output`` (a path, ``-`` for stdout, a text stream)
    or, ``in_place``, into each file itself (``NAME.bak`` keeps the original unless not
    ``backup``; a file in which nothing changed is left as it is). ``log`` takes each change
    as a JSON line, ``rejects`` the unreadable games (else they go out verbatim); ``on_change``
    is called with each change as it comes. ``only`` (finding codes or fix names), the
    ``normalize`` names (``results``, ``dates``, ``tags``, ``all``: tidy valid spellings, off by
    default) and the two cuts choose the repairs, as ``pdn.arbiter.repair.RepairOptions``;
    ``dry_run`` writes no game (neither ``output`` nor ``in_place`` nor ``rejects``): only the
    log and the counts, the same as a real run's. ``variant`` is for games
    without a usable GameType, ``rules`` a draw-rules profile; ``notation`` and ``captures``
    rewrite every move; ``names`` (variant -> canonical spelling,
    ``pdn.arbiter.namerepair.read_names_file``) rewrites player names, each logged. Returns
    the counts, in ``summary`` when given (so that a caller can read what was rewritten
    when the run raises: ``OSError`` for a path that cannot be read or written, leaving the
    target untouched). ``InputOverwriteError`` (before anything is
    written) when ``output``, ``log`` or ``rejects`` is an input; ``RewriteRefusedError``
    when a file to rewrite ``in_place`` is read-only, hard-linked, changed since it was read,
    or its ``NAME.bak`` exists. When a file is written, stdout (``-``) closed by its reader
    does not stop the run: the files are written, then ``BrokenPipeError`` is raised.
    ValueError: ``in_place`` with stdin, an unknown ``normalize`` name.
    """
    paths = list(paths)
    if in_place and "-" in paths:
        raise ValueError("in_place cannot rewrite stdin")
    options = RepairOptions(
        variant=Variant.from_name(variant) if isinstance(variant, str) else variant,
        rules=rules,
        only=frozenset(only) if only is not None else None,
        cut_irregular=cut_irregular,
        cut_after_end=cut_after_end,
        normalize=normalizations(normalize),
    )
    if dry_run:
        in_place, rejects = False, None
    written = None if in_place or dry_run else output
    refuse_inputs({"-o": written, "--log": log, "--rejects": rejects}, paths)
    counts = FixSummary() if summary is None else summary
    counts.dry_run = dry_run
    run = _Run(FixSettings(options, notation, captures, names), jobs, on_change, counts)
    beside = _stdout_beside(in_place, written, log, rejects)
    with ExitStack() as stack:
        keep = (lambda: bool(counts.rewritten)) if in_place else None
        run.log = _record(stack, log, beside, keep)
        run.rejects = _record(stack, rejects, beside, keep)
        files = list(expand_paths(paths))
        if dry_run:
            run.write(files, _NOWHERE)
        elif in_place:
            for path in files:
                run.rewrite(path, backup=backup)
        else:
            with atomic_output(output) as stream:
                run.write(files, beside if beside is not None and output == "-" else stream)
    if beside is not None and beside.closed_by_reader:
        raise BrokenPipeError("stdout closed by its reader; every file was written")
    return run.summary


def _stdout_beside(
    in_place: bool, output: Target | None, log: Target | None, rejects: Target | None
) -> StdoutBeside | None:
    """The stdout of a run that also writes a file (so a reader closing stdout must not stop
    it), else None: with no file to write, a closed stdout ends the run at once. ``output``
    is ``None`` when no output is written (``in_place``, a dry run)."""
    targets = [log, rejects, output]
    files = in_place or any(isinstance(t, str) and t != "-" for t in targets)
    return StdoutBeside() if files and "-" in targets else None


def _record(
    stack: ExitStack,
    target: Target | None,
    beside: StdoutBeside | None,
    keep: Callable[[], bool] | None,
) -> _Sink | None:
    """Where the log or the rejects go: nothing, stdout (``beside`` when a file is written
    too), or a file committed at the end (also on failure when ``keep()`` says so)."""
    if target is None:
        return None
    if target == "-" and beside is not None:
        return beside
    return stack.enter_context(atomic_output(target, keep_on_error=keep))


class _Sink(Protocol):
    """What the run writes to: a text stream or ``StdoutBeside``."""

    def write(self, text: str, /) -> int: ...


class _Nowhere:
    """The output of a dry run: every game written here is dropped."""

    def write(self, text: str, /) -> int:
        return len(text)


_NOWHERE = _Nowhere()


class _UnchangedInputError(Exception):
    """Raised inside ``atomic_output`` to drop the temporary file of an unchanged input."""


class _Run:
    """One ``fix`` call: the settings, where the changes and rejects go, the counts."""

    def __init__(
        self,
        settings: FixSettings,
        jobs: int,
        on_change: Callable[[Change], object] | None,
        summary: FixSummary,
    ) -> None:
        self.settings = settings
        self.jobs = jobs
        self.on_change = on_change
        self.summary = summary
        self.log: _Sink | None = None
        self.rejects: _Sink | None = None
        self.rejects_written = 0

    def write(self, paths: list[str], output: _Sink) -> None:
        """Every fixed game of ``paths`` to ``output``, a blank line between games."""
        written = 0
        for fixed in fixed_games(paths, self.settings, jobs=self.jobs):
            written = self._emit(fixed, output, written)

    def rewrite(self, path: str, *, backup: bool) -> None:
        """Rewrite ``path`` through a temporary file beside it; ``path.bak`` keeps the
        original when ``backup`` (never replacing an earlier one); a file in which nothing
        changed is left as it is; a file ``check_rewritable`` refuses is left as it is and
        stops the run. Cost: two more ``stat`` calls, the backup's copy."""
        summary = self.summary
        changed_before = summary.changed_games
        summary.current = path
        seen = os.stat(path)
        made: str | None = None
        try:
            with atomic_output(path, unchanged_since=seen) as stream:
                self.write([path], stream)
                if summary.changed_games == changed_before:
                    raise _UnchangedInputError
                check_rewritable(path, seen)
                if backup:
                    made = backup_copy(path)
        except _UnchangedInputError:
            return
        except BaseException:
            if made is not None:  # the file is untouched: its backup is not needed
                os.unlink(made)
            raise
        summary.rewritten.append(path)

    def _emit(self, fixed: Fixed, output: _Sink, written: int) -> int:
        """Count and log one fixed game and write it; the games written to ``output``."""
        summary = self.summary
        summary.games_in += 1
        summary.unreadable += fixed.unreadable
        for change in fixed.changes:
            (summary.by_fix if change.changed else summary.undecided)[change.fix] += 1
            if self.log is not None:
                self.log.write(json.dumps(change.to_dict(), ensure_ascii=False) + "\n")
            if self.on_change is not None:
                self.on_change(change)
        summary.changed_games += any(change.changed for change in fixed.changes)
        if fixed.unreadable and self.rejects is not None:
            self.rejects.write(("\n" if self.rejects_written else "") + fixed.text)
            self.rejects_written += 1
            summary.rejected += 1
            return written
        output.write(("\n" if written else "") + fixed.text)
        summary.games_out += 1
        return written + 1
