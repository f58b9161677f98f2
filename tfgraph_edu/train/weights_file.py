"""One file of model weights (``model.save_weights``): a zip of .npy arrays plus a JSON
list of names, shapes and dtypes; read back with ``allow_pickle=False``."""

from __future__ import annotations

import json

import numpy as np

from ..errors import DataLossError, NotFoundError

FORMAT = "tfgraph_edu-weights"


def save(path, variables):
    arrays = {f"w{i}": np.asarray(v.numpy()) for i, v in enumerate(variables)}
    meta = {"format": FORMAT, "weights": [
        {"name": v.name, "shape": v.shape.as_list(), "dtype": v.dtype.name} for v in variables]}
    arrays["index"] = np.frombuffer(json.dumps(meta).encode("utf-8"), dtype=np.uint8)
    with open(path, "wb") as f:
        np.savez(f, **arrays)


def load(path, variables):
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(bytes(data["index"]).decode("utf-8"))
            if meta.get("format") != FORMAT:
                raise DataLossError(None, None, f"{path} is not a tfgraph_edu weights file")
            saved = [data[f"w{i}"] for i in range(len(meta["weights"]))]
    except FileNotFoundError:
        raise NotFoundError(None, None, f"No such file: {path}") from None
    except (OSError, ValueError, KeyError) as e:
        raise DataLossError(None, None, f"Unable to read weights file {path}: {e}") from None
    if len(saved) != len(variables):
        raise ValueError(f"A total of {len(saved)} objects could not be loaded: the model has "
                         f"{len(variables)} variables and the file {len(saved)}.")
    for v, arr in zip(variables, saved):
        if list(arr.shape) != v.shape.as_list():
            raise ValueError(f"Shape mismatch for variable {v.name}: expected {v.shape}, "
                             f"received {arr.shape}.")
        v.assign(arr.astype(v.dtype.np_dtype))
