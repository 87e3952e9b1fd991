"""Where one ``pdn check`` process spends its CPU time: scanning, parsing, auditing, writing
the findings (JSON lines and text) and the closing summary, in one process, one core.

Run from the repository root (the corpus is ../shared/corpus):

    .venv/bin/python benchmarks/check_shares.py               # International files, 7 copies
    .venv/bin/python benchmarks/check_shares.py --copies 1 FILE.pdn ...

The input is the International corpus files of ``benchmarks/replay.py`` (or the files given)
concatenated ``--copies`` times into one temporary file (deleted afterwards). Each phase runs
once over all games, as ``pdn check`` runs them (``pdn.pdnfile.scan.iter_spans``,
``pdn.pdnfile.reader.parse_span``, ``pdn.batch.parallel.audit_game``), then the findings are written
both as JSON lines and as ``pdn check``'s text (``pdn.arbiter.textreport.TextReport``, with info) to
memory, and the summary table is counted and rendered (``pdn.cli.check.Summary``) to memory.
Times are CPU seconds (``time.process_time``).
"""

from __future__ import annotations

import argparse
import io
import sys
import tempfile
import time
from pathlib import Path

from replay import CORPUS, FILES
from rich.console import Console

from pdn.arbiter.textreport import TextReport
from pdn.batch.parallel import AuditOptions, audit_game
from pdn.cli.check import Summary
from pdn.pdnfile.reader import parse_span
from pdn.pdnfile.scan import iter_spans


def international_files() -> list[Path]:
    """The corpus files ``benchmarks/replay.py`` takes its International games from."""
    return sorted(p for pattern in FILES["international"] for p in CORPUS.glob(pattern))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("files", nargs="*", type=Path, help="default: replay.py's International")
    parser.add_argument("--copies", type=int, default=7, help="times the files are repeated")
    args = parser.parse_args()
    files = args.files or international_files()
    if not files:
        sys.exit(f"no input files (corpus expected at {CORPUS})")
    data = b"\n".join(path.read_bytes().rstrip() + b"\n" for path in files) * args.copies
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "input.pdn"
        path.write_bytes(data)
        shares = measure(str(path))
    total = sum(seconds for _, seconds in shares)
    print(f"{len(files)} files x {args.copies} copies, {len(data) / 1e6:.1f} MB")
    for name, seconds in shares:
        print(f"  {name:14} {seconds:7.2f} s  {100 * seconds / total:5.1f}%")
    print(f"  {'total':14} {total:7.2f} s")


def measure(path: str) -> list[tuple[str, float]]:
    """[(phase, CPU seconds)] of checking the file at ``path``; prints games and plies."""
    clock = time.process_time
    started = clock()
    spans = list(iter_spans(path))
    scanned = clock()
    games = [parse_span(span) for span in spans]
    parsed = clock()
    reports = [audit_game(game, AuditOptions()) for game in games]
    audited = clock()
    json_lines = io.StringIO()
    for report in reports:
        for finding in report.findings:
            print(finding.to_json(), file=json_lines)
    written = clock()
    text = TextReport(io.StringIO(), verbose=True)
    for report in reports:
        text.add(report.findings)
    text.close()
    texted = clock()
    summary = Summary()
    for report in reports:
        summary.add(report, report.findings)
    summary.render(Console(file=io.StringIO(), width=100))
    summed = clock()
    plies = sum(report.plies for report in reports)
    findings = sum(len(report.findings) for report in reports)
    print(f"{len(games)} games, {plies} plies, {findings} findings")
    print(f"audit alone: {plies / (audited - parsed):,.0f} plies per CPU second")
    return [
        ("scan", scanned - started),
        ("parse", parsed - scanned),
        ("audit", audited - parsed),
        ("JSON lines", written - audited),
        ("text report", texted - written),
        ("summary", summed - texted),
    ]


if __name__ == "__main__":
    main()
