"""Check many files and many games: in this process, on local processes, or on a Dask cluster.

The unit of work is a chunk of game spans from ``pdn.pdnfile.scan`` (text plus where it came from).
A span is parsed and audited where it lands (``pdn.pdnfile.reader.parse_span`` + ``audit_game``), so
only small spans and small reports (``GameReport``) cross process or machine boundaries. Every
mode yields reports in input order and keeps a bounded number of chunks in flight, so memory
stays flat in the size of the input whatever the number of workers.

``check_paths`` on workers sends a big UTF-8 file as pieces of raw bytes instead (``Piece``, about
``PIECE_BYTES`` each, cut before a tag line that follows a blank line): the worker scans, reads and
audits its piece, and this process only reads bytes, counts lines and renumbers the games. A
piece whose end is not between games (an open comment or header there) is checked again joined
with the next one, so the reports are those of ``jobs=1``, byte for byte.
"""

from __future__ import annotations

import codecs
import os
import re
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from itertools import islice
from typing import TYPE_CHECKING, Any, TypeVar

from pdn.base.findings import Finding
from pdn.base.paths import PathError, walk_paths
from pdn.engine.errors import PdnError

if TYPE_CHECKING:
    from pdn.game.record import Game
    from pdn.pdnfile.span import Span, TextStart

T = TypeVar("T")
A = TypeVar("A")

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
    from pdn.arbiter.replay import audited

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
    from pdn.pdnfile.reader import parse_span

    return [audit_game(parse_span(span), options) for span in spans]


#: Bytes read per piece: a piece is cut at the first cut past half of it (0.5-1 MB, about 750 to
#: 1,500 games); a file under twice this goes as chunks of spans.
PIECE_BYTES = 1 << 20
# Where a piece may end: a blank line, then a tag line (``[Name "``). A scan of the whole file
# starts a game there unless a game is still open (a ``{`` comment stops before such a line; a
# header-only game or a prelude comment before a tag is open: the piece is checked again joined
# with the next, ``_check_ordered``).
_PIECE_CUT = re.compile(rb'\n\r?\n(?=\[[A-Za-z]\w*[ \t]*")')


@dataclass(frozen=True)
class Piece:
    """Bytes of a UTF-8 file from a line start (``start``; None: the file's start) to a piece
    cut or the file's end (``last``)."""

    file: str
    data: bytes
    start: TextStart | None
    last: bool


def check_piece(piece: Piece, options: AuditOptions) -> tuple[list[GameReport], bool]:
    """The reports of a piece's games (numbered from 1 in the piece) and whether the piece
    ended between games (``pdn.pdnfile.scan.spans_of_piece``). Runs inside workers."""
    from pdn.pdnfile.scan import spans_of_piece

    spans, between = spans_of_piece(piece.data, name=piece.file, start=piece.start)
    return check_spans(spans, options), between


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
    if jobs == 1 and dask is None:
        return map_paths(paths, work, jobs=jobs)
    with_pieces = partial(check_piece, options=options)

    def run(submit: Callable[[Any, Any], Any], workers: int) -> Iterator[GameReport | PathError]:
        return _check_ordered(paths, lambda item: submit(work, item), submit, with_pieces, workers)

    return _on_workers(run, jobs=jobs, dask=dask, dask_wait=dask_wait, on_wait=on_wait)


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
    if jobs == 1 and dask is None:
        for chunk in chunks:
            yield from [chunk] if isinstance(chunk, PathError) else work(chunk)
        return

    def run(submit: Callable[[Any, Any], Any], workers: int) -> Iterator[T | PathError]:
        return _run_ordered(chunks, lambda chunk: submit(work, chunk), workers)

    yield from _on_workers(run, jobs=jobs, dask=dask, dask_wait=dask_wait, on_wait=on_wait)


def worker_count(jobs: int) -> int:
    """Processes ``jobs`` asks for: itself, or every core for 0."""
    return jobs if jobs > 0 else (os.cpu_count() or 1)


def map_on_workers(work: Callable[[A], T], items: Sequence[A], *, jobs: int) -> list[T]:
    """``[work(item) for item in items]`` computed on ``jobs`` local processes (0: every core),
    in order. ``work`` and the items must be picklable; raises ``WorkerLostError`` when a
    worker process dies."""

    def run(submit: Callable[[Any, Any], Any], _workers: int) -> Iterator[T]:
        futures = [submit(work, item) for item in items]
        return (future.result() for future in futures)

    return list(_on_workers(run, jobs=jobs, dask=None, dask_wait=DASK_WAIT, on_wait=None))


def _on_workers(
    run: Callable[[Callable[[Any, Any], Any], int], Iterator[T]],
    *,
    jobs: int,
    dask: str | None,
    dask_wait: float,
    on_wait: Callable[[str], object] | None,
) -> Iterator[T]:
    """``run(submit, workers)`` on a Dask cluster (``dask``: its address) or on ``jobs`` local
    processes (0 = all cores); ``submit(function, argument)`` returns a future. The errors as
    ``map_paths`` says."""
    if dask is not None:
        with _dask_client(dask) as client:
            workers = _dask_workers(client, dask, dask_wait, on_wait)

            def submit(function: Any, argument: Any) -> Any:
                return client.submit(function, argument, pure=False)

            yield from run(submit, workers)
    else:
        from concurrent.futures import ProcessPoolExecutor
        from concurrent.futures.process import BrokenProcessPool

        workers = worker_count(jobs)
        pool = ProcessPoolExecutor(
            max_workers=workers, initializer=_end_with_parent, initargs=(os.getpid(),)
        )
        try:
            yield from run(pool.submit, workers)
        except BaseException as error:  # a lost worker, SIGTERM (as SystemExit), Ctrl-C, a
            # consumer that stops early. End the workers now rather than after their current
            # work (a piece takes seconds): the pool has no public way before Python 3.14's
            # terminate_workers, and its shutdown forgets them, so they are taken first.
            processes = list((getattr(pool, "_processes", None) or {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for process in processes:
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
        yield from [path] if isinstance(path, PathError) else _chunks_of(path)


def _chunks_of(path: str) -> Iterator[list[Span] | PathError]:
    """``_chunks`` of one file."""
    from pdn.pdnfile.scan import iter_spans
    from pdn.pdnfile.verdict import NotPdnError

    try:
        spans = iter_spans(path)
        while chunk := list(islice(spans, CHUNK_GAMES)):
            yield chunk
    except NotPdnError as error:
        yield NotPdnPathError(path, error.message, finding=error.finding())
    except OSError as error:
        yield PathError(path, error.strerror or str(error))


def _work_items(paths: Iterable[str]) -> Iterator[Piece | list[Span] | PathError]:
    """``_chunks``, but each file that ``_cuttable`` passes as ``Piece`` s."""
    for path in walk_paths(paths):
        if isinstance(path, PathError):
            yield path
        elif _cuttable(path):
            yield from _pieces(path)
        else:
            yield from _chunks_of(path)


def _cuttable(path: str) -> bool:
    """Whether ``path`` goes to workers as pieces: at least two pieces long, PDN text (as
    ``pdn.pdnfile.verdict`` judges its head), valid UTF-8 throughout (the scanner then carries
    no decoding state from game to game) and a piece cut in every ``PIECE_BYTES`` of it. One
    read of the file, decoding only; False when it cannot be read (the chunks then report it)."""
    from pdn.pdnfile.verdict import HEAD_BYTES, not_pdn

    try:
        with open(path, "rb") as stream:
            if os.fstat(stream.fileno()).st_size < 2 * PIECE_BYTES:
                return False
            utf8 = codecs.getincrementaldecoder("utf-8")()
            block = stream.read(PIECE_BYTES)
            if not_pdn(block[:HEAD_BYTES]) is not None or block.startswith(codecs.BOM_UTF16):
                return False
            while block:
                utf8.decode(block)
                following = stream.read(PIECE_BYTES)
                if following and _PIECE_CUT.search(block) is None:
                    return False
                block = following
            utf8.decode(b"", final=True)
    except (OSError, UnicodeDecodeError):
        return False
    return True


def _pieces(path: str) -> Iterator[Piece | PathError]:
    """``path`` (``_cuttable``) as pieces, each cut at the first ``_PIECE_CUT`` past half of
    ``PIECE_BYTES``, with where it starts. Reads the bytes once; counts lines and characters."""
    from pdn.pdnfile.span import TextStart

    start: TextStart | None = None
    line, char, byte = 1, 0, 0
    try:
        with open(path, "rb") as stream:
            held, ended = b"", False
            while True:
                cut = _PIECE_CUT.search(held, PIECE_BYTES // 2)
                if not ended and (cut is None or len(held) < PIECE_BYTES):
                    data = stream.read(PIECE_BYTES)
                    held, ended = held + data, not data
                    continue
                piece, held = (held[: cut.end()], held[cut.end() :]) if cut else (held, b"")
                yield Piece(path, piece, start, last=ended and not held)
                if ended and not held:
                    return
                text = piece.decode("utf-8-sig" if start is None else "utf-8")
                line += piece.count(b"\n") + piece.count(b"\r") - piece.count(b"\r\n")
                char, byte = char + len(text), byte + len(piece)
                start = TextStart(line, char, byte)
    except OSError as error:
        yield PathError(path, error.strerror or str(error))


def _check_ordered(
    paths: Iterable[str],
    submit_chunk: Callable[[list[Span]], Any],
    submit: Callable[[Any, Any], Any],
    check_one: Callable[[Piece], tuple[list[GameReport], bool]],
    workers: int,
) -> Iterator[GameReport | PathError]:
    """``_run_ordered`` over ``_work_items``: each piece's games renumbered in its file, a
    piece that did not end between games checked again (``check_one``) joined with the next."""
    pending: deque[tuple[Any, Any]] = deque()
    limit = workers * CHUNKS_PER_WORKER
    games = 0  # games of the current file before the piece being settled
    carried: Piece | None = None  # a piece not ended between games, to join to the next

    def settle(item: Any, future: Any) -> list[Any]:
        nonlocal games, carried
        if not isinstance(item, Piece):
            return [item] if future is None else list(future.result())
        reports: list[GameReport]
        reports, between = future.result()
        if carried is not None:
            item = Piece(item.file, carried.data + item.data, carried.start, item.last)
            carried = None
            reports, between = submit(check_one, item).result()
        if item.start is None:
            games = 0
        if not between and not item.last:
            carried = item
            return []
        for report in reports:
            _renumber(report, games)
        games += len(reports)
        return reports

    for item in _work_items(paths):
        if isinstance(item, PathError):
            pending.append((item, None))
        elif isinstance(item, Piece):
            pending.append((item, submit(check_one, item)))
        else:
            pending.append((item, submit_chunk(item)))
        while len(pending) >= limit:
            yield from settle(*pending.popleft())
    while pending:
        yield from settle(*pending.popleft())


def _renumber(report: GameReport, games: int) -> None:
    """``report`` (and its findings) of a game numbered in its piece, numbered in its file."""
    if games:
        report.game += games
        report.findings = [
            finding if finding.game is None else finding.located(game=finding.game + games)
            for finding in report.findings
        ]


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
