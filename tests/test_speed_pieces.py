"""Issue 29: ``check_paths`` on workers sends big UTF-8 files as pieces of bytes; the reports
are those of ``jobs=1`` (numbering, lines, byte offsets, findings), pieces that do not end
between games included."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

import pytest
from conftest import CORPUS

import pdn.batch.parallel as parallel
from pdn.batch.parallel import AuditOptions, GameReport, check_paths
from pdn.pdnfile.scan import spans_of_piece

# Shapes at a piece cut that keep a game open there: a prelude comment, a header-only game, an
# unclosed comment, stray moves after a result, a '\r' line end, a game without a result.
TRICKY = (
    '[Event "a"]\n[Result "1-0"]\n\n1. 32-28 19-23 2. 28x19 14x23 1-0\n\n'
    "{ a prelude comment of the next game }\n\n"
    '[Event "b"]\n[Result "*"]\n\n'
    '[Event "c"]\n[Result "0-1"]\r\n\r\n1. 32-28 { open comment\n\n'
    '[Event "d"]\n[Result "2-0"]\n\n1. 31-27 18-22 2-0\n36x27 1-0\n\n'
    '[Event "é"]\n[Result "*"]\n\n1. 32-28 (1. 31-26 ; line comment\n\n'
)


class _Done:
    """A finished future (the work ran at submission)."""

    def __init__(self, value: Any) -> None:
        self.value = value

    def result(self) -> Any:
        return self.value


def _submit(function: Any, argument: Any) -> _Done:
    return _Done(function(argument))


def _piece_reports(paths: list[str]) -> list[Any]:
    options = AuditOptions()
    chunks = partial(parallel.check_spans, options=options)
    pieces = partial(parallel.check_piece, options=options)
    items = parallel._check_ordered(paths, lambda c: _submit(chunks, c), _submit, pieces, 2)
    return [_comparable(item) for item in items]


def _comparable(item: Any) -> Any:
    if not isinstance(item, GameReport):
        return item
    return (item.file, item.game, item.variant, item.plies, item.end_byte, item.findings)


def _text() -> str:
    games = TRICKY * 80  # over 2 * 9000 bytes: cut into pieces even without the corpus
    folder = CORPUS / "rhalbersma"
    if folder.is_dir():
        files = sorted(folder.rglob("*.pdn"))[:6]
        games += "".join(path.read_text(encoding="utf-8") for path in files)
    return games


@pytest.mark.parametrize("size", [4000, 9000])
def test_pieces_give_the_reports_of_one_job(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: int
) -> None:
    path = tmp_path / "big.pdn"
    path.write_bytes(b"\xef\xbb\xbf" + _text().encode())  # a UTF-8 byte order mark too
    monkeypatch.setattr(parallel, "PIECE_BYTES", size)
    assert parallel._cuttable(str(path))
    pieces = list(parallel._pieces(str(path)))
    assert len(pieces) > 5 and pieces[-1].last
    assert max(len(piece.data) for piece in pieces) < size  # cut as the bytes are read
    assert b"".join(piece.data for piece in pieces) == path.read_bytes()
    open_ends = [
        piece
        for piece in pieces[:-1]
        if not spans_of_piece(piece.data, name=piece.file, start=piece.start)[1]
    ]
    assert open_ends  # the joining of a piece with the next is exercised
    expected = [_comparable(item) for item in check_paths([str(path)], AuditOptions())]
    assert _piece_reports([str(path)]) == expected


def test_a_file_not_utf8_goes_as_spans(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "latin.pdn"
    path.write_bytes(TRICKY.encode("latin-1") * 40)
    monkeypatch.setattr(parallel, "PIECE_BYTES", 700)
    assert not parallel._cuttable(str(path))
    expected = [_comparable(item) for item in check_paths([str(path)], AuditOptions())]
    assert _piece_reports([str(path)]) == expected


def test_jobs_two_gives_the_reports_of_one_job(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "big.pdn"
    path.write_text(TRICKY * 60, encoding="utf-8")
    monkeypatch.setattr(parallel, "PIECE_BYTES", 2000)
    expected = [_comparable(item) for item in check_paths([str(path)], AuditOptions())]
    got = [_comparable(item) for item in check_paths([str(path)], AuditOptions(), jobs=2)]
    assert got == expected
