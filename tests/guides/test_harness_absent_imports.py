"""The courses harness (benchmarks/against_tf/guides.py): imports of packages the interpreter
lacks are removed from a cell, so the cell's other imports still run on both sides."""

from __future__ import annotations

import sys
from pathlib import Path

HARNESS = Path(__file__).resolve().parents[2] / "benchmarks" / "against_tf"
sys.path.insert(0, str(HARNESS))
import guides  # noqa: E402

MISSING = "no_such_package_tfgraph_edu_test"


def test_absent_import_lines_are_removed_and_counted():
    cell = (f"import numpy as np\nimport {MISSING} as pd\nfrom {MISSING}.datasets import (a,\n"
            "    b)\nimport tensorflow as tf\nprint(1)")
    text, n = guides.drop_absent_imports(cell)
    assert n == 2
    assert text == "import numpy as np\nimport tensorflow as tf\nprint(1)"


def test_present_and_tensorflow_imports_stay():
    cell = "import numpy as np\nimport tensorflow.keras.backend as K\nfrom keras import layers"
    assert guides.drop_absent_imports(cell) == (cell, 0)


def test_nested_imports_and_magic_lines_are_left_alone():
    cell = f"!pip install x\ntry:\n    import {MISSING}\nexcept ImportError:\n    pass"
    assert guides.drop_absent_imports(cell) == (cell, 0)
