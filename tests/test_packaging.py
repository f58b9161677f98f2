"""The project's own files: dependencies, CI, Binder and the README stay true."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: the same parser, from PyPI (a dev requirement)
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def _name(req: str) -> str:
    return re.split(r"[\[<>=!~ ;]", req, maxsplit=1)[0].strip().lower()


def test_engine_needs_numpy_only():
    assert [_name(r) for r in PYPROJECT["project"]["dependencies"]] == ["numpy"]


def test_no_tensorflow_or_jax_anywhere():
    reqs = list(PYPROJECT["project"]["dependencies"])
    for extra in PYPROJECT["project"]["optional-dependencies"].values():
        reqs += extra
    reqs += (ROOT / "binder" / "requirements.txt").read_text().split()
    banned = {"tensorflow", "tensorflow-cpu", "tf-nightly", "jax", "jaxlib", "keras"}
    assert not {_name(r) for r in reqs} & banned


def test_extras_hold_the_tools():
    extras = PYPROJECT["project"]["optional-dependencies"]
    assert {"ipython", "ipywidgets", "anywidget", "graphviz"} <= {_name(r) for r in
                                                                  extras["jupyter"]}
    assert {"pytest", "hypothesis", "nbval", "ruff", "mypy"} <= {_name(r) for r in extras["dev"]}
    assert "tfgraph_edu[jupyter,onnx,tf-files]" in extras["dev"]
    # open_graph's readers: TF's messages from tensorboard's protos, ONNX's from onnx
    assert {"tensorboard", "protobuf", "onnx"} <= {_name(r) for r in extras["tf-files"]}


def test_binder_pins_every_jupyter_requirement():
    lines = [ln for ln in (ROOT / "binder" / "requirements.txt").read_text().splitlines() if ln]
    assert all("==" in ln for ln in lines)
    pinned = {_name(ln) for ln in lines}
    jupyter = {_name(r) for r in PYPROJECT["project"]["optional-dependencies"]["jupyter"]}
    assert jupyter | {"numpy"} <= pinned
    assert "graphviz" in (ROOT / "binder" / "apt.txt").read_text().split()
    assert os.access(ROOT / "binder" / "postBuild", os.X_OK)


def test_declared_pythons_are_the_checked_ones():
    # make test-versions runs the suite on FLOOR_PY and NEWEST_PY: the ends of requires-python
    makefile = (ROOT / "Makefile").read_text()
    floor = re.search(r"^FLOOR_PY := (\S+)$", makefile, re.M).group(1)
    newest = re.search(r"^NEWEST_PY := (\S+)$", makefile, re.M).group(1)
    minor = int(newest.split(".")[1])
    assert PYPROJECT["project"]["requires-python"] == f">={floor},<3.{minor + 1}"
    classifiers = [c for c in PYPROJECT["project"]["classifiers"]
                   if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)]
    assert classifiers == [f"Programming Language :: Python :: 3.{m}"
                           for m in range(int(floor.split(".")[1]), minor + 1)]
    # the floor venv installs the lowest numpy declared
    assert re.search(r'^NUMPY_FLOOR := .*"numpy>=', makefile, re.M)


def test_binder_installs_the_package_offline():
    lines = [ln for ln in (ROOT / "binder" / "requirements.txt").read_text().splitlines() if ln]
    names = [_name(ln) for ln in lines]
    assert len(names) == len(set(names)), "a package listed twice"
    # postBuild builds the package with the backend requirements.txt installed: no download
    commands = [ln for ln in (ROOT / "binder" / "postBuild").read_text().splitlines()
                if ln.startswith("pip ")]
    assert commands == ["pip install --no-deps --no-build-isolation --no-index ."]
    backend = PYPROJECT["build-system"]["requires"]
    assert [_name(r) for r in backend] == ["hatchling"]
    pinned = dict(ln.split("==") for ln in lines)
    floor = backend[0].split(">=")[1]
    assert _version(pinned["hatchling"]) >= _version(floor)


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(p) for p in text.split("."))


def test_onnx_extra_runs_the_exported_model_too():
    # README: tfgraph_edu.onnx.export "for onnxruntime (pip install 'tfgraph_edu[onnx]')"
    extra = PYPROJECT["project"]["optional-dependencies"]["onnx"]
    assert {_name(r) for r in extra} == {"onnx", "onnxruntime"}


def test_ci_runs_make_test_then_the_version_checks():
    script = ROOT / ".ci" / "run"
    assert os.access(script, os.X_OK)
    commands = [ln.strip() for ln in script.read_text().splitlines()
                if ln.strip() and not ln.startswith("#")]
    commands = [c for c in commands if not c.startswith(("set ", "cd "))]
    assert commands == ["make test", "exec make test-versions"]


def test_readme_gives_the_two_commands():
    readme = (ROOT / "README.md").read_text()
    block = readme.split("## Set up", 1)[1].split("```")[1]
    assert [ln.split()[:2] for ln in block.strip().splitlines()] == [["make", "lab"],
                                                                    ["make", "test"]]


@pytest.mark.slow
def test_wheel_ships_package_and_widgets(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps",
                    "--no-build-isolation", "-q", "-w", str(tmp_path)], check=True)
    wheel = next(tmp_path.glob("tfgraph_edu-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert "tfgraph_edu/__init__.py" in names
    assert "tfgraph_edu/_widgets/README.md" in names
    assert "tfgraph_edu/_data/tf_names.json" in names  # what a missing TF name's error says
    assert {"tfgraph_edu/_widgets/graph_viewer.js", "tfgraph_edu/_widgets/graph_viewer.css",
            "tfgraph_edu/_widgets/trace_explorer.js", "tfgraph_edu/_widgets/timing_chart.js"} \
        <= set(names)
    assert not any(n.startswith("tests/") for n in names)


def _apache_license(text: str) -> bool:
    return (text.lstrip().startswith("Apache License\n                           Version 2.0")
            and "TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION" in text
            and "END OF TERMS AND CONDITIONS" in text)


def test_the_license_declared_is_the_license_file():
    assert PYPROJECT["project"]["license"] == "Apache-2.0"
    assert PYPROJECT["project"]["license-files"] == ["LICENSE"]
    assert _apache_license((ROOT / "LICENSE").read_text())


@pytest.mark.slow
def test_wheel_and_sdist_carry_the_license(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps",
                    "--no-build-isolation", "-q", "-w", str(tmp_path)], check=True)
    wheel = zipfile.ZipFile(next(tmp_path.glob("tfgraph_edu-*.whl")))
    assert "tfgraph_edu-0.1.0.dist-info/licenses/LICENSE" in wheel.namelist()
    assert _apache_license(wheel.read("tfgraph_edu-0.1.0.dist-info/licenses/LICENSE").decode())
    metadata = wheel.read("tfgraph_edu-0.1.0.dist-info/METADATA").decode()
    assert "License-Expression: Apache-2.0" in metadata.splitlines()
    assert "License-File: LICENSE" in metadata.splitlines()
    # the sdist through the same build backend, offline (no isolated build environment)
    name = subprocess.run([sys.executable, "-c", "import sys; from hatchling.build import "
                           "build_sdist; print(build_sdist(sys.argv[1]))", str(tmp_path)],
                          cwd=ROOT, check=True, capture_output=True, text=True).stdout.split()[-1]
    with tarfile.open(tmp_path / name) as sdist:
        member = sdist.extractfile("tfgraph_edu-0.1.0/LICENSE")
        assert member is not None and _apache_license(member.read().decode())


def test_nothing_under_the_benchmark_cache_is_tracked():
    """benchmarks/.cache holds TF's recorded outcomes on one machine (or a link to them): never
    in git (a tracked link once replaced a checkout's cache with a link to itself)."""
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    tracked = subprocess.run(["git", "-C", str(ROOT), "ls-files", "benchmarks/.cache"],
                             capture_output=True, text=True, check=True).stdout.split()
    assert tracked == []
