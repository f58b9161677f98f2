"""Layer 5: AutoGraph - Python control flow converted into graph control flow, readably."""

from types import SimpleNamespace

from .conversion import do_not_convert, to_code, to_graph  # noqa: F401

experimental = SimpleNamespace(do_not_convert=do_not_convert)
