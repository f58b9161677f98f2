"""Every op in the registry: kernel vs numpy, shape rule vs kernel, gradient vs differences."""

from __future__ import annotations

import numpy as np
import pytest

import tfgraph_edu as tf
from tfgraph_edu.graph.graph import Graph
from tfgraph_edu.ops import REGISTRY, bind
from tfgraph_edu.ops._core import using_interpreter
from tfgraph_edu.tracing.graph_builder import GraphBuilder

from .cases import CASES, TESTED_ELSEWHERE

PARAMS = [pytest.param(name, i, id=f"{name}-{i}")
          for name in sorted(CASES) for i in range(len(CASES[name]))]


def _outputs(result):
    return list(result) if isinstance(result, (list, tuple)) else [result]


def _run(name, inputs, attrs):
    return bind(REGISTRY[name], tuple(tf.constant(a) for a in inputs), dict(attrs))


def test_every_registered_op_is_tested():
    covered = set(CASES) | set(TESTED_ELSEWHERE)
    assert sorted(set(REGISTRY) - covered) == []
    assert sorted(covered - set(REGISTRY)) == []


@pytest.mark.parametrize("name,i", PARAMS)
def test_kernel_matches_numpy_reference(name, i):
    case = CASES[name][i]
    _assert_matches(_outputs(_run(name, case.inputs, case.attrs)), case)


def _assert_matches(got, case):
    """``got`` (tensors) against the case's independent numpy reference."""
    want = _outputs(case.ref(*case.inputs))
    assert len(got) == len(want)
    for g, w in zip(got, want):
        w = np.asarray(w)
        assert g.shape.as_list() == list(w.shape)
        if w.dtype == object:
            assert np.asarray(g.numpy(), dtype=object).tolist() == w.tolist()
        elif w.dtype.kind == "b":
            np.testing.assert_array_equal(g.numpy(), w)
        else:
            np.testing.assert_allclose(np.asarray(g.numpy(), np.float64), w.astype(np.float64),
                                       rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name,i", PARAMS)
def test_compiled_graph_matches_numpy_reference(name, i):
    """The op inside a tf.function: float and bool arrays are its arguments (placeholders of
    known shape), the rest constants, so the compiler's pre-resolved kernels are the ones run."""
    case = CASES[name][i]
    fed = [k for k, a in enumerate(case.inputs)
           if np.asarray(a).dtype.kind in "fb" and np.ndim(a)]

    def body(*args):
        ins = [tf.constant(a) for a in case.inputs]
        for k, t in zip(fed, args):
            ins[k] = t
        return _outputs(bind(REGISTRY[name], tuple(ins), dict(case.attrs)))

    _assert_matches(tf.function(body, autograph=False)(*[tf.constant(case.inputs[k])
                                                          for k in fed]), case)


@pytest.mark.parametrize("name,i", PARAMS)
def test_shape_rule_matches_kernel(name, i):
    case = CASES[name][i]
    tensors = [tf.constant(a) for a in case.inputs]
    got = _outputs(bind(REGISTRY[name], tuple(tensors), dict(case.attrs)))
    specs = REGISTRY[name].shape(*tensors, **case.attrs)
    specs = [specs] if isinstance(specs, tuple) else specs
    assert [(s.as_list(), d) for s, d in specs] == [(t.shape.as_list(), t.dtype) for t in got]


@pytest.mark.parametrize("name,i", PARAMS)
def test_shape_rule_with_unknown_dims_is_compatible(name, i):
    """Inside a graph, float/bool inputs become placeholders with unknown dims; the rule's
    partial answer must be compatible with what the kernel produces."""
    case = CASES[name][i]
    eager = _outputs(_run(name, case.inputs, case.attrs))
    builder = GraphBuilder(Graph())
    with using_interpreter(builder):
        ins = []
        for k, a in enumerate(case.inputs):
            a = np.asarray(a)
            if a.dtype.kind in "fb" and a.ndim:
                ins.append(builder.placeholder(tf.as_dtype(a.dtype), [None] * a.ndim, f"in{k}"))
            else:
                ins.append(tf.constant(a))
        symbolic = _outputs(bind(REGISTRY[name], tuple(ins), dict(case.attrs)))
    for s, e in zip(symbolic, eager):
        assert s.dtype is e.dtype
        assert s.shape.is_compatible_with(e.shape), (s.shape, e.shape)


GRAD_PARAMS = [p for p in PARAMS if CASES[p.values[0]][p.values[1]].grad]


def _as64(case):
    inputs = [np.asarray(a).astype(np.float64) if np.asarray(a).dtype.kind == "f" else a
              for a in case.inputs]
    attrs = dict(case.attrs)
    if "SrcT" in attrs:
        attrs["SrcT"] = tf.float64
    return inputs, attrs


@pytest.mark.parametrize("name,i", GRAD_PARAMS)
def test_gradient_matches_central_differences(name, i):
    case = CASES[name][i]
    inputs, attrs = _as64(case)
    weights = [np.random.default_rng(1).uniform(0.5, 1.5, np.shape(o))
               for o in _outputs(_run(name, inputs, attrs))]

    def loss(values):
        outs = _outputs(bind(REGISTRY[name], tuple(tf.constant(v) for v in values), dict(attrs)))
        return sum(float(np.sum(np.asarray(o.numpy(), np.float64) * w))
                   for o, w in zip(outs, weights))

    tensors = [tf.constant(v) for v in inputs]
    with tf.GradientTape(persistent=True) as tape:
        for k in case.grad:
            tape.watch(tensors[k])
        outs = _outputs(bind(REGISTRY[name], tuple(tensors), dict(attrs)))
        total = tf.add_n([tf.reduce_sum(tf.cast(o, tf.float64) * w)
                          for o, w in zip(outs, weights)])
    eps = 1e-6
    for k in case.grad:
        analytic = tape.gradient(total, tensors[k])
        assert analytic is not None, f"no gradient for input {k}"
        if isinstance(analytic, tf.IndexedSlices):  # GatherV2's (TF's too): compared dense
            analytic = tf.convert_to_tensor(analytic)
        assert analytic.shape.as_list() == list(np.shape(inputs[k]))
        numeric = np.zeros(np.shape(inputs[k]))
        for idx in np.ndindex(*np.shape(inputs[k])):
            up, down = [np.array(v, copy=True) for v in inputs], [np.array(v, copy=True)
                                                                   for v in inputs]
            up[k][idx] += eps
            down[k][idx] -= eps
            numeric[idx] = (loss(up) - loss(down)) / (2 * eps)
        np.testing.assert_allclose(analytic.numpy(), numeric, rtol=1e-4, atol=1e-5)
