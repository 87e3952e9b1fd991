"""The progress bar of the verbs that read whole databases (check, html, index): bytes read out
of the inputs' total size, the rate, the time left and the games done, on stderr when it is a
terminal and nothing otherwise. A file's progress is the end byte of the last game reported in
it, so games may come in any order of files. Cost: one ``stat`` per input at the start, one
dict update and one redraw request per game (rich redraws at most ten times a second).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any

from rich.console import Console


def file_sizes(paths: Iterable[str]) -> dict[str, int] | None:
    """Bytes of each file to read (0 for one that cannot be read), or None when a size is
    unknown (stdin, a pipe, a folder not expanded)."""
    sizes = {}
    for path in paths:
        if path == "-" or (os.path.exists(path) and not os.path.isfile(path)):
            return None
        try:
            sizes[path] = os.path.getsize(path)
        except OSError:
            sizes[path] = 0
    return sizes


class ByteProgress:
    """A context manager drawing the bar on ``console`` while it is a terminal (a no-op
    otherwise); ``advance(file, end_byte)`` reports a game. ``sizes``: each input's bytes
    (``file_sizes``; None: no total, the bar counts games only). ``redirect_stdout``: what is
    printed to a terminal stdout goes above the bar."""

    def __init__(
        self,
        console: Console,
        sizes: dict[str, int] | None,
        *,
        redirect_stdout: bool = False,
    ) -> None:
        self.console = console
        self.total = sum(sizes.values()) if sizes is not None else None
        self.redirect_stdout = redirect_stdout
        self.done: dict[str | None, int] = {}  # per file: the end byte of its last game
        self.completed = 0  # their sum
        self.games = 0
        self.bar: Any = None
        self.task: Any = None

    def __enter__(self) -> ByteProgress:
        if not self.console.is_terminal:
            return self
        from rich.progress import (
            BarColumn,
            DownloadColumn,
            Progress,
            TextColumn,
            TimeRemainingColumn,
            TransferSpeedColumn,
        )

        self.bar = Progress(
            BarColumn(),
            DownloadColumn(),
            TransferSpeedColumn(),
            TimeRemainingColumn(),
            TextColumn("{task.fields[games]} games"),
            console=self.console,
            transient=True,
            redirect_stdout=self.redirect_stdout,
        )
        self.bar.start()
        self.task = self.bar.add_task("read", total=self.total or None, games=0)
        return self

    def advance(self, file: str | None, end_byte: int | None, games: int = 1) -> None:
        """``games`` more done, the last of them ending at ``end_byte`` of ``file`` (None:
        unknown, the bytes stay)."""
        if self.bar is None:
            return
        self.games += games
        if end_byte is not None:
            self.completed += end_byte - self.done.get(file, 0)
            self.done[file] = end_byte
        self.bar.update(self.task, completed=self.completed, games=self.games)

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()
