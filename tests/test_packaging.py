"""The built distributions hold what the package needs: the grammar, the viewer's script and
style, docs, tools, LICENSE."""

from __future__ import annotations

import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_the_wheel_holds_the_grammar_and_the_version(tmp_path: Path) -> None:
    wheel_builders = pytest.importorskip("hatchling.builders.wheel")
    (wheel,) = wheel_builders.WheelBuilder(str(ROOT)).build(
        directory=str(tmp_path), versions=["standard"]
    )
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        assert "pdn/grammars/pdn.lark" in names
        assert "pdn/py.typed" in names
        assert {"pdn/views/viewer.js", "pdn/views/viewer.css"} <= set(names)  # the viewer's
        metadata = next(name for name in names if name.endswith(".dist-info/METADATA"))
        text = archive.read(metadata).decode()
    import pdn

    assert f"Version: {pdn.__version__}\n" in text
    assert "Requires-Dist: lark<2,>=1.2" in text or "Requires-Dist: lark>=1.2,<2" in text


def test_the_sdist_holds_docs_tools_and_the_license(tmp_path: Path) -> None:
    sdist_builders = pytest.importorskip("hatchling.builders.sdist")
    (sdist,) = sdist_builders.SdistBuilder(str(ROOT)).build(
        directory=str(tmp_path), versions=["standard"]
    )
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    assert {"LICENSE", "CHANGELOG.md", "grammars/pdn.lark", "docs/internals.md"} <= names
    assert any(name.startswith("tools/") for name in names)
