"""Functions defined in notebook cells convert: run real IPython cells in a subprocess."""

from __future__ import annotations

import subprocess
import sys
import textwrap


def test_function_defined_in_an_ipython_cell_converts():
    script = textwrap.dedent('''
        from IPython.core.interactiveshell import InteractiveShell
        shell = InteractiveShell.instance()
        cells = [
            "import tfgraph_edu as tf",
            "@tf.function\\ndef relu(x):\\n    if x > 0:\\n        return x\\n    return 0 * x",
            "a = int(relu(tf.constant(3))); b = int(relu(tf.constant(-3)))",
            "code = tf.autograph.to_code(relu)",
            "@tf.function\\ndef bad(x):\\n    if x > 0:\\n        y = 1\\n    return y",
            "try:\\n    bad(tf.constant(1))\\nexcept ValueError as e:\\n    err = str(e)",
        ]
        for cell in cells:
            result = shell.run_cell(cell)
            assert result.success, (cell, result.error_in_exec)
        ns = shell.user_ns
        print(ns["a"], ns["b"])
        print(ns["code"].splitlines()[0])
        print(ns["err"])
    ''')
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "3 0"
    assert lines[1] == "def tf__relu(x):"
    assert "in user code:" in out.stdout and "if x > 0:" in out.stdout
    assert "'y' must also be initialized in the else branch" in out.stdout
