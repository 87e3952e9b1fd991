"""The tables of a pdn index (schema version ``SCHEMA_VERSION``): a stable interface, documented
for users in docs/index-schema.md (every table, column and code; two sqlite3 examples).

``create(db)`` makes them in an empty database and stamps it (``PRAGMA application_id`` =
``APPLICATION_ID``, ``PRAGMA user_version`` = ``SCHEMA_VERSION``). Square bitboards hold bit
``s - 1`` for square ``s`` of the variant's own numbering, as
``pdn.database.patterns.square_boards``. ``game_boards`` has, per game, their OR over its plies
(the squares each kind of piece ever stood on: a cheap test in SQL; an 8x8 board's square 64
makes the integer negative, two's complement, as SQLite's ``&`` sees it; NULL for boards of
more than 64 squares) and every ply's four bitboards packed in one BLOB (``pack_boards``,
``unpack_boards``: zlib of fixed-width little-endian records). Cost: a few statements; packing
O(plies).
"""

from __future__ import annotations

import sqlite3
import zlib
from collections.abc import Iterator, Sequence

#: 2: positions at each game's first ply only; 3: (file_id, ordinal) unique; 4: square
#: bitboards of every ply (``boards``) and their union per game (``game_boards``), a file's
#: resume point, games by variant; 5: every ply's bitboards in one BLOB per game
#: (``game_boards.boards``), no ``boards`` and ``wide_boards`` tables.
SCHEMA_VERSION = 5
#: ``PRAGMA application_id`` of a pdn index ("PDNx" in ASCII).
APPLICATION_ID = 0x50444E78
#: Boards with more squares than this have no SQL unions (NULL): they do not fit 64 bits.
SQL_SQUARES = 64
#: zlib level of ``pack_boards`` (9 saves 1% for twice the time).
_LEVEL = 6

_SCHEMA = """
CREATE TABLE files(
    id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL, sha256 TEXT NOT NULL, games INTEGER NOT NULL DEFAULT 0,
    resume_after INTEGER);
CREATE TABLE games(
    id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL REFERENCES files(id), ordinal INTEGER,
    line INTEGER, start_byte INTEGER, end_byte INTEGER, variant TEXT, white TEXT, black TEXT,
    white_key TEXT, black_key TEXT, event TEXT, date TEXT, round TEXT, result TEXT,
    outcome TEXT, winner TEXT, plies INTEGER, tags TEXT);
CREATE UNIQUE INDEX games_file ON games(file_id, ordinal);
CREATE INDEX games_variant ON games(variant);
CREATE TABLE positions(
    key INTEGER NOT NULL, game_id INTEGER NOT NULL, ply INTEGER NOT NULL, next_move TEXT,
    winner TEXT, PRIMARY KEY(key, game_id, ply)) WITHOUT ROWID;
CREATE TABLE game_boards(
    game_id INTEGER PRIMARY KEY, white_men INTEGER, white_kings INTEGER,
    black_men INTEGER, black_kings INTEGER, turn TEXT NOT NULL, boards BLOB NOT NULL);
CREATE TABLE materials(
    signature INTEGER NOT NULL, game_id INTEGER NOT NULL, ply INTEGER NOT NULL,
    PRIMARY KEY(signature, game_id, ply)) WITHOUT ROWID;
CREATE TABLE findings(
    game_id INTEGER NOT NULL, code TEXT, severity TEXT, ply INTEGER, line INTEGER,
    "column" INTEGER, move TEXT, message TEXT);
CREATE INDEX findings_game ON findings(game_id)
"""

#: The tables holding rows of games (what removing a file's games deletes from).
GAME_TABLES = ("positions", "game_boards", "materials", "findings")


def create(db: sqlite3.Connection) -> None:
    """The tables of an empty index (in the caller's transaction, if any)."""
    for statement in _SCHEMA.split(";"):
        db.execute(statement)
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def signed(bits: int) -> int:
    """``bits`` (0 .. 2**64 - 1) as the signed 64-bit integer SQLite stores."""
    return bits - (1 << 64) if bits >= 1 << 63 else bits


def board_bytes(squares: int) -> int:
    """Bytes of one packed bitboard on a board of ``squares`` squares: a bit a square (4 for
    32 squares, 7 for 50, 8 for 64, 9 for 72)."""
    return (squares + 7) // 8


def pack_boards(boards: Sequence[Sequence[int]], width: int) -> bytes:
    """``game_boards.boards``: zlib of one record per ply, each the four bitboards (white
    men, white kings, black men, black kings; unsigned) as ``width``-byte little-endian
    integers. About 4 bytes a ply. O(plies)."""
    record = b"".join(bits.to_bytes(width, "little") for row in boards for bits in row)
    return zlib.compress(record, _LEVEL)


def unpack_boards(blob: bytes, width: int) -> Iterator[tuple[int, int, int, int]]:
    """The four bitboards of each ply packed in ``blob`` (``pack_boards``' inverse). O(plies)."""
    raw = zlib.decompress(blob)
    step = 4 * width
    for start in range(0, len(raw), step):
        wm, wk, bm, bk = (
            int.from_bytes(raw[at : at + width], "little")
            for at in range(start, start + step, width)
        )
        yield wm, wk, bm, bk
