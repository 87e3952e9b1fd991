"""Test helper: turn an SVG (e.g. from ``pdn show --svg``) into a PNG to look at.

Not a package dependency: it uses Debian's ``rsvg-convert`` (apt package ``librsvg2-bin``)
when installed; :data:`PNG_TOOL` is ``None`` otherwise and tests that need it skip.

    python tests/render_png.py game.svg game.png [--zoom 1.5]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
from pathlib import Path

PNG_TOOL = shutil.which("rsvg-convert")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def svg_to_png(svg: Path, png: Path, zoom: float = 1.0) -> Path:
    """Render ``svg`` into ``png`` (white background) with rsvg-convert; RuntimeError if absent."""
    if PNG_TOOL is None:
        raise RuntimeError("rsvg-convert is not installed (apt package librsvg2-bin)")
    subprocess.run(
        [PNG_TOOL, "--zoom", str(zoom), "--background-color", "white", "-o", str(png), str(svg)],
        check=True,
        capture_output=True,
    )
    return png


def png_size(png: Path) -> tuple[int, int]:
    """(width, height) in pixels from the PNG header."""
    data = png.read_bytes()[:24]
    if not data.startswith(PNG_SIGNATURE):
        raise ValueError(f"{png} is not a PNG")
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("svg", type=Path)
    parser.add_argument("png", type=Path)
    parser.add_argument("--zoom", type=float, default=1.0)
    args = parser.parse_args()
    print(svg_to_png(args.svg, args.png, args.zoom), png_size(args.png))


if __name__ == "__main__":
    main()
