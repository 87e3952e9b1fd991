"""The reader's regex fast path (an optimisation, not a second grammar): one compiled regex made
of the grammar's own terminals, in lark's own match order (``pdn.pdnfile.terminals``: lark
itself is not loaded), tokenizes a game span; when the token sequence is one the grammar
accepts without error (no stray character, strength right after a move, balanced variations,
result last) its items go straight to the record builder, else ``fast_items`` says ``None``
and the lark front end (``pdn.pdnfile.larkfront``) reads the span. Cost: one regex built once
per process; O(len(span)) per game, one match per token.
"""

from __future__ import annotations

import re
from functools import lru_cache

from pdn.pdnfile.terminals import IGNORED, TERMINALS, Item


@lru_cache(maxsize=1)
def _fast_lexer() -> tuple[re.Pattern[str], frozenset[str]]:
    """One regex of the grammar's terminals in lark's match order.

    The ignored WHITESPACE terminal is folded in as an optional prefix (same text skipped,
    one match per token instead of two); ``_STRAY`` catches any other character. The commonest
    run, a move number and one or two moves (``12. 32-28 19-23``), is one match (``_NUMBERED``,
    tried first, since no result or other terminal before MOVENUMBER in that order matches where
    a move number does): the tokens lark reads there, in one regex step instead of three (a
    result is never read as the second move; a move number never matches where a move does).
    """
    regex = dict(TERMINALS)
    whitespace = regex["WHITESPACE"]
    move = f"(?:{whitespace})?(?!{regex['RESULT']})"  # a move where lark reads no result
    numbered = (
        f"(?P<_NUMBER>{regex['MOVENUMBER']}){move}(?P<_MOVE1>{regex['MOVE']})"
        f"(?:{move}(?P<_MOVE2>{regex['MOVE']}))?"
    )
    alternatives = [f"(?P<_NUMBERED>{numbered})"]
    alternatives.extend(
        f"(?P<{name}>{pattern})" for name, pattern in TERMINALS if name != "WHITESPACE"
    )
    alternatives.append(rf"(?P<_STRAY>(?!{whitespace})[\s\S])")
    pattern = re.compile(f"(?:{whitespace})?(?:{'|'.join(alternatives)})")
    return pattern, IGNORED


def fast_items(text: str) -> list[Item] | None:
    """The item stream when the grammar accepts ``text`` as is, else ``None`` (use lark)."""
    pattern, ignored = _fast_lexer()
    group = pattern.groupindex
    number_group, first_group, second_group = group["_NUMBER"], group["_MOVE1"], group["_MOVE2"]
    items: list[Item] = []
    append = items.append
    depth = 0
    previous = ""
    ended = False
    for match in pattern.finditer(text):
        kind = match.lastgroup
        if ended:
            if kind in ignored:
                continue
            return None
        if kind == "_NUMBERED":  # the common case first
            number, first, second = match.group(number_group, first_group, second_group)
            append(("MOVENUMBER", number, match.start(number_group)))
            append(("MOVE", first, match.start(first_group)))
            if second is not None:
                append(("MOVE", second, match.end() - len(second)))
            previous = "MOVE"
            continue
        if kind == "MOVE" or kind == "MOVENUMBER":
            token = match[kind]  # the token ends the match (leading whitespace is folded in)
            append((kind, token, match.end() - len(token)))
            previous = kind
            continue
        assert kind is not None
        if kind in ignored:
            continue
        if kind == "_STRAY":
            return None
        if kind == "STRENGTH":
            if previous != "MOVE" and previous != "UNKNOWN_MOVE":
                return None
        elif kind == "LPAR":
            depth += 1
        elif kind == "RPAR":
            if not depth:
                return None
            depth -= 1
        elif kind == "RESULT":
            if depth:
                return None
            ended = True
        token = match[kind]
        append((kind, token, match.end() - len(token)))
        previous = kind
    return None if depth else items
