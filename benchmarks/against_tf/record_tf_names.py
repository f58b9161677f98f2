"""Record the public names of the TensorFlow namespaces tfgraph_edu mirrors.

Run once under real TensorFlow (never a dependency of tfgraph_edu; `make check-tf` makes
`.venv-tf`), from the repository root:

    PYTHONPATH=$PWD .venv-tf/bin/python benchmarks/against_tf/record_tf_names.py

It writes ``tfgraph_edu/_data/tf_names.json``: for each namespace ("" is ``tf`` itself), the
sorted names that do not start with an underscore, and nothing else (no documentation, no
values).  ``tfgraph_edu/_missing.py`` reads it to tell a name TensorFlow has but tfgraph_edu
does not implement yet from a name TensorFlow does not have either.  ``tf.keras`` is not
listed here: Keras is its own package with its own messages.
"""

from __future__ import annotations

import json
import types
from pathlib import Path

import tensorflow as tf

NAMESPACES = ("", "math", "nn", "linalg", "random", "random.experimental", "strings", "sparse",
              "ragged", "data", "data.experimental", "debugging", "config", "config.experimental",
              "config.optimizer", "io", "image", "signal", "sets", "train", "autograph",
              "autograph.experimental", "experimental", "saved_model", "summary", "distribute",
              "queue", "version", "errors", "nest", "types", "types.experimental", "dtypes",
              "bitwise", "audio", "lookup", "feature_column", "profiler", "test", "compat",
              "tpu", "xla", "mlir", "quantization", "sysconfig", "graph_util", "saved_model",
              "experimental.numpy", "math.special", "linalg.experimental", "raw_ops",
              "experimental.dtensor", "experimental.extension_type", "experimental.tensorrt")
OUT = Path(__file__).resolve().parents[2] / "tfgraph_edu" / "_data" / "tf_names.json"


def _module(path: str):
    obj = tf
    for part in filter(None, path.split(".")):
        obj = getattr(obj, part)
    return obj


def main() -> None:
    spaces = {}
    for path in dict.fromkeys(NAMESPACES):
        mod = _module(path)
        if not isinstance(mod, types.ModuleType):
            raise SystemExit(f"tf.{path} is not a module")
        spaces[path] = sorted(n for n in dir(mod) if not n.startswith("_") and n != "keras")
    data = {"tensorflow_version": tf.__version__,
            "note": "public names of TensorFlow's namespaces, recorded by "
                    "benchmarks/against_tf/record_tf_names.py",
            "namespaces": spaces}
    OUT.write_text(json.dumps(data, indent=0, sort_keys=True) + "\n")
    print(f"{OUT}: {sum(map(len, spaces.values()))} names in {len(spaces)} namespaces "
          f"(TensorFlow {tf.__version__})")


if __name__ == "__main__":
    main()
