"""Every message pdn shows names a rule by its source, never by a document the user does not
have (issue 26 "Messages stand alone"): findings of `check` on the shipped corpus, on draw-rule
games built here for every profile, on ../shared/corpus when present, and every `--help`."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest
from conftest import run_cli

from pdn.cli.main import VERBS, build_parser
from pdn.engine.drawrules import PROFILES

ROOT = Path(__file__).resolve().parent.parent
SHARED_CORPUS = ROOT.parent / "shared" / "corpus"
#: What a message must never contain: the project's own documents and their section marks.
PRIVATE = ("RULES.md", "PDN.md", "DESIGN.md", "§")

#: Kings shuffling between two squares each, from ``fen``: repetitions, quiet-move limits and
#: (with few pieces) ending limits all expire along it.
SHUFFLE = "46-41 1-6 41-46 6-1 "
ENDINGS = ("W:WK46:BK1", "W:WK46,K47,K48:BK1", "W:WK46,K47:BK1,K3", "W:WK46,48:BK1")


def leaks(text: str) -> list[str]:
    """The lines of ``text`` that name a private document."""
    return [line for line in text.splitlines() if any(word in line for word in PRIVATE)]


def messages(capsys: pytest.CaptureFixture[str], *argv: str) -> list[str]:
    """The messages of every finding of ``pdn check ARGV... --format json``."""
    _, out, err = run_cli(capsys, "check", "--format", "json", *argv)
    assert not leaks(err)
    return [json.loads(line)["message"] for line in out.splitlines() if line.strip()]


def shuffle_game(fen: str, plies: int) -> str:
    moves = (SHUFFLE * (plies // 4 + 1)).split()[:plies]
    numbered = " ".join(
        f"{n // 2 + 1}. {move}" if n % 2 == 0 else move for n, move in enumerate(moves)
    )
    return f'[GameType "20"]\n[SetUp "1"]\n[FEN "{fen}:H0:F1"]\n[Result "2-0"]\n{numbered} 2-0\n\n'


def test_corpus_findings_stand_alone(capsys: pytest.CaptureFixture[str]) -> None:
    found = messages(capsys, "-v", str(ROOT / "corpus"))
    assert any("repetition" in m or "draw by rule" in m for m in found)
    assert not leaks("\n".join(found))


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_draw_rule_findings_name_their_source(
    profile: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "draws.pdn"
    path.write_text("".join(shuffle_game(fen, 170) for fen in ENDINGS), encoding="utf-8")
    found = messages(capsys, "-v", "--rules", profile, str(path))
    assert any(PROFILES[profile].repetition_source in m for m in found)
    assert not leaks("\n".join(found))


def test_fmjd64_rules_say_whose_numbering(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "draws.pdn"
    walk = "1. 46-41 3-8 2. 41-37 8-3 3. 37-32 3-8 4. 32-28 8-3 5. 28-23 3-8 6. 23-28 8-3"
    path.write_text(f'[SetUp "1"]\n[FEN "W:WK46:BK3"]\n{walk} *\n\n', encoding="utf-8")
    found = messages(capsys, "--rules", "fmjd64", str(path))
    assert not leaks("\n".join(found))
    assert any("FMJD-64 7.2.8" in m for m in found)


@pytest.mark.slow
@pytest.mark.skipif(not SHARED_CORPUS.is_dir(), reason="no ../shared/corpus")
def test_shared_corpus_findings_stand_alone(capsys: pytest.CaptureFixture[str]) -> None:
    assert not leaks("\n".join(messages(capsys, "-v", str(SHARED_CORPUS))))


def test_help_stands_alone() -> None:
    parser = build_parser()
    texts = {"pdn": parser.format_help()}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            texts.update((verb, sub.format_help()) for verb, sub in action._name_parser_map.items())
    assert len(texts) > len(VERBS)
    assert {verb: leaks(text) for verb, text in texts.items() if leaks(text)} == {}
