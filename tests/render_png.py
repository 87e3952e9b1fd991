"""Test helper: turn an SVG (e.g. from ``pdn show --svg``) into a PNG to look at.

Not a package dependency: it uses Debian's ``rsvg-convert`` (apt package ``librsvg2-bin``)
when installed; :data:`PNG_TOOL` is ``None`` otherwise and tests that need it skip.

    python tests/render_png.py game.svg game.png [--zoom 1.5]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import zlib
from collections import Counter
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


def png_colours(data: bytes) -> Counter[tuple[int, ...]]:
    """How many pixels of each colour an 8-bit, non-interlaced RGB or RGBA PNG has (a
    screenshot's kind), decoded with the standard library (zlib, the five PNG filters)."""
    if not data.startswith(PNG_SIGNATURE):
        raise ValueError("not a PNG")
    offset, chunks = 8, []
    width = height = channels = 0
    while offset < len(data):
        length = int.from_bytes(data[offset : offset + 4], "big")
        kind, body = data[offset + 4 : offset + 8], data[offset + 8 : offset + 8 + length]
        offset += 12 + length
        if kind == b"IHDR":
            width, height = int.from_bytes(body[:4], "big"), int.from_bytes(body[4:8], "big")
            depth, colour_type, interlace = body[8], body[9], body[12]
            if depth != 8 or colour_type not in (2, 6) or interlace:
                raise ValueError("only 8-bit non-interlaced RGB/RGBA PNGs are decoded here")
            channels = 3 if colour_type == 2 else 4
        elif kind == b"IDAT":
            chunks.append(body)
    raw = zlib.decompress(b"".join(chunks))
    stride = width * channels
    previous = bytearray(stride)
    colours: Counter[tuple[int, ...]] = Counter()
    for row in range(height):
        start = row * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                estimate = left + up - corner
                pa, pb, pc = abs(estimate - left), abs(estimate - up), abs(estimate - corner)
                best = left if pa <= pb and pa <= pc else up if pb <= pc else corner
                line[i] = (line[i] + best) & 255
        colours.update(tuple(line[i : i + 3]) for i in range(0, stride, channels))
        previous = line
    return colours


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("svg", type=Path)
    parser.add_argument("png", type=Path)
    parser.add_argument("--zoom", type=float, default=1.0)
    args = parser.parse_args()
    print(svg_to_png(args.svg, args.png, args.zoom), png_size(args.png))


if __name__ == "__main__":
    main()
