"""``tf.image.adjust_contrast`` (op ``AdjustContrastv2``), which TensorFlow registers
without a gradient: taking one raises TF's LookupError (the autodiff guide shows it)."""

from __future__ import annotations

import numpy as np

from .. import dtypes as _dt
from ._core import bind, define, shape_error
from ._rules import fmt


def _kernel(images, contrast_factor):
    mean = np.mean(images, axis=(-3, -2), keepdims=True, dtype=np.float64)
    out = (images - mean) * contrast_factor + mean
    return out.astype(images.dtype)


def _shape(images, contrast_factor):
    s = images.shape
    if s.rank is not None and s.rank < 3:
        raise shape_error(f"input must be at least 3-D, got shape{fmt(s)}")
    if contrast_factor.shape.rank not in (None, 0):
        raise shape_error(f"contrast_factor must be scalar: {fmt(contrast_factor.shape)}")
    return s, images.dtype


def _no_gradient(op, *grads):
    raise LookupError(f"gradient registry has no entry for: {op.type}")


AdjustContrastv2 = define("AdjustContrastv2", ("images", "contrast_factor"), _kernel, _shape,
                          _no_gradient, T=(0, 1), dtypes=frozenset({_dt.float32, _dt.float16}))


def adjust_contrast(images, contrast_factor):
    """(x - mean) * contrast_factor + mean, the mean taken per channel over height and width."""
    return bind(AdjustContrastv2, (images, contrast_factor), None, None)
