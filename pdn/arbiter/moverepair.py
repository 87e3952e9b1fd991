"""The repairs of a game's moves: split captures joined, capture signs, the full path of an
ambiguous capture, the main line cut at its end or at an irregular move (options), standard
move numbers. Each is one step of ``pdn.arbiter.repair``. Cost: O(moves) each on the run's
replay, plus for ``fix_capture_paths`` one resolve per remaining ply and reading and one
replay after each path it settles.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from pdn.arbiter.changelog import FIXES, UNDECIDED, RepairWork, on_mainline
from pdn.arbiter.replay import INTERNAL_ERROR
from pdn.arbiter.replaychecks import SQUARES_DASH, marks_other_side
from pdn.arbiter.resultrepair import board_outcome, set_result
from pdn.engine.resolve import resolve

if TYPE_CHECKING:
    from pdn.base.findings import Finding
    from pdn.engine.position import Position
    from pdn.game.record import Game, GameNode
    from pdn.game.tags import Outcome

MAX_READINGS = 16
_NUMBER = re.compile(r"^(\d+)")


def fix_split_captures(work: RepairWork) -> None:
    """A capture written jump by jump (playstrategy.org) joined into one move: the first part
    gets the whole path; the other parts' comments, NAGs and strength move to it."""
    if not work.allowed("split-capture"):
        return
    replayed = work.replay
    firsts = [
        node
        for node in work.game.walk()
        if (played := replayed.played.get(node)) is not None and played.part == 1
    ]
    for first in firsts:
        played = replayed.played[first]
        parts = [first]
        while len(parts) < played.parts:
            following = parts[-1].next()
            assert following is not None  # the replay joined this main-line chain
            parts.append(following)
        before = " ".join(part.move_text or "" for part in parts)
        after = _move_text(work, first, played.move)
        _merge_parts(first, parts[1:])
        first.move_text = after
        work.log("split-capture", before, after, node=first, ply=played.ply)
    if firsts:
        work.moved()


def _merge_parts(first: GameNode, rest: list[GameNode]) -> None:
    """Fold the nodes of ``rest`` (a main-line chain after ``first``) into ``first``."""
    for part in rest:
        first.comments_after.extend(part.comments_before + part.comments_after)
        first.commands.extend(part.commands)
        first.nags.extend(part.nags)
        first.strength = first.strength or part.strength
    last = rest[-1]
    first.variations = last.variations
    for child in first.variations:
        child.parent = first


def fix_capture_signs(work: RepairWork) -> None:
    """A capture written with ``-`` (``28-19`` taking 23) gets the variant's separator (none
    to give where the separator is ``-``: Thai)."""
    separator = work.replay.variant.capture_separator
    if not work.allowed("capture-sign") or separator == "-":
        return
    for node in work.game.walk():
        played = work.replay.played.get(node)
        text = node.move_text or ""
        if played is None or played.parts or not played.move.is_capture:
            continue
        if SQUARES_DASH.match(text):
            fixed = text.replace("-", separator)
            work.log("capture-sign", text, fixed, node=node, ply=played.ply)
            node.move_text = fixed


def fix_capture_paths(work: RepairWork) -> None:
    """An ambiguous capture gets its full path when exactly one of its readings lets the rest
    of its line replay legally; otherwise it is logged as undecided. One at a time in file
    order, replaying after each change (a settled capture changes the positions after it)."""
    if not work.allowed("capture-path"):
        return
    examined: set[GameNode] = set()
    while True:
        replayed = work.replay
        pending = (
            node
            for node in work.game.walk()
            if node not in examined
            and (played := replayed.played.get(node)) is not None
            and played.chosen
        )
        node = next(pending, None)
        if node is None:
            return
        examined.add(node)
        played = replayed.played[node]
        candidates = resolve(played.before, _replay_text(work, node)).candidates
        fitting = [
            move for move in candidates if _rest_replays(work, node, played.before.play(move))
        ]
        text = node.move_text or ""
        if len(fitting) == 1:
            fixed = _move_text(work, node, fitting[0])
            work.log("capture-path", text, fixed, node=node, ply=played.ply)
            node.move_text = fixed
            work.moved()
        else:
            why = "no reading" if not fitting else f"{len(fitting)} readings"
            work.log(
                "capture-path",
                text,
                None,
                node=node,
                ply=played.ply,
                note=f"{UNDECIDED}: {why} of {len(candidates)} let the rest of the line replay",
            )


def _rest_replays(work: RepairWork, node: GameNode, after: Position) -> bool:
    """True when the moves after ``node`` on its line replay legally from ``after`` under
    some reading of the later ambiguous moves (at most ``MAX_READINGS`` followed at once).
    A setup (``/FEN/``) ends the check. O(plies x readings) resolves."""
    positions = [after]
    following = node.next()
    while following is not None and positions and following.setup is None:
        text = _replay_text(work, following)
        if not text.strip("-."):
            break
        next_positions: list[Position] = []
        for position in positions:
            resolution = resolve(position, text)
            if resolution.code is None and resolution.move is not None:
                next_positions.append(position.play(resolution.move))
            elif resolution.code == "ambiguous-move":
                next_positions.extend(position.play(move) for move in resolution.candidates)
        positions = next_positions[:MAX_READINGS]
        following = following.next()
    return bool(positions)


def _replay_text(work: RepairWork, node: GameNode) -> str:
    """The move text of ``node`` with squares on the PDN board (as the audit reads it)."""
    replayed = work.replay
    return replayed.dialect.move_text((node.move_text or "").strip(), replayed.variant.board)


def _move_text(work: RepairWork, node: GameNode, move: Any) -> str:
    """``move`` with its full path, in the notation ``node`` was written in (and the
    dialect's frame), with the variant's capture separator."""
    replayed = work.replay
    board, variant = replayed.variant.board, replayed.variant
    notation = "algebraic" if re.search("[a-l]", node.move_text or "") else "numeric"
    text = move.notation(board, notation, True, variant.capture_separator)
    return replayed.dialect.move_text(text, board) if notation == "algebraic" else text


def fix_cuts(work: RepairWork) -> None:
    """``--cut-after-end`` / ``--cut-irregular``: the main line from the first move after the
    end, or from the first irregular move, becomes a variation (a comment names the finding);
    the result becomes the rule's outcome, or ``*``."""
    cuts = {
        "cut-after-end": work.options.cut_after_end,
        "cut-irregular": work.options.cut_irregular,
    }
    wanted = {code for fix in cuts if work.allowed(fix) for code in FIXES[fix]}
    found = [
        (finding, node)
        for finding, node in on_mainline(work.game, work.replay, wanted)
        if INTERNAL_ERROR not in finding.message  # an engine bug, not the record's fault
    ]
    chosen = [(finding, node) for finding, node in found if cuts[_cut_name(finding)]]
    if chosen:
        _cut(work, chosen[0][1], chosen[0][0])
    elif found:
        finding, node = found[0]
        note = f"--{_cut_name(finding)} would make the moves from here a variation"
        _log_uncut(work, node, finding, note)


def _cut_name(finding: Finding) -> str:
    return "cut-after-end" if finding.code == "moves-after-end" else "cut-irregular"


def _log_uncut(work: RepairWork, node: GameNode, finding: Finding, note: str) -> None:
    """Log the cut ``finding`` asks for at ``node`` as not made, ``note`` saying why."""
    fix = _cut_name(finding)
    work.log(fix, node.move_text, None, node=node, ply=finding.ply, code=finding.code, note=note)


def _cut(work: RepairWork, node: GameNode, finding: Finding) -> None:
    fix = _cut_name(finding)
    parent = node.parent
    assert finding.ply is not None
    if parent is None or parent.parent is None:
        _log_uncut(work, node, finding, f"{UNDECIDED}: the first move cannot become a variation")
        return
    # the variation repeats the last kept move and goes on with every reply written to it
    number = _standard_number(work, finding.ply - 1) if work.replay.positions else None
    twin = parent.parent.add_variation(parent.move_text or "--", move_number=number)
    twin.variations = parent.variations
    for child in twin.variations:
        child.parent = twin
    parent.variations = []
    node.comments_before.insert(
        0, f"pdn fix: main line cut here: {finding.code}: {finding.message}"
    )
    outcome = _after_end_outcome(work, finding) if fix == "cut-after-end" else "unknown"
    work.log(
        fix,
        node.move_text,
        "variation",
        node=node,
        ply=finding.ply,
        code=finding.code,
        note=f"moves from ply {finding.ply} kept as a variation",
    )
    work.moved()
    why = "the game was over" if outcome != "unknown" else "main line cut at an irregular move"
    set_result(work, outcome, fix, why)


def _after_end_outcome(work: RepairWork, finding: Finding) -> Outcome:
    """The outcome the rules give to a game over before ply ``finding.ply``."""
    assert finding.ply is not None
    positions = work.replay.positions
    before = positions[min(finding.ply - 1, len(positions) - 1)]
    decided = board_outcome(before, work.replay.variant)
    return decided or "draw"


def fix_move_numbers(work: RepairWork) -> None:
    """Standard move numbers (from the start position's turn and the FEN's move number) on
    every numbered move, when the audit reports a wrong one. Lines after a setup are left."""
    if not work.allowed("move-number") or not work.findings("move-number"):
        return
    replayed = work.replay
    if not replayed.positions or any(played.parts for played in replayed.played.values()):
        return
    # numbers right for captures written jump by jump are wrong once they are joined: the
    # renumbering then answers the dialect's finding (``variant``), not a ``move-number`` one
    joined = any(change.fix == "split-capture" and change.changed for change in work.changes)
    code, note = ("variant", "after joining split captures") if joined else (None, None)
    stack = [(child, 1) for child in work.game.variations]
    while stack:
        node, depth = stack.pop()
        if node.setup is not None:
            continue
        stack.extend((child, depth + 1) for child in node.variations)
        text = node.move_number or ""
        written = _NUMBER.match(text)
        fixed = _standard_number(work, depth)
        if written and (
            written[1] != _NUMBER.match(fixed)[1]  # type: ignore[index]
            or marks_other_side(text, not fixed.endswith("..."))
        ):
            played = replayed.played.get(node)
            work.log(
                "move-number",
                node.move_number,
                fixed,
                node=node,
                ply=played.ply if played else depth,
                code=code,
                note=note,
            )
            node.move_number = fixed


def _standard_number(work: RepairWork, ply: int) -> str:
    """The standard move number of ply ``ply`` from the root (``N.`` or ``N...``)."""
    replayed = work.replay
    offset = 0 if replayed.positions[0].turn == replayed.variant.first_mover else 1
    index = ply - 1 + offset
    number = _fen_number(work.game) + index // 2
    return f"{number}." if index % 2 == 0 else f"{number}..."


def _fen_number(game: Game) -> int:
    match = re.search(r":F(\d+)", game.headers.get("FEN", ""))
    return int(match[1]) if match else 1
