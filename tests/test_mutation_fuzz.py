"""Mutation fuzz of real corpus snippets (issue 9): cut, repeat, flip and splice pieces of
real PDN files, then read, audit and write. No exception, every finding code known, each
sample within a generous time guard (the figures are in benchmarks/hostile.py)."""

from __future__ import annotations

import io
import time

from conftest import CORPUS, budget, needs_corpus
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pdn.base.findings import CODES
from pdn.batch.parallel import AuditOptions, audit_game
from pdn.pdnfile.reader import parse_span
from pdn.pdnfile.scan import iter_spans
from pdn.pdnfile.writer import game_to_json, json_text, write_game

pytestmark = needs_corpus

#: Bytes taken from each corpus file: enough for a few games, small enough to fuzz fast.
SNIPPET = 3000
#: CPU seconds one mutated sample may take (a guard against blow-ups, not a benchmark).
BUDGET = 10.0


def _snippets() -> list[bytes]:
    files = sorted(p for p in CORPUS.rglob("*") if p.suffix.lower() in (".pdn", ".txt"))
    return [path.read_bytes()[:SNIPPET] for path in files if path.is_file()] or [b""]


SNIPPETS = _snippets() if CORPUS.is_dir() else [b""]
NOISE = [
    b"{",
    b"}",
    b"(",
    b")",
    b"((",
    b"[",
    b'"',
    b"\n%",
    b"%",
    b";",
    b"/FEN ",
    b"1-0",
    b"2-0.",
    b"1-01",
    b" " * 300,
    b"\x00",
    b"\xff\xfe",
    b"W:W31-99999999999:B1",
    b"*",
]


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    data = bytearray(draw(st.sampled_from(SNIPPETS)))
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, len(data)))
        action = draw(st.sampled_from(["insert", "delete", "repeat", "splice"]))
        if action == "insert":
            data[at:at] = draw(st.sampled_from(NOISE))
        elif action == "delete":
            del data[at : at + draw(st.integers(1, 200))]
        elif action == "repeat":
            data[at:at] = data[at : at + draw(st.integers(1, 50))] * draw(st.integers(2, 20))
        else:
            other = draw(st.sampled_from(SNIPPETS))
            start = draw(st.integers(0, len(other)))
            data[at:at] = other[start : start + draw(st.integers(1, 400))]
    return bytes(data)


@settings(max_examples=budget(120), deadline=None, suppress_health_check=list(HealthCheck))
@given(mutated())
def test_mutated_corpus_text_reads_audits_and_writes(data: bytes) -> None:
    started = time.process_time()
    for span in iter_spans(io.BytesIO(data)):
        game = parse_span(span)
        report = audit_game(game, AuditOptions())
        for finding in [*game.findings, *report.findings]:
            assert finding.code in CODES, finding
        write_game(game)
        json_text(game_to_json(game))
    assert time.process_time() - started < BUDGET
