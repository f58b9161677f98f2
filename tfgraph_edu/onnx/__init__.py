"""Export a concrete function's graph to ONNX, so it runs outside tfgraph_edu (layer 10).

Uses the ``onnx`` package (``pip install 'tfgraph_edu[onnx]'``).  Variables are
frozen into initializers with their current values.  Straight-line graphs of the
common ops export; ops without an ONNX counterpart here (control flow, tf.print,
random ops, tensor lists...) are named in a clear error.
"""

from .export import export  # noqa: F401
