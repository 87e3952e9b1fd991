"""The paths a user names, as files to read: folders walked for their PDN files, what is left out.

Costs one ``stat`` per candidate file; reads no file.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass


@dataclass(frozen=True)
class PathError:
    """A path that could not be read at all (missing, permission denied, a folder with no
    PDN file), or with ``skipped`` a file of a folder left out on purpose (a FIFO, a socket:
    reading it could block the batch), which is a note rather than a failure."""

    file: str
    message: str
    skipped: bool = False


#: File name endings (compared in lower case) taken when a directory is given; any other
#: file is read only when named on the command line (a README.txt is no game file).
PDN_SUFFIXES = (".pdn",)


#: The message of a folder without any PDN file.
NO_PDN_FILE = "no PDN file found (a folder means its *.pdn files, searched recursively)"


def expand_paths(paths: Iterable[str]) -> Iterator[str]:
    """Each path as given, except that a directory becomes its PDN files (recursively, sorted);
    ``-`` (stdin) passes through. What cannot be walked is left out: see ``walk_paths``."""
    return (item for item in walk_paths(paths) if isinstance(item, str))


def walk_paths(paths: Iterable[str]) -> Iterator[str | PathError]:
    """``expand_paths`` that says what it leaves out: an unreadable sub-folder, a folder with
    no PDN file (``PathError``), a file of a folder that is no regular file (``PathError``
    with ``skipped``). A FIFO named as a path is kept: it is read as a stream. One ``stat`` per
    candidate file."""
    for path in paths:
        if path != "-" and os.path.isdir(path):
            found = sorted(_folder(path), key=_path_of)
            if not found:
                yield PathError(path, NO_PDN_FILE)
            yield from found
        else:
            yield path


def common_folder(names: list[str]) -> str:
    """The folder every file name is in (``""`` when none, or for ``<stdin>``)."""
    if any(name.startswith("<") for name in names):
        return ""
    try:
        common = os.path.commonpath(names)
    except ValueError:  # mixed absolute and relative names
        return ""
    return os.path.dirname(common) if common in names else common


def _path_of(item: str | PathError) -> str:
    return item.file if isinstance(item, PathError) else item


def _folder(top: str) -> Iterator[str | PathError]:
    """The PDN files under ``top`` and the problems met on the way (no recursion; symbolic
    links to folders are not followed, as ``os.walk`` does)."""
    folders = [top]
    while folders:
        folder = folders.pop()
        try:
            with os.scandir(folder) as scan:
                entries = list(scan)
        except OSError as error:
            yield PathError(folder, f"folder not read: {error.strerror or error}")
            continue
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                folders.append(entry.path)
            elif entry.name.lower().endswith(PDN_SUFFIXES):
                try:
                    regular = stat.S_ISREG(os.stat(entry.path).st_mode)
                except OSError as error:
                    yield PathError(entry.path, error.strerror or str(error))
                    continue
                if regular:
                    yield entry.path
                else:
                    yield PathError(
                        entry.path, "not a regular file (FIFO, socket...): skipped", True
                    )
