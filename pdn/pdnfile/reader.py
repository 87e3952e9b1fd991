"""The PDN front end: game spans -> ``Game`` records, with ``syntax`` and ``tag`` findings.

``grammars/pdn.lark`` is the one description of PDN syntax. Reading a game goes:

1. **fast path** (an optimisation, not a second grammar): one compiled regex made of the
   grammar's own terminals, in lark's own match order, tokenizes the span; if the token
   sequence is one the grammar accepts without error (no stray character, strength right after a
   move, balanced variations, result last), its items go straight to the record builder;
2. otherwise **lark** (LALR, contextual lexer, built once per process, inline transformer, no
   parse tree) parses the span with error recovery; every fault becomes a ``syntax`` finding,
   the game keeps what was recovered and its text in ``game.raw``.

Both paths feed the same item stream ``(terminal, text, offset)`` to one iterative record
builder (after one shared rule the grammar cannot say: see ``_score_terminator``), and tests
assert fast path == lark on every corpus game and on generated text.
Cost: O(len(span)) per game; nothing recurses over moves or variation depth.
"""

from __future__ import annotations

import gc
import io
import os
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, BinaryIO, TextIO, Union

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from pdn.base.findings import Finding, Severity, quoted
from pdn.game.embedded import EscapeLine, commands_in
from pdn.game.record import Game, GameNode, TextPlaces
from pdn.pdnfile.scan import (
    COMMENT_STOP,
    COSMETIC_TAG_PROBLEMS,
    Span,
    iter_spans,
    read_tag_value,
    span_of_text,
)

Item = tuple[str, str, int]  # (terminal name, text, char offset in the span)
SourceLike = Union[str, "os.PathLike[str]", TextIO, BinaryIO]

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


# -- lark path ------------------------------------------------------------------------------
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
def _lark() -> Lark:
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
class _Fault:
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
        self.faults: list[_Fault] = []
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
            self.faults.append(_Fault(line, column, message, len(self.text), len(self.text)))
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
    ) -> _Fault:
        if not line or line < 1 or not column or column < 1:
            line, column = _end_position(self.text)
        return _Fault(line, column, message, start, end, junk)


_JUNK_END = re.compile(r"[\s{(\[]")  # a tag glued to junk is still read


@lru_cache(maxsize=1)
def _paren_or_skipped() -> re.Pattern[str]:
    """A parenthesis, or text whose parentheses do not count: a comment (closed or not), a tag,
    a ``;`` comment or a ``%`` line (the grammar's own terminals)."""
    parser = _lark()
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


def _lark_items(text: str) -> tuple[list[Item], list[_Fault]]:
    """Items and faults of ``text`` parsed by lark with recovery."""
    recovery = _Recovery(text)
    try:
        tree: Any = _lark().parse(text, on_error=recovery)
    except UnexpectedInput as error:  # recovery gave up: keep what the faults say
        recovery.faults.append(
            recovery._at(error.line, error.column, "the game cannot be read from here")
        )
        return [], recovery.faults
    return list(_flatten(tree)), recovery.faults


# -- fast path ------------------------------------------------------------------------------
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
    parser = _lark()
    terminals = sorted(
        parser.terminals,
        key=lambda t: (-t.priority, -t.pattern.max_width, -len(t.pattern.value), t.name),
    )
    regex = {t.name: t.pattern.to_regexp() for t in terminals}
    whitespace = regex["WHITESPACE"]
    move = f"(?:{whitespace})?(?!{regex['RESULT']})"  # a move where lark reads no result
    numbered = (
        f"(?P<_NUMBER>{regex['MOVENUMBER']}){move}(?P<_MOVE1>{regex['MOVE']})"
        f"(?:{move}(?P<_MOVE2>{regex['MOVE']}))?"
    )
    alternatives = [f"(?P<_NUMBERED>{numbered})"]
    alternatives.extend(
        f"(?P<{terminal.name}>{regex[terminal.name]})"
        for terminal in terminals
        if terminal.name != "WHITESPACE"
    )
    alternatives.append(rf"(?P<_STRAY>(?!{whitespace})[\s\S])")
    pattern = re.compile(f"(?:{whitespace})?(?:{'|'.join(alternatives)})")
    return pattern, frozenset(parser.ignore_tokens)


def _fast_items(text: str) -> list[Item] | None:
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


# -- record builder -------------------------------------------------------------------------
_TAG_NAME = re.compile(r"[^\W\d]\w*")
_SETUP_FEN = re.compile(r'FEN\s*"([^"]*)"?', re.IGNORECASE)
_LEADING_ZEROS = re.compile(r"(?<![\d])0+(?=\d)")
_normal_moves: dict[str, str] = {}


def normal_move(text: str) -> str:
    """Move text as the record keeps it: lower case, no spaces, leading zeros dropped
    (squares with a separator only; ``3228`` stays), ``- -`` -> ``--``. Memoised, O(len)."""
    normal = _normal_moves.get(text)
    if normal is None:
        normal = text.lower().replace(" ", "").replace("\t", "")
        if normal != "--" and any(sep in normal for sep in "-x:"):
            normal = _LEADING_ZEROS.sub("", normal)
        if len(_normal_moves) > 65536:
            _normal_moves.clear()
        _normal_moves[text] = normal
    return normal


_normal_numbers: dict[str, str] = {}


def _normal_number(text: str) -> str:
    """``01.`` -> ``1.``, ``23..``/``23...`` -> ``23...``. Memoised."""
    normal = _normal_numbers.get(text)
    if normal is None:
        digits = text.rstrip(".").lstrip("0") or "0"
        normal = f"{digits}{'.' if text.count('.') == 1 else '...'}"
        if len(_normal_numbers) > 65536:
            _normal_numbers.clear()
        _normal_numbers[text] = normal
    return normal


def _nag_value(text: str) -> int:
    """``$14`` -> 14; absurdly long numbers (beyond int parsing limits) -> 0."""
    digits = text[1:].lstrip("0") or "0"
    return int(digits) if len(digits) < 4000 else 0


def parse_tag(token: str) -> tuple[str, str, list[str]]:
    """Split a TAG token into name, value and problems in words (empty when well formed).

    The common shape ``[Name "value"]`` (ASCII name, one space) is split with string methods;
    it means what ``parse_any_tag`` reads there (a test asserts so). O(len(token))."""
    if token.endswith('"]'):
        name, quote, rest = token[1:-1].partition(' "')
        if rest and quote and name.isascii() and name.isidentifier():
            return name, rest[:-1].replace('\\"', '"'), []
    return parse_any_tag(token)


def parse_any_tag(token: str) -> tuple[str, str, list[str]]:
    """``parse_tag`` for every TAG token (padded, unquoted, unclosed ...). O(len(token))."""
    # string methods around one anchored name match: no backtracking over long blank runs
    body = token[1:].lstrip() if token.startswith("[") else ""
    named = _TAG_NAME.match(body)
    if named is None:  # the TAG terminal guarantees a name; defensive for direct calls
        return "", token, ["malformed tag"]
    name = named.group()
    rest = body[named.end() :].rstrip()
    closed = rest.endswith("]")
    rest = (rest[:-1] if closed else rest).strip()
    problems = [] if closed else [f"tag {name} is not closed with ']'"]
    value, problem = read_tag_value(rest)
    if problem is not None:
        problems.append(f"tag {name}{problem}")
    return name, value, problems


# A line's building state, saved while one of its variations is read: tail, last move,
# insert_at, comments and NAGs waiting for the next move, setup, move number, numbered.
_LineState = tuple[
    GameNode,
    GameNode | None,
    int,
    list[str],
    list[int],
    str | None,
    str | None,
    bool,
]


def build_game(items: Iterable[Item], span: Span) -> Game:
    """A record from an item stream (offsets within the span). Iterative, O(items).

    The state of the line being read (main line or variation) lives in local variables (the
    hot path); a variation saves its enclosing line's state on ``saved`` and restores it.
    """
    source = span.source
    game = Game(source=source)
    findings = game.findings
    where = TextPlaces(span.text, source.line, source.column)  # shared by the game's nodes
    saved: list[_LineState] = []
    opened: list[tuple[int, bool]] = []  # each open '(': offset, read as a variation or not'
    seen_tags: set[str] = set()
    moved = False
    known_moves, known_numbers = _normal_moves, _normal_numbers
    new_node = object.__new__
    # the current line: the node the next move follows, the line's last move, where its first
    # move goes, what waits for the next move, and whether a move number came after the last
    tail: GameNode = game
    last: GameNode | None = None
    insert_at = 0
    before: list[str] = []
    nags: list[int] = []
    setup: str | None = None
    number: str | None = None
    numbered = False
    for kind, text, offset in items:
        if kind == "MOVE" or kind == "UNKNOWN_MOVE":
            node = new_node(GameNode)  # fields as GameNode's docstring lists them
            node.parent = tail
            node.move_text = (
                (known_moves.get(text) or normal_move(text)) if kind == "MOVE" else "--"
            )
            node.move_number = number
            node.strength = None
            node.setup = setup
            node.variations = []
            node._comments_after = None
            node._offset = offset
            node._places = where
            if before:
                node._comments_before = before
                node._commands = [command for text in before for command in commands_in(text)]
                before = []
            else:
                node._comments_before = node._commands = None
            if nags:
                node._nags = nags
                nags = []
            else:
                node._nags = None
            if last is None:
                tail.variations.insert(insert_at, node)
            else:
                tail.variations.append(node)
            tail = last = node
            setup = number = None
            numbered = False
            moved = True
        elif kind == "MOVENUMBER":
            number = known_numbers.get(text) or _normal_number(text)
            numbered = True
        elif kind == "STRENGTH":
            if last is not None:
                last.strength = text
                if text == "*":
                    findings.append(_glued_star(last, where(offset)))
        elif kind == "COMMENT" or kind == "LINE_COMMENT" or kind == "ESCAPE_LINE":
            comment = (
                text[1:-1]
                if kind == "COMMENT"
                else text[1:]
                if kind == "LINE_COMMENT"
                else EscapeLine(text.rstrip())
            )
            if last is not None and not numbered:
                last.add_comment(comment)
            else:
                before.append(comment)
        elif kind == "NAG":
            (last.nags if last is not None and not numbered else nags).append(_nag_value(text))
        elif kind == "LPAR" and last is None and saved:
            # a variation opening with '(' (``((32-27))``): no move of its own to be an
            # alternative to, so the moves inside continue it, as the text reads
            opened.append((offset, True))
        elif kind == "LPAR":
            opened.append((offset, False))
            saved.append((tail, last, insert_at, before, nags, setup, number, numbered))
            # before any move of the main line: a side line all the same (inserted first)
            branch = last.parent if last is not None else tail
            assert branch is not None
            tail, last, insert_at = branch, None, len(branch.variations)
            before, nags, setup, number, numbered = [], [], None, None, False
        elif kind == "RPAR" and opened:
            start, transparent = opened.pop()
            # reported: an empty '()', a setup alone '(/FEN "..."/)'; not a ')' the recovery
            # adds for an unclosed '(', nor prose in parentheses (reported as such)
            inside = span.text[start + 1 : offset].strip()
            closed = span.text.startswith(")", offset) and inside[:1] in ("", "/")
            if transparent:
                if closed and not inside:
                    findings.append(_empty_variation(where(offset), False))
                continue
            at = where(offset)
            state = saved.pop()
            _finish_line(
                tail,
                last,
                before,
                nags,
                setup,
                findings,
                at,
                variation=True,
                closed=closed,
                after=state[1],
            )
            tail, last, insert_at, before, nags, setup, number, numbered = state
        elif kind == "TAG":
            _add_tag(game, text, seen_tags, moved, where, offset)
            game.comments_before.extend(before)
            before = []
        elif kind == "SETUP":
            fen = _SETUP_FEN.search(text)
            setup = fen.group(1).strip() if fen else text[1:-1].strip()
        elif kind == "RESULT":
            game.result = text
        elif kind == "ELLIPSIS" and number is not None and number.endswith("."):
            number = number.rstrip(".") + "..."
    at = (source.line, source.column)
    while saved:  # variations never closed (a syntax finding says so)
        _finish_line(tail, last, before, nags, setup, findings, at, variation=True, closed=False)
        tail, last, _insert_at, before, nags, setup, _number, _numbered = saved.pop()
    _finish_line(tail, last, before, nags, setup, findings, at)
    return game


def _glued_star(node: GameNode, at: tuple[int, int]) -> Finding:
    message = (
        f"'*' glued to the move {node.move_text} is kept as its annotation, "
        "not read as the end of the game"
    )
    return Finding("syntax", message, "warning", line=at[0], column=at[1])


def _empty_variation(at: tuple[int, int], with_setup: bool) -> Finding:
    message = "variation with no move is dropped" + (", with its setup" if with_setup else "")
    return Finding("syntax", message, severity="warning", line=at[0], column=at[1])


def _finish_line(
    tail: GameNode,
    last: GameNode | None,
    before: list[str],
    nags: list[int],
    setup: str | None,
    findings: list[Finding],
    at: tuple[int, int],
    *,
    variation: bool = False,
    closed: bool = True,
    after: GameNode | None = None,
) -> None:
    """Attach what waited for a move that never came (to the line's last move, or the node the
    line follows); a setup with no move after it is the root's (main line only: a setup in
    a variation never moves to the game), or a warning. A variation without a move of its
    own (``()``, the outer pair of ``((32-27))``) is not in the record: a warning says so."""
    # an empty variation's comments and NAGs go to the move it follows (``after``)
    holder = last if last is not None else after if after is not None else tail
    for comment in before:
        holder.add_comment(comment)
    holder.nags.extend(nags)
    if variation and closed and last is None:
        findings.append(_empty_variation(at, setup is not None))
        setup = None
    if setup is not None:
        root = not variation and last is None and tail.parent is None
        if root and tail.setup is None and not tail.variations:
            tail.setup = setup
        else:
            findings.append(
                Finding(
                    "syntax",
                    "setup /FEN/ with no move after it is ignored",
                    severity="warning",
                    line=at[0],
                    column=at[1],
                )
            )


def _add_tag(
    game: Game, token: str, seen: set[str], moved: bool, where: TextPlaces, offset: int
) -> None:
    """Add the tag at ``offset`` and its findings (located only when there are some)."""
    name, value, problems = parse_tag(token)
    if name in seen:
        problems.append(f"tag {name} appears more than once (the first value is used)")
    if moved:
        problems.append(f"tag {name} comes after the moves")
    seen.add(name)
    game.tags.append((name, value))
    if not problems:
        return
    at = where(offset)
    for problem in problems:
        # an unquoted or empty value is read as meant: a cosmetic deviation
        severity: Severity = "info" if problem.endswith(COSMETIC_TAG_PROBLEMS) else "warning"
        game.findings.append(Finding("tag", problem, severity, line=at[0], column=at[1]))


def _score_terminator(items: list[Item]) -> list[Item]:
    """Scores that are not PDN results (Delfts ``4-6``, ``1-9``; PDN.md 1.7) end a game too:
    when the last item is a move (so the game has no terminator) whose text equals the value of
    the game's first ``Result`` tag (whitespace ignored), that item is the terminator. A score
    the tag does not confirm stays a move (``1-6`` is a move on many boards). The grammar
    cannot say this (it depends on a tag's value), so both paths apply it here. O(items) only
    when the last item is a move."""
    if not items or items[-1][0] != "MOVE":
        return items
    _kind, last, offset = items[-1]
    for kind, text, _offset in items:
        if kind == "TAG":
            name, value, _problems = parse_tag(text)
            if name == "Result":
                if "".join(value.split()) != "".join(last.split()):
                    return items
                return [*items[:-1], ("RESULT", last, offset)]
    return items


def _one_finding_per_fault(
    faults: list[_Fault], items: list[Item], text: str, first_line: int
) -> Iterator[tuple[_Fault, Severity]]:
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


# -- public API -----------------------------------------------------------------------------
def parse_span(span: Span, *, fast: bool = True) -> Game:
    """Parse one scanned span into a record (findings located in the whole file).

    ``fast=False`` forces the lark path (used by the tests that prove both paths equal).
    The cyclic garbage collector is paused while the game is built (its nodes and the
    transient items would trigger several collections per game for no garbage).
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _parse_span(span, fast)
    finally:
        if collecting:
            gc.enable()


def _parse_span(span: Span, fast: bool) -> Game:
    items = _fast_items(span.text) if fast else None
    faults: list[_Fault] = []
    if items is None:
        items, faults = _lark_items(span.text)
    items = _score_terminator(items)
    game = build_game(items, span)
    source = span.source
    if faults:
        for fault, severity in _one_finding_per_fault(faults, items, span.text, source.line):
            line = fault.line + source.line - 1
            column = fault.column + (source.column - 1 if fault.line == 1 else 0)
            finding = Finding("syntax", fault.message, severity, line=line, column=column)
            game.findings.append(finding)
    if faults or (span.text.strip() and _holds_nothing(game, span.text)):
        game.raw = span.text  # written back as it is: text the record cannot hold is kept
    if span.findings or game.findings:
        located = [*span.findings, *game.findings]
        game.findings = [f.located(file=source.file, game=source.game) for f in located]
    return game


def _holds_nothing(game: Game, text: str) -> bool:
    """A record that, written from itself, could vanish or merge with a neighbour game: no
    move and nothing but tags and comments, or a tagless game without moves whose move number
    (lost in the record) is what made it a game of its own (``1. 0-2`` after a game). Such a
    game keeps its text."""
    if game.variations:
        return False
    if not (game.result or game.nags or game.setup):
        return True
    return not game.tags and _MOVE_NUMBER_WORD.search(text) is not None


_MOVE_NUMBER_WORD = re.compile(r"(?<!\S)\d+\.")


def read_games(source: SourceLike | bytes, *, name: str | None = None) -> Iterator[Game]:
    """Every game of a path ("-" = stdin), a text or binary stream, or ``bytes`` of PDN
    (decoded as a file is), streamed span by span. PDN text in a ``str`` is no path:
    ValueError pointing to ``read_game``/``io.StringIO``; TypeError for other objects."""
    return _read_games(_source(source), name)


def _read_games(source: SourceLike, name: str | None) -> Iterator[Game]:
    for span in iter_spans(source, name=name):
        yield parse_span(span)


def _source(source: object) -> SourceLike:
    """Check a ``read_games`` source at the call (not at the first ``next``)."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        return io.BytesIO(bytes(source))
    if isinstance(source, str):
        if ("\n" in source or source.lstrip().startswith("[")) and not os.path.exists(source):
            raise ValueError(
                "read_games takes a path or a stream, and this looks like PDN text: "
                "use read_game(text) or read_games(io.StringIO(text))"
            )
        return source
    if isinstance(source, os.PathLike) or hasattr(source, "read"):
        return source  # type: ignore[return-value]
    raise TypeError(f"read_games takes a path, a stream or bytes, not {type(source).__name__}")


def read_game(text: str | bytes) -> Game:
    """The first game of a PDN text, or of ``bytes`` decoded as a file is (an empty record
    when it holds none). TypeError for anything else."""
    if isinstance(text, (bytes, bytearray)):
        stream: SourceLike = io.BytesIO(bytes(text))
    elif isinstance(text, str):
        stream = io.StringIO(text)
    else:
        raise TypeError(f"read_game takes PDN text (str or bytes), not {type(text).__name__}")
    for span in iter_spans(stream):
        return parse_span(span)
    return parse_span(span_of_text(""))
