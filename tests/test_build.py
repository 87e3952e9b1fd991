"""The build under test is the one meant: compiled modules in the compiled run, pure code otherwise.

``.ci/run`` runs the whole suite twice: on the editable (pure Python) install, and on the
compiled wheel (``tools/build_compiled.py``) with ``PDN_EXPECT_COMPILED=1``. These tests check
which build each run imports, in this process and in a child started from the tree's root
(where a ``pdn/`` folder could shadow the installed package): a compiled run must never pass
on the pure code, and a pure run must never import a stray ``pdn/*.so`` left in the tree.
"""

from __future__ import annotations

import ast
import doctest
import importlib
import os
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # hatchling, in the test extra, needs tomli on 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
EXPECT_COMPILED = os.environ.get("PDN_EXPECT_COMPILED") == "1"
DOCTEST_FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE  # as pyproject.toml's


def _source(name: str) -> Path:
    return ROOT / (name.replace(".", "/") + ".py")


def compiled_modules() -> list[str]:
    """The modules pyproject.toml has mypyc compile (``/pdn/engine/geometry.py`` ->
    ``pdn.engine.geometry``)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    paths = config["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["mypyc"]["include"]
    return [path.strip("/").removesuffix(".py").replace("/", ".") for path in paths]


def test_the_compiled_list_names_modules() -> None:
    names = compiled_modules()
    assert len(names) >= 5 and "pdn.engine.position" in names
    for name in names:
        assert _source(name).is_file(), name


@pytest.mark.parametrize("name", compiled_modules())
def test_the_module_comes_from_the_build_under_test(name: str) -> None:
    path = importlib.import_module(name).__file__ or ""
    assert path.endswith(tuple(EXTENSION_SUFFIXES)) == EXPECT_COMPILED, path
    if EXPECT_COMPILED:
        assert not Path(path).is_relative_to(ROOT / "pdn"), f"{path}: the tree's, not installed"


def test_a_child_started_in_the_tree_root_imports_the_same_build() -> None:
    import pdn.engine.position

    code = "import pdn.engine.position; print(pdn.engine.position.__file__)"
    child = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert child.stdout.strip() == pdn.engine.position.__file__


def _modules_with_examples() -> list[str]:
    paths = (ROOT / "pdn").rglob("*.py")
    found = (path for path in paths if ">>>" in path.read_text(encoding="utf-8"))
    return sorted(".".join(path.relative_to(ROOT).with_suffix("").parts) for path in found)


@pytest.mark.parametrize("name", _modules_with_examples())
def test_the_docstring_examples_hold_on_the_imported_build(name: str) -> None:
    """The examples of the module's docstrings, read from its source, run on the imported module
    (a compiled module keeps no docstrings, so ``--doctest-modules`` finds none in it)."""
    module = importlib.import_module(name)
    tree = ast.parse(_source(name).read_text(encoding="utf-8"))
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=DOCTEST_FLAGS)
    report: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            text = ast.get_docstring(node, clean=False)
            if text and ">>>" in text:
                where = getattr(node, "name", name)
                test = parser.get_doctest(text, dict(vars(module)), where, str(_source(name)), 0)
                runner.run(test, out=report.append)
    assert runner.tries > 0
    assert runner.failures == 0, "".join(report)
