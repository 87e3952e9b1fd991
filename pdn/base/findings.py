"""Findings: every problem the toolkit reports, with a stable code, a severity and a place.

The codes, severities and the JSON shape are a contract (DESIGN.md "Findings"): one JSON object
per finding, ``{"file", "game", "ply", "move", "line", "column", "code", "severity",
"message"}``; ``game`` is 1-based within its file, ``ply`` 1-based along the main line (``None``
for header-level findings).
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable
from dataclasses import dataclass, fields, replace
from typing import Any, Literal

#: How sure a finding is that the record is wrong (DESIGN.md "Severity is a promise").
Severity = Literal["error", "warning", "info"]
#: Every finding code (DESIGN.md table): a typo in a code is a type error.
Code = Literal[
    "file",
    "syntax",
    "encoding",
    "tag",
    "variant",
    "fen",
    "move-number",
    "illegal-move",
    "missed-capture",
    "capture-rule",
    "ambiguous-move",
    "notation",
    "repetition",
    "move-limit",
    "moves-after-end",
    "result",
    "internal-error",
]

#: Every finding code with its default severity (DESIGN.md table). The rule behind each one:
#: ``error`` = the record is wrong, ``warning`` = it may be wrong, ``info`` = a note (a
#: cosmetic deviation, a confident inference, a draw by rule the record agrees with). Findings
#: of one code may say otherwise where the rule asks for it (a date written ``2024-12-14`` is an
#: ``info`` tag finding, a month 13 a ``warning``). A draw by repetition or move limit is a fact
#: of the game: moves played after it are ``moves-after-end`` errors, a result that denies it
#: a ``result`` warning.
#: ``file``: the file is no PDN text at all (binary, a chess PGN, JSON, HTML, empty): its one
#: finding, and no game is read from it.
#: ``notation``: a move written as an older PDN wrote it, read as meant (a capture written
#: with ``-``, as PDN 1.0 and 2.0 allowed; PDN 3.0 writes the variant's capture separator).
#: ``internal-error``: pdn itself failed on a move (a bug to report, never blamed on the file
#: as ``illegal-move``).
CODES: dict[Code, Severity] = {
    "file": "error",
    "syntax": "error",
    "encoding": "warning",
    "tag": "warning",
    "variant": "warning",
    "fen": "error",
    "move-number": "warning",
    "illegal-move": "error",
    "missed-capture": "error",
    "capture-rule": "error",
    "ambiguous-move": "warning",
    "notation": "info",
    "repetition": "info",
    "move-limit": "info",
    "moves-after-end": "error",
    "result": "warning",
    "internal-error": "error",
}

SEVERITY_RANK: dict[str, int] = {"info": 0, "warning": 1, "error": 2}
#: Codes of a written move the rules do not allow as played (``fix`` cuts at the first one,
#: the report's card lists the legal moves instead).
IRREGULAR_CODES: frozenset[Code] = frozenset({"illegal-move", "missed-capture", "capture-rule"})

#: Characters of the file's own text a message quotes, at most.
QUOTE_LIMIT = 80


def quoted(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``repr`` of a piece of the file's text for a message, cut to ``limit`` characters
    (``...`` marks the cut): a 2 MB junk token is quoted by its start. O(limit)."""
    if len(text) > limit:
        return repr(text[: limit - 3] + "...")
    return repr(text)


#: Control characters (C0 but tab and line feed, DEL, C1) and the escape ``repr`` writes for each.
_CONTROLS = {
    code: repr(chr(code))[1:-1]
    for code in (*range(0x20), *range(0x7F, 0xA0))
    if chr(code) not in "\t\n"
}


def printable(text: str) -> str:
    """``text`` for human output (a terminal, a table, SVG or HTML text): each control character
    written as ``quoted`` writes it (``\\x1b``), so a value from a file cannot act on the terminal
    (OSC 52 clipboard writes, screen clears, queries); tab and line feed kept, the rest as is.
    O(len(text)); the same string when there is nothing to escape."""
    return text if text.isprintable() else text.translate(_CONTROLS)


@dataclass(frozen=True, kw_only=True)
class Place:
    """Where in a file something was found or changed: file, 1-based game in it, 1-based ply
    along the main line, the move's text, line and column; ``None`` where not known or not
    relevant. Keyword-only, so that a subclass's own fields come first in its constructor."""

    file: str | None = None
    game: int | None = None
    ply: int | None = None
    move: str | None = None
    line: int | None = None
    column: int | None = None

    def place_fields(self) -> dict[str, Any]:
        """The place as the first keys of a JSON record: the fields above, in their (the
        contract's) order."""
        return {name: getattr(self, name) for name in _PLACE_FIELDS}

    def place_text(self) -> tuple[str, str]:
        """The two parts of a compiler-style line: ``file:line:col`` (``<input>`` without a
        file) and the context ``" game 3 ply 5 32x21"`` (empty when none is known)."""
        parts = (self.file or "<input>", self.line, self.column)
        place = ":".join(str(part) for part in parts if part is not None)
        where = []
        if self.game is not None:
            where.append(f"game {self.game}")
        if self.ply is not None:
            where.append(f"ply {self.ply}")
        if self.move:
            where.append(self.move)
        return place, (" " + " ".join(where)) if where else ""


_PLACE_FIELDS = tuple(place.name for place in fields(Place))


@dataclass(frozen=True)
class Finding(Place):
    """One problem found in a file. Cheap value object; ``severity`` defaults from ``code``."""

    code: Code
    message: str
    severity: Severity | None = None

    def __post_init__(self) -> None:
        if self.code not in CODES:
            raise ValueError(f"unknown finding code {self.code!r}")
        if self.severity is None:
            object.__setattr__(self, "severity", CODES[self.code])

    def located(self, **where: Any) -> Finding:
        """A copy with location fields (file, game, ply, move, line, column) filled in."""
        return replace(self, **where)

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of the contract, keys in contract order."""
        return {
            **self.place_fields(),
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
        }

    def to_json(self) -> str:
        """One JSON Lines record."""
        return json.dumps(self.to_dict(), ensure_ascii=False)

    def to_text(self) -> str:
        """Compiler-style line: ``file:line:col: severity[code] ply N 32x21: message``."""
        place, context = self.place_text()
        return f"{place}: {self.severity}[{self.code}]{context}: {self.message}"


def passing(
    findings: Iterable[Finding],
    select: Collection[str] | None = None,
    ignore: Collection[str] | None = None,
) -> list[Finding]:
    """The findings whose code is in ``select`` (None: any) and not in ``ignore``."""
    return [
        finding
        for finding in findings
        if (select is None or finding.code in select)
        and (ignore is None or finding.code not in ignore)
    ]
