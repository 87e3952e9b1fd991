"""The PDN reader: game spans -> ``Game`` records, with ``syntax`` and ``tag`` findings, and
the public read functions (``read_games``, ``read_game``, ``parse_span``).

``grammars/pdn.lark`` is the one description of PDN syntax. Reading a game goes:

1. **fast path** (``pdn.pdnfile.fastpath``, an optimisation, not a second grammar): the
   grammar's own terminals as one regex; when the grammar accepts the tokens as they are, its
   items go straight to the record builder;
2. otherwise **lark** (``pdn.pdnfile.larkfront``) parses the span with error recovery; every
   fault becomes a ``syntax`` finding, the game keeps what was recovered and its text in
   ``game.raw``.

Both paths feed the same item stream ``(terminal, text, offset)`` to this module's one
iterative record builder (after one shared rule the grammar cannot say: see
``_score_terminator``), and tests assert fast path == lark on every corpus game and on
generated text. Cost: O(len(span)) per game; nothing recurses over moves or variation depth.
"""

from __future__ import annotations

import gc
import io
import os
import re
from collections.abc import Iterable, Iterator
from itertools import islice
from typing import TYPE_CHECKING, TextIO, overload

from pdn.base.findings import Finding, Severity, quoted
from pdn.game.embedded import EscapeLine, commands_in
from pdn.game.record import Game, GameNode, TextPlaces
from pdn.game.tags import TRANSLATED_TAGS
from pdn.pdnfile.fastpath import fast_items
from pdn.pdnfile.scan import (
    COSMETIC_TAG_PROBLEMS,
    TAG_NAME,
    SourceLike,
    decode_references,
    iter_spans,
    read_tag_value,
    span_of_text,
)
from pdn.pdnfile.span import Span
from pdn.pdnfile.terminals import Item

if TYPE_CHECKING:
    from pdn.pdnfile.larkfront import Fault

# -- record builder -------------------------------------------------------------------------
_TAG_NAME = re.compile(TAG_NAME)
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
            if before:  # the root's list is made only for comments before a tag
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
    tag, problems, notes = _tag_reading(token)
    name = tag[0]
    if name in seen:
        problems += (f"tag {name} appears more than once (the first value is used)",)
    if moved:
        problems += (f"tag {name} comes after the moves",)
    seen.add(name)
    game.tags.append(tag)
    if not problems and not notes:
        return
    at = where(offset)
    for note in notes:
        game.findings.append(Finding("tag", note, "info", line=at[0], column=at[1]))
    for problem in problems:
        # an unquoted or empty value is read as meant: a cosmetic deviation
        severity: Severity = "info" if problem.endswith(COSMETIC_TAG_PROBLEMS) else "warning"
        game.findings.append(Finding("tag", problem, severity, line=at[0], column=at[1]))


_TagReading = tuple[tuple[str, str], tuple[str, ...], tuple[str, ...]]
_tag_readings: dict[str, _TagReading] = {}
_MEMO_TAGS = 4096
_MEMO_TAG_CHARS = 128  # longer tag lines are rarely repeated: not kept


def _tag_reading(token: str) -> _TagReading:
    """A TAG token read alone: (name, value) with character references decoded, its problems
    and its notes (references, translated names). Memoised for short tokens, since a file
    repeats most of its tag lines (``[Result "1-0"]``, ``[Round "?"]``); the (name, value)
    pair is shared by the games that have it. O(len(token)), O(1) when known."""
    reading = _tag_readings.get(token)
    if reading is not None:
        return reading
    name, value, problems = parse_tag(token)
    notes = _tag_notes(name, value)
    name, value = decode_references(name), decode_references(value)
    translated = TRANSLATED_TAGS.get(name.lower())
    if translated is not None:
        notes.append(f"tag {name} is {translated[1]} for {translated[0]}: read as {translated[0]}")
    reading = ((name, value), tuple(problems), tuple(notes))
    if len(token) <= _MEMO_TAG_CHARS:
        if len(_tag_readings) > _MEMO_TAGS:
            _tag_readings.clear()
        _tag_readings[token] = reading
    return reading


def _tag_notes(name: str, value: str) -> list[str]:
    """What character references a tag's name and value were written with, as notes. O(len)."""
    notes = []
    for part, text in (("name", name), ("value", value)):
        decoded = decode_references(text)
        if decoded != text:
            notes.append(
                f"tag {part} {quoted(text)} is written with HTML character references: "
                f"read as {quoted(decoded)}"
            )
    return notes


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
    items = fast_items(span.text) if fast else None
    faults: list[Fault] = []
    if items is None:  # lark is imported (and its parser built) by the first game needing it
        from pdn.pdnfile.larkfront import lark_items

        items, faults = lark_items(span.text)
    items = _score_terminator(items)
    game = build_game(items, span)
    source = span.source
    if faults:
        from pdn.pdnfile.larkfront import one_finding_per_fault

        for fault, severity in one_finding_per_fault(faults, items, span.text, source.line):
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


@overload
def read_game(text: str | bytes) -> Game: ...
@overload
def read_game(text: TextIO) -> Game | None: ...
def read_game(text: str | bytes | TextIO) -> Game | None:
    """The first game of a PDN text, or of ``bytes`` decoded as a file is (an empty record
    when it holds none); or the next game of an open text handle, ``None`` at the end of its
    input, as python-chess's ``chess.pgn.read_game(handle)``: called again and again on one
    handle it gives the games ``read_games`` gives, one by one, then ``None``. TypeError for
    anything else.

    A handle is read line by line and left right after the game read: where the next game
    starts (as ``pdn.pdnfile.scan`` splits games), which is checked at each line that begins
    with ``[`` (and at the end of input), stepping back over what was read past it; so it must
    be seekable (``tell``/``seek``: a file or ``io.StringIO``; ValueError for a pipe, read it
    with ``read_games``). The game's source line and ordinal count from where the handle was.
    Cost: one scan of the text read so far at each such line."""
    if isinstance(text, (bytes, bytearray)):
        stream: SourceLike = io.BytesIO(bytes(text))
    elif isinstance(text, str):
        stream = io.StringIO(text)
    elif hasattr(text, "readline"):
        return _next_game(text)
    else:
        raise TypeError(
            f"read_game takes PDN text (str or bytes) or a text handle, not {type(text).__name__}"
        )
    for span in iter_spans(stream):
        return parse_span(span)
    return parse_span(span_of_text(""))


def _next_game(handle: TextIO) -> Game | None:
    """``read_game(handle)``: the next game of ``handle``, which is left where the game after
    it starts (at its end when none does)."""
    if not handle.seekable():
        raise ValueError("read_game(handle) needs a seekable handle; read a pipe with read_games")
    named = getattr(handle, "name", None)
    name = named if isinstance(named, str) else None
    marks: list[tuple[int, int]] = []  # (tell() before a line, its char offset in ``read``)
    lines: list[str] = []
    size = 0
    while True:
        mark = handle.tell()
        line = handle.readline()
        if not isinstance(line, str):
            raise TypeError("read_game takes a text handle, not a binary one")
        if line:
            marks.append((mark, size))
            lines.append(line)
            size += len(line)
        if line and (len(lines) == 1 or not line.lstrip().startswith("[")):
            continue
        read = "".join(lines)
        spans = list(islice(iter_spans(io.StringIO(read), name=name), 2))
        if len(spans) == 2 or not line:
            break
    if not spans:
        return None
    if len(spans) == 2:  # step back to where the next game starts
        start = spans[1].source.start_char + (1 if read.startswith("\ufeff") else 0)
        mark, offset = next(m for m in reversed(marks) if m[1] <= start)
        handle.seek(mark)
        handle.read(start - offset)
    return parse_span(spans[0])
