"""HTML fragments for graph pictures (layer 8): CSS classes and one small ``<style>``, no
scripts, nothing loaded from elsewhere.  Every piece of user text goes through :func:`escape`."""

from __future__ import annotations

import base64
import re
import subprocess
from html import escape as _escape

from .. import labels
from . import render
from .dot import HIGHLIGHTS, KINDS

__all__ = ["escape", "svg_or_dot_html", "svg_image", "legend_html", "STYLE"]


def escape(text) -> str:
    """``text`` as HTML text or attribute value: ``&``, ``<``, ``>`` and both quotes escaped."""
    return _escape(str(text), quote=True)


def _style() -> str:
    kinds = "".join(f".tfg-key-{k}{{background:{fill};}}" for k, (_, fill, _, _) in KINDS.items())
    changes = "".join(f".tfg-key-{k}{{background:#fff;border:2px solid {colour};}}"
                      for k, (colour, _) in HIGHLIGHTS.items())
    return ("<style>"
            ".tfg-graph{overflow:auto;max-height:80vh;}"
            ".tfg-graph svg{max-width:100%;height:auto;}"
            ".tfg-graph.tfg-no-dot pre{font-size:11px;max-height:24em;overflow:auto;}"
            ".tfg-hint{color:#8a5300;}"
            ".tfg-caption{font-size:12px;color:#555;margin:2px 0;}"
            ".tfg-legend{font-size:11px;color:#555;margin:2px 0;white-space:normal;}"
            ".tfg-legend>span.tfg-key+*{white-space:nowrap;}"
            ".tfg-legend span.tfg-key{display:inline-block;width:10px;height:10px;"
            "border:1px solid #888;margin:0 3px 0 8px;vertical-align:middle;}"
            ".tfg-table td,.tfg-table th{text-align:left;padding:2px 8px;vertical-align:top;}"
            f"{kinds}{changes}</style>")


STYLE = _style()


def svg_image(svg: str, alt: str, min_scale: float | None = None) -> str:
    """``svg`` as an ``<img>`` with a data URL: a notebook shows it also before it is trusted
    (its sanitiser keeps images with data URLs but drops inline SVG, leaving the drawing's
    words as raw text).  Scaled down to its container's width, and with ``min_scale`` not
    below that share of its natural width (Graphviz gives the width in pt)."""
    data = base64.b64encode(svg.encode("utf-8")).decode("ascii")
    style = "max-width:100%;height:auto"
    width = re.search(r'<svg width="([\d.]+)pt"', svg)
    if min_scale is not None and width:
        style += f";min-width:{round(float(width.group(1)) * 4 / 3 * min_scale)}px"
    return (f'<img alt="{escape(alt)}" style="{style}" '
            f'src="data:image/svg+xml;base64,{data}">')


def svg_or_dot_html(dot_text: str, image: str | None = None,
                    min_scale: float | None = None) -> str:
    """The SVG picture of ``dot_text`` in a ``div``, inline or, given ``image`` (its alt
    text), as :func:`svg_image`; without Graphviz, the install hint and the escaped DOT text;
    if Graphviz rejects the DOT, its message and the DOT text."""
    try:
        svg = render.to_svg(dot_text)
    except (subprocess.CalledProcessError, OSError) as exc:
        detail = getattr(exc, "stderr", b"") or b""
        if isinstance(detail, bytes):
            detail = detail.decode("utf-8", "replace")
        message = f"Graphviz could not draw this graph: {detail.strip() or exc}"
        return (f'{STYLE}<div class="tfg-graph tfg-no-dot"><p class="tfg-hint">'
                f"{escape(message)}</p><pre>{escape(dot_text)}</pre></div>")
    if svg is not None:
        if image is not None:
            svg = svg_image(svg, image, min_scale)
        return f'{STYLE}<div class="tfg-graph">{svg}</div>'
    return (f'{STYLE}<div class="tfg-graph tfg-no-dot"><p class="tfg-hint">'
            f"{escape(render.INSTALL_HINT)}</p><pre>{escape(dot_text)}</pre></div>")


def legend_html(kinds=None, changes=(), words=None, lang: str | None = None) -> str:
    """A one-line key of node colours: ``kinds`` (default: all of ``KINDS``) and highlight
    kinds ``changes``; ``words``: kind -> the text to show (default: the label table's
    ``kind_*``/``change_*`` words in ``lang``, the learner's language if None)."""
    tips = {k: KINDS[k][3] for k in KINDS}
    tips.update({k: HIGHLIGHTS[k][1] for k in HIGHLIGHTS})
    if words is None:
        lang = lang or labels.default_language()
        words = {k: labels.label(f"kind_{k}", lang) for k in KINDS if labels.has(f"kind_{k}")}
        words.update({k: labels.label(f"change_{k}", lang) for k in HIGHLIGHTS
                      if labels.has(f"change_{k}")})
        tips.update({k: labels.label(f"tip_{k}", lang) for k in tips if labels.has(f"tip_{k}")})
    parts = []
    # the key's look also inline: a notebook not trusted yet drops the <style>
    look = ("display:inline-block;width:10px;height:10px;margin:0 3px 0 8px;"
            "vertical-align:middle;")
    for k in KINDS if kinds is None else [k for k in KINDS if k in set(kinds)]:
        parts.append(f'<span class="tfg-key tfg-key-{k}" title="{escape(tips[k])}" '
                     f'style="{look}border:1px solid #888;background:{KINDS[k][1]}"></span>'
                     f"{escape(words.get(k, k.replace('_', ' ')))}")
    for k in [k for k in HIGHLIGHTS if k in set(changes)]:
        parts.append(f'<span class="tfg-key tfg-key-{k}" title="{escape(tips[k])}" '
                     f'style="{look}background:#fff;border:2px solid {HIGHLIGHTS[k][0]}">'
                     f"</span>{escape(words.get(k, k))}")
    return f'<div class="tfg-legend">{"".join(parts)}</div>' if parts else ""
