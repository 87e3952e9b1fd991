"""Hypothesis: no input makes the reader raise, and the fast path always equals lark."""

from __future__ import annotations

import io
import re

from conftest import CORPUS, budget
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from pdn.base.findings import CODES
from pdn.pdnfile import scan
from pdn.pdnfile.reader import parse_any_tag, parse_span, parse_tag, read_games
from pdn.pdnfile.scan import iter_spans, span_of_text

SAMPLE = (
    (CORPUS / "wiegerw/pdn/games__succeed__windragon.pdn").read_text(encoding="utf-8")[:3000]
    if CORPUS.is_dir()
    else '[Event "x"]\n1. 32-28 {[%eval 0.1]} 19-23 (18-23! $1) 2. 28x19 14x23 *\n'
)

FUZZ = settings(
    max_examples=budget(150), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)

squares = st.integers(min_value=0, max_value=55).map(str)
algebraic = st.builds(
    lambda f, r: f + str(r), st.sampled_from("abcdefghAH"), st.integers(min_value=1, max_value=9)
)
moves = st.one_of(
    st.builds(
        lambda a, s, b: a + s + b, squares, st.sampled_from(["-", "x", ":", "X", "- "]), squares
    ),
    st.builds(lambda a, b, c: f"{a}x{b}x{c}", squares, squares, squares),
    st.builds(
        lambda a, s, b: a + s + b, algebraic, st.sampled_from(["-", "x", ":", ""]), algebraic
    ),
    st.builds(lambda f, a: f + a, st.sampled_from("abcdefgh"), algebraic),
    st.sampled_from(["- -", "--", "3228", "1-10", "10-15"]),
)
tokens = st.one_of(
    moves,
    moves.map(lambda m: m + "!?"),
    moves.map(lambda m: m + "(?)"),
    st.integers(min_value=0, max_value=3000).map(lambda n: f"{n}."),
    st.integers(min_value=1, max_value=99).map(lambda n: f"{n}..."),
    st.sampled_from(["...", ".", "..", "(", ")", "!", "?", "$3", "$14", "{", "}", "[", "]"]),
    st.sampled_from(["2-0", "1-1", "0-2", "1-0", "0-1", "1/2-1/2", "0:1", "1/2:1/2", "0-0", "*"]),
    st.text(alphabet='abc 1-0[]{}%;()"\n', max_size=8).map(
        lambda t: "{" + t.replace("}", "") + "}"
    ),
    st.sampled_from(
        ['[Event "x"]', "[Round 17]", '[Site "open', '[A "[1/2]"]', "[Game # 6]", r'[E "a \"b\""]']
    ),
    st.sampled_from(['/FEN "W:W31-50:B1-20"/', "{[%clock w0:01:00 B0:00:59]}", "; note", "9n"]),
    st.text(max_size=3),
)
separators = st.sampled_from([" ", "\n", "\r\n", "  ", "\t", "\n% escaped\n", ""])
pdn_like = st.lists(st.tuples(tokens, separators), max_size=40).map(
    lambda pairs: "".join(token + gap for token, gap in pairs)
)


def read_all(text: str) -> None:
    """Read every game; all findings carry known codes and locations inside the text."""
    lines = text.count("\n") + text.count("\r") + 1  # a CR-only file's CRs are lines too
    for game in read_games(io.StringIO(text), name="fuzz.pdn"):
        for finding in game.findings:
            assert finding.code in CODES and finding.file == "fuzz.pdn"
            assert finding.line is None or 1 <= finding.line <= lines


def as_scanned(text: str) -> str:
    """``text`` as the scanner reads it: a lone CR is a line break read as LF, one character
    for another (``pdn.pdnfile.scan``, CR-only files), so offsets stay those of ``text``."""
    return re.sub(r"\r(?!\n)", "\n", text)


def assert_paths_agree(text: str) -> None:
    span = span_of_text(text)
    fast, slow = parse_span(span), parse_span(span, fast=False)
    assert fast.same_record(slow)
    assert [f.to_dict() for f in fast.findings] == [f.to_dict() for f in slow.findings]
    assert [(n.line, n.column) for n in fast.walk()] == [(n.line, n.column) for n in slow.walk()]


@FUZZ
@given(st.text(max_size=300))
def test_arbitrary_text_never_raises(text: str) -> None:
    read_all(text)
    assert_paths_agree(text)


@FUZZ
@given(pdn_like)
@example(text="0\r - -!? ")  # CR-only: the span reads the CR as LF (found by the explore profile)
def test_pdn_like_text_never_raises_and_fast_path_equals_lark(text: str) -> None:
    read_all(text)
    assert_paths_agree(text)
    scanned = as_scanned(text)
    for span in iter_spans(io.StringIO(text)):
        assert scanned[span.source.start_char : span.source.end_char] == span.text
        assert_paths_agree(span.text)
        assert list(span.tags) == parse_span(span).tags


@FUZZ
@given(st.binary(max_size=400))
def test_random_bytes_never_raise(data: bytes) -> None:
    previous_end = 0
    for span in iter_spans(io.BytesIO(data)):
        assert span.source.start_char >= previous_end and span.text.strip()
        previous_end = span.source.end_char
        for finding in parse_span(span).findings:
            assert finding.code in CODES


@FUZZ
@given(
    st.lists(
        st.tuples(
            st.integers(min_value=0, max_value=len(SAMPLE)),
            st.integers(min_value=0, max_value=6),
            st.sampled_from(
                ["", "(", ")", "{", "}", "[", "]", '"', "-", "x", "1-0", "*", "é", "\n"]
            ),
        ),
        min_size=1,
        max_size=6,
    )
)
def test_mutated_corpus_text_never_raises(edits: list[tuple[int, int, str]]) -> None:
    text = SAMPLE
    for at, cut, insert in edits:
        text = text[:at] + insert + text[at + cut :]
    read_all(text)
    for span in iter_spans(io.StringIO(text)):
        assert_paths_agree(span.text)


@FUZZ
@given(pdn_like, st.integers(min_value=1, max_value=7))
def test_chunk_boundaries_never_change_the_spans(text: str, chunk: int) -> None:
    whole = [
        (s.text, s.source.line, s.source.column, s.source.start_char, s.tags)
        for s in iter_spans(io.StringIO(text))
    ]
    original = scan.CHUNK_CHARS
    scan.CHUNK_CHARS = chunk
    try:
        for source in (io.StringIO(text), io.BytesIO(text.encode("utf-8", "surrogatepass"))):
            pieces = [
                (s.text, s.source.line, s.source.column, s.source.start_char, s.tags)
                for s in iter_spans(source)
            ]
            assert pieces == whole
    finally:
        scan.CHUNK_CHARS = original


tag_names = st.one_of(
    st.sampled_from(["Event", "White", "GameType", "_x1", "1st", "Événement", "a-b"]),
    st.text(alphabet="aZ_9 é", min_size=0, max_size=6),
)
tag_values = st.text(alphabet='ab "\\]\n\t', max_size=8)


@settings(max_examples=budget(400), deadline=None)
@given(
    tag_names, st.sampled_from([" ", "", "  ", "\t"]), tag_values, st.sampled_from(["]", "", " ]"])
)
def test_tag_shortcut_reads_every_tag_as_the_general_split(
    name: str, space: str, value: str, close: str
) -> None:
    for token in (f'[{name}{space}"{value}"{close}', f"[{name}{space}{value}{close}"):
        assert parse_tag(token) == parse_any_tag(token)
