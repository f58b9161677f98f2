"""The official TensorFlow guides under real TensorFlow and under tfgraph_edu (the ``guides``
source of differential.py, issue 25).

Every notebook of a tensorflow/docs copy under ``site/en/guide/`` (with ``core/`` and
``migrate/``) and ``site/en/tutorials/customization/`` is read at run time from the path the
user gives: a checkout, or a git directory read with ``git show`` (no notebook text is kept in
this project).  Each notebook's code cells run in order, one namespace per side, each side in
its own process (so one notebook's global state, such as a mixed-precision policy, never
reaches the next):

- TensorFlow's side runs once per notebook and TF version; its outcomes are kept as JSON in
  ``benchmarks/.cache/guides/`` (gitignored), so a re-run only runs tfgraph_edu's side;
- tfgraph_edu's side runs the same cells with ``import tensorflow``, ``from tensorflow…`` and
  ``import keras`` inside the cells resolved to ``tfgraph_edu`` and ``tfgraph_edu.keras``.

A cell's outcome is what a notebook shows (``cells.outcome``): the text written to file
descriptors 1 and 2, the ``repr`` of its last value, and the class of its error.  Left out and
counted, with the reason: whole notebooks out of scope (TPU, DTensor, distribution strategies,
Estimator, TF1 sessions, jax2tf, TFLite, GPU devices); cells that download data
(``get_file``, ``tfds.load``, ``keras.datasets``, URLs in code); cell magics (``%%bash``,
``%%writefile``…); cells with no code.  Shell and magic lines (``!pip``, ``%matplotlib``)
and imports of download-only packages (``tensorflow_datasets``, ``tensorflow_hub``) are
removed from a cell and counted; ``%%time`` runs its body with timings masked.  Each cell
has a time limit (TF's cells past it are counted apart, not compared).

Compared, for every cell TF runs without an error: ours ran and printed the same (within the
float tolerance of ``cells._close_text``), ours ran and printed something else (SILENT, the
worst), or ours raised.  Masked before comparing: object addresses, temporary paths, Keras's
step timings, a printed traceback's frames and the internal exceptions chained before its last
line, stack frames of files other than the cells (the engines' and this harness's own), the
module path of exception classes, the `` name: …`` TF appends to eager op errors and oneDNN's
``Mkl`` in kernel names, every number in timing cells, and every number in cells
whose values are random
(a cell using ``tf.random``, ``np.random``, Keras (random initial weights) or a name that such
a cell set, transitively): there the text's shape is compared, not its digits.

    PYTHONPATH=$PWD .venv-tf/bin/python benchmarks/against_tf/differential.py guides \\
        --docs /path/to/tensorflow/docs [--notebook function] [-v]
"""

from __future__ import annotations

import ast
import builtins
import collections
import hashlib
import io
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import tokenize
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
CACHE_ROOT = ROOT / "benchmarks" / ".cache"
FOLDERS = ("site/en/guide", "site/en/tutorials/customization")
CELL_SECONDS = 120
RULES = "4"  # bump when what is run or masked changes: TF's cached outcomes are then redone
# so trees with other rules can share benchmarks/.cache; the ``courses`` source keeps its
# outcomes in a folder of its own, its files named after the repository too
CACHE = CACHE_ROOT / "guides" / f"rules{RULES}"

# A notebook whose code matches one of these is out of scope as a whole: (pattern, reason)
OUT_OF_SCOPE = (
    (r"TPUStrategy|TPUClusterResolver|TPUEmbedding|tpu_embedding", "TPU"),
    (r"dtensor", "DTensor (meshes of several devices)"),
    (r"jax2tf", "jax2tf"),
    (r"\btf\.lite\b|TFLiteConverter", "TFLite"),
    (r"\bestimator\b", "Estimator (tf.estimator)"),
    (r"compat\.v1\.Session|tf1\.Session|compat\.v1\.placeholder|\btf1\.",
     "TF1 graphs and sessions (tf.compat.v1)"),
    (r"(?:tf\.compat\.v1\.[\s\S]*){3}", "built on TF1's API (tf.compat.v1)"),
    (r"tf_upgrade_v2", "the tf_upgrade_v2 script"),
)
# Cells matching one of these are out of scope; a notebook with 30% or more such cells is out
# of scope as a whole (its subject is what they do): (pattern, reason)
CELLS_OUT_OF_SCOPE = (
    (r"MirroredStrategy|ParameterServerStrategy|MultiWorker|tf\.distribute\.(?:experimental|"
     r"Strategy|get_strategy|OneDeviceStrategy|get_replica_context)|experimental_distribute|"
     r"\bstrategy\.", "distribution strategies (tf.distribute over several devices)"),
    (r"set_memory_growth|list_logical_devices\(['\"]GPU|set_logical_device_configuration|"
     r"device\(['\"]/?(?:device:)?GPU|experimental\.set_visible_devices|"
     r"set_virtual_device_configuration|LogicalDeviceConfiguration|VirtualDeviceConfiguration",
     "GPU or virtual devices"),
)
DOWNLOADS = re.compile(r"get_file\(|tfds\.(?!__version__)|keras\.datasets|"
                       r"\bdatasets\.\w+\.load_data|https?://|gs://|urlretrieve|urlopen|"
                       r"requests\.get|hub\.(?:KerasLayer|load)")
# packages that only download (their calls are out of scope): their import lines are removed
DOWNLOAD_IMPORT = re.compile(r"\s*(?:import|from)\s+(?:tensorflow_datasets|tensorflow_hub)\b")
CELL_MAGIC_RUN = ("%%time",)  # run the body, timings masked
TIMING = re.compile(r"\btime\.(?:time|perf_counter|process_time)\b|timeit|%%time|"
                    r"datetime\.now|\.elapsed")
RANDOM = re.compile(r"\brandom\b|keras|layers\.|Dense\(|Sequential|initializers|shuffle|"
                    r"Dropout|\.fit\(|optimizers\.|Generator|"
                    # saved state read back (written by cells whose values were random)
                    r"\.restore\(|load_model\(|load_weights\(|saved_model\.load\(|"
                    r"load_checkpoint|load_variable")
# Words a cell prints that random values choose (an untrained model's argmax picks a class
# name): (notebook, cell) -> pattern; in random-masked cells they are compared as "<choice>"
RANDOM_CHOICES = {
    ("customization/custom_training_walkthrough", 22):
        re.compile(r"\b(?:Ad[eé]lie|Chinstrap|Gentoo)\b"),
}
# Differences that are explained and reviewed: TF's output is its own defect, which
# tfgraph_edu does not copy (the issue asks for the behaviour TF documents), or TF's
# documentation text, which tfgraph_edu never copies.  Such a cell is
# counted as "explained": not the same output, not silent.  (notebook, cell) -> the reason
# in one line; add a cell only with the evidence (a probe of TF) in the commit that adds it.
EXPLAINED = {
    ("checkpoint", 17):
        "TF 2.21/Keras 3 restores a subclassed model's Dense kernel before it is built by "
        "creating the kernel twice, restoring neither copy (the optimizer then tracks 3 "
        "variables, so TF's checkpoint has optimizer/_trainable_variables/0 and 6 slots); "
        "tfgraph_edu restores the kernel as the guide says",
    ("data", 27):
        "a shuffle(20) without a seed picks which random-length series make the first "
        "padded batch, so its width changes from run to run in TF too (4 runs of TF 2.21 with "
        "NumPy seeded: 9, 9, 8 and 8 columns); when the widths happen to agree it is the same",
    ("11_training_deep_neural_networks", 85):
        "the cell prints the first line of each schedule class's docstring: TF's documentation "
        "text, which tfgraph_edu writes in its own words (never copied); CosineDecayRestarts, "
        "not implemented here, is missing from the list (using it raises AttributeError)",
}
# TF numbers the functions of If/While bodies with a process-wide counter (as __inference_
# names, masked in cells.py): cond_true_30 compares as cond_true_#
_BODY_NUMBER = re.compile(r"\b((?:cond_true|cond_false|while_body|while_cond)_)\d+\b")
# the courses source also masks the numbers of cells that call id(): an object's identity is
# its address, as ever-different as the hex addresses masked everywhere (the guides' rules
# stay as they were recorded)
RANDOM_COURSES = re.compile(RANDOM.pattern + r"|(?<![\w.])id\(")
_SIGNED = re.compile(r"-?\d+(?:\.\d*)?(?:e[-+]?\d+)?")
_STEP_TIME = re.compile(r"\b\d+(?:\.\d+)?(?:ms|s|us|µs)(?:/step|/epoch|/sample)?\b")
_TMP = re.compile(r"/tmp/[\w.-]+")
_PADDING = re.compile(r"[ \t]+(?=[\]),])")  # NumPy pads a column to its longest number


# -- reading the notebooks -------------------------------------------------------------------
class Docs:
    """A tensorflow/docs copy: a checkout (a folder with ``site/``) or a git directory.

    ``folders`` and ``only`` make it any notebook repository (the ``courses`` source): the
    notebooks under those folders, or exactly the paths in ``only``."""

    def __init__(self, path: str, folders=FOLDERS, only=()):
        self.path = Path(path).expanduser().resolve()
        self.folders, self.only = tuple(folders), tuple(only)
        probe = self.folders[0] if self.folders else "."
        self.checkout = (self.path / probe).is_dir() and not (self.path / "HEAD").is_file()
        if not self.checkout and subprocess.run(
                ["git", "-C", str(self.path), "rev-parse", "HEAD"], capture_output=True,
                check=False).returncode:
            raise SystemExit(f"{self.path} is neither a tensorflow/docs checkout nor its git "
                             "directory (get one: git clone https://github.com/tensorflow/docs)")

    def notebooks(self) -> list[str]:
        if self.only:
            return list(self.only)
        if self.checkout:
            return sorted(str(p.relative_to(self.path)) for f in self.folders
                          for p in (self.path / f).rglob("*.ipynb"))
        out = subprocess.run(["git", "-C", str(self.path), "ls-tree", "-r", "-z",
                              "--name-only", "HEAD", *self.folders], capture_output=True,
                             text=True, check=True)
        return sorted(p for p in out.stdout.split("\0") if p.endswith(".ipynb"))

    def files(self) -> list[str]:
        """Every file of the copy (for telling a path from a list of paths)."""
        if self.checkout:
            return [str(p.relative_to(self.path)) for p in self.path.rglob("*") if p.is_file()]
        return subprocess.run(["git", "-C", str(self.path), "ls-tree", "-r", "-z", "--name-only",
                               "HEAD"], capture_output=True, text=True, check=True
                              ).stdout.split("\0")

    def read(self, rel: str) -> str:
        if self.checkout:
            return (self.path / rel).read_text(encoding="utf-8")
        return subprocess.run(["git", "-C", str(self.path), "show", f"HEAD:{rel}"],
                              capture_output=True, text=True, check=True).stdout


def code_cells(notebook_text: str, rel: str = ".ipynb") -> list[str]:
    """The code cells' sources (a notebook is JSON data, read as data; a ``.md`` notebook in
    jupytext's markdown format is read with jupytext)."""
    if rel.endswith(".md"):
        import jupytext
        return [c.source for c in jupytext.reads(notebook_text, fmt="md").cells
                if c.cell_type == "code"]
    cells = json.loads(notebook_text).get("cells", [])
    return ["".join(c["source"]) if isinstance(c["source"], list) else c["source"]
            for c in cells if c.get("cell_type") == "code"]


def short_name(rel: str, folders=FOLDERS) -> str:
    for folder in folders:
        if rel.startswith(folder + "/"):
            rel = ("customization/" if "customization" in folder else "") + rel[len(folder) + 1:]
    return rel.removesuffix(".ipynb").removesuffix(".md")


def notebook_out_of_scope(cells: list[str]) -> str | None:
    code = "\n".join(_without_comments(c) for c in cells)
    for pattern, reason in OUT_OF_SCOPE:
        if re.search(pattern, code) or (reason.startswith("the tf_upgrade")
                                        and re.search(pattern, "\n".join(cells))):
            return reason
    for pattern, reason in CELLS_OUT_OF_SCOPE:
        if sum(bool(re.search(pattern, _without_comments(c))) for c in cells) >= 0.3 * len(cells):
            return reason
    return None


def _without_comments(source: str) -> str:
    """The code of a cell without its comments (a URL in a comment downloads nothing)."""
    text = "\n".join("" if ln.lstrip().startswith(("!", "%")) else ln
                     for ln in source.splitlines())
    try:
        tokens = [t for t in tokenize.generate_tokens(io.StringIO(text).readline)
                  if t.type != tokenize.COMMENT]
        return tokenize.untokenize(tokens)
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return re.sub(r"(^|\s)#.*", "", text)


def prepare(source: str) -> tuple[str | None, str, int, str | None]:
    """(code to run or None, "run"/"skip"/"out of scope"/"imports only", magic lines removed,
    reason)."""
    code = _without_comments(source)
    if not code.strip():
        return None, "skip", 0, "no code"
    first = source.lstrip().split("\n", 1)[0].strip()
    body = source
    if first.startswith("%%"):
        if first.split()[0] not in CELL_MAGIC_RUN:
            return None, "skip", 0, f"cell magic {first.split()[0]}"
        body = source.lstrip().split("\n", 1)[1] if "\n" in source.lstrip() else ""
    reason = None
    if DOWNLOADS.search(code):
        reason = f"downloads data ({DOWNLOADS.search(code).group(0)})"
    for pattern, why in CELLS_OUT_OF_SCOPE:
        if reason is None and re.search(pattern, code):
            reason = why
    if reason:
        imports = _imports_only(body)
        return imports, "imports only" if imports else "out of scope", 0, reason
    kept, removed = [], 0
    for line in body.splitlines():
        if line.strip().startswith(("!", "%")) or DOWNLOAD_IMPORT.match(line):
            removed += 1
            continue
        kept.append(line)
    text = "\n".join(kept)
    if not _without_comments(text).strip():
        return None, "skip", removed, "only shell or magic lines"
    return text, "run", removed, None


def _absent(module: str) -> bool:
    """A module this interpreter cannot import (both sides run in it, so it is absent on both)."""
    import importlib.util
    if module.split(".")[0] in ("tensorflow", "keras", "tfgraph_edu"):
        return False
    try:
        return importlib.util.find_spec(module) is None
    except (ImportError, ValueError):  # a parent package absent, or a module with no spec
        return True


def drop_absent_imports(source: str) -> tuple[str, int]:
    """(``source`` without its top-level import statements of packages this interpreter lacks,
    how many were removed): the courses source's rule.  Both sides run in one interpreter, so a
    lacking package (``pandas``, ``sklearn`` in a venv without them) fails on both; removing its
    import keeps the cell's other imports (``import tensorflow as tf`` is often beside it), and
    the cells that use the missing name then raise ``NameError`` on both sides (TF's errors,
    never counted against tfgraph_edu)."""
    try:
        tree = ast.parse("\n".join("" if ln.strip().startswith(("!", "%")) else ln
                                   for ln in source.splitlines()))
    except SyntaxError:
        return source, 0
    drop: set[int] = set()
    statements = 0
    for node in tree.body:
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names = [node.module]
        else:
            continue
        if any(_absent(n) for n in names):
            drop.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
            statements += 1
    if not drop:
        return source, 0
    lines = source.splitlines()
    return "\n".join(ln for i, ln in enumerate(lines, 1) if i not in drop), statements


def _imports_only(source: str) -> str | None:
    """The top-level imports of a cell left out (so later cells still have their names):
    run on both sides, not counted."""
    try:
        tree = ast.parse("\n".join("" if ln.strip().startswith(("!", "%")) or
                                   DOWNLOAD_IMPORT.match(ln) else ln
                                   for ln in source.splitlines()))
    except SyntaxError:
        return None
    nodes = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
    return "\n".join(ast.unparse(n) for n in nodes) or None


def masks(cells: list[str | None], random=RANDOM) -> list[str | None]:
    """Per cell: "timing", "random" or None.  A cell is timing (random) when it reads a clock
    (a random source) or uses a name that such a cell set (functions and classes included),
    transitively."""
    tainted: dict[str, set[str]] = {"timing": set(), "random": set()}
    sources = {"timing": TIMING, "random": random}
    out = []
    for code in cells:
        if code is None:
            out.append(None)
            continue
        try:
            tree = ast.parse(code)
        except SyntaxError:
            out.append(None)
            continue
        loads, stores = set(), set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Name):
                (loads if isinstance(node.ctx, ast.Load) else stores).add(node.id)
            elif isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)):
                stores.add(node.name)
            elif isinstance(node, ast.alias):
                stores.add((node.asname or node.name).split(".")[0])
        stores -= {"tf", "np", "tensorflow", "numpy", "plt", "time", "keras"}
        kind = None
        for k in ("timing", "random"):
            if sources[k].search(_without_comments(code)) or loads & tainted[k]:
                tainted[k] |= stores
                kind = kind or k
        out.append(kind)
    return out


# -- running one side (in its own process) ---------------------------------------------------
class CellTimeout(Exception):
    pass


def _on_alarm(signum, frame):
    raise CellTimeout(f"the cell ran longer than {CELL_SECONDS} s")


def _ours_import(name, globals=None, locals=None, fromlist=(), level=0):
    """``import tensorflow``/``keras`` inside a cell, resolved to tfgraph_edu."""
    top = name.split(".")[0]
    if level == 0 and top in ("tensorflow", "keras"):
        import tfgraph_edu
        root = tfgraph_edu if top == "tensorflow" else tfgraph_edu.keras
        if not fromlist:
            return root  # `import tensorflow.a.b as c` reads the attributes afterwards
        obj = root
        for part in name.split(".")[1:]:
            if not hasattr(obj, part):
                raise ModuleNotFoundError(f"No module named '{name}' (tfgraph_edu has no "
                                          f"{part} there)")
            obj = getattr(obj, part)
        return obj
    return builtins.__import__(name, globals, locals, fromlist, level)


def _display(*values):
    for v in values:
        print(repr(v))


def run_side(side: str, cells: list[str | None], out: Path) -> None:
    """Run a notebook's prepared cells in order, one JSON line per cell into ``out``."""
    from cells import captured, outcome
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import matplotlib
    matplotlib.use("Agg")
    if side == "tf":
        import tensorflow as tf
        tf.get_logger().setLevel("ERROR")
        tf.autograph.set_verbosity(0)
    spare = dict(vars(builtins), display=_display)
    if side == "ours":
        spare["__import__"] = _ours_import
    ns = {"__name__": "__main__", "__builtins__": spare}
    # the notebook's own NumPy and Python random draws (shapes, sizes) alike on both sides:
    # neither engine draws from these generators (tfgraph_edu's and TF's are their own)
    import random

    import numpy as np
    np.random.seed(0)
    random.seed(0)
    signal.signal(signal.SIGALRM, _on_alarm)
    workdir = tempfile.mkdtemp(prefix=f"guides-{side}-")
    os.chdir(workdir)
    with out.open("w") as f:
        for n, code in enumerate(cells, 1):
            if code is None:
                continue
            start = time.perf_counter()
            signal.setitimer(signal.ITIMER_REAL, CELL_SECONDS)
            try:
                error, text = outcome(captured, code, ns, f"<cell {n}>", None)
            except CellTimeout as exc:  # raised outside the cell's own capture
                error, text = "CellTimeout", str(exc)
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
            text = _TMP.sub("/tmp/…", text.replace(workdir, "<cwd>"))
            first = re.search(r"\[\w+: (.*)\]$", text)
            f.write(json.dumps({"n": n, "error": error, "text": text,
                                "message": first.group(1)[:160] if error and first else "",
                                "seconds": round(time.perf_counter() - start, 2)}) + "\n")
            f.flush()


def _spawn(side: str, cells: list[str | None], out: Path, wall: int) -> str | None:
    """Run one side in a new process; None, or why it stopped early."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(cells, f)
    # GUIDES_OURS_ROOT: another checkout's tfgraph_edu on our side (e.g. main, for a "before")
    root = os.environ.get("GUIDES_OURS_ROOT", str(ROOT)) if side == "ours" else str(ROOT)
    # the caller's other PYTHONPATH entries follow (a folder of packages this venv lacks, as
    # the README's pytest links), after the tfgraph_edu tree chosen
    extra = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep)
             if p and Path(p).resolve() not in (ROOT, Path(root).resolve())]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([root, *extra]), TF_CPP_MIN_LOG_LEVEL="3",
               MPLBACKEND="Agg",
               PYTHONHASHSEED="0", CUDA_VISIBLE_DEVICES="")
    try:
        proc = subprocess.run(["nice", "-n", "10", sys.executable, str(Path(__file__)),
                               "--worker", side, f.name, str(out)], env=env, timeout=wall,
                              capture_output=True, text=True, check=False)
        if proc.returncode:
            return f"process ended with {proc.returncode}: {proc.stderr.strip()[-300:]}"
    except subprocess.TimeoutExpired:
        return f"process past {wall} s"
    finally:
        os.unlink(f.name)
    return None


def _read(out: Path) -> dict[int, dict]:
    if not out.exists():
        return {}
    return {r["n"]: r for r in map(json.loads, out.read_text().splitlines()) if r}


def tf_outcomes(docs: Docs, rel: str, cells, tf_version: str, refresh=False,
                cache: Path = CACHE, name: str | None = None) -> dict:
    """TF's outcomes of a notebook's cells: recorded once per notebook, TF version and rules."""
    key = hashlib.sha256(json.dumps([cells, tf_version, RULES, CELL_SECONDS]).encode()
                         ).hexdigest()[:16]
    path = cache / ((name or short_name(rel)).replace("/", "__") + ".json")
    if path.exists() and not refresh:
        data = json.loads(path.read_text())
        if data.get("key") == key:
            return data
    cache.mkdir(parents=True, exist_ok=True)
    lines = path.with_suffix(".jsonl")
    stopped = _spawn("tf", cells, lines, wall=CELL_SECONDS * len(cells) + 120)
    data = {"key": key, "notebook": rel, "tf": tf_version, "stopped": stopped,
            "cells": {str(n): r for n, r in _read(lines).items()}}
    path.write_text(json.dumps(data, indent=0))
    lines.unlink(missing_ok=True)
    return data


# -- comparing ---------------------------------------------------------------------------------
_CONNECTOR = ("The above exception was the direct cause", "During handling of the above")
_ERROR_MODULE = re.compile(r"\b(?:tensorflow|tfgraph_edu|keras)(?:\.\w+)*\.(\w*(?:Error|Exception|"
                           r"Warning))\b")


def _tracebacks(text: str) -> str:
    """A printed traceback reduced to its last exception line: its frames are the engine's
    own files (TF's internals or tfgraph_edu's), and the exceptions TF chains on the way
    (``During handling…``) are internal too; what the learner's code raised is compared."""
    lines, out, i = text.split("\n"), [], 0
    while i < len(lines):
        if not lines[i].startswith("Traceback (most recent call last):"):
            out.append(lines[i])
            i += 1
            continue
        j = i + 1
        while True:
            while j < len(lines) and (lines[j].startswith(" ") or not lines[j].strip()):
                j += 1
            k = j + 1
            while k < len(lines) and not lines[k].strip():
                k += 1
            if k < len(lines) and lines[k].startswith(_CONNECTOR):
                k += 1
                while k < len(lines) and not lines[k].strip():
                    k += 1
                if k < len(lines) and lines[k].startswith("Traceback (most recent call"):
                    j = k + 1
                    continue
            break
        out.append("Traceback (…)")
        i = j
    return "\n".join(out)


_OTHER_FRAME = re.compile(r"^([ \t]*)File \"(?!<cell )[^\"]*\", line \d+, in .*\n"
                          r"(?:\1[ \t]+(?!File )\S.*\n)?", re.M)


# a tensor's class printed (``x.__class__``): TF's module path or ours, the class name compared
_TENSOR_CLASS = re.compile(r"<class '(?:tensorflow|tfgraph_edu)(?:\.\w+)*\.(\w+)'>")

# TF's eager op errors: oneDNN builds name the kernel __MklMatMul, and most ops end with
# " name: <op name>"; tfgraph_edu names the op and stops at [Op:…] (a known departure)
_MKL = re.compile(r"__wrapped____Mkl")
_OP_NAME = re.compile(r"(\[Op:[\w#]+\]) name: ?\S*")


_SGR = re.compile(r"\x1b\[[0-9;]*m")  # ANSI colours and bold (Keras's progress bar)


def _console(text: str) -> str:
    """Keras's progress bar as a notebook shows it: its ANSI colours dropped and the updates
    it erases with backspaces (and the line breaks around them) gone, so its last state is
    left.  Text without backspaces or colours is returned as it is."""
    if "\x1b[" not in text and "\x08" not in text:
        return text
    text = _SGR.sub("", text)
    if "\x08" not in text:
        return text
    lines = []
    for line in text.split("\n"):
        if line.endswith("\x08"):
            # Keras erases an update with backspaces and a carriage return (which
            # ``cells.captured`` splits as a line break): a notebook clears the whole line at
            # the return, whatever the backspaces' count (which can be short of the text when
            # a padded update is erased), so nothing of it is left
            line = "\x08"
        if "\x08" in line:
            kept: list[str] = []
            for ch in line:
                if ch == "\x08":
                    if kept:
                        kept.pop()
                else:
                    kept.append(ch)
            line = "".join(kept)
            if not line.strip():
                if lines and not lines[-1].strip():
                    lines.pop()  # the line break that opened the erased update
                continue
        lines.append(line)
    return "\n".join(lines)


def _masked(text: str, mask: str | None, choices: re.Pattern | None = None) -> str:
    text = _console(text)
    text = _OTHER_FRAME.sub("", _ERROR_MODULE.sub(r"\1", _tracebacks(text)))
    text = _TENSOR_CLASS.sub(r"<class '\1'>", text)
    text = _BODY_NUMBER.sub(r"\1#", text)
    if choices is not None and mask == "random":
        text = choices.sub("<choice>", text)
    text = _OP_NAME.sub(r"\1", _MKL.sub("__wrapped__", text))
    text = _STEP_TIME.sub("#s", _PADDING.sub("", text))
    # masked: the text's shape only (NumPy pads columns to the longest number, sign included)
    if not mask:
        return text
    text = re.sub(r"[ \t]+", "", _SIGNED.sub("#", text))
    if mask == "random":  # NumPy wraps an array's rows, and puts its ``dtype=`` on a line
        # of its own, by the width of its numbers, which random values pick: the line breaks
        # between masked numbers and before that ``dtype=`` go (the layout is not compared;
        # brackets, commas and the count of numbers still are)
        text = _RANDOM_WRAP.sub("", text)
    if mask == "random":  # a loop over random values runs a random number of times: a run
        # of equal lines made only of masked numbers counts once
        text = _REPEATED_NUMBERS.sub(r"\1", text)
    return text


_RANDOM_WRAP = re.compile(r"(?<=#)\n(?=#)|(?<=#,)\n(?=#)|(?<=\],)\n(?=dtype=)")
_REPEATED_NUMBERS = re.compile(r"^([^A-Za-z\n]*#[^A-Za-z\n]*\n)(?:\1)+", re.M)


def _adds_a_sentence(tf_text: str, our_text: str, close_text) -> bool:
    """Line by line the same, but some of ours go on after TF's whole line: the fix
    tfgraph_edu adds to TF's error message ("errors teach", a deliberate departure)."""
    a, b = tf_text.split("\n"), our_text.split("\n")
    if len(a) != len(b):
        return False
    longer = False
    for x, y in zip(a, b):
        if close_text(x, y):
            continue
        if len(x.strip()) >= 20 and y.startswith(x.rstrip()) and len(y) > len(x.rstrip()):
            longer = True
            continue
        return False
    return longer


_EXC_LINE = re.compile(r"^\s*([A-Za-z_]\w*(?:Error|Exception|Exit|Interrupt)):", re.M)


def _same_caught_error(tf_text: str, our_text: str, close_text) -> str | None:
    """The error class when both texts print the same caught error (the same text before its
    traceback, the same exception class after it, the same class on its last line) and only
    its frames or message differ: not a silent difference (the learner sees the error in both;
    e.g. how deep a recursion goes before Python's limit), nor the same output."""
    a, b = tf_text.split("Traceback (…)", 1), our_text.split("Traceback (…)", 1)
    if len(a) != 2 or len(b) != 2 or not close_text(a[0], b[0]):
        return None
    first_a, first_b = _EXC_LINE.search(a[1]), _EXC_LINE.search(b[1])
    last_a, last_b = _EXC_LINE.findall(a[1]), _EXC_LINE.findall(b[1])
    if not (first_a and first_b and first_a.group(1) == first_b.group(1)
            and last_a[-1] == last_b[-1]):
        return None
    return first_a.group(1) + ("" if last_a[-1] == first_a.group(1) else f" ({last_a[-1]})")


def repo_label(path: Path) -> str:
    """A repository's name for cache files: its folder, or the one above a git dir's
    ``repo``/``.git`` (``/mirror/owner+name/repo`` is ``owner+name``)."""
    path = Path(path)
    name = path.parent.name if path.name in ("repo", ".git") else path.name
    return re.sub(r"[^\w+.-]", "_", name.removesuffix(".git"))


def compare(tally, verbose, docs_path, tf_version, close_text, names=(), refresh=False, *,
            source="guides", folders=FOLDERS, only=()):
    """Run every notebook (TF's side from its cache); print per-notebook rows and totals.

    ``source="courses"`` runs any repository's notebooks (``folders`` or exactly ``only``)
    with the same rules, its TF outcomes cached under ``benchmarks/.cache/courses/``."""
    from cells import _side_by_side
    docs = Docs(docs_path, folders, only)
    cache = CACHE if source == "guides" else CACHE_ROOT / source / f"rules{RULES}"
    prefix = "" if source == "guides" else repo_label(docs.path) + "__"
    totals = collections.Counter()
    causes = collections.Counter()
    skipped_nb, silent, explained = [], [], []
    c = tally.counts.setdefault(source, collections.Counter()) if tally else None
    print(f"\n{source}: {docs.path}")
    header = f"{'notebook':42} {'cells':>5} {'TF ok':>5} {'ran':>4} {'same':>4} {'SILENT':>6} " \
             f"{'expl.':>5} {'raised':>6} {'TF err':>6} {'TF skip':>7} {'magic':>5}"
    print(header)
    for rel in docs.notebooks():
        name = short_name(rel, folders)
        if names and not any(x == name or x == Path(name).name for x in names):
            continue
        sources = code_cells(docs.read(rel), rel)
        reason = notebook_out_of_scope(sources)
        if reason:
            skipped_nb.append((name, reason, len(sources)))
            continue
        absent = [(s, 0) if source == "guides" else drop_absent_imports(s) for s in sources]
        prepared = [prepare(s) for s, _ in absent]
        cells = [p[0] for p in prepared]
        mask = masks(cells, RANDOM if source == "guides" else RANDOM_COURSES)
        row = collections.Counter(cells=len(sources), magic=sum(p[2] for p in prepared),
                                  absent=sum(k for _, k in absent))
        out_cells = [p for p in prepared if p[1] in ("out of scope", "imports only")]
        row["download"] = sum(p[3].startswith("downloads") for p in out_cells)
        row["cells out"] = len(out_cells) - row["download"]
        tf_data = tf_outcomes(docs, rel, cells, tf_version, refresh, cache, prefix + name)
        tf_cells = {int(k): v for k, v in tf_data["cells"].items()}
        with tempfile.TemporaryDirectory() as tmp:
            ours_out = Path(tmp) / "ours.jsonl"
            stopped = _spawn("ours", cells, ours_out, wall=CELL_SECONDS * len(cells) + 120)
            ours_cells = _read(ours_out)
        notes = [f"cell {n}: out of scope: {p[3]}" + (" (its imports run)" if p[0] else "")
                 for n, p in enumerate(prepared, 1) if p[1] in ("out of scope", "imports only")]
        notes += [f"cell {n}: {k} import(s) of packages this Python lacks removed"
                  for n, (_, k) in enumerate(absent, 1) if k]
        if tf_data.get("stopped"):
            notes.append(f"TF's process: {tf_data['stopped']}")
        if stopped:
            notes.append(f"our process: {stopped}")
        for n, code in enumerate(cells, 1):
            if code is None or prepared[n - 1][1] == "imports only":
                continue
            t = tf_cells.get(n)
            if t is None or t["error"] == "CellTimeout":
                row["TF skip"] += 1
                continue
            o = ours_cells.get(n) or {"error": "ProcessDied", "text": stopped or "", "message": ""}
            choices = RANDOM_CHOICES.get((name, n))
            t1 = _masked(t["text"], mask[n - 1], choices)
            t2 = _masked(o["text"], mask[n - 1], choices)
            if t["error"]:
                row["TF err"] += 1
                notes.append(f"cell {n}: TF raises {t['error']}: {t['message'][:150]}"
                             + (f" (ours: {o['error'] or 'runs'})"))
                if o["error"] is None:
                    row["silent (TF raises)"] += 1
                    silent.append((name, n, t, o, "TF raises"))
                continue
            row["TF ok"] += 1
            if o["error"]:
                row["raised"] += 1
                causes[f"{o['error']}: {o['message'][:110]}"] += 1
                notes.append(f"cell {n}: ours raised {o['error']}: {o['message'][:150]}")
                continue
            row["ran"] += 1
            if close_text(t1, t2):
                row["same"] += 1
                if (name, n) in EXPLAINED:
                    notes.append(f"cell {n}: listed as explained but the same: drop it from "
                                 "EXPLAINED")
                if mask[n - 1]:
                    row[f"same, {mask[n - 1]} numbers masked"] += 1
            elif _adds_a_sentence(t1, t2, close_text):
                row["same"] += 1
                row["same, ours adds a sentence to TF's error"] += 1
                notes.append(f"cell {n}: same but for the sentence tfgraph_edu adds to TF's "
                             "error (errors teach)")
            elif caught := _same_caught_error(t1, t2, close_text):
                row["error text"] += 1
                notes.append(f"cell {n}: both print a caught {caught}; its frames or message "
                             "differ (not silent, not the same output)")
            elif (name, n) in EXPLAINED:
                row["explained"] += 1
                explained.append((name, n, t1, t2))
                notes.append(f"cell {n}: explained difference: {EXPLAINED[(name, n)]}")
            else:
                row["SILENT"] += 1
                silent.append((name, n, t1, t2, mask[n - 1]))
                notes.append(f"cell {n}: SILENT difference"
                             + (f" ({mask[n - 1]} numbers masked)" if mask[n - 1] else ""))
        totals.update(row)
        totals["notebooks"] += 1
        print(f"{name:42} {row['cells']:5} {row['TF ok']:5} {row['ran']:4} {row['same']:4} "
              f"{row['SILENT']:6} {row['explained']:5} {row['raised']:6} {row['TF err']:6} "
              f"{row['TF skip']:7} {row['magic']:5}")
        if verbose:
            for line in notes:
                print("    " + line)
        if c is not None:
            c["run"] += row["TF ok"]
            c["agree"] += row["same"]
            c["disagree: SILENT (ours ran, printed otherwise)"] += row["SILENT"]
            c["disagree: explained (listed with reasons)"] += row["explained"]
            c["disagree: ours raised"] += row["raised"]
            c["disagree: a caught error's frames or message"] += row["error text"]
    ok = totals["TF ok"] or 1
    random_same, timing_same = (totals[f"same, {m} numbers masked"] for m in ("random", "timing"))
    taught = totals["same, ours adds a sentence to TF's error"]
    print(f"\n{totals['notebooks']} notebooks run, {totals['cells']} code cells, "
          f"{totals['download']} download data (not run), {totals['cells out']} out of scope "
          f"(several devices, GPU or virtual devices), {totals['magic']} shell/magic lines "
          f"removed, {totals['TF skip']} past the time limit or lost in TF"
          + (f", {totals['absent']} imports of packages this Python lacks removed (their "
             "names' cells fail on both sides)" if totals["absent"] else ""))
    print(f"cells TF runs: {totals['TF ok']}; ours ran {totals['ran']} "
          f"({100 * totals['ran'] / ok:.1f}%), same output {totals['same']} "
          f"({100 * totals['same'] / ok:.1f}%; numbers masked: random {random_same}, "
          f"timing {timing_same}; ours adds a sentence to TF's error {taught})"
          f", SILENT {totals['SILENT']}, explained (listed with reasons) "
          f"{totals['explained']}, ours raised {totals['raised']}, a caught error printed "
          f"with other frames or message {totals['error text']}")
    print(f"cells TF raises in: {totals['TF err']} (ours ran without an error in "
          f"{totals['silent (TF raises)']})")
    print("\nout of scope, whole notebooks:")
    for name, reason, n in skipped_nb:
        print(f"    {name} ({n} code cells): {reason}")
    print("\nwhy ours raised (cells):")
    for cause, n in causes.most_common(40 if verbose else 15):
        print(f"    {n:4}  {cause}")
    print(f"\nexplained differences (not counted as the same): {len(explained)}")
    for name, n, a, b in explained:
        print(f"  {name} cell {n}: {EXPLAINED[(name, n)]}")
        if verbose:
            print(_side_by_side(a, b, width=10))
    print(f"\nsilent differences: {len(silent)}")
    for name, n, a, b, mask in silent:
        if mask == "TF raises":
            print(f"  {name} cell {n}: TF raises {a['error']} ({a['message'][:120]}), ours runs")
            if verbose:
                print("      ours printed: " + b["text"][:300].replace("\n", "\n      "))
            continue
        print(f"  {name} cell {n}" + (f" ({mask} numbers masked)" if mask else ""))
        if verbose:
            print(_side_by_side(a, b, width=10))
    return totals


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "--worker":  # one side of one notebook, in its own process
        sys.path.insert(0, str(HERE))
        side, cells_file, out = argv[1:4]
        run_side(side, json.loads(Path(cells_file).read_text()), Path(out))
        return 0
    print("run through differential.py: differential.py guides --docs PATH, or "
          "differential.py courses --repo PATH --notebooks A,B", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
