"""What tags and results mean: the one place for tag names, dialect aliases, dates and results.

- Tag names match case-insensitively everywhere (``[fen "..."]`` is the FEN tag): files in the
  wild spell them every way, and no two PDN tags differ by case only. ``tag_value`` is the one
  lookup; ``aliases=True`` also reads a tag under its Italian or translated name (``Bianco``,
  ``Blanc``, ``Wit``, ``Белые``, ``Brancas`` for ``White``: ``TAG_TRANSLATIONS``).
- A result (terminator or ``Result`` tag) is two scores, read from the first mover's side (PDN
  1.0/2.0: Black in English checkers, White elsewhere): ``outcome_of`` compares them, so
  ``2-0``, ``1-0``, ``1:0``, Delfts ``4-6`` and ``1,5-0,5`` all mean what their scores say.
- Result styles (RULES.md A.8): ``international`` (``2-0``/``1-1``/``0-2``, 10x10) and
  ``default`` (``1-0``/``1/2-1/2``/``0-1``); ``result_in_style`` respells the known spellings.

Nothing here imports the engine: O(tags) or O(len(text)) each.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from pdn.engine.variants import Variant

#: Who a result says won: the side named first in the score (the first mover), the second,
#: a draw, or ``none`` (0-0: both lost, a forfeit).
Outcome = Literal["first", "second", "draw", "none"]
#: The two ways PDN spells results (``Variant.result_style``).
ResultStyle = Literal["international", "default"]

#: Tag names as programs write them in other languages, by language, then by PDN's name. Italian
#: names are the Italian variant's own tags (PDN.md §5, evidence for that variant); the others
#: are translations a program's export writes (the reader notes each one as ``info``).
TAG_TRANSLATIONS: dict[str, dict[str, tuple[str, ...]]] = {
    "Italian": {
        "White": ("Bianco",),
        "Black": ("Nero",),
        "Event": ("Dati",),
        "Date": ("Anno",),
        "Result": ("Risultato",),
        "Opening": ("Apertura",),
    },
    "French": {
        "White": ("Blanc", "Blancs"),
        "Black": ("Noir", "Noirs"),
        "Result": ("Résultat",),
        "GameType": ("Type de jeu",),
        "Round": ("Manche",),
        "Event": ("Événement", "Evénement"),
        "Site": ("Lieu",),
    },
    "Dutch": {
        "White": ("Wit",),
        "Black": ("Zwart",),
        "Result": ("Uitslag",),
        "Round": ("Ronde",),
        "Site": ("Plaats",),
        "Event": ("Evenement",),
        "Date": ("Datum",),
    },
    "Russian": {
        "White": ("Белые",),
        "Black": ("Черные", "Чёрные"),
        "Result": ("Результат",),
        "Round": ("Тур",),
        "Site": ("Место",),
        "Event": ("Событие",),
        "Date": ("Дата",),
    },
    "Portuguese": {
        "White": ("Brancas",),
        "Black": ("Pretas",),
        "Result": ("Resultado",),
        "Round": ("Rodada",),
        "Site": ("Local",),
        "Event": ("Evento",),
        "Date": ("Data",),
    },
}


def _aliases() -> dict[str, tuple[str, ...]]:
    """Tag names by PDN's name: PDN's first, then every language's. O(names)."""
    aliases: dict[str, tuple[str, ...]] = {}
    for names in TAG_TRANSLATIONS.values():
        for tag, spellings in names.items():
            aliases[tag] = aliases.get(tag, (tag,)) + spellings
    return aliases


#: Tag names by PDN's name, PDN's first (``tag_entry(aliases=True)`` reads them in order).
TAG_ALIASES = _aliases()
#: ``TAG_ALIASES`` of the names that have other spellings, lower case: in order, and as a set.
_LOWERED_ALIASES: dict[str, tuple[tuple[str, ...], frozenset[str]]] = {
    tag: (tuple(name.lower() for name in names), frozenset(name.lower() for name in names))
    for tag, names in TAG_ALIASES.items()
    if len(names) > 1
}
#: Tag names of Italian-language files (PDN.md §5): evidence for the Italian variant.
ITALIAN_TAGS = frozenset(name for names in TAG_TRANSLATIONS["Italian"].values() for name in names)
#: A translated tag name (lower case) -> (PDN's name, its language), Italian aside.
TRANSLATED_TAGS: dict[str, tuple[str, str]] = {
    spelling.lower(): (tag, language)
    for language, names in TAG_TRANSLATIONS.items()
    if language != "Italian"
    for tag, spellings in names.items()
    for spelling in spellings
}
#: Tags holding a PDN date (``YYYY.MM.DD``, ``?`` for unknown parts).
DATE_TAGS = ("Date", "EventDate", "UTCDate", "PublicationDate")

_DATE = re.compile(r"^([0-9]{4}|\?{4})\.([0-9]{2}|\?{2})\.([0-9]{2}|\?{2})$")
_SCORES = re.compile(r"^\s*(\d+(?:[.,]\d+)?|½|1/2)\s*[-:]\s*(\d+(?:[.,]\d+)?|½|1/2)\s*$")

#: Each outcome (and ``unknown``, ``*``) spelled in the two result styles.
STYLE_SPELLING: dict[ResultStyle, dict[Outcome | Literal["unknown"], str]] = {
    "international": {
        "first": "2-0",
        "second": "0-2",
        "draw": "1-1",
        "none": "0-0",
        "unknown": "*",
    },
    "default": {"first": "1-0", "second": "0-1", "draw": "1/2-1/2", "none": "0-0", "unknown": "*"},
}
#: Spellings files use for whole-game results (both styles, ``:`` for ``-``, ``½``): the ones
#: ``result_in_style`` may respell. Other scores (``4-6``) keep their text.
KNOWN_SPELLINGS: dict[str, Outcome | Literal["unknown"]] = {
    spelling.replace("-", separator): outcome
    for style in STYLE_SPELLING.values()
    for outcome, spelling in style.items()
    for separator in ("-", ":")
} | {"\u00bd-\u00bd": "draw"}
#: Spellings PDN itself defines; kept as written even in the other style.
STANDARD_SPELLINGS = frozenset(
    spelling for style in STYLE_SPELLING.values() for spelling in style.values()
)


# -- tags -------------------------------------------------------------------------------------
def tag_entry(
    tags: Iterable[tuple[str, str]], name: str, *, aliases: bool = False
) -> tuple[str, str] | None:
    """The first tag ``name`` (any case) as written, ``(name as spelled, value)``, or ``None``;
    with ``aliases``, else the first under one of its dialect names (``TAG_ALIASES``), in
    that order. O(tags)."""
    lowered = _LOWERED_ALIASES.get(name) if aliases else None
    if lowered is None:  # one name: the first tag spelled so
        wanted_name = name.lower()
        for tag, value in tags:
            if tag.lower() == wanted_name:
                return tag, value
        return None
    names, wanted = lowered
    found: dict[str, tuple[str, str]] = {}
    for tag, value in tags:
        key = tag.lower()
        if key == names[0]:  # PDN's own name comes first: nothing can precede it
            return tag, value
        if key in wanted and key not in found:
            found[key] = (tag, value)
    for alias in names:
        if alias in found:
            return found[alias]
    return None


def tag_value(tags: Iterable[tuple[str, str]], name: str, *, aliases: bool = False) -> str | None:
    """The value of ``tag_entry(tags, name, aliases=aliases)``, or ``None``. O(tags)."""
    entry = tag_entry(tags, name, aliases=aliases)
    return None if entry is None else entry[1]


def date_problem(value: str) -> str | None:
    """Why a PDN date (``YYYY.MM.DD`` with ``?`` for unknown parts) is bad, or ``None``."""
    match = _DATE.match(value.strip())
    if not match:
        return "not a date of the form YYYY.MM.DD"
    year, month, day = match.groups()
    if year == "0000" or "00" in (month, day):
        return "zeros for unknown parts (PDN writes '?', as in ????.??.??)"
    if month.isdigit() and not 1 <= int(month) <= 12:
        return f"month {month} out of range"
    if day.isdigit() and not 1 <= int(day) <= 31:
        return f"day {day} out of range"
    return None


# -- results ----------------------------------------------------------------------------------
def outcome_of(result: str | None) -> Outcome | None:
    """What a result says: ``"first"`` / ``"second"`` (the side named first in the score, the
    first mover, won), ``"draw"``, ``"none"`` (0-0), or ``None`` for ``*``, missing or
    unreadable results. Scores are compared, so every spelling of a score agrees.

    >>> [outcome_of(text) for text in ("2-0", "1/2-1/2", "4-6", "1,5-0,5", "0-0", "*")]
    ['first', 'draw', 'second', 'first', 'none', None]
    """
    if not result:
        return None
    match = _SCORES.match(result)
    if not match:
        return None
    left, right = (_score(part) for part in match.groups())
    if left == right:
        return "none" if left == 0 else "draw"
    return "first" if left > right else "second"


def _score(text: str) -> float:
    return 0.5 if text in ("½", "1/2") else float(text.replace(",", "."))


def known_outcome(result: str | None) -> Outcome | Literal["unknown"] | None:
    """The outcome of a known result spelling (``KNOWN_SPELLINGS``; ``*`` is ``"unknown"``),
    ``None`` for any other text: what respelling may rewrite. Agrees with ``outcome_of``
    wherever both answer. O(1)."""
    return None if result is None else KNOWN_SPELLINGS.get(result.strip())


def result_spelling(outcome: Outcome | Literal["unknown"], variant: Variant) -> str:
    """``outcome`` spelled in ``variant``'s result style (``2-0``/``1-1``/``0-2`` on 10x10,
    ``1-0``/``1/2-1/2``/``0-1`` on 8x8, ``*`` for unknown). O(1)."""
    return STYLE_SPELLING[variant.result_style][outcome]


def result_in_style(result: str, variant: Variant | Callable[[], Variant]) -> str:
    """One rule for every result text: spaces around it dropped; a spelling PDN defines
    (``2-0 0-2 1-1 1-0 0-1 1/2-1/2 0-0 *``) kept; another spelling of a known outcome
    (``0:1``, ``1:1``, ``½-½``) written in ``variant``'s style (``0-1`` or ``0-2``); text that
    is no known result (a Delfts ``4-6``) unchanged. ``variant`` may be a function giving it,
    called only for a spelling that is respelled (a writer then detects a game's variant
    only when one of its results needs it)."""
    outcome = known_outcome(result)
    if outcome is None:
        return result
    spelled = result.strip()
    if spelled in STANDARD_SPELLINGS:
        return spelled
    return result_spelling(outcome, variant() if callable(variant) else variant)


def winner(result: str | None, variant: Variant) -> Literal["W", "B", "draw"] | None:
    """``"W"``/``"B"`` for the side that won, ``"draw"``, or ``None`` (unknown, unfinished,
    0-0). ``4-6`` is a win for the second mover, as the audit reads it."""
    outcome = outcome_of(result)
    if outcome == "draw":
        return "draw"
    if outcome not in ("first", "second"):
        return None
    second: Literal["W", "B"] = "B" if variant.first_mover == "W" else "W"
    return variant.first_mover if outcome == "first" else second
