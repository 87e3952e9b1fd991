"""Game records out: PDN text (numeric or algebraic, wrapped) and JSON objects.

``write_game`` is lossless by default: ``read_game(write_game(game)).same_record(game)``
(moves, move numbers, comments, NAGs, strengths, setups, variations, tags and terminator as
recorded).
Options convert on the way out: ``notation`` rewrites squares and capture separators for the
variant's board, ``move_numbers="renumber"`` writes standard numbers, ``results="variant"``
spells results in the variant's own style (never changing who won). Rewritten moves come from
the audit's one replay (``pdn.arbiter.replay.played_moves``), so a dialect (playstrategy.org) is
read as the audit reads it. Games that could not be parsed (``game.raw``) are written back verbatim.
Every walk is a loop with an explicit stack: 5,000-ply games and 200-deep variations are fine. Cost:
O(size of the record), plus one replay when moves are rewritten. A game's PDN text is
``pdn.pdnfile.pdntext`` and its per-move loops are ``pdn.pdnfile.movetext`` and
``pdn.pdnfile.movejson`` (all three compiled in the compiled build); this module checks the
arguments of the public functions, writes the JSON of a game and re-exports ``MoveRewriter``,
``convert_move_text``, ``convert_fen_text``, ``escape_tag_value``, ``variant_of``, ``moves_to_json``
and ``moves_json_text``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import IO, TYPE_CHECKING, Any, Literal, get_args

from pdn.engine.geometry import NOTATIONS, Notation
from pdn.engine.variants import as_variant
from pdn.game.tags import winner
from pdn.pdnfile.movejson import moves_json_text, moves_to_json
from pdn.pdnfile.movetext import MoveRewriter, convert_fen_text, convert_move_text
from pdn.pdnfile.pdntext import escape_tag_value, record_text, variant_of

if TYPE_CHECKING:
    from pdn.arbiter.replay import PlayedMoves, Replay
    from pdn.engine.variants import Variant
    from pdn.game.record import Game, GameNode

__all__ = [
    "Captures",
    "MoveNumbers",
    "MoveRewriter",
    "Results",
    "convert_fen_text",
    "convert_move_text",
    "escape_tag_value",
    "game_json_text",
    "game_to_json",
    "json_text",
    "moves_in_notation",
    "moves_json_text",
    "moves_to_json",
    "rewritten_moves",
    "variant_of",
    "write_game",
    "write_games",
]

Captures = Literal["short", "full"]
MoveNumbers = Literal["keep", "renumber"]
Results = Literal["keep", "variant"]
# the values of each option of ``write_game``, read from the Literals once (not per game)
_CAPTURES_VALUES: tuple[Captures, ...] = get_args(Captures)
_MOVE_NUMBERS_VALUES: tuple[MoveNumbers, ...] = get_args(MoveNumbers)
_RESULTS_VALUES: tuple[Results, ...] = get_args(Results)


# -- PDN text ---------------------------------------------------------------------------------
def rewritten_moves(
    game: Game, variant: Variant | str, notation: Notation | None, *, full: bool
) -> dict[GameNode, str]:
    """``node -> move text`` for every move of the tree, as the audit replays it
    (``pdn.arbiter.replay.played_moves``, read as ``variant``): see ``moves_in_notation``. Cost: one
    replay without findings, plus one legal-move generation per capture."""
    from pdn.arbiter.replay import played_moves

    replayed = played_moves(game, variant=variant, exact=True)
    return moves_in_notation(game, replayed, notation, full=full)


def moves_in_notation(
    game: Game,
    replayed: Replay | PlayedMoves,
    notation: Notation | None,
    *,
    full: bool,
    board_squares: bool = False,
) -> dict[GameNode, str]:
    """``node -> move text`` for every move of ``game`` from its replay, as
    ``MoveRewriter.text`` writes it. O(nodes), plus one capture search per replayed capture
    written short over several jumps."""
    rewriter = MoveRewriter(replayed, notation, full=full, board_squares=board_squares)
    return {node: rewriter.text(node) for node in game.walk()}


def _check_choice(
    name: str, value: object, allowed: tuple[str, ...], *, none: bool = False
) -> None:
    """ValueError naming the ``allowed`` values when ``value`` is not one of them (or
    ``None`` when ``none``): a typo never writes something else silently."""
    if value in allowed or (none and value is None):
        return
    spelled = ", ".join(map(repr, allowed + ((None,) if none else ())))
    raise ValueError(f"{name}={value!r} is not one of {spelled}")


def write_game(
    game: Game,
    *,
    variant: Variant | str | None = None,
    notation: Notation | None = None,
    captures: Captures = "short",
    width: int = 80,
    move_numbers: MoveNumbers = "keep",
    results: Results = "keep",
) -> str:
    """One game as PDN text ending in a newline: tag lines, a blank line, wrapped move text.

    ``variant``: the rules for conversions (default: detected from the game, when needed).
    ``notation``: ``None`` keeps moves as written; else every move is replayed and written
    in that notation with the variant's capture separator (FEN tag and setups converted too,
    and a GameType tag added when the game has none).
    ``captures``: ``"full"`` replays and writes every capture with its full path; ``"short"``
    (from x to, the path only where that is ambiguous) applies when moves are rewritten.
    ``move_numbers``: ``"keep"`` as recorded, ``"renumber"`` standard. ``results``:
    ``"keep"`` as written, ``"variant"`` the variant's style. O(size of the record), plus one
    replay (``pdn.arbiter.replay.played_moves``) when moves are rewritten.
    """
    variant = None if variant is None else as_variant(variant)
    _check_choice("notation", notation, NOTATIONS, none=True)
    _check_choice("captures", captures, _CAPTURES_VALUES)
    _check_choice("move_numbers", move_numbers, _MOVE_NUMBERS_VALUES)
    _check_choice("results", results, _RESULTS_VALUES)
    return record_text(
        game,
        variant=variant,
        notation=notation,
        captures=captures,
        width=width,
        renumber=move_numbers == "renumber",
        results=results,
    )


def write_games(
    games: Iterable[Game],
    stream: IO[str],
    *,
    variant: Variant | str | None = None,
    notation: Notation | None = None,
    captures: Captures = "short",
    width: int = 80,
    move_numbers: MoveNumbers = "keep",
    results: Results = "keep",
) -> int:
    """Write each game (options as ``write_game``) to ``stream``, a blank line between games;
    returns how many were written. One game in memory at a time when ``games`` streams.
    (A game without terminator followed by one without tags reads back as one game.)"""
    count = 0
    for game in games:
        if count:
            stream.write("\n")
        stream.write(
            write_game(
                game,
                variant=variant,
                notation=notation,
                captures=captures,
                width=width,
                move_numbers=move_numbers,
                results=results,
            )
        )
        count += 1
    return count


# -- JSON -------------------------------------------------------------------------------------
class _Raw(str):
    """JSON punctuation already encoded (``json_text``'s work stack holds it among values)."""


def json_text(value: Any) -> str:
    """``json.dumps(value, ensure_ascii=False)`` for any nesting depth: the json module's
    encoder, and for a value nested deeper than it can recurse (a record may nest thousands of
    variations) an explicit stack. Dicts, lists, tuples and JSON scalars. O(size of the
    output)."""
    try:
        return json.dumps(value, ensure_ascii=False)
    except RecursionError:
        return _json_text_by_stack(value)


def _json_text_by_stack(value: Any) -> str:
    """``json_text`` without recursion: one work stack of values and encoded punctuation."""
    out: list[str] = []
    work: list[Any] = [value]
    while work:
        item = work.pop()
        if isinstance(item, _Raw):
            out.append(item)
        elif isinstance(item, dict):
            out.append("{")
            work.append(_Raw("}"))
            entries = list(item.items())
            for index in range(len(entries) - 1, -1, -1):
                key, entry = entries[index]
                work.append(entry)
                separator = ", " if index else ""
                work.append(_Raw(f"{separator}{json.dumps(str(key), ensure_ascii=False)}: "))
        elif isinstance(item, (list, tuple)):
            out.append("[")
            work.append(_Raw("]"))
            for index in range(len(item) - 1, -1, -1):
                work.append(item[index])
                if index:
                    work.append(_Raw(", "))
        else:
            out.append(json.dumps(item, ensure_ascii=False))
    return "".join(out)


def game_to_json(game: Game, *, variant: Variant | str | None = None) -> dict[str, Any]:
    """One game as a JSON-ready dict (schema: docs/json-schema.md); ``variant`` (a ``Variant``
    or its name) when the game does not say. O(size of the record)."""
    before, after = _game_fields(game, variant)
    return {**before, "moves": moves_to_json(game), **after}


def game_json_text(game: Game, *, variant: Variant | str | None = None) -> str:
    """``json_text(game_to_json(game, variant=variant))``, the move objects written straight
    as text (``moves_json_text``): what ``pdn convert --to json`` writes. O(size of the
    record)."""
    before, after = _game_fields(game, variant)
    return f'{json_text(before)[:-1]}, "moves": {moves_json_text(game)}, {json_text(after)[1:]}'


def _game_fields(
    game: Game, variant: Variant | str | None
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The fields of the game's object before ``moves`` and after it, in the schema's order."""
    resolved = as_variant(variant) if variant is not None else variant_of(game)
    source = game.source
    before = {
        "file": source.file,
        "game": source.game,
        "line": source.line,
        "variant": resolved.name,
        "tags": [[name, value] for name, value in game.tags],
        "comments": list(game.comments_before) + list(game.comments_after),
        "nags": list(game.nags),
        "setup": game.setup,
    }
    after = {
        "result": game.result,
        "winner": winner(game.result, resolved),
        "findings": [finding.to_dict() for finding in game.findings],
        "raw": game.raw,
    }
    return before, after
