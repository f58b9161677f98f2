"""Layer 5: AutoGraph - Python control flow converted into graph control flow, readably."""

from .._missing import Namespace as _Namespace
from .._missing import module_getattr as _module_getattr
from .conversion import do_not_convert, to_code, to_graph  # noqa: F401
from .options import Feature, set_loop_options

experimental = _Namespace("autograph.experimental", do_not_convert=do_not_convert,
                          set_loop_options=set_loop_options, Feature=Feature)


__getattr__ = _module_getattr("autograph", __name__)
