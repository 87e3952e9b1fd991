"""A game database in one SQLite file: games, their tags, every main-line position, findings.

``Index(path)`` opens (or creates) an index and refuses anything else: a file that is not
SQLite, an SQLite file of another application, an index of another schema version (``pdn
index`` rebuilds an older one; ``search`` asks for that). ``Index.update(paths)`` indexes the
files that are new or changed (size and mtime, then a SHA-256 of the bytes when those differ)
and drops the games of files that changed or no longer exist. ``Index.search(criteria)``
answers ``pdn search`` and says which files of its answer changed since they were indexed.

One writer at a time: an update is one ``BEGIN IMMEDIATE`` transaction (a second writer waits
for it, up to ``wait`` seconds, then gives up; a killed update leaves the index as it was), a
search one read transaction. Every SQLite error comes out as ``UnusableIndexError`` worded for
the user: not a pdn index, read-only, damaged (rebuild it: ``rebuild=True``, which builds a new
index apart and copies it over the file in one transaction), still locked after the wait.

Tables (``PRAGMA user_version`` = ``SCHEMA_VERSION``, ``PRAGMA application_id`` =
``APPLICATION_ID``):

- ``files(id, path, size, mtime_ns, sha256, games)``: one row per indexed file (real path).
- ``games(id, file_id, ordinal, line, start_byte, end_byte, variant, white, black, white_key,
  black_key, event, date, round, result, outcome, winner, plies, tags)``: ``tags`` is the JSON
  list of [name, value]; ``*_key`` are ``pdn.database.names.name_key``; ``winner`` W/B/D or NULL.
  (file_id, ordinal) is unique: a game is never stored twice.
- ``positions(key, game_id, ply, next_move, winner)``: one row per distinct main-line
  position of a game, at the first ply it stands (a repeated position is not stored again):
  ``key`` its Zobrist key (``pdn.engine.zobrist``), ``next_move`` the move played from it (NULL at
  the end), ``winner`` the game's (W/B/D, NULL unknown). Clustered on (key, game_id, ply): a
  position query reads one B-tree range and counts the explorer summary from it alone.
- ``materials(signature, game_id, ply)``: each material a game passes through, first ply.
- ``findings(game_id, code, severity, ply, line, column, move, message)``.

Cost: building is one parse and replay per game (``pdn.database.gamefacts``, ``--jobs`` spreads it)
plus one B-tree insert per position; a query is one range read of ``positions`` per key.
Removing games of changed files scans ``positions`` once per update. A rebuild writes the index
twice (apart, then over the file).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from pdn.database.filters import Criteria, GameSummary, material_signature
from pdn.database.gamefacts import GameFacts, game_facts
from pdn.database.names import name_key, name_tokens
from pdn.pdnfile.scan import Span

SCHEMA_VERSION = 3  # 2: positions at each game's first ply only; 3: (file_id, ordinal) unique
#: ``PRAGMA application_id`` of a pdn index ("PDNx" in ASCII).
APPLICATION_ID = 0x50444E78
#: Games written to the database per batch of inserts.
BATCH_GAMES = 500
#: Seconds a run waits for another run's lock on the index before it gives up.
WAIT_SECONDS = 600.0

_SCHEMA = """
CREATE TABLE files(
    id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL, sha256 TEXT NOT NULL, games INTEGER NOT NULL DEFAULT 0);
CREATE TABLE games(
    id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL REFERENCES files(id), ordinal INTEGER,
    line INTEGER, start_byte INTEGER, end_byte INTEGER, variant TEXT, white TEXT, black TEXT,
    white_key TEXT, black_key TEXT, event TEXT, date TEXT, round TEXT, result TEXT,
    outcome TEXT, winner TEXT, plies INTEGER, tags TEXT);
CREATE UNIQUE INDEX games_file ON games(file_id, ordinal);
CREATE TABLE positions(
    key INTEGER NOT NULL, game_id INTEGER NOT NULL, ply INTEGER NOT NULL, next_move TEXT,
    winner TEXT, PRIMARY KEY(key, game_id, ply)) WITHOUT ROWID;
CREATE TABLE materials(
    signature INTEGER NOT NULL, game_id INTEGER NOT NULL, ply INTEGER NOT NULL,
    PRIMARY KEY(signature, game_id, ply)) WITHOUT ROWID;
CREATE TABLE findings(
    game_id INTEGER NOT NULL, code TEXT, severity TEXT, ply INTEGER, line INTEGER,
    "column" INTEGER, move TEXT, message TEXT);
CREATE INDEX findings_game ON findings(game_id)
"""
_CACHE = "PRAGMA cache_size = -65536"  # 64 MiB of page cache
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
            _create(self.connection)
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
                    _create(db)
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
        raise UnusableIndexError(
            f"{self.path}: still being updated by another run after {self.wait:g} s; "
            "try again when it ends"
        )

    @contextmanager
    def _errors(self) -> Iterator[None]:
        """SQLite's errors as ``UnusableIndexError``, one line saying what to do."""
        try:
            yield
        except sqlite3.Error as error:
            raise UnusableIndexError(_explained(self.path, error)) from None

    def update(
        self, paths: Sequence[str], *, variant: str | None = None, jobs: int = 1
    ) -> UpdateReport:
        """Bring the index in line with ``paths`` (files or folders): index new and changed
        files (a file's games replace its earlier ones), drop the games of indexed files that
        no longer exist. One transaction, as the only writer (waiting for another run first).
        ``variant`` for games without a usable GameType; ``jobs`` processes (0: every core)."""
        db = self.connection
        with self._errors():
            self._begin(db, write=True)
            try:
                report = _update(db, paths, variant, jobs)
                db.execute("ANALYZE")
                db.commit()
            except BaseException:
                db.rollback()
                raise
        return report

    def search(self, criteria: Criteria, *, limit: int = 0) -> Found:
        """What ``pdn search`` shows: the games passing ``criteria`` (the first ``limit``, all
        when 0), their number, for a position the explorer summary, and the files of the
        games listed that changed since they were indexed (one ``stat`` per file). One read
        transaction. A position with no other filter is answered by SQL alone (one range read
        of ``positions`` per key, then the rows of the listed games only); other filters read
        every candidate game's row."""
        db = self.connection
        with self._errors():
            self._begin(db, write=False)
            try:
                found = self._answer(criteria, limit)
                files = dict.fromkeys(hit.file for hit in found.hits)
                return dataclasses.replace(found, changed=_changed(db, files))
            finally:
                db.rollback()

    def _answer(self, criteria: Criteria, limit: int) -> Found:
        turn = (criteria.position or "").strip().strip('"')[:1].upper()
        turn = turn if turn in ("W", "B") else ""
        db = self.connection
        if criteria.position and criteria == Criteria(
            position=criteria.position, variant=criteria.variant
        ):
            keys = list(criteria.readable_variants.values())
            marks = ",".join("?" * len(keys))
            by_move = (
                "SELECT next_move, winner, count(*) FROM positions"
                f" WHERE key IN ({marks}) GROUP BY next_move, winner"
            )
            lines = db.execute(by_move, keys).fetchall()
            listed = "SELECT game_id, ply, next_move FROM positions WHERE key = ? ORDER BY game_id"
            at: dict[int, tuple[int, str | None]] = {}
            for key in keys:  # each key's rows come in game order: no sort, stop at the limit
                for game_id, ply, move in db.execute(
                    listed + (" LIMIT ?" if limit > 0 else ""),
                    (key, limit) if limit > 0 else (key,),
                ):
                    at[game_id] = (ply, move)
            wanted = set(sorted(at)[:limit] if limit > 0 else at)
            hits = [_hit(row, at[row[0]], None) for row in _game_rows(db, criteria, wanted)]
            return Found(hits, sum(count for *_line, count in lines), explore(lines, turn), turn)
        hits = list(self.find(criteria))
        summary = explore(((hit.next_move, hit.winner, 1) for hit in hits), turn)
        moves = summary if turn else []
        return Found(hits[:limit] if limit > 0 else hits, len(hits), moves, turn)

    def find(self, criteria: Criteria) -> Iterator[Hit]:
        """The games of the index that pass ``criteria``, in index order (file, then game);
        for ``--position`` the first ply where the position stood and the move played there."""
        with self._errors():
            yield from self._find(criteria)

    def _find(self, criteria: Criteria) -> Iterator[Hit]:
        db = self.connection
        at_position = _first_plies(
            db,
            "SELECT game_id, ply, next_move FROM positions WHERE key = ?",
            criteria.readable_variants.values() if criteria.position else None,
        )
        at_material = _first_plies(
            db,
            "SELECT game_id, min(ply), NULL FROM materials WHERE signature = ? GROUP BY game_id",
            [material_signature(m) for m in criteria.material.materials]
            if criteria.material
            else None,
        )
        wanted: set[int] | None = None
        for found in (at_position, at_material):
            if found is not None:
                wanted = set(found) if wanted is None else wanted & set(found)
        for row in _game_rows(db, criteria, wanted):
            if _row_passes(db, criteria, row):
                position = (at_position or {}).get(row[0], (None, None))
                yield _hit(row, position, (at_material or {}).get(row[0], (None, None))[0])

    def summary(self) -> dict[str, int]:
        """Counts of the index: files, games, positions, findings."""
        with self._errors():
            return {
                table: self.connection.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
                for table in ("files", "games", "positions", "findings")
            }


def _new_connection(path: str) -> sqlite3.Connection:
    """A connection in autocommit mode (transactions are ``Index``'s), locks not waited for
    until ``Index._begin`` says so."""
    db = sqlite3.connect(path, timeout=0, isolation_level=None)
    db.execute("PRAGMA foreign_keys = OFF")
    return db


def _create(db: sqlite3.Connection) -> None:
    """The tables of an empty index (in the caller's transaction, if any)."""
    for statement in _SCHEMA.split(";"):
        db.execute(statement)
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


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


# -- building -----------------------------------------------------------------------------
@dataclass
class UpdateReport:
    """What an update did: files (re)indexed, unchanged, removed; games and positions added;
    paths that could not be read."""

    indexed: list[str] = field(default_factory=list)
    unchanged: int = 0
    removed: list[str] = field(default_factory=list)
    games: int = 0
    positions: int = 0
    errors: list[str] = field(default_factory=list)


def _update(
    db: sqlite3.Connection, paths: Sequence[str], variant: str | None, jobs: int
) -> UpdateReport:
    """``Index.update``'s work, in the caller's transaction."""
    from pdn.base.paths import PathError, expand_paths
    from pdn.batch.parallel import map_paths

    report = UpdateReport()
    known = {
        row[0]: row[1:] for row in db.execute("SELECT path, id, size, mtime_ns, sha256 FROM files")
    }
    stale: list[int] = []
    todo: list[tuple[str, os.stat_result, str]] = []
    if "-" in paths:
        report.errors.append("-: an index is built from files, not from stdin")
    for path in dict.fromkeys(os.path.realpath(p) for p in expand_paths(paths) if p != "-"):
        try:
            stat = os.stat(path)
            if not os.path.isfile(path):
                raise IsADirectoryError(f"{path} is not a file")
            old = known.get(path)
            if old and old[3] and (old[1], old[2]) == (stat.st_size, stat.st_mtime_ns):
                report.unchanged += 1
                continue
            digest = file_digest(path)
        except OSError as error:
            report.errors.append(f"{path}: {error.strerror or error}")
            continue
        if old and old[3] == digest:
            db.execute("UPDATE files SET mtime_ns = ? WHERE id = ?", (stat.st_mtime_ns, old[0]))
            report.unchanged += 1
            continue
        if old:
            stale.append(old[0])
        todo.append((path, stat, digest))
    for path, (file_id, *_rest) in known.items():
        if not os.path.exists(path):
            stale.append(file_id)
            report.removed.append(path)
    _remove_files(db, stale)

    file_ids: dict[str, int] = {}
    for path, stat, _digest in todo:
        cursor = db.execute(
            # the digest is written last: a file that failed halfway is read again
            "INSERT INTO files(path, size, mtime_ns, sha256) VALUES (?, ?, ?, '')",
            (path, stat.st_size, stat.st_mtime_ns),
        )
        file_ids[path] = cursor.lastrowid or 0
    counts: dict[str, int] = dict.fromkeys(file_ids, 0)
    batch: list[GameFacts] = []
    work = partial(facts_of_spans, variant=variant)
    failed = set()
    for item in map_paths([path for path, _stat, _digest in todo], work, jobs=jobs):
        if isinstance(item, PathError):
            report.errors.append(f"{item.file}: {item.message}")
            failed.add(item.file)
            continue
        batch.append(item)
        counts[item.file or ""] = counts.get(item.file or "", 0) + 1
        if len(batch) >= BATCH_GAMES:
            report.positions += _insert(db, batch, file_ids)
            batch = []
    report.positions += _insert(db, batch, file_ids)
    db.executemany(
        "UPDATE files SET games = ?, sha256 = ? WHERE id = ?",
        [
            (counts[path], digest, file_ids[path])
            for path, _stat, digest in todo
            if path not in failed
        ],
    )
    report.indexed = list(file_ids)
    report.games = sum(counts.values())
    return report


def file_digest(path: str) -> str:
    """SHA-256 of a file's bytes, in hex. O(file), 1 MiB at a time."""
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        while block := stream.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


def facts_of_spans(spans: list[Span], variant: str | None) -> list[GameFacts]:
    """``game_facts`` of each span (the unit of work ``update`` spreads over processes)."""
    return [game_facts(span, variant) for span in spans]


def _remove_files(db: sqlite3.Connection, file_ids: list[int]) -> None:
    """Delete these files and everything of their games (one pass over each table)."""
    if not file_ids:
        return
    db.execute("CREATE TEMP TABLE IF NOT EXISTS gone(id INTEGER PRIMARY KEY)")
    db.execute("DELETE FROM gone")
    marks = ",".join("?" * len(file_ids))
    db.execute(f"INSERT INTO gone SELECT id FROM games WHERE file_id IN ({marks})", file_ids)
    for table in ("positions", "materials", "findings"):
        db.execute(f"DELETE FROM {table} WHERE game_id IN (SELECT id FROM gone)")
    db.execute("DELETE FROM games WHERE id IN (SELECT id FROM gone)")
    db.execute(f"DELETE FROM files WHERE id IN ({marks})", file_ids)


def _insert(db: sqlite3.Connection, batch: list[GameFacts], file_ids: dict[str, int]) -> int:
    """Write a batch of games (in the caller's transaction); returns the positions written."""
    positions = 0
    for facts in batch:
        game_id = _insert_game(db, facts, file_ids[facts.file or ""])
        winner = facts.winner
        moves = facts.moves
        first_plies = {key: ply for ply, key in reversed(list(enumerate(facts.keys)))}
        rows = [
            (key, game_id, ply, moves[ply] if ply < len(moves) else None, winner)
            for key, ply in first_plies.items()
        ]
        db.executemany("INSERT OR IGNORE INTO positions VALUES (?, ?, ?, ?, ?)", rows)
        positions += len(rows)
        db.executemany(
            "INSERT OR IGNORE INTO materials VALUES (?, ?, ?)",
            [(material_signature(m), game_id, ply) for ply, m in facts.material],
        )
        db.executemany(
            "INSERT INTO findings VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (game_id, f.code, f.severity, f.ply, f.line, f.column, f.move, f.message)
                for f in facts.findings
            ],
        )
    return positions


def _insert_game(db: sqlite3.Connection, facts: GameFacts, file_id: int) -> int:
    white, black = facts.tag("White"), facts.tag("Black")
    cursor = db.execute(
        "INSERT INTO games(file_id, ordinal, line, start_byte, end_byte, variant, white, black,"
        " white_key, black_key, event, date, round, result, outcome, winner, plies, tags)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            file_id,
            facts.game,
            facts.line,
            facts.start_byte,
            facts.end_byte,
            facts.variant,
            white,
            black,
            name_key(white),
            name_key(black),
            facts.tag("Event"),
            facts.tag("Date"),
            facts.tag("Round"),
            facts.result,
            facts.outcome,
            facts.winner,
            facts.plies,
            json.dumps(facts.tags, ensure_ascii=False),
        ),
    )
    return cursor.lastrowid or 0


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

    def to_dict(self) -> dict[str, object]:
        return dict(self.__dict__)


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
    " g.result, g.winner, g.plies, g.outcome, g.tags"
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


def _hit(
    row: tuple[Any, ...], position: tuple[int | None, str | None], material_ply: int | None
) -> Hit:
    """A ``Hit`` from a games row (``_GAME_COLUMNS``) and where the position / material stood."""
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
        ply=position[0],
        next_move=position[1],
        material_ply=material_ply,
    )


def _first_plies(
    db: sqlite3.Connection, query: str, values: Iterable[int] | None
) -> dict[int, tuple[int, str | None]] | None:
    """game id -> (first ply, next move) for every value (None: no such criterion)."""
    if values is None:
        return None
    found: dict[int, tuple[int, str | None]] = {}
    for value in values:
        for game_id, ply, move in db.execute(query, (value,)):
            if game_id not in found or ply < found[game_id][0]:
                found[game_id] = (ply, move)
    return found


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
        tags=tuple((name, value) for name, value in json.loads(row[13])),
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
