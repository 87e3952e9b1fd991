"""Safe output files: a target is either left as it was or replaced whole, never cut short.

``atomic_output(path)`` is the way the package writes a file (``convert -o``, ``show --svg``,
``fix --in-place``)::

    with atomic_output("out.pdn") as stream:
        stream.write(text)          # goes to a temporary file beside out.pdn

The text goes to a temporary file in the target's own folder (same file system, so the final
rename is atomic). Only when the ``with`` block ends normally is the file flushed, ``fsync``-ed
and renamed over the target, keeping the permission bits of the file it replaces (a new file
gets the usual ``0o666 & ~umask``); a symbolic link target is followed, so the link stays and
the file it points to is replaced. If the block raises (a full disk, a parse bug, Ctrl-C:
any ``BaseException``) the temporary file is removed and the target is untouched. Cost: one
extra ``fsync`` and ``rename`` per file; memory is whatever the caller writes, streamed.

``-`` means stdout: no temporary file (a pipe cannot be replaced), the stream is flushed at
the end so that a write error such as ``ENOSPC`` on ``> /dev/full`` surfaces here as
``OSError`` rather than at interpreter exit.

A stream (any ``IO[str]``) given instead of a path is written as it is, flushed at the end,
never closed: the caller owns it. ``open_output(path)`` is the other way in, for a record
written as it goes that must survive a failed run (``pdn fix --log``: the log of files already
rewritten in place; ``--rejects``): the file is opened and truncated at once, no temporary
file, ``-`` and streams as above.

``same_file(source, target)`` tells whether writing ``target`` would destroy the input
``source`` (``-`` as source is stdin, compared by device and inode, so
``pdn convert - -o g.pdn < g.pdn`` is caught).
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
import tempfile
from collections.abc import Iterator
from typing import IO

STDIO = "-"


#: Where a verb writes: a path, ``-`` for stdout, or a text stream the caller owns.
Target = str | IO[str]


@contextlib.contextmanager
def atomic_output(
    path: Target, *, encoding: str = "utf-8", newline: str = "\n"
) -> Iterator[IO[str]]:
    """A text stream whose content replaces ``path`` atomically when the block succeeds.

    ``path`` ``-`` yields ``sys.stdout``, a stream yields itself (flushed at the end, not
    closed). Raises ``OSError`` when the folder cannot take a temporary file or the final
    flush/rename fails; the target is then unchanged.
    """
    if not isinstance(path, str) or path == STDIO:
        yield from _as_is(path)
        return
    target = os.path.realpath(path)
    folder, name = os.path.split(target)
    fd, temporary = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder)
    try:
        with open(fd, "w", encoding=encoding, newline=newline) as stream:
            yield stream
            stream.flush()
            os.fchmod(fd, _mode_for(target))
            os.fsync(fd)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    _sync_folder(folder)


@contextlib.contextmanager
def open_output(path: Target, *, encoding: str = "utf-8") -> Iterator[IO[str]]:
    """A text stream straight to ``path`` (opened and truncated now, ``\\n`` line ends), closed
    at the end; what was written stays when the block raises. ``-`` and streams as in
    ``atomic_output``. Raises ``OSError`` when ``path`` cannot be opened."""
    if not isinstance(path, str) or path == STDIO:
        yield from _as_is(path)
        return
    with open(path, "w", encoding=encoding, newline="\n") as stream:
        yield stream


def same_file(source: str, target: str) -> bool:
    """True when writing ``target`` would overwrite the input ``source`` (``-`` = stdin).

    Never true when ``target`` is ``-`` (stdout) or does not exist yet.
    """
    if target == STDIO:
        return False
    try:
        written = os.stat(target)
        read = os.fstat(0) if source == STDIO else os.stat(source)
    except OSError:  # no such file, closed stdin
        return False
    return stat.S_ISREG(written.st_mode) and (read.st_dev, read.st_ino) == (
        written.st_dev,
        written.st_ino,
    )


def _as_is(stream: Target) -> Iterator[IO[str]]:
    """Yield ``stream`` itself, or stdout for the one path that comes here, ``-``; flush it
    when the block ends normally."""
    given = sys.stdout if isinstance(stream, str) else stream
    yield given
    given.flush()


def _mode_for(target: str) -> int:
    """Permission bits for the new file: those of the file it replaces, else 0o666 & ~umask."""
    try:
        return stat.S_IMODE(os.stat(target).st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _sync_folder(folder: str) -> None:
    """Make the rename durable (best effort: some file systems refuse to open a folder)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
