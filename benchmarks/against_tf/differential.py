"""tfgraph_edu against real TensorFlow: the same programs run with ``tf`` bound to each
(``make check-tf``; optional, never part of ``make test``; TensorFlow is not a dependency).

Program sources:
  autograph  the AutoGraph program generator of tests/autograph/test_differential.py
  executors  the tf.cond / tf.while_loop generator of tests/function/test_control_flow_executors.py
  gradients  the gradient programs of tests/gradients/test_gradient_properties.py
  probes     hand-written probes of what learners do in the guides (probes.py)
  tutorials  every code cell of the tutorials (notebooks/src/*.md), cell by cell (tutorials.py)
  guides     the official guides' notebooks from a tensorflow/docs copy (--docs), cell by cell
             (guides.py; not in the default sources: it needs the copy)
  courses    any repository's notebooks (--repo, --notebooks or --folder), with the guides'
             rules and a TF cache of its own (guides.py; not in the default sources)

For each program both runs are turned into records (tensors as dtype, shape and values; printed
text; the error class and message; tracing counts; gradients, None kept apart from zeros) and
compared.  Floats agree within a tolerance meant for the last digits of transcendental
functions only; everything else must be equal.  The harness prints counts per source and
every disagreement (``-v`` shows the records of both sides).

    PYTHONPATH=$PWD python benchmarks/against_tf/differential.py [-n 300] [-v] [source ...]
"""

from __future__ import annotations

import argparse
import collections
import importlib.util
import io
import linecache
import os
import sys
import traceback
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import tensorflow as real_tf  # noqa: E402
from cells import _close_text, captured, error_record  # noqa: E402,F401
from hypothesis import HealthCheck, Phase, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import tfgraph_edu as ours  # noqa: E402

real_tf.get_logger().setLevel("ERROR")
real_tf.autograph.set_verbosity(0)
SIDES = (("tf", real_tf), ("ours", ours))
RTOL = {np.dtype("float16"): 1e-3, np.dtype("float32"): 2e-6, np.dtype("float64"): 1e-12}


# -- records -------------------------------------------------------------------------------
def record(x):
    """A comparable description of a value: tensors become (dtype, shape, values)."""
    if x is None or isinstance(x, (bool, int, float, str)):
        return ("py", type(x).__name__, x)
    if isinstance(x, (list, tuple)):
        return (type(x).__name__, tuple(record(v) for v in x))
    if isinstance(x, dict):
        return ("dict", tuple((k, record(v)) for k, v in sorted(x.items())))
    if hasattr(x, "numpy") and hasattr(x, "dtype"):
        value = np.asarray(x.numpy())
        return ("tensor", x.dtype.name, tuple(value.shape), value)
    return ("other", type(x).__name__, str(x))


def differ(a, b) -> str | None:
    """The kind of disagreement between two records, or None."""
    if a[0] != b[0]:
        if "error" in (a[0], b[0]):
            return "error vs value"
        return "type"
    kind = a[0]
    if kind == "error":
        return None if a[1] == b[1] else "error class"
    if kind == "tensor":
        if a[1] != b[1]:
            return "dtype"
        if a[2] != b[2]:
            return "shape"
        x, y = a[3], b[3]
        if x.dtype.kind == "f" or x.dtype.kind == "c":
            # relative to each element, and to the array's scale (a tiny element left by
            # cancellation carries the rounding of the large ones)
            r = RTOL.get(x.dtype, 1e-6)
            finite = np.abs(x[np.isfinite(x)]) if x.size else np.zeros(0)
            scale = float(finite.max()) if finite.size else 0.0
            ok = np.allclose(x, y, rtol=r, atol=r * scale, equal_nan=True)
        else:
            ok = np.array_equal(x, y)
        return None if ok else "value"
    if kind in ("list", "tuple", "dict"):
        if len(a[1]) != len(b[1]):
            return "structure"
        for u, v in zip(a[1], b[1]):
            if kind == "dict" and u[0] != v[0]:
                return "structure"
            d = differ(u[1], v[1]) if kind == "dict" else differ(u, v)
            if d:
                return d
        return None
    if kind == "text":
        return None if _close_text(a[1], b[1]) else "printed"
    if kind == "py" and a[1] == "float" == b[1]:
        return None if np.isclose(a[2], b[2], rtol=1e-6, equal_nan=True) else "value"
    return None if a[1:] == b[1:] else ("tracing count" if kind == "count" else "value")


class Tally:
    def __init__(self):
        self.counts = collections.OrderedDict()
        self.found = collections.defaultdict(list)

    def add(self, source, name, tf_rec, our_rec, verbose, departure=None):
        c = self.counts.setdefault(source, collections.Counter())
        c["run"] += 1
        kinds = []
        for (label, a), (_, b) in zip(tf_rec, our_rec):
            d = differ(a, b)
            if d:
                kinds.append((label, d, a, b))
        if not kinds:
            c["agree"] += 1
            return
        label, d, a, b = kinds[0]
        if b[0] == "error" and b[1] == "AttributeError" and (
                "has no attribute" in b[3] or "does not implement" in b[3]):
            departure = "API missing in tfgraph_edu (a loud AttributeError)"
        if departure:  # a known, deliberate difference: counted apart, not listed
            c[f"departure: {departure}"] += 1
            if verbose:
                print(f"departure [{source}] {name}: {departure}: {label}: {d}")
            return
        c[f"disagree: {d}"] += 1
        self.found[source].append((name, label, d))
        print(f"DISAGREE [{source}] {name}: {label}: {d}")
        if verbose:
            print(f"   tf:   {_short(a)}\n   ours: {_short(b)}")

    def summary(self):
        print("\nsource       run  agree  disagreements")
        for source, c in self.counts.items():
            rest = ", ".join(f"{k[10:]} {v}" for k, v in sorted(c.items()) if k.startswith("dis"))
            print(f"{source:10} {c['run']:5} {c['agree']:6}  {rest or '-'}")
            for k, v in sorted(c.items()):
                if k.startswith("departure"):
                    print(f"{'':24}{k} {v}")


def _short(rec):
    s = repr(rec) if rec[0] != "text" else repr(rec[1])
    return s if len(s) < 600 else s[:600] + " ..."


# -- source 1: the AutoGraph program generator ----------------------------------------------
def _load(path, name, tf_module):
    """Import a test module from its file with ``tfgraph_edu`` bound to tf_module while its
    top level runs (its functions then close over that ``tf``)."""
    spec = importlib.util.spec_from_file_location(name, os.path.join(ROOT, path))
    module = importlib.util.module_from_spec(spec)
    saved = sys.modules["tfgraph_edu"]
    sys.modules["tfgraph_edu"] = tf_module
    try:
        spec.loader.exec_module(module)
    finally:
        sys.modules["tfgraph_edu"] = saved
    return module


def autograph_programs(tally, n, verbose):
    import tests.autograph.test_differential as gen

    count = [0]

    def run_side(tf, source, a, b):
        filename = f"<tf-diff-program-{count[0]}-{tf.__name__}>"
        linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
        ns = {"tf": tf, "shift": gen.shift}
        exec(compile(source, filename, "exec", dont_inherit=True), ns)  # noqa: S102 - generated test program
        prog = ns["prog"]
        recs = [("eager", captured(lambda: record(prog(tf.constant(a), tf.constant(b))))[0])]
        fn = tf.function(prog)
        recs.append(("traced", captured(lambda: record(fn(tf.constant(a), tf.constant(b))))[0]))
        recs.append(("traced again", captured(
            lambda: record(fn(tf.constant(b), tf.constant(a))))[0]))
        recs.append(("tracing count", ("count", fn.experimental_get_tracing_count())))
        return recs

    @settings(max_examples=n, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(gen.programs(), st.integers(-20, 20), st.integers(-20, 20))
    def one(source, a, b):
        count[0] += 1
        tf_rec = run_side(real_tf, source, a, b)
        our_rec = run_side(ours, source, a, b)
        tally.add("autograph", f"program {count[0]} (a={a}, b={b})", tf_rec, our_rec, verbose,
                  departure=_tf_cannot_convert(source))
        if verbose and differ_any(tf_rec, our_rec):
            print(source)

    one()


def _tf_cannot_convert(source):
    """TF 2.21's AutoGraph fails to convert a function with a walrus anywhere, or with an
    annotated assignment to a name that is branch or loop state (it warns and runs the
    function unconverted, so a tensor `if`/`while` then raises OperatorNotAllowedInGraphError).
    tfgraph_edu converts both (a deliberate departure, issue 12): such programs are counted
    apart when TF's conversion itself fails."""
    ns = {"tf": real_tf, "shift": lambda f: f}
    filename = "<conversion check>"  # TF's AutoGraph reads the source through linecache
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    exec(compile(source, filename, "exec", dont_inherit=True), ns)  # noqa: S102 - generated program
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            real_tf.autograph.to_code(ns["prog"])
    except Exception as exc:  # noqa: BLE001 - any failure to convert
        if "else statement not yet supported" in str(exc):
            return None  # a loop with an else: tfgraph_edu does not convert it either (issue 22)
        if ":=" in source:
            return "TF cannot convert a walrus"
        if ": int =" in source:
            return "TF cannot convert an annotated branch/loop name"
        return f"TF cannot convert ({type(exc).__name__})"
    return None


def differ_any(x, y):
    return any(differ(a, b) for (_, a), (_, b) in zip(x, y))


# -- source 2: the executor generator (tf.cond / tf.while_loop, autograph=False) -------------
def executor_programs(tally, n, verbose):
    mods = {name: _load("tests/function/test_control_flow_executors.py",
                        f"_tfdiff_executors_{name}", tf) for name, tf in SIDES}
    y0 = np.array([0.5, -1.25, 3.0], np.float32)
    count = [0]

    def run_side(name, program, x0):
        tf, mod = dict(SIDES)[name], mods[name]
        x, y = tf.constant(x0), tf.constant(y0)
        fn = tf.function(lambda a, b: mod.run_tf(program, a, b), autograph=False)
        return [("eager", captured(lambda: record(mod.run_tf(program, x, y)))[0]),
                ("traced", captured(lambda: record(fn(x, y)))[0]),
                ("traced again", captured(lambda: record(fn(x + 1, y * 2)))[0]),
                ("tracing count", ("count", fn.experimental_get_tracing_count()))]

    @settings(max_examples=n, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(st.lists(mods["ours"].statements(2), min_size=1, max_size=5), st.integers(-50, 50))
    def one(program, x0):
        count[0] += 1
        tf_rec, our_rec = run_side("tf", program, x0), run_side("ours", program, x0)
        tally.add("executors", f"program {count[0]} (x0={x0})", tf_rec, our_rec, verbose)
        if verbose and differ_any(tf_rec, our_rec):
            print(program)

    one()


# -- source 3: the gradient programs ---------------------------------------------------------
def gradient_programs(tally, n, verbose):
    mods = {name: _load("tests/gradients/test_gradient_properties.py",
                        f"_tfdiff_gradients_{name}", tf) for name, tf in SIDES}
    count = [0]

    def run_side(name, program, seed):
        tf, mod = dict(SIDES)[name], mods[name]
        rng = np.random.default_rng(seed)
        xv, yv = rng.normal(size=(2, 3)), rng.normal(size=(3,))
        wv, bv = rng.normal(size=(3, 3)) * 0.7, rng.normal(size=(3,))
        weights = tf.constant(rng.normal(size=(2, 3)))
        x, y = tf.constant(xv), tf.constant(yv)
        w, b = tf.Variable(wv), tf.Variable(bv)
        recs = []
        for label, f in (("eager", lambda x, y: mod.run(program, x, y, w, b, weights)),
                         ("traced", tf.function(
                             lambda x, y: mod.run(program, x, y, w, b, weights),
                             autograph=False))):
            def grads(f=f):
                with tf.GradientTape() as tape:
                    tape.watch([x, y])
                    out = f(x, y)
                return [out, *tape.gradient(out, [x, y, w, b])]
            recs.append((label + " value and gradients", captured(lambda: record(grads()))[0]))
        return recs

    @settings(max_examples=n, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(st.lists(mods["ours"]._instruction, min_size=1, max_size=6), st.integers(0, 2**31 - 1))
    def one(program, seed):
        count[0] += 1
        tf_rec, our_rec = run_side("tf", program, seed), run_side("ours", program, seed)
        tally.add("gradients", f"program {count[0]} (seed={seed})", tf_rec, our_rec, verbose)
        if verbose and differ_any(tf_rec, our_rec):
            print(program)

    one()


# -- source 4: hand-written probes ----------------------------------------------------------
def probe_programs(tally, verbose):
    from probes import ALL

    for name, source in ALL:
        recs = {}
        for side, tf in SIDES:
            filename = f"<probe {name} {side}>"
            linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
            ns = {"tf": tf, "np": np, "io": io}

            def body(ns=ns, filename=filename, source=source):
                exec(compile(source, filename, "exec", dont_inherit=True), ns)  # noqa: S102 - probe text
                return ("py", "NoneType", None)
            result, text = captured(body)
            recs[side] = [("outcome", result), ("printed", ("text", text))]
        tally.add("probes", name, recs["tf"], recs["ours"], verbose)


# -- source 5: the tutorials' code cells -----------------------------------------------------
def tutorial_cells(tally, verbose, names=()):
    import tutorials
    tutorials.compare(tally, verbose, SIDES, captured, _close_text, names)


# -- source 6: the official guides' notebooks (a tensorflow/docs copy given with --docs) -----
def guide_cells(tally, verbose, docs, names=(), refresh=False):
    if not docs:
        print("guides: give a tensorflow/docs copy with --docs PATH (a checkout or its git "
              "directory; get one with: git clone https://github.com/tensorflow/docs)")
        return
    import guides
    guides.compare(tally, verbose, docs, real_tf.__version__, _close_text, names, refresh)


# -- source 7: any repository's notebooks (course material), with the guides' rules ---------
def course_cells(tally, verbose, repo, notebooks, folder, names=(), refresh=False):
    if not repo or not (notebooks or folder):
        print("courses: give a repository (a checkout or its git directory) with --repo PATH "
              "and its notebooks with --notebooks a.ipynb,b.md or --folder DIR")
        return
    import guides
    only = []  # a value that is not one of the repository's files is a comma-separated list
    known = set(guides.Docs(repo, ()).files()) if notebooks else set()
    for value in notebooks or ():
        only += [value] if value in known else [n.strip() for n in value.split(",") if n.strip()]
    guides.compare(tally, verbose, repo, real_tf.__version__, _close_text, names, refresh,
                   source="courses", folders=(folder,) if folder else (), only=only)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sources", nargs="*",
                        default=["probes", "autograph", "executors", "gradients", "tutorials"])
    parser.add_argument("-n", type=int, default=300, help="programs per generator")
    parser.add_argument("-v", "--verbose", action="store_true")
    parser.add_argument("--tutorial", action="append", default=[],
                        help="with the tutorials source: only this one (e.g. 04 or 04_...)")
    parser.add_argument("--docs", help="guides source: a tensorflow/docs checkout or git dir")
    parser.add_argument("--notebook", action="append", default=[],
                        help="with the guides or courses source: only this one (e.g. "
                        "function, core/mlp_core)")
    parser.add_argument("--refresh", action="store_true",
                        help="with the guides or courses source: run TF's side again (not "
                        "from its cache)")
    parser.add_argument("--repo", help="courses source: a repository's checkout or git dir")
    parser.add_argument("--notebooks", action="append", help="courses source: its notebooks, "
                        "comma-separated paths (.ipynb, or .md in jupytext's markdown format); "
                        "repeat it for a path with a comma")
    parser.add_argument("--folder", help="courses source: every .ipynb under this folder of "
                        "--repo")
    args = parser.parse_args(argv)
    print(f"TensorFlow {real_tf.__version__} against tfgraph_edu ({ours.__file__})")
    tally = Tally()
    runners = {"autograph": lambda: autograph_programs(tally, args.n, args.verbose),
               "executors": lambda: executor_programs(tally, args.n, args.verbose),
               "gradients": lambda: gradient_programs(tally, args.n, args.verbose),
               "probes": lambda: probe_programs(tally, args.verbose),
               "tutorials": lambda: tutorial_cells(tally, args.verbose, args.tutorial),
               "guides": lambda: guide_cells(tally, args.verbose, args.docs, args.notebook,
                                             args.refresh),
               "courses": lambda: course_cells(tally, args.verbose, args.repo, args.notebooks,
                                               args.folder, args.notebook, args.refresh)}
    for source in args.sources:
        try:
            runners[source]()
        except Exception:  # noqa: BLE001 - report a crashed source, go on with the next
            traceback.print_exc()
    tally.summary()
    return 0


if __name__ == "__main__":
    sys.exit(main())
