"""Duplicates and variant readings across game files.

**Duplicates** are games with the same variant, start position and main-line moves (as
replayed: full paths, so ``32x21`` and ``32x23x21`` are one move), wherever they are and
whatever their tags; games from the initial position need ``MIN_DUPLICATE_PLIES`` plies
(shorter ones say too little to be told apart: two short draws of other players are not one
game). Each group keeps its richest copy (most tags, comments, NAGs and
variations; the first in input order on a tie); tags the other copies add without
contradiction are merged into it; tags whose values differ are reported, never merged.
Copies that disagree on who played or how it ended (**conflicts**: White, Black or the result,
names compared across spellings with ``pdn.database.names``, results across styles: ``2-0`` is
``1-0``) are two records, one of them wrong: such a group keeps every copy as it is, unless
``merge_conflicts`` asks to merge them anyway. A copy that lacks a tag does not disagree.

**Variant readings** are one game recorded two ways: the same variant and start, moves that
differ in few plies, and either the same players (``pdn.database.names.name_key``) with the same
Event, Date and Round (a Date or a Round must be known; up to twice
``MAX_READING_DIFFERENCES`` or 10% of the plies may differ), or the same number of plies, at
least ``MIN_READING_PLIES``, with at most ``MAX_READING_DIFFERENCES`` (or 5%) written
differently, and at least ``MIN_AGREEMENT`` plies after the parting ply written alike; or
the same moves in another order to the same final position (a transposition, in games of
``MIN_TRANSPOSITION_PLIES`` plies or more: one game filed twice, once with a slip). A move
written differently and the moves after it written alike is what a transcription error looks
like; two games of one round that go their own ways are not
readings. Candidates of the second kind are found through the hash of
each half of the main line (one wrong move leaves the other half intact), so the cost stays
near linear. A reading gives the ply where the two part, both moves, and whether each main
line replays legally. Readings are never merged.

Cost: one parse and replay per game (``pdn.database.gamefacts``), then memory for one small entry
per game (its written main line included: O(total plies)) and a dictionary pass.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import partial
from itertools import combinations
from typing import IO

from pdn.base.paths import PathError, expand_paths
from pdn.database.gamefacts import GameFacts
from pdn.database.names import name_key, name_matches
from pdn.game.tags import tag_value

#: Plies a game from the initial position needs to be grouped with others.
MIN_DUPLICATE_PLIES = 10
#: Tags that say what the copies already share (variant and start): never contradictions.
IDENTITY_TAGS = frozenset({"FEN", "SetUp", "Setup", "GameType"})
#: Plies a game needs before equal halves make two games readings of one.
MIN_READING_PLIES = 20
#: Written plies that may differ between two readings found by their moves (or 5%).
MAX_READING_DIFFERENCES = 2
#: Plies a game needs before the same moves in another order make it a reading of another.
MIN_TRANSPOSITION_PLIES = 30
#: Plies written alike after the parting ply: two lines that never meet again are two games
#: (or two book lines), not one game with a slip of the pen.
MIN_AGREEMENT = 3
_UNKNOWN_VALUES = frozenset({"", "?", "-", "????.??.??", "*"})
#: Player tags: copies naming other players (after matching spellings) are two records.
PLAYER_TAGS = ("White", "Black")


@dataclass(frozen=True)
class Entry:
    """One game as dedupe keeps it."""

    file: str | None
    game: int
    line: int
    variant: str
    start: int
    digest: bytes
    tags: tuple[tuple[str, str], ...]
    richness: int
    written: tuple[str, ...]  # the main line as written, captures shortened to from-to
    legal: bool
    end: int | None  # key of the final position when the whole main line replayed
    result: str | None  # as written: the terminator, else the Result tag
    outcome: str | None  # ``pdn.game.tags.outcome_of`` of it; None when unknown

    @property
    def where(self) -> str:
        return f"{self.file or '<stdin>'}:{self.game}"

    @classmethod
    def of(cls, facts: GameFacts) -> Entry:
        body = "\n".join((facts.variant, str(facts.keys[0] if facts.keys else 0), *facts.paths))
        return cls(
            file=facts.file,
            game=facts.game,
            line=facts.line,
            variant=facts.variant,
            start=facts.keys[0] if facts.keys else 0,
            digest=hashlib.blake2b(body.encode("utf-8"), digest_size=16).digest(),
            tags=facts.tags,
            richness=facts.richness,
            written=tuple(_short(text) for text in facts.written),
            legal=facts.legal,
            end=facts.keys[-1] if facts.keys and len(facts.keys) - 1 == facts.plies else None,
            result=facts.result,
            outcome=facts.outcome,
        )


_SEPARATORS = re.compile(r"[-x:]")


def _short(move: str) -> str:
    """A written move as from-to (``28x19x10`` -> ``28x10``), so a full and a short capture
    compare equal; other texts (``ed4``) as they are."""
    squares = _SEPARATORS.split(move)
    if len(squares) < 2 or not squares[0] or not squares[-1]:
        return move
    return (
        squares[0] + ("x" if len(squares) > 2 or "x" in move or ":" in move else "-") + squares[-1]
    )


@dataclass
class Group:
    """Copies of one game: ``kept`` is written out with ``merged`` tags added;
    ``contradictions`` maps a tag name to each (copy, value) where values differ;
    ``conflicts`` does so for White, Black and Result when the copies disagree on them (see
    the module docstring), and then ``kept_all`` says every copy is written as it is."""

    copies: list[Entry]
    kept: Entry
    merged: list[tuple[str, str]] = field(default_factory=list)
    contradictions: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    conflicts: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    kept_all: bool = False

    @property
    def left_out(self) -> list[Entry]:
        """The copies not written."""
        return [] if self.kept_all else [copy for copy in self.copies if copy is not self.kept]

    def to_dict(self) -> dict[str, object]:
        """The group as JSON; ``conflicts`` and ``kept_all`` only for a conflict group, whose
        ``kept`` is null when every copy is kept."""
        document: dict[str, object] = {
            "kept": None if self.kept_all else self.kept.where,
            "copies": [copy.where for copy in self.copies],
            "merged_tags": [list(tag) for tag in self.merged],
            "contradicting_tags": _values_to_dict(self.contradictions),
        }
        if self.conflicts:
            document["conflicts"] = _values_to_dict(self.conflicts)
            document["kept_all"] = self.kept_all
        return document


def _values_to_dict(values: dict[str, list[tuple[str, str]]]) -> dict[str, object]:
    return {
        name: [{"game": where, "value": value} for where, value in said]
        for name, said in values.items()
    }


@dataclass(frozen=True)
class Reading:
    """Two readings of one game: where they part and what each says there."""

    first: Entry
    second: Entry
    basis: str  # "tags" (players, event, date, round), "moves" (nearly equal main lines) or
    # "transposition" (the same moves in another order to the same final position)
    ply: int  # 1-based ply where the main lines part
    first_move: str | None  # None: this reading ends before that ply
    second_move: str | None
    differences: int  # plies written differently, over the shorter line

    def to_dict(self) -> dict[str, object]:
        return {
            "games": [self.first.where, self.second.where],
            "basis": self.basis,
            "ply": self.ply,
            "moves": [self.first_move, self.second_move],
            "legal": [self.first.legal, self.second.legal],
            "differences": self.differences,
            "plies": [len(self.first.written), len(self.second.written)],
        }

    def to_text(self) -> str:
        def said(entry: Entry, move: str | None) -> str:
            verdict = "replays legally" if entry.legal else "does not replay legally"
            return f"{entry.where} {move or '(ends)'} ({verdict})"

        basis = {"tags": "same players, event, date, round"}.get(self.basis, self.basis)
        return (
            f"reading ({basis}): part at ply {self.ply}: {said(self.first, self.first_move)} "
            f"vs {said(self.second, self.second_move)}; {self.differences} plies differ "
            f"({len(self.first.written)} and {len(self.second.written)} plies)"
        )


@dataclass
class Findings:
    """The result of ``find_duplicates``: groups with two or more copies, and readings; from
    ``dedupe`` also the number of games read and the files they came from (for
    ``write_games``)."""

    groups: list[Group]
    readings: list[Reading]
    games: int = 0
    files: list[str] = field(default_factory=list)

    @property
    def conflicts(self) -> list[Group]:
        """The groups whose copies disagree on White, Black or Result."""
        return [group for group in self.groups if group.conflicts]

    def write_games(self, stream: IO[str]) -> None:
        """Every game of ``files`` once, in input order (a second scan of the files): left-out
        copies are skipped, kept copies get their merged tags after their own. Raises
        ``OSError`` when a file cannot be read again."""
        from pdn.pdnfile.scan import iter_spans

        merged = {(group.kept.file, group.kept.game): group.merged for group in self.groups}
        left_out = {(copy.file, copy.game) for group in self.groups for copy in group.left_out}
        for path in self.files:
            for span in iter_spans(path):
                where = (span.source.file, span.source.game)
                if where in left_out:
                    continue
                text = with_tags(span.text, merged.get(where, []))
                newline = "\r\n" if "\r\n" in text else "\n"
                stream.write(text + newline + newline)


def dedupe(
    paths: Iterable[str],
    *,
    variant: str | None = None,
    jobs: int = 1,
    on_error: Callable[[PathError], object] | None = None,
    merge_conflicts: bool = False,
) -> Findings:
    """The duplicates and variant readings of the games of ``paths`` (files or folders; a file
    named twice is read once). ``variant`` for games without a usable GameType; ``jobs``
    processes parse and replay (0: every core); a path that cannot be read goes to
    ``on_error`` and is skipped; ``merge_conflicts`` merges copies that disagree on White,
    Black or Result too (by default a conflict group keeps every copy)."""
    from pdn.batch.parallel import map_paths
    from pdn.database.index import facts_of_spans
    from pdn.engine.position import Position
    from pdn.engine.variants import VARIANTS
    from pdn.engine.zobrist import position_key

    entries = []
    files = list(dict.fromkeys(expand_paths(paths)))
    for item in map_paths(files, partial(facts_of_spans, variant=variant), jobs=jobs):
        if isinstance(item, PathError):
            if on_error is not None:
                on_error(item)
        else:
            entries.append(Entry.of(item))
    initial_keys = frozenset(position_key(Position.initial(v)) for v in VARIANTS.values())
    found = find_duplicates(entries, initial_keys, merge_conflicts=merge_conflicts)
    return Findings(found.groups, found.readings, len(entries), files)


def find_duplicates(
    entries: Iterable[Entry], initial_keys: frozenset[int], *, merge_conflicts: bool = False
) -> Findings:
    """Group ``entries`` (in input order) into duplicates and find variant readings.
    ``initial_keys`` are the keys of the variants' initial positions: games from there with
    fewer than ``MIN_DUPLICATE_PLIES`` plies are too short to tell one game from another
    (two short draws of other players) and take no part. A group whose copies conflict keeps
    them all unless ``merge_conflicts``."""
    by_digest: dict[bytes, list[Entry]] = defaultdict(list)
    for entry in entries:
        if len(entry.written) >= MIN_DUPLICATE_PLIES or entry.start not in initial_keys:
            by_digest[entry.digest].append(entry)
    every = [_group(copies, merge_conflicts) for copies in by_digest.values()]
    readings = list(_readings(every))
    return Findings([group for group in every if len(group.copies) > 1], readings)


def _group(copies: list[Entry], merge_conflicts: bool) -> Group:
    kept = max(copies, key=lambda entry: entry.richness)  # first of the richest
    conflicts = _conflicts(copies)
    group = Group(
        copies, kept, conflicts=conflicts, kept_all=bool(conflicts) and not merge_conflicts
    )
    have = dict(reversed(kept.tags))
    values: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for copy in copies:
        seen = set()
        for name, value in copy.tags:
            if name not in seen and value.strip() not in _UNKNOWN_VALUES:
                seen.add(name)
                values[name].append((copy.where, value))
    for name, found in values.items():
        if name in IDENTITY_TAGS:
            continue  # the copies agree on variant and start: that is what grouped them
        distinct = {value.strip() for _, value in found}
        if len(distinct) > 1:
            group.contradictions[name] = found
        elif not group.kept_all and (name not in have or have[name].strip() in _UNKNOWN_VALUES):
            group.merged.append((name, found[0][1]))
    return group


def _conflicts(copies: list[Entry]) -> dict[str, list[tuple[str, str]]]:
    """(copy, value) of each copy that says it, for White, Black and Result where two copies
    disagree: players by ``_same_player``, results by outcome (``2-0`` = ``1-0``); a copy that
    does not say (no tag, ``?``, ``*``) agrees with any. O(copies**2)."""
    conflicts: dict[str, list[tuple[str, str]]] = {}
    for tag in PLAYER_TAGS:
        named = [
            (copy.where, value)
            for copy in copies
            if (value := tag_value(copy.tags, tag, aliases=True)) and name_key(value)
        ]
        if any(not _same_player(a, b) for (_, a), (_, b) in combinations(named, 2)):
            conflicts[tag] = named
    decided = [copy for copy in copies if copy.outcome is not None]
    if len({copy.outcome for copy in decided}) > 1:
        conflicts["Result"] = [(copy.where, copy.result or "") for copy in decided]
    return conflicts


def _same_player(one: str, other: str) -> bool:
    """May two tag values name one player? ``Sijbrands, Ton`` = ``T. Sijbrands``; names
    written in other scripts (``Abaciev N.``, ``Абациев Н.``) cannot be told apart without a
    transliteration (``pdn.database.names`` attempts none), so they never disagree."""
    return (
        name_key(one) == name_key(other)
        or name_matches(one, other)
        or name_matches(other, one)
        or _scripts(one) != _scripts(other)
    )


def _scripts(name: str) -> frozenset[str]:
    """The scripts of the letters of ``name`` (``LATIN``, ``CYRILLIC``...). O(len(name))."""
    return frozenset(unicodedata.name(char, "?").split()[0] for char in name if char.isalpha())


def _readings(groups: list[Group]) -> Iterator[Reading]:
    """Readings among distinct games, each group standing as its kept copy (with the tags of
    all its copies)."""
    tag_keys = [{_tag_key(copy) for copy in group.copies} - {None} for group in groups]
    buckets: dict[tuple[object, ...] | None, list[int]] = defaultdict(list)
    for index, group in enumerate(groups):
        for tag_key in tag_keys[index]:
            buckets[tag_key].append(index)
        written = group.kept.written
        if len(written) >= MIN_READING_PLIES:
            half = len(written) // 2
            for part, moves in (("head", written[:half]), ("tail", written[half:])):
                buckets[part, group.kept.variant, group.kept.start, len(written), moves].append(
                    index
                )
        if len(written) >= MIN_TRANSPOSITION_PLIES and group.kept.end is not None:
            buckets["end", group.kept.variant, group.kept.start, group.kept.end].append(index)
    seen: set[tuple[int, int]] = set()
    for members in buckets.values():
        for a, b in combinations(members, 2):
            if (a, b) in seen:
                continue
            seen.add((a, b))
            first, second = groups[a].kept, groups[b].kept
            basis = "tags" if tag_keys[a] & tag_keys[b] else "moves"
            if basis == "moves" and _transposed(first, second):
                basis = "transposition"
            reading = _compare(first, second, basis)
            if reading is not None:
                yield reading


def _tag_key(entry: Entry) -> tuple[object, ...] | None:
    """(variant, start, White, Black, Event, Date, Round) normalised, when both players and
    a Date or a Round are known."""
    first: dict[str, str] = {}
    for name, value in entry.tags:
        first.setdefault(name, value.strip())
    white, black = name_key(first.get("White")), name_key(first.get("Black"))
    date, round_ = first.get("Date", ""), first.get("Round", "")
    if not white or not black or (date in _UNKNOWN_VALUES and round_ in _UNKNOWN_VALUES):
        return None
    event = re.sub(r"\s+", " ", first.get("Event", "").casefold())
    return ("tags", entry.variant, entry.start, white, black, event, date, round_)


def _transposed(first: Entry, second: Entry) -> bool:
    """The same moves in another order to the same final position, in a long game."""
    return (
        first.end is not None
        and first.end == second.end
        and len(first.written) >= MIN_TRANSPOSITION_PLIES
        and Counter(first.written) == Counter(second.written)
    )


def _compare(first: Entry, second: Entry, basis: str) -> Reading | None:
    """The reading two games make (``basis``: tags, moves or transposition), or None when
    they are not (the same moves, other variants or starts, too many differences)."""
    if first.variant != second.variant or first.start != second.start:
        return None
    a, b = first.written, second.written
    common = min(len(a), len(b))
    part = next((ply for ply in range(common) if a[ply] != b[ply]), None)
    if part is None and len(a) == len(b):
        return None  # the same text, replayed differently: not a reading
    differences = sum(1 for ply in range(common) if a[ply] != b[ply])
    differences += abs(len(a) - len(b))
    limit = (
        max(2 * MAX_READING_DIFFERENCES, common // 10)
        if basis == "tags"
        else max(MAX_READING_DIFFERENCES, common // 20)
    )
    agree_after = (
        sum(1 for ply in range(part + 1, common) if a[ply] == b[ply]) if part is not None else 0
    )
    if basis != "transposition" and (
        differences > limit or (part is not None and agree_after < MIN_AGREEMENT)
    ):
        return None
    ply = common if part is None else part
    return Reading(
        first=first,
        second=second,
        basis=basis,
        ply=ply + 1,
        first_move=a[ply] if ply < len(a) else None,
        second_move=b[ply] if ply < len(b) else None,
        differences=differences,
    )


# -- writing ------------------------------------------------------------------------------
_TAG_LINE = re.compile(r"[ \t]*\[[^\]\r\n]*\][ \t]*(?:\r?\n)?")
_BLANK_OR_COMMENT = re.compile(r"(?:[ \t]*\r?\n|[ \t]*\{[^}]*\}[ \t]*(?:\r?\n)?)")


def with_tags(text: str, tags: list[tuple[str, str]]) -> str:
    """``text`` (one game) with ``tags`` added as lines after its last header tag (before the
    movetext when it has no tag), in the text's own line ending. O(len(text))."""
    if not tags:
        return text
    newline = "\r\n" if "\r\n" in text else "\n"
    position = end = 0
    while True:
        match = _TAG_LINE.match(text, position) or _BLANK_OR_COMMENT.match(text, position)
        if not match or match.end() == position:
            break
        if match.re is _TAG_LINE:
            end = match.end()
        position = match.end()
    lines = "".join(
        f'[{name} "{value.replace(chr(34), chr(92) + chr(34))}"]{newline}' for name, value in tags
    )
    head = text[:end]
    if head and not head.endswith("\n"):
        head += newline
    return head + lines + text[end:]
