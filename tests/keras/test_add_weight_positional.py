"""``Layer.add_weight``'s positional arguments as Keras 3 reads them: at most three (shape,
initializer, dtype); a name given first is its ValueError (eat_tensorflow2 5-4 writes
``add_weight("w", shape=...)``, Keras 2's order).  Messages recorded from TF 2.21."""

from __future__ import annotations

import pytest

import tfgraph_edu as tf

MESSAGE = ("`name` must be passed as a keyword argument. Received: add_weight('w', ...). "
           "Use: add_weight(shape=..., name='w').")


@pytest.mark.parametrize("args,kwargs", [(("w",), {}), (("w",), {"shape": (2,)}),
                                         (("w", (2,)), {})])
def test_a_name_first_is_a_value_error(args, kwargs):
    layer = tf.keras.layers.Layer()
    with pytest.raises(ValueError) as info:
        layer.add_weight(*args, **kwargs)
    assert str(info.value).startswith(MESSAGE)


def test_positional_shape_initializer_dtype():
    layer = tf.keras.layers.Layer()
    w = layer.add_weight((2, 3), "ones", "float64", name="w")
    assert w.shape == (2, 3) and w.dtype == tf.float64 and float(tf.reduce_sum(w)) == 6.0
    with pytest.raises(TypeError, match="at most 3 positional arguments but 4 were given"):
        layer.add_weight((2,), "ones", "float32", True)
    with pytest.raises(ValueError, match="`shape` was passed both positionally and as a "
                                         "keyword argument."):
        layer.add_weight((2,), shape=(2,))
