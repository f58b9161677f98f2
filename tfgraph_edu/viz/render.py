"""DOT to SVG through the ``graphviz`` package (layer 8)."""

from __future__ import annotations

import shutil

INSTALL_HINT = ("Graphviz's `dot` program is not installed: install it with `sudo apt-get "
                "install graphviz` (Debian/Ubuntu), `brew install graphviz` (macOS) or `conda "
                "install graphviz`; showing the DOT text instead.")


def dot_available() -> bool:
    return shutil.which("dot") is not None


def to_svg(dot_text: str) -> str | None:
    """The SVG for ``dot_text``, or None when the ``dot`` program is missing."""
    try:
        import graphviz
    except ImportError:
        return None
    try:
        svg = graphviz.Source(dot_text).pipe(format="svg", encoding="utf-8")
    except graphviz.ExecutableNotFound:
        return None
    start = svg.find("<svg")
    return svg[start:] if start >= 0 else svg
