"""The tutorials: built from their sources in every language, with no drift.

(nbval runs every built notebook and checks its stored outputs: see pyproject's addopts.)
"""

from __future__ import annotations

import importlib.util
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
    assert len(stems) == 7
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


def test_timing_cells_are_the_only_ones_ignoring_output():
    for path in (ROOT / "notebooks").glob("*/*.ipynb"):
        for cell in nbformat.read(path, 4).cells:
            if "nbval-ignore-output" in cell.metadata.get("tags", []):
                assert "timeit" in cell.source or "TraceExplorer" in cell.source, path
