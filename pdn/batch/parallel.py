"""Check many files and many games: in this process, on local processes, or on a Dask cluster.

The unit of work is a chunk of game spans from ``pdn.pdnfile.scan`` (text plus where it came from).
A span is parsed and audited where it lands (``pdn.pdnfile.reader.parse_span`` + ``audit_game``), so
only small spans and small reports (``GameReport``) cross process or machine boundaries. Every
mode yields reports in input order and keeps a bounded number of chunks in flight, so memory
stays flat in the size of the input whatever the number of workers.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from functools import partial
from itertools import islice
from typing import TYPE_CHECKING, Any, TypeVar

from pdn.arbiter.replay import audited
from pdn.base.findings import Finding
from pdn.base.paths import PathError, walk_paths
from pdn.engine.errors import PdnError
from pdn.pdnfile.reader import parse_span
from pdn.pdnfile.scan import Span, iter_spans
from pdn.pdnfile.verdict import NotPdnError

if TYPE_CHECKING:
    from pdn.game.record import Game

T = TypeVar("T")

#: Games per work unit: big enough to amortise pickling, small enough to balance the load.
CHUNK_GAMES = 32
#: Chunks in flight per worker: keeps workers busy while bounding memory.
CHUNKS_PER_WORKER = 4
#: Seconds to wait for a first worker of a Dask cluster that has none, by default.
DASK_WAIT = 60


class WorkerLostError(PdnError, RuntimeError):
    """A worker process died in the middle of a run (killed by the system, out of memory): the
    map stops, its other workers are ended, and what it was feeding is left unfinished."""

    def __init__(self) -> None:
        super().__init__("a worker process died (killed by the system? out of memory?)")


@dataclass(frozen=True)
class AuditOptions:
    """What to audit with: a variant name overriding detection, a draw-rules profile name."""

    variant: str | None = None
    rules: str | None = None


@dataclass
class GameReport:
    """The audit of one game: where it is, what it was replayed as, and what was found.

    ``plies`` counts every replayed ply, variations included; ``end_byte`` is where the game
    ends in its file (None when unknown), for progress.
    """

    file: str | None
    game: int
    variant: str
    plies: int = 0
    findings: list[Finding] = field(default_factory=list)
    end_byte: int | None = None


@dataclass(frozen=True)
class NotPdnPathError(PathError):
    """A file that is no PDN text (``pdn.pdnfile.verdict``): no game is read from it; ``check``
    reports its one ``error[file]`` finding, the other verbs its message."""

    finding: Finding = field(kw_only=True)


def audit_game(game: Game, options: AuditOptions) -> GameReport:
    """Audit one game with ``options`` (one ``pdn.arbiter.replay.audited``): the picklable unit of
    work mapped over spans. Never raises on bad input (it becomes findings)."""
    replayed = audited(game, variant=options.variant, rules=options.rules)
    return GameReport(
        file=game.source.file,
        game=game.source.game,
        variant=replayed.variant.name,
        plies=replayed.plies,
        findings=replayed.findings,
        end_byte=game.source.end_byte,
    )


def check_spans(spans: Sequence[Span], options: AuditOptions) -> list[GameReport]:
    """Parse and audit each span. Runs inside workers; cost is one parse + one replay per game."""
    return [audit_game(parse_span(span), options) for span in spans]


def check_paths(
    paths: Iterable[str],
    options: AuditOptions,
    *,
    jobs: int = 1,
    dask: str | None = None,
    dask_wait: float = DASK_WAIT,
    on_wait: Callable[[str], object] | None = None,
) -> Iterator[GameReport | PathError]:
    """Yield one ``GameReport`` per game of every path, in input order, or a ``PathError``
    for a path that cannot be read (the batch goes on with the next path).

    ``jobs`` > 1 spreads chunks of games over that many local processes (0 = all cores);
    ``dask`` is the address of a Dask scheduler (``tcp://host:8786``) and sends them there
    (``dask_wait`` and ``on_wait`` as for ``map_paths``).
    """
    work = partial(check_spans, options=options)
    return map_paths(paths, work, jobs=jobs, dask=dask, dask_wait=dask_wait, on_wait=on_wait)


def check(
    paths: Iterable[str],
    *,
    variant: str | None = None,
    rules: str | None = None,
    jobs: int = 1,
    dask: str | None = None,
    dask_wait: float = DASK_WAIT,
    on_wait: Callable[[str], object] | None = None,
) -> Iterator[GameReport | PathError]:
    """``pdn check`` as a call: ``check_paths`` with the ``AuditOptions`` as keywords (a
    variant name overriding detection, a draw-rules profile name)."""
    options = AuditOptions(variant, rules)
    return check_paths(paths, options, jobs=jobs, dask=dask, dask_wait=dask_wait, on_wait=on_wait)


def map_paths(
    paths: Iterable[str],
    work: Callable[[list[Span]], list[T]],
    *,
    jobs: int = 1,
    dask: str | None = None,
    dask_wait: float = DASK_WAIT,
    on_wait: Callable[[str], object] | None = None,
) -> Iterator[T | PathError]:
    """``work`` applied to the spans of every path in chunks, its results yielded in input
    order, with a ``PathError`` for each path that cannot be read. ``work`` must be picklable
    (a module-level function or a ``functools.partial`` of one) when ``jobs`` != 1 or with
    ``dask``; ``jobs`` and ``dask`` as for ``check_paths``. A Dask cluster without a worker
    is waited for ``dask_wait`` seconds at most, ``on_wait`` told first (one line of words).
    Raises ``WorkerLostError`` when a local worker process dies, ``RuntimeError`` when Dask
    cannot be used (no package, a bad address, no worker in time)."""
    chunks = _chunks(paths)
    if dask is not None:
        with _dask_client(dask) as client:
            workers = _dask_workers(client, dask, dask_wait, on_wait)

            def submit(chunk: list[Span]) -> Any:
                return client.submit(work, chunk, pure=False)

            yield from _run_ordered(chunks, submit, workers)
    elif jobs == 1:
        for chunk in chunks:
            yield from [chunk] if isinstance(chunk, PathError) else work(chunk)
    else:
        workers = jobs if jobs > 0 else (os.cpu_count() or 1)
        pool = ProcessPoolExecutor(
            max_workers=workers, initializer=_end_with_parent, initargs=(os.getpid(),)
        )
        try:
            yield from _run_ordered(chunks, lambda chunk: pool.submit(work, chunk), workers)
        except BaseException as error:  # a lost worker, SIGTERM (as SystemExit), Ctrl-C, a
            # consumer that stops early
            pool.shutdown(wait=False, cancel_futures=True)
            # end the workers now rather than after their current chunk (the pool has no
            # public way before Python 3.14's terminate_workers)
            for process in list((getattr(pool, "_processes", None) or {}).values()):
                process.terminate()
            if isinstance(error, BrokenProcessPool):
                raise WorkerLostError from None
            raise
        pool.shutdown()


#: Seconds between a worker's checks that its parent is still alive.
PARENT_POLL = 0.5


def _end_with_parent(parent: int) -> None:
    """Worker initializer: end this process when ``parent`` is gone (killed, even by SIGKILL,
    which leaves no chance to clean up), so no worker outlives the batch. A daemon thread
    polls the parent id every ``PARENT_POLL`` seconds; no cost to the work itself. Ctrl-C,
    which a terminal sends to every process of the run, is ignored here: the parent alone
    unwinds and ends the workers (no traceback per worker). SIGTERM ends a worker at once
    (the parent's handler, inherited by a forked worker, would turn it into an exception that
    the pool sends back through a pipe nobody reads once a worker is lost: a hang)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_POLL)
        os._exit(1)

    threading.Thread(target=watch, name="pdn-parent-watch", daemon=True).start()


def _chunks(paths: Iterable[str]) -> Iterator[list[Span] | PathError]:
    """Spans of every path (directories expanded) in chunks of ``CHUNK_GAMES``; an unreadable
    path yields its ``PathError`` (a ``NotPdnPathError`` for a file that is no PDN text) and the
    next path follows."""
    for path in walk_paths(paths):
        if isinstance(path, PathError):
            yield path
            continue
        try:
            spans = iter_spans(path)
            while chunk := list(islice(spans, CHUNK_GAMES)):
                yield chunk
        except NotPdnError as error:
            yield NotPdnPathError(path, error.message, finding=error.finding())
        except OSError as error:
            yield PathError(path, error.strerror or str(error))


def _run_ordered(
    chunks: Iterator[list[Span] | PathError],
    submit: Callable[[list[Span]], Any],
    workers: int,
) -> Iterator[Any]:
    """Submit chunks (``submit`` returns a future with ``.result()``) with at most
    ``workers * CHUNKS_PER_WORKER`` in flight; yield the reports in submission order."""
    pending: deque[Any] = deque()
    limit = workers * CHUNKS_PER_WORKER
    for chunk in chunks:
        pending.append(chunk if isinstance(chunk, PathError) else submit(chunk))
        while len(pending) >= limit:
            yield from _reports(pending.popleft())
    while pending:
        yield from _reports(pending.popleft())


def _reports(item: Any) -> list[Any]:
    """The reports of a finished future, or a one-item list for a ``PathError``."""
    return [item] if isinstance(item, PathError) else list(item.result())


def _dask_client(address: str) -> Any:
    """A ``distributed.Client`` for ``address`` (needs the ``dask`` extra)."""
    try:
        from distributed import Client
    except ImportError as error:  # depends on the environment
        raise RuntimeError(
            "--dask needs the 'distributed' package: pip install 'pdn[dask]'"
        ) from error
    try:
        return Client(address)
    except ValueError as error:  # "not a url", an unknown scheme such as http://, no port
        raise RuntimeError(f"--dask {address!r} is not a scheduler address: {error}") from None


def _dask_workers(
    client: Any, address: str, wait: float, on_wait: Callable[[str], object] | None
) -> int:
    """The number of workers of ``client``'s cluster; when it has none, ``on_wait`` is told and
    a first one is waited for ``wait`` seconds at most (``RuntimeError`` if none came)."""
    workers = len(client.scheduler_info().get("workers", {}))
    if workers:
        return workers
    if on_wait is not None:
        on_wait(f"waiting for Dask workers at {address}...")
    try:
        client.wait_for_workers(1, timeout=wait)
    except TimeoutError:
        raise RuntimeError(
            f"no Dask worker joined {address} in {wait:g} s (start one: dask worker {address})"
        ) from None
    return max(1, len(client.scheduler_info().get("workers", {})))
