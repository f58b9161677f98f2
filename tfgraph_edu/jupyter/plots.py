"""``line_plot``: a small matplotlib line chart shown as SVG, for the tutorials (layer 9).

Plain matplotlib, nothing TensorFlow-specific: it exists only to keep two lines of
bookkeeping out of a learner's way.  The SVG is written with a fixed ``svg.hashsalt`` and
no date, so the same figure gives the same text on every run (nbval compares the stored
output of tutorial cells; a random id in the SVG would make every run differ)."""

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
    plt.close(fig)
    return Chart(buffer.getvalue())


@dataclass(frozen=True)
class Chart:
    """A chart's SVG text (``data``), shown in a notebook as an ``<img>`` of it: a notebook
    shows an image before it is trusted, where it would leave an ``image/svg+xml`` output
    out (JupyterLab and Notebook 7 render untrusted SVG as its text fallback)."""

    data: str

    def _repr_html_(self) -> str:
        encoded = base64.b64encode(self.data.encode("utf-8")).decode("ascii")
        return ('<img alt="chart" style="max-width:100%;height:auto" '
                f'src="data:image/svg+xml;base64,{encoded}">')

    def __repr__(self) -> str:
        return "<chart>"
