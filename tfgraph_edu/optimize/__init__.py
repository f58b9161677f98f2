"""Layer 6: Grappler-style optimisation passes, each Graph -> Graph with a report."""

from .options import get_experimental_options, set_experimental_options  # noqa: F401
from .pipeline import PIPELINE, optimize  # noqa: F401
from .report import Change, OptimizationReport, PassReport  # noqa: F401
