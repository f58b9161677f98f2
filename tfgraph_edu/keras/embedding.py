"""``tf.keras.layers.Embedding``: a lookup table of learned vectors (layer 10, models).

Its gradient reaches the table through ``tf.gather``'s: an ``IndexedSlices`` of the rows
looked up, as TF 2.21 gives (the optimizers apply it as Keras 3's do). With
``mask_zero=True`` its output carries ``_keras_mask`` (index != 0), which the layers after it
use or pass on as in Keras 3.
"""

from __future__ import annotations

from .. import dtypes as _dt
from ..ops import indexing_ops, math_ops, random_ops
from ..ops.convert import to_tensor
from ..shapes import TensorShape
from .layers import Layer


def _uniform_005(shape, dtype=None):
    """Keras 3's ``"uniform"`` initializer: RandomUniform(-0.05, 0.05)."""
    return random_ops.uniform(shape, -0.05, 0.05, dtype=dtype or _dt.float32)


class Embedding(Layer):
    """Row ``i`` of ``embeddings`` (``input_dim`` x ``output_dim``) for each index ``i``."""

    def __init__(self, input_dim, output_dim, embeddings_initializer="uniform",
                 embeddings_regularizer=None, embeddings_constraint=None, mask_zero=False,
                 weights=None, lora_rank=None, **kwargs):
        for option, value in (("embeddings_regularizer", embeddings_regularizer),
                              ("embeddings_constraint", embeddings_constraint),
                              ("weights", weights),
                              ("lora_rank", lora_rank)):
            if value:
                raise NotImplementedError(f"tfgraph_edu does not implement "
                                          f"Embedding({option}=...) yet.")
        super().__init__(**kwargs)
        self.input_dim, self.output_dim = int(input_dim), int(output_dim)
        self.embeddings_initializer = embeddings_initializer
        self.mask_zero = bool(mask_zero)
        self.supports_masking = self.mask_zero

    def build(self, input_shape=None):
        init = self.embeddings_initializer
        if init in ("uniform", "random_uniform", "RandomUniform"):
            init = _uniform_005
        self.embeddings = self.add_weight(shape=(self.input_dim, self.output_dim),
                                          initializer=init, name="embeddings")
        self.built = True

    def call(self, inputs):
        x = to_tensor(inputs)
        if not x.dtype.is_integer:  # Keras 3 reads float indices as int32
            x = math_ops.cast(x, _dt.int32)
        return indexing_ops.gather(self.embeddings, x)

    def compute_output_shape(self, input_shape):
        return TensorShape(list(TensorShape(input_shape).dims) + [self.output_dim])

    def compute_mask(self, inputs, mask=None):
        """With ``mask_zero``: True where the index is not 0 (Keras 3), else None."""
        if not self.mask_zero:
            return None
        return math_ops.not_equal(to_tensor(inputs), 0)
