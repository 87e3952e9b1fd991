"""Build the optional compiled wheel of pdn: its hot modules compiled by mypyc.

    python tools/build_compiled.py [OUT_DIR]      (default: dist/)

Copies what the wheel is made of (``WHEEL_SOURCES``) to a temporary folder and has pip build
the wheel there with ``HATCH_BUILD_HOOK_ENABLE_MYPYC=1``: pip installs hatchling, hatch-mypyc,
mypy, lark and rich in an isolated build environment, so none of it reaches the calling
environment. The copy keeps the build's output out of the source tree: built in place, the
compiled ``pdn/*.so`` would stay beside the ``.py`` files, and an editable install would then
import them instead of the pure code. The compiled modules are listed in pyproject.toml
(``tool.hatch.build.targets.wheel.hooks.mypyc``). Prints the wheel's path (pip's messages go
to stderr). Cost: a few minutes (mypy's type check, then a C compiler, which must be
installed).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: What the wheel is built from: its packages, its force-included grammar, its metadata files.
WHEEL_SOURCES = ("pdn", "grammars", "pyproject.toml", "README.md", "LICENSE")


def build_compiled_wheel(out: Path) -> Path:
    """The compiled wheel, built from a copy of ``WHEEL_SOURCES`` and moved into ``out``."""
    with tempfile.TemporaryDirectory() as folder:
        tree, wheels = Path(folder) / "tree", Path(folder) / "wheels"
        tree.mkdir()
        for name in WHEEL_SOURCES:
            source = ROOT / name
            if source.is_dir():
                skipped = shutil.ignore_patterns("__pycache__", "*.so")
                shutil.copytree(source, tree / name, ignore=skipped)
            else:
                shutil.copy2(source, tree / name)
        env = dict(os.environ, HATCH_BUILD_HOOK_ENABLE_MYPYC="1")
        command = [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(wheels)]
        subprocess.run([*command, str(tree)], env=env, check=True, stdout=sys.stderr)
        (wheel,) = wheels.glob("pdn-*.whl")
        out.mkdir(parents=True, exist_ok=True)
        return Path(shutil.move(wheel, out / wheel.name))


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "dist"
    print(build_compiled_wheel(out.resolve()))


if __name__ == "__main__":
    main()
