"""Any rich renderable of pdn (``pdn.views.boardview.BoardView``, ``pdn.views.gameview.GameView``)
as a deterministic SVG picture: :func:`export_svg` (``pdn show --svg-terminal``, the snapshots).
"""

from __future__ import annotations

from rich.console import Console, RenderableType


def export_svg(renderable: RenderableType, *, title: str, width: int = 80) -> str:
    """SVG of ``renderable`` drawn on a recording console ``width`` cells wide.

    Deterministic: the title is given, rich's SVG ids derive from the content, and nothing
    depends on time or the terminal. O(size of the drawing).
    """
    from io import StringIO

    console = Console(
        file=StringIO(),
        width=width,
        record=True,
        force_terminal=True,
        color_system="truecolor",
        legacy_windows=False,
        _environ={},
    )
    console.print(renderable)
    return console.export_svg(title=title)
