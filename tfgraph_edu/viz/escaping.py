"""User text made safe for DOT and shown the same in the SVG (layer 8).

Every op, scope and function name, attr value and string constant passes through :func:`quote`
(ids) or :func:`label` (labels), so no name can break out of its DOT string; control characters
and lone surrogates are shown as Python-style escapes.  :func:`svg_title` is the text Graphviz
writes into an SVG ``<title>`` for an id, to map titles back to names.
"""

from __future__ import annotations

import hashlib
import html
import re

__all__ = ["visible", "quote", "label", "short", "svg_title", "ID_LIMIT"]

# characters that are shown as Python-style escapes: control characters (they would break the
# layout, and most are not allowed in the SVG's XML), lone surrogates (not encodable) and the two
# XML non-characters
_INVISIBLE = re.compile("[\x00-\x1f\x7f\ud800-\udfff\ufffe\uffff]")
_NAMED = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _show(match: re.Match) -> str:
    c = match.group(0)
    if c in _NAMED:
        return _NAMED[c]
    return f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}"


def visible(text) -> str:
    """``text`` with control characters and lone surrogates written as escapes (``\\n``)."""
    return _INVISIBLE.sub(_show, str(text))


ID_LIMIT = 1000  # Graphviz rejects quoted strings over 16 KiB: longer ids are shortened


def _ident(text) -> str:
    """``visible(text)``, shortened past ``ID_LIMIT`` characters to its start, an ellipsis and a
    hash of the whole (so two long names that share their start stay two nodes)."""
    shown = visible(text)
    if len(shown) <= ID_LIMIT:
        return shown
    digest = hashlib.sha1(str(text).encode("utf-8", "surrogatepass")).hexdigest()[:12]
    return f"{shown[:ID_LIMIT]}…#{digest}"


def quote(text) -> str:
    """A DOT quoted string whose value is ``visible(text)`` (shortened past ``ID_LIMIT``
    characters): backslashes and quotes are escaped, so nothing in ``text`` can end the
    string or start a Graphviz escape."""
    return '"' + _ident(text).replace("\\", "\\\\").replace('"', '\\"') + '"'


def label(*lines) -> str:
    """A DOT label of several lines of user text.  ``&`` is written as ``&amp;`` because
    Graphviz passes entity-like text (``&lt;``) through to the SVG unescaped."""
    return '"' + "\\n".join(visible(line).replace("&", "&amp;").replace("\\", "\\\\")
                            .replace('"', '\\"') for line in lines) + '"'


def short(text: str, limit: int = 32) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"



_ENTITY = re.compile(r"&#?[A-Za-z0-9]+;")


def svg_title(node_id: str) -> str:
    """The text of the SVG ``<title>`` Graphviz writes for a node or cluster id: the id as DOT
    parsed it (backslashes stay doubled) with entity-like text decoded by the browser."""
    text = _ident(node_id).replace("\\", "\\\\")
    return _ENTITY.sub(lambda m: html.unescape(m.group(0)), text) if "&" in text else text


