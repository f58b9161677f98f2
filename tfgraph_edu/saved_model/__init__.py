"""``tf.saved_model``: graphs and variables saved as data, loaded without the Python code.

A SavedModel here is a folder: ``saved_model.json`` (structure: functions, their
graphs node by node, signatures, variables), ``arrays/*.npy`` (variable values and
constants), ``fingerprint.json`` (the sha256 of the manifest and of every array and
``variables/`` file) and TF's ``assets/`` and ``variables/`` (a checkpoint of the
variables, for ``tf.train.load_variable``).  A save builds the folder beside the old one
and swaps it in whole.  Loading checks each file's checksum before parsing it (a damaged
file is a ``tf.errors.DataLossError`` naming it), parses JSON and reads arrays with a
strict parser of the ``.npy`` header; it never runs code from the files, reads only regular
files inside the folder, within a size budget, and anything malformed is a
``SavedModelError`` (a ValueError).
"""

from .._missing import module_getattr as _module_getattr
from .files import SavedModelError  # noqa: F401
from .load import load  # noqa: F401
from .save import SaveOptions, save  # noqa: F401

__getattr__ = _module_getattr("saved_model", __name__)
