"""Layer 3: executors. A step-by-step interpreter with hooks, and the compiled fast path."""

from .compiled import CompiledGraph, compile_graph  # noqa: F401
from .errors import graph_execution_error  # noqa: F401
from .interpreter import run_graph  # noqa: F401
from .schedule import schedule  # noqa: F401
