"""What every notebook-like source of differential.py shares: running a cell as a notebook does,
capturing what it prints (file descriptors 1 and 2, since TF's ``tf.print`` writes from C++),
its error, and comparing two printed texts within the float tolerance.

Nothing here imports TensorFlow: the ``guides`` source runs tfgraph_edu's side in a process
that never loads it.
"""

from __future__ import annotations

import ast
import linecache
import os
import re
import sys
import tempfile
import warnings

import numpy as np

_TF_LOG = re.compile(r"^\t \[\[\{\{node [^}]*\}\}\]\]\n?", re.M)  # TF's C++ log of a failed op
_INFERENCE = re.compile(r"(__inference_\w+?_)\d+")
_NONLOCAL = re.compile(r"^(\s*nonlocal )(.*)$", re.M)
_UNDEFINED_RUN = re.compile(r"(?:^\s*\w+ = ag__\.Undefined\('\w+'\)\n)+", re.M)
_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")


def error_record(exc):
    """The class is compared; the first and last lines of the message are kept to read."""
    lines = [ln for ln in str(exc).strip().splitlines() if ln.strip()] or [""]
    return ("error", type(exc).__name__, lines[0][:200], lines[-1].strip()[:200])


_NUMBER = re.compile(r"-?(?:\d+\.\d*|\.\d+|\d+)(?:e[-+]?\d+)?|nan|-?inf")


def _close_text(a: str, b: str) -> bool:
    """Printed text equal, or equal but for floats within the tolerance (last digits)."""
    if a == b:
        return True
    if " ".join(_NUMBER.sub("#", a).split()) != " ".join(_NUMBER.sub("#", b).split()):
        return False
    for x, y in zip(_NUMBER.findall(a), _NUMBER.findall(b)):
        if x == y:
            continue
        if "." not in x + y and "e" not in x + y:
            return False  # integers must be equal
        if not np.isclose(float(x), float(y), rtol=1e-5, atol=0):
            return False
    return True


def captured(fn):
    """Run fn with file descriptors 1 and 2 captured (tf.print writes from C++ in TF):
    (result record, printed text)."""
    sys.stdout.flush()
    sys.stderr.flush()
    with tempfile.TemporaryFile() as f:
        saved = os.dup(1), os.dup(2)
        os.dup2(f.fileno(), 1)
        os.dup2(f.fileno(), 2)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                result = fn()
        except Exception as exc:  # noqa: BLE001 - the error is what is compared
            result = error_record(exc)
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            for s in saved:
                os.close(s)
        f.seek(0)
        text = f.read().decode(errors="replace")
    text = "\n".join(ln for ln in text.splitlines() if not _noise(ln))
    return result, text


def _noise(line: str) -> bool:
    return ("WARNING" in line and "tensorflow" in line.lower()) or "AutoGraph" in line \
        or line.startswith(("Cause:", "To silence this warning", "W0000", "I0000", "E0000"))


def run_cell(code: str, ns: dict, filename: str):
    """Run one cell as a notebook does; the value of a last expression is returned."""
    linecache.cache[filename] = (len(code), None, code.splitlines(True), filename)
    tree = ast.parse(code, filename)
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    # dont_inherit: this module's ``from __future__ import annotations`` must not reach the cell
    # (it would make every annotation a string, which ExtensionType and dataclasses read)
    exec(compile(tree, filename, "exec", dont_inherit=True), ns)  # noqa: S102 - the tutorial's own cell
    if last is not None:
        return eval(compile(ast.Expression(last.value), filename, "eval", dont_inherit=True), ns)  # noqa: S307
    return None


def outcome(captured, code: str, ns: dict, filename: str, out_name: str | None):
    """(error class or None, printed text + the last value's repr)."""
    def body():
        value = run_cell(code, ns, filename)
        if out_name:
            ns[out_name] = value
        if value is not None:
            print(repr(value))
        return None
    result, text = captured(body)
    error = result[1] if isinstance(result, tuple) and result and result[0] == "error" else None
    if error:
        text += f"\n[{error}: {result[3]}]"
    return error, normalised(text)


def normalised(text: str) -> str:
    """Masks what differs from run to run in either engine: object addresses, the number in
    a function's graph name, the line TF's runtime logs for a failed graph op, and the order
    of names AutoGraph keeps in a set (``nonlocal`` lists and runs of ``ag__.Undefined``
    lines in ``to_code``'s output)."""
    text = _INFERENCE.sub(r"\1#", _ADDRESS.sub("0x…", text))
    text = _TF_LOG.sub("", text)
    text = _NONLOCAL.sub(lambda m: m.group(1) + ", ".join(sorted(m.group(2).split(", "))), text)
    return _UNDEFINED_RUN.sub(lambda m: "".join(sorted(m.group(0).splitlines(True))), text).strip()


def _side_by_side(a: str, b: str, width: int = 12) -> str:
    import difflib
    lines = list(difflib.unified_diff(a.splitlines(), b.splitlines(), "tf", "ours", lineterm="",
                                      n=1))
    return "\n".join("      " + ln[:200] for ln in lines[:width * 4])
