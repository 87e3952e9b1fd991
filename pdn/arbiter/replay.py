"""The one replay of a game: every line through the rules engine, what was played, findings.

``replay(game)`` runs once over the main line and then every variation from its branch point
(an explicit stack, no recursion) and returns a ``Replay``: the variant and dialect it read
the game as, what was applied at every move node (``Replay.played[node] -> Played``), the
main-line positions, and the findings. ``audit(game)`` is that replay's findings. The writer
(rewritten moves), the renderer (boards, move list), ``GameNode.position()`` and the batch
check (``pdn.batch.parallel.audit_game``) all read games through this one replay, so they agree.

Each written move is resolved by ``pdn.engine.resolve``; irregular moves are reported and applied as
recorded when that is still a piece movement (RULES.md A.1), else the rest of that line is not
replayed. Exports in a known dialect (``pdn.arbiter.detect.detect_dialect``) are read as meant:
rotated squares are renamed, and a capture written jump by jump is joined into one ply when the same
piece goes on with it. Draw rules are counted by ``pdn.engine.drawrules``; the result is compared
with the terminator and with the final position of the main line. This module walks the lines;
the checks that word the findings are ``pdn.arbiter.replaychecks.ReplayChecks``.

Cost: one replay of every written move, each resolved by ``resolve`` (the written piece's
moves; the whole legal list only to diagnose an irregular move); the main-line plies variant
inference already replayed in the chosen variant are taken from it
(``pdn.arbiter.detect.detect_variant_replayed``), not resolved again; one small ``Played`` record
per move node for ``replay``. Two lighter runs of the same replay: ``audited`` (what ``pdn check``
runs) keeps only the few ``Played`` records its checks read; ``played_moves`` (what the writer
runs to rewrite moves) keeps every record and skips all that only findings read (tags, move
numbers, draw rules, Frisian king runs, the result, the words of a finding).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from pdn.arbiter.detect import (
    Dialect,
    PrefixPly,
    detect_dialect,
    detect_variant_replayed,
    infer,
    start_position,
    written_notation,
)
from pdn.arbiter.replaychecks import ReplayChecks, no_move_words
from pdn.base.findings import Finding
from pdn.base.pickling import by_fields
from pdn.engine.drawrules import DrawProfile, DrawTracker, profile_for
from pdn.engine.errors import FenError, NotReplayedError
from pdn.engine.geometry import Notation
from pdn.engine.movegen import Move  # at run time: a dataclass's field type (mypyc)
from pdn.engine.position import Position, side_name
from pdn.engine.resolve import Resolution, resolve
from pdn.engine.variants import Variant
from pdn.game.numbering import NULL_SETUP, Numbering
from pdn.game.tags import tag_value

if TYPE_CHECKING:
    from pdn.game.record import Game, GameNode

#: Words of an ``internal-error`` finding: an exception of the engine itself (a bug in pdn,
#: not a problem of the file), never reported as ``illegal-move``.
INTERNAL_ERROR = "internal error"
#: Following plies replayed to choose between the readings of an ambiguous move.
DISAMBIGUATION_PLIES = 12

#: What a replay keeps: ``"all"`` (``replay``); ``"findings"`` (``audited``: only the
#: ``Played`` records a check reads); ``"moves"`` (``played_moves``: every ``Played`` record,
#: no findings, none of the bookkeeping that only findings read).
Keep = Literal["all", "findings", "moves"]

_SEPARATOR = re.compile(r"[-x:]")


@dataclass(slots=True, init=False)
class Played:
    """What the replay applied at one move node. A slotted dataclass, compared by value and
    not to be changed. One is built per move node replayed, so its ``__init__`` is written
    out: the compiled build compiles it (27 ns), where the dataclass-made one stays a Python
    function (160 ns) in both builds, as a named tuple's ``__new__`` (250 ns) and a frozen
    dataclass's ``__init__`` (410 ns) do.

    ``move`` is the move applied at ply ``ply`` of the node's line (counted from the root),
    from ``before`` to ``after`` (legal, or irregular applied as played, or the reading an
    ambiguous move was disambiguated to). A
    capture written jump by jump (a dialect's split capture) is one ply: each of its ``parts``
    nodes gets the whole joined ``move`` and the same ``ply``, and ``part`` says which written
    part it is (1..parts); a move written in one node has ``part == parts == 0``. ``chosen``:
    the written move fit several legal captures and ``move`` is the one the look-ahead chose
    (reported as ``ambiguous-move``), a reading rather than what the record says.
    ``ends_unique``: ``move`` is the only legal move from its from-square to its to-square
    in ``before``, as resolving it found (False: not looked at), so its short form names it
    alone (the writer then searches no captures to know).
    """

    move: Move
    ply: int
    before: Position
    after: Position
    part: int = 0
    parts: int = 0
    chosen: bool = False
    ends_unique: bool = False

    def __init__(
        self,
        move: Move,
        ply: int,
        before: Position,
        after: Position,
        part: int = 0,
        parts: int = 0,
        chosen: bool = False,
        ends_unique: bool = False,
    ) -> None:
        self.move = move
        self.ply = ply
        self.before = before
        self.after = after
        self.part = part
        self.parts = parts
        self.chosen = chosen
        self.ends_unique = ends_unique

    def __reduce__(self) -> tuple[type[Any], tuple[Any, ...]]:
        return by_fields(self)  # pickle and copy through __init__


@dataclass
class Replay:
    """A game replayed once: what was played at every node, the main line, the findings.

    ``played[node]`` is the ``Played`` record of every replayed move node (variations
    included; nodes hash by identity); nodes missing from it were not replayed (their line
    stopped before them). ``positions[0]`` is the start of the main line (``positions`` is
    empty when the start position cannot be read) and ``positions[p]`` the position after
    main-line ply ``p``, whose written nodes are ``mainline_plies[p - 1]`` (several for a
    joined split capture). ``stopped`` says why the main-line positions end before its last
    written move (``None`` when they do not). ``plies`` counts every replayed ply.
    ``findings`` is ``audit(game)``; ``variant_findings`` the variant choice's part of them.
    """

    variant: Variant
    dialect: Dialect
    variant_findings: list[Finding]
    findings: list[Finding]
    played: dict[GameNode, Played]
    positions: list[Position]
    mainline_plies: list[tuple[GameNode, ...]]
    stopped: str | None
    plies: int

    @property
    def moves(self) -> list[Move]:
        """The move of each main-line ply: ``moves[p - 1]`` led to ``positions[p]``."""
        return [self.played[nodes[0]].move for nodes in self.mainline_plies]

    def position_before(self, node: GameNode) -> Position:
        """The position ``node``'s move is played from; for the root, the start position.
        A move the replay stopped at (unplayable, unknown ``--``) still has one: the position
        after its parent. ``NotReplayedError`` (with the reason) when the replay never reached
        ``node`` (or stopped at its unreadable setup). O(1)."""
        parent = node.parent
        if parent is None:
            if not self.positions:
                raise NotReplayedError(self.stopped or "the start position cannot be read")
            return self.positions[0]
        played = self.played.get(node)
        if played is not None:
            return played.before
        if node.setup is None and (parent.parent is None or parent in self.played):
            return self.position_after(parent)
        raise NotReplayedError(self._why_not(node))

    def position_after(self, node: GameNode) -> Position:
        """The position after ``node``'s move (after the whole capture for a part of a
        joined split capture); for the root, the start position. ``NotReplayedError`` when
        the replay never reached ``node``. O(1)."""
        if node.parent is None:
            return self.position_before(node)
        played = self.played.get(node)
        if played is None:
            raise NotReplayedError(self._why_not(node))
        return played.after

    def move_at(self, node: GameNode) -> Move:
        """The move played at move node ``node`` (the whole capture for a part of a joined
        split capture). ``NotReplayedError`` (with the reason) when the replay did not play
        it: its line stopped before it, or at it (an unplayable or unknown move). O(1)."""
        played = self.played.get(node)
        if played is None:
            raise NotReplayedError(self._why_not(node))
        return played.move

    def _why_not(self, node: GameNode) -> str:
        where = f"{node.move_text!r} at {node.line}:{node.column}"
        if node.is_main_variation() and self.stopped:
            return f"{where} was not replayed: {self.stopped}"
        return f"{where} was not replayed: its line stopped before it (see the findings)"


def replay(
    game: Game,
    *,
    variant: Variant | str | None = None,
    rules: str | None = None,
    exact: bool = False,
) -> Replay:
    """Replay ``game`` once (main line, then every variation from its branch point) and
    return what was played with the findings. ``variant`` (a ``Variant`` or a name) overrides
    detection when the game has no usable GameType; ``exact=True`` replays as ``variant`` even
    when the GameType names another (no variant findings then). ``rules`` names a draw-rules
    profile (ValueError when unknown). Never raises on bad input: problems become findings.
    Cost: one resolve per written move, one ``Played`` record per move node.

    >>> from pdn.pdnfile.reader import read_game
    >>> game = read_game('[GameType "20"]\\n1. 32-28 19-23 2. 28x19 14x23 *')
    >>> replayed = replay(game)
    >>> replayed.variant.name, replayed.plies, replayed.findings
    ('international', 4, [])
    >>> second = game.next().next()
    >>> replayed.played[second].move.notation(replayed.variant.board)
    '19-23'
    """
    replayer = _Replayer(game, variant, rules, exact=exact)
    findings = replayer.run()
    return Replay(
        variant=replayer.variant,
        dialect=replayer.dialect,
        variant_findings=replayer.variant_findings,
        findings=findings,
        played=replayer.played,
        positions=replayer.positions,
        mainline_plies=replayer.mainline_plies,
        stopped=replayer.stopped,
        plies=replayer.plies,
    )


class Audit(NamedTuple):
    """What ``audited`` keeps of a replay: the variant the game was read as, the plies
    replayed (variations included) and the findings (those of ``replay``)."""

    variant: Variant
    plies: int
    findings: list[Finding]


def audited(game: Game, *, variant: Variant | str | None = None, rules: str | None = None) -> Audit:
    """``replay(game)``'s variant, plies and findings without keeping what was played (no
    ``Played`` record, no main-line positions): what ``pdn check`` needs. Same arguments
    and the same findings as ``replay``; cheaper by the records."""
    replayer = _Replayer(game, variant, rules, keep="findings")
    findings = replayer.run()
    return Audit(replayer.variant, replayer.plies, findings)


class PlayedMoves:
    """What ``played_moves`` keeps of a replay: the variant and dialect the game was read as
    and the ``Played`` record of every replayed move node, as in ``Replay``. (A plain class:
    a compiled named tuple or dataclass would need ``GameNode`` when the module loads.)"""

    def __init__(self, variant: Variant, dialect: Dialect, played: dict[GameNode, Played]) -> None:
        self.variant = variant
        self.dialect = dialect
        self.played = played


def played_moves(
    game: Game, *, variant: Variant | str | None = None, exact: bool = False
) -> PlayedMoves:
    """``replay(game)``'s variant, dialect and ``played`` (the same records, read the same
    way) without the findings nor the bookkeeping only they read (tags, move numbers, draw
    rules, king runs, the result, main-line positions): what the writer needs to rewrite
    moves. Same ``variant`` and ``exact`` as ``replay``; cheaper by that bookkeeping."""
    replayer = _Replayer(game, variant, None, exact=exact, keep="moves")
    replayer.run()
    return PlayedMoves(replayer.variant, replayer.dialect, replayer.played)


def audit(
    game: Game, *, variant: Variant | str | None = None, rules: str | None = None
) -> list[Finding]:
    """Every finding for ``game``: reading findings, variant, tags, FEN, moves, draw rules,
    result, in file order. ``variant`` overrides detection when the game has no usable
    GameType; ``rules`` names a draw-rules profile (ValueError when unknown). The findings of
    ``replay(game)``, without keeping what was played (``audited``)."""
    return audited(game, variant=variant, rules=rules).findings


class _Line:
    """Replay state of one line at the node about to be replayed.

    A plain class, not a dataclass: mypyc evaluates a dataclass's field types when the module
    loads, and ``GameNode`` is imported for type checking only (see
    ``pdn.arbiter.detect.PrefixPly``).
    """

    def __init__(
        self,
        node: GameNode,
        position: Position,
        tracker: DrawTracker | None,
        ply: int,
        numbering: Numbering | None,
    ) -> None:
        self.node = node
        self.position = position
        # the draw rules' count and the line's move numbers (restarted at setups): None when
        # the replay reports nothing (``played_moves``), as only findings read them
        self.tracker = tracker
        self.numbering = numbering
        self.ply = ply  # plies from the root before ``node``
        self.number_offset = 0  # written minus expected, after a reported mismatch
        self.half_reported = False  # a number marking the other half of its move, reported
        self.joined = 0  # written parts of split captures joined into earlier plies
        # colour -> (square of the king that made the side's last moves, how many in a row)
        self.king_runs: dict[str, tuple[int, int]] = {}
        self.ended: str | None = None  # why the game was over, when it was
        self.after_end_reported = False
        self.main = False

    def fork(self, node: GameNode) -> _Line:
        """A side line from ``node``: this line's state, with its own tracker and king runs."""
        tracker = self.tracker.copy() if self.tracker is not None else None
        side = _Line(node, self.position, tracker, self.ply, self.numbering)
        side.number_offset, side.joined = self.number_offset, self.joined
        side.king_runs = dict(self.king_runs)
        side.ended, side.after_end_reported = self.ended, self.after_end_reported
        return side


class _Replayer:
    """One replay of one game (holds the variant, the profile, the findings, what was played).
    ``keep`` (see ``Keep``): ``"findings"`` keeps only the ``Played`` records the findings
    need (a move that has alternatives: a misplaced variation is checked against it);
    ``"moves"`` reports nothing and skips what only findings read."""

    def __init__(
        self,
        game: Game,
        variant: Variant | str | None,
        rules: str | None,
        *,
        exact: bool = False,
        keep: Keep = "all",
    ) -> None:
        self.game = game
        self.records = keep != "findings"  # a Played record for every move node
        self.positions_kept = keep == "all"  # main-line positions and plies
        self.audits = keep != "moves"  # findings, and the bookkeeping only they read
        override = Variant.from_name(variant) if isinstance(variant, str) else variant
        self.variant_findings: list[Finding]
        prefix: list[PrefixPly] = []
        if exact and override is not None:
            self.variant, self.variant_findings = override, []
        else:
            self.variant, self.variant_findings, prefix = detect_variant_replayed(game, override)
        # plies detection already resolved and played, by node: reused, never redone
        self.detected: dict[GameNode, PrefixPly] = {ply.node: ply for ply in prefix}
        self.dialect, dialect_findings = detect_dialect(game, self.variant)
        # squares in messages as the file writes them (an algebraic Russian file: c3, not 22)
        self.notation: Notation = written_notation(game) or self.variant.default_notation
        self.gametype = override is None and bool(
            (tag_value(game.tags, "GameType", aliases=True) or "").strip()
        )
        self.board_hint: str | None = None  # said once, on the first main-line fault
        self.profile: DrawProfile = profile_for(self.variant, rules)
        self.checks = ReplayChecks(
            game, self.variant, self.notation, self.profile, audits=self.audits
        )
        # Frisian's limit (findings only)
        self.counts_king_runs = self.audits and self.variant.king_move_limit is not None
        self.header_findings = list(game.findings) + self.variant_findings + dialect_findings
        self.plies = 0
        self.final: _Line | None = None  # the main line when it was replayed to its end
        # what was played (see ``Replay``)
        self.played: dict[GameNode, Played] = {}
        self.positions: list[Position] = []
        self.mainline_plies: list[tuple[GameNode, ...]] = []
        self.stopped: str | None = None
        self.chosen: set[GameNode] = set()  # nodes whose ambiguous move was disambiguated

    # -- driver ---------------------------------------------------------------------------
    def run(self) -> list[Finding]:
        if self.audits:
            for finding in self.header_findings:
                self.checks.header(finding)
            self.checks.check_tags()
        start = self._start_position()
        if start is not None:
            self._replay(start)
        if self.audits:
            final = self.final
            self.checks.check_result(
                final.position if final is not None else None, final.ply if final is not None else 0
            )
        # file order (variations are replayed after the main line); header findings first
        return self.checks.in_file_order()

    # -- start position -------------------------------------------------------------------
    def _start_position(self) -> Position | None:
        try:
            position = start_position(self.game, self.variant)
        except (FenError, ValueError) as error:
            self.checks.header(
                Finding("fen", f"FEN cannot be read as {self.variant.name}: {error}")
            )
            self.stopped = f"the start position cannot be read: {error}"
            return None
        if not self.audits:
            return position
        self.checks.check_start(position)
        return position

    # -- replay ---------------------------------------------------------------------------
    def _replay(self, start: Position) -> None:
        """Replay the main line, then every variation from its branch point (explicit stack)."""
        first = self.game.next()
        tracker, numbering = None, None
        if self.audits:
            tracker = DrawTracker.start(self.profile, start)
            numbering = replace(
                Numbering.of_game(self.game, self.variant.first_mover), start_turn=start.turn
            )
        root = _Line(first or self.game, start, tracker, 0, numbering)
        root.main = True
        if self.positions_kept:
            self.positions.append(start)
        if first is None:
            self.final = root
            return
        stack = [root]
        while stack:
            self._replay_line(stack.pop(), stack)

    def _replay_line(self, line: _Line, stack: list[_Line]) -> None:
        """Replay ``line`` to its end (or until it cannot go on); push its side lines."""
        node: GameNode | None = line.node
        while node is not None:
            parent = node.parent
            if parent is not None and len(parent.variations) > 1 and parent.variations[0] is node:
                stack.extend(
                    line.fork(alternative) for alternative in reversed(parent.variations[1:])
                )
            last = self._replay_node(line, node)
            if last is None:
                if line.main:
                    self.stopped = (
                        f"boards stop at ply {line.ply}: ply {line.ply + 1} ({node.move_text}) "
                        "cannot be played"
                    )
                return
            variations = last.variations  # ``last.next()``, without a call per ply
            node = variations[0] if variations else None
        if line.main:
            self.final = line

    def _replay_node(self, line: _Line, node: GameNode) -> GameNode | None:
        """Replay one ply of ``line`` from ``node``; the last node it took (``node``, or the
        last part of a split capture), None when the line cannot go on."""
        if not line.main and node is line.node:
            self._misplaced_variation(line, node)
        ply = line.ply + 1
        if node.setup and not self._apply_setup(line, node, ply):
            return None
        if node.move_number and self.audits:
            assert line.numbering is not None  # an audit numbers its lines
            line.number_offset = self.checks.check_move_number(
                node, ply, line.numbering, line.joined, line.number_offset
            )
            if not line.half_reported:
                line.half_reported = self.checks.check_move_half(
                    node, ply, line.numbering, line.joined
                )
        text = self._move_text(node)
        if not text.strip("-."):
            return None  # unknown move: nothing to replay from here
        if line.ended and not line.after_end_reported:
            self.checks.at(
                node, ply, "moves-after-end", f"move played after the game was over: {line.ended}"
            )
            line.after_end_reported = True
        before = line.position
        detected = self.detected.get(node) if self.detected else None
        after: Position | None = None
        try:
            if (
                detected is None
                or detected.text != text
                or (detected.before is not before and detected.before != before)
            ):
                resolution = resolve(before, text, self.notation)
                move, last, ends_unique = resolution.move, node, resolution.ends_unique
                if resolution.code is not None or move is None:
                    move, last = self._irregular(line, node, ply, text, resolution)
                    if move is None:
                        return None
            else:  # resolved by detection
                move, last, after = detected.move, node, detected.after
                ends_unique = detected.ends_unique
            if self.counts_king_runs:
                self.checks.check_king_run(line.king_runs, node, ply, before, move)
            if self.audits and move.is_capture and node is last:
                self.checks.check_capture_sign(node, ply, node.move_text or "", move)
            line.position = before.play(move) if after is None else after
        except Exception as error:  # noqa: BLE001 -- an engine bug must not stop a batch: report it
            self.checks.at(
                node, ply, "internal-error", f"{INTERNAL_ERROR} while replaying: {error!r}"
            )
            return None
        line.ply = ply
        self.plies += 1
        parent = node.parent
        if self.records or node is not last or (parent is not None and len(parent.variations) > 1):
            # what was played at the node (through ``last`` for a joined capture); inline
            # for a move written in one node, made once per move node replayed
            after = line.position
            if node is last:  # positional: keywords cost a third more
                chosen = node in self.chosen
                self.played[node] = Played(move, ply, before, after, 0, 0, chosen, ends_unique)
                parts: tuple[GameNode, ...] | None = None
            else:
                parts = self._record_parts(node, last, move, ply, before, after)
            if line.main and self.positions_kept:
                self.positions.append(after)
                self.mainline_plies.append(parts or (node,))
        if line.tracker is not None:
            events = line.tracker.push(line.position, move)
            if events and not line.ended:
                line.ended = self.checks.draw_events(
                    last, line.ply, line.position, events, line.main
                )
        return last

    def _misplaced_variation(self, line: _Line, node: GameNode) -> None:
        """lidraughts writes ``1. 32-28 (1... 5-10) 19-23``: the variation stands after the
        move it follows instead of after the move it replaces. When the first move of a side
        line does not play where it stands but plays after the main-line move beside it (and
        its move number, if any, names that side), the line starts after that move: a
        ``move-number`` warning with the hint, not an irregular move. Cost: two resolves,
        for the first move of a side line only."""
        parent = node.parent
        main = parent.variations[0] if parent is not None else None
        played = self.played.get(main) if main is not None else None
        text = self._move_text(node)
        if main is None or played is None or not text.strip("-.") or node.setup:
            return
        if resolve(line.position, text).code is None:
            return  # it plays where it stands
        after = played.after
        if resolve(after, text).code is not None:
            return
        number = node.move_number or ""
        if number and number.endswith("...") != (after.turn != self.variant.first_mover):
            return  # numbered as the other side's move: not this dialect
        self.checks.at(
            node,
            line.ply + 1,
            "move-number",
            f"the variation ({number + ' ' if number else ''}{node.move_text}) stands after "
            f"{main.move_text} but is an alternative to the move after it (lidraughts writes "
            "variations so): replayed from there",
        )
        line.position = after
        if line.tracker is not None:
            line.tracker.push(after, played.move)
        line.ply += 1

    def _record_parts(
        self,
        node: GameNode,
        last: GameNode,
        move: Move,
        ply: int,
        before: Position,
        after: Position,
    ) -> tuple[GameNode, ...]:
        """Record the ply of a capture joined from the nodes ``node`` to ``last`` (a dialect's
        split capture) at each of them; those nodes."""
        parts = [node]
        while parts[-1] is not last:
            following = parts[-1].next()
            assert following is not None  # the join walked this main-line chain
            parts.append(following)
        for index, part in enumerate(parts, 1):
            self.played[part] = Played(move, ply, before, after, index, len(parts))
        return tuple(parts)

    def _move_text(self, node: GameNode) -> str:
        """The move text of ``node`` with its squares named as on the PDN board."""
        text = (node.move_text or "").strip()
        return self.dialect.move_text(text, self.variant.board) if self.dialect.rotated else text

    def _apply_setup(self, line: _Line, node: GameNode, ply: int) -> bool:
        """Replace the line's position by a ``/FEN "..."/`` setup (PDN.md §1.8); a setup
        without pieces (``/FEN "B::"/``) is a null move: same pieces, that side to move."""
        assert node.setup is not None
        text = node.setup.strip()
        if NULL_SETUP.match(text):
            pieces = dict(line.position.pieces())
            turn: Literal["W", "B"] = "W" if text[0].upper() == "W" else "B"
            line.position = Position.from_pieces(self.variant, pieces, turn)
            if line.numbering is not None:
                line.numbering = line.numbering.after_setup(line.ply, text)
            return True
        try:
            position = Position.from_fen(text, self.variant)
        except (FenError, ValueError) as error:
            self.checks.at(
                node, ply, "fen", f"setup FEN cannot be read: {error}; line not replayed"
            )
            return False
        for problem in position.problems():
            self.checks.at(
                node, ply, "fen", f"setup FEN impossible in {self.variant.name}: {problem}"
            )
        line.position = position
        if line.tracker is not None:
            line.tracker = DrawTracker.start(self.profile, position)
        if line.numbering is not None:
            line.numbering = replace(
                line.numbering.after_setup(line.ply, text), start_turn=position.turn
            )
        line.number_offset, line.joined, line.ended, line.after_end_reported = 0, 0, None, False
        line.king_runs = {}
        return True

    def _irregular(
        self, line: _Line, node: GameNode, ply: int, text: str, resolution: Resolution
    ) -> tuple[Move | None, GameNode]:
        """The move to apply for ``node`` whose ``text`` resolved to an irregularity (a split
        capture joined, the reading an ambiguous move was disambiguated to, or the move as
        played) and the last node it was written in, reporting the problem."""
        position = line.position
        if (
            self.dialect.split_captures
            and resolution.code == "capture-rule"
            and resolution.as_played is not None
        ):
            joined = self._join_split_capture(position, node, text)
            if joined is not None:
                whole, last, parts = joined
                line.joined += parts
                return whole, last
        if resolution.code == "illegal-move" and not resolution.candidates:  # no legal move
            self.checks.at(
                node,
                ply,
                "moves-after-end",
                f"move played after the game was over: "
                f"{side_name(position.turn)} {no_move_words(position)}",
            )
            return None, node
        code = resolution.code or "illegal-move"
        move = resolution.as_played
        if code == "ambiguous-move" and move is None and resolution.candidates:
            move = self._disambiguate(resolution.candidates, position, node)
            self.chosen.add(node)
        if self.audits:  # the words cost a legal-move listing, maybe an inference
            message = resolution.reason or "the move does not match a legal move"
            if code == "illegal-move" and resolution.candidates:
                message += f" (legal: {self.checks.alternatives(resolution.candidates)})"
            if move is None:
                message += "; the rest of this line is not replayed"
            if line.main and code != "ambiguous-move":
                message += self._other_board()
            self.checks.at(node, ply, code, message)
        return move, node

    def _other_board(self) -> str:
        """Words for the first main-line fault when the moves read as a variant on another
        board than the GameType's (8x8 algebraic moves under GameType 20), else "". Cost:
        one inference (at most ``DETECTION_PLIES`` plies per candidate), once per game."""
        if self.board_hint is not None:
            return ""
        self.board_hint = ""
        if self.gametype:
            inference = infer(self.game)
            inferred, reason = inference.variant, inference.reason
            board, other = self.variant.board, inferred.board
            if inference.certain and (other.width, other.height) != (board.width, board.height):
                gametype = (tag_value(self.game.tags, "GameType", aliases=True) or "").strip()
                self.board_hint = (
                    f"; the moves look like {other.width}x{other.height} {inferred.name} "
                    f"({reason}), not {board.width}x{board.height} {self.variant.name}: "
                    f"is GameType {gametype!r} right?"
                )
        return self.board_hint

    def _join_split_capture(
        self, position: Position, node: GameNode, text: str
    ) -> tuple[Move, GameNode, int] | None:
        """The capture written in parts from ``node`` on (``e5xc3 7. c3xa1``): each next
        main-line move must go on from the square the last part reached, and the whole must be
        legal. (move, last node, parts joined), or None (the first part stays irregular).
        Cost: one resolve per part."""
        path, last, parts = text, node, 0
        while True:
            following = last.next()
            if following is None or len(last.variations) > 1:
                return None
            squares = _SEPARATOR.split(self._move_text(following))
            if len(squares) < 2 or squares[0] != _SEPARATOR.split(path)[-1]:
                return None
            path, last, parts = path + "x" + "x".join(squares[1:]), following, parts + 1
            resolution = resolve(position, path)
            if resolution.code is None and resolution.move is not None:
                return resolution.move, last, parts
            if resolution.code != "capture-rule" or resolution.as_played is None:
                return None

    def _disambiguate(
        self, candidates: tuple[Move, ...], position: Position, node: GameNode
    ) -> Move:
        """The candidate after which most of the next written moves (up to
        ``DISAMBIGUATION_PLIES``) are legal; the first one on a tie."""
        best, best_plies = candidates[0], -1
        for candidate in candidates:
            after, plies = position.play(candidate), 0
            following = node.next()
            while following is not None and plies < DISAMBIGUATION_PLIES:
                resolution = resolve(after, self._move_text(following))
                if resolution.code is not None or resolution.move is None:
                    break
                after, plies, following = after.play(resolution.move), plies + 1, following.next()
            if plies > best_plies:
                best, best_plies = candidate, plies
        return best
