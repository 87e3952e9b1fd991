"""The reader's lark front end: ``grammars/pdn.lark`` loaded once per process into one LALR
parser (contextual lexer, inline transformer, no parse tree), which parses a game span with
error recovery into the reader's item stream and the faults it met (``lark_items``), and the
faults as one ``syntax`` finding each a reader would name (``one_finding_per_fault``). The
path of a game the regex fast path (``pdn.pdnfile.fastpath``) does not take. Cost: ~0.1 s
once to build the parser; O(len(span)) per game, iterative.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from pdn.base.findings import Severity, quoted
from pdn.pdnfile.scan import COMMENT_STOP
from pdn.pdnfile.terminals import Item

_GRAMMAR_PLACES = (
    Path(__file__).parent.parent / "grammars" / "pdn.lark",  # inside the wheel: pdn/grammars
    Path(__file__).resolve().parents[2] / "grammars" / "pdn.lark",  # source tree
)


def grammar_path() -> Path:
    """Where ``pdn.lark`` lives (wheel or source checkout)."""
    for place in _GRAMMAR_PLACES:
        if place.is_file():
            return place
    raise FileNotFoundError("grammars/pdn.lark not found next to the pdn package")


class _Variation(list):  # type: ignore[type-arg]
    """Children of a ``variation`` rule (LPAR ... RPAR), kept nested until flattened."""


class _ToItems(Transformer):  # type: ignore[type-arg]
    """Inline transformer: keeps tokens, marks variations; the builder does the rest."""

    def move(self, children: list[Token]) -> list[Token]:
        return children

    def variation(self, children: list[Any]) -> _Variation:
        return _Variation(children)

    def start(self, children: list[Any]) -> list[Any]:
        return children


@lru_cache(maxsize=1)
def lark() -> Lark:
    """The one LALR parser of this process (built on first use, ~0.1 s)."""
    return Lark(
        grammar_path().read_text(encoding="utf-8"),
        parser="lalr",
        lexer="contextual",
        transformer=_ToItems(),
        maybe_placeholders=False,
    )


def _flatten(tree: list[Any]) -> Iterator[Item]:
    """The nested lark result as a flat item stream. Iterative (explicit stack)."""
    stack: list[Iterator[Any]] = [iter(tree)]
    while stack:
        for child in stack[-1]:
            if isinstance(child, list):
                stack.append(iter(child))
                break
            yield (child.type, str(child), child.start_pos or 0)
        else:
            stack.pop()


# What a player would call each token the parser expected.
_WORDS = {
    "MOVE": "a move like 32-28 or c3-d4",
    "UNKNOWN_MOVE": "an unknown move '- -'",
    "MOVENUMBER": "a move number like 12.",
    "RESULT": "a result like 2-0, 1-0 or *",
    "RPAR": "')' closing a variation",
    "LPAR": "'(' opening a variation",
    "STRENGTH": "a strength mark like ! or ?",
    "COMMENT": "a comment in braces",
    "NAG": "an annotation like $1",
    "TAG": 'a tag like [Event "..."]',
    "SETUP": 'a setup /FEN "..."/',
    "$END": "the end of the game",
}


def _expected_words(expected: Iterable[str]) -> str:
    words = sorted({_WORDS[name] for name in expected if name in _WORDS})
    if not words:
        return "a move, a comment or a result"
    return ", ".join(words[:-1]) + (" or " if len(words) > 1 else "") + words[-1]


@dataclass(frozen=True)
class Fault:
    """One fault lark's recovery met: where (relative to the span), what, and the text it
    skipped (``junk``: a word that is no token at all)."""

    line: int
    column: int
    message: str
    start: int = -1  # char offsets in the span (-1: unknown)
    end: int = -1
    junk: str | None = None


#: A word that is a move or a move number (to tell prose in parentheses from a variation).
_MOVE_WORD = re.compile(r"\d+\.|\d{1,2}[-xX:]\d|[a-lA-L]\d{1,2}[-xX:]?[a-lA-L]\d")


class _Recovery:
    """``on_error`` handler of one lark parse: records findings, skips junk, closes variations."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.faults: list[Fault] = []
        self.depth = _ParenDepth(text)

    def __call__(self, error: UnexpectedInput) -> bool:
        if isinstance(error, UnexpectedCharacters):
            return self._junk(error)
        if isinstance(error, UnexpectedToken):
            return self._token(error)
        return False

    def _junk(self, error: UnexpectedCharacters) -> bool:
        state = error.interactive_parser.lexer_thread.state
        assert state is not None
        start = state.line_ctr.char_pos
        stop = _JUNK_END.search(self.text, start + 1)
        end = len(self.text) if stop is None else stop.start()
        if self.text.startswith("}", start):
            end = start + 1  # a stray '}' alone: a tag glued to it is still read
        junk: str | None = self.text[start:end]
        assert junk is not None
        if self.depth.at(start) and not junk.startswith(("{", "}")):
            end = _closing_paren(self.text, start)
            words = self.text[start:end].split()
            shown = quoted(" ".join(words), 40)
            message = f"text in parentheses is not a variation (prose?): {shown}"
            # mostly words that are no move: a remark, not a broken variation (a warning)
            junk = None if 2 * sum(bool(_MOVE_WORD.match(w)) for w in words) >= len(words) else ""
        elif junk.startswith("{") and (closed := self._unclosed_comment(error, start)):
            message = "comment '{' is never closed with '}': read to the end of the game"
            self.faults.append(self._at(error.line, error.column, message, start, closed))
            return True
        elif junk.startswith("{"):
            message, junk = "comment '{' is never closed with '}'", None
        elif junk.startswith("}"):
            message, junk = "'}' without an opening '{' (comments cannot be nested)", None
        elif junk.startswith("["):
            message = f"unreadable tag {quoted(junk)}"
        else:
            message = f"unreadable text {quoted(junk)}: not a move, move number, comment or result"
        self.faults.append(self._at(error.line, error.column, message, start, end, junk))
        state.line_ctr.feed(self.text[start:end])
        return True

    def _unclosed_comment(self, error: UnexpectedCharacters, start: int) -> int:
        """Read an unclosed ``{`` as a comment running to the next tag line or the end, as the
        scanner does (one fault, the text kept; not one fault per word). Returns where the
        comment ends, 0 when the parser takes no comment here (after the result)."""
        stop = COMMENT_STOP.search(self.text, start)  # only a tag line: there is no '}'
        end = len(self.text) if stop is None else stop.start()
        end = start + len(self.text[start:end].rstrip())  # trailing blanks: not the comment's
        comment = Token("COMMENT", self.text[start:end] + "}", start_pos=start)
        comment.line, comment.column = error.line, error.column
        try:
            error.interactive_parser.feed_token(comment)
        except UnexpectedInput:
            return 0
        state = error.interactive_parser.lexer_thread.state
        assert state is not None
        state.line_ctr.feed(self.text[start:end])
        return end

    def _token(self, error: UnexpectedToken) -> bool:
        token = error.token
        parser = error.interactive_parser
        if token.type == "$END":
            opened = self.depth.at(len(self.text))
            if not opened:
                return False
            try:
                for _ in range(opened):
                    parser.feed_token(Token("RPAR", ")"))
            except UnexpectedInput:
                return False
            line, column = _end_position(self.text)
            message = f"{opened} variation(s) '(' never closed with ')'"
            self.faults.append(Fault(line, column, message, len(self.text), len(self.text)))
            return True
        if token.type == "RPAR":
            message = "')' without an opening '('"
        elif token.type == "STRENGTH":
            message = f"strength mark {quoted(str(token))} not right after a move"
        elif token.type == "RESULT" and "RPAR" in error.expected:
            message = f"result {quoted(str(token))} inside a variation"
        elif "RESULT" not in error.expected and "MOVE" not in error.expected:
            message = f"{quoted(str(token))} after the result; expected the end of the game"
        else:
            message = f"unexpected {quoted(str(token))}; expected {_expected_words(error.expected)}"
        start = token.start_pos if token.start_pos is not None else -1
        end = token.end_pos if token.end_pos is not None else -1
        self.faults.append(self._at(token.line, token.column, message, start, end))
        return True

    def _at(
        self,
        line: int | None,
        column: int | None,
        message: str,
        start: int = -1,
        end: int = -1,
        junk: str | None = None,
    ) -> Fault:
        if not line or line < 1 or not column or column < 1:
            line, column = _end_position(self.text)
        return Fault(line, column, message, start, end, junk)


_JUNK_END = re.compile(r"[\s{(\[]")  # a tag glued to junk is still read


@lru_cache(maxsize=1)
def _paren_or_skipped() -> re.Pattern[str]:
    """A parenthesis, or text whose parentheses do not count: a comment (closed or not), a tag,
    a ``;`` comment or a ``%`` line (the grammar's own terminals)."""
    parser = lark()
    skipped = [
        parser.get_terminal(name).pattern.to_regexp()
        for name in ("TAG", "LINE_COMMENT", "ESCAPE_LINE")
    ]
    return re.compile("|".join([r"\{[^}]*\}?", *skipped, "[()]"]))


class _ParenDepth:
    """How many variations are open at a position (comments, tags and escaped lines skipped,
    stray ')' ignored).

    Incremental: positions asked in rising order cost O(text) in total.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.position = 0
        self.depth = 0

    def at(self, end: int) -> int:
        if end < self.position:
            self.position = self.depth = 0
        for match in _paren_or_skipped().finditer(self.text, self.position, end):
            char = match.group()
            if char == "(":
                self.depth += 1
            elif char == ")":
                self.depth = max(0, self.depth - 1)
        self.position = end
        return self.depth


def _closing_paren(text: str, start: int) -> int:
    """Index of the ')' closing the variation that ``start`` is in (or the text's end)."""
    depth = 0
    for index in range(start, len(text)):
        char = text[index]
        if char == "(":
            depth += 1
        elif char == ")":
            if not depth:
                return index
            depth -= 1
    return len(text)


def _end_position(text: str) -> tuple[int, int]:
    line = text.count("\n") + 1
    return line, len(text) - (text.rfind("\n") + 1) + 1


def lark_items(text: str) -> tuple[list[Item], list[Fault]]:
    """Items and faults of ``text`` parsed by lark with recovery."""
    recovery = _Recovery(text)
    try:
        tree: Any = lark().parse(text, on_error=recovery)
    except UnexpectedInput as error:  # recovery gave up: keep what the faults say
        recovery.faults.append(
            recovery._at(error.line, error.column, "the game cannot be read from here")
        )
        return [], recovery.faults
    return list(_flatten(tree)), recovery.faults


def one_finding_per_fault(
    faults: list[Fault], items: list[Item], text: str, first_line: int
) -> Iterator[tuple[Fault, Severity]]:
    """The faults of one game as findings, one per fault a reader would name: the junk of a
    header (before the first move: a literal ``\\r`` after every tag, a lone ``[``) is one
    finding, and so is everything after the result (a stray ``36x27 1-0``), and so are the
    remarks written in parentheses. Skipped text that holds no digit cannot be a move, so it is
    a ``warning``; other faults are ``error``s."""
    first_move = next(
        (offset for kind, _text, offset in items if kind in ("MOVE", "UNKNOWN_MOVE", "MOVENUMBER")),
        len(text),
    )
    end = items[-1][2] if items and items[-1][0] == "RESULT" else None
    header = [f for f in faults if f.junk and 0 <= f.start < first_move]
    after = [f for f in faults if end is not None and f.start > end]
    if header:
        words = Counter(fault.junk or "" for fault in header)
        shown = ", ".join(
            quoted(word) + (f" ({count} times)" if count > 1 else "")
            for word, count in list(words.items())[:5]
        ) + (", ..." if len(words) > 5 else "")
        lines = sorted({fault.line + first_line - 1 for fault in header})
        where = f"line {lines[0]}" if len(lines) == 1 else f"lines {lines[0]}-{lines[-1]}"
        message = f"text in the header is not PDN and is skipped ({where}): {shown}"
        yield replace(header[0], message=message), _severity_of("".join(words))
    if after:
        skipped = text[after[0].start : max(fault.end for fault in after)]
        message = f"text after the result is not read: {quoted(' '.join(skipped.split()))}"
        yield replace(after[0], message=message), "error"
    merged = {id(fault) for fault in header + after}
    prose = [f for f in faults if f.junk == "" and id(f) not in merged]  # remarks in ( )
    if len(prose) > 1:
        lines = sorted({fault.line + first_line - 1 for fault in prose})
        where = f"line {lines[0]}" if len(lines) == 1 else f"lines {lines[0]}-{lines[-1]}"
        more = f"and {len(prose) - 1} more in this game, {where}"
        yield replace(prose[0], message=f"{prose[0].message} ({more})"), "warning"
        merged.update(id(fault) for fault in prose)
    for fault in faults:
        if id(fault) not in merged:
            yield fault, "error" if fault.junk is None else _severity_of(fault.junk)


def _severity_of(skipped: str) -> Severity:
    """``warning`` for skipped text that cannot hold a move (no digit), else ``error``."""
    return "error" if any(char.isdigit() for char in skipped) else "warning"
