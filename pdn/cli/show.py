"""`pdn show`: draw a game — header, boards at chosen plies, annotated moves, findings."""

from __future__ import annotations

import argparse
import itertools
import sys
from typing import TYPE_CHECKING, Any

from pdn.cli import arguments
from pdn.cli.exitcodes import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, path_error

if TYPE_CHECKING:
    from pdn.views.boardview import BoardView
    from pdn.views.svgboard import Diagram

EXAMPLES = """\
examples:
  pdn show games.pdn                      the first game, final position
  pdn show games.pdn --game 3 --ply 20    game 3 after ply 20 (ply 0 = the start)
  pdn show games.pdn --plies 10,20,30     three boards side by side
  pdn show games.pdn --all --flip         every position, Black at the bottom
  pdn show games.pdn --notation algebraic --svg game.svg
  pdn show games.pdn --plies 10,20 --svg-terminal view.svg   the terminal view as SVG
  cat games.pdn | pdn show -              read standard input

The last move is highlighted (in plain text: its destination in [brackets], the squares it
passed '+', captured pieces '×'). Findings of the audit are marked at their ply: [n].
Exit code 1 when the game shown has findings of severity error, 2 for usage or I/O problems.
"""


def add_parser(subparsers: Any, summary: str) -> None:
    """Register `pdn show`."""
    parser = arguments.add_verb(
        subparsers,
        "show",
        run,
        summary=summary,
        description="Draw one game of a PDN file: header, board(s), move list with comments, "
        "variations and the audit's findings at their ply.",
        examples=EXAMPLES,
    )
    arguments.add_input(parser, "show draws one game of one file (--game N counts in it)")
    arguments.add_number(parser, "--game", "which game (1-based, default 1)", default=1)
    which = parser.add_mutually_exclusive_group()
    arguments.add_number(which, "--ply", "the position after ply N (0: the start)", minimum=0)
    which.add_argument(
        "--plies",
        type=arguments.number_list(arguments.count),
        metavar="P,Q,...",
        help="several positions side by side",
    )
    which.add_argument("--all", action="store_true", help="every position of the main line")
    parser.add_argument("--flip", action="store_true", help="turn the board (Black at the bottom)")
    parser.add_argument(
        "--notation",
        choices=("numeric", "algebraic"),
        help="squares and moves as numbers or a1..h8 (default: the variant's own)",
    )
    arguments.add_variant(parser, "rule set, overriding the game's GameType")
    parser.add_argument(
        "--glyphs",
        choices=("auto", "unicode", "ascii"),
        default="auto",
        help="pieces as discs (● ◉, without colour ○ ◎ ● ◉) or letters w W b B "
        "(default: discs when the output can show them)",
    )
    parser.add_argument(
        "--svg",
        metavar="OUT",
        help="write the board diagrams (squares, pieces, the last move as an arrow) as one SVG "
        "picture to OUT ('-': stdout) instead of text",
    )
    parser.add_argument(
        "--svg-terminal",
        metavar="OUT",
        help="write the whole terminal view (header, boards, moves, findings) as an SVG "
        "screenshot to OUT ('-': stdout)",
    )


def diagram(board: BoardView) -> Diagram:
    """The SVG diagram of a terminal board view: same pieces, squares, last move, caption."""
    from pdn.views.svgboard import Arrow, Diagram

    last = board.last_move
    return Diagram(
        board.board,
        board.pieces,
        notation=board.notation,
        flip=board.flip,
        arrows=[Arrow(last.path, last.captures)] if last is not None else [],
        highlight=(last.path[0], last.path[-1]) if last is not None else (),
        caption=board.caption,
    )


def _fail(message: str) -> int:
    print(f"pdn show: {message}", file=sys.stderr)
    return EXIT_USAGE


def run(args: argparse.Namespace) -> int:
    """Read game ``--game`` of PATH and draw it; exit 2 on usage or I/O problems."""
    from rich.console import Console

    from pdn.base.output import InputOverwriteError, atomic_output, refuse_inputs
    from pdn.engine.variants import Variant
    from pdn.pdnfile.reader import read_games
    from pdn.views.gameview import GameView
    from pdn.views.render import export_svg
    from pdn.views.svgboard import sheet

    try:
        refuse_inputs({"--svg": args.svg, "--svg-terminal": args.svg_terminal}, [args.path])
    except InputOverwriteError as error:
        return _fail(str(error))
    variant = Variant.from_name(args.variant) if args.variant else None
    source = args.path  # "-" is stdin
    try:
        game = next(itertools.islice(read_games(source), args.game - 1, None), None)
    except OSError as error:
        return path_error("show", error, args.path)
    if game is None:
        return _fail(f"{args.path} has no game {args.game}")
    view = GameView(
        game, variant=variant, flip=args.flip, notation=args.notation, glyphs=args.glyphs
    )
    if args.all:
        plies = list(range(view.last_ply + 1))
    elif args.plies is not None or args.ply is not None:
        plies = args.plies if args.plies is not None else [args.ply]
    else:
        plies = view.plies
    if plies and view.last_ply < 0:
        return _fail(f"game {args.game} has no position to show: {view.replay.stopped}")
    outside = [ply for ply in plies if not 0 <= ply <= view.last_ply]
    if outside:
        return _fail(
            f"game {args.game} has positions for plies 0..{view.last_ply} only, "
            f"not {', '.join(map(str, outside))}"
        )
    view.plies = plies
    if args.svg or args.svg_terminal:
        target = args.svg or args.svg_terminal
        svg = (
            sheet([diagram(view.board_at(ply)) for ply in plies], title=view.title())
            if args.svg
            else export_svg(view, title=view.title())
        )
        try:
            with atomic_output(target) as stream:
                stream.write(svg)
        except OSError as error:
            return _fail(f"cannot write {target}: {error.strerror or error}")
    else:
        Console(highlight=False).print(view)
    return EXIT_FINDINGS if any(f.severity == "error" for f in view.findings) else EXIT_OK
