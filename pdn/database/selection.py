"""The games that pass every filter of a ``Criteria``, with their bytes as written.

``select(paths, criteria)`` yields one ``Selected`` per matching game, in input order; header
filters (players, Event, Date) are decided on the scanner's tags before any parsing, the others
parse and replay the game once (``pdn.database.gamefacts``). ``write_selected`` writes them
byte for byte, one blank line apart, or as JSON Lines; a game of a UTF-16 file (not
ASCII-compatible: its pieces could not be joined) is re-encoded to UTF-8, so that the output
reads back as the games that went in. Cost: one scan, one parse and replay
per game whose tags pass when a filter needs the moves (``jobs`` spreads it over processes),
and one read of each matching game's bytes.
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, replace
from functools import partial
from typing import BinaryIO

from pdn.base.paths import PathError
from pdn.database.filters import Criteria, Match
from pdn.database.gamefacts import game_facts
from pdn.database.picking import Picking
from pdn.pdnfile.scan import wide_codec
from pdn.pdnfile.span import Span


@dataclass(frozen=True)
class Selected:
    """A game that passed: where it is, where the position and material filters matched, and
    (once ``select`` has read them) its bytes as written."""

    file: str | None
    game: int
    line: int
    start_byte: int | None
    end_byte: int | None
    match: Match
    data: bytes = b""
    #: The verdict: False for a game that did not pass (``sift`` yields those too).
    passed: bool = True
    tags: tuple[tuple[str, str], ...] = ()

    def to_json(self) -> str:
        """One JSON object: file, game, line, ply (of the position, else of the pattern),
        material_ply; ``pattern_ply`` when both a position and a pattern were asked for,
        ``move_plies`` (the plies ``--move`` matched) when a manoeuvre was."""
        match = self.match
        fields: dict[str, object] = {
            "file": self.file,
            "game": self.game,
            "line": self.line,
            "ply": match.pattern_ply if match.position_ply is None else match.position_ply,
            "material_ply": match.material_ply,
        }
        if match.position_ply is not None and match.pattern_ply is not None:
            fields["pattern_ply"] = match.pattern_ply
        if match.move_plies is not None:
            fields["move_plies"] = list(match.move_plies)
        return json.dumps(fields, ensure_ascii=False)


def select_spans(spans: list[Span], criteria: Criteria) -> list[Selected]:
    """The verdict on each span (the picklable unit of work): tags first, then one replay if
    needed; a game that fails has ``passed`` False."""
    verdicts: list[Selected] = []
    for span in spans:
        match: Match | None = None
        if criteria.tags_match(span.tags):
            if criteria.needs_replay:
                match = criteria.match(game_facts(span, keep_line=criteria.needs_line))
            else:
                match = Match()
        at = span.source
        verdicts.append(
            Selected(
                at.file,
                at.game,
                at.line,
                at.start_byte,
                at.end_byte,
                match or Match(),
                passed=match is not None,
                tags=span.tags,
            )
        )
    return verdicts


def select(
    paths: Iterable[str],
    criteria: Criteria,
    *,
    picking: Picking | None = None,
    jobs: int = 1,
    on_error: Callable[[PathError], object] | None = None,
) -> Iterator[Selected]:
    """The games of ``paths`` (files, folders, ``-`` for stdin) that pass ``criteria`` (and
    ``picking``: game numbers, ``--not``), in input order, each with its bytes. A path that
    cannot be read goes to ``on_error`` (its ``file`` as given, ``<stdin>`` for ``-``) and is
    skipped. Raises ``OSError`` when a matching game's file cannot be read again."""
    games = sift(paths, criteria, picking=picking, jobs=jobs, on_error=on_error, rest=False)
    return (game for game in games if game.passed)


def sift(
    paths: Iterable[str],
    criteria: Criteria,
    *,
    picking: Picking | None = None,
    jobs: int = 1,
    on_error: Callable[[PathError], object] | None = None,
    rest: bool = True,
) -> Iterator[Selected]:
    """``select``, yielding every game: ``passed`` is the verdict; the bytes of a game that
    did not pass are read only with ``rest``. Without ``rest``, stops after the last game
    number ``picking`` can choose."""
    from pdn.batch.parallel import map_paths

    picking = picking or Picking()
    last = None if rest else picking.last
    with ExitStack() as stack:
        scanned, names = _spool_stdin(list(paths), stack)
        copier = _Copier(stack)
        number = 0
        for item in map_paths(scanned, partial(select_spans, criteria=criteria), jobs=jobs):
            if isinstance(item, PathError):
                if on_error is not None:
                    on_error(replace(item, file=names.get(item.file, item.file)))
                continue
            number += 1
            passed = picking.chooses(number, item.passed)
            file = names.get(item.file or "", item.file)
            data = copier.game_bytes(item) if passed or rest else b""
            yield replace(item, file=file, data=data, passed=passed)
            if last is not None and number >= last:
                return


def write_selected(games: Iterable[Selected], stream: BinaryIO, *, form: str = "pdn") -> int:
    """Write ``games`` to ``stream``: ``form`` ``pdn`` their bytes, each followed by a blank
    line in the file's own line ending; ``json`` one ``Selected.to_json`` line each. Returns
    the number written."""
    written = 0
    for game in games:
        if form == "json":
            stream.write(game.to_json().encode("utf-8") + b"\n")
        else:
            stream.write(game.data + (b"\r\n\r\n" if b"\r\n" in game.data else b"\n\n"))
        written += 1
    return written


def _spool_stdin(paths: list[str], stack: ExitStack) -> tuple[list[str], dict[str, str]]:
    """``-`` copied to a temporary file (its bytes are read twice); the paths to scan and the
    name to show for the temporary file."""
    if "-" not in paths:
        return paths, {}
    spool = stack.enter_context(tempfile.NamedTemporaryFile(prefix="pdn-stdin-", suffix=".pdn"))  # noqa: SIM115
    shutil.copyfileobj(sys.stdin.buffer, spool)
    spool.flush()
    return [spool.name if path == "-" else path for path in paths], {spool.name: "<stdin>"}


class _Copier:
    """Reads a game's original bytes from its file (one open file at a time); those of a
    UTF-16 file as UTF-8."""

    def __init__(self, stack: ExitStack) -> None:
        self.stack = stack
        self.name: str | None = None
        self.file: BinaryIO | None = None
        self.codec: str | None = None  # the UTF-16 codec of the open file

    def game_bytes(self, item: Selected) -> bytes:
        """The game's bytes, as in its file (UTF-8 when the file is UTF-16)."""
        if item.file != self.name:
            if self.file is not None:
                self.file.close()
            self.name = item.file
            self.file = open(item.file or "", "rb")  # noqa: SIM115 - closed on the next file
            self.stack.callback(self.file.close)
            self.codec = wide_codec(self.file.read(2))
        assert self.file is not None and item.start_byte is not None and item.end_byte is not None
        self.file.seek(item.start_byte)
        data = self.file.read(item.end_byte - item.start_byte)
        if self.codec is None:
            return data
        return data.decode(self.codec, errors="surrogatepass").encode(
            "utf-8", errors="surrogatepass"
        )
