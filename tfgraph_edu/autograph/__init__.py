"""Layer 5: AutoGraph - Python control flow converted into graph control flow, readably."""

from types import SimpleNamespace

from .conversion import do_not_convert, to_code, to_graph  # noqa: F401
from .options import Feature, set_loop_options

experimental = SimpleNamespace(do_not_convert=do_not_convert, set_loop_options=set_loop_options,
                               Feature=Feature)
