"""Size and time of a `pdn report` page for about 10,000 findings.

The input is ``corpus/irregular/faults.pdn`` (11 findings in 8 codes, every one drawn with a
board but the header-level ones) copied until the findings reach ``--findings``: every code
reaches the default cap of 500 cards, the worst case for boards per page that the corpus gives.

    .venv/bin/python benchmarks/report_size.py [--findings 10000] [--max-cards 500]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

FAULTS = Path(__file__).resolve().parents[1] / "corpus" / "irregular" / "faults.pdn"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--findings", type=int, default=10_000)
    parser.add_argument("--max-cards", type=int, default=500)
    args = parser.parse_args()
    pdn = [sys.executable, "-m", "pdn"]
    with tempfile.TemporaryDirectory() as folder:
        one = FAULTS.read_text(encoding="utf-8").rstrip() + "\n\n"
        per_copy = len(
            subprocess.run(
                [*pdn, "check", "--format", "json", "--no-summary", str(FAULTS)],
                capture_output=True,
                text=True,
            ).stdout.splitlines()
        )
        copies = -(-args.findings // per_copy)
        source = Path(folder) / "faults-many.pdn"
        source.write_text(one * copies, encoding="utf-8")
        page = Path(folder) / "report.html"
        started = time.perf_counter()
        subprocess.run(
            [*pdn, "report", str(source), "-o", str(page), "--max-cards", str(args.max_cards)],
            check=False,
        )
        seconds = time.perf_counter() - started
        text = page.read_text(encoding="utf-8")
        print(
            json.dumps(
                {
                    "findings": per_copy * copies,
                    "cards": text.count('class="card '),
                    "page_mb": round(len(text.encode("utf-8")) / 1e6, 2),
                    "seconds": round(seconds, 1),
                }
            )
        )


if __name__ == "__main__":
    main()
