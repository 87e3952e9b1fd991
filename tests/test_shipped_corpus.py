"""The project's own corpus/: generated games are clean, hand-made faults are all found."""

from __future__ import annotations

import filecmp
import runpy
from collections import Counter
from pathlib import Path

from pdn.batch.parallel import AuditOptions, GameReport, check_paths

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


#: corpus/dialects/: one hand-made file per dialect of real files (issue 8), with every finding
#: it must give: (game, line, code, severity, words of the message).
DIALECTS = {
    "cr-only.pdn": [
        (1, 1, "tag", "info", "Date '1990-05-01'"),
        (1, 8, "move-number", "warning", "move number 5 where 3 was expected"),
    ],
    "french-headers.pdn": [
        (1, 1, "tag", "info", "'&#x00c9;v&#x00e9;nement' is written with HTML character"),
        (1, 1, "tag", "info", "tag Événement is French for Event"),
        (1, 1, "syntax", "warning", "(lines 1-9): '\\\\r' (9 times)"),
        (1, 2, "tag", "info", "tag Lieu is French for Site"),
        (1, 4, "tag", "info", "tag Manche is French for Round"),
        (1, 5, "tag", "info", "tag Blanc is French for White"),
        (1, 6, "tag", "info", "read as 'Martin & fils'"),
        (1, 6, "tag", "info", "tag Noir is French for Black"),
        (1, 7, "tag", "info", "read as 'Résultat'"),
        (1, 7, "tag", "info", "tag Résultat is French for Result"),
        (1, 8, "tag", "info", "tag Type de jeu is French for GameType"),
    ],
    "glued-junk.pdn": [(1, 5, "syntax", "warning", "'Redoversteppedthetimecontrolonthismove.'")],
    "glued-star.pdn": [(1, 5, "syntax", "warning", "'*' glued to the move 28x19")],
    "header-junk.pdn": [
        (
            1,
            1,
            "syntax",
            "warning",
            "header is not PDN and is skipped (lines 1-5): '\\\\r' (5 times)",
        ),
        (2, 10, "syntax", "warning", "(lines 10-14): '\\\\r' (3 times), '['"),
    ],
    "stray-fragment.pdn": [
        (1, 8, "syntax", "error", "text after the result is not read: '36x27 *'")
    ],
    "utf16.pdn": [(1, 1, "encoding", "info", "UTF-16 (byte order mark FF FE)")],
}
#: Games of each dialect file, as a reader counts them (a header and its movetext).
DIALECT_GAMES = {
    "cr-only.pdn": 1,
    "french-headers.pdn": 1,
    "glued-junk.pdn": 1,
    "glued-star.pdn": 1,
    "header-junk.pdn": 2,
    "stray-fragment.pdn": 2,
    "utf16.pdn": 1,
}


def test_each_dialect_gives_its_pinned_findings_and_game_count() -> None:
    folder = CORPUS / "dialects"
    assert sorted(path.name for path in folder.iterdir()) == sorted(DIALECTS)
    for name, expected in DIALECTS.items():
        reports = _reports(folder / name)
        assert len(reports) == DIALECT_GAMES[name], name
        found = [
            (f.game, f.line, f.code, f.severity, f.message) for r in reports for f in r.findings
        ]
        assert len(found) == len(expected), (name, found)
        for (game, line, code, severity, message), want in zip(found, expected, strict=True):
            assert (game, line, code, severity) == want[:4], (name, message)
            assert want[4] in message, (name, message)
