"""A verdict per file before per game: whether a file's first bytes are PDN text at all.

``not_pdn(head)`` reads the first ``HEAD_BYTES`` of a file and names what it looks like when it
is no PDN text (binary, a chess PGN, JSON, HTML/XML, an empty file), else ``None``. The scanner
(``pdn.pdnfile.scan``) asks it once per named file and raises ``NotPdnError`` (an ``OSError``:
every verb reports it as a file it cannot read, exit 2) before any game is read. O(HEAD_BYTES).
Only clear evidence counts: a file with any draughts move (``32-28``, ``c3-d4``) or a
``GameType`` tag is never taken for a chess PGN.
"""

from __future__ import annotations

import errno
import json
import re

from pdn.base.findings import Finding

#: Bytes of a file's start the verdict reads.
HEAD_BYTES = 8192

_SIGNATURES = (
    (b"\x89PNG\r\n\x1a\n", "a PNG image"),
    (b"PK\x03\x04", "a ZIP archive"),
    (b"%PDF-", "a PDF document"),
    (b"GIF8", "a GIF image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"\x1f\x8b", "a gzip archive"),
)
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
#: Control bytes that text has (tab, line feed, form feed, carriage return, DOS end of file).
_TEXT_CONTROLS = frozenset(b"\t\n\f\r\x1a")
#: Share of other control bytes above which a file is binary.
_CONTROL_SHARE = 0.1
_MARKUP = re.compile(rb"\s*<(?:!doctype|html|\?xml)", re.IGNORECASE)
_JSON = re.compile(rb'\s*(?:\{\s*"[^"\n]*"\s*:|\[\s*(?:[\[{\]]|"[^"\n]*"\s*[,\]]|-?\d))')
_COMMENTS = re.compile(r"\{[^}]*\}?|;[^\n]*|^%[^\n]*", re.MULTILINE)
_TAG_LINE = re.compile(r"^[^\S\n]*\[[^\n]*$", re.MULTILINE)
_DRAUGHTS_MOVE = re.compile(r"(?<![\w-])(?:\d{1,2}|[a-h][1-8])[-x:](?:\d{1,2}|[a-h][1-8])(?!\w)")
_RESULTS = frozenset({"1-0", "0-1", "1-1", "2-0", "0-2", "0-0", "1:0", "0:1"})
_SAN_PIECE = re.compile(r"(?<![\w-])(?:O-O(?:-O)?|[KQRBN][a-h]?[1-8]?x?[a-h][1-8])(?![\w-])")
_SAN_PAWN = re.compile(r"(?<![\w-])[a-h](?:x[a-h])?[1-8](?:=[QRBN])?(?=[+#!?]|\s|$)")
_CHESS_FEN = re.compile(r'\[FEN\s+"[pnbrqkPNBRQK1-8]+(?:/[pnbrqkPNBRQK1-8]+){7}[\s"]')
_CHESS_VARIANT = re.compile(r'\[Variant\s+"chess"\]', re.IGNORECASE)
_GAME_TYPE = re.compile(r"\[GameType\s", re.IGNORECASE)


class NotPdnError(OSError):
    """A file whose first bytes are no PDN text: ``strerror`` is ``not a PDN file: <what it
    looks like>``, ``filename`` the file."""

    def __init__(self, looks: str, filename: str | None) -> None:
        self.message = f"not a PDN file: {looks}"
        super().__init__(errno.EINVAL, self.message, filename)

    def finding(self) -> Finding:
        """The one ``error[file]`` finding of the file, at line 1, column 1."""
        return Finding(
            file=self.filename,
            line=1,
            column=1,
            code="file",
            severity="error",
            message=self.message,
        )


def refuse_not_pdn(head: bytes, filename: str | None) -> None:
    """Raise ``NotPdnError`` when ``head`` (a file's first bytes) is no PDN text."""
    looks = not_pdn(head)
    if looks is not None:
        raise NotPdnError(looks, filename)


def not_pdn(head: bytes) -> str | None:
    """What ``head`` (at most ``HEAD_BYTES`` of a file's start) looks like when it is no PDN
    text (``"looks like a PNG image"``, ``"empty file"``), or ``None``."""
    head = head[:HEAD_BYTES]
    if not head.strip() and len(head) < HEAD_BYTES:
        return "empty file" if not head else "empty file (white space only)"
    if head.startswith(_UTF16_BOMS):
        return None
    for signature, what in _SIGNATURES:
        if head.startswith(signature):
            return f"looks like {what}"
    head = head.removeprefix(b"\xef\xbb\xbf")
    controls = sum(byte < 0x20 and byte not in _TEXT_CONTROLS for byte in head)
    if b"\x00" in head or controls > _CONTROL_SHARE * len(head):
        return "looks like binary data (control bytes)"
    if _MARKUP.match(head):
        return "looks like HTML or XML"
    if _JSON.match(head) or (len(head) < HEAD_BYTES and _json_value(head)):
        return "looks like JSON"
    return _chess(head.decode("utf-8", "replace"))


def _json_value(head: bytes) -> bool:
    """Whether the whole of a short file is one JSON object or array."""
    if head.lstrip()[:1] not in (b"{", b"["):
        return False
    try:
        json.loads(head)
    except ValueError:
        return False
    return True


def _chess(text: str) -> str | None:
    """``"looks like a chess PGN (...)"`` when ``text`` has chess evidence and no draughts."""
    text = _COMMENTS.sub(" ", text)
    if _GAME_TYPE.search(text):
        return None
    movetext = _TAG_LINE.sub(" ", text)
    if any(move not in _RESULTS for move in _DRAUGHTS_MOVE.findall(movetext)):
        return None
    pieces = [match.group() for match in _SAN_PIECE.finditer(movetext)]
    pawns = [match.group() for match in _SAN_PAWN.finditer(movetext)]
    if pieces or len(pawns) >= 2:
        shown = pawns[:1] + pieces[:1] if pieces and pawns else (pieces or pawns)[:2]
        return f"looks like a chess PGN (SAN moves {', '.join(shown)})"
    if _CHESS_FEN.search(text):
        return "looks like a chess PGN (a chess FEN)"
    if _CHESS_VARIANT.search(text):
        return 'looks like a chess PGN (Variant "chess")'
    return None
