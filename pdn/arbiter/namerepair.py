"""``fix --names NAMES.tsv``: player names rewritten to their canonical spellings.

A names file has one person a line, ``canonical<TAB>variant<TAB>variant...``; blank lines and
lines starting with ``#`` are skipped (``pdn stats --name-variants`` proposes one).
``read_names_file`` reads it into variant -> canonical, spellings compared exactly after
``spelling`` (NFC, runs of white space as one space: case and accents count, so that only the
spellings the file lists change). ``rename_players`` sets the White and Black tags (under their
dialect names too) of one game and logs each rename as a ``Change`` of fix ``player-name``, no
finding code: an opt-in rewrite, not the answer to an audit finding. O(len(text)) to read,
O(tags) per game.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping

from pdn.arbiter.changelog import Change, tag_text
from pdn.game.record import Game
from pdn.game.tags import tag_entry

#: The ``fix`` name of a rename in the change log.
RENAME = "player-name"


def spelling(name: str) -> str:
    """A name as the names file compares it: NFC, runs of white space as one space."""
    return " ".join(unicodedata.normalize("NFC", name).split())


def read_names_file(text: str, *, file: str = "names file") -> dict[str, str]:
    """Spelling -> canonical spelling from the text of a names file (the canonical one too:
    a name written with other spaces or Unicode forms of it is rewritten). ``ValueError``
    naming ``file`` and the line for a line without a variant, or a spelling given two
    canonical forms. O(len(text))."""
    canonical_of: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        fields = [spelling(part) for part in line.split("\t") if part.strip()]
        if len(fields) < 2:
            raise ValueError(
                f"{file}:{number}: expected canonical<TAB>variant[<TAB>variant...], "
                f"got {line.strip()!r}"
            )
        canonical, *variants = fields
        for variant in (canonical, *variants):
            earlier = canonical_of.get(variant)
            if earlier is not None and earlier != canonical:
                raise ValueError(
                    f"{file}:{number}: {variant!r} is already a spelling of {earlier!r}"
                )
            canonical_of[variant] = canonical
    return canonical_of


def rename_players(game: Game, canonical_of: Mapping[str, str]) -> list[Change]:
    """Rewrite ``game``'s White and Black names that ``canonical_of`` lists; one ``Change``
    per tag rewritten."""
    changes = []
    for role in ("White", "Black"):
        entry = tag_entry(game.tags, role, aliases=True)
        if entry is None:
            continue
        name, value = entry
        canonical = canonical_of.get(spelling(value))
        if canonical is None or canonical == value:
            continue
        index = game.tags.index(entry)
        game.tags[index] = (name, canonical)
        source = game.source
        changes.append(
            Change(
                RENAME,
                None,
                tag_text(name, value),
                tag_text(name, canonical),
                file=source.file,
                game=source.game,
                line=source.line,
                column=source.column,
            )
        )
    return changes
