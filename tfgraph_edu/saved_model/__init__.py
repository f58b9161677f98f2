"""``tf.saved_model``: graphs and variables saved as data, loaded without the Python code.

A SavedModel here is a folder: ``saved_model.json`` (structure: functions, their
graphs node by node, signatures, variables) and ``arrays/*.npy`` (variable values and
constants).  Loading parses JSON and reads arrays with ``allow_pickle=False``; it
never runs code from the files, and anything malformed is a ``ValueError``.
"""

from .load import load  # noqa: F401
from .save import save  # noqa: F401
