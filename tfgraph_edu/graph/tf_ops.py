"""TensorFlow's op signatures as data: ``tf_ops.json`` (layer 2).

Written from TF 2.21's op registry by ``tests/fixtures/real_tf/make_op_table.py``: per op,
its output arguments, its attrs (and which have defaults) and whether it is stateful.  The
readers use them for files without an op list (a GraphDef, an event file) to name a
function body's tensors (``mul:z:0`` is output ``z`` of ``mul``); the GraphDef writer to
write those names and to check that TF would accept a node's attrs.
"""

from __future__ import annotations

import json
import os
from types import SimpleNamespace

__all__ = ["op_def", "tf_version"]

_TABLE: dict = {}


def _load() -> dict:
    if not _TABLE:
        with open(os.path.join(os.path.dirname(__file__), "tf_ops.json"), encoding="utf-8") as f:
            _TABLE.update(json.load(f))
        _TABLE["cache"] = {}
    return _TABLE


def tf_version() -> str:
    return _load()["tensorflow"]


def op_def(name: str):
    """An OpDef-like record of TF's op ``name`` (``output_arg`` with ``name``, ``type``,
    ``type_attr``, ``number_attr``, ``type_list_attr``; ``attrs``: name -> has a default;
    ``is_stateful``), or None for an op TF does not register."""
    table = _load()
    cache = table["cache"]
    if name in cache:
        return cache[name]
    entry = table["ops"].get(name)
    found = None
    if entry is not None:
        outs, attrs, stateful = entry
        found = SimpleNamespace(
            name=name, is_stateful=bool(stateful), attrs=attrs,
            output_arg=[SimpleNamespace(name=a, type=t, type_attr=ta, number_attr=na,
                                        type_list_attr=tl) for a, t, ta, na, tl in outs])
    cache[name] = found
    return found
