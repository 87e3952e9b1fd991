"""Exit codes of the ``pdn`` command (DESIGN.md), and the one wording of a path failure.

0 clean, 1 findings of severity error (``--strict``: also warnings), 2 usage or I/O failure,
130 interrupted (Ctrl-C, as shells report a SIGINT), 143 terminated (SIGTERM, 128 + 15).
The verbs (``pdn.cli``) and the command (``pdn.cli.main``) import them from here, so no verb
imports the command that imports it.
"""

from __future__ import annotations

import os
import sys

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
EXIT_TERMINATED = 143


class Terminated(SystemExit):
    """SIGTERM while a verb runs (``pdn.cli.main`` turns the signal into it): a ``SystemExit``
    with ``EXIT_TERMINATED``, so no ``except Exception`` of a verb stops it on its way out; a
    verb that rewrites files may catch it to say what it left untouched."""

    def __init__(self) -> None:
        super().__init__(EXIT_TERMINATED)


def path_error(verb: str, error: OSError, path: str | None = None) -> int:
    """Print the one wording every verb uses for a path it cannot read or write,
    ``pdn VERB: PATH: No such file or directory``, and return ``EXIT_USAGE``."""
    where = path or (os.fsdecode(error.filename) if error.filename else None)
    prefix = f"{where}: " if where else ""
    print(f"pdn {verb}: {prefix}{error.strerror or error}", file=sys.stderr)
    return EXIT_USAGE
