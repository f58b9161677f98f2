"""TensorFlow's rules for node and scope names, checked where TF checks them (layer 2).

A node name starts with a letter, digit or ``.`` and continues with letters, digits and
``_ . - / > \\``; a scope opened inside another scope may also start with one of the
continuation characters.  TF checks these in ``Graph.name_scope`` (and so for every
``name=`` given to an op, which opens a scope of that name); ``Graph.verify`` checks every
node of a graph, including graphs read from files.  Python's ``$`` would accept a final
newline; these checks match the whole string, a deliberate strictness.
"""

from __future__ import annotations

import re

VALID_OP_NAME = re.compile(r"[A-Za-z0-9.][A-Za-z0-9_.\\/>-]*")
VALID_SCOPE_NAME = re.compile(r"[A-Za-z0-9_.\\/>-]*")
# the patterns as TensorFlow prints them in its messages
_OP_PATTERN = r"^[A-Za-z0-9.][A-Za-z0-9_.\\/>-]*$"
_SCOPE_PATTERN = r"^[A-Za-z0-9_.\\/>-]*$"


def _shown(name: str) -> str:
    return name if len(name) <= 200 else name[:100] + "..." + name[-20:]


_ACCEPTED: set[str] = set()  # names seen to match the root pattern (so also the nested one)


def check_scope_name(name, nested: bool) -> str:
    """``name`` if TF accepts it as a scope (or op) name, else TF's ValueError."""
    if type(name) is str and name in _ACCEPTED:  # ``add``, ``mul``...: checked once
        return name
    if not isinstance(name, str):
        raise TypeError(f"A name must be a string, got {type(name).__name__}: {name!r:.80}.")
    if nested:
        if VALID_SCOPE_NAME.fullmatch(name) is None:
            raise ValueError(f"'{_shown(name)}' is not a valid scope name. A scope name has to "
                             f"match the following pattern: {_SCOPE_PATTERN}")
    elif VALID_OP_NAME.fullmatch(name) is None:
        raise ValueError(f"'{_shown(name)}' is not a valid root scope name. A root scope name "
                         f"has to match the following pattern: {_OP_PATTERN}")
    if len(_ACCEPTED) < 4096 and type(name) is str and VALID_OP_NAME.fullmatch(name):
        _ACCEPTED.add(name)
    return name


def is_valid_node_name(name) -> bool:
    return isinstance(name, str) and VALID_OP_NAME.fullmatch(name) is not None


def sanitize(name: str) -> str:
    """A valid node name made from ``name`` (for names the library makes from argument names
    or dictionary keys, as TF sanitizes argument names): other characters become ``_``."""
    text = re.sub(r"[^A-Za-z0-9_.\\/>-]", "_", str(name))
    if not text or VALID_OP_NAME.match(text[0]) is None:
        text = "arg_" + text
    return text
