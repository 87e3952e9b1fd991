"""The tables of a pdn index (schema version ``SCHEMA_VERSION``): a stable interface, documented
for users in docs/index-schema.md (every table, column and code; two sqlite3 examples).

``create(db)`` makes them in an empty database and stamps it (``PRAGMA application_id`` =
``APPLICATION_ID``, ``PRAGMA user_version`` = ``SCHEMA_VERSION``). Square bitboards hold bit
``s - 1`` for square ``s`` of the variant's own numbering, as
``pdn.database.patterns.square_boards``. ``game_boards`` has, per game, their OR over its plies
(the squares each kind of piece ever stood on: a cheap test in SQL; an 8x8 board's square 64
makes the integer negative, two's complement, as SQLite's ``&`` sees it; NULL for boards of
more than 64 squares) and every ply's four bitboards packed in one BLOB (``pack_boards``,
``unpack_boards``: zlib of fixed-width little-endian records).

``positions`` (the explorer's rows) holds a game's distinct positions first reached before ply
``EXPLORER_PLIES``; the later ones are only in ``position_keys``, postings grouped in BLOBs: per
batch of games written together (ids ``first_game`` .. ``last_game``, at most 65,536 apart),
one row per bucket of the key's top ``bits`` bits, each entry the key's next 8 bits (a
fragment: a hit is a candidate, verified against the game's packed boards) and the game's
offset from ``first_game`` (``key_rows``, ``key_candidates``). ``materials`` is grouped the same
way, exactly: per material signature and batch, each game's offset and first ply
(``material_rows``, ``material_plies``). Game ids are never reused (AUTOINCREMENT), so the
entries of removed games point at nothing. Cost: a few statements; packing O(plies); a key
lookup one B-tree seek per ``bits`` value and batch.
"""

from __future__ import annotations

import json
import sqlite3
import sys
import zlib
from array import array
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from itertools import groupby

#: 2: positions at each game's first ply only; 3: (file_id, ordinal) unique; 4: square
#: bitboards of every ply (``boards``) and their union per game (``game_boards``), a file's
#: resume point, games by variant; 5: every ply's bitboards in one BLOB per game
#: (``game_boards.boards``), no ``boards`` and ``wide_boards`` tables; 6: ``positions`` for the
#: plies before ``EXPLORER_PLIES`` only, the later positions' keys and the materials as grouped
#: postings (``position_keys``, ``materials``), game ids never reused.
SCHEMA_VERSION = 6
#: ``PRAGMA application_id`` of a pdn index ("PDNx" in ASCII).
APPLICATION_ID = 0x50444E78
#: Boards with more squares than this have no SQL unions (NULL): they do not fit 64 bits.
SQL_SQUARES = 64
#: zlib level of ``pack_boards`` (9 saves 1% for twice the time).
_LEVEL = 6
#: ``positions`` holds the distinct positions a game first reaches before this ply.
EXPLORER_PLIES = 8
#: Most game ids one batch of postings spans (an entry's offset is 16 bits).
BATCH_SPAN = 1 << 16
#: Entries aimed at per bucket row of ``position_keys`` (the rows' overhead against the
#: candidates a lookup verifies: about one in 256 entries of a row shares a fragment).
_PER_BUCKET = 64
_MASK64 = (1 << 64) - 1

_SCHEMA = """
CREATE TABLE files(
    id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL, sha256 TEXT NOT NULL, games INTEGER NOT NULL DEFAULT 0,
    resume_after INTEGER);
CREATE TABLE games(
    id INTEGER PRIMARY KEY AUTOINCREMENT, file_id INTEGER NOT NULL REFERENCES files(id),
    ordinal INTEGER, line INTEGER, start_byte INTEGER, end_byte INTEGER, variant TEXT,
    white TEXT, black TEXT, white_key TEXT, black_key TEXT, event TEXT, date TEXT, round TEXT,
    result TEXT, outcome TEXT, winner TEXT, plies INTEGER, tags TEXT);
CREATE UNIQUE INDEX games_file ON games(file_id, ordinal);
CREATE INDEX games_variant ON games(variant);
CREATE TABLE positions(
    key INTEGER NOT NULL, game_id INTEGER NOT NULL, ply INTEGER NOT NULL, next_move TEXT,
    winner TEXT, PRIMARY KEY(key, game_id, ply)) WITHOUT ROWID;
CREATE TABLE position_keys(
    bits INTEGER NOT NULL, bucket INTEGER NOT NULL, first_game INTEGER NOT NULL,
    last_game INTEGER NOT NULL, entries BLOB NOT NULL,
    PRIMARY KEY(bits, bucket, first_game)) WITHOUT ROWID;
CREATE TABLE game_boards(
    game_id INTEGER PRIMARY KEY, white_men INTEGER, white_kings INTEGER,
    black_men INTEGER, black_kings INTEGER, turn TEXT NOT NULL, positions INTEGER NOT NULL,
    boards BLOB NOT NULL);
CREATE TABLE materials(
    signature INTEGER NOT NULL, first_game INTEGER NOT NULL, last_game INTEGER NOT NULL,
    entries BLOB NOT NULL, PRIMARY KEY(signature, first_game)) WITHOUT ROWID;
CREATE TABLE findings(
    game_id INTEGER NOT NULL, code TEXT, severity TEXT, ply INTEGER, line INTEGER,
    "column" INTEGER, move TEXT, message TEXT);
CREATE INDEX findings_game ON findings(game_id)
"""

#: The tables holding rows of games (what removing a file's games deletes from).
GAME_TABLES = ("positions", "game_boards", "findings")
#: The tables of postings by batch (a batch goes when none of its games is left).
BATCH_TABLES = ("position_keys", "materials")


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
    bits = 8 * width
    record = b"".join(
        (wm | wk << bits | bm << 2 * bits | bk << 3 * bits).to_bytes(4 * width, "little")
        for wm, wk, bm, bk in boards
    )
    return zlib.compress(record, _LEVEL)


def unpack_boards(
    blob: bytes, width: int, *, packed: bool = True
) -> Iterator[tuple[int, int, int, int]]:
    """The four bitboards of each ply packed in ``blob`` (``pack_boards``' inverse; records
    already decompressed when not ``packed``). O(plies)."""
    raw = zlib.decompress(blob) if packed else blob
    step = 4 * width
    for start in range(0, len(raw), step):
        wm, wk, bm, bk = (
            int.from_bytes(raw[at : at + width], "little")
            for at in range(start, start + step, width)
        )
        yield wm, wk, bm, bk


def _bits_for(entries: int) -> int:
    """Bucket bits of a batch of ``entries`` postings: about ``_PER_BUCKET`` a row, 0..16."""
    return max(0, min(16, (entries // _PER_BUCKET).bit_length() - 1))


def _native(values: array[int]) -> bytes:
    """``values`` as little-endian bytes whatever the machine."""
    if values.itemsize > 1 and sys.byteorder == "big":  # pragma: no cover - big-endian
        values = array(values.typecode, values)
        values.byteswap()
    return values.tobytes()


def _read(typecode: str, raw: bytes) -> array[int]:
    """Little-endian ``raw`` as an array (``_native``'s inverse)."""
    values = array(typecode, raw)
    if values.itemsize > 1 and sys.byteorder == "big":  # pragma: no cover - big-endian
        values.byteswap()
    return values


def key_rows(keys: Sequence[int], games: Sequence[int]) -> list[tuple[int, int, int, int, bytes]]:
    """``position_keys`` rows of one batch of postings: ``keys[i]`` (unsigned) reached in game
    ``games[i]`` (ids less than ``BATCH_SPAN`` apart). Per bucket of the key's top ``bits``
    bits, the entries sorted: their 8-bit fragments (the key's next bits), then their 16-bit
    game offsets from ``first_game``, little-endian. O(n log n)."""
    if not keys:
        return []
    first, last = min(games), max(games)
    if last - first >= BATCH_SPAN:
        raise ValueError(f"a batch of postings spans {last - first + 1} game ids")
    bits = _bits_for(len(keys))
    shift = 56 - bits
    entries = sorted(
        (key >> shift) << 16 | (game - first) for key, game in zip(keys, games, strict=True)
    )
    rows = []
    for bucket, group in groupby(entries, key=lambda entry: entry >> 24):
        items = list(group)
        fragments = bytes((entry >> 16) & 0xFF for entry in items)
        offsets = array("H", [entry & 0xFFFF for entry in items])
        rows.append((bits, bucket, first, last, fragments + _native(offsets)))
    return rows


def key_candidates(db: sqlite3.Connection, key: int) -> set[int]:
    """The game ids whose ``position_keys`` entries could be ``key``'s (the 8 to 24 top bits
    of the key: a superset, to verify against the packed boards). One B-tree seek per
    ``bits`` value, a bisection per batch row."""
    unsigned = key & _MASK64
    games: set[int] = set()
    for bits in range(17):
        fragment = (unsigned >> (56 - bits)) & 0xFF
        rows = db.execute(
            "SELECT first_game, entries FROM position_keys WHERE bits = ? AND bucket = ?",
            (bits, unsigned >> (64 - bits)),
        )
        for first, entries in rows:
            count = len(entries) // 3
            fragments = entries[:count]
            at = bisect_left(fragments, fragment)
            if at == count or fragments[at] != fragment:
                continue
            offsets = _read("H", entries[count:])
            while at < count and fragments[at] == fragment:
                games.add(first + offsets[at])
                at += 1
    return games


def material_rows(
    postings: Iterable[tuple[int, int, int]],
) -> list[tuple[int, int, int, bytes]]:
    """``materials`` rows of one batch of (signature, game id, first ply) postings (game ids
    less than ``BATCH_SPAN`` apart): per signature, one byte saying the bytes of a ply (1,
    2 or 4: the fewest that hold the row's plies), the games' 16-bit offsets from the batch's
    first game, then their first plies, little-endian. O(n log n)."""
    by_signature: defaultdict[int, list[tuple[int, int]]] = defaultdict(list)
    for signature, game, ply in postings:
        by_signature[signature].append((game, ply))
    if not by_signature:
        return []
    first = min(game for games in by_signature.values() for game, _ply in games)
    last = max(game for games in by_signature.values() for game, _ply in games)
    if last - first >= BATCH_SPAN:
        raise ValueError(f"a batch of postings spans {last - first + 1} game ids")
    rows = []
    for signature, games in sorted(by_signature.items()):
        games.sort()
        offsets = array("H", [game - first for game, _ply in games])
        most = max(ply for _game, ply in games)
        code = "B" if most <= 0xFF else "H" if most <= 0xFFFF else "I"
        plies = array(code, [ply for _game, ply in games])
        blob = bytes([plies.itemsize]) + _native(offsets) + _native(plies)
        rows.append((signature, first, last, blob))
    return rows


def material_plies(db: sqlite3.Connection, signature: int) -> Iterator[tuple[int, int]]:
    """(game id, first ply) of each game of the ``materials`` postings of ``signature`` (those
    of removed games too: the caller joins ``games``). One range read."""
    rows = db.execute("SELECT first_game, entries FROM materials WHERE signature = ?", (signature,))
    for first, entries in rows:
        width = entries[0]  # bytes of a ply: 1, 2 or 4
        count = (len(entries) - 1) // (2 + width)
        offsets = _read("H", entries[1 : 1 + 2 * count])
        plies = _read({1: "B", 2: "H", 4: "I"}[width], entries[1 + 2 * count :])
        for offset, ply in zip(offsets, plies, strict=True):
            yield first + offset, ply


#: The tags whose value ``games`` also has as a column (in ``_GAME_COLUMNS``' order: white,
#: black, event, date, result, round): ``write_tags`` names them only when the values agree.
TAG_COLUMNS = ("White", "Black", "Event", "Date", "Result", "Round")


def write_tags(tags: Sequence[tuple[str, str]], columns: dict[str, str | None]) -> str:
    """``games.tags``: the tags as a compact JSON list in file order, each ``[name, value]``,
    or just ``name`` when the game's column of that name (``columns``) holds the same value.
    O(tags)."""
    items = [
        name if columns.get(name) == value and name in columns else [name, value]
        for name, value in tags
    ]
    return json.dumps(items, ensure_ascii=False, separators=(",", ":"))


def read_tags(text: str, columns: dict[str, str | None]) -> tuple[tuple[str, str], ...]:
    """``write_tags``' inverse, given the game's columns. O(tags)."""
    return tuple(
        (item, columns[item] or "") if isinstance(item, str) else (item[0], item[1])
        for item in json.loads(text)
    )
