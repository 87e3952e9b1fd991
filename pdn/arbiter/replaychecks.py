"""The replay's findings: where a finding of one replayed game goes and the checks that make
the words of one (tags, start position, move numbers, Frisian king runs, draw rules, result).

``ReplayChecks`` holds one game's findings (``header`` for a finding of the whole game,
``at`` for one of a move node) and reads no line of the game itself: ``pdn.arbiter.replay``
walks the lines and calls it with what it played. Cost: O(1) per call (``check_result``: one
legal-move listing of the final position), beyond the words of the findings made.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from pdn.arbiter.normalize import normal_date
from pdn.base.findings import Code, Finding, Severity, quoted
from pdn.engine.drawrules import DrawEvent, DrawProfile, material_of
from pdn.engine.geometry import Notation
from pdn.engine.position import Position, other_side, side_name
from pdn.engine.variants import Variant
from pdn.game.tags import (
    DATE_TAGS,
    date_problem,
    known_outcome,
    outcome_of,
    result_spelling,
    tag_value,
)

if TYPE_CHECKING:
    from pdn.engine.movegen import Move
    from pdn.game.numbering import Numbering
    from pdn.game.record import Game, GameNode

#: Legal alternatives named in a finding message, at most.
MAX_ALTERNATIVES = 8

_MOVE_NUMBER = re.compile(r"^(\d+)\s*(\.*)")
#: A move written with ``-`` between every square (``28-19``, ``29-18-27``, ``c3-e5``).
SQUARES_DASH = re.compile(r"^([a-l]?\d{1,3})(-[a-l]?\d{1,3})+$")


class ReplayChecks:
    """The findings of one replay of ``game`` read as ``variant`` (squares named in
    ``notation``, draws by ``profile``). ``audits=False`` (the writer's replay) keeps no
    finding of a move node. ``drawn_at``: the ply of a draw by rule on the main line."""

    def __init__(
        self,
        game: Game,
        variant: Variant,
        notation: Notation,
        profile: DrawProfile,
        *,
        audits: bool,
    ) -> None:
        self.game = game
        self.variant = variant
        self.notation = notation
        self.profile = profile
        self.audits = audits
        self.findings: list[Finding] = []
        self.drawn_at: int | None = None

    def header(self, finding: Finding) -> None:
        """Add ``finding`` (of the whole game), located at the game where it says nothing."""
        source = self.game.source
        self.findings.append(
            finding.located(
                file=finding.file or source.file,
                game=finding.game or source.game,
                line=finding.line or source.line,
                column=finding.column or source.column,
            )
        )

    def at(
        self, node: GameNode, ply: int, code: Code, message: str, severity: Severity | None = None
    ) -> None:
        """Add a ``code`` finding at move node ``node`` (ply ``ply``), unless not auditing;
        ``severity`` the code's own unless given."""
        if not self.audits:
            return
        self.findings.append(
            Finding(
                code,
                message,
                severity,
                file=self.game.source.file,
                game=self.game.source.game,
                ply=ply,
                move=node.move_text,
                line=node.line or None,
                column=node.column or None,
            )
        )

    def in_file_order(self) -> list[Finding]:
        """The findings sorted in file order (header findings first); the sort is stable."""
        self.findings.sort(key=lambda finding: (finding.line or 0, finding.column or 0))
        return self.findings

    def check_tags(self) -> None:
        """SetUp and FEN that disagree; dates that are not dates; the tags ``--normalize``
        would tidy (``info``: spaces around a value, an empty value)."""
        tags = self.game.tags
        fen = (tag_value(tags, "FEN") or "").strip()
        setup = (tag_value(tags, "SetUp") or "").strip()
        if setup == "1" and not fen:
            self.header(Finding("tag", 'SetUp "1" without a FEN tag'))
        elif setup == "0" and fen:
            self.header(Finding("tag", 'FEN tag with SetUp "0" (the FEN is used)'))
        for name in DATE_TAGS:
            value = tag_value(tags, name)
            if value is not None and value.strip() and (problem := date_problem(value)):
                # a date written another way is cosmetic; a month 13 may be a wrong record
                severity: Severity = "warning" if "out of range" in problem else "info"
                normal = normal_date(value)
                said = f"; --normalize dates writes {normal}" if normal else ""
                self.header(Finding("tag", f"{name} {quoted(value)}: {problem}{said}", severity))
        self._check_tidy_tags()

    def _check_tidy_tags(self) -> None:
        """``info`` for what ``--normalize tags`` changes: spaces around a value stripped, a
        tag with an empty value removed (unless every tag is empty: nothing is then removed).
        """
        tags = self.game.tags
        removable = any(value for _, value in tags)
        read = {finding.message for finding in self.game.findings if finding.code == "tag"}
        for name, value in tags:
            if not value:
                if removable and f"tag {name} has no value" not in read:  # the reader's note
                    message = f"{name} is empty; --normalize tags removes it"
                    self.header(Finding("tag", message, "info"))
            elif value != value.strip():
                message = (
                    f"{name} {quoted(value)}: spaces around the value; --normalize tags strips them"
                )
                self.header(Finding("tag", message, "info"))

    def check_start(self, position: Position) -> None:
        """A start position the variant does not allow, or without pieces."""
        for problem in position.problems():
            self.header(Finding("fen", f"FEN impossible in {self.variant.name}: {problem}"))
        if not any(material_of(position)):
            self.header(Finding("fen", "FEN with no pieces on the board"))

    def check_move_number(
        self, node: GameNode, ply: int, numbering: Numbering, joined: int, offset: int
    ) -> int:
        """Flag a written move number that is neither the expected one (``numbering``'s at
        ``ply`` after ``joined`` parts of split captures, plus ``offset``, written minus
        expected after a reported mismatch) nor the one before a reported jump (so a one-off
        typo is reported once). The line's offset from here on."""
        written = node.move_number or ""
        number = _written_number(written)
        if number is None:
            return offset
        base = numbering.number_at(ply + joined)
        expected = base + offset
        if number not in (expected, base):
            shifted = number == base + 1 and not numbering.at(ply + joined).first
            why = (
                " (the reply numbered as the next move: shifted by a half move)" if shifted else ""
            )
            self.at(
                node, ply, "move-number", f"move number {number} where {expected} was expected{why}"
            )
        return number - base  # follow the new numbering, or back to the old

    def check_move_half(self, node: GameNode, ply: int, numbering: Numbering, joined: int) -> bool:
        """Flag a written move number that is the expected one but marks the other half of
        the move (``1. 27-24`` where White, the second mover, is to move from the FEN: SAGE
        numbers so); True when flagged (the replay flags the first of a line only, the
        numbers after it follow it)."""
        written = node.move_number or ""
        if not written.endswith("."):
            return False
        number = numbering.at(ply + joined)
        if _written_number(written) != number.number or not marks_other_side(written, number.first):
            return False
        mover = numbering.first_mover
        side = side_name(mover if number.first else other_side(mover))
        self.at(
            node,
            ply,
            "move-number",
            f"move number {written.strip()} where {number.label(resumed=True)} was expected "
            f"({side}'s move, numbered as the other half of the move: shifted by a half move)",
        )
        return True

    def check_capture_sign(self, node: GameNode, ply: int, text: str, move: Move) -> None:
        """``info`` for a capture written with ``-`` (``29-18-27``) where the variant's capture
        separator is another: PDN 1.0 (DYNAMO, SAGE) and 2.0 allowed it, PDN 3.0 does not.
        Call it for captures only. O(len(text))."""
        separator = self.variant.capture_separator
        if separator != "-" and SQUARES_DASH.match(text) and move.is_capture:
            self.at(
                node,
                ply,
                "notation",
                f"capture {text} written with '-' (PDN 1.0 and 2.0 allowed it; PDN 3.0 writes "
                f"{text.replace('-', separator)})",
            )

    def check_king_run(
        self,
        king_runs: dict[str, tuple[int, int]],
        node: GameNode,
        ply: int,
        position: Position,
        move: Move,
    ) -> None:
        """Frisian (``Variant.king_move_limit``, RULES.md B§10): a side that still has men may
        not move the same king more than the limit times in a row without capturing. A breach
        is an ``illegal-move`` (a movement the rules forbid, not a choice among captures); the
        move is still a piece movement, so it is applied as played (RULES.md A.1).
        ``king_runs`` (colour -> square of the king that made the side's last moves, how many
        in a row) is the line's, updated for ``move`` played from ``position``. O(1)."""
        limit = self.variant.king_move_limit
        if limit is None:
            return
        colour = position.turn
        piece = position.piece_at(move.from_square)
        if piece is None or not piece.is_king or move.is_capture:
            king_runs.pop(colour, None)
            return
        square, run = king_runs.get(colour, (0, 0))
        run = run + 1 if square == move.from_square else 1
        king_runs[colour] = (move.to_square, run)
        men = material_of(position)[0 if colour == "W" else 2]
        if run > limit and men:
            board, notation = self.variant.board, self.notation
            self.at(
                node,
                ply,
                "illegal-move",
                f"the king on {board.format_square(move.from_square, notation)} moves "
                f"{run} times in a row without capturing while {side_name(colour)} still has men "
                f"({self.variant.name}: at most {limit}); applied as played",
            )

    def alternatives(self, moves: tuple[Move, ...]) -> str:
        """The legal ``moves`` named for a finding (at most ``MAX_ALTERNATIVES``)."""
        board, notation = self.variant.board, self.notation
        words = [move.notation(board, notation, full=move.is_capture) for move in moves]
        shown = ", ".join(words[:MAX_ALTERNATIVES])
        more = len(words) - MAX_ALTERNATIVES
        return shown + (f", ... {more} more" if more > 0 else "")

    def draw_events(
        self, node: GameNode, ply: int, position: Position, events: list[DrawEvent], main: bool
    ) -> str | None:
        """Report the draw rules that expired at ply ``ply`` (just played, to ``position``, at
        ``node``; ``main``: on the main line); why the game is over by them (None when it is
        not: a repetition to claim, a win on the last allowed move). Call it only while the
        line's game is not over."""
        if any(event.kind == "move-limit" for event in events) and not position.legal_moves:
            return None  # the last move won the game: a win on the last allowed move stands
        profile = self.profile
        ended: str | None = None
        for event in events:
            if event.kind == "repetition":
                how = "drawn" if profile.repetition_automatic else "a draw on claim"
                message = f"{event.summary}: {how} ({profile.repetition_source}; {profile.name})"
                self.at(node, ply, "repetition", message)
                if not profile.repetition_automatic:
                    continue
                why = f"drawn by repetition ({profile.name}) at ply {ply}"
            else:
                self.at(
                    node,
                    ply,
                    "move-limit",
                    f"draw by rule {event.rule} of profile "
                    f"{profile.name} ({event.summary}) at ply {ply}",
                )
                why = f"drawn by rule {event.rule} ({profile.name}) at ply {ply}"
            ended = ended or why
            if main and self.drawn_at is None:
                self.drawn_at = ply
        return ended

    def check_result(self, final: Position | None, final_ply: int) -> None:
        """The Result tag against the terminator, and the claimed result against a draw by
        rule and the main line's final position ``final`` after ply ``final_ply`` (None when
        the main line was not replayed to its end)."""
        tag = tag_value(self.game.tags, "Result", aliases=True)
        terminator = self.game.result
        tag_outcome = outcome_of(tag)
        end_outcome = outcome_of(terminator)
        self._check_result_texts(tag, terminator)
        claimed, text = (end_outcome, terminator) if end_outcome else (tag_outcome, tag)
        if not claimed or claimed == "none" or final is None:
            return  # a result unknown (``*``) or none (``0-0``) is never contradicted
        first = self.variant.first_mover
        winner = {"first": first, "second": other_side(first)}.get(claimed)
        if winner is not None and self.drawn_at is not None:
            self._result(
                final_ply,
                f"result {text} is a win for {side_name(winner)}, but the game "
                f"was drawn by rule at ply {self.drawn_at}",
            )
            return
        position = final
        if not position.count("W") + position.count("B"):
            return  # an empty board (placeholder FEN) says nothing about the result
        if winner is not None and position.count(winner) == 0 and not self.variant.giveaway:
            self._result(
                final_ply, f"result {text} is a win for {side_name(winner)}, who has no pieces left"
            )
            return
        expected = position.outcome()  # the board's winner when the side to move cannot move
        if expected is None:
            return
        stuck = position.turn
        if winner != expected:
            rule = " (giveaway: no move wins)" if self.variant.giveaway else ""
            self._result(
                final_ply,
                f"result {text} but {side_name(stuck)} {no_move_words(position)}: "
                f"{side_name(expected)} won{rule}",
            )

    def _check_result_texts(self, tag: str | None, terminator: str | None) -> None:
        """The Result tag against the terminator (``*`` included: it says "unknown"), one of
        them missing (``info``: ``fix`` copies the other), and (``info``) a result spelled
        otherwise than the variant's style (``--normalize results`` respells it)."""
        said_tag, said_end = _said(tag), _said(terminator)
        if said_tag and said_end and said_tag != said_end:
            self.header(
                Finding("result", f"Result tag {tag!r} but the game ends with {terminator!r}")
            )
        elif tag is not None and terminator is None and known_outcome(tag) is not None:
            message = f"no result terminator; the Result tag says {tag.strip()!r}"
            self.header(Finding("result", message, "info"))
        elif tag is None and self.game.tags and known_outcome(terminator) not in (None, "unknown"):
            message = f"no Result tag; --normalize results adds one: {terminator!r}"
            self.header(Finding("result", message, "info"))
        for text in dict.fromkeys((tag, terminator)):
            outcome = known_outcome(text)
            if text is None or outcome is None:
                continue
            styled = result_spelling(outcome, self.variant)
            if text != styled:
                message = (
                    f"result {text!r} is not in {self.variant.name}'s style; "
                    f"--normalize results writes {styled!r}"
                )
                self.header(Finding("result", message, "info"))

    def _result(self, final_ply: int, message: str, severity: Severity | None = None) -> None:
        """A ``result`` finding at the last move of the main line (header when no moves)."""
        if final_ply == 0:
            self.header(Finding("result", message, severity))
        else:
            self.at(self.game.end(), final_ply, "result", message, severity)


def _said(result: str | None) -> str | None:
    """What a result text says, ``*`` included (``"unknown"``); None when missing or
    unreadable."""
    if result is not None and result.strip() == "*":
        return "unknown"
    return outcome_of(result)


def marks_other_side(written: str, first: bool) -> bool:
    """True when the dots of a written move number mark the other half of the move than the
    ply's (``first``: the first mover's): ``12.`` on the second mover's ply, ``12...`` on the
    first mover's. Two dots or none mark neither."""
    dots = written.strip().lstrip("0123456789").strip()
    return (dots == "." and not first) or (dots == "..." and first)


@lru_cache(maxsize=4096)
def _written_number(text: str) -> int | None:
    """The number of a written move number (``"23."``, ``"23..."``), None without digits.
    Memoised: the same few hundred numbers recur in every game."""
    written = _MOVE_NUMBER.match(text)
    return int(written[1]) if written else None


def no_move_words(position: Position) -> str:
    """Why the side to move in ``position`` cannot move, in words."""
    return "has no pieces left" if position.count(position.turn) == 0 else "has no legal move"
