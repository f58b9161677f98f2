"""line_plot: the tutorials' chart as SVG text that is the same on every run (nbval compares
stored outputs), without changing matplotlib's settings for the rest of the session."""

import matplotlib

from tfgraph_edu.jupyter.plots import line_plot


def test_the_same_figure_gives_the_same_svg_and_leaves_rc_alone():
    before = matplotlib.rcParams["svg.hashsalt"]
    first = line_plot({"a": [3.0, 2.0, 1.0], "b": [3.0, 1.5, 1.2]}, "step", "loss", log=True)
    second = line_plot({"a": [3.0, 2.0, 1.0], "b": [3.0, 1.5, 1.2]}, "step", "loss", log=True)
    assert first.data == second.data
    assert "<dc:date>" not in first.data and "stroke-dasharray" in first.data  # b is dashed
    assert matplotlib.rcParams["svg.hashsalt"] == before
    other = line_plot({"a": [3.0, 2.0, 0.5]})
    assert other.data != first.data


def test_the_chart_shows_as_a_png_a_notebook_shows_before_it_is_trusted():
    import base64
    chart = line_plot({"a": [1.0, 2.0]})
    bundle = chart._repr_mimebundle_()
    assert set(bundle) == {"image/png", "text/plain"}
    assert base64.b64decode(bundle["image/png"])[:8] == b"\x89PNG\r\n\x1a\n"
