"""A game database in one SQLite file: games, their tags, every main-line position, findings.

``Index(path)`` opens (or creates) an index and refuses anything else: a file that is not
SQLite, an SQLite file of another application, an index of another schema version (``pdn
index`` rebuilds an older one; ``search`` asks for that). ``Index.update(paths)`` indexes the
files that are new or changed (size and mtime, then a SHA-256 of the bytes when those differ)
and drops the games of files that changed or no longer exist. ``Index.search(criteria)``
answers ``pdn search``.

Tables (``PRAGMA user_version`` = ``SCHEMA_VERSION``, ``PRAGMA application_id`` =
``APPLICATION_ID``):

- ``files(id, path, size, mtime_ns, sha256, games)``: one row per indexed file (real path).
- ``games(id, file_id, ordinal, line, start_byte, end_byte, variant, white, black, white_key,
  black_key, event, date, round, result, outcome, winner, plies, tags)``: ``tags`` is the JSON
  list of [name, value]; ``*_key`` are ``pdn.database.names.name_key``; ``winner`` W/B/D or NULL.
- ``positions(key, game_id, ply, next_move, winner)``: one row per distinct main-line
  position of a game, at the first ply it stands (a repeated position is not stored again):
  ``key`` its Zobrist key (``pdn.engine.zobrist``), ``next_move`` the move played from it (NULL at
  the end), ``winner`` the game's (W/B/D, NULL unknown). Clustered on (key, game_id, ply): a
  position query reads one B-tree range and counts the explorer summary from it alone.
- ``materials(signature, game_id, ply)``: each material a game passes through, first ply.
- ``findings(game_id, code, severity, ply, line, column, move, message)``.

Cost: building is one parse and replay per game (``pdn.database.gamefacts``, ``--jobs`` spreads it)
plus one B-tree insert per position; a query is one range read of ``positions`` per key.
Removing games of changed files scans ``positions`` once per update.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from pdn.database.filters import Criteria, GameSummary, material_signature
from pdn.database.gamefacts import GameFacts, game_facts
from pdn.database.names import name_key, name_tokens
from pdn.pdnfile.scan import Span

SCHEMA_VERSION = 2  # 2: positions hold each game's first ply of a position only
#: ``PRAGMA application_id`` of a pdn index ("PDNx" in ASCII).
APPLICATION_ID = 0x50444E78
#: Games written to the database per transaction.
BATCH_GAMES = 500

_SCHEMA = """
CREATE TABLE files(
    id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL, sha256 TEXT NOT NULL, games INTEGER NOT NULL DEFAULT 0);
CREATE TABLE games(
    id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL REFERENCES files(id), ordinal INTEGER,
    line INTEGER, start_byte INTEGER, end_byte INTEGER, variant TEXT, white TEXT, black TEXT,
    white_key TEXT, black_key TEXT, event TEXT, date TEXT, round TEXT, result TEXT,
    outcome TEXT, winner TEXT, plies INTEGER, tags TEXT);
CREATE INDEX games_file ON games(file_id);
CREATE TABLE positions(
    key INTEGER NOT NULL, game_id INTEGER NOT NULL, ply INTEGER NOT NULL, next_move TEXT,
    winner TEXT, PRIMARY KEY(key, game_id, ply)) WITHOUT ROWID;
CREATE TABLE materials(
    signature INTEGER NOT NULL, game_id INTEGER NOT NULL, ply INTEGER NOT NULL,
    PRIMARY KEY(signature, game_id, ply)) WITHOUT ROWID;
CREATE TABLE findings(
    game_id INTEGER NOT NULL, code TEXT, severity TEXT, ply INTEGER, line INTEGER,
    "column" INTEGER, move TEXT, message TEXT);
CREATE INDEX findings_game ON findings(game_id);
"""
_TABLES = ("findings", "materials", "positions", "games", "files")


class UnusableIndexError(Exception):
    """A database that cannot be used as a pdn index; ``str(error)`` says why and what to do."""


class OldIndexError(UnusableIndexError):
    """An index of an older schema version (``pdn index`` rebuilds it)."""


class Index:
    """A pdn index in one SQLite file, as ``sqlite3`` opens a database: ``Index(path)``, then
    ``update``, ``search``, ``find``, ``summary``; ``close()``, or a ``with`` block that
    commits (or rolls back on an exception) and closes. ``connection`` is the
    ``sqlite3.Connection``, for queries of one's own.

    ``create``: a missing or empty file becomes a new index. ``rebuild_old``: an index of an
    older schema is emptied and recreated (its files are indexed again by ``update``). Raises
    ``UnusableIndexError`` (``OldIndexError``) for anything else."""

    def __init__(self, path: str, *, create: bool = False, rebuild_old: bool = False) -> None:
        self.path = path
        self.connection = _connect(path, create=create, rebuild_old=rebuild_old)

    def __enter__(self) -> Index:
        return self

    def __exit__(self, kind: type[BaseException] | None, *_rest: object) -> None:
        if kind is None:
            self.connection.commit()
        else:
            self.connection.rollback()
        self.close()

    def close(self) -> None:
        """Close the connection (what ``update`` wrote is committed already)."""
        self.connection.close()

    def update(
        self, paths: Sequence[str], *, variant: str | None = None, jobs: int = 1
    ) -> UpdateReport:
        """Bring the index in line with ``paths`` (files or folders): index new and changed
        files, drop the games of changed files and of indexed files that no longer exist.
        ``variant`` for games without a usable GameType; ``jobs`` processes (0: every core)."""
        from pdn.base.paths import PathError, expand_paths
        from pdn.batch.parallel import map_paths

        db = self.connection
        report = UpdateReport()
        known = {
            row[0]: row[1:]
            for row in db.execute("SELECT path, id, size, mtime_ns, sha256 FROM files")
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
                with db:
                    db.execute(
                        "UPDATE files SET mtime_ns = ? WHERE id = ?", (stat.st_mtime_ns, old[0])
                    )
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
        with db:
            for path, stat, _digest in todo:
                cursor = db.execute(
                    # the digest is written last: a file left half indexed is read again
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
        with db:
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
        db.execute("ANALYZE")
        return report

    def search(self, criteria: Criteria, *, limit: int = 0) -> Found:
        """What ``pdn search`` shows: the games passing ``criteria`` (the first ``limit``, all
        when 0), their number and, for a position, the explorer summary. A position with no other
        filter is answered by SQL alone (one range read of ``positions`` per key, then the rows of
        the listed games only); other filters read every candidate game's row."""
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
        return {
            table: self.connection.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
            for table in ("files", "games", "positions", "findings")
        }


def _connect(path: str, *, create: bool, rebuild_old: bool) -> sqlite3.Connection:
    """The connection to the index at ``path`` (see ``Index``)."""
    if not create and not os.path.exists(path):
        raise UnusableIndexError(
            f"{path}: no such index (build one with: pdn index {path} PATH...)"
        )
    try:
        db = sqlite3.connect(path)
        application = db.execute("PRAGMA application_id").fetchone()[0]
        version = db.execute("PRAGMA user_version").fetchone()[0]
        tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
    except sqlite3.DatabaseError as error:
        raise UnusableIndexError(f"{path}: not a pdn index (SQLite says: {error})") from None
    if application == 0 and version == 0 and tables == 0:
        if not create:
            db.close()
            raise UnusableIndexError(
                f"{path}: empty database (build it with: pdn index {path} PATH...)"
            )
        _create(db)
    elif application != APPLICATION_ID:
        db.close()
        raise UnusableIndexError(f"{path}: an SQLite database, but not a pdn index")
    elif version != SCHEMA_VERSION:
        if version < SCHEMA_VERSION and rebuild_old:
            _drop(db)
            _create(db)
        else:
            db.close()
            age = "an older" if version < SCHEMA_VERSION else "a newer"
            error_type = OldIndexError if version < SCHEMA_VERSION else UnusableIndexError
            raise error_type(
                f"{path}: index built by {age} pdn (schema {version}, this pdn reads "
                f"{SCHEMA_VERSION}); rebuild it with: pdn index {path} PATH..."
            )
    db.execute("PRAGMA foreign_keys = OFF")
    db.execute("PRAGMA cache_size = -65536")  # 64 MiB of page cache
    return db


def _create(db: sqlite3.Connection) -> None:
    with db:
        db.executescript(_SCHEMA)
        db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def _drop(db: sqlite3.Connection) -> None:
    names = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    with db:
        for name in names:
            db.execute(f'DROP TABLE IF EXISTS "{name}"')
    db.execute("VACUUM")


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
    with db:
        db.execute("CREATE TEMP TABLE IF NOT EXISTS gone(id INTEGER PRIMARY KEY)")
        db.execute("DELETE FROM gone")
        marks = ",".join("?" * len(file_ids))
        db.execute(f"INSERT INTO gone SELECT id FROM games WHERE file_id IN ({marks})", file_ids)
        for table in ("positions", "materials", "findings"):
            db.execute(f"DELETE FROM {table} WHERE game_id IN (SELECT id FROM gone)")
        db.execute("DELETE FROM games WHERE id IN (SELECT id FROM gone)")
        db.execute(f"DELETE FROM files WHERE id IN ({marks})", file_ids)


def _insert(db: sqlite3.Connection, batch: list[GameFacts], file_ids: dict[str, int]) -> int:
    """Write a batch of games in one transaction; returns the positions written."""
    positions = 0
    with db:
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
