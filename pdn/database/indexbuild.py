"""Building an index: which files to read, the facts of their games (in worker processes), the
rows written, checkpoints that make a long run resumable.

``update(db, begin, paths, variant, jobs)`` plans in one transaction (new and changed files get
a row with an empty digest; the games of changed and vanished files go), then writes the games
in transactions of about ``CHECKPOINT_SECONDS`` of work each. A file's digest is written when
its last game is; a checkpoint inside a file records the ordinal of its last game written
(``files.resume_after``), so a run killed in the middle of a big file continues after that game
next time (the same size and mtime, else the file is read again from its start). Workers
(``index_spans``) parse and replay each game once and send back its rows ready to insert:
positions (first ply of each distinct position: explorer rows before ``EXPLORER_PLIES``, keys
after), every ply's square bitboards packed in one blob, materials; the parent inserts, and
groups the postings of each batch of games into ``position_keys`` and ``materials`` rows. Cost:
one parse and replay per game, ``EXPLORER_PLIES`` rows at most and a few bytes a later
position, one B-tree insert per row; a resumed file is scanned (not parsed) up to its resume
point.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import sqlite3
import time
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache, partial

from pdn.database.filters import material_signature
from pdn.database.gamefacts import GameFacts, game_facts
from pdn.database.indexschema import (
    BATCH_SPAN,
    BATCH_TABLES,
    EXPLORER_PLIES,
    GAME_TABLES,
    SQL_SQUARES,
    TAG_COLUMNS,
    board_bytes,
    key_rows,
    material_rows,
    pack_boards,
    signed,
    write_tags,
)
from pdn.database.names import name_key
from pdn.engine.movegen import rules_for
from pdn.engine.position import Position
from pdn.engine.variants import Variant
from pdn.pdnfile.span import Span

#: Games written per ``executemany`` round.
BATCH_GAMES = 500
#: Seconds of work between two checkpoints (what a killed run may lose).
CHECKPOINT_SECONDS = 10.0
#: Position keys of a batch of postings at most (about 12 MB held, 100 MB while sorted).
FLUSH_POSTINGS = 1 << 20
_MASK64 = (1 << 64) - 1


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


@dataclass(frozen=True)
class IndexedGame:
    """A game's facts (without its line: keys, moves, positions) and its rows: ``positions``
    (key, ply, next move) at each distinct position's first ply before ``EXPLORER_PLIES``;
    ``later`` the keys of the other distinct positions (unsigned 64-bit, native order);
    ``materials`` (signature, first ply) of each material; ``distinct`` positions in all; its
    ``game_boards`` row: ``turn`` at ply 0, ``boards`` every ply's bitboards packed (``b""``:
    no ply replayed), ``union`` their OR as signed integers (``None``: a board of more than 64
    squares)."""

    facts: GameFacts
    positions: tuple[tuple[int, int, str | None], ...]
    later: bytes
    materials: tuple[tuple[int, int], ...]
    distinct: int
    turn: str
    boards: bytes
    union: tuple[int, int, int, int] | None


@dataclass(frozen=True)
class _Planned:
    path: str
    stat: os.stat_result
    digest: str
    file_id: int = 0
    resume_after: int = 0  #: games of the file already in the index (their last ordinal)
    games_before: int = 0


def file_digest(path: str) -> str:
    """SHA-256 of a file's bytes, in hex. O(file), 1 MiB at a time."""
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        while block := stream.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


def facts_of_spans(spans: list[Span], variant: str | None) -> list[GameFacts]:
    """``game_facts`` of each span (the unit of work of ``dedupe`` and ``stats``)."""
    return [game_facts(span, variant) for span in spans]


def index_spans(
    spans: list[Span], variant: str | None, resume: dict[str, int] | None = None
) -> list[IndexedGame]:
    """The unit of work of an update: each span's ``IndexedGame``, skipping the games of a
    file up to its ``resume`` ordinal (already in the index) unparsed."""
    indexed = []
    for span in spans:
        if resume and span.source.game <= resume.get(span.source.file or "", 0):
            continue
        facts = game_facts(span, variant, keep_line=True, lean=True, named=EXPLORER_PLIES)
        first: dict[int, int] = {}
        for ply, key in enumerate(facts.keys):
            first.setdefault(key, ply)
        moves = facts.moves
        rows = tuple(
            (key, ply, moves[ply] if ply < len(moves) else None)
            for key, ply in first.items()
            if ply < EXPLORER_PLIES
        )
        later = array("Q", [key & _MASK64 for key, ply in first.items() if ply >= EXPLORER_PLIES])
        materials: dict[int, int] = {}
        for ply, material in facts.material:
            materials.setdefault(material_signature(material), ply)
        slim = dataclasses.replace(
            facts, keys=(), moves=(), paths=(), written=(), positions=(), played=(), material=()
        )
        packed, union, turn = b"", None, ""
        if facts.positions:
            squares = len(facts.positions[0].variant.board.squares)
            boards = line_boards(facts.positions)
            packed = pack_boards(boards, board_bytes(squares))
            union = None if squares > SQL_SQUARES else _union(boards)
            turn = facts.positions[0].turn
        indexed.append(
            IndexedGame(
                slim,
                rows,
                later.tobytes(),
                tuple(materials.items()),
                len(first),
                turn,
                packed,
                union,
            )
        )
    return indexed


@cache
def _square_bit(variant: Variant) -> tuple[int, ...]:
    """Per engine bit of ``variant``, the square bit (``1 << (square - 1)``) or 0."""
    return tuple(1 << (square - 1) if square else 0 for square in rules_for(variant).square_of)


def line_boards(positions: Sequence[Position]) -> list[tuple[int, int, int, int]]:
    """The square bitboards (unsigned) of consecutive positions, each from the previous one by
    the engine bits that changed: O(pieces) for the first, then O(changed squares) each."""
    if not positions:
        return []
    square_bit = _square_bit(positions[0].variant)
    engine = [0, 0, 0, 0]
    squares = [0, 0, 0, 0]
    rows: list[tuple[int, int, int, int]] = []
    for position in positions:
        white, black, kings = position.white_bits, position.black_bits, position.king_bits
        now = (white & ~kings, white & kings, black & ~kings, black & kings)
        for kind in range(4):
            changed = now[kind] ^ engine[kind]
            while changed:
                low = changed & -changed
                squares[kind] ^= square_bit[low.bit_length() - 1]
                changed ^= low
            engine[kind] = now[kind]
        rows.append((squares[0], squares[1], squares[2], squares[3]))
    return rows


def _union(boards: Sequence[tuple[int, int, int, int]]) -> tuple[int, int, int, int]:
    """The OR of each of the four bitboards over the rows, as signed 64-bit integers."""
    union = [0, 0, 0, 0]
    for row in boards:
        for kind in range(4):
            union[kind] |= row[kind]
    return signed(union[0]), signed(union[1]), signed(union[2]), signed(union[3])


def update(
    db: sqlite3.Connection,
    begin: Callable[[], None],
    paths: Sequence[str],
    variant: str | None,
    jobs: int,
    on_game: Callable[[str | None, int | None], None] | None = None,
) -> UpdateReport:
    """``Index.update``'s work: ``begin()`` starts each write transaction (waiting for another
    run); a plan, then the games in checkpointed transactions, ``on_game(file, end_byte)``
    after each game read. An exception rolls back the open transaction only: the checkpoints
    before it stay."""
    from pdn.base.paths import PathError
    from pdn.batch.parallel import map_paths

    report = UpdateReport()
    begin()
    try:
        plan = _plan(db, paths, report)
        db.commit()
    except BaseException:
        db.rollback()
        raise
    place = {planned.path: number for number, planned in enumerate(plan)}
    counts = [planned.games_before for planned in plan]
    last = [planned.resume_after for planned in plan]
    failed: set[int] = set()
    finished = 0  # plan[:finished] have their digest written

    postings = _Postings(db)

    def checkpoint(upto: int) -> None:
        """The batch of postings, digests of plan[:upto] (complete), resume points of
        plan[upto:], then commit."""
        nonlocal finished
        postings.flush()
        rows = [
            (counts[number], plan[number].digest, plan[number].file_id)
            for number in range(finished, upto)
            if number not in failed
        ]
        db.executemany(
            "UPDATE files SET games = ?, sha256 = ?, resume_after = NULL WHERE id = ?", rows
        )
        db.executemany(
            "UPDATE files SET games = ?, resume_after = ? WHERE id = ?",
            [(counts[n], last[n], plan[n].file_id) for n in range(upto, len(plan)) if last[n]],
        )
        finished = upto
        db.commit()

    resume = {planned.path: planned.resume_after for planned in plan if planned.resume_after}
    work = partial(index_spans, variant=variant, resume=resume)
    file_ids = {planned.path: planned.file_id for planned in plan}
    begin()
    try:
        started = time.monotonic()
        batch: list[IndexedGame] = []
        current = 0
        for item in map_paths([planned.path for planned in plan], work, jobs=jobs):
            if isinstance(item, PathError):
                report.errors.append(f"{item.file}: {item.message}")
                failed.add(place[item.file or ""])
                continue
            if on_game is not None:
                on_game(item.facts.file, item.facts.end_byte)
            current = place[item.facts.file or ""]
            counts[current] += 1
            last[current] = item.facts.game
            batch.append(item)
            if len(batch) >= BATCH_GAMES:
                report.positions += _insert(db, batch, file_ids, postings)
                report.games += len(batch)
                batch = []
                if time.monotonic() - started > CHECKPOINT_SECONDS:
                    checkpoint(current)
                    begin()
                    started = time.monotonic()
        report.positions += _insert(db, batch, file_ids, postings)
        report.games += len(batch)
        checkpoint(len(plan))
        begin()
        db.execute("PRAGMA analysis_limit = 1000")  # sampled statistics: seconds, not minutes
        db.execute("ANALYZE")
        db.commit()
    except BaseException:
        db.rollback()
        raise
    report.indexed = [planned.path for planned in plan]
    return report


def _plan(db: sqlite3.Connection, paths: Sequence[str], report: UpdateReport) -> list[_Planned]:
    """The files to read (rows made for new ones, resume points of interrupted ones kept);
    the games of changed and vanished files removed."""
    from pdn.base.paths import expand_paths

    known = {
        row[0]: row[1:]
        for row in db.execute(
            "SELECT path, id, size, mtime_ns, sha256, games, resume_after FROM files"
        )
    }
    stale: list[int] = []
    plan: list[_Planned] = []
    if "-" in paths:
        report.errors.append("-: an index is built from files, not from stdin")
    for path in dict.fromkeys(os.path.realpath(p) for p in expand_paths(paths) if p != "-"):
        try:
            stat = os.stat(path)
            if not os.path.isfile(path):
                raise IsADirectoryError(f"{path} is not a file")
            old = known.get(path)
            same = old is not None and (old[1], old[2]) == (stat.st_size, stat.st_mtime_ns)
            if old and same and old[3]:
                report.unchanged += 1
                continue
            digest = file_digest(path)
        except OSError as error:
            report.errors.append(f"{path}: {error.strerror or error}")
            continue
        if old and same and not old[3] and old[5]:  # interrupted in the middle: continue it
            plan.append(_Planned(path, stat, digest, old[0], old[5], old[4]))
            continue
        if old and old[3] == digest:
            db.execute("UPDATE files SET mtime_ns = ? WHERE id = ?", (stat.st_mtime_ns, old[0]))
            report.unchanged += 1
            continue
        if old:
            stale.append(old[0])
        plan.append(_Planned(path, stat, digest))
    for path, (file_id, *_rest) in known.items():
        if not os.path.exists(path):
            stale.append(file_id)
            report.removed.append(path)
    _remove_files(db, stale)
    placed = []
    for planned in plan:
        if not planned.file_id:
            cursor = db.execute(
                # the digest is written last: a file that failed halfway is read again
                "INSERT INTO files(path, size, mtime_ns, sha256) VALUES (?, ?, ?, '')",
                (planned.path, planned.stat.st_size, planned.stat.st_mtime_ns),
            )
            planned = dataclasses.replace(planned, file_id=cursor.lastrowid or 0)
        placed.append(planned)
    return placed


def _remove_files(db: sqlite3.Connection, file_ids: list[int]) -> None:
    """Delete these files and everything of their games (one pass over each table)."""
    if not file_ids:
        return
    db.execute("CREATE TEMP TABLE IF NOT EXISTS gone(id INTEGER PRIMARY KEY)")
    db.execute("DELETE FROM gone")
    marks = ",".join("?" * len(file_ids))
    db.execute(f"INSERT INTO gone SELECT id FROM games WHERE file_id IN ({marks})", file_ids)
    for table in GAME_TABLES:
        db.execute(f"DELETE FROM {table} WHERE game_id IN (SELECT id FROM gone)")
    db.execute("DELETE FROM games WHERE id IN (SELECT id FROM gone)")
    db.execute(f"DELETE FROM files WHERE id IN ({marks})", file_ids)
    for table in BATCH_TABLES:  # the batches none of whose games is left
        db.execute(
            f"DELETE FROM {table} WHERE NOT EXISTS"
            " (SELECT 1 FROM games WHERE id BETWEEN first_game AND last_game)"
        )


class _Postings:
    """The postings of the games written since the last ``flush`` (one batch of
    ``position_keys`` and ``materials`` rows): at most ``BATCH_SPAN`` game ids apart, about
    ``FLUSH_POSTINGS`` keys; ``flush`` writes them (in the caller's transaction)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        self.keys: array[int] = array("Q")
        self.games: array[int] = array("Q")
        self.materials: list[tuple[int, int, int]] = []
        self.first = 0

    def add(self, game_id: int, game: IndexedGame) -> None:
        """Keep a game's postings (a batch full or too wide is flushed first)."""
        if self.first and (game_id - self.first >= BATCH_SPAN or len(self.keys) >= FLUSH_POSTINGS):
            self.flush()
        if not self.first:
            self.first = game_id
        later = array("Q", game.later)
        self.keys.extend(later)
        self.games.extend([game_id] * len(later))
        self.materials.extend((signature, game_id, ply) for signature, ply in game.materials)

    def flush(self) -> None:
        """Write the batch's rows."""
        self.db.executemany(
            "INSERT INTO position_keys VALUES (?, ?, ?, ?, ?)", key_rows(self.keys, self.games)
        )
        self.db.executemany(
            "INSERT INTO materials VALUES (?, ?, ?, ?)", material_rows(self.materials)
        )
        self.keys, self.games, self.materials, self.first = array("Q"), array("Q"), [], 0


def _insert(
    db: sqlite3.Connection,
    batch: list[IndexedGame],
    file_ids: dict[str, int],
    postings: _Postings,
) -> int:
    """Write a batch of games (in the caller's transaction), their postings kept in
    ``postings``; returns the distinct positions of the games."""
    positions = 0
    for game in batch:
        facts = game.facts
        game_id = _insert_game(db, facts, file_ids[facts.file or ""])
        winner = facts.winner
        db.executemany(
            "INSERT OR IGNORE INTO positions VALUES (?, ?, ?, ?, ?)",
            [(key, game_id, ply, move, winner) for key, ply, move in game.positions],
        )
        positions += game.distinct
        if game.boards:
            union = game.union or (None, None, None, None)
            db.execute(
                "INSERT INTO game_boards VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (game_id, *union, game.turn, game.distinct, game.boards),
            )
        postings.add(game_id, game)
        if facts.findings:
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
    event, date, tag_round = facts.tag("Event"), facts.tag("Date"), facts.tag("Round")
    columns = dict(
        zip(TAG_COLUMNS, (white, black, event, date, facts.result, tag_round), strict=True)
    )
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
            event,
            date,
            tag_round,
            facts.result,
            facts.outcome,
            facts.winner,
            facts.plies,
            write_tags(facts.tags, columns),
        ),
    )
    return cursor.lastrowid or 0
