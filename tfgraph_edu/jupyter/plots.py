"""``line_plot``: a small matplotlib line chart for the tutorials (layer 9), shown as a PNG.

Plain matplotlib, nothing TensorFlow-specific: it exists only to keep a few lines of
bookkeeping out of a learner's way.  Its SVG text is kept too, written with a fixed
``svg.hashsalt`` and no date, so the same figure gives the same text on every run."""

from __future__ import annotations

import base64
import io
from dataclasses import dataclass


def line_plot(series: dict, xlabel: str = "", ylabel: str = "", log: bool = False,
              size: tuple = (5, 3)):
    """``{label: values}`` as lines on one chart (the second and later ones dashed), returned
    as a :class:`Chart` (a notebook shows it when it is a cell's last value)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=size)
    for i, (label, values) in enumerate(series.items()):
        ax.plot(list(values), "-" if i == 0 else "--", label=label)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if log:
        ax.set_yscale("log")
    ax.legend()
    fig.tight_layout()  # the axis labels inside the picture
    buffer = io.StringIO()
    with plt.rc_context({"svg.hashsalt": "tfgraph_edu"}):
        fig.savefig(buffer, format="svg", metadata={"Date": None})
    png = io.BytesIO()
    fig.savefig(png, format="png", dpi=120, metadata={"Software": None})
    plt.close(fig)
    return Chart(buffer.getvalue(), png.getvalue())


@dataclass(frozen=True)
class Chart:
    """A chart: its SVG text (``data``, the same on every run) and a PNG of it, which is what
    a notebook shows. A PNG shows before a notebook is trusted (JupyterLab and Notebook 7
    leave an untrusted ``image/svg+xml`` as its text), and nbval leaves images out of its
    comparison: the plotted float32 values differ in their last bits between CPUs and BLAS
    kernels, which changes the picture's bytes, never what it shows."""

    data: str
    png: bytes

    def _repr_mimebundle_(self, include=None, exclude=None):
        return {"image/png": base64.b64encode(self.png).decode("ascii"), "text/plain": "<chart>"}

    def __repr__(self) -> str:
        return "<chart>"
