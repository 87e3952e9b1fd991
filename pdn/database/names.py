"""Player names compared as people write them: any case, with or without accents, in the order
"First Surname" or "Surname, First", with initials.

``name_tokens("Sijbrands, Ton")`` and ``name_tokens("ton SIJBRANDS")`` are both
``("sijbrands", "ton")``: lower case, accents removed (``Baliakin`` = ``Balyakin`` is *not*
attempted: transliterations differ in letters, not marks), punctuation dropped, order ignored.
``name_key`` joins them into one comparable string (duplicate and reading detection);
``name_matches`` lets a query name match a fuller name: every query word must match a word of
the name, and an initial (``T.``) matches any word it begins; a U+FFFD (a character an earlier
decoding lost) stands for one or two letters. All O(len(name)).

A *names file* (``fix --names``, ``stats --name-variants``) gives canonical spellings: one
person a line, ``canonical<TAB>variant<TAB>variant...``; blank lines and lines starting with
``#`` are skipped. ``pdn.arbiter.namerepair`` reads one and renames; ``names_file_text``
here writes one from the spellings ``pdn stats`` merged (the most written spelling first).
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable

from pdn.arbiter.namerepair import spelling

_WORD = re.compile(r"(?:[^\W_]|\ufffd)+")  # a U+FFFD stays inside its word
_LOST = re.compile("(\ufffd+)")
#: Name particles: equal particles alone do not make two names one.
PARTICLES = frozenset(
    [
        "van",
        "der",
        "den",
        "de",
        "del",
        "della",
        "di",
        "da",
        "dos",
        "du",
        "la",
        "le",
        "ter",
        "ten",
        "te",
        "von",
        "zu",
        "af",
        "bin",
        "ibn",
    ]
)
#: Values that say "unknown" rather than name anyone.
_UNKNOWN = frozenset({"", "?", "-", "unknown", "nn", "n n", "white", "black"})


def name_tokens(name: str) -> tuple[str, ...]:
    """The words of a name, lower case, without accents, sorted (order-free)."""
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    plain = "".join(char for char in decomposed if not unicodedata.combining(char))
    return tuple(sorted(_WORD.findall(plain)))


def name_key(name: str | None) -> str:
    """One string per person as written (``""`` for a missing or placeholder name)."""
    if name is None or name.strip().casefold() in _UNKNOWN:
        return ""
    return " ".join(name_tokens(name))


def name_matches(query: str, name: str | None) -> bool:
    """Does ``name`` (a tag value) name the player ``query`` asks for? Every word of the query
    equals a word of the name, or one of the two is a single letter the other starts with;
    and at least one word that is not a particle (``van``, ``der``, ``de``, ...) is equal, so
    that ``W. van der Kooij`` is not ``van der Wal``."""
    wanted = list(name_tokens(query))
    if not name or not wanted:
        return False
    words = list(name_tokens(name))
    anchored = False
    for word in list(wanted):  # whole words first, so an initial cannot take a word's place
        same = next((w for w in words if _same_word(word, w)), None)
        if same is not None:
            words.remove(same)
            wanted.remove(word)
            anchored = anchored or word not in PARTICLES
    for initial in wanted:
        found = next(
            (w for w in words if w[0] == initial[0] and min(len(w), len(initial)) == 1), None
        )
        if found is None:
            return False
        words.remove(found)
    return anchored


def _same_word(one: str, other: str) -> bool:
    """Equal words, a run of k U+FFFD in either standing for 1 to 2k letters of the other."""
    if one == other:
        return True
    if "\ufffd" in other:
        one, other = other, one
    if "\ufffd" not in one or "\ufffd" in other:
        return False
    pattern = "".join(
        rf"[^\W\d_]{{1,{2 * len(piece)}}}" if piece.startswith("\ufffd") else re.escape(piece)
        for piece in _LOST.split(one)
    )
    return re.fullmatch(pattern, other) is not None


def names_file_text(spellings: Iterable[Counter[str]]) -> str:
    """A names file proposing, for each person written more than one way (one ``Counter`` of
    spellings -> games each), the most written spelling as canonical (ties: the longest, then
    the first in order), the others after it, most written first. Tabs and line breaks in a
    name become spaces. O(spellings x log)."""
    lines = ["# canonical<TAB>variant<TAB>...: proposed by pdn stats --name-variants; check it"]
    groups = []
    for counts in spellings:
        merged: Counter[str] = Counter()
        for name, games in counts.items():
            merged[spelling(name)] += games
        if len(merged) > 1:
            ranked = sorted(merged.items(), key=lambda item: (-item[1], -len(item[0]), item[0]))
            groups.append([name for name, _ in ranked])
    lines += ["\t".join(group) for group in sorted(groups)]
    return "\n".join(lines) + "\n"
