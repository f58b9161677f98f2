"""The tutorials' code cells under real TensorFlow and under tfgraph_edu (the ``tutorials``
source of differential.py).

Each tutorial (``notebooks/src/NN_*.md``, read with jupytext as ``notebooks/build.py`` reads
it) is run twice, cell by cell and in order, in one namespace per side: once with
``import tfgraph_edu as tf`` binding ``tf`` to real TensorFlow, once to tfgraph_edu.  A cell's
outcome is what a notebook shows: everything written to file descriptors 1 and 2 (``print``,
warnings, TF's ``tf.print`` from C++), the text of the last expression's value (its ``repr``),
and the class of the error that stopped it.  Object addresses (``0x…``) are masked.

Cells are changed or left out, with the reason counted and listed:
- ``%load_ext tfgraph_edu`` and ``from tfgraph_edu import exercises`` are dropped;
- ``%%trace`` cells run their body without the magic (the trace panels are tfgraph_edu's own;
  what the code prints and returns is compared);
- cells using the exercise checks, the graph viewer, the widgets, ``show_graph`` or the
  ``%%trace`` report kept with ``-o`` are not run (tfgraph_edu-only APIs);
- timing cells (``timeit``) run on both sides and are compared with every number masked, since
  timings differ from run to run (what is compared is the text and the error class).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from cells import _side_by_side, normalised, outcome  # noqa: F401 - shared with guides.py

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "notebooks" / "src"

# A cell matching one of these is not run on either side: (pattern, reason)
NOT_RUN = (
    (re.compile(r"\bex\."), "exercise check (tfgraph_edu.exercises)"),
    (re.compile(r"%graph_viewer|%trace_explorer|GraphViewer\(|TraceExplorer\(|TimingChart\(|"
                r"tfgraph_edu\.jupyter\.widgets"), "widget (tfgraph_edu's viewer)"),
    (re.compile(r"show_graph|tfgraph_edu\.viz"), "picture (tfgraph_edu.viz)"),
    (re.compile(r"tfgraph_edu\.jupyter\.plots"), "plot (tfgraph_edu.jupyter.plots)"),
    (re.compile(r"^result\.", re.M), "the %%trace report kept with -o"),
)
DROPPED_IMPORT = "from tfgraph_edu import exercises as ex"
TIMING = re.compile(r"\btimeit\b|perf_counter")
RANDOM = re.compile(r"tf\.random\.")
# tfgraph_edu's own attributes for looking inside (TF raises AttributeError for each): a cell
# using one is run on both sides, and TF's AttributeError naming it is counted as marked
OWN_ATTRIBUTES = ("events", "optimization_report", "optimized_graph", "call_count",
                  "concrete_functions", "functions")
_NUMBER = re.compile(r"\d+(?:\.\d*)?(?:e[-+]?\d+)?")
_SIGNED = re.compile(r"\s*-?\d+(?:\.\d*)?(?:e[-+]?\d+)?")


def tutorials() -> list[Path]:
    return sorted(SRC.glob("[0-9][0-9]_*.md"))


def code_cells(path: Path) -> list[str]:
    import jupytext
    return [c.source for c in jupytext.read(path).cells if c.cell_type == "code"]


def prepare(source: str) -> tuple[str | None, str | None, str | None]:
    """(code to run or None, the reason it was changed or left out, the name ``-o`` binds)."""
    for pattern, reason in NOT_RUN:
        if pattern.search(source):
            return None, reason, None
    lines, note, out_name = [], None, None
    for i, line in enumerate(source.splitlines()):
        stripped = line.strip()
        if i == 0 and stripped.startswith("%%trace"):
            note = "%%trace: the body run without the magic"
            m = re.search(r"-o\s+(\w+)", stripped)
            out_name = m.group(1) if m else None
            continue
        if stripped.startswith("%load_ext") or stripped == DROPPED_IMPORT:
            continue
        if stripped.startswith("%"):
            return None, f"IPython magic {stripped.split()[0]}", None
        lines.append(line.replace("import tfgraph_edu as tf", "tf = __tf_side__"))
    if TIMING.search(source):
        note = (note + "; " if note else "") + "timing: numbers masked"
    return "\n".join(lines), note, out_name


def own_attribute(error_text: str) -> str | None:
    m = re.search(r"\[AttributeError: .* has no attribute '(\w+)'\]$", error_text)
    return m.group(1) if m and m.group(1) in OWN_ATTRIBUTES else None


def compare(tally, verbose, sides, captured, close_text, names=()):
    """Run every tutorial on both sides; print the per-tutorial counts and differences."""
    import matplotlib
    matplotlib.use("Agg")
    rows = []
    cwd = os.getcwd()
    for path in tutorials():
        if names and path.stem not in names and path.stem[:2] not in names:
            continue
        cells = code_cells(path)
        ns = {side: {"__name__": "__main__", "__tf_side__": tf} for side, tf in sides}
        for _, tf in sides:  # a tutorial starts as a new kernel does (a cell left out, such
            tf.config.run_functions_eagerly(False)  # as an exercise's solution, may not reset it)
        counts = {"cells": len(cells), "compared": 0, "same": 0, "not run": 0}  # not run: or marked
        notes, diffs = [], []
        os.chdir(ROOT / "notebooks" / "en")  # where the notebook runs
        try:
            for n, source in enumerate(cells, 1):
                code, reason, out_name = prepare(source)
                if code is None:
                    counts["not run"] += 1
                    notes.append(f"cell {n}: not run: {reason}")
                    continue
                if reason:
                    notes.append(f"cell {n}: {reason}")
                got = {}
                for side, _ in sides:  # one file name: TF's AutoGraph reads it from linecache
                    got[side] = outcome(captured, code, ns[side], f"<{path.stem} cell {n}>",
                                        out_name)
                (e1, t1), (e2, t2) = got["tf"], got["ours"]
                own = own_attribute(t1) if e1 == "AttributeError" else None
                if own:
                    counts["not run"] += 1
                    notes.append(f"cell {n}: marked: tfgraph_edu-only API .{own} (TF: "
                                 "AttributeError)")
                    continue
                counts["compared"] += 1
                if RANDOM.search(source) or TIMING.search(source):
                    if RANDOM.search(source):
                        notes.append(f"cell {n}: random values: numbers masked")
                    t1, t2 = _SIGNED.sub(" #", t1), _SIGNED.sub(" #", t2)
                if e1 == e2 and close_text(t1, t2):
                    counts["same"] += 1
                    if e1:
                        notes.append(f"cell {n}: both sides raise {e1}")
                    tally.add("tutorials", f"{path.stem} cell {n}", [], [], verbose)
                    continue
                diffs.append((n, e1, e2, t1, t2))
                tally.add("tutorials", f"{path.stem} cell {n}",
                          [("cell", ("text", f"{e1}\n{t1}"))], [("cell", ("text", f"{e2}\n{t2}"))],
                          False)
        finally:
            os.chdir(cwd)
        rows.append((path.stem, counts, notes, diffs))
        print(f"\n== {path.stem}: {counts['cells']} code cells, {counts['compared']} compared, "
              f"{counts['same']} same, {len(diffs)} different, {counts['not run']} not run")
        for line in notes:
            print("   " + line)
        for n, e1, e2, t1, t2 in diffs:
            print(f"   DIFFERENT cell {n}: tf {e1 or 'ok'} / ours {e2 or 'ok'}")
            print(_side_by_side(t1, t2))
    return rows
