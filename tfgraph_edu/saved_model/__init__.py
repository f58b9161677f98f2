"""``tf.saved_model``: graphs and variables saved as data, loaded without the Python code.

A SavedModel here is a folder: ``saved_model.json`` (structure: functions, their
graphs node by node, signatures, variables) and ``arrays/*.npy`` (variable values and
constants).  Loading parses JSON and reads arrays with a strict parser of the ``.npy``
header; it never runs code from the files, reads only regular files inside the folder,
within a size budget, and anything malformed is a ``SavedModelError`` (a ValueError).
"""

from .files import SavedModelError  # noqa: F401
from .load import load  # noqa: F401
from .save import SaveOptions, save  # noqa: F401
