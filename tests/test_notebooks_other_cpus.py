"""The tutorials on other CPUs: nbval replays the English notebooks under other BLAS kernels.

NumPy's bundled OpenBLAS picks its kernels for the CPU it runs on (Haswell for AVX2,
SkylakeX for AVX-512, older ones for SSE only), and they sum float32 products in different
orders, so `tf.matmul` results differ in their last bits from machine to machine; numpy's
own SIMD loops (``exp``, ``tanh``, ...) are chosen by CPU features too. A stored output
that shows those bits passes where it was built and fails on a learner's machine, on Binder
or on another CI runner. Each configuration here is such a machine: ``OPENBLAS_CORETYPE``
forces the kernels (and for the oldest, ``NPY_DISABLE_CPU_FEATURES`` turns numpy's SIMD
loops down to its baseline), and a probe notebook first checks, inside the kernel nbval
starts, that OpenBLAS really runs the kernels asked for. A last one stands for every other
BLAS (MKL, Apple Accelerate, ARM, the next OpenBLAS): ``numpy.matmul`` moves results by an
ulp, so even an output that the OpenBLAS kernels here happen to agree on is caught.

The English notebooks stand for all three languages: their code cells are identical
(``test_notebooks.py`` checks it), so the numbers they print and plot are the same; only
labels and prose differ. The machine's own kernels are left to the main nbval run, which
replays every notebook with them (about 25 s a configuration).
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks" / "en").glob("[0-9][0-9]_*.ipynb"))

# What the kernel reports: OpenBLAS's name for the kernels it runs, and the SIMD features
# numpy's loops may use beyond its baseline. Run as `python -c` and as a notebook cell.
PROBE = r'''
import ctypes, json, numpy
try:
    from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__
except ImportError:  # numpy 1.x
    from numpy.core._multiarray_umath import __cpu_dispatch__, __cpu_features__
core, libraries = None, []
try:
    with open("/proc/self/maps") as maps:
        libraries = sorted({line.split()[-1] for line in maps if "openblas" in line.lower()})
except OSError:  # not Linux
    pass
for library in libraries:
    lib = ctypes.CDLL(library)
    for name in ("scipy_openblas_get_corename64_", "scipy_openblas_get_corename",
                 "openblas_get_corename64_", "openblas_get_corename"):
        if hasattr(lib, name):
            getattr(lib, name).restype = ctypes.c_char_p
            core = getattr(lib, name)().decode()
print(json.dumps({"openblas_core": core,
                  "numpy_simd": [f for f in __cpu_dispatch__ if __cpu_features__.get(f)],
                  "matmul": type(numpy.matmul).__name__}))
'''.strip()

# OpenBLAS builds without DYNAMIC_OLDER alias the Katmai...Banias cores to the Prescott
# kernels, and then report the first alias.
ALIASES = {"Prescott": {"Prescott", "Katmai"}}

# Any other BLAS (MKL, Apple Accelerate, ARM kernels, the next OpenBLAS): numpy.matmul, which
# the MatMul and BatchMatMulV2 kernels call, moves about half of its float results by one ulp,
# always the same ones for the same inputs (as a kernel does), through a sitecustomize that
# Python runs before the Jupyter kernel starts. (The `@` inside Conv2D's kernel is not moved.)
ANY_BLAS = '''
import numpy

_matmul = numpy.matmul


def matmul(a, b, *args, **kwargs):
    r = numpy.asarray(_matmul(a, b, *args, **kwargs))
    if r.dtype.kind == "f" and r.size:
        bits = r.view({2: numpy.uint16, 4: numpy.uint32, 8: numpy.uint64}[r.itemsize])
        r = numpy.where(bits & 8 != 0, numpy.nextafter(r, numpy.inf, dtype=r.dtype), r)
    return r


numpy.matmul = matmul
'''.lstrip()

# name -> (environment, CPU flags the kernels need, what machine it stands for)
CONFIGS = {
    "Haswell": ({"OPENBLAS_CORETYPE": "Haswell"}, {"avx2", "fma"},
                "AVX2: most laptops and CI runners (also AMD Zen)"),
    "SkylakeX": ({"OPENBLAS_CORETYPE": "SkylakeX"},
                 {"avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl"},
                 "AVX-512 servers"),
    "Prescott": ({"OPENBLAS_CORETYPE": "Prescott", "OPENBLAS_NUM_THREADS": "1",
                  "NPY_DISABLE_CPU_FEATURES": "<all dispatched>"}, {"pni"},  # pni: SSE3
                 "an old CPU without AVX, one BLAS thread, numpy's SIMD at its baseline"),
    "any-BLAS": ({"PYTHONPATH": "<sitecustomize moving matmul results by one ulp>"}, set(),
                 "another BLAS library, whose matmul rounds differently"),
}


def _probe(env: dict) -> dict:
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True,
                         text=True, check=True, timeout=60).stdout
    return json.loads(out.strip().splitlines()[-1])


def _cpu_flags() -> set[str]:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("flags"):
            return set(line.split(":", 1)[1].split())
    return set()


def _uses_openblas() -> bool:
    import numpy
    try:
        blas = numpy.show_config(mode="dicts")["Build Dependencies"]["blas"]["name"]
    except Exception:
        return False
    return "openblas" in blas.lower()


def _can_switch_kernels() -> bool:
    return (sys.platform == "linux" and platform.machine() in ("x86_64", "AMD64")
            and _uses_openblas())


def _environment(name: str, tmp_path: Path) -> dict:
    settings, _, _ = CONFIGS[name]
    env = {k: v for k, v in os.environ.items()
           if k not in ("OPENBLAS_CORETYPE", "OPENBLAS_NUM_THREADS", "NPY_DISABLE_CPU_FEATURES")}
    env.update(settings)
    if "PYTHONPATH" in settings:
        site = tmp_path / "site"
        site.mkdir()
        (site / "sitecustomize.py").write_text(ANY_BLAS)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(site),
                                                          os.environ.get("PYTHONPATH")]))
    if "NPY_DISABLE_CPU_FEATURES" in settings:
        found = _probe(env | {"NPY_DISABLE_CPU_FEATURES": ""})["numpy_simd"]
        env["NPY_DISABLE_CPU_FEATURES"] = " ".join(found)
        if not found:
            del env["NPY_DISABLE_CPU_FEATURES"]
    return env


@pytest.mark.slow
@pytest.mark.parametrize("name", list(CONFIGS))
def test_tutorials_pass_with_other_blas_kernels(name, tmp_path):
    settings, flags, _ = CONFIGS[name]
    if "OPENBLAS_CORETYPE" in settings and not _can_switch_kernels():
        pytest.skip("OPENBLAS_CORETYPE switches the kernels of numpy's OpenBLAS on x86-64 "
                    "Linux only (the main nbval run checks this machine's own BLAS)")
    missing = flags - _cpu_flags() if flags else set()
    if missing:
        pytest.skip(f"this CPU cannot run the {name} kernels (no {', '.join(sorted(missing))})")
    env = _environment(name, tmp_path)
    native = _probe({k: v for k, v in env.items() if k not in settings})
    if set(settings) == {"OPENBLAS_CORETYPE"} and native["openblas_core"] in ALIASES.get(
            name, {name}):
        pytest.skip(f"{name} is this machine's own kernels: the main nbval run replays the "
                    "notebooks with them")
    seen = _probe(env)
    # the switch takes effect in a fresh Python: the kernels asked for, numpy's SIMD loops
    # off, numpy.matmul replaced
    if "OPENBLAS_CORETYPE" in settings:
        assert seen["openblas_core"] in ALIASES.get(name, {name}), (name, seen, native)
    if "NPY_DISABLE_CPU_FEATURES" in settings:
        assert seen["numpy_simd"] == [], seen
    assert (seen["matmul"] == "function") == ("PYTHONPATH" in settings), seen

    # ... and inside the Jupyter kernel nbval starts: the probe's stored output is what a
    # plain Python printed with this environment
    probe = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell(PROBE, execution_count=1)
    cell.outputs = [nbformat.v4.new_output("stream", name="stdout",
                                           text=json.dumps(seen) + "\n")]
    probe.cells = [cell]
    probe.metadata = {"kernelspec": {"display_name": "Python 3", "language": "python",
                                     "name": "python3"}}
    probe_path = tmp_path / "blas_probe.ipynb"
    nbformat.write(probe, probe_path)

    started = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
         "-c", str(ROOT / "pyproject.toml"), "--rootdir", str(ROOT), "-o", "addopts=",
         "--nbval", "--nbval-current-env",
         "--nbval-sanitize-with", str(ROOT / "notebooks" / "sanitize.cfg"),
         str(probe_path), *map(str, NOTEBOOKS)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    seconds = time.perf_counter() - started
    assert result.returncode == 0, (
        f"the tutorials fail with the {name} kernels ({CONFIGS[name][2]}; this machine runs "
        f"{native['openblas_core']}): a stored output shows digits that depend on the CPU; "
        f"print fewer\n" + result.stdout[-6000:] + result.stderr[-2000:])
    print(f"{name}: OpenBLAS core {seen['openblas_core']}, numpy SIMD {seen['numpy_simd']}, "
          f"numpy.matmul a {seen['matmul']} (natively {native['openblas_core']}, "
          f"{native['numpy_simd']}): "
          f"{len(NOTEBOOKS)} notebooks in {seconds:.0f} s")
