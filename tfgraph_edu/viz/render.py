"""DOT text to SVG through the ``graphviz`` package and its ``dot`` program (layer 8).

Graphviz is optional: without the ``dot`` program (or the ``graphviz`` package) :func:`to_svg`
returns None and the displays show :data:`INSTALL_HINT` and the DOT text instead.

Graphviz's time grows much faster than the number of nodes it lays out (a chain of 2,000
labelled nodes: half a minute), and it runs in the kernel: a drawing of more than
``LAYOUT_LIMIT`` nodes is not laid out; :func:`to_svg` returns a small SVG saying so and what
to do (fold scopes or series, or pass ``limit=None``).
"""

from __future__ import annotations

import shutil

__all__ = ["INSTALL_HINT", "LAYOUT_LIMIT", "dot_available", "to_svg", "node_count",
           "too_big_svg"]

LAYOUT_LIMIT = 1000  # nodes: about a second of Graphviz for a chain of labelled ops

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


def node_count(dot_text: str) -> int:
    """How many nodes a DOT text of :func:`~.dot.graph_to_dot` draws (its node statements)."""
    return dot_text.count(" [label=")


def too_big_svg(nodes: int, limit: int, lang: str | None = None) -> str:
    """A small SVG telling (in ``lang``, default the learner's) that a drawing of ``nodes``
    nodes was not laid out, and why."""
    from xml.sax.saxutils import escape

    from .. import labels
    lines = labels.label("svg_too_big", lang or labels.default_language(), n=f"{nodes:,}",
                         limit=f"{limit:,}").split("\n")
    texts = "".join(f'<text x="12" y="{24 + 18 * i}">{escape(t)}</text>'
                    for i, t in enumerate(lines))
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="520pt" height="96pt" '
            'viewBox="0 0 520 96" class="tfg-too-big" font-family="Helvetica,Arial,sans-serif" '
            f'font-size="13">{texts}</svg>')


def to_svg(dot_text: str, limit: int | None = LAYOUT_LIMIT, lang: str | None = None) -> str | None:
    """The SVG for ``dot_text`` (from ``<svg`` on: no XML prolog, so it can sit inside HTML),
    or None when the ``dot`` program or the ``graphviz`` package is missing.  A DOT text Graphviz
    rejects raises ``graphviz.CalledProcessError`` (with dot's message).  A drawing of more
    than ``limit`` nodes is not laid out: the SVG says so (:func:`too_big_svg`, in ``lang``)."""
    if limit is not None:
        n = node_count(dot_text)
        if n > limit:
            return too_big_svg(n, limit, lang) if dot_available() else None
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
