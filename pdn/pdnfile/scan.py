"""Game spans from a PDN file without the grammar: cheap splitting, headers, decoding.

``iter_spans(source)`` streams a path ("-" = stdin), a text stream or a binary stream in chunks
and yields one ``Span`` per game: its text, 1-based ordinal, start line/column, char and byte
offsets, header tags (cheap regex) and, on access, an approximate ply count (``Span.plies``:
good for listings, not a replay). Memory stays flat in file size: only the current game and
one chunk are held.

A game ends at its terminator (``2-0 1-1 0-2 1-0 0-1 1/2-1/2 0:1 1:0 1/2:1/2 0-0 *``, outside
comments and variations), where the next tag section starts after movetext, or where a tag
follows a blank line after a header that has nothing else (a header-only game before the next
game's tags) — never at a blank line alone. Comments before a game's first tag belong to that
game. Line breaks are LF, CRLF or a lone CR, in any mix: a lone CR is read as LF (one character
for another, offsets unchanged), so line numbers count every break.

Decoding is per game. Bytes are UTF-8 (BOM or not): an invalid byte is kept as a lone surrogate
(one character per byte) until its game is whole; then a game with more valid non-ASCII UTF-8
characters than invalid bytes stays UTF-8, each invalid byte read as U+FFFD (an ``encoding``
finding per damaged run, with its line and bytes); a game that is not UTF-8 at all is decoded by
the evidence of its own bytes (Cyrillic runs -> cp1251, else cp1252, latin-1 when cp1252 has no
character for a byte), with an ``encoding`` finding where the reading changes. A U+FFFD already
in the text (written by an earlier decoding) is an ``encoding`` finding too.
"""

from __future__ import annotations

import codecs
import errno
import html
import io
import os
import re
import sys
from collections.abc import Iterator
from dataclasses import replace
from functools import partial
from typing import BinaryIO, TextIO, Union

from pdn.base.findings import Finding, quoted
from pdn.game.record import Source
from pdn.pdnfile.span import RESULT_WORD, Span, TextStart
from pdn.pdnfile.verdict import HEAD_BYTES, refuse_not_pdn

SourceLike = Union[str, "os.PathLike[str]", TextIO, BinaryIO]
CHUNK_CHARS = 1 << 18
TAG_HORIZON = 4096  # characters of a tag's line read before the tag is split

# A tag name: a letter then word characters, HTML/XML character references (``&#x00c9;``,
# ``&eacute;``: a ``;`` inside a name is no comment) among them, and more words after blanks
# when a quoted value follows (``[Type de jeu "20"]``).
_NAME_CHAR = r"(?:\w|&#?\w+;)"
TAG_NAME = rf"(?:[^\W\d]|&#?\w+;){_NAME_CHAR}*(?:(?:[^\S\r\n]+{_NAME_CHAR}+)+(?=[^\S\r\n]*\"))?"
_TAG = (
    rf"\[[^\S\r\n]*(?P<name>{TAG_NAME})[^\S\r\n]*"
    r'(?:"(?P<quoted>[^"\r\n]*)"[^\S\r\n]*\]|(?P<bare>[^\]\r\n]*)(?:\]|(?=[\r\n])|\Z))'
)
# A header's run of two or more well-formed tags (``[Name "value"]``, blanks between): one
# match for all of them, split by ``_QUOTED_TAG_PARTS`` into what ``_TAG`` reads in each (in
# text the run matched, a name is what precedes the first quote, less blanks: no name pattern).
_QUOTED_TAG = rf'\[[^\S\r\n]*{TAG_NAME}[^\S\r\n]*"[^"\r\n]*"[^\S\r\n]*\]'
# blanks between two tags of one run: at most one line break (a blank line may end a game)
_ONE_BREAK = r"(?:[^\S\n]*\n[^\S\n]*|[^\S\n]+)"
_QUOTED_TAG_PARTS = re.compile(r'\[[^\S\r\n]*([^"]*[^\s"])[^\S\r\n]*"([^"]*)"')
# A run of other words (moves, numbers...), across line breaks unless a ``%`` line follows,
# ending with its line's trailing spaces: one match for a good part of a game's movetext. The
# run is bounded (the regex engine keeps state per repetition): a longer one is several
# matches, which is the same, since each match starts where a word starts.
_WORD = r"[^\s{;\[()]+"
_WORDS = (
    rf"(?!{RESULT_WORD}){_WORD}(?:\s+(?!(?<=\n)%)(?!{RESULT_WORD}){_WORD}){{0,256}}"
    r"[^\S\n]*"
)
# Where a comment opened by ``{`` ends: after its ``}``, or before a line that starts a tag
# (an unclosed comment does not swallow the next game's header).
COMMENT_STOP = re.compile(rf'\}}|\n(?=\[{TAG_NAME}[ \t]*")')
#: Characters of one game held at most (sixty times the longest game of the corpus): a longer
#: game is reported and skipped, not held. A game of NAGs or variations costs 60-340 bytes per
#: character to check or show, so this keeps one game under 200 MB (benchmarks/memory.py).
MAX_GAME_CHARS = 512 << 10
_SCAN = re.compile(
    r"(?P<comment>\{)"
    r"|(?P<linecomment>;[^\n]*|(?m:^)%[^\n]*)"
    rf"|(?P<tags>{_QUOTED_TAG}(?:{_ONE_BREAK}{_QUOTED_TAG})+)"
    rf"|(?P<tag>{_TAG})"
    r"|(?P<open>\()|(?P<close>\))"
    rf"|(?P<result>{RESULT_WORD})"
    rf"|(?P<other>{_WORDS}|\[)"
)
#: A word that can be movetext (a square, a move number, an unknown move ``--``): other text
#: between the tags of a header (a literal ``\\r``, a lone ``[`` or ``.``) does not end it.
_MOVETEXT = re.compile(r"\d|--|- -")
# a move number opens a tagless game after a result (not a stray fragment of the one before)
_GAME_START = re.compile(r"\d+\s*\.")
_CP1252_HOLES = frozenset(b"\x81\x8d\x8f\x90\x9d")
# bytes that are not UTF-8, as ``surrogateescape`` keeps them: one character each
_ESCAPED = re.compile(r"[\udc80-\udcff]+")  # escapes: mypyc takes no surrogate in a literal
_NON_ASCII = re.compile(r"[^\x00-\x7f\udc80-\udcff]")
_REPLACEMENT = re.compile("\ufffd+")
_LONE_CR = re.compile(r"\r(?!\n)")
_HIGH_BYTE = re.compile(rb"[\x80-\xff]")


#: Endings of ``read_tag_value`` problems that read the value as meant (cosmetic deviations).
COSMETIC_TAG_PROBLEMS = (" has no value", "is not in double quotes")


def read_tag_value(raw: str) -> tuple[str, str | None]:
    """The value of a tag from its raw text between the name and ``]`` (stripped), and what is
    wrong with it (``None`` when well formed). The one unescape of the package: the scanner's
    ``Span.tags`` and the reader's ``Game.tags`` both come from here. O(len(raw)).

    ``"..."`` -> the text inside with ``\\"`` read as ``"`` (other backslashes are kept: they
    are rarely escapes in real files, e.g. ``C:\\games``); an unclosed ``"...`` -> the text
    after the quote; an unquoted value -> as it is.
    """
    if raw.startswith('"'):
        if len(raw) >= 2 and raw.endswith('"'):
            return raw[1:-1].replace('\\"', '"'), None
        return raw[1:], ": value string is not closed with '\"'"
    if not raw:
        return "", " has no value"
    return raw, f": value {quoted(raw)} is not in double quotes"


def decode_references(text: str) -> str:
    """``text`` with its HTML/XML character references (``&#x00c9;``, ``&#233;``,
    ``&eacute;``, ``&amp;``) read as the characters they name; ``text`` itself when it has
    none (the common case costs one ``in`` test). O(len(text))."""
    return html.unescape(text) if "&" in text and ";" in text else text


def span_of_text(text: str, *, file: str | None = None) -> Span:
    """A span covering a whole text as one game (no splitting)."""
    return Span(text=text, source=Source(file=file, end_char=len(text)))


#: Byte order marks of UTF-16 files: the codec each one names.
_UTF16_BOMS = ((codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))
_FALLBACK_NAMES = {
    "cp1251": "cp1251 (Cyrillic)",
    "cp1252": "cp1252 (Western European)",
    "latin-1": "latin-1",
}


def wide_codec(head: bytes) -> str | None:
    """The UTF-16 codec a file's first bytes name by their byte order mark, or ``None`` (the
    file is read as ASCII-compatible bytes: UTF-8 or a single-byte fallback). O(1)."""
    return next((codec for mark, codec in _UTF16_BOMS if head.startswith(mark)), None)


class _Decoder:
    """UTF-8 with each invalid byte kept as a lone surrogate (``surrogateescape``), for
    ``_Splitter`` to decode game by game; UTF-16 throughout when the file starts with its byte
    order mark (``FF FE`` / ``FE FF``)."""

    def __init__(self) -> None:
        self.utf8 = codecs.getincrementaldecoder("utf-8")(errors="surrogateescape")
        self.utf16: str | None = None  # the UTF-16 codec a byte order mark named
        self.wide: codecs.IncrementalDecoder | None = None
        self.escaped = False  # has an invalid byte been kept?
        self.reading = "utf-8"  # how the last game with non-ASCII text was read
        self.chars = 0
        self.bytes = 0
        self.bom = 0  # bytes of the byte order mark

    def decode(self, data: bytes, final: bool = False) -> str:
        if not self.bytes and not self.chars:
            self._byte_order_mark(data)
            data = data[self.bom :]
            self.bytes = self.bom
        if self.wide is not None:
            text = self.wide.decode(data, final)
        else:
            text = self.utf8.decode(data, final)
            self.escaped = self.escaped or _ESCAPED.search(text) is not None
        self.chars += len(text)
        self.bytes += len(data)
        return text

    def _byte_order_mark(self, data: bytes) -> None:
        if data.startswith(codecs.BOM_UTF8):
            self.bom = 3
            return
        codec = wide_codec(data)
        if codec is not None:
            self.bom, self.utf16 = 2, codec
            self.wide = codecs.getincrementaldecoder(codec)(errors="replace")

    def byte_length(self, text: str) -> int:
        """Bytes that ``text`` took in the file: O(1) for ASCII text read as UTF-8, else one
        encoding of it."""
        if self.utf16 is None and text.isascii():
            return len(text)
        if self.utf16 is not None:
            return len(text.encode(self.utf16, errors="surrogatepass"))
        return len(
            text.encode("utf-8", errors="surrogateescape" if self.escaped else "surrogatepass")
        )

    def finding(self) -> Finding | None:
        """The note of a UTF-16 file (its first game carries it)."""
        if self.utf16 is None:
            return None
        mark = "FF FE" if self.utf16.endswith("le") else "FE FF"
        return Finding("encoding", f"UTF-16 (byte order mark {mark}): read as {self.utf16}", "info")


def _replaced(text: str) -> str:
    """``text`` with each byte kept as a lone surrogate read as U+FFFD (offsets unchanged)."""
    return _ESCAPED.sub(lambda run: "\ufffd" * len(run.group()), text)


def _recoded(text: str, codec: str) -> str:
    """``text``'s bytes (lone surrogates as the bytes they kept) read as ``codec``."""
    return text.encode("utf-8", errors="surrogateescape").decode(codec, errors="replace")


def _hex(escaped: str) -> str:
    """The bytes that lone surrogates kept, as hex (``D0 A0``)."""
    return escaped.encode("utf-8", errors="surrogateescape").hex(" ").upper()


def _guess_single_byte(sample: bytes) -> str:
    """cp1251 when high bytes come in letter runs (Cyrillic words), else cp1252/latin-1."""
    high = [match.start() for match in _HIGH_BYTE.finditer(sample)]  # only high bytes visited
    if not high:
        return "cp1252"
    paired = sum(
        1
        for index in high
        if (index + 1 < len(sample) and sample[index + 1] >= 0x80)
        or (index > 0 and sample[index - 1] >= 0x80)
    )
    if paired / len(high) > 0.6 and sum(sample[i] >= 0xC0 for i in high) / len(high) > 0.7:
        return "cp1251"
    return "latin-1" if any(sample[i] in _CP1252_HOLES for i in high) else "cp1252"


def _chunks(source: SourceLike, decoder: _Decoder) -> Iterator[tuple[str, bool]]:
    """Decoded text chunks of ``source`` and whether byte offsets are known."""
    if isinstance(source, (str, os.PathLike)):
        if os.fspath(source) == "-":
            yield from _chunks(stdin_bytes(), decoder)
            return
        with open(source, "rb") as stream:
            yield from _chunks(stream, decoder)
        return
    if isinstance(source, io.BufferedReader) and _is_file_name(source.name):
        refuse_not_pdn(source.peek(HEAD_BYTES), source.name)
    first = True
    held = ""  # a CR ending a chunk: the next character tells whether it is a lone CR
    while True:
        data = source.read(CHUNK_CHARS)
        if isinstance(data, bytes):
            text = decoder.decode(data, final=not data)
            known = True
        else:
            text, known = data, False
            if first and text.startswith("\ufeff"):
                text = text[1:]
        first = False
        text, held = held + text, ""
        if data and text.endswith("\r"):
            text, held = text[:-1], "\r"
        if text.count("\r") != text.count("\r\n"):  # a lone CR is a line break: LF
            text = _LONE_CR.sub("\n", text)
        if text:
            yield text, known
        if not data:
            return


def _is_file_name(name: object) -> bool:
    """Whether a stream's ``name`` is a file's path (not a descriptor, not ``<stdin>``)."""
    return isinstance(name, str) and name != "<stdin>"


def stdin_bytes() -> BinaryIO:
    """The binary stdin; ``OSError`` with a plain message when the process has none (``<&-``)."""
    stream = sys.stdin
    if stream is None or stream.closed:
        raise OSError(errno.EBADF, "stdin is closed")
    return stream.buffer


def _name_of(source: SourceLike, name: str | None) -> str | None:
    if name is not None:
        return name
    if isinstance(source, (str, os.PathLike)):
        return "<stdin>" if os.fspath(source) == "-" else os.fspath(source)
    return getattr(source, "name", None) if isinstance(getattr(source, "name", None), str) else None


def iter_spans(source: SourceLike, *, name: str | None = None) -> Iterator[Span]:
    """The games of ``source`` as spans, in file order. O(file) time, O(game + chunk) memory."""
    decoder = _Decoder()
    yield from _Splitter(_name_of(source, name), decoder).run(_chunks(source, decoder))


def spans_of_piece(
    data: bytes, *, name: str | None, start: TextStart | None = None
) -> tuple[list[Span], bool]:
    """The spans of ``data``, a piece of UTF-8 file ``name`` that starts at ``start`` (None:
    the file's start) where no game is open, located in the whole file but numbered from 1
    in the piece; and whether the piece ends between games (no game, comment or header left
    open at its end, so that a scan of the whole file would start a game where the next piece
    starts, if it starts with a tag line after a blank line). For
    ``pdn.batch.parallel``'s workers. O(len(data))."""
    decoder = _Decoder()
    splitter = _Splitter(name, decoder, start)
    spans = list(splitter.run(_chunks(io.BytesIO(data), decoder)))
    return spans, splitter.ended_between_games


class _Splitter:
    """The streaming state machine behind ``iter_spans``."""

    def __init__(self, file: str | None, decoder: _Decoder, start: TextStart | None = None) -> None:
        start = start or TextStart()
        self.file = file
        self.decoder = decoder
        self.bytes_known = True
        self.buf = ""
        self.buf_start = start.char  # absolute char offset of buf[0]
        self.counted = start.char  # absolute char offset up to which lines/bytes are counted
        self.line = start.line
        self.line_start = start.char  # absolute char offset of the current line's start
        self.byte = start.byte
        self.ordinal = 0
        self.ended_between_games = False  # at the end of input: no game was open
        self.reported_encoding = False
        # a game with tags closed by its result, yielded once the next word shows that no
        # stray movetext of its own follows (then it is reopened): (span, its raw first byte)
        self.held: tuple[Span, int | None] | None = None
        self._reset_game()

    def _reset_game(self) -> None:
        self.game_start: int | None = None
        self.game_line = self.game_column = 1
        self.game_byte: int | None = None
        self.content_end = 0
        self.tags: list[tuple[str, str]] = []
        self.body = False
        self.depth = 0
        self.carried: tuple[Finding, ...] = ()  # findings of a reopened game
        self.oversize = False  # longer than MAX_GAME_CHARS: its text is not held

    def _advance(self, to: int) -> None:
        """Count lines and bytes of the buffer text from ``counted`` to absolute ``to``."""
        if to <= self.counted:
            return
        low, high = self.counted - self.buf_start, to - self.buf_start
        newlines = self.buf.count("\n", low, high)
        if newlines:
            self.line += newlines
            self.line_start = self.buf_start + self.buf.rindex("\n", low, high) + 1
        self.byte += self.decoder.byte_length(self.buf[low:high])
        self.counted = to

    def _open(self, start: int) -> None:
        if self.game_start is None:
            self._advance(start)
            self.game_start = start
            self.game_line, self.game_column = self.line, start - self.line_start + 1
            self.game_byte = self.byte + self.decoder.bom

    def _close(self, end: int) -> Span:
        assert self.game_start is not None
        start = self.game_start
        text = "" if self.oversize else self.buf[start - self.buf_start : end - self.buf_start]
        self._advance(end)
        self.ordinal += 1
        findings = self.carried
        if self.oversize:
            findings += (
                Finding(
                    "syntax",
                    f"game of {end - start:,} characters is over the limit of "
                    f"{MAX_GAME_CHARS:,}: not read",
                    line=self.game_line,
                    column=self.game_column,
                ),
            )
        if not self.reported_encoding:
            encoding = self.decoder.finding()
            if encoding is not None:
                findings += (encoding.located(line=self.game_line, column=self.game_column),)
            self.reported_encoding = True
        known = self.bytes_known and self.game_byte is not None
        source = Source(
            file=self.file,
            game=self.ordinal,
            line=self.game_line,
            column=self.game_column,
            start_char=start,
            end_char=end,
            start_byte=self.game_byte if known else None,
            end_byte=self.byte + self.decoder.bom if known else None,
        )
        span = Span(
            text=text,
            source=source,
            tags=tuple(self.tags),
            findings=findings,
        )
        self._reset_game()
        return span

    def run(self, chunks: Iterator[tuple[str, bool]]) -> Iterator[Span]:
        pos = 0
        eof = False
        in_comment = False  # inside a ``{`` comment: ``pos`` is where its end is looked for
        while True:
            if in_comment:
                stop = COMMENT_STOP.search(self.buf, pos)
                if stop is None and not eof:
                    # look again from where a tag line could still begin
                    pos = max(pos, len(self.buf) - TAG_HORIZON)
                elif stop is None:
                    in_comment, pos = False, len(self.buf)
                    self.content_end = self.buf_start + pos
                    continue
                else:
                    in_comment, pos = False, stop.end() if stop.group() == "}" else stop.start()
                    self.content_end = self.buf_start + pos
                    continue
            else:
                match = _SCAN.search(self.buf, pos)
                if match is not None and (
                    eof or (match.end() < len(self.buf) and not self._unfinished_tag(match))
                ):
                    pos = match.end()
                    in_comment = match.lastgroup == "comment"
                    span = self._token(match)
                    if span is not None:
                        yield self._decoded(span)
                    continue
                if match is None:
                    if eof:
                        break
                    pos = len(self.buf)  # nothing but blanks
            if eof:
                break
            moved = self._refill(chunks, pos)
            if moved is None:
                eof = True
            else:
                pos -= moved
        self.ended_between_games = self.game_start is None
        if self.held is not None:
            yield self._decoded(self.held[0])
        if self.game_start is not None:
            yield self._decoded(self._close(self.content_end))

    def _decoded(self, span: Span) -> Span:
        """``span`` with the bytes that are not UTF-8 decoded (see the module docstring) and
        its ``encoding`` findings. O(1) for an ASCII text (``str.isascii`` reads a flag); else
        O(len(text)) when the file has such bytes or the last game was not UTF-8, O(1) unless
        the text holds a U+FFFD."""
        decoder, text = self.decoder, span.text
        if text.isascii():
            return span
        runs = list(_ESCAPED.finditer(text)) if decoder.escaped else []
        findings = span.findings
        if "\ufffd" in text:  # one C scan decides the common case
            findings += tuple(
                self._located(
                    Finding(
                        "encoding", "U+FFFD in the text: a character lost by an earlier decoding"
                    ),
                    span,
                    run.start(),
                )
                for run in _REPLACEMENT.finditer(text)
            )
        if not runs:
            if decoder.reading != "utf-8" and _NON_ASCII.search(text):
                decoder.reading = "utf-8"  # valid UTF-8 again
            return replace(span, findings=findings) if findings != span.findings else span
        valid = len(_NON_ASCII.findall(text))
        if valid and valid >= sum(run.end() - run.start() for run in runs):
            decoder.reading = "utf-8"
            convert = _replaced
            findings += tuple(
                self._located(
                    Finding(
                        "encoding",
                        f"damaged UTF-8: bytes {_hex(run.group())} read as U+FFFD",
                    ),
                    span,
                    run.start(),
                )
                for run in runs
            )
        else:
            codec = _guess_single_byte(text.encode("utf-8", errors="surrogateescape"))
            convert = partial(_recoded, codec=codec)
            if codec != decoder.reading:
                head = text[: runs[0].start()].encode("utf-8", errors="surrogateescape")
                start = span.source.start_byte
                offset = f" at offset {start + len(head)}" if start is not None else ""
                message = (
                    f"not UTF-8 (invalid byte{offset}); read as {_FALLBACK_NAMES[codec]}, "
                    "as are the next games that are not UTF-8"
                )
                findings += (
                    Finding("encoding", message).located(
                        line=span.source.line, column=span.source.column
                    ),
                )
            decoder.reading = codec
        tags = tuple((convert(name), convert(value)) for name, value in span.tags)
        return replace(span, text=convert(text), tags=tags, findings=findings)

    @staticmethod
    def _located(finding: Finding, span: Span, offset: int) -> Finding:
        """``finding`` at char ``offset`` of ``span``'s text. O(offset)."""
        text, source = span.text, span.source
        line = text.count("\n", 0, offset)
        column = offset - text.rfind("\n", 0, offset) if line else source.column + offset
        return finding.located(line=source.line + line, column=column)

    def _refill(self, chunks: Iterator[tuple[str, bool]], pos: int) -> int | None:
        """Drop the text before ``pos`` that no game needs and append new text: at least as
        much as is kept, so a long token or game is rescanned a bounded number of times
        (linear time). Returns how far buffer offsets moved, or None at the end of input.

        A game longer than ``MAX_GAME_CHARS`` stops being held: its span will carry a
        ``syntax`` finding and no text (memory stays bounded)."""
        # keep one character before ``pos`` for the scanner's look-behinds
        keep = self.buf_start + max(0, pos - 1)
        if self.game_start is not None and not self.oversize:
            if self.buf_start + len(self.buf) - self.game_start > MAX_GAME_CHARS:
                self.oversize = True
            else:
                keep = min(keep, self.game_start)
        if self.held is not None:
            keep = min(keep, self.held[0].source.start_char)
        kept = self.buf_start + len(self.buf) - keep
        parts: list[str] = []
        added = 0
        while not parts or added < kept:
            chunk = next(chunks, None)
            if chunk is None:
                break
            text, known = chunk
            self.bytes_known = self.bytes_known and known
            parts.append(text)
            added += len(text)
        if not parts:
            return None
        self._advance(keep)
        cut = keep - self.buf_start
        self.buf = self.buf[cut:] + "".join(parts)
        self.buf_start = keep
        return cut

    def _unfinished_tag(self, match: re.Match[str]) -> bool:
        """Is this a tag (or a '[') whose line is not in the buffer yet? More text could
        still change it: a name or a quoted value may follow."""
        if match.lastgroup != "tag" and match.group() != "[":
            return False
        start = match.start()
        horizon = start + TAG_HORIZON  # a longer tag line is not waited for (one-line files)
        return len(self.buf) < horizon and self.buf.find("\n", start, horizon) < 0

    def _token(self, match: re.Match[str]) -> Span | None:
        """Feed one scanned token; returns the span it let go, if any."""
        kind = match.lastgroup
        start, end = self.buf_start + match.start(), self.buf_start + match.end()
        movetext = kind in ("open", "close", "result") or (
            kind == "other" and _MOVETEXT.search(match.group()) is not None
        )
        released = None
        if self.held is not None:
            if movetext and _GAME_START.match(match.group()) is None:
                self._reopen()
            else:
                released, self.held = self.held[0], None
        if kind == "tag" or kind == "tags":
            if self.game_start is not None and (
                self.body or (bool(self.tags) and self._after_blank_line(start, self.content_end))
            ):
                released = self._close(self.content_end)
            self._open(start)
            if kind == "tags":  # each one as the "tag" token reads it, in one step
                found = _QUOTED_TAG_PARTS.findall(match.group())
                if "&" in match.group():
                    found = [(decode_references(n), decode_references(v)) for n, v in found]
                self.tags.extend(found)
            else:
                quoted = match.group("quoted")  # a plain "..." value: nothing to unescape
                if quoted is None:
                    quoted = read_tag_value((match.group("bare") or "").strip())[0]
                name = match.group("name")
                self.tags.append((decode_references(name), decode_references(quoted)))
        elif kind in ("comment", "linecomment"):
            self._open(start)
            self.body = self.body or bool(self.tags)
        elif kind == "result" and not self.depth:
            self._open(start)
            self.content_end = end
            byte = self.game_byte
            span = self._close(end)
            if not span.tags:
                return span
            self.held = (span, byte)  # stray moves after it would still be its own
            return released
        else:
            self._open(start)
            # words that cannot be movetext between the tags keep the header together
            self.body = self.body or movetext
            if kind == "open":
                self.depth += 1
            elif kind == "close":
                self.depth = max(0, self.depth - 1)

        self.content_end = end
        return released

    def _after_blank_line(self, start: int, end: int) -> bool:
        """Is there a blank line between absolute offsets ``end`` and ``start``? (A header-only
        game ends at a blank line before a tag.)"""
        low = max(0, end - self.buf_start)
        return self.buf.count("\n", low, start - self.buf_start) >= 2

    def _reopen(self) -> None:
        """Movetext after a game's result and before any tag: the held game goes on (a stray
        fragment such as ``36x27 1-0`` is not a game of its own; the reader reports it)."""
        assert self.held is not None
        span, byte = self.held
        self.held = None
        self.ordinal -= 1
        source = span.source
        self.game_start, self.game_byte = source.start_char, byte
        self.game_line, self.game_column = source.line, source.column
        self.tags, self.body, self.depth = list(span.tags), True, 0
        self.carried = span.findings
        self.oversize = not span.text and source.end_char > source.start_char


def read_text(source: SourceLike) -> str:
    """The whole decoded text of a small source (tests and tools; not for big files)."""
    decoder = _Decoder()
    out = io.StringIO()
    for text, _known in _chunks(source, decoder):
        out.write(text)
    return out.getvalue()
