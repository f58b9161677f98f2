"""Layer 9: the IPython extension (%%trace and friends) and the widgets."""


def load_ipython_extension(ip) -> None:
    """``%load_ext tfgraph_edu``: register the magics."""
    from .magics import load_ipython_extension as load
    load(ip)
