"""``for x in dataset`` inside a tf.function: a While loop over the iterator ops.

AutoGraph's ``for_stmt`` hands datasets here when a graph is being built.  The loop
carries only a boolean "has next" and the user's loop variables; the element is
fetched at the top of each iteration, so a partial last batch needs no shape relaxing.
"""

from __future__ import annotations

from .. import dtypes as _dt
from ..eager.graph_builder import building_graph
from ..ops import _core
from ..ops.dataset_ops import IteratorGetNext, IteratorHasNext, MakeIterator
from . import structure as _nest


def _dataset_tensor(ds):
    """The dataset as a ``Const`` of dtype variant in the graph being built."""
    return _core.bind(_core.REGISTRY["Const"], (),
                      {"value": ds._as_graph_value(), "dtype": _dt.variant}, "dataset")


def dataset_for_stmt(ds, extra_test, body, get_state, set_state, symbol_names, opts):
    """Build the loop in the graph being traced (falls back to Python eagerly)."""
    builder = building_graph()
    if builder is None:  # eager: a plain Python loop over eager tensors
        for elem in ds:
            if extra_test is not None and not extra_test():
                break
            body(elem)
        return None
    from ..autograph import operators as ag  # layer 5, imported late (this is layer 10)
    handle = _dataset_tensor(ds)
    iterator = _core.bind(MakeIterator, (handle,), None, "MakeIterator")
    specs = _nest.flatten(ds.element_spec)
    attrs = {"output_types": tuple(s.dtype for s in specs),
             "output_shapes": tuple(s.shape for s in specs)}
    state = {"has": _core.bind(IteratorHasNext, (iterator,), None, "IteratorHasNext")}

    def get_all():
        return (state["has"],) + tuple(get_state())

    def set_all(vals):
        state["has"] = vals[0]
        set_state(tuple(vals[1:]))

    def test():
        if extra_test is None:
            return state["has"]
        has = state["has"]
        return ag.and_(lambda: has, extra_test)

    def loop_body():
        out = _core.bind(IteratorGetNext, (iterator,), attrs, "IteratorGetNext")
        flat = list(out) if isinstance(out, (list, tuple)) else [out]
        body(_nest.pack(ds.element_spec, flat))
        state["has"] = _core.bind(IteratorHasNext, (iterator,), None, "IteratorHasNext")

    ag._tf_loop(test, loop_body, get_all, set_all, ("<has_next>",) + tuple(symbol_names), opts)
    return None
