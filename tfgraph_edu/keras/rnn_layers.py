"""``tf.keras.layers.LSTMCell`` and ``RNN`` (layer 10): the loop over time is unrolled in
Python, so the time dimension must be known. A time-step mask (an ``Embedding(mask_zero=True)``
before it) is used as Keras 3 uses it: a masked step keeps the states and repeats the last
output."""

from __future__ import annotations

from .. import dtypes as _dt
from ..ops import concat_ops, creation_ops, indexing_ops, math_ops, shape_ops
from ..ops.convert import to_tensor
from ..shapes import TensorShape
from .layers import Layer, _traced_output_shape, get_activation


class LSTMCell(Layer):
    """One LSTM step: gates i, f, c, o from ``x @ kernel + h @ recurrent_kernel + bias``."""

    def __init__(self, units, activation="tanh", recurrent_activation="sigmoid",
                 use_bias=True, unit_forget_bias=True, **kwargs):
        super().__init__(**kwargs)
        self.units = int(units)
        self.activation = get_activation(activation)
        self.recurrent_activation = get_activation(recurrent_activation)
        self.use_bias = use_bias
        self.unit_forget_bias = unit_forget_bias
        self.state_size = [self.units, self.units]
        self.output_size = self.units

    def build(self, input_shape):
        d = TensorShape(input_shape).dims[-1]
        u = self.units
        self.kernel = self.add_weight(shape=(d, 4 * u), initializer="glorot_uniform",
                                      name="kernel")
        self.recurrent_kernel = self.add_weight(shape=(u, 4 * u), initializer="orthogonal",
                                                name="recurrent_kernel")
        if self.use_bias:
            def forget_ones(shape, dtype):  # Keras's unit_forget_bias: 1 for the f gate
                return concat_ops.concat([creation_ops.zeros([u], dtype),
                                          creation_ops.ones([u], dtype),
                                          creation_ops.zeros([2 * u], dtype)], 0)
            self.bias = self.add_weight(
                shape=(4 * u,), name="bias",
                initializer=forget_ones if self.unit_forget_bias else "zeros")
        else:
            self.bias = None
        self.built = True

    def call(self, inputs, states, training=None):
        h, c = states
        z = math_ops.matmul(to_tensor(inputs), self.kernel) + math_ops.matmul(
            h, self.recurrent_kernel)
        if self.bias is not None:
            z = z + self.bias
        i, f, g, o = concat_ops.split(z, 4, axis=-1)
        i, f, o = (self.recurrent_activation(t) for t in (i, f, o))
        c = f * c + i * self.activation(g)
        h = o * self.activation(c)
        return h, [h, c]

    def get_initial_state(self, batch_size):
        return [creation_ops.zeros([batch_size, self.units]), creation_ops.zeros([batch_size,
                                                                            self.units])]

    def __call__(self, inputs, states=None, training=None, **kwargs):
        if states is None:
            raise TypeError("LSTMCell.call() missing 1 required positional argument: 'states'")
        return super().__call__(inputs, states=states, **kwargs)


class RNN(Layer):
    """Runs ``cell`` over the time axis (axis 1) of ``(batch, time, features)`` inputs."""

    compute_output_shape = _traced_output_shape

    def __init__(self, cell, return_sequences=False, return_state=False, **kwargs):
        super().__init__(**kwargs)
        self.cell = cell
        self.return_sequences = return_sequences
        self.return_state = return_state

    _supports_masking = True

    def compute_mask(self, inputs, mask=None):
        """The input's time-step mask when returning sequences (Keras 3), else None."""
        if isinstance(mask, (list, tuple)):
            mask = mask[0]
        out = mask if self.return_sequences else None
        return [out] + [None] * len(self.cell.state_size) if self.return_state else out

    def call(self, inputs, initial_state=None, mask=None, training=None):
        x = to_tensor(inputs)
        if isinstance(mask, (list, tuple)):
            mask = mask[0]
        steps = x.shape.dims[1] if x.shape.rank == 3 else None
        if steps is None:
            raise NotImplementedError("tfgraph_edu's RNN unrolls the loop over time: the time "
                                      "dimension of its inputs must be known.")
        if initial_state is None:
            batch = x.shape.dims[0]
            batch = shape_ops.shape(x)[0] if batch is None else batch
            initial_state = self.cell.get_initial_state(batch)
        states = list(initial_state)
        outputs = []
        prev = None
        for t in range(steps):
            out, new_states = self.cell(x[:, t, :], states=states)
            if mask is None:
                states = new_states
            else:  # a masked step keeps the states and repeats the last output (Keras 3)
                keep = shape_ops.expand_dims(math_ops.cast(mask[:, t], _dt.bool), -1)
                prev = creation_ops.zeros_like(out) if prev is None else prev
                out = indexing_ops.where(keep, out, prev)
                states = [indexing_ops.where(keep, n, s) for n, s in zip(new_states, states)]
                prev = out
            outputs.append(out)
        result = concat_ops.stack(outputs, axis=1) if self.return_sequences else outputs[-1]
        return [result] + list(states) if self.return_state else result


class LSTM(RNN):
    def __init__(self, units, activation="tanh", recurrent_activation="sigmoid", use_bias=True,
                 unit_forget_bias=True, return_sequences=False, return_state=False, **kwargs):
        super().__init__(LSTMCell(units, activation=activation,
                                  recurrent_activation=recurrent_activation, use_bias=use_bias,
                                  unit_forget_bias=unit_forget_bias),
                         return_sequences=return_sequences, return_state=return_state,
                         **kwargs)
