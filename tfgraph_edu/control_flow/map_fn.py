"""``tf.map_fn``: a function applied to each row of tensors, the results stacked (layer 4b).

As in TensorFlow, it is a ``tf.while_loop`` over the rows with a ``TensorArray`` per output,
eagerly and inside a tf.function (one While op there, however many rows).  The output's
structure and dtypes are ``fn_output_signature``'s (or the deprecated ``dtype``'s), else the
input's.  Ragged and sparse rows or outputs are not implemented here: they raise.
"""

from __future__ import annotations

import builtins

from .. import dtypes as _dt
from .. import nest
from ..errors import InvalidArgumentError
from ..ops import concat_ops, shape_ops
from ..ops.composite import CompositeTensor
from ..ops.convert import to_tensor
from ..ops.extension_type import BatchableExtensionType
from .cond_while import while_loop
from .tensor_array import TensorArray


def _signature_dtype(spec):
    if spec is None or isinstance(spec, _dt.DType):
        return spec
    if hasattr(spec, "dtype") and type(spec).__name__ == "TensorSpec":
        return spec.dtype
    if isinstance(spec, str):
        return _dt.as_dtype(spec)
    raise NotImplementedError(f"tfgraph_edu's tf.map_fn does not implement the output "
                              f"signature {spec!r} (ragged and sparse outputs) yet.")


def map_fn(fn, elems, dtype=None, parallel_iterations=None, back_prop=True,
           swap_memory=False, infer_shape=True, name=None, fn_output_signature=None):
    """``fn`` on ``elems[i]`` for every ``i`` (``elems`` a tensor or a structure of them, cut
    along their first dimension), the results stacked along a new first dimension."""
    if type(elems).__name__ == "RaggedTensor":  # TF's ragged version: over the rows
        from ..ops.ragged_dispatch import map_fn as ragged_map_fn
        return ragged_map_fn(fn, elems, dtype=dtype, fn_output_signature=fn_output_signature)
    if not callable(fn):
        raise TypeError(f"fn must be callable, got {fn!r:.80}")
    if fn_output_signature is None:
        fn_output_signature = dtype
    if isinstance(elems, BatchableExtensionType) and fn_output_signature is None:
        return _map_extension_type(fn, elems, parallel_iterations, infer_shape)
    if any(isinstance(x, CompositeTensor) for x in nest.flatten(elems)):
        raise NotImplementedError("tfgraph_edu's tf.map_fn does not implement composite elems "
                                  "(tf.experimental.ExtensionType, ragged, sparse) yet.")
    flat_in = [to_tensor(x) for x in nest.flatten(elems)]
    if not flat_in:
        raise ValueError("elems must be a Tensor or (possibly nested) sequence of Tensors. "
                         "Got []")
    for x in flat_in:
        if type(x).__name__ in ("RaggedTensor", "SparseTensor"):
            raise NotImplementedError("tfgraph_edu's tf.map_fn does not implement ragged or "
                                      "sparse elems yet.")
        if x.shape.rank == 0:
            raise ValueError("Elements in elems must be 1+ dimensional Tensors, not scalars")
    static = flat_in[0].shape.as_list()[0] if flat_in[0].shape.rank else None
    n = static if static is not None else shape_ops.shape(flat_in[0])[0]
    if fn_output_signature is None:
        out_structure = elems
        out_dtypes = [x.dtype for x in flat_in]
    else:
        out_structure = fn_output_signature
        out_dtypes = [_signature_dtype(s) for s in nest.flatten(fn_output_signature)]
    inputs = [TensorArray(x.dtype, size=n, element_shape=x.shape[1:]).unstack(x)
              for x in flat_in]
    outputs = [TensorArray(d, size=n, infer_shape=infer_shape) for d in out_dtypes]

    def body(i, outs):
        row = nest.pack_sequence_as(elems, [ta.read(i) for ta in inputs])
        result = fn(row)
        nest.assert_same_structure(out_structure, result)  # TF's ValueError when not
        flat = []
        for r, d in zip(nest.flatten(result), out_dtypes):
            r = to_tensor(r)
            if r.dtype != d:  # TF's TensorArray refuses the write
                raise InvalidArgumentError(None, None, f"TensorArray dtype is {d.name} but Op is "
                                           f"trying to write dtype {r.dtype.name} ")
            flat.append(r)
        return i + 1, [ta.write(i, r) for ta, r in zip(outs, flat)]

    _, outs = while_loop(lambda i, _: i < n, body, [to_tensor(0), outputs],
                         parallel_iterations=parallel_iterations or 10)
    return nest.pack_sequence_as(out_structure, [ta.stack() for ta in outs])


def _map_extension_type(fn, elems, parallel_iterations, infer_shape):
    """map_fn over a batchable extension type: its components are cut row by row, each row
    rebuilt with the unbatched spec for ``fn``, and the results' components stacked into a
    value of ``elems``'s spec (TF's default output signature)."""
    spec = elems._type_spec
    row_spec = spec._unbatch()

    def on_components(row):
        result = fn(row_spec._from_components(list(row)))
        if type(result) is not spec.value_type:
            raise TypeError(f"The structure of fn's result, {type(result).__name__}, does not "
                            f"match elems ({spec.value_type.__name__}); pass "
                            "fn_output_signature.")
        return tuple(result._ag_components())

    stacked = map_fn(on_components, tuple(elems._ag_components()),
                     parallel_iterations=parallel_iterations, infer_shape=infer_shape)
    return spec._from_components(list(stacked))


def vectorized_map(fn, elems, fallback_to_while_loop=True, warn=True):
    """``tf.vectorized_map``: the results of ``tf.map_fn`` (``fn`` on each row, stacked).

    TensorFlow turns ``fn`` into batched ops (pfor); tfgraph_edu runs it as the ``map_fn``
    loop it stands for, so results, gradients and shapes are the same and only the speed and
    the graph differ. The output structure and dtypes are those of ``fn`` on the first row,
    which is computed once outside the loop; the loop does the other rows."""
    del fallback_to_while_loop, warn  # the loop is what runs here
    flat_in = [to_tensor(x) for x in nest.flatten(elems)]
    if not flat_in or builtins.any(x.shape.rank == 0 for x in flat_in):
        return map_fn(fn, elems)  # map_fn's errors
    static = flat_in[0].shape.as_list()[0]
    if static == 0:
        raise NotImplementedError("tfgraph_edu's tf.vectorized_map of an empty batch is not "
                                  "implemented yet.")
    first = fn(nest.pack_sequence_as(elems, [x[0] for x in flat_in]))
    flat_first = [to_tensor(r) for r in nest.flatten(first)]
    stacked_first = [shape_ops.expand_dims(r, 0) for r in flat_first]
    if static == 1:
        return nest.pack_sequence_as(first, stacked_first)
    rest = nest.pack_sequence_as(elems, [x[1:] for x in flat_in])
    signature = nest.pack_sequence_as(first, [r.dtype for r in flat_first])
    others = map_fn(fn, rest, fn_output_signature=signature)
    return nest.pack_sequence_as(first, [
        concat_ops.concat([a, b], 0) for a, b in zip(stacked_first, nest.flatten(others))])
