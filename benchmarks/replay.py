"""Replay speed: pdn vs py-draughts and pydraughts on the same corpus games, in one run.

Run from the repository root (the corpus is ../shared/corpus):

    benchmarks/.venv-peers/bin/python benchmarks/replay.py            # best of 3
    benchmarks/.venv-peers/bin/python benchmarks/replay.py --repeat 5 --slow-plies 3000
    .venv/bin/python benchmarks/replay.py --profile                   # where audit's time goes
    benchmarks/.venv-peers/bin/python benchmarks/replay.py --compiled .ci/venv-compiled/bin/python

The games: main lines of the International, Russian and Brazilian corpus files that start
from the initial position and that pdn replays without an irregular move (so every library
gets the same legal plies). Reading is done once, before any timing. Columns are plies/s per
CPU second (``time.process_time``: other load on the machine counts less), best of
``--repeat`` runs, one core:
  pdn audit            ``audit(game)``: variant detection, replay, every finding (``pdn check``
                       without reading and printing);
  pdn resolve+play     the bare loop ``position = position.play(resolve(position, text).move)``;
  py-draughts          ``board.push_uci(text)`` on a fresh board per game;
  pydraughts           ``board.push(Move(board, pdn_move=text))``; it is slow, so it replays
                       only the first games, up to ``--slow-plies`` plies per variant.
pdn replays the texts as written in the files; the peers get each move as pdn resolved it,
written ``from-to``/``fromxto`` in the variant's notation (the full path only where that is
ambiguous), since neither reads Russian short forms (``gf4``); py-draughts gets its own square
numbers for algebraic squares. This rewriting happens before any timing.
Plies a peer refuses (it raises) end that game for it and are counted in the notes.
The peers run in ``benchmarks/.venv-peers`` (``bash benchmarks/setup-peers.sh``) through a
subprocess; without it the pdn numbers are printed alone.
``--compiled PYTHON`` also times pdn's two rows in a subprocess of ``PYTHON``, an interpreter
with the compiled build installed (``tools/build_compiled.py``; ``.ci/run`` leaves one in
``.ci/venv-compiled``), rows marked ``(compiled)``: both builds in one run, same games.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import subprocess
import sys
import tempfile
from functools import partial
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from typing import TYPE_CHECKING

from timing import best_of

if TYPE_CHECKING:
    from pdn.engine.variants import Variant
    from pdn.game.record import Game

HERE = Path(__file__).resolve().parent
CORPUS = HERE.parent.parent / "shared" / "corpus"
PEERS = HERE / ".venv-peers"
FILES = {
    "international": (
        "rhalbersma/mobydam/*.pdn",
        "mig0/Games-Checkers/data__games__internt__*.pdn",
        "miskibin/py-draughts/test__games__standard__*.pdn",
    ),
    "russian": (
        "mig0/Games-Checkers/data__games__russian__*.pdn",
        "wiegerw/pdn/games__succeed__ussr1947.pdn",
        "miskibin/py-draughts/test__games__russian__*.pdn",
    ),
    "brazilian": ("miskibin/py-draughts/test__games__brazilian__*.pdn",),
}
#: Move texts of each variant's games: {variant: [[move text, ...] per game]}.
Moves = dict[str, list[list[str]]]


def load_games() -> tuple[dict[str, list[Game]], Moves]:
    """Per variant, the corpus games pdn detects as that variant and replays cleanly from
    the initial position along their main line, and their moves as the peers get them."""
    from pdn.arbiter.detect import detect_variant
    from pdn.pdnfile.reader import read_games

    games: dict[str, list[Game]] = {name: [] for name in FILES}
    peer_moves: Moves = {name: [] for name in FILES}
    for wanted, patterns in FILES.items():
        for path in sorted(p for pattern in patterns for p in CORPUS.glob(pattern)):
            for game in read_games(path):
                variant, _ = detect_variant(game)
                texts = _canonical_moves(game, variant) if variant.name == wanted else None
                if texts:
                    games[wanted].append(game)
                    peer_moves[wanted].append(texts)
    return games, peer_moves


def _canonical_moves(game: Game, variant: Variant) -> list[str] | None:
    """The main line's moves written ``from-to``/``fromxto`` in the variant's notation (the
    full path where that is ambiguous), or None when the game does not start from the
    initial position or has a move pdn does not resolve as legal."""
    from pdn.engine.position import Position
    from pdn.engine.resolve import resolve

    position = start = Position.initial(variant)
    fen = game.headers.get("FEN")
    if game.setup or (fen is not None and Position.from_fen(fen, variant) != start):
        return None
    texts = []
    for node in game.mainline():
        if node.setup or not node.move_text:
            return None
        resolution = resolve(position, node.move_text)
        if resolution.code is not None or resolution.move is None:
            return None
        move = resolution.move
        short = move.notation(variant.board, variant.default_notation)
        if resolve(position, short).code is not None:
            short = move.notation(variant.board, variant.default_notation, full=True)
        texts.append(short)
        position = position.play(move)
    return texts or None


def move_texts(games: dict[str, list[Game]]) -> Moves:
    """The main-line move texts as written in the files."""
    return {
        name: [[node.move_text or "" for node in game.mainline()] for game in group]
        for name, group in games.items()
    }


def pdn_rows(games: dict[str, list[Game]], repeat: int) -> dict[str, dict[str, list[object]]]:
    """{row: {variant: [plies, seconds, note]}} for pdn's audit and its bare replay loop."""
    texts = move_texts(games)
    rows: dict[str, dict[str, list[object]]] = {"pdn audit": {}, "pdn resolve+play": {}}
    for name, group in games.items():
        plies = sum(len(moves) for moves in texts[name])
        _, seconds = best_of(repeat, partial(audit_all, group))
        rows["pdn audit"][name] = [plies, seconds, ""]
        rows["pdn resolve+play"][name] = [
            *best_of(repeat, partial(replay_all, name, texts[name])),
            "",
        ]
    return rows


def audit_all(games: list[Game]) -> int:
    """Audit every game (what ``pdn check`` does after reading); the number of findings."""
    from pdn.arbiter.replay import audit

    return sum(len(audit(game)) for game in games)


def replay_all(name: str, games: list[list[str]]) -> int:
    """Resolve and play every move text from the initial position; the plies played."""
    from pdn.engine.position import Position
    from pdn.engine.resolve import resolve
    from pdn.engine.variants import VARIANTS

    variant = VARIANTS[name]
    count = 0
    for texts in games:
        position = Position.initial(variant)
        for text in texts:
            move = resolve(position, text).move
            assert move is not None
            position = position.play(move)
            count += 1
    return count


def py_draughts_main(moves: Moves, repeat: int) -> dict[str, list[object]]:
    """Runs inside the peers' venv with py-draughts importable as ``draughts``."""
    import draughts  # type: ignore[import-not-found]
    from loguru import logger  # type: ignore[import-not-found]

    logger.remove()  # it logs every refused move
    boards = {
        "international": draughts.StandardBoard,
        "russian": draughts.RussianBoard,
        "brazilian": draughts.BrazilianBoard,
    }
    found: dict[str, list[object]] = {}
    for name, games in moves.items():
        board_class = boards[name]
        numbers = {square: index for index, square in enumerate(board_class.SQUARE_NAMES)}
        games = [[_numeric(text, numbers) for text in game] for game in games]
        refused = 0

        def replay(board_class: type = board_class, games: list[list[str]] = games) -> int:
            nonlocal refused
            refused = count = 0
            for game in games:
                board = board_class()
                for text in game:
                    try:
                        board.push_uci(text)
                    except Exception:  # noqa: BLE001 - a peer's refusal is data here
                        refused += 1
                        break
                    count += 1
            return count

        plies, seconds = best_of(repeat, replay)
        found[name] = [plies, seconds, f"{refused} games refused a move" if refused else ""]
    return found


def _numeric(text: str, numbers: dict[str, int]) -> str:
    """py-draughts' own square numbers for a move text (``c3:e5`` -> ``22x15``)."""
    text = text.replace(":", "x")
    if not text[:1].isalpha():
        return text
    separator = "x" if "x" in text else "-"
    return separator.join(str(numbers[square] + 1) for square in text.split(separator))


def pydraughts_main(moves: Moves, repeat: int, slow_plies: int) -> dict[str, list[object]]:
    """Runs inside the peers' venv with pydraughts first on the path."""
    from draughts import Board, Move  # type: ignore[import-not-found]

    found: dict[str, list[object]] = {}
    for name, games in moves.items():
        subset: list[list[str]] = []
        for game in games:
            if sum(map(len, subset)) >= slow_plies:
                break
            subset.append(game)
        refused = 0

        def replay(name: str = name, subset: list[list[str]] = subset) -> int:
            nonlocal refused
            refused = count = 0
            for game in subset:
                board = Board(variant="standard" if name == "international" else name)
                for text in game:
                    try:
                        board.push(Move(board, pdn_move=text))
                    except Exception:  # noqa: BLE001 - a peer's refusal is data here
                        refused += 1
                        break
                    count += 1
            return count

        plies, seconds = best_of(max(1, repeat // 3), replay)
        note = f"first {len(subset)} of {len(games)} games"
        found[name] = [plies, seconds, note + (f"; {refused} refused a move" if refused else "")]
    return found


def compiled_rows(python: str, repeat: int) -> dict[str, dict[str, list[object]]]:
    """pdn's rows timed by ``python``, which must import the compiled build (it loads the same
    games itself; loading is not timed). PYTHONPATH is not passed on: it would put a source
    tree before the compiled package."""
    command = [python, __file__, "--pdn-rows", "--repeat", str(repeat)]
    env = {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    if done.returncode:
        sys.exit(f"--compiled {python} failed: {done.stderr.strip().splitlines()[-1:]}")
    found = json.loads(done.stdout)
    if not found["module"].endswith(tuple(EXTENSION_SUFFIXES)):
        sys.exit(f"--compiled {python} imports the pure code ({found['module']})")
    return {f"{row} (compiled)": by_variant for row, by_variant in found["rows"].items()}


def peer_rows(moves: Moves, repeat: int, slow_plies: int) -> dict[str, dict[str, list[object]]]:
    python = PEERS / "bin" / "python"
    if not python.exists():
        print("(no benchmarks/.venv-peers: run bash benchmarks/setup-peers.sh)", file=sys.stderr)
        return {}
    rows: dict[str, dict[str, list[object]]] = {}
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder) / "moves.json"
        data.write_text(json.dumps(moves))
        for peer in ("py-draughts", "pydraughts"):
            env = dict(os.environ)
            if peer == "pydraughts":
                env["PYTHONPATH"] = str(PEERS / "pydraughts")
            command = [
                str(python),
                __file__,
                "--peer",
                peer,
                "--repeat",
                str(repeat),
                "--slow-plies",
                str(slow_plies),
                str(data),
            ]
            done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
            if done.returncode:
                print(f"({peer} failed: {done.stderr.strip().splitlines()[-1:]})", file=sys.stderr)
                continue
            rows[peer] = json.loads(done.stdout)
    return rows


def table(rows: dict[str, dict[str, list[object]]], repeat: int) -> None:
    base = rows["pdn audit"]
    print(f"plies per CPU second, best of {repeat}; x audit = plies/s / pdn audit's plies/s")
    print(f"{'replayer':28} {'variant':14} {'plies':>7} {'plies/s':>9} {'x audit':>7}  notes")
    for row, by_variant in rows.items():
        for name, (plies, seconds, note) in by_variant.items():
            assert isinstance(plies, int) and isinstance(seconds, float)
            rate = plies / seconds if seconds else float("inf")
            audit_plies, audit_seconds = base[name][0], base[name][1]
            assert isinstance(audit_plies, int) and isinstance(audit_seconds, float)
            ratio = rate / (audit_plies / audit_seconds)
            print(f"{row:28} {name:14} {plies:7d} {rate:9.0f} {ratio:7.2f}  {note}")


def profile(games: dict[str, list[Game]]) -> None:
    profiler = cProfile.Profile()
    profiler.enable()
    for group in games.values():
        audit_all(group)
    profiler.disable()
    pstats.Stats(profiler).sort_stats("tottime").print_stats(20)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--slow-plies",
        type=int,
        default=2000,
        help="plies per variant pydraughts replays (it is slow)",
    )
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--no-peers", action="store_true", help="time pdn alone")
    parser.add_argument(
        "--compiled",
        metavar="PYTHON",
        help="also time pdn with this interpreter, which has the compiled build installed",
    )
    parser.add_argument("--pdn-rows", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--peer", choices=("pydraughts", "py-draughts"), help=argparse.SUPPRESS)
    parser.add_argument("moves", nargs="?", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.peer:
        moves = json.loads(Path(args.moves).read_text())
        if args.peer == "py-draughts":
            print(json.dumps(py_draughts_main(moves, args.repeat)))
        else:
            print(json.dumps(pydraughts_main(moves, args.repeat, args.slow_plies)))
        return
    if not CORPUS.is_dir():
        sys.exit(f"corpus not found at {CORPUS}")
    games, peer_moves = load_games()
    if args.profile:
        profile(games)
        return
    rows = pdn_rows(games, args.repeat)
    if args.pdn_rows:
        import pdn.engine.position

        print(json.dumps({"module": pdn.engine.position.__file__, "rows": rows}))
        return
    if args.compiled:
        rows.update(compiled_rows(args.compiled, args.repeat))
    if not args.no_peers:
        rows.update(peer_rows(peer_moves, args.repeat, args.slow_plies))
    table(rows, args.repeat)


if __name__ == "__main__":
    main()
