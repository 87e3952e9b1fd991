"""The repairs of a game's text and tags: glued junk split off (``split_glued_junk``, before
reading), the codec and the damaged bytes logged, the GameType only one variant plays added;
with ``--normalize tags`` / ``dates`` tag values stripped, empty tags removed, dates made
``YYYY.MM.DD`` (also for a game whose moves cannot be read). Each is one step of
``pdn.arbiter.repair``. Cost: O(tags) each; ``split_glued_junk`` O(len(text));
``fix_gametype`` one main-line resolve per variant on the same board (games without a usable
GameType only).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from pdn.arbiter.changelog import (
    NO_TAGS,
    UNDECIDED,
    Change,
    RepairOptions,
    RepairWork,
    on_mainline,
    tag_text,
)
from pdn.arbiter.detect import STANDARD, detect_dialect, start_position
from pdn.arbiter.normalize import date_doubt, normal_date
from pdn.arbiter.replay import Replay, replay
from pdn.base.findings import IRREGULAR_CODES, Finding
from pdn.engine.errors import FenError
from pdn.engine.resolve import resolve
from pdn.engine.variants import VARIANTS, Variant
from pdn.game.tags import DATE_TAGS, date_problem

if TYPE_CHECKING:
    from pdn.game.record import Game

_DAMAGED = re.compile(r"damaged UTF-8: bytes ([0-9A-F ]+) read as U\+FFFD")
_UNREADABLE = re.compile(r"^unreadable text (['\"])(\S+)\1:")


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


def fix_encoding(work: RepairWork) -> None:
    """The output is UTF-8: log the codec the text was read with, and each damaged byte run
    read as U+FFFD with its bytes (written as U+FFFD, never guessed). A U+FFFD already in the
    text is no decoding of this run: nothing to log."""
    if not work.allowed("encoding"):
        return
    for finding in work.game.findings:
        if finding.code != "encoding" or finding.message.startswith("U+FFFD"):
            continue
        damaged = _DAMAGED.match(finding.message)
        if damaged is not None:
            note = (
                f"line {finding.line}, column {finding.column}: not UTF-8, no certain "
                "reading; written as U+FFFD"
            )
            work.log("encoding", damaged[1], "U+FFFD" * len(damaged[1].split()), note=note)
            continue
        codec = re.search(r"; read as (\S+)", finding.message)
        work.log("encoding", codec[1] if codec else finding.message, "utf-8")


def fix_tag_spaces(work: RepairWork) -> None:
    """Spaces around a tag value stripped (``[Result " 0-1"]``)."""
    if not work.allowed("tag-space"):
        return
    tags = work.game.tags
    for index, (name, value) in enumerate(tags):
        if value != value.strip():
            tags[index] = (name, value.strip())
            work.log("tag-space", tag_text(name, value), tag_text(name, value.strip()))


def fix_empty_tags(work: RepairWork) -> None:
    """Tags with an empty value removed, unless every tag is empty (see ``NO_TAGS``)."""
    if not work.allowed("empty-tag"):
        return
    tags = work.game.tags
    empty = [(name, value) for name, value in tags if not value]
    if len(empty) == len(tags):
        for name, value in empty:
            work.log("empty-tag", tag_text(name, value), None, note=f"{UNDECIDED}: {NO_TAGS}")
        return
    for name, value in empty:
        work.log("empty-tag", tag_text(name, value), "")
    tags[:] = [(name, value) for name, value in tags if value]


def fix_dates(work: RepairWork) -> None:
    """Date tags as ``YYYY.MM.DD`` when only one reading is possible (``??`` unknown)."""
    if not work.allowed("date"):
        return
    tags = work.game.tags
    for index, (name, value) in enumerate(tags):
        if name not in DATE_TAGS or not value.strip() or date_problem(value) is None:
            continue
        fixed = normal_date(value)
        if fixed is None:
            work.log("date", tag_text(name, value), None, note=f"{UNDECIDED}: {date_doubt(value)}")
        else:
            tags[index] = (name, fixed)
            work.log("date", tag_text(name, value), tag_text(name, fixed))


def fix_gametype(work: RepairWork) -> None:
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


def _doubt(work: RepairWork) -> str | None:
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
    return replayed.stopped is None and not on_mainline(game, replayed, IRREGULAR_CODES)


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
