"""The repairs of a game's result: a claimed result the final position contradicts set from
the board, a missing terminator copied from the Result tag; with ``--normalize results``
also the variant's style and a missing Result tag (``fix_results``, a step of
``pdn.arbiter.repair``; ``fix_result_tag`` alone for a game whose moves cannot be read);
``set_result`` for the cuts of ``moverepair``. Cost: O(tags + main-line findings), on the
run's one replay.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pdn.arbiter.changelog import RepairWork, on_mainline, tag_text
from pdn.base.findings import IRREGULAR_CODES
from pdn.engine.drawrules import profile_for
from pdn.game.tags import Outcome, known_outcome, outcome_of, result_spelling, tag_entry

if TYPE_CHECKING:
    from pdn.engine.position import Position
    from pdn.engine.variants import Variant
    from pdn.game.record import Game


def fix_results(work: RepairWork) -> None:
    """Result tag and terminator: spelled in the variant's style (``--normalize results``);
    a claimed result set from the board when it decides otherwise; a missing terminator
    copied from the Result tag (a missing Result tag from the terminator: ``--normalize
    results``). A disagreement the board cannot settle stays (``log_remaining`` logs it)."""
    if work.allowed("result-style"):
        _respell(work)
    decided = _decided_outcome(work)
    if decided is not None and work.allowed("result-board"):
        set_result(work, decided, "result-board", "the final position decides")
        return
    name = _result_tag_name(work.game)
    tag = work.game.headers.get(name) if name else None
    if tag is None:
        fix_result_tag(work)
    elif work.game.result is None and known_outcome(tag) is not None and work.allowed("result-tag"):
        work.game.result = tag.strip()
        work.log("result-tag", None, tag.strip(), note="terminator copied from the Result tag")


def fix_result_tag(work: RepairWork) -> None:
    """(``--normalize results``) A game with tags but no Result tag gets the terminator's
    result (a known one) as its Result tag. Reads no move: also for a game whose moves
    cannot be read."""
    terminator = work.game.result
    if not work.allowed("missing-result-tag") or _result_tag_name(work.game) is not None:
        return
    if work.game.tags and known_outcome(terminator) not in (None, "unknown"):
        assert terminator is not None
        work.game.tags.append(("Result", terminator))
        work.log(
            "missing-result-tag",
            None,
            tag_text("Result", terminator),
            note="copied from the terminator",
        )


def _decided_outcome(work: RepairWork) -> Outcome | None:
    """The outcome the board gives the main line (``first``/``second`` when the side to move
    has no piece or no move, ``draw`` after a draw by rule), ``None`` when it gives none or
    when the main line did not replay cleanly to its end."""
    replayed = work.replay
    if replayed.stopped is not None or not replayed.positions or not _claims_a_result(work.game):
        return None
    if on_mainline(work.game, replayed, IRREGULAR_CODES | {"moves-after-end"}):
        return None
    decided = board_outcome(replayed.positions[-1], replayed.variant)
    if decided is None and _drawn_by_rule(work):
        decided = "draw"
    return decided


def _claims_a_result(game: Game) -> bool:
    """True when the terminator (else the Result tag) says who won or a draw: the board
    corrects a claim, never a result left unknown (``*``) or none (``0-0``), as the audit's
    ``result`` finding."""
    name = _result_tag_name(game)
    claimed = outcome_of(game.result) or outcome_of(game.headers.get(name) if name else None)
    return claimed in ("first", "second", "draw")


def _drawn_by_rule(work: RepairWork) -> bool:
    """A main-line draw by a move-limit rule, or by an automatic repetition rule."""
    automatic = profile_for(work.replay.variant, work.options.rules).repetition_automatic
    codes = ("move-limit", "repetition") if automatic else ("move-limit",)
    return bool(on_mainline(work.game, work.replay, codes))


def board_outcome(position: Position, variant: Variant) -> Outcome | None:
    """``first``/``second`` when the side to move has no piece or no move (the board decides,
    ``Position.outcome``), else ``None``; an empty board (placeholder FEN) decides nothing."""
    winner = position.outcome()
    if winner is None:
        return None
    return "first" if winner == variant.first_mover else "second"


def _result_tag_name(game: Game) -> str | None:
    """The Result tag's name as the file spells it (``Result``, ``Risultato``, any case)."""
    entry = tag_entry(game.tags, "Result", aliases=True)
    return None if entry is None else entry[0]


def set_result(work: RepairWork, outcome: Outcome | Literal["unknown"], fix: str, why: str) -> None:
    """Result tag (when the game has one, or any tag) and terminator spelled for ``outcome``;
    one that says ``outcome`` already is kept as it is spelled (``1-0`` on 10x10 stays)."""
    spelled = result_spelling(outcome, work.replay.variant)
    name = _result_tag_name(work.game)
    tags = work.game.tags
    if name is not None:
        before = work.game.headers[name]
        if known_outcome(before) != outcome:
            tags[:] = [(tag, spelled if tag == name else value) for tag, value in tags]
            work.log(fix, tag_text(name, before), tag_text(name, spelled), note=why, code="result")
    elif tags:
        tags.append(("Result", spelled))
        work.log(fix, None, tag_text("Result", spelled), note=why, code="result")
    if known_outcome(work.game.result) != outcome:
        note = f"terminator; {why}"
        work.log(fix, work.game.result, spelled, note=note, code="result")
        work.game.result = spelled


def _respell(work: RepairWork) -> None:
    """Known result spellings in the variant's style (``1-0`` -> ``2-0`` on 10x10)."""
    variant = work.replay.variant
    name = _result_tag_name(work.game)
    tags = work.game.tags
    for index, (tag, value) in enumerate(tags):
        outcome = known_outcome(value)
        if tag == name and outcome is not None and value != result_spelling(outcome, variant):
            tags[index] = (tag, result_spelling(outcome, variant))
            work.log(
                "result-style", tag_text(tag, value), tag_text(*tags[index]), note=variant.name
            )
    result = work.game.result
    outcome = known_outcome(result)
    if result is not None and outcome is not None and result != result_spelling(outcome, variant):
        work.game.result = result_spelling(outcome, variant)
        work.log("result-style", result, work.game.result, note=f"terminator; {variant.name}")
