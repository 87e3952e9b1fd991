"""The span scanner: where games end, positions and offsets, decoding, streaming."""

from __future__ import annotations

import io
import pickle
import sys

import pytest

from pdn.pdnfile import scan
from pdn.pdnfile.reader import read_game
from pdn.pdnfile.scan import iter_spans, read_text


def spans_of(text: str) -> list[scan.Span]:
    return list(iter_spans(io.StringIO(text)))


def test_a_game_ends_at_its_terminator_not_at_a_blank_line() -> None:
    text = '[Event "a"]\n\n1. 32-28\n\n19-23 2-0\n[Event "b"]\n1. 33-29 *\n'
    first, second = spans_of(text)
    assert first.text == '[Event "a"]\n\n1. 32-28\n\n19-23 2-0'
    assert second.text == '[Event "b"]\n1. 33-29 *'
    assert (first.tags, second.tags) == ((("Event", "a"),), (("Event", "b"),))


def test_a_game_without_terminator_ends_at_the_next_tag_section() -> None:
    first, second = spans_of('[Event "a"]\n1. 32-28 19-23\n\n[Event "b"]\n1. 33-29\n')
    assert first.text.endswith("19-23") and second.text.endswith("33-29")


def test_a_percent_line_inside_movetext_hides_its_tags_and_results() -> None:
    text = '[A "1"]\n1. 32-28 19-23\n%[B "2"] 1-0\n2. 33-29 %x 0-2\n[C "3"] *'
    first, second = spans_of(text)
    assert first.text == text[: text.index("0-2") + 3]
    assert (first.tags, second.tags) == ((("A", "1"),), (("C", "3"),))


def test_brackets_and_results_inside_comments_do_not_split() -> None:
    text = '[Event "a"]\n1. 32-28 {see [Event "x"] 1-0 *} ; 2-0 here\n19-23 *'
    (span,) = spans_of(text)
    assert span.text.endswith("19-23 *")


def test_one_ten_is_a_move_and_glued_terminator_splits() -> None:
    first, second = spans_of('[A "1"]\n1. 1-10 1-0[B "2"] *')
    assert first.text == '[A "1"]\n1. 1-10 1-0' and second.text == '[B "2"] *'


def test_results_in_variations_do_not_end_the_game() -> None:
    (span,) = spans_of("1. 32-28 (33-29 1-0) 19-23 *")
    assert span.text.endswith("19-23 *")


def test_leading_comment_joins_the_first_game() -> None:
    (span,) = spans_of('{ three games }\n\n[Event "a"]\n1. 32-28 *')
    assert span.text.startswith("{ three games }") and span.tags == (("Event", "a"),)


def test_tag_variants_are_read_cheaply() -> None:
    (span,) = spans_of('[Event   "A [1/2]"]\n[Round 17]\n[Game # 612]\n[Site "x\n*')
    assert span.tags == (("Event", "A [1/2]"), ("Round", "17"), ("Game", "# 612"), ("Site", "x"))


def test_plies_leave_out_a_score_the_result_tag_confirms() -> None:
    scored, unconfirmed = spans_of(
        '[Result "4-6"]\n1. 34-29 10-14 4-6\n[Result "2-0"]\n1. 34-29 10-14 4-6\n'
    )
    assert (scored.plies, unconfirmed.plies) == (2, 3)


def test_tag_values_are_unescaped_as_the_reader_does() -> None:
    text = '[Event "Club \\"Open\\""]\n[Comment "C:\\games"]\n[Site "x\n1. 32-28 *'
    (span,) = spans_of(text)
    assert span.tags == (("Event", 'Club "Open"'), ("Comment", "C:\\games"), ("Site", "x"))
    assert list(span.tags) == read_game(text).tags


def test_positions_and_char_offsets() -> None:
    text = '\n\n  [A "1"]\n1. 32-28 *  [B "2"]\r\n1. 33-29 *'
    first, second = spans_of(text)
    assert (first.source.game, first.source.line, first.source.column) == (1, 3, 3)
    assert (second.source.game, second.source.line, second.source.column) == (2, 4, 13)
    for span in (first, second):
        assert text[span.source.start_char : span.source.end_char] == span.text
        assert span.source.start_byte is None  # text streams have no byte offsets


def test_byte_offsets_with_bom_and_multibyte_text() -> None:
    data = '\ufeff[White "Frysl\u00e2n \u0427"]\n1. 32-28 *\n[White "b"] *'.encode()
    spans = list(iter_spans(io.BytesIO(data)))
    for span in spans:
        assert span.source.start_byte is not None and span.source.end_byte is not None
        assert data[span.source.start_byte : span.source.end_byte].decode() == span.text
    assert spans[0].source.start_byte == 3 and spans[0].findings == ()


def test_plies_are_approximate_main_line_moves() -> None:
    (span,) = spans_of("1. 32-28 19-23 (18-23 38-32) 2. 28x19 {x 1-2} c3-d4 -- 1-0")
    assert span.plies == 5


def test_latin1_file_gets_cp1252_and_a_finding() -> None:
    data = '[Event "40\u00b0 Champ. caf\u00e9"]\n1. 32-28 *\n'.encode("cp1252")
    (span,) = iter_spans(io.BytesIO(data))
    assert "40\u00b0 Champ. caf\u00e9" in span.text
    (finding,) = span.findings
    assert finding.code == "encoding" and "cp1252" in finding.message


def test_cyrillic_single_byte_file_gets_cp1251() -> None:
    event = "Чемпионат СССР"
    (span,) = iter_spans(io.BytesIO(f'[Event "{event}"]\n1. c3-d4 *\n'.encode("cp1251")))
    assert span.tags == (("Event", event),)
    assert "cp1251" in span.findings[0].message


def test_fallback_after_utf8_prefix_keeps_byte_offsets_right() -> None:
    data = b'[A "ok"]\n1. 32-28 *\n' * 3 + '[A "caf\u00e9"] *\n'.encode("latin-1")
    spans = list(iter_spans(io.BytesIO(data)))
    assert len(spans) == 4 and spans[3].findings and not spans[2].findings
    last = spans[3]
    assert last.source.start_byte is not None and last.source.end_byte is not None
    assert data[last.source.start_byte : last.source.end_byte].decode("latin-1") == last.text


def test_tiny_chunks_give_the_same_spans(monkeypatch: pytest.MonkeyPatch) -> None:
    text = (
        '{c [x]}\n[A "1"]\n1. 1-10 {a\nb} 1-1\n[B "2"]\n1. 33-29 (1-0) 2-0[C "3"] 1/2-1/2\n'
        '% esc\n; line\n[D "4"]\n1. c3:e5 '
    )
    expected = [
        (s.text, s.source.line, s.source.column, s.source.start_char, s.tags)
        for s in spans_of(text)
    ]
    monkeypatch.setattr(scan, "CHUNK_CHARS", 3)
    for source in (io.StringIO(text), io.BytesIO(text.encode())):
        got = [
            (s.text, s.source.line, s.source.column, s.source.start_char, s.tags)
            for s in iter_spans(source)
        ]
        assert got == expected
    assert len(expected) == 4


def test_streaming_yields_before_reading_everything(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scan, "CHUNK_CHARS", 1024)
    game = b'[Event "x"]\n1. 32-28 19-23 2. 28x19 14x23 *\n'

    class Endless(io.RawIOBase):
        reads = 0

        def readable(self) -> bool:
            return True

        def read(self, size: int = -1) -> bytes:
            Endless.reads += 1
            return game * (size // len(game) + 1)

    spans = iter_spans(Endless())  # type: ignore[arg-type]
    for _ in range(2000):
        next(spans)
    assert Endless.reads < 200


def test_path_and_stdin(tmp_path: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "g.pdn"  # type: ignore[operator]
    path.write_bytes(b'[A "1"]\n1. 32-28 *\n')
    (span,) = iter_spans(path)
    assert span.source.file == str(path) and span.source.start_byte == 0
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b'[A "1"] *')))
    (span,) = iter_spans("-")
    assert span.source.file == "<stdin>" and span.tags == (("A", "1"),)
    assert read_text(path) == '[A "1"]\n1. 32-28 *\n'


def test_spans_pickle() -> None:
    (span,) = iter_spans(io.BytesIO(b'[A "\xff"] *'))
    assert pickle.loads(pickle.dumps(span)) == span
