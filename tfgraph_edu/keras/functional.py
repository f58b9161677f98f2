"""Keras's functional API: ``tf.keras.Input``, symbolic KerasTensors, ``Model(inputs, outputs)``.

Calling a layer on a KerasTensor builds the layer and works out the output's shape by
running the layer's ``call`` once in a scratch graph (placeholders with a ``None`` batch
dimension); the call is recorded as a node, and a functional model replays its nodes in
order on real inputs.
"""

from __future__ import annotations

from .. import dtypes as _dt
from ..graph.graph import Graph
from ..ops._core import using_interpreter
from ..shapes import TensorShape
from ..tracing.graph_builder import GraphBuilder


class KerasTensor:
    """A symbolic stand-in for a layer's input or output: shape, dtype, and its history."""

    def __init__(self, shape, dtype=_dt.float32, name="keras_tensor", node=None, index=0,
                 sparse=False):
        self.shape = TensorShape(shape)
        self._dtype = _dt.as_dtype(dtype)
        self.sparse = bool(sparse)  # stands for a tf.SparseTensor (Input(sparse=True))
        self.name = name
        self._node = node  # (layer, input structure, outputs) that produced it
        self._index = index

    @property
    def dtype(self) -> str:
        """The dtype's name, a plain ``str`` as in Keras 3 (``'float32'``; no ``.name``)."""
        return self._dtype.name

    @property
    def ndim(self):
        return self.shape.rank

    def __repr__(self):
        return (f"<KerasTensor shape={_shape_text(self.shape)}, dtype={self._dtype.name}, "
                f"sparse={self.sparse}, ragged=False, name={self.name}>")

    def _unsupported(self, *args, **kwargs):
        raise TypeError(
            "A KerasTensor cannot be used as input to a TensorFlow function. You are likely "
            "doing something like: x = Input(...); tf_fn(x). Wrap the computation in a layer "
            "(for example tf.keras.layers.Lambda) and call that layer on the KerasTensor.")

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _unsupported
    __truediv__ = __matmul__ = __getitem__ = __neg__ = _unsupported

    def numpy(self):
        self._unsupported()


def _shape_text(shape: TensorShape) -> str:
    if shape.rank is None:
        return "?"
    dims = ["None" if d is None else str(d) for d in shape.dims]
    return "(" + ", ".join(dims) + ("," if len(dims) == 1 else "") + ")"


_COUNTS: dict[str, int] = {}


def _unique(base):
    n = _COUNTS.get(base, 0)
    _COUNTS[base] = n + 1
    return base if n == 0 else f"{base}_{n}"


def is_symbolic(value) -> bool:
    if isinstance(value, KerasTensor):
        return True
    if isinstance(value, (list, tuple)):
        return any(is_symbolic(v) for v in value)
    if isinstance(value, dict):
        return any(is_symbolic(v) for v in value.values())
    return False


def _flatten(value):
    if isinstance(value, (list, tuple)):
        return [x for v in value for x in _flatten(v)]
    if isinstance(value, dict):
        return [x for k in sorted(value) for x in _flatten(value[k])]
    return [value]


def _pack(like, it):
    if isinstance(like, (list, tuple)):
        return type(like)(_pack(v, it) for v in like)
    if isinstance(like, dict):
        return {k: _pack(like[k], it) for k in like}
    return next(it)


def symbolic_call(layer, inputs, kwargs):
    """Call ``layer`` on KerasTensors: the output KerasTensors, with the call recorded."""
    flat = _flatten(inputs)
    if not layer.built:  # weights are made eagerly, from the symbolic input's shape
        first = next(t for t in flat if isinstance(t, KerasTensor))
        layer.build(first.shape)
        layer.built = True
    builder = GraphBuilder(Graph())
    with using_interpreter(builder):
        placeholders = [_placeholder(builder, t) if isinstance(t, KerasTensor) else t
                        for t in flat]
        outs = layer._call_eager_or_traced(_pack(inputs, iter(placeholders)), kwargs,
                                           symbolic=inputs)
    flat_out = _flatten(outs)
    node = (layer, inputs, kwargs)
    result = [KerasTensor(o.shape, o.dtype, _unique("keras_tensor"), node, i,
                          sparse=_is_sparse(o))
              for i, o in enumerate(flat_out)]
    packed = _pack(outs, iter(result))
    layer._inbound_nodes.append((inputs, packed, kwargs))
    return packed


def _is_sparse(value) -> bool:
    from ..ops.sparse_ops import SparseTensor
    return isinstance(value, SparseTensor)


def _placeholder(builder, t):
    """A graph input standing for KerasTensor ``t`` (three for a sparse one)."""
    if not t.sparse:
        return builder.placeholder(t._dtype, t.shape, "input")
    from ..ops.sparse_ops import SparseTensor
    rank = t.shape.rank
    out = SparseTensor(builder.placeholder(_dt.int64, [None, rank], "input"),
                       builder.placeholder(t._dtype, [None], "input"),
                       builder.placeholder(_dt.int64, [rank], "input"))
    out._shape_default = t.shape
    return out


def Input(shape=None, batch_size=None, dtype=None, sparse=None, batch_shape=None, name=None,
          tensor=None, optional=False, ragged=None, **kwargs):
    """``tf.keras.Input``: a KerasTensor of ``(batch_size, *shape)`` from an InputLayer
    (``sparse=True``: it stands for a tf.SparseTensor)."""
    from .core_layers import InputLayer
    for arg, value in (("ragged", ragged), ("tensor", tensor), ("optional", optional)):
        if value:
            raise NotImplementedError(f"tfgraph_edu does not implement tf.keras.Input({arg}="
                                      "...) yet.")
    if kwargs:
        raise TypeError(f"Input() got an unexpected keyword argument '{next(iter(kwargs))}'")
    layer = InputLayer(shape=shape, batch_size=batch_size, dtype=dtype, name=name,
                       batch_shape=batch_shape, sparse=sparse)
    return layer.output


def nodes_between(inputs, outputs):
    """The recorded layer calls from ``inputs`` to ``outputs``, in an order to run them."""
    order, seen = [], set()

    def visit(t):
        if not isinstance(t, KerasTensor) or t._node is None:
            return
        layer, call_inputs, kwargs = t._node
        key = id(t)
        if key in seen:
            return
        for x in _flatten(call_inputs):
            visit(x)
        for _, outs, _ in layer._inbound_nodes:
            for o in _flatten(outs):
                seen.add(id(o))
        entry = (layer, call_inputs, kwargs)
        if not any(e[0] is layer and e[1] is call_inputs for e in order):
            order.append(entry)

    for o in _flatten(outputs):
        visit(o)
    return order


def run_graph(model, inputs, training=None):
    """Replay ``model``'s recorded layer calls on real ``inputs``."""
    values = {}
    for kt, v in zip(_flatten(model._func_inputs), _flatten(inputs)):
        values[id(kt)] = v
    for layer, call_inputs, kwargs in model._graph.nodes:
        if layer.__class__.__name__ == "InputLayer":
            continue
        args = _pack(call_inputs, iter([values.get(id(x), x) for x in _flatten(call_inputs)]))
        out = layer(args, training=training, **kwargs)
        recorded = next(o for i, o, k in layer._inbound_nodes if i is call_inputs)
        for kt, v in zip(_flatten(recorded), _flatten(out)):
            values[id(kt)] = v
    return _pack(model._func_outputs, iter([values[id(o)] for o in _flatten(model._func_outputs)]))
