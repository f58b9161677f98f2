"""``for x in dataset`` inside a tf.function: a While loop over the iterator ops.

AutoGraph's ``for_stmt`` hands datasets here when a graph is being built.  The loop
carries only a boolean "has next" and the user's loop variables; the element is
fetched at the top of each iteration, so a partial last batch needs no shape relaxing.
"""

from __future__ import annotations

from .. import dtypes as _dt
from ..ops import _core
from ..ops.dataset_ops import IteratorGetNext, IteratorHasNext
from ..tracing.graph_builder import building_graph
from . import structure as _nest


def iterator_tensor(value):
    """An iterator already started eagerly (``iter(dataset)``), as a resource Const."""
    return _core.bind(_core.REGISTRY["Const"], (), {"value": value, "dtype": _dt.resource},
                      "iterator")


def get_next(iterator, element_spec):
    """One ``IteratorGetNext`` node: the next element as symbolic tensors."""
    specs = _nest.flatten(element_spec)
    if any(type(s).__name__ == "RaggedTensorSpec" for s in specs):
        raise NotImplementedError("tfgraph_edu does not read a dataset of RaggedTensors "
                                  "inside a tf.function yet (eagerly it does).")
    # a SparseTensorSpec leaf is read as its three component tensors, then rebuilt
    sparse = [type(s).__name__ == "SparseTensorSpec" for s in specs]
    parts = [s._component_specs() if sp else [s] for s, sp in zip(specs, sparse)]
    comps = [c for p in parts for c in p]
    attrs = {"output_types": tuple(s.dtype for s in comps),
             "output_shapes": tuple(s.shape for s in comps)}
    out = _core.bind(IteratorGetNext, (iterator,), attrs, "IteratorGetNext")
    out = list(out) if isinstance(out, (list, tuple)) else [out]
    flat = []
    for s, p, sp in zip(specs, parts, sparse):
        got, out = out[:len(p)], out[len(p):]
        flat.append(s._from_components(got) if sp else got[0])
    return _nest.pack(element_spec, flat)


def dataset_for_stmt(ds, extra_test, body, get_state, set_state, symbol_names, opts):
    """Build the loop in the graph being traced (falls back to Python eagerly).

    ``ds`` is a Dataset (a fresh pass per run: ``MakeIterator``) or an iterator made
    eagerly by ``iter(dataset)`` (the loop continues where it stands)."""
    builder = building_graph()
    if builder is None:  # eager: a plain Python loop over eager tensors
        for elem in ds:
            if extra_test is not None and not extra_test():
                break
            body(elem)
        return None
    from ..autograph import operators as ag  # layer 5, imported late (this is layer 10)
    iterator = ds._graph_iterator()
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
        body(get_next(iterator, ds.element_spec))
        state["has"] = _core.bind(IteratorHasNext, (iterator,), None, "IteratorHasNext")

    ag._tf_loop(test, loop_body, get_all, set_all, ("<has_next>",) + tuple(symbol_names), opts,
                relax_shapes=True)  # as TF's dataset loops (Dataset.reduce relaxes shapes)
    return None
