"""Golden files: the exact output of check, list and convert on the project's own corpus.

A change of output shows here as a diff. After an intended change, regenerate with
``PDN_UPDATE_GOLDEN=1 pytest tests/test_golden.py`` and review the diff of tests/golden/.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pdn.cli.main import main

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = Path(__file__).resolve().parent / "golden"

CASES = {
    "check-faults.json": ["check", "corpus/irregular/faults.pdn", "--format", "json"],
    "check-faults.txt": ["check", "corpus/irregular/faults.pdn", "--no-summary"],
    "list-faults.txt": ["list", "corpus/irregular/faults.pdn", "--format", "csv"],
    "convert-english.pdn": ["convert", "corpus/generated/english-numeric.pdn", "--renumber"],
    "convert-russian.json": ["convert", "corpus/generated/russian-algebraic.pdn", "--to", "json"],
    "convert-faults.pdn": ["convert", "corpus/irregular/faults.pdn", "--notation", "algebraic"],
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_output_matches_its_golden_file(
    name: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    main(CASES[name])
    out = capsys.readouterr().out
    golden = GOLDEN / name
    if os.environ.get("PDN_UPDATE_GOLDEN"):
        golden.write_text(out, encoding="utf-8")
    assert out == golden.read_text(encoding="utf-8")
