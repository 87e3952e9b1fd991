"""``--tag`` tests: any header tag against values, a regular expression or a number.

``TagTest.parse`` reads one test (``--tag`` once); a game passes a list of tests when every
test holds (repeated ``--tag`` = AND). The forms, ``NAME`` any case and read under its dialect
names too (``pdn.game.tags.tag_value(aliases=True)``: ``Wit`` for ``White``)::

    Event=World Championship      the value is this text (any case, spaces at the ends ignored)
    Result=2-0|0-2                one of several values (OR)
    Event~^World                  a Python regular expression finds a match (any case)
    Round!=1    Site!~Amsterdam   the negations (a game without the tag passes them)
    WhiteElo>=2400                a number compared: <, <=, >, >= (a value not a number fails)
    FEN                           the tag is there, with a value

Cost: O(tags) per test and game, plus the regular expression's own search.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property

from pdn.game.tags import tag_value

_TEST = re.compile(
    r"^(?P<name>[^=~!<>]+?)\s*(?:(?P<op>!=|!~|<=|>=|=|~|<|>)(?P<value>.*))?$", re.DOTALL
)
_NUMBER = re.compile(r"^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$")
FORMS = "NAME=VALUE[|VALUE...], NAME~REGEX, NAME!=VALUE, NAME!~REGEX, NAME>=N (<, <=, >), NAME"


@dataclass(frozen=True)
class TagTest:
    """One ``--tag`` test: the tag's name, the operator (``""`` for "is there") and the text
    after it."""

    name: str
    op: str = ""
    value: str = ""

    @classmethod
    def parse(cls, text: str) -> TagTest:
        """``"Event~^World"`` -> TagTest("Event", "~", "^World"); ``ValueError`` naming the
        forms when it is not one, or when the regular expression or number does not read."""
        match = _TEST.match(text.strip())
        if match is None or not match["name"].strip():
            raise ValueError(f"{text!r} is not a tag test: expected {FORMS}")
        test = cls(match["name"].strip(), match["op"] or "", (match["value"] or "").strip())
        if test.op in ("~", "!~"):
            try:
                test.pattern  # noqa: B018 - compiles it now: ValueError on a bad one
            except re.error as error:
                raise ValueError(f"{text!r}: bad regular expression: {error}") from None
        elif test.op in ("<", "<=", ">", ">=") and not _NUMBER.match(test.value):
            raise ValueError(f"{text!r}: {test.op} compares numbers, not {test.value!r}")
        return test

    @cached_property
    def pattern(self) -> re.Pattern[str]:
        """The regular expression of ``~`` and ``!~`` (any case)."""
        return re.compile(self.value, re.IGNORECASE)

    @cached_property
    def choices(self) -> frozenset[str]:
        """The values of ``=`` and ``!=`` (``|`` separates them), case-folded."""
        return frozenset(part.strip().casefold() for part in self.value.split("|"))

    def holds(self, tags: Iterable[tuple[str, str]]) -> bool:
        """Does the game whose header is ``tags`` pass? O(tags)."""
        found = tag_value(tags, self.name, aliases=True)
        op = self.op
        if op in ("!=", "!~"):
            return found is None or not self._positive(found, op[1])
        if found is None:
            return False
        return self._positive(found, op)

    def _positive(self, found: str, op: str) -> bool:
        if op == "=":
            return found.strip().casefold() in self.choices
        if op == "~":
            return self.pattern.search(found) is not None
        if op == "":
            return bool(found.strip())
        if not _NUMBER.match(found.strip()):
            return False
        number, bound = float(found), float(self.value)
        return {
            "<": number < bound,
            "<=": number <= bound,
            ">": number > bound,
            ">=": number >= bound,
        }[op]


def tags_pass(tests: Iterable[TagTest], tags: Iterable[tuple[str, str]]) -> bool:
    """Every test holds on ``tags`` (AND). O(tests x tags)."""
    listed = tuple(tags)
    return all(test.holds(listed) for test in tests)
