"""The project's own corpus/: generated games are clean, hand-made faults are all found."""

from __future__ import annotations

import filecmp
import runpy
from collections import Counter
from pathlib import Path

from pdn.batch import AuditOptions, GameReport, check_paths

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "corpus"


def _reports(path: Path) -> list[GameReport]:
    reports = list(check_paths([str(path)], AuditOptions()))
    assert all(isinstance(report, GameReport) for report in reports)
    return reports  # type: ignore[return-value]


def test_generated_games_have_no_warning_or_error() -> None:
    reports = _reports(CORPUS / "generated")
    assert len(reports) >= 80
    assert {report.variant for report in reports} >= {
        "international",
        "brazilian",
        "russian",
        "english",
        "italian",
        "portuguese",
        "czech",
        "frisian",
        "turkish",
        "thai",
        "brazilian-giveaway",
    }
    bad = [f.to_text() for r in reports for f in r.findings if f.severity != "info"]
    assert bad == []


def test_generator_reproduces_the_shipped_files(tmp_path: Path) -> None:
    generator = runpy.run_path(str(ROOT / "tools" / "make_corpus.py"))
    assert generator["main"]([str(tmp_path)]) == 0
    shipped = sorted(path.name for path in (CORPUS / "generated").iterdir())
    assert sorted(path.name for path in tmp_path.iterdir()) == shipped
    _, mismatch, errors = filecmp.cmpfiles(CORPUS / "generated", tmp_path, shipped, shallow=False)
    assert (mismatch, errors) == ([], [])


def test_each_hand_made_fault_is_reported() -> None:
    reports = _reports(CORPUS / "irregular" / "faults.pdn")
    found = [Counter((f.code, f.severity) for f in r.findings) for r in reports]
    assert found == [
        Counter({("missed-capture", "error"): 1}),
        Counter({("illegal-move", "error"): 1}),
        Counter({("capture-rule", "error"): 1}),
        Counter({("result", "warning"): 1}),
        # a draw by rule is a note; the moves after it and the result denying it are the faults
        Counter(
            {("repetition", "info"): 1, ("moves-after-end", "error"): 1, ("result", "warning"): 1}
        ),
        Counter(
            {("move-limit", "info"): 1, ("moves-after-end", "error"): 1, ("result", "warning"): 1}
        ),
        Counter({("ambiguous-move", "warning"): 1}),
    ]
