"""A game database in one SQLite file: games, their tags, every main-line position, findings.

``Index(path)`` opens (or creates) an index and refuses anything else: a file that is not
SQLite, an SQLite file of another application, an index of another schema version (``pdn
index`` rebuilds an older one; ``search`` asks for that). ``Index.update(paths)`` indexes the
files that are new or changed (size and mtime, then a SHA-256 of the bytes when those differ)
and drops the games of files that changed or no longer exist. ``Index.search(criteria)``
answers ``pdn search`` and says which files of its answer changed since they were indexed.

One writer at a time: an update holds the index for its whole run (a second writer waits for
it, up to ``wait`` seconds, then gives up) and commits checkpoints (a killed update keeps them
and the next one continues: ``pdn.database.indexbuild``), a search is one read transaction.
Every SQLite error comes out as ``UnusableIndexError`` worded for the user: not a pdn index,
read-only, damaged (rebuild it: ``rebuild=True``, which builds a new index apart and copies it
over the file in one transaction), still locked after the wait.

The tables are ``pdn.database.indexschema``'s (docs/index-schema.md): files, games, positions
(Zobrist key -> game, first ply, next move, result: the explorer's rows of the first plies),
position_keys (the later positions' keys, grouped postings verified on the packed boards),
game_boards (per game the four square bitboards of every ply, packed, and their unions:
patterns, manoeuvres, later positions), materials (grouped postings), findings.

Cost: building is one parse and replay per game (``--jobs`` spreads it) plus one B-tree insert
per row. A position query is one range read of ``positions`` per key and a few seeks of
``position_keys`` (each candidate verified on its packed boards); a pattern one SQL scan of
``game_boards`` (per variant: the unions in SQL, the plies of the games left by a registered
function); a manoeuvre reads the plies of the games that pass the other filters and tests them
in Python. Removing games of changed files scans each table once per update. A
rebuild writes the index twice (apart, then over the file).
"""

from __future__ import annotations

import dataclasses
import os
import sqlite3
import time
import zlib
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from itertools import islice, pairwise
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pdn.database.filters import Criteria, GameSummary, material_signature
from pdn.database.indexbuild import (
    UpdateReport,
    facts_of_spans,
    file_digest,
)
from pdn.database.indexbuild import update as _update
from pdn.database.indexschema import (
    APPLICATION_ID,
    EXPLORER_PLIES,
    SCHEMA_VERSION,
    SQL_SQUARES,
    TAG_COLUMNS,
    board_bytes,
    key_candidates,
    material_plies,
    read_tags,
    signed,
    unpack_boards,
)
from pdn.database.indexschema import create as create_tables
from pdn.database.names import name_tokens
from pdn.engine.movegen import Move
from pdn.engine.position import Piece, Position
from pdn.engine.variants import Variant

if TYPE_CHECKING:
    from pdn.database.manoeuvres import ManoeuvreQuery
    from pdn.database.patterns import Condition, Pattern
    from pdn.engine.geometry import Colour

__all__ = [
    "APPLICATION_ID",
    "SCHEMA_VERSION",
    "Index",
    "OldIndexError",
    "UnusableIndexError",
    "UpdateReport",
    "facts_of_spans",
    "file_digest",
]

#: Seconds a run waits for another run's lock on the index before it gives up.
WAIT_SECONDS = 600.0

_CACHE = "PRAGMA cache_size = -65536"  # 64 MiB of page cache
_BUILD_CACHE = "PRAGMA cache_size = -131072"  # 128 MiB while an update writes
#: SQLite's primary result codes for a lock held elsewhere (the backup's step status).
_BUSY_CODES = (5, 6)  # SQLITE_BUSY, SQLITE_LOCKED


class UnusableIndexError(Exception):
    """A database that cannot be used as a pdn index; ``str(error)`` says why and what to do."""


class OldIndexError(UnusableIndexError):
    """An index of an older schema version (``pdn index`` rebuilds it)."""


class Index:
    """A pdn index in one SQLite file, as ``sqlite3`` opens a database: ``Index(path)``, then
    ``update``, ``search``, ``find``, ``summary``; ``close()``, or a ``with`` block that
    commits and closes. ``connection`` is the ``sqlite3.Connection`` (autocommit: each method
    runs its own transaction), for queries of one's own.

    ``create``: a missing or empty file becomes a new index. ``rebuild``: the file (missing,
    empty, or a pdn index, even a damaged one) gets a new index, built apart and copied over it
    by ``commit()`` (``close()`` alone leaves it as it was); ``rebuild_old``: so does an index
    of an older schema. ``wait``: seconds to wait for another run's lock (``WAIT_SECONDS``),
    after calling ``on_wait(message)`` once. Raises ``UnusableIndexError`` (``OldIndexError``)
    for anything else, here and from every method."""

    def __init__(
        self,
        path: str,
        *,
        create: bool = False,
        rebuild_old: bool = False,
        rebuild: bool = False,
        wait: float = WAIT_SECONDS,
        on_wait: Callable[[str], None] | None = None,
    ) -> None:
        self.path = path
        self.wait = wait
        self.on_wait = on_wait
        self._rebuilding = False
        if not rebuild:
            try:
                self.connection = self._open(create)
                return
            except OldIndexError:
                if not rebuild_old:
                    raise
        if not _may_rebuild(path):
            raise UnusableIndexError(f"{path}: not a pdn index; pdn rebuilds only its own files")
        with self._errors():
            self.connection = _new_connection("")  # a private temporary file, gone on close
            self.connection.execute(_CACHE)
            create_tables(self.connection)
        self._rebuilding = True

    def __enter__(self) -> Index:
        return self

    def __exit__(self, kind: type[BaseException] | None, *_rest: object) -> None:
        try:
            if kind is None:
                self.commit()
        finally:
            self.close()

    def commit(self) -> None:
        """Make a rebuild final: its index is copied over the file in one transaction (after
        waiting for another run, as ``update`` does). Otherwise nothing to do: every method
        commits its own work."""
        if not self._rebuilding:
            return
        with self._errors():
            target = _new_connection(self.path)
            try:
                self._begin(target, write=True)  # wait for another run, with the message
                target.rollback()
                self.connection.backup(target, progress=_give_up_when_busy)
            finally:
                target.close()
        self._rebuilding = False

    def close(self) -> None:
        """Close the connection (an uncommitted rebuild is dropped)."""
        self.connection.close()

    def _open(self, create: bool) -> sqlite3.Connection:
        """The connection to the index at ``path``, checked (and created when ``create``)."""
        path = self.path
        if not create and not os.path.exists(path):
            raise UnusableIndexError(
                f"{path}: no such index (build one with: pdn index {path} PATH...)"
            )
        with self._errors():
            db = _new_connection(path)
            try:
                self._begin(db, write=create)
                db.execute(_CACHE)
                application = db.execute("PRAGMA application_id").fetchone()[0]
                version = db.execute("PRAGMA user_version").fetchone()[0]
                tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
                if application == 0 and version == 0 and tables == 0:
                    if not create:
                        raise UnusableIndexError(
                            f"{path}: empty database (build it with: pdn index {path} PATH...)"
                        )
                    create_tables(db)
                elif application != APPLICATION_ID:
                    raise UnusableIndexError(f"{path}: an SQLite database, but not a pdn index")
                elif version != SCHEMA_VERSION:
                    age = "an older" if version < SCHEMA_VERSION else "a newer"
                    error_type = OldIndexError if version < SCHEMA_VERSION else UnusableIndexError
                    raise error_type(
                        f"{path}: index built by {age} pdn (schema {version}, this pdn reads "
                        f"{SCHEMA_VERSION}); rebuild it with: pdn index {path} PATH..."
                    )
                db.commit()
            except BaseException:
                db.close()
                raise
        return db

    def _begin(self, db: sqlite3.Connection, *, write: bool) -> None:
        """Start a transaction: the one writer's (``BEGIN IMMEDIATE``) or a reader's snapshot.
        When another run holds the lock: ``on_wait`` once, then wait up to ``wait`` seconds;
        later locks (a commit's) wait as long. Nothing before it may read the file: a read
        would not wait."""
        patience = int(self.wait * 1000)
        for waited in (False, True):
            db.execute(f"PRAGMA busy_timeout = {patience if waited else 0}")
            try:
                db.execute("BEGIN IMMEDIATE" if write else "BEGIN")
                if not write:
                    db.execute("SELECT count(*) FROM sqlite_master")  # a reader's lock, now
            except sqlite3.OperationalError as error:
                db.rollback()
                if not _busy(error):
                    raise
                if not waited and self.on_wait is not None:
                    self.on_wait(f"{self.path} is being updated by another run; waiting...")
                continue
            db.execute(f"PRAGMA busy_timeout = {patience}")
            return
        raise UnusableIndexError(self._still_locked())

    @contextmanager
    def _errors(self) -> Iterator[None]:
        """SQLite's errors as ``UnusableIndexError``, one line saying what to do."""
        try:
            yield
        except sqlite3.Error as error:
            raise UnusableIndexError(_explained(self.path, error)) from None

    def update(
        self,
        paths: Sequence[str],
        *,
        variant: str | None = None,
        jobs: int = 1,
        on_game: Callable[[str | None, int | None], None] | None = None,
    ) -> UpdateReport:
        """Bring the index in line with ``paths`` (files or folders): index new and changed
        files (a file's games replace its earlier ones), drop the games of indexed files that
        no longer exist. The only writer for the whole run (another waits, as for the lock of
        a transaction); the games are written in checkpoints of about ten seconds of work
        (``pdn.database.indexbuild``): a killed run keeps them and the next run continues,
        in the middle of a file if need be. ``variant`` for games without a usable GameType;
        ``jobs`` processes (0: every core); ``on_game(file, end_byte)`` after each game read
        (for a progress bar)."""
        db = self.connection
        with self._errors(), self._one_writer():
            db.execute(_BUILD_CACHE)
            try:
                begin = partial(self._begin, db, write=True)
                return _update(db, begin, paths, variant, jobs, on_game)
            finally:
                db.execute(_CACHE)

    @contextmanager
    def _one_writer(self) -> Iterator[None]:
        """Hold an exclusive ``flock`` on the index file for an update (SQLite's own locks,
        taken per checkpoint, are unaffected): a second run waits for the whole first one,
        as ``_begin`` waits. Nothing to hold for a rebuild (its index is private until
        ``commit``) or where there is no ``fcntl``."""
        try:
            import fcntl
        except ImportError:  # pragma: no cover - not on POSIX
            yield
            return
        if self._rebuilding:
            yield
            return
        with open(self.path, "rb") as handle:
            deadline = None
            while True:
                try:
                    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if deadline is None:
                        deadline = time.monotonic() + self.wait
                        if self.on_wait is not None:
                            self.on_wait(f"{self.path} is being updated by another run; waiting...")
                    elif time.monotonic() > deadline:
                        raise UnusableIndexError(self._still_locked()) from None
                    time.sleep(0.05)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def _still_locked(self) -> str:
        return (
            f"{self.path}: still being updated by another run after {self.wait:g} s; "
            "try again when it ends"
        )

    def search(
        self, criteria: Criteria, *, limit: int = 0, deep: bool = False, jobs: int = 1
    ) -> Found:
        """What ``pdn search`` shows: the games passing ``criteria`` (the first ``limit``, all
        when 0), their number, for a position the explorer summary, and the files of the
        games listed that changed since they were indexed (one ``stat`` per file). One read
        transaction. A position with no other filter is answered by SQL alone (one range read
        of ``positions`` per key, then the rows of the listed games only); so is a pattern
        or a material without a filter on tags, result, length or findings (its candidates
        counted, the listed games' rows read); the others read every candidate game's row.
        ``deep`` (a position asked): also the move orders that
        reached it (``Found.orders``; reads the plies before it of every game found) and, per
        next move, the statistics of the position it leads to (``Found.next_positions``; one
        range read per move). ``jobs``: processes a pattern is tested on (``pattern_plies``)."""
        if criteria.opening is not None:
            raise ValueError("--moves is answered by pdn select on the files, not by the index")
        db = self.connection
        with self._errors():
            self._begin(db, write=False)
            try:
                targets = _targets(criteria) if criteria.position else {}
                later = _later_occurrences(db, targets)  # verified once, for both uses
                found = self._answer(criteria, limit, targets, later, jobs)
                if deep and criteria.position:
                    reached = _occurrences(db, targets, later)
                    found = dataclasses.replace(
                        found,
                        orders=_move_orders(db, reached),
                        next_positions=_next_positions(db, reached, found.moves),
                    )
                files = dict.fromkeys(hit.file for hit in found.hits)
                return dataclasses.replace(found, changed=_changed(db, files))
            finally:
                db.rollback()

    def _answer(
        self,
        criteria: Criteria,
        limit: int,
        targets: dict[str, _Target],
        later: dict[int, _Reached],
        jobs: int,
    ) -> Found:
        """``search`` without the depth; ``targets`` and ``later`` are the position's
        (``_targets``, ``_later_occurrences``; empty without a position)."""
        turn = (criteria.position or "").strip().strip('"')[:1].upper()
        turn = turn if turn in ("W", "B") else ""
        db = self.connection
        if criteria.position and criteria == Criteria(
            position=criteria.position, variant=criteria.variant
        ):
            keys = [target.key for target in targets.values()]
            lines = _move_lines(db, keys, later)
            listed = "SELECT game_id, ply, next_move FROM positions WHERE key = ? ORDER BY game_id"
            at: dict[int, tuple[int, str | None]] = {}
            for key in keys:  # each key's rows come in game order: no sort, stop at the limit
                for game_id, ply, move in db.execute(
                    listed + (" LIMIT ?" if limit > 0 else ""),
                    (key, limit) if limit > 0 else (key,),
                ):
                    at[game_id] = (ply, move)
            at.update((game_id, (ply, move)) for game_id, (ply, move, *_rest) in later.items())
            wanted = set(sorted(at)[:limit] if limit > 0 else at)
            hits = [_hit(row, at[row[0]]) for row in _game_rows(db, criteria, wanted)]
            return Found(hits, sum(count for *_line, count in lines), explore(lines, turn), turn)
        if not turn and not criteria.filters_summaries and not criteria.moves:
            # every candidate passes: count them, read the rows of the games listed only
            candidates = self._candidates(criteria, jobs)
            ids = candidates.wanted
            if ids is None:
                total = db.execute("SELECT count(*) FROM games").fetchone()[0]
            else:
                total = len(ids)
                ids = set(sorted(ids)[:limit]) if limit > 0 else ids
            rows = _game_rows(db, criteria, ids)
            shown = islice(rows, limit) if limit > 0 else rows
            return Found([candidates.hit(row) for row in shown], total, [], turn)
        hits = list(self.find(criteria, jobs=jobs))
        summary = explore(((hit.next_move, hit.winner, 1) for hit in hits), turn)
        moves = summary if turn else []
        return Found(hits[:limit] if limit > 0 else hits, len(hits), moves, turn)

    def find(self, criteria: Criteria, *, jobs: int = 1) -> Iterator[Hit]:
        """The games of the index that pass ``criteria``, in index order (file, then game);
        for ``--position`` the first ply where the position stood and the move played there,
        for ``--pattern`` the first ply where it held, for ``--move`` the plies matched.
        ``jobs``: processes a pattern is tested on (``pattern_plies``)."""
        with self._errors():
            yield from self._find(criteria, jobs)

    def _find(self, criteria: Criteria, jobs: int) -> Iterator[Hit]:
        db = self.connection
        candidates = self._candidates(criteria, jobs)
        for row in _game_rows(db, criteria, candidates.wanted):
            if not _row_passes(db, criteria, row):
                continue
            move_plies = None
            if criteria.moves:
                move_plies = manoeuvre_plies(db, row[0], row[4], criteria.moves)
                if move_plies is None:
                    continue
            yield candidates.hit(row, move_plies)

    def _candidates(self, criteria: Criteria, jobs: int) -> _Candidates:
        """The games that can pass the position, material, pattern and manoeuvre filters, and
        where the first three stood in each."""
        db = self.connection
        at_position = None
        if criteria.position:
            at_position = {
                game_id: (ply, move)
                for game_id, (ply, move, *_rest) in _occurrences(db, _targets(criteria)).items()
            }
        at_material: dict[int, tuple[int, str | None]] | None = None
        if criteria.material:
            at_material = {}
            for material in criteria.material.materials:
                for game_id, ply in material_plies(db, material_signature(material)):
                    if game_id not in at_material or ply < at_material[game_id][0]:
                        at_material[game_id] = (ply, None)
        at_pattern = None
        if criteria.pattern is not None:
            at_pattern = pattern_plies(db, criteria.pattern, jobs=jobs)
        may_move = _manoeuvre_candidates(db, criteria.moves) if criteria.moves else None
        wanted: set[int] | None = None
        for found in (at_position, at_material, at_pattern, may_move):
            if found is not None:
                wanted = set(found) if wanted is None else wanted & set(found)
        return _Candidates(wanted, at_position or {}, at_material or {}, at_pattern)

    def summary(self) -> dict[str, int]:
        """Counts of the index: files, games, distinct positions of each game, findings."""
        with self._errors():
            db = self.connection
            counts = {
                table: db.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
                for table in ("files", "games", "findings")
            }
            positions = db.execute("SELECT coalesce(sum(positions), 0) FROM game_boards")
            return {**counts, "positions": positions.fetchone()[0]}


def _new_connection(path: str) -> sqlite3.Connection:
    """A connection in autocommit mode (transactions are ``Index``'s), locks not waited for
    until ``Index._begin`` says so."""
    db = sqlite3.connect(path, timeout=0, isolation_level=None)
    db.execute("PRAGMA foreign_keys = OFF")
    return db


def _may_rebuild(path: str) -> bool:
    """Whether ``path`` is missing, empty, or by its header a pdn index (however damaged the
    rest): what a rebuild may replace. Reads 72 bytes."""
    try:
        with open(path, "rb") as stream:
            header = stream.read(72)
    except FileNotFoundError:
        return True
    except OSError:
        return True  # the copy will say what is wrong
    ours = header[:16] == b"SQLite format 3\x00" and header[68:72] == APPLICATION_ID.to_bytes(
        4, "big"
    )
    return not header or ours


def _busy(error: sqlite3.Error) -> bool:
    """Whether SQLite refused for a lock held by another connection."""
    return str(error).startswith(("database is locked", "database table is locked"))


def _give_up_when_busy(status: int, _remaining: int, _total: int) -> None:
    """``backup`` progress: a step refused by a lock (after the busy timeout) ends the copy."""
    if status in _BUSY_CODES:
        raise sqlite3.OperationalError("database is locked")


def _explained(path: str, error: sqlite3.Error) -> str:
    """What an SQLite error on the index at ``path`` means for the user, and what to do."""
    message = str(error)
    if _busy(error):
        return f"{path}: still being updated by another run; try again when it ends"
    if "readonly" in message:
        return f"{path}: read-only; make it writable, or index into another file"
    if "malformed" in message or (message == "file is not a database" and _may_rebuild(path)):
        return f"{path}: damaged: rebuild with pdn index --rebuild {path} PATH..."
    if message == "file is not a database":
        return f"{path}: not a pdn index (SQLite says: {message})"
    return f"{path}: {message} (SQLite)"


# -- querying -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Hit:
    """One game a search found: where it is, its headers, and where the position stood."""

    file: str
    game: int
    line: int
    variant: str
    white: str | None
    black: str | None
    event: str | None
    date: str | None
    result: str | None
    winner: str | None
    ply: int | None
    next_move: str | None
    material_ply: int | None
    pattern_ply: int | None = None  #: with a position too (else ``ply`` is the pattern's)
    move_plies: tuple[int, ...] | None = None  #: the plies ``--move`` matched

    def to_dict(self) -> dict[str, object]:
        """JSON fields as ``pdn select`` names them (the last two only when asked for)."""
        fields: dict[str, object] = dict(self.__dict__)
        for name in ("pattern_ply", "move_plies"):
            if fields[name] is None:
                del fields[name]
        if self.move_plies is not None:
            fields["move_plies"] = list(self.move_plies)
        return fields


@dataclass(frozen=True)
class MoveStats:
    """The explorer line of one next move: games, wins of each side, draws, and the score
    of the side to move (wins + half the draws, over games with a known result)."""

    move: str | None
    games: int
    white: int
    draws: int
    black: int
    score: float | None


_GAME_COLUMNS = (
    "g.id, f.path, g.ordinal, g.line, g.variant, g.white, g.black, g.event, g.date,"
    " g.result, g.winner, g.plies, g.outcome, g.tags, g.round"
)


@dataclass(frozen=True)
class Found:
    """A search's answer: the first ``limit`` games, how many passed, for a position the
    explorer summary of the moves played from it, and the side to move there (W, B or "")."""

    hits: list[Hit]
    total: int
    moves: list[MoveStats]
    turn: str = ""
    changed: list[Changed] = field(default_factory=list)
    orders: list[int] | None = None  #: (deep) games per move order that reached it, most first
    next_positions: dict[str | None, PositionStats] | None = None  #: (deep) per next move

    @property
    def transposed(self) -> int:
        """(deep) Games that reached the position by another move order than the most
        played one."""
        return sum(self.orders[1:]) if self.orders else 0


@dataclass(frozen=True)
class PositionStats:
    """A position's own statistics over the whole index (every move order): games, White
    wins, draws, Black wins."""

    games: int
    white: int
    draws: int
    black: int


@dataclass(frozen=True)
class Changed:
    """An indexed file that is not as it was indexed: ``reason`` says how (gone, another size,
    another mtime, unreadable); the index's lines and offsets into it may be wrong."""

    file: str
    reason: str


def _changed(db: sqlite3.Connection, files: Iterable[str]) -> list[Changed]:
    """The ``files`` (indexed paths) whose size or mtime differ from the index's, in order;
    one ``stat`` per file."""
    changed = []
    for path in files:
        size, mtime_ns = db.execute(
            "SELECT size, mtime_ns FROM files WHERE path = ?", (path,)
        ).fetchone()
        try:
            stat = os.stat(path)
        except FileNotFoundError:
            changed.append(Changed(path, "gone since it was indexed"))
            continue
        except OSError as error:
            changed.append(Changed(path, f"cannot be read: {error.strerror or error}"))
            continue
        if stat.st_size != size:
            reason = f"changed since it was indexed ({stat.st_size} bytes, {size} then)"
            changed.append(Changed(path, reason))
        elif stat.st_mtime_ns != mtime_ns:
            changed.append(Changed(path, "changed since it was indexed (same size, new mtime)"))
    return changed


@dataclass(frozen=True)
class _Candidates:
    """``Index._candidates``: the game ids that can pass (``None``: every game), and per game
    (position ply, next move), (material ply, None), pattern ply."""

    wanted: set[int] | None
    at_position: dict[int, tuple[int, str | None]]
    at_material: dict[int, tuple[int, str | None]]
    at_pattern: dict[int, int] | None

    def hit(self, row: tuple[Any, ...], move_plies: tuple[int, ...] | None = None) -> Hit:
        """The ``Hit`` of a games row among them."""
        game_id = row[0]
        return _hit(
            row,
            self.at_position.get(game_id, (None, None)),
            material_ply=self.at_material.get(game_id, (None, None))[0],
            pattern_ply=None if self.at_pattern is None else self.at_pattern[game_id],
            move_plies=move_plies,
        )


def _hit(
    row: tuple[Any, ...],
    position: tuple[int | None, str | None],
    *,
    material_ply: int | None = None,
    pattern_ply: int | None = None,
    move_plies: tuple[int, ...] | None = None,
) -> Hit:
    """A ``Hit`` from a games row (``_GAME_COLUMNS``) and where the position, material,
    pattern and manoeuvre stood (``ply``: the position's, else the pattern's)."""
    return Hit(
        file=row[1],
        game=row[2],
        line=row[3],
        variant=row[4],
        white=row[5],
        black=row[6],
        event=row[7],
        date=row[8],
        result=row[9],
        winner=row[10],
        ply=pattern_ply if position[0] is None else position[0],
        next_move=position[1],
        material_ply=material_ply,
        pattern_ply=None if position[0] is None else pattern_ply,
        move_plies=move_plies,
    )


def _game_rows(
    db: sqlite3.Connection, criteria: Criteria, wanted: set[int] | None
) -> Iterator[tuple[Any, ...]]:
    """Rows of candidate games: the given ids, else narrowed in SQL by variant and by one
    word of each player name asked for (``Criteria.passes`` decides on the rows)."""
    base = f"SELECT {_GAME_COLUMNS} FROM games g JOIN files f ON f.id = g.file_id"
    if wanted is not None:
        ids = sorted(wanted)
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            marks = ",".join("?" * len(chunk))
            yield from db.execute(f"{base} WHERE g.id IN ({marks}) ORDER BY g.id", chunk)
        return
    where, values = ["1"], []
    if criteria.variant:
        where.append("g.variant = ?")
        values.append(criteria.variant)
    for columns, name in (
        *((("white_key", "black_key"), player) for player in criteria.players),
        (("white_key",), criteria.white),
        (("black_key",), criteria.black),
    ):
        word = max(name_tokens(name or ""), key=len, default="")
        if len(word) > 1:
            where.append("(" + " OR ".join(f"g.{column} LIKE ?" for column in columns) + ")")
            values.extend([f"%{word}%"] * len(columns))
    yield from db.execute(f"{base} WHERE {' AND '.join(where)} ORDER BY g.id", values)


def _row_passes(db: sqlite3.Connection, criteria: Criteria, row: tuple[Any, ...]) -> bool:
    """The filters other than position and material, on one games row (findings read only
    when a findings filter asks)."""
    findings: list[tuple[str, str]] = []
    if criteria.with_findings or criteria.clean:
        query = "SELECT code, severity FROM findings WHERE game_id = ?"
        findings = list(db.execute(query, (row[0],)))
    game = GameSummary(
        tags=read_tags(row[13], dict(zip(TAG_COLUMNS, (*row[5:10], row[14]), strict=True)))
        if criteria.reads_tags
        else (),
        variant=row[4],
        winner=row[10],
        outcome=row[12],
        plies=row[11],
        codes=frozenset(code for code, _ in findings),
        severities=frozenset(severity for _, severity in findings),
    )
    return criteria.passes(game)


def explore(lines: Iterable[tuple[str | None, str | None, int]], turn: str) -> list[MoveStats]:
    """The explorer summary from (next move, winner W/B/D or None, games) triples: per move
    (most played first) games, results, and the score of ``turn``, the side to move there
    (``""``: no score)."""
    table: dict[str | None, list[int]] = {}
    column = {"W": 1, "D": 2, "B": 3}
    for move, winner, games in lines:
        counts = table.setdefault(move, [0, 0, 0, 0])
        counts[0] += games
        if winner in column:
            counts[column[winner]] += games
    stats = []
    for move, (games, white, draws, black) in table.items():
        known = white + draws + black
        wins = white if turn == "W" else black
        score = (wins + draws / 2) / known if known and turn else None
        stats.append(MoveStats(move, games, white, draws, black, score))
    stats.sort(key=lambda line: (-line.games, line.move is None, line.move or ""))
    return stats


def _move_lines(
    db: sqlite3.Connection,
    keys: Sequence[int],
    later: dict[int, _Reached],
) -> list[tuple[str | None, str | None, int]]:
    """(next move, winner, games) of the positions with these keys: one range read of
    ``positions`` per key, and the games that reached them later (``_later_occurrences``)."""
    marks = ",".join("?" * len(keys))
    by_move = (
        "SELECT next_move, winner, count(*) FROM positions"
        f" WHERE key IN ({marks}) GROUP BY next_move, winner"
    )
    lines = db.execute(by_move, list(keys)).fetchall()
    counted = Counter((move, winner) for _ply, move, winner, _key in later.values())
    return lines + [(move, winner, games) for (move, winner), games in counted.items()]


#: Where a game reached a position: first ply, next move, the game's winner, the key (of
#: the position in the game's variant).
_Reached = tuple[int, str | None, str | None, int]


@dataclass(frozen=True)
class _Target:
    """A position asked, read in one variant: its Zobrist key, the side to move and its four
    square bitboards (what the packed boards of a game that reached it hold)."""

    key: int
    turn: str
    boards: tuple[int, ...]


def _targets(criteria: Criteria) -> dict[str, _Target]:
    """Variant name -> the ``--position`` FEN in that variant (``Criteria.readable_variants``)."""
    from pdn.database.patterns import square_boards

    targets = {}
    for name, key in criteria.readable_variants.items():
        position = Position.from_fen(criteria.position or "", Variant.from_name(name))
        targets[name] = _Target(key, position.turn, tuple(square_boards(position)))
    return targets


def _occurrences(
    db: sqlite3.Connection,
    targets: dict[str, _Target],
    later: dict[int, _Reached] | None = None,
) -> dict[int, _Reached]:
    """game id -> (first ply, next move, winner, key) of every game that reached a target:
    the rows of ``positions`` (one range read per key), then ``later`` (the targets'
    ``_later_occurrences``, found here when None)."""
    keys = [target.key for target in targets.values()]
    marks = ",".join("?" * len(keys))
    found: dict[int, _Reached] = {}
    rows = db.execute(
        f"SELECT game_id, ply, next_move, winner, key FROM positions WHERE key IN ({marks})",
        keys,
    )
    for game_id, ply, move, winner, key in rows:
        if game_id not in found or ply < found[game_id][0]:
            found[game_id] = (ply, move, winner, key)
    found.update(_later_occurrences(db, targets) if later is None else later)
    return found


def _later_occurrences(db: sqlite3.Connection, targets: dict[str, _Target]) -> dict[int, _Reached]:
    """game id -> (first ply, next move, winner, key) of the games that first reached a target at
    ``EXPLORER_PLIES`` or later: the candidates of ``position_keys``, each verified on its
    packed boards (the first ply with the target's boards and side to move; the next move
    told from the boards one ply on). One key lookup per target, then about 20 microseconds
    per candidate."""
    candidates: set[int] = set()
    for target in targets.values():
        candidates |= key_candidates(db, target.key)
    tests: dict[str, Callable[[str, bytes], int | None]] = {}
    found: dict[int, _Reached] = {}
    ids = sorted(candidates)
    query = (
        "SELECT b.game_id, g.variant, g.winner, b.turn, b.boards FROM game_boards b"
        " JOIN games g ON g.id = b.game_id WHERE b.game_id IN ({}) ORDER BY b.game_id"
    )
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        for game_id, name, winner, turn, blob in db.execute(
            query.format(",".join("?" * len(chunk))), chunk
        ):
            asked = targets.get(name)
            if asked is None:
                continue
            variant = Variant.from_name(name)
            if name not in tests:
                tests[name] = _exact_test(variant, asked)
            ply = tests[name](turn, blob)
            if ply is None or ply < EXPLORER_PLIES:
                continue  # a fragment shared by chance, or a game of the explorer's rows
            found[game_id] = (ply, _next_move(variant, turn, blob, ply), winner, asked.key)
    return found


def _exact_test(variant: Variant, target: _Target) -> Callable[[str, bytes], int | None]:
    """The first ply of a ``game_boards`` row with exactly ``target``'s boards and side to
    move (``_first_ply_test`` of a condition requiring its pieces and forbidding the rest)."""
    from pdn.database.patterns import Boards, Condition

    squares = len(variant.board.squares)
    full = (1 << squares) - 1
    condition = Condition(
        turn=target.turn,  # type: ignore[arg-type]
        required=Boards(*target.boards),
        required_white=0,
        required_black=0,
        forbidden=Boards(*(full & ~bits for bits in target.boards)),
    )
    return _first_ply_test([condition], board_bytes(squares))


def _next_move(variant: Variant, turn: str, blob: bytes, ply: int) -> str | None:
    """The move played at ``ply`` of a ``game_boards`` row, in the variant's short notation
    (as ``Move.notation``), told from the boards before and after it; ``None`` at the last
    ply. O(plies) (one decompression)."""
    width = board_bytes(len(variant.board.squares))
    raw = zlib.decompress(blob)
    record = 4 * width
    if (ply + 2) * record > len(raw):
        return None
    rows = list(unpack_boards(raw[ply * record : (ply + 2) * record], width, packed=False))
    mover = turn if ply % 2 == 0 else ("B" if turn == "W" else "W")
    other = "B" if mover == "W" else "W"
    (ply_move,) = board_plies(variant, [(mover, rows[0]), (other, rows[1])])
    move = Move((ply_move.from_square, ply_move.to_square), tuple(ply_move.captures))
    return move.notation(
        variant.board, variant.default_notation, separator=variant.capture_separator
    )


# -- patterns and manoeuvres ----------------------------------------------------------------
_BOARD_COLUMNS = ("white_men", "white_kings", "black_men", "black_kings")


def pattern_plies(db: sqlite3.Connection, pattern: Pattern, *, jobs: int = 1) -> dict[int, int]:
    """game id -> the first ply where ``pattern`` holds: per variant of the index, one SQL
    statement over ``game_boards``, its unions as a prefilter in SQL (boards of at most 64
    squares), then each remaining game's packed plies tested by ``_first_ply_test``
    (registered as the SQLite function ``pdn_first_ply``). O(games) in SQLite plus some
    microseconds per game that passes the prefilter. With ``jobs`` != 1, a big index in a
    file is read in ranges of game ids on ``jobs`` processes (``_scan_on_workers``)."""
    scans: list[_BoardScan] = []
    names = [name for (name,) in db.execute("SELECT DISTINCT variant FROM games")]
    for name in names:
        try:
            variant = Variant.from_name(name)
        except ValueError:
            continue
        conditions = pattern.conditions(variant)
        if not conditions:
            continue
        squares = len(variant.board.squares)
        seen: tuple[str, list[int | str]] = ("", [])
        if squares <= SQL_SQUARES:
            seen = _seen_where(
                [(c.required, c.required_white, c.required_black) for c in conditions]
            )
        scans.append(
            _BoardScan(
                name if len(names) > 1 else None,
                seen[0],
                tuple(seen[1]),
                conditions,
                board_bytes(squares),
            )
        )
    first, last = db.execute("SELECT min(game_id), max(game_id) FROM game_boards").fetchone()
    path = db.execute("PRAGMA database_list").fetchone()[2]  # "": in memory or temporary
    if (
        jobs != 1
        and path
        and scans
        and first is not None
        and last - first >= _PARALLEL_GAMES
        and db.execute("PRAGMA journal_mode").fetchone()[0] != "wal"
    ):
        return _scan_on_workers(path, scans, first, last, jobs)
    found: dict[int, int] = {}
    for scan in scans:
        found.update(scan.run(db))
    return found


#: Fewer games than this in the index are scanned in this process whatever ``jobs`` says (a
#: worker takes longer to start than they take to test).
_PARALLEL_GAMES = 20_000
#: Ranges of game ids per worker of a parallel scan (their games pass the prefilter unevenly).
_RANGES_PER_WORKER = 4


@dataclass(frozen=True)
class _BoardScan:
    """One statement of ``pattern_plies``: the ``game_boards`` rows of a ``variant`` (``None``:
    every row) that pass ``seen`` (SQL on the unions, with ``values``), each tested with
    ``conditions`` on boards of ``width`` bytes. Picklable: it goes to worker processes."""

    variant: str | None
    seen: str
    values: tuple[int | str, ...]
    conditions: tuple[Condition, ...]
    width: int

    def run(
        self, db: sqlite3.Connection, ids: tuple[int, int] | None = None
    ) -> list[tuple[int, int]]:
        """(game id, first ply) of the rows that match, of the game ids in the range ``ids``
        (first, last; ``None``: every game)."""
        where: list[str] = []
        values: list[int | str] = []
        if self.variant is not None:
            within = " AND id BETWEEN ? AND ?" if ids else ""
            where.append(f"game_id IN (SELECT id FROM games WHERE variant = ?{within})")
            values += [self.variant, *(ids or ())]
        if ids is not None:
            where.append("game_id BETWEEN ? AND ?")
            values += ids
        if self.seen:
            where.append(f"({self.seen})")
            values += self.values
        test = _first_ply_test(self.conditions, self.width)
        db.create_function("pdn_first_ply", 2, test, deterministic=True)
        query = "SELECT game_id, pdn_first_ply(turn, boards) FROM game_boards"
        rows = db.execute(query + (f" WHERE {' AND '.join(where)}" if where else ""), values)
        return [(game_id, ply) for game_id, ply in rows if ply is not None]


def _scan_on_workers(
    path: str, scans: Sequence[_BoardScan], first: int, last: int, jobs: int
) -> dict[int, int]:
    """``pattern_plies``' scans on ``jobs`` processes (0: every core), each a range of game
    ids of the index at ``path``. The workers open the file read-only without locking
    (SQLite's ``immutable``): the caller's read transaction holds its lock meanwhile, so no
    writer can change the file until they are done (not so in WAL mode, which pdn never
    sets: ``pattern_plies`` scans such an index itself)."""
    from pdn.batch.parallel import map_on_workers, worker_count

    workers = worker_count(jobs)
    count = workers * _RANGES_PER_WORKER
    step = (last - first) // count + 1
    tasks = [
        (path, scan, (start, min(start + step - 1, last)))
        for scan in scans
        for start in range(first, last + 1, step)
    ]
    return {
        game_id: ply
        for part in map_on_workers(_scan_part, tasks, jobs=workers)
        for game_id, ply in part
    }


def _scan_part(task: tuple[str, _BoardScan, tuple[int, int]]) -> list[tuple[int, int]]:
    """A worker's share of ``_scan_on_workers``: one scan over one range of game ids."""
    path, scan, ids = task
    db = sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro&immutable=1", uri=True)
    try:
        return scan.run(db, ids)
    finally:
        db.close()


def _seen_where(
    needs: Sequence[tuple[Sequence[int], int, int]],
) -> tuple[str, list[int | str]]:
    """The test of ``game_boards`` rows for the games that could have any of these needs
    (four square masks of pieces, a mask of White's pieces, one of Black's) at some ply:
    each needed square was held by that piece at some ply. ``""`` when some need is empty
    (every game could)."""
    alternatives: list[str] = []
    values: list[int | str] = []
    for masks, white, black in needs:
        terms = []
        for column, mask in zip(_BOARD_COLUMNS, masks, strict=True):
            if mask:
                terms.append(f"({column} & ?) = ?")
                values += [signed(mask)] * 2
        for columns, mask in (
            ("white_men | white_kings", white),
            ("black_men | black_kings", black),
        ):
            if mask:
                terms.append(f"(({columns}) & ?) = ?")
                values += [signed(mask)] * 2
        if not terms:
            return "", []
        alternatives.append("(" + " AND ".join(terms) + ")")
    return " OR ".join(alternatives), values


def _first_ply_test(
    conditions: Sequence[Condition], width: int
) -> Callable[[str, bytes], int | None]:
    """The first ply of a ``game_boards`` row (turn at ply 0, packed boards of ``width``
    bytes) where any of ``conditions`` holds (``Condition.matches_boards``), or ``None``.
    Every ply at once: the packed records read as one integer, each condition a few
    whole-integer operations, the first record that misses nothing found with the zero-word
    trick (``(x - ones) & ~x & highs``). Masks per game length are cached: O(plies / 64)
    machine words per condition."""
    bits = 8 * width
    record = 4 * bits
    spread: dict[
        int, tuple[int, int, int, int, list[tuple[Colour | None, int, int, int, int]]]
    ] = {}

    def masks(
        plies: int,
    ) -> tuple[int, int, int, int, list[tuple[Colour | None, int, int, int, int]]]:
        ones = ((1 << record * plies) - 1) // ((1 << record) - 1)  # bit 0 of every record
        pairs = (1 << 2 * record) - 1
        even = ((1 << 2 * record * ((plies + 1) // 2)) - 1) // pairs
        odd = (((1 << 2 * record * (plies // 2)) - 1) // pairs) << record
        each = [
            (
                c.turn,
                _record(c.required, bits) * ones,
                _record(c.forbidden, bits) * ones,
                c.required_white * ones,
                c.required_black * ones,
            )
            for c in conditions
        ]
        return ones, ones << (record - 1), even, odd, each

    def first_ply(turn: str, blob: bytes) -> int | None:
        raw = zlib.decompress(blob)
        plies = 8 * len(raw) // record
        if plies not in spread:
            spread[plies] = masks(plies)
        ones, highs, even, odd, each = spread[plies]
        boards = int.from_bytes(raw, "little")
        best = None
        for side, need, banned, white, black in each:
            miss = 0  # nonzero in the record of each ply that fails the condition
            if need:
                miss |= (boards & need) ^ need
            if banned:
                miss |= boards & banned
            if white:
                miss |= ((boards | boards >> bits) & white) ^ white
            if black:
                miss |= ((boards >> 2 * bits | boards >> 3 * bits) & black) ^ black
            if side is not None:
                miss |= odd if side == turn else even
            hits = (miss - ones) & ~miss & highs
            if hits:
                ply = ((hits & -hits).bit_length() - 1) // record
                best = ply if best is None else min(best, ply)
        return best

    return first_ply


def _record(boards: Sequence[int], bits: int) -> int:
    """Four bitboards as one packed record's integer (``indexschema.pack_boards``)."""
    return boards[0] | boards[1] << bits | boards[2] << 2 * bits | boards[3] << 3 * bits


def _line(variant: Variant, turn: str, blob: bytes) -> list[tuple[str, tuple[int, int, int, int]]]:
    """(turn, four bitboards) of each ply of a ``game_boards`` row (sides alternate)."""
    other = "B" if turn == "W" else "W"
    width = board_bytes(len(variant.board.squares))
    return [
        (other if ply % 2 else turn, boards)
        for ply, boards in enumerate(unpack_boards(blob, width))
    ]


def manoeuvre_plies(
    db: sqlite3.Connection, game_id: int, variant: str, queries: Sequence[ManoeuvreQuery]
) -> tuple[int, ...] | None:
    """The plies every query matched in the game (``None``: one did not), its moves told
    from its consecutive packed boards as ``manoeuvres.describe`` tells them from the
    replay. One row read, O(plies) in Python."""
    rules = Variant.from_name(variant)
    row = db.execute(
        "SELECT turn, boards FROM game_boards WHERE game_id = ?", (game_id,)
    ).fetchone()
    plies = board_plies(rules, _line(rules, *row) if row else [])
    found = [query.find(plies) for query in queries]
    if any(one is None for one in found):
        return None
    return tuple(sorted({ply for one in found for ply in one or ()}))


def _manoeuvre_candidates(
    db: sqlite3.Connection, queries: Sequence[ManoeuvreQuery]
) -> set[int] | None:
    """The games that could match every query, from ``game_boards``: each move of a known
    colour from or to a square needs that colour's piece (of the kind asked) on the square at
    some ply; games of wide boards are always candidates. ``None``: no square to test."""
    masks, white, black = [0, 0, 0, 0], 0, 0
    for query in queries:
        for step in query.steps:
            atom = step.atom
            if atom.colour is None or atom.theme in ("shot", "coup"):
                continue
            base = 0 if atom.colour == "W" else 2
            if atom.from_square:
                bit = 1 << (atom.from_square - 1)
                if atom.king is None:
                    white, black = (white | bit, black) if base == 0 else (white, black | bit)
                else:
                    masks[base + atom.king] |= bit
            if atom.to_square:
                bit = 1 << (atom.to_square - 1)
                white, black = (white | bit, black) if base == 0 else (white, black | bit)
    if (white | black) >> SQL_SQUARES or any(mask >> SQL_SQUARES for mask in masks):
        return None  # only a wide board has such a square
    seen, values = _seen_where([(masks, white, black)])
    if not seen:
        return None
    seen = "SELECT game_id FROM game_boards WHERE " + seen
    wide = [name for (name,) in db.execute("SELECT DISTINCT variant FROM games") if _is_wide(name)]
    marks = ",".join("?" * len(wide))
    also = db.execute(f"SELECT id FROM games WHERE variant IN ({marks})", wide) if wide else []
    return {game_id for (game_id,) in db.execute(seen, values)} | {row[0] for row in also}


def _is_wide(name: str) -> bool:
    """Does the variant's board have more squares than SQL integers hold?"""
    try:
        return len(Variant.from_name(name).board.squares) > SQL_SQUARES
    except ValueError:
        return False


def _looped_king(variant: Variant, turn: str, before: tuple[int, int, int, int], taken: int) -> int:
    """The square bit of the king that captured ``taken`` and came back to its square, from
    the legal moves of the position ``before`` (0 when none does)."""
    from pdn.engine.movegen import legal_moves

    position = Position.from_pieces(variant, _pieces(before), turn)  # type: ignore[arg-type]
    for move in legal_moves(position):
        if move.from_square == move.to_square and set(move.captures) == set(_squares(taken)):
            return 1 << (move.from_square - 1)
    return 0


def _pieces(boards: Sequence[int]) -> dict[int, Piece]:
    """{square: piece} of four square bitboards (white men, white kings, black men, kings)."""
    return {
        square: Piece.of("W" if kind < 2 else "B", kind % 2 == 1)
        for kind, bits in enumerate(boards)
        for square in _squares(bits)
    }


def _squares(bits: int) -> tuple[int, ...]:
    """The squares of the set bits, ascending."""
    squares = []
    while bits:
        low = bits & -bits
        squares.append(low.bit_length())
        bits ^= low
    return tuple(squares)


def board_plies(
    variant: Variant, rows: Sequence[tuple[str, tuple[int, int, int, int]]]
) -> list[Any]:
    """``manoeuvres.Ply`` of each move between consecutive (turn, (white men, white kings,
    black men, black kings)) rows: the mover's square left and square reached, the opponent's
    pieces gone (``captures`` ascending), a man become king. A king capturing back to its own
    square leaves its side's boards as they were: its square comes from the legal moves of the
    position before (rare). O(plies)."""
    from pdn.database.manoeuvres import Ply

    plies = []
    for number, ((turn, before), (_turn, after)) in enumerate(pairwise(rows), start=1):
        mine, theirs = (0, 2) if turn == "W" else (2, 0)
        had = before[mine] | before[mine + 1]
        has = after[mine] | after[mine + 1]
        left, reached = had & ~has, has & ~had
        remaining = after[theirs] | after[theirs + 1]
        taken = (before[theirs] | before[theirs + 1]) & ~remaining
        if not left and taken:
            left = reached = _looped_king(variant, turn, before, taken)
        king = bool(left & before[mine + 1])
        plies.append(
            Ply(
                number,
                turn,  # type: ignore[arg-type]
                king,
                left.bit_length(),
                reached.bit_length(),
                _squares(taken),
                (before[theirs] & ~after[theirs]).bit_count(),
                (before[theirs + 1] & ~after[theirs + 1]).bit_count(),
                not king and bool(reached & after[mine + 1]),
                has.bit_count() - remaining.bit_count(),
            )
        )
    return plies


# -- the explorer's depth ---------------------------------------------------------------------
def _move_orders(db: sqlite3.Connection, reached: dict[int, _Reached]) -> list[int]:
    """Games per distinct move order (the positions before, from the game's start) that
    reached the position (``reached``: ``_occurrences``), most played first. Reads the plies
    before it of each game."""
    db.execute("CREATE TEMP TABLE IF NOT EXISTS reached(game_id INTEGER PRIMARY KEY, ply INTEGER)")
    db.execute("DELETE FROM reached")
    db.executemany(
        "INSERT INTO reached VALUES (?, ?)",
        [(game_id, ply) for game_id, (ply, *_rest) in reached.items()],
    )
    paths: Counter[tuple[Any, ...]] = Counter()
    rows = db.execute(
        "SELECT r.ply, g.variant, b.turn, b.boards FROM reached r"
        " JOIN game_boards b ON b.game_id = r.game_id JOIN games g ON g.id = r.game_id"
        " WHERE r.ply > 0 ORDER BY r.game_id"
    )
    record: dict[str, int] = {}  # bytes of a packed ply, per variant
    for ply, name, turn, blob in rows:  # the packed records of the plies before it
        if name not in record:
            record[name] = 4 * board_bytes(len(Variant.from_name(name).board.squares))
        paths[ply, turn, zlib.decompress(blob)[: ply * record[name]]] += 1
    starts = db.execute("SELECT count(*) FROM reached WHERE ply = 0").fetchone()[0]
    counts = sorted((*paths.values(), *([starts] if starts else [])), reverse=True)
    db.execute("DELETE FROM reached")
    return counts


def _next_positions(
    db: sqlite3.Connection,
    reached: dict[int, _Reached],
    moves: Sequence[MoveStats],
) -> dict[str | None, PositionStats]:
    """For each next move, the statistics of the position it leads to (every game that
    reached it, by any move order): the game of ``reached`` that played the move first in
    (key, game id) order gives the position (its boards one ply on), then that position's
    games (``_occurrences``)."""
    from pdn.database.patterns import square_boards
    from pdn.engine.zobrist import position_key

    first: dict[str | None, tuple[int, int, int]] = {}  # move -> the first (key, game, ply)
    for game_id, (ply, move, _won, key) in reached.items():
        first[move] = min(first.get(move, (key, game_id, ply)), (key, game_id, ply))
    stats: dict[str | None, PositionStats] = {}
    for line in moves:
        if line.move is None or line.move not in first:
            continue
        _key, game_id, ply = first[line.move]
        row = db.execute(
            "SELECT g.variant, b.turn, b.boards FROM games g JOIN game_boards b"
            " ON b.game_id = g.id WHERE g.id = ?",
            (game_id,),
        ).fetchone()
        if row is None:
            continue
        name, turn, blob = row
        variant = Variant.from_name(name)
        plies = _line(variant, turn, blob)
        if ply + 1 >= len(plies):
            continue
        turn, after = plies[ply + 1]
        position = Position.from_pieces(variant, _pieces(after), turn)  # type: ignore[arg-type]
        target = _Target(position_key(position), turn, tuple(square_boards(position)))
        counts = {"W": 0, "D": 0, "B": 0, None: 0}
        for _ply, _move, winner, _key in _occurrences(db, {name: target}).values():
            counts[winner if winner in counts else None] += 1
        total = sum(counts.values())
        stats[line.move] = PositionStats(total, counts["W"], counts["D"], counts["B"])
    return stats
