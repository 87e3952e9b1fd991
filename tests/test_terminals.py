"""The fast path's copy of the grammar's terminals (``pdn.pdnfile.terminals``) is what lark
makes of ``grammars/pdn.lark``, in lark's match order; and reading clean games never loads
lark."""

from __future__ import annotations

import subprocess
import sys

from pdn.pdnfile.larkfront import lark
from pdn.pdnfile.terminals import IGNORED, TERMINALS


def test_terminals_are_the_grammars() -> None:
    parser = lark()
    ordered = sorted(
        parser.terminals,
        key=lambda t: (-t.priority, -t.pattern.max_width, -len(t.pattern.value), t.name),
    )
    table = tuple((t.name, t.pattern.to_regexp()) for t in ordered)
    expected = "\n".join(f"    ({name!r}, {regex!r})," for name, regex in table)
    assert table == TERMINALS, f"grammars/pdn.lark changed: TERMINALS is now\n{expected}"
    assert frozenset(parser.ignore_tokens) == IGNORED


def test_clean_games_are_read_without_lark() -> None:
    """A game the fast path reads imports no lark; one it cannot read loads it."""
    code = (
        "import sys\n"
        "from pdn.pdnfile.reader import read_game\n"
        "read_game('[Event \"e\"]\\n1. 32-28 19-23 2. 28x19 14x23 *')\n"
        "print('lark' in sys.modules)\n"
        "read_game('1. 32-28 ) 19-23 *')\n"
        "print('lark' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "True"]
