"""TensorFlow's op signatures as data: ``tf_ops.json`` (layer 2).

Written from TF 2.21's op registry by ``tests/fixtures/real_tf/make_op_table.py``: per op,
its output arguments, its attrs (and which have defaults), whether it is stateful, its input
arguments and its attrs' default values.  The readers use them for files without an op list
(a GraphDef, an event file) to name a function body's tensors (``mul:z:0`` is output ``z``
of ``mul``); the GraphDef writer to write those names and to check that TF would accept a
node's attrs; the printers (``tf_node_attrs``) to show the attrs TF's NodeDef of the same
node carries: its type attrs from the inputs' dtypes (``Tidx``, ``Tshape``, ``Tparams``) and
its defaults (``grad_a: false``, ``data_format: "NHWC"``).
"""

from __future__ import annotations

import json
import os
from types import SimpleNamespace

from .. import dtypes as _dt

__all__ = ["op_def", "tf_version", "tf_node_attrs"]

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
        outs, attrs, stateful, ins, defaults = entry
        found = SimpleNamespace(
            name=name, is_stateful=bool(stateful), attrs=attrs,
            output_arg=[SimpleNamespace(name=a, type=t, type_attr=ta, number_attr=na,
                                        type_list_attr=tl) for a, t, ta, na, tl in outs],
            input_arg=[SimpleNamespace(name=a, type=t, type_attr=ta, number_attr=na,
                                       type_list_attr=tl) for a, t, ta, na, tl in ins],
            defaults=defaults)
    cache[name] = found
    return found


def _value(v):
    """A default from the table as the printers' Python value."""
    if isinstance(v, dict):
        if "type" in v:
            return _dt.as_dtype(v["type"])
        if "s" in v:
            return v["s"]
        return [_value(x) for x in v["list"]]
    return v


def tf_node_attrs(op_type: str, input_names, input_dtypes) -> dict | None:
    """The attrs TF's NodeDef for op ``op_type`` carries that follow from its inputs (type,
    count and type-list attrs) and its registered defaults, for a node whose inputs are
    named ``input_names`` (ours, ``values*`` for a list) with ``input_dtypes``; None when
    TF has no such op or its input arguments are not ours (then nothing is derived)."""
    found = op_def(op_type)
    if found is None:
        return None
    args = found.input_arg
    names = [n.rstrip("*") for n in input_names]
    if names != [a.name for a in args] and (
            len(names) != len(args) or any(a.number_attr or a.type_list_attr for a in args)):
        return None
    lists = [a for a in args if a.number_attr or a.type_list_attr]
    if len(lists) > 1:
        return None
    n_list = len(input_dtypes) - (len(args) - len(lists))
    if n_list < 0 or (not lists and n_list):
        return None
    out = {}
    k = 0
    for a in args:
        n = n_list if (a.number_attr or a.type_list_attr) else 1
        got = list(input_dtypes[k:k + n])
        k += n
        if a.number_attr:
            out[a.number_attr] = n
        if a.type_list_attr:
            out[a.type_list_attr] = got
        elif a.type_attr and got:
            out.setdefault(a.type_attr, got[0])
    for key, v in found.defaults.items():
        out.setdefault(key, _value(v))
    return out
