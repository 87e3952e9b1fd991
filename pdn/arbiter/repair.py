"""Repair a game record where the answer is certain, and say every change (``pdn fix``).

``repair(game, options)`` returns a repaired copy of the game and the list of ``Change``
records, one per change (``before`` -> ``after``), plus one per problem it saw and could not
settle (``after`` is ``None`` and ``note`` starts with "cannot be decided"). Each repair is
one small function over a ``RepairWork`` (``pdn.arbiter.changelog``: the copy, the options,
the log and the one replay of the current record, redone only after a repair changed the
moves), in ``tagrepair``, ``moverepair`` or ``resultrepair``; this module runs them in order
and logs what is left. The repairs, in the order they run:

=================  ==================  ==========================================================
fix                finding code        what it does
=================  ==================  ==========================================================
``encoding``       ``encoding``        logs the fallback codec (the output is always UTF-8)
``junk``           ``syntax``          text glued to a move (``32-28abc``) split into the move
                                       and a comment (``split_glued_junk``, before reading)
``tag-space``      ``tag`` (info)      (``--normalize tags``) strips spaces around a tag value
``empty-tag``      ``tag`` (info)      (``--normalize tags``) removes a tag whose value is empty
``date``           ``tag`` (info)      (``--normalize dates``) ``YYYY.MM.DD`` when the reading
                                       is unambiguous, ``??`` for unknown parts
``split-capture``  ``variant``         joins a capture written jump by jump (playstrategy.org),
                                       then renumbers the moves after it
``capture-sign``   ``notation``        a capture written with ``-`` gets the capture separator
``capture-path``   ``ambiguous-move``  the full path of an ambiguous capture, when exactly one
                                       reading lets the rest of its line replay legally
``cut-after-end``  ``moves-after-end``  (option) moves after the end become a variation
``cut-irregular``  ``illegal-move``,   (option) moves from the first irregular main-line move
                   ``missed-capture``,  on become a variation; the result becomes ``*``
                   ``capture-rule``
``move-number``    ``move-number``     standard move numbers where the written ones are wrong
                                       (shifted by a half move included)
``gametype``       ``variant``         adds the GameType only one variant plays (never 20)
``result-board``   ``result``          the result the final position decides (no pieces/move)
``result-tag``     ``result`` (info)   a missing terminator copied from the Result tag
``missing-result-  ``result`` (info)   (``--normalize results``) a missing Result tag copied
tag``                                  from the terminator
``result-style``   ``result`` (info)   (``--normalize results``) the result in the variant's
                                       style (2-0 / 1-0 ...)
=================  ==================  ==========================================================

Every change made by default answers a finding ``pdn check`` reports on the same game with
the same code; the ``--normalize`` fixes (``RepairOptions.normalize``) tidy valid spellings
and answer the ``info`` notes that name them.

Without its option, the first main-line move a cut would start at is logged, not changed.
``--only`` (``RepairOptions.only``) names finding codes or fix names. Cost: one audit replay
of the game, one more after each repair that changed moves, plus for ``capture-path`` one
resolve per remaining ply and reading, and for ``gametype`` one main-line resolve per
variant on the same board (games without a usable GameType only).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pdn.arbiter.changelog import UNDECIDED, Change, RepairOptions, RepairWork
from pdn.arbiter.moverepair import (
    fix_capture_paths,
    fix_capture_signs,
    fix_cuts,
    fix_move_numbers,
    fix_split_captures,
)
from pdn.arbiter.resultrepair import fix_result_tag, fix_results
from pdn.arbiter.tagrepair import (
    fix_dates,
    fix_empty_tags,
    fix_encoding,
    fix_gametype,
    fix_tag_spaces,
)
from pdn.game.tags import DATE_TAGS

if TYPE_CHECKING:
    from pdn.base.findings import Finding
    from pdn.game.record import Game


@dataclass
class Repaired:
    """A repaired copy of a game and its change log."""

    game: Game
    changes: list[Change]

    @property
    def changed(self) -> bool:
        """True when at least one change was made (undecided notes do not count)."""
        return any(change.changed for change in self.changes)


def repair(game: Game, options: RepairOptions | None = None) -> Repaired:
    """A repaired copy of ``game`` and every change made (the input is not modified).

    A game that could not be read (``game.raw``) gets only the repairs of its tags
    (``_UNREADABLE_STEPS``: they read no move), so that one unreadable token does not keep
    its tags as they are; the caller writes them before its text kept verbatim. Never raises
    on bad input."""
    work = RepairWork(copy.deepcopy(game), options or RepairOptions())
    for step in _STEPS if game.raw is None else _UNREADABLE_STEPS:
        step(work)
    return Repaired(work.game, work.changes)


def log_remaining(work: RepairWork) -> None:
    """Every finding of a kind ``fix`` repairs that the repaired record still has (``info``
    notes aside), logged as undecided unless already logged so: the change log names
    everything left. Replays again only when something changed since the last replay."""
    if work.dirty:
        work.moved()
    logged = {(change.code, change.ply) for change in work.changes if not change.changed}
    for finding in work.replay.findings:
        if finding.severity == "info":
            continue  # a note (a spelling --normalize tidies), no problem left
        fix = _claimed(work, finding)
        if fix is None or (finding.code, finding.ply) in logged:
            continue
        logged.add((finding.code, finding.ply))
        work.changes.append(
            Change(
                fix,
                finding.code,
                finding.move,
                None,
                file=work.game.source.file,
                game=work.game.source.game,
                ply=finding.ply,
                move=finding.move,
                line=finding.line,
                column=finding.column,
                note=f"{UNDECIDED}: {finding.message}",
            )
        )


def _claimed(work: RepairWork, finding: Finding) -> str | None:
    """The fix that claims to repair ``finding``'s kind (and is selected), or ``None``."""
    code = finding.code
    if code == "tag" and finding.message.startswith(DATE_TAGS):
        fix: str | None = "date"
    elif code == "variant" and "no usable GameType" in finding.message:
        fix = None if work.replay.variant.name == "international" else "gametype"
    else:
        fix = {
            "result": "result-tag",
            "move-number": "move-number",
            "ambiguous-move": "capture-path",
        }.get(code)
    return fix if fix is not None and work.allowed(fix) else None


_STEPS: tuple[Callable[[RepairWork], None], ...] = (
    fix_encoding,
    fix_tag_spaces,
    fix_empty_tags,
    fix_dates,
    fix_split_captures,
    fix_capture_signs,
    fix_capture_paths,
    fix_cuts,
    fix_move_numbers,
    fix_gametype,
    fix_results,
    log_remaining,
)
#: The repairs of a game whose moves cannot be read: its tags only (no replay).
_UNREADABLE_STEPS: tuple[Callable[[RepairWork], None], ...] = (
    fix_tag_spaces,
    fix_empty_tags,
    fix_dates,
    fix_result_tag,
)
