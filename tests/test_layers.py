"""The layers of ARCHITECTURE.md, enforced for the whole package: a module imports its own
layer and the layers below it, never one above (every import counts, also one inside a
function). A new top-level module or package must be given a layer here."""

from __future__ import annotations

import ast
import pathlib

import tfgraph_edu

ROOT = pathlib.Path(tfgraph_edu.__file__).parent

# top-level module or package -> layer (the table of ARCHITECTURE.md)
LAYERS = {
    "dtypes": 0, "shapes": 0, "errors": 0, "_files": 0, "_gc": 0, "_traceback": 0,
    "tf_logging": 0, "nest": 0, "labels": 0, "_missing": 0,
    "ops": 1,
    "graph": 2,
    "formats": 2.1,  # 2a
    "runtime": 3,
    "eager": 4,
    "tracing": 4.1,  # 4a
    "control_flow": 4.2,  # 4b
    "autograph": 5,
    "optimize": 6,
    "function": 7,
    "viz": 8,
    "jupyter": 9,
    "keras": 10, "saved_model": 10, "onnx": 10, "data": 10, "train": 10, "summary": 10,
    "profiler": 10, "exercises": 10,
    # re-exports only: the public namespaces may import every layer
    "__init__": 11, "_api": 11,
}


def _owner(parts: list[str]) -> str:
    """The top-level module or package of a dotted path inside the package."""
    return parts[0].removesuffix(".py") if parts else "__init__"


def imported_layers(relpath: str, source: str):
    """(line, imported top-level name) for each import of the package in ``source``, the
    text of the module at ``relpath`` (relative to the package, e.g. ``eager/tape.py``)."""
    parts = relpath.removesuffix(".py").split("/")
    package = parts[:-1]  # the package the module is in (for __init__, the package itself)
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package[:len(package) - (node.level - 1)]
            if node.module:
                yield node.lineno, _owner(base + node.module.split("."))
            else:
                for alias in node.names:
                    yield node.lineno, _owner(base + [alias.name])
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("tfgraph_edu."):
            yield node.lineno, node.module.split(".")[1]
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("tfgraph_edu."):
                    yield node.lineno, alias.name.split(".")[1]


def offenders(modules) -> list[str]:
    """``relpath:line imports X (layer m > n)`` for each upward import in ``modules``, an
    iterable of (relpath, source)."""
    found = []
    for relpath, source in modules:
        own = LAYERS[_owner(relpath.split("/"))]
        for line, target in imported_layers(relpath, source):
            if LAYERS[target] > own:
                found.append(f"{relpath}:{line} imports {target} "
                             f"(layer {LAYERS[target]} > {own})")
    return found


def _package_modules():
    for path in sorted(ROOT.rglob("*.py")):
        yield path.relative_to(ROOT).as_posix(), path.read_text(encoding="utf-8")


def test_every_top_level_module_and_package_has_a_layer():
    names = {p.name.removesuffix(".py") for p in ROOT.iterdir()
             if (p.suffix == ".py") or (p / "__init__.py").is_file()}
    assert sorted(names - set(LAYERS)) == []


def test_no_module_imports_a_higher_layer():
    assert offenders(_package_modules()) == []


def test_the_check_sees_upward_imports_of_every_form():
    bad = {
        "eager/tape.py": "def f():\n    from ..tracing import graph_builder\n",
        "ops/math_ops.py": "from ..eager.tensor import EagerTensor\n",
        "tracing/graph_builder.py": "from ..control_flow import cond_while\n",
        "dtypes.py": "from . import ops\n",
        "graph/__init__.py": "import tfgraph_edu.function\n",
    }
    assert [o.split(":")[0] for o in offenders(bad.items())] == list(bad)
    good = {"control_flow/cond_while.py": "from ..tracing.graph_builder import GraphBuilder\n"
                                          "from . import tensor_array\n",
            "eager/tape.py": "from ..ops import convert\nfrom .context import name_scope\n"}
    assert offenders(good.items()) == []
