"""The tutorials: built from their sources in every language, with no drift.

(nbval runs every built notebook and checks its stored outputs: see pyproject's addopts.)
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("build_notebooks", ROOT / "notebooks" / "build.py")
build = importlib.util.module_from_spec(spec)
spec.loader.exec_module(build)


def test_built_notebooks_match_their_sources():
    assert build.check() == []


def test_every_tutorial_exists_in_every_language_with_links():
    stems = [p.stem for p in build.sources()]
    assert len(stems) == 9 and stems[0] == "00_your_tools"
    for lang in build.LANGS:
        for stem in stems:
            nb = nbformat.read(ROOT / "notebooks" / lang / f"{stem}.ipynb", 4)
            first = nb.cells[0].source
            others = [lang2 for lang2 in build.LANGS if lang2 != lang]
            assert all(f"../{o}/{stem}.ipynb" in first for o in others)
            code = [c.source for c in nb.cells if c.cell_type == "code"]
            en_code = [c.source for c in nbformat.read(
                ROOT / "notebooks" / "en" / f"{stem}.ipynb", 4).cells if c.cell_type == "code"]
            assert code == en_code  # code cells never drift between languages


def test_simplified_chinese_follows_the_glossary():
    text = "即時執行 (Eager Execution) 與計算圖執行：追蹤、重新追蹤、具體函式和變數。"
    out = build.to_simplified(text + "`tf.function`")
    assert out == ("即时执行 (Eager Execution) 与计算图执行：追踪、重新追踪、具体函数和变量。"
                   "`tf.function`")


def _varies_by_run(source: str) -> bool:
    """Timings and live widgets: the only outputs that may differ from run to run."""
    first = source.splitlines()[0] if source else ""
    trace_times = first.startswith("%%trace") and ("-p" not in first or "timing" in first)
    return trace_times or any(word in source for word in ("timeit", "TraceExplorer",
                                                          "TimingChart", "%trace_explorer"))


def test_timing_cells_are_the_only_ones_ignoring_output():
    for path in (ROOT / "notebooks").glob("*/*.ipynb"):
        for cell in nbformat.read(path, 4).cells:
            if "nbval-ignore-output" in cell.metadata.get("tags", []):
                assert _varies_by_run(cell.source), (path, cell.source[:80])


def _sources():
    import jupytext
    return {p.stem: jupytext.read(p) for p in build.sources()}


def test_the_tools_are_used_across_the_tutorials():
    uses_trace, uses_widget = [], []
    for stem, nb in _sources().items():
        code = [c.source for c in nb.cells if c.cell_type == "code"]
        if any(c.startswith("%%trace") for c in code):
            uses_trace.append(stem)
        if any(w in c for c in code for w in ("%graph_viewer", "GraphViewer(", "%trace_explorer",
                                              "TraceExplorer(")):
            uses_widget.append(stem)
    assert len(uses_trace) >= 6, uses_trace
    assert len(uses_widget) >= 4, uses_widget


def _tail(source: str) -> str:
    """A check cell from its first line calling the checks (``ex.…``) to its end."""
    lines = source.strip().splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("ex."))
    return "\n".join(lines[first:])


def test_every_tutorial_ends_with_checked_exercises_and_hidden_solutions():
    for stem, nb in _sources().items():
        tagged = [c for c in nb.cells if c.cell_type == "code"
                  and "exercise" in c.metadata.get("tags", [])]
        solutions = [c for c in tagged if "solution" in c.metadata.get("tags", [])]
        checks = [c for c in tagged if "solution" not in c.metadata.get("tags", [])
                  and "ex." in c.source]
        assert len(solutions) >= 2 and len(checks) >= 2, stem
        for solution in solutions:  # the solution runs the same check as the learner's
            assert any(_tail(check.source) in solution.source for check in checks), stem
        for lang in build.LANGS:
            built = nbformat.read(ROOT / "notebooks" / lang / f"{stem}.ipynb", 4)
            hidden = [c for c in built.cells if "solution" in c.metadata.get("tags", [])]
            assert hidden and all(c.metadata["jupyter"]["source_hidden"] for c in hidden)
            words = {"en": "Solution", "zh-Hant": "參考解答", "zh-Hans": "参考解答"}[lang]
            assert sum(words in c.source for c in built.cells if c.cell_type == "markdown") >= 2


def test_stored_checks_reject_the_starting_code_and_accept_the_solutions():
    """nbval replays these outputs: the check of the untouched exercise says 'not yet', the
    check inside the reference solution says every line is right."""
    for lang, right in (("en", "All checks pass."), ("zh-Hant", "全部檢查通過。"),
                        ("zh-Hans", "全部检查通过。")):
        for path in sorted((ROOT / "notebooks" / lang).glob("[0-9][0-9]_*.ipynb")):
            cells = [c for c in nbformat.read(path, 4).cells if c.cell_type == "code"
                     and "exercise" in c.metadata.get("tags", [])]
            texts = [o.get("data", {}).get("text/plain", "") for c in cells for o in c.outputs
                     if o.get("output_type") == "execute_result"]
            solved = [c for c in cells if "solution" in c.metadata["tags"]]
            for c in solved:
                out = "".join(o.get("data", {}).get("text/plain", "") for o in c.outputs)
                assert out.rstrip().endswith(right), (path, out)
            assert sum("✘" in t for t in texts) >= 2, path


def test_plots_compare_to_the_pixel_not_to_the_last_float_bits():
    """sanitize.cfg lets a plot survive another CPU's last float32 bits (its coordinates
    move by less than 0.0001 px) but not a real change to what it shows."""
    import io

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
    from nbval.plugin import get_sanitize_patterns

    patterns = get_sanitize_patterns(
        (ROOT / "notebooks" / "sanitize.cfg").read_text(encoding="utf-8"))

    def plot(losses) -> str:
        fig, ax = plt.subplots(figsize=(5, 3))
        ax.plot(losses, label="loss")
        ax.set_yscale("log")
        ax.legend()
        buffer = io.StringIO()
        with plt.rc_context({"svg.hashsalt": "test"}):
            fig.savefig(buffer, format="svg", metadata={"Date": None})
        plt.close(fig)
        text = buffer.getvalue()
        for regex, replace in patterns:
            text = re.sub(regex, replace, text)
        return text

    losses = (11.5 * 0.8 ** np.arange(50)).astype(np.float32)
    last_bits = losses * np.float32(1 + 3e-6)  # what another BLAS kernel changed in tutorial 7
    assert not np.array_equal(losses, last_bits)
    assert plot(losses) == plot(last_bits)
    one_point = losses.copy()
    one_point[20] *= 1.05
    assert plot(losses) != plot(one_point)
    assert plot(losses) != plot(losses * 1.05)
    assert plot(losses) != plot(losses[:49])


def test_text_outputs_keep_their_decimals():
    from nbval.plugin import get_sanitize_patterns

    printed = ('eager: loss 11.508 -> 0.0109\n<tf.Tensor: shape=(), numpy=0.0109>\n'
               '"1.25" -> 2.5 (2.5, 3.5) <b title="x">0.5</b>')
    text = printed
    for regex, replace in get_sanitize_patterns(
            (ROOT / "notebooks" / "sanitize.cfg").read_text(encoding="utf-8")):
        text = re.sub(regex, replace, text)
    assert text == printed
