"""Issue 29: ``pdn --version``, ``pdn --help`` and one verb import no other verb's modules
(nor the reader, the engine's move generator or lark for the top-level options); every verb
named in ``pdn.cli.main.VERBS`` is a module with ``add_parser`` and ``run``."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from pdn.cli.main import VERBS, build_parser, verb_module

PROBE = """
import sys
from contextlib import redirect_stdout
from io import StringIO
from pdn.cli.main import main
with redirect_stdout(StringIO()):
    main(sys.argv[1:])
print(" ".join(sorted(sys.modules)))
"""


def _imported_by(*argv: str) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *argv], capture_output=True, text=True, check=True
    )
    return set(done.stdout.split())


@pytest.mark.parametrize("option", ["--version", "--help"])
def test_top_level_options_import_no_verb(option: str) -> None:
    modules = _imported_by(option)
    assert not {f"pdn.cli.{verb}" for verb in VERBS} & modules
    heavy = {"lark", "rich", "pdn.pdnfile.reader", "pdn.engine.movegen", "pdn.arbiter.replay"}
    assert not heavy & modules


def test_one_verb_imports_no_other_verb() -> None:
    modules = _imported_by("moves", "--variant", "international")
    assert "pdn.cli.moves" in modules
    assert not {f"pdn.cli.{verb}" for verb in VERBS if verb != "moves"} & modules


@pytest.mark.parametrize("verb", VERBS)
def test_every_verb_is_a_module_with_its_parser(verb: str) -> None:
    module = verb_module(verb)
    assert callable(module.add_parser) and callable(module.run)


def test_the_help_lists_every_verb_with_its_line_whether_built_or_not() -> None:
    lazy, full = build_parser(()).format_help(), build_parser().format_help()
    assert lazy == full
    for verb in VERBS:
        assert re.search(rf"^    {verb}\s", full, re.MULTILINE)
