"""DOT text to SVG through the ``graphviz`` package and its ``dot`` program (layer 8).

Graphviz is optional: without the ``dot`` program (or the ``graphviz`` package) :func:`to_svg`
returns None and the displays show :data:`INSTALL_HINT` and the DOT text instead.
"""

from __future__ import annotations

import shutil

__all__ = ["INSTALL_HINT", "dot_available", "to_svg"]

INSTALL_HINT = ("Graphviz's `dot` program is not installed: install it with `sudo apt-get "
                "install graphviz` (Debian/Ubuntu), `brew install graphviz` (macOS) or `conda "
                "install graphviz`; showing the DOT text instead.")


def dot_available() -> bool:
    """Whether pictures can be drawn: the ``graphviz`` package imports and ``dot`` is on PATH."""
    try:
        import graphviz  # noqa: F401
    except ImportError:
        return False
    return shutil.which("dot") is not None


def to_svg(dot_text: str) -> str | None:
    """The SVG for ``dot_text`` (from ``<svg`` on: no XML prolog, so it can sit inside HTML),
    or None when the ``dot`` program or the ``graphviz`` package is missing.  A DOT text Graphviz
    rejects raises ``graphviz.CalledProcessError`` (with dot's message)."""
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
