"""The repairs of a game's result: Result tag and terminator spelled in the variant's style,
set from the board when the final position decides, made to agree when one is missing
(``fix_results``, a step of ``pdn.arbiter.repair``); ``set_result`` for the cuts of
``moverepair``. Cost: O(tags + main-line findings), on the run's one replay.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pdn.arbiter.changelog import RepairWork, on_mainline, tag_text
from pdn.base.findings import IRREGULAR_CODES
from pdn.engine.drawrules import profile_for
from pdn.game.tags import Outcome, known_outcome, result_spelling, tag_entry

if TYPE_CHECKING:
    from pdn.engine.position import Position
    from pdn.engine.variants import Variant
    from pdn.game.record import Game


def fix_results(work: RepairWork) -> None:
    """Result tag and terminator: spelled in the variant's style; set from the board when it
    decides; made to agree when one of them is missing. A disagreement the board cannot
    settle stays (``log_remaining`` logs it)."""
    if work.allowed("result-style"):
        _respell(work)
    decided = _decided_outcome(work)
    if decided is not None and work.allowed("result-board"):
        set_result(work, decided, "result-board", "the final position decides")
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
            "result-tag", None, tag_text("Result", terminator), note="copied from the terminator"
        )


def _decided_outcome(work: RepairWork) -> Outcome | None:
    """The outcome the board gives the main line (``first``/``second`` when the side to move
    has no piece or no move, ``draw`` after a draw by rule), ``None`` when it gives none or
    when the main line did not replay cleanly to its end."""
    replayed = work.replay
    if replayed.stopped is not None or not replayed.positions:
        return None
    if on_mainline(work.game, replayed, IRREGULAR_CODES | {"moves-after-end"}):
        return None
    decided = board_outcome(replayed.positions[-1], replayed.variant)
    if decided is None and _drawn_by_rule(work):
        decided = "draw"
    return decided


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
    """Result tag (when the game has one, or any tag) and terminator spelled for ``outcome``."""
    spelled = result_spelling(outcome, work.replay.variant)
    name = _result_tag_name(work.game)
    tags = work.game.tags
    if name is not None:
        before = work.game.headers[name]
        if before != spelled:
            tags[:] = [(tag, spelled if tag == name else value) for tag, value in tags]
            work.log(fix, tag_text(name, before), tag_text(name, spelled), note=why, code="result")
    elif tags:
        tags.append(("Result", spelled))
        work.log(fix, None, tag_text("Result", spelled), note=why, code="result")
    if work.game.result != spelled:
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
