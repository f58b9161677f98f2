"""One file of model weights (``model.save_weights``): a sealed array file (``_files.py``)
holding the arrays and, in its checked JSON header, their names, shapes and dtypes.

It is written atomically (a save killed midway leaves the old file or the new one) and
every byte is covered by a sha256, so a damaged or truncated file is a
``tf.errors.DataLossError`` naming it, never other weights."""

from __future__ import annotations

from .. import _files
from ..errors import NotFoundError

FORMAT = "tfgraph_edu-weights"


def save(path, variables):
    arrays = [v.numpy() for v in variables]
    meta = {"weights": [{"name": v.name, "shape": v.shape.as_list(), "dtype": v.dtype.name}
                        for v in variables]}
    _files.write_file_atomic(path, _files.seal(FORMAT, meta, arrays))


def load(path, variables):
    try:
        data = _files.read_file(path, "Weights file")
    except NotFoundError:
        raise NotFoundError(None, None, f"No such file: {path}") from None
    sealed = _files.Sealed(data, path, FORMAT, "Weights file")
    saved = [sealed.array(i) for i in range(len(sealed))]
    if len(saved) != len(variables):
        raise ValueError(f"A total of {len(saved)} objects could not be loaded: the model has "
                         f"{len(variables)} variables and the file {len(saved)}.")
    for v, arr in zip(variables, saved):
        if list(arr.shape) != v.shape.as_list():
            raise ValueError(f"Shape mismatch for variable {v.name}: expected {v.shape}, "
                             f"received {arr.shape}.")
    for v, arr in zip(variables, saved):  # assign only once every weight fits
        v.assign(arr.astype(v.dtype.np_dtype))
