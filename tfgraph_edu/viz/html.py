"""HTML fragments for graph pictures: CSS classes only, no scripts (layer 8)."""

from __future__ import annotations

from html import escape as _escape

from . import render


def escape(text) -> str:
    return _escape(str(text), quote=True)


def svg_or_dot_html(dot_text: str) -> str:
    """The SVG picture, or - without Graphviz - the install hint and the escaped DOT."""
    svg = render.to_svg(dot_text)
    if svg is not None:
        return f'<div class="tfg-graph">{svg}</div>'
    return (f'<div class="tfg-graph tfg-no-dot"><p>{escape(render.INSTALL_HINT)}</p>'
            f"<pre>{escape(dot_text)}</pre></div>")
