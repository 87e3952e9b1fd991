"""The opt-in normalizations of ``pdn fix --normalize``: valid spellings tidied, never by
default (``check -v`` names each as an ``info`` finding that says which option changes it).

``NORMALIZATIONS`` maps each option name to the fixes it turns on; ``normalizations`` reads
the option's comma list; ``normal_date`` is the one reading of a date written another way,
shared by the audit (which names it) and the ``date`` fix (which writes it). Cost: O(len)
per value.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from pdn.game.tags import date_problem

#: ``--normalize`` names -> the fixes each turns on (``all``: every one).
NORMALIZATIONS: dict[str, tuple[str, ...]] = {
    "results": ("result-style", "missing-result-tag"),
    "dates": ("date",),
    "tags": ("tag-space", "empty-tag"),
}
#: The fixes that run only when their normalization is asked for.
NORMALIZING_FIXES: frozenset[str] = frozenset(
    fix for fixes in NORMALIZATIONS.values() for fix in fixes
)

_YEAR_ONLY = re.compile(r"^(\d{4})\.?$")
_YEAR_FIRST = re.compile(r"^(\d{4}|\?{4})[-./](\d{1,2}|\?{1,2})[-./](\d{1,2}|\?{1,2})$")
_YEAR_LAST = re.compile(r"^(\d{1,2})[-./](\d{1,2})[-./](\d{4})$")


def normalizations(names: Iterable[str]) -> frozenset[str]:
    """The normalization names of ``names`` (``all`` for every one); ValueError names an
    unknown one."""
    chosen: set[str] = set()
    for name in names:
        if name == "all":
            chosen.update(NORMALIZATIONS)
        elif name in NORMALIZATIONS:
            chosen.add(name)
        else:
            known = ", ".join([*NORMALIZATIONS, "all"])
            raise ValueError(f"unknown normalization {name!r} (known: {known})")
    return frozenset(chosen)


def option_of(fix: str) -> str:
    """The ``--normalize`` name that turns on ``fix`` (one of ``NORMALIZING_FIXES``)."""
    return next(name for name, fixes in NORMALIZATIONS.items() if fix in fixes)


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


def date_doubt(value: str) -> str:
    """Why ``value`` has no one reading as a PDN date, in words."""
    if _YEAR_LAST.match(value.strip()):
        return "day and month are both 12 or less: either could come first"
    return date_problem(value) or "not a date"


def _date(year: str, month: str, day: str) -> str | None:
    parts = [part.zfill(2) if part.isdigit() else "??" for part in (month, day)]
    date = f"{year}.{parts[0]}.{parts[1]}"
    return date if date_problem(date) is None else None
