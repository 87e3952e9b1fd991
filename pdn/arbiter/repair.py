"""Repair a game record where the answer is certain, and say every change (``pdn fix``).

``repair(game, options)`` returns a repaired copy of the game and the list of ``Change``
records, one per change (``before`` -> ``after``), plus one per problem it saw and could not
settle (``after`` is ``None`` and ``note`` starts with "cannot be decided"). Each repair is
one small function over a ``_Work`` (the copy, the options, and the one replay of the current
record, redone only after a repair changed the moves). The repairs, in the order they run:

=================  ==================  ==========================================================
fix                finding code        what it does
=================  ==================  ==========================================================
``encoding``       ``encoding``        logs the fallback codec (the output is always UTF-8)
``junk``           ``syntax``          text glued to a move (``32-28abc``) split into the move
                                       and a comment (``split_glued_junk``, before reading)
``tag-space``      ``tag``             strips spaces around a tag value (``" 0-1"``)
``empty-tag``      ``tag``             removes a tag whose value is empty
``date``           ``tag``             ``YYYY.MM.DD`` when the reading is unambiguous, ``??``
                                       for unknown parts
``split-capture``  ``capture-rule``    joins a capture written jump by jump (playstrategy.org)
``capture-sign``   --                  a capture written with ``-`` gets the capture separator
``capture-path``   ``ambiguous-move``  the full path of an ambiguous capture, when exactly one
                                       reading lets the rest of its line replay legally
``cut-after-end``  ``moves-after-end``  (option) moves after the end become a variation
``cut-irregular``  ``illegal-move``,   (option) moves from the first irregular main-line move
                   ``missed-capture``,  on become a variation; the result becomes ``*``
                   ``capture-rule``
``move-number``    ``move-number``     standard move numbers where the written ones are wrong
``gametype``       ``variant``         adds the GameType only one variant plays (never 20)
``result-board``   ``result``          the result the final position decides (no pieces/move)
``result-tag``     ``result``          Result tag and terminator agree (a missing one copied)
``result-style``   ``result``          the result in the variant's style (2-0 / 1-0 ...)
=================  ==================  ==========================================================

Without its option, the first main-line move a cut would start at is logged, not changed.
``--only`` (``RepairOptions.only``) names finding codes or fix names. Cost: one audit replay
of the game, one more after each repair that changed moves, plus for ``capture-path`` one
resolve per remaining ply and reading, and for ``gametype`` one main-line resolve per
variant on the same board (games without a usable GameType only).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from pdn.arbiter.detect import STANDARD, detect_dialect, start_position
from pdn.arbiter.replay import INTERNAL_ERROR, Replay, replay
from pdn.base.findings import IRREGULAR_CODES, Finding, Place
from pdn.engine.drawrules import profile_for
from pdn.engine.errors import FenError
from pdn.engine.position import Position
from pdn.engine.resolve import resolve
from pdn.engine.variants import VARIANTS, Variant
from pdn.game.tags import Outcome, date_problem, known_outcome, result_spelling, tag_entry

if TYPE_CHECKING:
    from pdn.game.record import Game, GameNode

#: Readings of the rest of a line followed at once when later moves are ambiguous too.
MAX_READINGS = 16
#: Every fix name, with the finding codes it answers (the first one names its changes).
FIXES: dict[str, tuple[str, ...]] = {
    "encoding": ("encoding",),
    "junk": ("syntax",),
    "tag-space": ("tag",),
    "empty-tag": ("tag",),
    "date": ("tag",),
    "split-capture": ("capture-rule",),
    "capture-sign": (),
    "capture-path": ("ambiguous-move",),
    "cut-after-end": ("moves-after-end",),
    "cut-irregular": ("illegal-move", "missed-capture", "capture-rule"),
    "move-number": ("move-number",),
    "gametype": ("variant",),
    "result-board": ("result",),
    "result-tag": ("result",),
    "result-style": ("result",),
}
UNDECIDED = "cannot be decided"
#: Why a game keeps at least one tag and a game without tags gets none: the scanner reads the
#: tagless games after a tagged game's result as part of it (so tags change how a file splits).
NO_TAGS = "a game without tags cannot get any (the tagless games after it would join it)"

_DATE_TAGS = ("Date", "EventDate", "UTCDate", "PublicationDate")
_YEAR_ONLY = re.compile(r"^(\d{4})\.?$")
_YEAR_FIRST = re.compile(r"^(\d{4}|\?{4})[-./](\d{1,2}|\?{1,2})[-./](\d{1,2}|\?{1,2})$")
_YEAR_LAST = re.compile(r"^(\d{1,2})[-./](\d{1,2})[-./](\d{4})$")
_NUMBER = re.compile(r"^(\d+)")
_UNREADABLE = re.compile(r"^unreadable text (['\"])(\S+)\1:")
_SQUARES_DASH = re.compile(r"^([a-l]?\d{1,3})(-[a-l]?\d{1,3})+$")


@dataclass(frozen=True)
class RepairOptions:
    """What to repair with: the variant of games without a usable GameType (``--variant``),
    a draw-rules profile name, the codes or fix names to limit the repairs to (``None``: all),
    and the two cut options."""

    variant: Variant | None = None
    rules: str | None = None
    only: frozenset[str] | None = None
    cut_irregular: bool = False
    cut_after_end: bool = False


@dataclass(frozen=True)
class Change(Place):
    """One record of the change log: where (a finding's ``Place`` fields), which ``fix``,
    ``before`` and ``after``; ``after is None`` for a problem logged but not changed (``note``
    says why, starting with "cannot be decided")."""

    fix: str
    code: str | None
    before: str | None
    after: str | None
    note: str | None = None

    @property
    def changed(self) -> bool:
        """True for a change, False for a problem logged as undecided."""
        return self.after is not None

    def to_dict(self) -> dict[str, Any]:
        """The JSON Lines object: finding fields, then fix, before, after, note."""
        return {
            **self.place_fields(),
            "code": self.code,
            "fix": self.fix,
            "before": self.before,
            "after": self.after,
            "note": self.note,
        }

    def to_text(self) -> str:
        """A compiler-style line: ``file:line:col: fix[name] game 3 ply 5: 'a' -> 'b'``."""
        place, context = self.place_text()
        before = "(none)" if self.before is None else self.before
        what = f"{before} -> {self.after or '(removed)'}" if self.changed else f"{before} kept"
        note = f" ({self.note})" if self.note else ""
        return f"{place}: fix[{self.fix}]{context}: {what}{note}"


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

    A game that could not be read (``game.raw``) is returned as it is, with no change.
    Never raises on bad input."""
    work = _Work(copy.deepcopy(game), options or RepairOptions())
    if game.raw is None:
        for step in _STEPS:
            step(work)
    return Repaired(work.game, work.changes)


@dataclass
class _Work:
    """One repair run: the record being repaired, the options, the log and the replay."""

    game: Game
    options: RepairOptions
    changes: list[Change] = field(default_factory=list)
    stale: bool = True  # the moves changed since the game's kept replay was made
    dirty: bool = False  # a change was made since the kept replay was made

    @property
    def replay(self) -> Replay:
        """The game's replay (``Game.replayed``) as the record is now (redone after
        ``moved``)."""
        replayed = self.game.replayed(
            variant=self.options.variant, rules=self.options.rules, fresh=self.stale
        )
        if self.stale:
            self.stale = self.dirty = False
        return replayed

    def moved(self) -> None:
        """The record changed: the next ``replay`` replays again."""
        self.stale = True

    def allowed(self, fix: str) -> bool:
        only = self.options.only
        return only is None or fix in only or not only.isdisjoint(FIXES[fix])

    def log(
        self,
        fix: str,
        before: str | None,
        after: str | None,
        *,
        node: GameNode | None = None,
        ply: int | None = None,
        note: str | None = None,
        code: str | None = None,
    ) -> None:
        self.dirty = self.dirty or after is not None
        source = self.game.source
        line = node.line if node is not None and node.line else source.line
        column = node.column if node is not None and node.column else source.column
        self.changes.append(
            Change(
                fix,
                code or next(iter(FIXES[fix]), None),
                before,
                after,
                file=source.file,
                game=source.game,
                ply=ply,
                move=node.move_text if node is not None else None,
                line=line,
                column=column,
                note=note,
            )
        )

    def findings(self, *codes: str) -> list[Finding]:
        return [finding for finding in self.replay.findings if finding.code in codes]


# -- text, file-level and tags --------------------------------------------------------------
def split_glued_junk(
    game: Game, text: str, options: RepairOptions | None = None
) -> tuple[str, list[Change]] | None:
    """``text`` (the game's own text, as read into ``game``) with each word the reader could
    not read and that is glued to the end of a move (``32-28abc``, ``19-23,``) moved into a
    comment after it (``32-28 {abc}``), and a ``junk`` change per word; ``None`` when no such
    word or when ``--only`` leaves ``junk`` out. The caller reads the new text again and
    keeps it only when it reads without a syntax fault. O(len(text))."""
    if options is not None and options.only is not None and not {"junk", "syntax"} & options.only:
        return None
    source = game.source
    starts = [0] + [index + 1 for index, char in enumerate(text) if char == "\n"]
    edits: list[tuple[int, str, Finding]] = []
    for finding in game.findings:
        junk = _UNREADABLE.match(finding.message) if finding.code == "syntax" else None
        if junk is None or finding.line is None or finding.column is None:
            continue
        row = finding.line - source.line
        if not 0 <= row < len(starts):
            continue
        offset = starts[row] + finding.column - 1 - (source.column - 1 if row == 0 else 0)
        word = junk[2]
        glued = offset > 0 and text[offset - 1].isalnum()  # right after a move's last square
        if glued and text[offset : offset + len(word)] == word and "}" not in word:
            edits.append((offset, word, finding))
    if not edits:
        return None
    changes = []
    for offset, word, finding in sorted(edits, key=lambda edit: edit[0], reverse=True):
        move_start = offset
        while move_start > 0 and not text[move_start - 1].isspace():
            move_start -= 1
        move = text[move_start:offset]
        text = f"{text[:offset]} {{{word}}}{text[offset + len(word) :]}"
        changes.append(
            Change(
                "junk",
                "syntax",
                move + word,
                f"{move} {{{word}}}",
                file=source.file,
                game=source.game,
                line=finding.line,
                column=finding.column,
            )
        )
    return text, changes[::-1]


# -- file-level and tags --------------------------------------------------------------------
def fix_encoding(work: _Work) -> None:
    """The output is UTF-8: log the codec the text was read with."""
    if not work.allowed("encoding"):
        return
    for finding in work.game.findings:
        if finding.code == "encoding":
            codec = re.search(r"read the rest as (\S+)", finding.message)
            work.log("encoding", codec[1] if codec else finding.message, "utf-8")


def fix_tag_spaces(work: _Work) -> None:
    """Spaces around a tag value stripped (``[Result " 0-1"]``)."""
    if not work.allowed("tag-space"):
        return
    tags = work.game.tags
    for index, (name, value) in enumerate(tags):
        if value != value.strip():
            tags[index] = (name, value.strip())
            work.log("tag-space", _tag_text(name, value), _tag_text(name, value.strip()))


def fix_empty_tags(work: _Work) -> None:
    """Tags with an empty value removed, unless every tag is empty (see ``NO_TAGS``)."""
    if not work.allowed("empty-tag"):
        return
    tags = work.game.tags
    empty = [(name, value) for name, value in tags if not value]
    if len(empty) == len(tags):
        for name, value in empty:
            work.log("empty-tag", _tag_text(name, value), None, note=f"{UNDECIDED}: {NO_TAGS}")
        return
    for name, value in empty:
        work.log("empty-tag", _tag_text(name, value), "")
    tags[:] = [(name, value) for name, value in tags if value]


def fix_dates(work: _Work) -> None:
    """Date tags as ``YYYY.MM.DD`` when only one reading is possible (``??`` unknown)."""
    if not work.allowed("date"):
        return
    tags = work.game.tags
    for index, (name, value) in enumerate(tags):
        if name not in _DATE_TAGS or not value.strip() or date_problem(value) is None:
            continue
        fixed = normal_date(value)
        if fixed is None:
            work.log(
                "date", _tag_text(name, value), None, note=f"{UNDECIDED}: {_date_doubt(value)}"
            )
        else:
            tags[index] = (name, fixed)
            work.log("date", _tag_text(name, value), _tag_text(name, fixed))


def _tag_text(name: str, value: str) -> str:
    return f'[{name} "{value}"]'


def normal_date(value: str) -> str | None:
    """``value`` as a PDN date ``YYYY.MM.DD`` when it has one reading, else ``None``.

    ``1996`` and ``1950.`` -> ``1996.??.??``; year first (``2024-12-14``, ``1847-??-??``,
    ``2024.1.5``) -> padded; year last (``14.12.2024``, ``13-01-1996``) only when one of day
    and month is above 12 or both are equal. O(len)."""
    text = value.strip()
    if match := _YEAR_ONLY.match(text):
        return f"{match[1]}.??.??"
    if match := _YEAR_FIRST.match(text):
        year, month, day = match.groups()
        return _date(year, month, day)
    if match := _YEAR_LAST.match(text):
        first, second, year = match.groups()
        if int(first) > 12 >= int(second) or first.lstrip("0") == second.lstrip("0"):
            return _date(year, second, first)
        if int(second) > 12 >= int(first):
            return _date(year, first, second)
    return None


def _date_doubt(value: str) -> str:
    if _YEAR_LAST.match(value.strip()):
        return "day and month are both 12 or less: either could come first"
    return date_problem(value) or "not a date"


def _date(year: str, month: str, day: str) -> str | None:
    parts = [part.zfill(2) if part.isdigit() else "??" for part in (month, day)]
    date = f"{year}.{parts[0]}.{parts[1]}"
    return date if date_problem(date) is None else None


# -- moves ----------------------------------------------------------------------------------
def fix_split_captures(work: _Work) -> None:
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


def fix_capture_signs(work: _Work) -> None:
    """A capture written with ``-`` (``28-19`` taking 23) gets the variant's separator."""
    if not work.allowed("capture-sign"):
        return
    separator = work.replay.variant.capture_separator
    for node in work.game.walk():
        played = work.replay.played.get(node)
        text = node.move_text or ""
        if played is None or played.parts or not played.move.is_capture:
            continue
        if _SQUARES_DASH.match(text):
            fixed = text.replace("-", separator)
            work.log("capture-sign", text, fixed, node=node, ply=played.ply)
            node.move_text = fixed


def fix_capture_paths(work: _Work) -> None:
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


def _rest_replays(work: _Work, node: GameNode, after: Position) -> bool:
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


def _replay_text(work: _Work, node: GameNode) -> str:
    """The move text of ``node`` with squares on the PDN board (as the audit reads it)."""
    replayed = work.replay
    return replayed.dialect.move_text((node.move_text or "").strip(), replayed.variant.board)


def _move_text(work: _Work, node: GameNode, move: Any) -> str:
    """``move`` with its full path, in the notation ``node`` was written in (and the
    dialect's frame), with the variant's capture separator."""
    replayed = work.replay
    board, variant = replayed.variant.board, replayed.variant
    notation = "algebraic" if re.search("[a-l]", node.move_text or "") else "numeric"
    text = move.notation(board, notation, True, variant.capture_separator)
    return replayed.dialect.move_text(text, board) if notation == "algebraic" else text


# -- cuts -----------------------------------------------------------------------------------
def fix_cuts(work: _Work) -> None:
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
        for finding, node in _on_mainline(work.game, work.replay, wanted)
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


def _log_uncut(work: _Work, node: GameNode, finding: Finding, note: str) -> None:
    """Log the cut ``finding`` asks for at ``node`` as not made, ``note`` saying why."""
    fix = _cut_name(finding)
    work.log(fix, node.move_text, None, node=node, ply=finding.ply, code=finding.code, note=note)


def _on_mainline(
    game: Game, replayed: Replay, codes: Collection[str]
) -> list[tuple[Finding, GameNode]]:
    """The findings of ``codes`` at main-line moves, in file order, with their nodes (matched
    by ply, move text, line and column, as the replay locates findings). O(plies + findings)."""
    nodes: dict[tuple[int | None, str | None, int | None, int | None], GameNode] = {}
    ply = 0
    for node in game.mainline():
        played = replayed.played.get(node)
        ply = played.ply if played is not None else ply + 1
        nodes.setdefault((ply, node.move_text, node.line or None, node.column or None), node)
    found = []
    for finding in replayed.findings:
        at = nodes.get((finding.ply, finding.move, finding.line, finding.column))
        if finding.code in codes and at is not None:
            found.append((finding, at))
    return found


def _cut(work: _Work, node: GameNode, finding: Finding) -> None:
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
    _set_result(work, outcome, fix, why)


def _after_end_outcome(work: _Work, finding: Finding) -> Outcome:
    """The outcome the rules give to a game over before ply ``finding.ply``."""
    assert finding.ply is not None
    positions = work.replay.positions
    before = positions[min(finding.ply - 1, len(positions) - 1)]
    decided = _board_outcome(before, work.replay.variant)
    return decided or "draw"


def _board_outcome(position: Position, variant: Variant) -> Outcome | None:
    """``first``/``second`` when the side to move has no piece or no move (the board decides,
    ``Position.outcome``), else ``None``; an empty board (placeholder FEN) decides nothing."""
    winner = position.outcome()
    if winner is None:
        return None
    return "first" if winner == variant.first_mover else "second"


# -- numbers, GameType, results -------------------------------------------------------------
def fix_move_numbers(work: _Work) -> None:
    """Standard move numbers (from the start position's turn and the FEN's move number) on
    every numbered move, when the audit reports a wrong one. Lines after a setup are left."""
    if not work.allowed("move-number") or not work.findings("move-number"):
        return
    replayed = work.replay
    if not replayed.positions or any(played.parts for played in replayed.played.values()):
        return
    stack = [(child, 1) for child in work.game.variations]
    while stack:
        node, depth = stack.pop()
        if node.setup is not None:
            continue
        stack.extend((child, depth + 1) for child in node.variations)
        written = _NUMBER.match(node.move_number or "")
        fixed = _standard_number(work, depth)
        if written and written[1] != _NUMBER.match(fixed)[1]:  # type: ignore[index]
            played = replayed.played.get(node)
            work.log(
                "move-number",
                node.move_number,
                fixed,
                node=node,
                ply=played.ply if played else depth,
            )
            node.move_number = fixed


def _standard_number(work: _Work, ply: int) -> str:
    """The standard move number of ply ``ply`` from the root (``N.`` or ``N...``)."""
    replayed = work.replay
    offset = 0 if replayed.positions[0].turn == replayed.variant.first_mover else 1
    index = ply - 1 + offset
    number = _fen_number(work.game) + index // 2
    return f"{number}." if index % 2 == 0 else f"{number}..."


def _fen_number(game: Game) -> int:
    match = re.search(r":F(\d+)", game.headers.get("FEN", ""))
    return int(match[1]) if match else 1


def fix_gametype(work: _Work) -> None:
    """A GameType tag for a game without a usable one, when ``--variant`` names the variant or
    exactly one variant on the inferred board replays the whole main line legally (giveaway
    forms aside: they play the same moves). International (PDN's default 20) gets none."""
    if not work.allowed("gametype"):
        return
    replayed = work.replay
    inferred = any("no usable GameType" in f.message for f in replayed.variant_findings)
    if not inferred:
        return
    variant = replayed.variant
    if variant.name == "international" or variant.gametype is None:
        return  # PDN's default GameType 20 needs no tag
    doubt = None if work.options.variant is not None else _doubt(work)
    if doubt is not None:
        work.log("gametype", work.game.headers.get("GameType"), None, note=f"{UNDECIDED}: {doubt}")
        return
    value = str(variant.gametype)  # the bare code names the standard rules
    tags = work.game.tags
    if not tags:
        work.log("gametype", None, None, note=f"{UNDECIDED}: {variant.name}, but {NO_TAGS}")
        return
    before = work.game.headers.get("GameType")
    if before is None:
        tags.append(("GameType", value))
    else:
        tags[:] = [(name, value if name == "GameType" else text) for name, text in tags]
    work.log("gametype", before, value, note=f"{variant.name}")


def _doubt(work: _Work) -> str | None:
    """Why the inferred variant is not certain, or ``None``: it must replay the whole main
    line with no irregular move, and no other variant on its board may (giveaway forms aside:
    they play the same moves). Stops at the first other variant that plays every move."""
    replayed = work.replay
    variant = replayed.variant
    if not _plays_mainline(work.game, replayed):
        return f"inferred {variant.name}, which does not play every main-line move"
    other = next(_others_playing(work.game, variant, work.options.rules), None)
    return f"{variant.name} and {other} both play every main-line move" if other else None


def _plays_mainline(game: Game, replayed: Replay) -> bool:
    """True when ``replayed`` went through the whole main line with no irregular move."""
    return replayed.stopped is None and not _on_mainline(game, replayed, IRREGULAR_CODES)


def _others_playing(game: Game, inferred: Variant, rules: str | None) -> Iterator[str]:
    """Names of the other variants on ``inferred``'s board (giveaway forms aside) that the
    main line does not rule out, lazily. One resolve per ply and variant."""
    size = (inferred.board.width, inferred.board.height)
    for variant in VARIANTS.values():
        if (variant.board.width, variant.board.height) != size or variant.giveaway:
            continue
        if variant is not inferred and not _rules_out(game, variant, rules):
            yield variant.name


def _rules_out(game: Game, variant: Variant, rules: str | None) -> bool:
    """True when the main line cannot be ``variant``: its FEN does not read, or a move before
    any setup or unknown move (which end the check) is irregular there. A game in a dialect
    (playstrategy.org) is replayed as that variant by the replay itself, which reads it."""
    if detect_dialect(game, variant)[0] != STANDARD:
        return not _plays_mainline(game, replay(game, variant=variant, rules=rules, exact=True))
    try:
        position = start_position(game, variant)
    except (FenError, ValueError):
        return True
    for node in game.mainline():
        text = (node.move_text or "").strip()
        if node.setup is not None or not text.strip("-."):
            return False
        resolution = resolve(position, text)
        if resolution.code is not None or resolution.move is None:
            return True
        position = position.play(resolution.move)
    return False


def fix_results(work: _Work) -> None:
    """Result tag and terminator: spelled in the variant's style; set from the board when it
    decides; made to agree when one of them is missing. A disagreement the board cannot
    settle stays (``log_remaining`` logs it)."""
    if work.allowed("result-style"):
        _respell(work)
    decided = _decided_outcome(work)
    if decided is not None and work.allowed("result-board"):
        _set_result(work, decided, "result-board", "the final position decides")
        return
    if not work.allowed("result-tag"):
        return
    name = _result_tag_name(work.game)
    tag = work.game.headers.get(name) if name else None
    terminator = work.game.result
    if tag is not None and terminator is None and known_outcome(tag) is not None:
        work.game.result = tag.strip()
        work.log("result-tag", None, tag.strip(), note="terminator copied from the Result tag")
    elif name is None and work.game.tags and known_outcome(terminator) not in (None, "unknown"):
        assert terminator is not None
        work.game.tags.append(("Result", terminator))
        work.log(
            "result-tag", None, _tag_text("Result", terminator), note="copied from the terminator"
        )


def _decided_outcome(work: _Work) -> Outcome | None:
    """The outcome the board gives the main line (``first``/``second`` when the side to move
    has no piece or no move, ``draw`` after a draw by rule), ``None`` when it gives none or
    when the main line did not replay cleanly to its end."""
    replayed = work.replay
    if replayed.stopped is not None or not replayed.positions:
        return None
    if _on_mainline(work.game, replayed, IRREGULAR_CODES | {"moves-after-end"}):
        return None
    decided = _board_outcome(replayed.positions[-1], replayed.variant)
    if decided is None and _drawn_by_rule(work):
        decided = "draw"
    return decided


def _drawn_by_rule(work: _Work) -> bool:
    """A main-line draw by a move-limit rule, or by an automatic repetition rule."""
    automatic = profile_for(work.replay.variant, work.options.rules).repetition_automatic
    codes = ("move-limit", "repetition") if automatic else ("move-limit",)
    return bool(_on_mainline(work.game, work.replay, codes))


def _result_tag_name(game: Game) -> str | None:
    """The Result tag's name as the file spells it (``Result``, ``Risultato``, any case)."""
    entry = tag_entry(game.tags, "Result", aliases=True)
    return None if entry is None else entry[0]


def _set_result(work: _Work, outcome: Outcome | Literal["unknown"], fix: str, why: str) -> None:
    """Result tag (when the game has one, or any tag) and terminator spelled for ``outcome``."""
    spelled = result_spelling(outcome, work.replay.variant)
    name = _result_tag_name(work.game)
    tags = work.game.tags
    if name is not None:
        before = work.game.headers[name]
        if before != spelled:
            tags[:] = [(tag, spelled if tag == name else value) for tag, value in tags]
            work.log(
                fix, _tag_text(name, before), _tag_text(name, spelled), note=why, code="result"
            )
    elif tags:
        tags.append(("Result", spelled))
        work.log(fix, None, _tag_text("Result", spelled), note=why, code="result")
    if work.game.result != spelled:
        note = f"terminator; {why}"
        work.log(fix, work.game.result, spelled, note=note, code="result")
        work.game.result = spelled


def _respell(work: _Work) -> None:
    """Known result spellings in the variant's style (``1-0`` -> ``2-0`` on 10x10)."""
    variant = work.replay.variant
    name = _result_tag_name(work.game)
    tags = work.game.tags
    for index, (tag, value) in enumerate(tags):
        outcome = known_outcome(value)
        if tag == name and outcome is not None and value != result_spelling(outcome, variant):
            tags[index] = (tag, result_spelling(outcome, variant))
            work.log(
                "result-style", _tag_text(tag, value), _tag_text(*tags[index]), note=variant.name
            )
    result = work.game.result
    outcome = known_outcome(result)
    if result is not None and outcome is not None and result != result_spelling(outcome, variant):
        work.game.result = result_spelling(outcome, variant)
        work.log("result-style", result, work.game.result, note=f"terminator; {variant.name}")


def log_remaining(work: _Work) -> None:
    """Every finding of a kind ``fix`` repairs that the repaired record still has, logged as
    undecided unless already logged so: the change log names everything left. Replays again
    only when something changed since the last replay."""
    if work.dirty:
        work.moved()
    logged = {(change.code, change.ply) for change in work.changes if not change.changed}
    for finding in work.replay.findings:
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


def _claimed(work: _Work, finding: Finding) -> str | None:
    """The fix that claims to repair ``finding``'s kind (and is selected), or ``None``."""
    code = finding.code
    if code == "tag" and finding.message.startswith(_DATE_TAGS):
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


_STEPS: tuple[Callable[[_Work], None], ...] = (
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
