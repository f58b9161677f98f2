"""``tf.keras.datasets``: MNIST and Fashion-MNIST read from Keras's local cache.

Keras downloads ``mnist.npz`` into ``~/.keras/datasets/`` the first time.  tfgraph_edu never
downloads anything: it reads that same file if it is there (numbers only,
``allow_pickle=False``) and otherwise says where to put it.
"""

from __future__ import annotations

import os
from types import SimpleNamespace

import numpy as np


def _cache_dir():
    return os.path.join(os.environ.get("KERAS_HOME", os.path.join(os.path.expanduser("~"),
                                                                   ".keras")), "datasets")


def _load(fname, url):
    path = os.path.join(_cache_dir(), fname)
    if not os.path.exists(path):
        raise OSError(
            f"tfgraph_edu does not download data sets, and {path} is not there. Download "
            f"{url} yourself into {_cache_dir()}, or use data you make with tf.random.")
    with np.load(path, allow_pickle=False) as f:
        return (f["x_train"], f["y_train"]), (f["x_test"], f["y_test"])


def _mnist_load_data(path="mnist.npz"):
    """``((x_train, y_train), (x_test, y_test))`` from Keras's cached ``mnist.npz``."""
    return _load(os.path.basename(path),
                 "https://storage.googleapis.com/tensorflow/tf-keras-datasets/mnist.npz")


mnist = SimpleNamespace(load_data=_mnist_load_data)


def __getattr__(name):
    from .tf_api_names import missing
    raise missing("datasets", name)
