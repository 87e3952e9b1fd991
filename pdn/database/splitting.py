"""``select --split N`` / ``--split-by TAG``: the chosen games into the files of a folder.

``split_games`` writes ``0001.pdn``, ``0002.pdn``... of ``every`` games each, or one file per
value of tag ``by`` (its name from the value by ``safe_file_name``; games without the tag in
``(no TAG).pdn``), each game byte for byte as ``write_selected`` writes it, in input order.
The games are spooled to a temporary file first, so each output is written whole, one at a
time, through ``pdn.base.output.atomic_output`` (never an input of the run). Cost: one write
and one read of each game's bytes to the spool; memory O(games) for their places.
"""

from __future__ import annotations

import os
import re
import tempfile
import unicodedata
from collections.abc import Iterable
from dataclasses import replace
from typing import BinaryIO

from pdn.base.output import atomic_output, refuse_inputs
from pdn.database.selection import Selected, write_selected
from pdn.game.tags import tag_value

#: Characters no file name may hold on some system (Windows' set, control characters, ``/``).
_UNSAFE = re.compile(r'[<>:"/\\|?*\x00-\x1f\x7f]')
#: Names Windows reserves whatever the extension.
_RESERVED = frozenset(
    ["CON", "PRN", "AUX", "NUL"] + [f"{kind}{n}" for kind in ("COM", "LPT") for n in range(1, 10)]
)
#: Most bytes (UTF-8) of a name made from a tag value, leaving room for a suffix.
NAME_BYTES = 100


def safe_file_name(value: str) -> str:
    """A file name (without extension) from a tag value that every common system accepts:
    NFC, unsafe characters as ``_``, no leading or trailing dot or space, not a reserved
    Windows name, at most ``NAME_BYTES`` bytes in UTF-8; ``_`` for nothing left. O(len)."""
    name = _UNSAFE.sub("_", unicodedata.normalize("NFC", " ".join(value.split())))
    name = name.strip(" .")
    while len(name.encode("utf-8")) > NAME_BYTES:
        name = name[:-1].rstrip(" .")
    if name.split(".")[0].upper() in _RESERVED:
        name += "_"
    return name or "_"


def split_games(
    games: Iterable[Selected],
    folder: str,
    *,
    every: int | None = None,
    by: str | None = None,
    inputs: Iterable[str] = (),
) -> list[tuple[str, int]]:
    """Write ``games`` into ``folder`` (made if missing): ``every`` games a file, or a file
    per value of tag ``by``. Returns each file written with its number of games, in the
    order first met. ``InputOverwriteError`` when a file would be one of ``inputs``,
    ``OSError`` when one cannot be written (those before it stay written)."""
    if (every is None) == (by is None):
        raise ValueError("split_games: give every or by, one of them")
    groups: dict[str, tuple[str, list[tuple[Selected, int, int]]]] = {}
    with tempfile.TemporaryFile(prefix="pdn-split-") as spool:
        for number, game in enumerate(games):
            name = _group_name(game, number, every, by)
            key = name.casefold()  # one file where names differ only by case (Windows, macOS)
            place = (replace(game, data=b""), spool.tell(), len(game.data))
            groups.setdefault(key, (name, []))[1].append(place)
            spool.write(game.data)
        width = max(4, len(str(len(groups))))
        paths = {
            key: os.path.join(folder, (name.zfill(width) if every else name) + ".pdn")
            for key, (name, _) in groups.items()
        }
        refuse_inputs({f"--split file {path}": path for path in paths.values()}, inputs)
        os.makedirs(folder, exist_ok=True)
        written = []
        for key, (_, members) in groups.items():
            with atomic_output(paths[key], newline="") as text:
                out: BinaryIO = text.buffer  # type: ignore[attr-defined]  # a TextIOWrapper
                written.append((paths[key], write_selected(_read_back(spool, members), out)))
    return written


def _group_name(game: Selected, number: int, every: int | None, by: str | None) -> str:
    if every is not None:
        return str(number // every + 1)
    assert by is not None
    value = tag_value(game.tags, by, aliases=True)
    return safe_file_name(value) if value and value.strip() else f"(no {safe_file_name(by)})"


def _read_back(spool: BinaryIO, members: list[tuple[Selected, int, int]]) -> Iterable[Selected]:
    """The games of one file, their bytes read back from the spool."""
    for game, offset, length in members:
        spool.seek(offset)
        yield replace(game, data=spool.read(length))
