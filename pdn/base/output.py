"""Safe output files: a target is either left as it was or replaced whole, never cut short.

``atomic_output(path)`` is the way the package writes a file (every ``-o``, ``show --svg``,
``fix --in-place``, ``--log``, ``--rejects``)::

    with atomic_output("out.pdn") as stream:
        stream.write(text)          # goes to a temporary file beside out.pdn

The text goes to a temporary file in the target's own folder (same file system, so the final
rename is atomic). Only when the ``with`` block ends normally is the file flushed, ``fsync``-ed
and renamed over the target, keeping the permission bits of the file it replaces (a new file
gets the usual ``0o666 & ~umask``); a symbolic link target is followed, so the link stays and
the file it points to is replaced. If the block raises (a full disk, a parse bug, Ctrl-C:
any ``BaseException``) the temporary file is removed and the target is untouched, unless
``keep_on_error`` says the text is a record of work already done (``pdn fix --in-place``'s log
and rejects once a file was rewritten): it then replaces the target as far as it was written.
Cost: one extra ``fsync`` and ``rename`` per file; memory is whatever the caller writes, streamed.

``-`` means stdout: no temporary file (a pipe cannot be replaced), the stream is flushed at
the end so that a write error such as ``ENOSPC`` on ``> /dev/full`` surfaces here as
``OSError`` rather than at interpreter exit. A stream (any ``IO[str]``) given instead of a path
is written as it is, flushed at the end, never closed: the caller owns it. ``StdoutBeside`` is
stdout for a record written while a file is the run's real output: a reader that closed stdout
(``| true``) does not stop the file.

The one output rule of every verb: ``refuse_inputs`` raises ``InputOverwriteError`` when an
output path is, or resolves to (a symbolic link, a hard link: the same device and inode), an
input of the run (files found inside input folders included, ``-`` as stdin, so ``pdn convert
- -o g.pdn < g.pdn`` is caught) or another output of the run. Verbs call it before they open
anything for writing; ``same_file`` is its comparison of one pair.

``pdn fix --in-place`` replaces a file only under ``check_rewritable`` (not read-only, one name
only, unchanged since it was read; ``atomic_output(unchanged_since=...)`` checks the last once
more just before the rename) and keeps the original with ``backup_copy``, which never follows
a link and never replaces an earlier ``NAME.bak``; both raise ``RewriteRefusedError``.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import IO

from pdn.base.paths import expand_paths

STDIO = "-"


#: Where a verb writes: a path, ``-`` for stdout, or a text stream the caller owns.
Target = str | IO[str]


@contextlib.contextmanager
def atomic_output(
    path: Target,
    *,
    encoding: str = "utf-8",
    newline: str = "\n",
    unchanged_since: os.stat_result | None = None,
    keep_on_error: Callable[[], bool] | None = None,
) -> Iterator[IO[str]]:
    """A text stream whose content replaces ``path`` atomically when the block succeeds.

    ``path`` ``-`` yields ``sys.stdout``, a stream yields itself (flushed at the end, not
    closed). Raises ``OSError`` when the folder cannot take a temporary file or the final
    flush/rename fails, ``RewriteRefusedError`` when ``unchanged_since`` is given and the
    target no longer matches it; the target is then unchanged. When the block raises and
    ``keep_on_error()`` is true, what was written replaces the target anyway (best effort)
    and the error goes on.
    """
    if not isinstance(path, str) or path == STDIO:
        yield from _as_is(path)
        return
    target = os.path.realpath(path)
    folder, name = os.path.split(target)
    fd, temporary = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder)
    try:
        with open(fd, "w", encoding=encoding, newline=newline) as stream:
            try:
                yield stream
            except BaseException:
                if keep_on_error is not None and keep_on_error():
                    with contextlib.suppress(OSError):
                        _commit(stream, temporary, target, None)
                raise
            _commit(stream, temporary, target, unchanged_since)
    except BaseException:
        with contextlib.suppress(OSError):  # already gone once committed
            os.unlink(temporary)
        raise
    _sync_folder(folder)


class InputOverwriteError(OSError):
    """An output of the run that is one of its inputs, or another of its outputs;
    ``str(error)`` is the line to print after ``pdn VERB: ``."""


def refuse_inputs(outputs: Mapping[str, Target | None], inputs: Iterable[str]) -> None:
    """Raise ``InputOverwriteError`` when an output path (keyed by the option that names it:
    ``-o``, ``--log``...; ``None``, ``-`` and streams pass) is, or resolves to, an input of
    ``inputs`` (a folder stands for its PDN files, ``-`` for stdin) or another output path.
    Cost: one walk of the input folders, one ``stat`` per input file and output."""
    paths = {
        option: target
        for option, target in outputs.items()
        if isinstance(target, str) and target != STDIO
    }
    if not paths:
        return
    for source in expand_paths(inputs):
        for option, target in paths.items():
            if same_file(source, target):
                said = "<stdin>" if source == STDIO else source
                raise InputOverwriteError(
                    f"{option} {target} is an input of this run "
                    f"(writing it would overwrite the input {said})"
                )
    seen: dict[str, str] = {}
    for option, target in paths.items():
        where = os.path.realpath(target)
        if where in seen:
            raise InputOverwriteError(f"{option} {target} is also {seen[where]}: one file each")
        seen[where] = option


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


class RewriteRefusedError(OSError):
    """A file ``--in-place`` must not replace: read-only, hard-linked, changed since it was
    read, or its backup name taken; ``str(error)`` says which and what to do."""


def check_rewritable(path: str, seen: os.stat_result) -> None:
    """Raise ``RewriteRefusedError`` unless ``path`` may be replaced by a rewritten copy: the
    same file, size and modification time as ``seen`` (taken before it was read), writable by
    the user, and one name only (a hard-linked file replaced under one name would be split
    from its other names). Cost: one ``stat``."""
    _ensure_unchanged(path, seen)
    if not os.access(path, os.W_OK) or not seen.st_mode & 0o222:
        raise RewriteRefusedError(f"{path} is read-only: not rewritten (make it writable first)")
    if seen.st_nlink > 1:
        raise RewriteRefusedError(
            f"{path} has {seen.st_nlink} names (hard links): not rewritten, a new file "
            "would split it from its other names"
        )


def backup_copy(path: str) -> str:
    """Copy ``path`` (bytes, permission bits, modification time) to the new file ``path.bak``
    and return its name. The backup is created exclusively (``O_CREAT | O_EXCL |
    O_NOFOLLOW``): a file or a symbolic link already at that name is never written through
    or replaced (``RewriteRefusedError``); a failed copy removes the partial backup. Cost:
    one read and one write of the file, one ``fsync``."""
    backup = path + ".bak"
    seen = os.stat(path)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(backup, flags, 0o600)
    except FileExistsError:
        raise RewriteRefusedError(
            f"{backup} exists: {path} not rewritten, an earlier backup is never replaced "
            "(move it away first)"
        ) from None
    try:
        with open(fd, "wb") as copy, open(path, "rb") as original:
            shutil.copyfileobj(original, copy)
            copy.flush()
            os.fchmod(fd, stat.S_IMODE(seen.st_mode))
            os.utime(fd, ns=(seen.st_atime_ns, seen.st_mtime_ns))
            os.fsync(fd)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(backup)
        raise
    return backup


class StdoutBeside:
    """Standard output for a record (a log) written while a file is the run's real output:
    once the reader has gone (``BrokenPipeError``) the rest goes to the null device and the
    run goes on; ``closed_by_reader`` tells the caller to end with ``BrokenPipeError`` once
    its files are written. Cost: one ``write`` per write."""

    def __init__(self) -> None:
        self.closed_by_reader = False

    def write(self, text: str) -> int:
        """Write ``text`` to stdout, or drop it once the reader has gone."""
        try:
            return sys.stdout.write(text)
        except BrokenPipeError:
            self.closed_by_reader = True
            discard_stdout()
            return len(text)


def discard_stdout() -> None:
    """Point stdout at the null device so the data still buffered is not written (and does not
    fail again) later or when the interpreter exits."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError):  # no stdout at all
        pass


def _commit(
    stream: IO[str], temporary: str, target: str, unchanged_since: os.stat_result | None
) -> None:
    """Flush and ``fsync`` the temporary file, give it the target's mode, rename it over the
    target (after checking the target is still as ``unchanged_since`` when given)."""
    stream.flush()
    os.fchmod(stream.fileno(), _mode_for(target))
    os.fsync(stream.fileno())
    if unchanged_since is not None:
        _ensure_unchanged(target, unchanged_since)
    os.replace(temporary, target)


def _ensure_unchanged(path: str, seen: os.stat_result) -> None:
    """``RewriteRefusedError`` unless ``path`` is the file, size and mtime of ``seen``."""
    now = os.stat(path)
    if (now.st_dev, now.st_ino, now.st_size, now.st_mtime_ns) != (
        seen.st_dev,
        seen.st_ino,
        seen.st_size,
        seen.st_mtime_ns,
    ):
        raise RewriteRefusedError(
            f"{path} changed while it was being fixed: not rewritten (run again)"
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
