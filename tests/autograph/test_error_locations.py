"""AutoGraph errors name a notebook cell as IPython does (``Cell In[3], line 8``), and each
ends with the fix in one sentence (issue 14)."""

from __future__ import annotations

import pytest
from IPython.core.interactiveshell import InteractiveShell

CELL_DEFINE = """\
import tfgraph_edu as tf

@tf.function
def f(x):
    if x > 0:
        y = 1
    return y
"""

CELL_CALL = """\
try:
    f(tf.constant(1))
except ValueError as exc:
    caught = str(exc)
"""


@pytest.fixture
def shell():
    sh = InteractiveShell.instance()
    yield sh
    sh.reset()


def test_user_frames_name_the_cell(shell):
    # the number IPython names the next cell by (In[N]); the result's execution_count is None
    # on IPython 8 for a cell run without storing history
    define_count = shell.execution_count
    assert shell.run_cell(CELL_DEFINE).success
    assert shell.run_cell(CELL_CALL).success
    message = shell.user_ns["caught"]
    # the converted function's line: line 5 of the defining cell
    assert f"    Cell In[{define_count}], line 5, in f  *\n        if x > 0:\n" in message, message
    assert "ipython-input" not in message and "File \"" not in message
    assert message.endswith("Assign 'y' before the if, or in both branches.")


def test_outside_ipython_frames_are_files():
    import tfgraph_edu as tf

    def f(x):
        if x > 0:
            y = 1
        return y  # noqa: F821

    with pytest.raises(ValueError) as info:
        tf.function(f)(tf.constant(1))
    assert 'File "' in str(info.value) and "test_error_locations.py" in str(info.value)
