"""Op behaviours pinned to what TensorFlow 2.21 does (found by
benchmarks/against_tf/differential.py; each expected value, error class and message gist below
came from running TF 2.21, not from tfgraph_edu)."""

from __future__ import annotations

import numpy as np
import pytest

import tfgraph_edu as tf


def _graph(fn, *args):
    return tf.function(fn, autograph=False)(*args)


def test_neg_and_abs_refuse_unsigned_integers():
    # TensorFlow 2.21 gives InvalidArgumentError ("Value for attr 'T' of uint8 is not in the
    # list of allowed values: bfloat16, half, float, double, int8, ...") for both
    with pytest.raises(tf.errors.InvalidArgumentError, match="uint8"):
        -tf.constant([1, 2], tf.uint8)
    with pytest.raises(tf.errors.InvalidArgumentError, match="uint8"):
        tf.abs(tf.constant([1], tf.uint8))
    assert tf.abs(tf.constant([-1, 2], tf.int8)).numpy().tolist() == [1, 2]


def test_a_python_float_float32_cannot_hold_is_refused_without_a_dtype():
    # TensorFlow 2.21 gives ValueError "Can't convert Python sequence with a value out of
    # range for a double-precision float." for tf.constant(1e40), [1.0, -1e40], tf.Variable(1e40)
    for value in (1e40, [1.0, -1e40]):
        with pytest.raises(ValueError, match="out of range for a double-precision float"):
            tf.constant(value)
    with pytest.raises(ValueError, match="out of range"):
        tf.Variable(1e40)
    # ... and inf with an explicit float32, 1e+40 with float64, inf next to a float32 tensor
    with np.errstate(over="ignore"):
        assert np.isinf(tf.constant(1e40, tf.float32).numpy())
        assert float(tf.constant(1e40, tf.float64)) == 1e40
        assert np.isinf((tf.constant(2.0) * 1e40).numpy())


def test_range_refuses_a_step_away_from_the_limit():
    # TensorFlow 2.21 gives InvalidArgumentError "Requires start >= limit when delta < 0: 0/5"
    # eagerly, and ValueError "Requires start <= limit when delta > 0: 5/0" when tracing
    with pytest.raises(tf.errors.InvalidArgumentError, match="start >= limit when delta < 0: 0/5"):
        tf.range(0, 5, -1)
    with pytest.raises(tf.errors.InvalidArgumentError, match="start >= limit when delta < 0: 0/5"):
        tf.range(0.0, 5.0, -1.0)
    with pytest.raises(ValueError, match="start <= limit when delta > 0: 5/0"):
        _graph(lambda: tf.range(5, 0, 1))
    with pytest.raises(tf.errors.InvalidArgumentError):  # at run time, for a tensor start
        _graph(lambda x: tf.range(x, 0, 1), tf.constant(5))
    assert tf.range(5, 0, -2).numpy().tolist() == [5, 3, 1]  # TF 2.21: [5 3 1]
    assert tf.range(0, 0, -1).numpy().tolist() == []


def test_a_tf_range_loop_with_a_tensor_step_the_wrong_way_runs_zero_times():
    @tf.function
    def f(a, b, d):
        n = tf.constant(0)
        for _ in tf.range(a, b, d):
            n += 1
        return n
    # TensorFlow 2.21 gives 0, 3 and 5: the loop tests the step's sign, the range is unused
    assert int(f(tf.constant(0), tf.constant(5), tf.constant(-1))) == 0
    assert int(f(tf.constant(5), tf.constant(0), tf.constant(-2))) == 3
    assert int(f(tf.constant(0), tf.constant(5), tf.constant(1))) == 5


def test_variance_and_std_refuse_integers():
    # TensorFlow 2.21 gives TypeError "Input must be either real or complex. Received
    # integer type <dtype: 'int32'>."
    for fn in (tf.math.reduce_variance, tf.math.reduce_std):
        with pytest.raises(TypeError, match="Received integer type <dtype: 'int32'>"):
            fn(tf.constant([1, 2]))


def test_matmul_refuses_vectors():
    # TensorFlow 2.21 gives InvalidArgumentError "In[0] and In[1] ndims must be == 2: 1" and
    # "In[0] and In[1] has different ndims: [1,2] vs. [2]" eagerly, ValueError "Shape must be
    # rank 2 but is rank 1" when tracing
    v = tf.constant([1.0, 2.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="ndims must be == 2: 1"):
        tf.matmul(v, v)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"different ndims: \[1,2\] vs\. \[2\]"):
        tf.matmul(tf.constant([[1.0, 2.0]]), v)
    with pytest.raises(ValueError, match="Shape must be rank 2 but is rank 1"):
        _graph(lambda a: tf.matmul(a, a), v)


def test_is_tensor_answers_true_for_variables():
    # TensorFlow 2.21 gives True for a Variable, False for a Python int and a numpy array
    assert tf.is_tensor(tf.Variable(1.0))
    assert not tf.is_tensor(1) and not tf.is_tensor(np.array(1))


_X = [[1.0, 5.0], [3.0, 5.0], [2.0, 0.0], [7.0, -1.0]]
_W = [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]


@pytest.mark.parametrize("name,value,grad", [
    # TensorFlow 2.21 gives these values and gradients of sum(segment_op(x, [0, 0, 2, 2]) * _W)
    ("segment_sum", [[4, 10], [0, 0], [9, -1]], [[1, 2], [1, 2], [5, 6], [5, 6]]),
    ("segment_mean", [[2, 5], [0, 0], [4.5, -0.5]], [[0.5, 1], [0.5, 1], [2.5, 3], [2.5, 3]]),
    ("segment_max", [[3, 5], [0, 0], [7, 0]], [[0, 1], [1, 1], [0, 6], [5, 0]]),
    ("segment_min", [[1, 5], [0, 0], [2, -1]], [[1, 1], [0, 1], [5, 0], [0, 6]]),
])
def test_segment_reductions_and_their_gradients(name, value, grad):
    fn = getattr(tf.math, name)
    ids = tf.constant([0, 0, 2, 2])
    x = tf.Variable(_X)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(fn(x, ids) * tf.constant(_W))
    assert fn(x, ids).numpy().tolist() == value
    assert _graph(lambda a: fn(a, ids), tf.constant(_X)).numpy().tolist() == value
    assert tape.gradient(y, x).numpy().tolist() == grad


def test_unsorted_segment_reductions():
    lo, hi = float(np.finfo(np.float32).min), float(np.finfo(np.float32).max)
    ids = tf.constant([2, 0, 2, 0])
    x = tf.constant(_X)
    # TensorFlow 2.21 gives these (an unwritten bucket holds float32's lowest/highest)
    assert tf.math.unsorted_segment_sum(x, ids, 4).numpy().tolist() == [
        [10, 4], [0, 0], [3, 5], [0, 0]]
    assert tf.math.unsorted_segment_max(x, ids, 4).numpy().tolist() == [
        [7, 5], [lo, lo], [2, 5], [lo, lo]]
    assert tf.math.unsorted_segment_min(x, ids, 4).numpy().tolist() == [
        [3, -1], [hi, hi], [1, 0], [hi, hi]]
    v = tf.Variable(_X)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.math.unsorted_segment_max(v, ids, 3) * tf.constant(_W))
    assert tape.gradient(y, v).numpy().tolist() == [[0, 6], [0, 2], [5, 0], [1, 0]]
    # negative ids are dropped: TensorFlow 2.21 gives [5 0 0]
    assert tf.math.unsorted_segment_sum(tf.constant([1, 2, 3]), tf.constant([-1, 0, 0]),
                                        3).numpy().tolist() == [5, 0, 0]


def test_segment_id_errors():
    # TensorFlow 2.21 gives InvalidArgumentError "segment ids are not increasing",
    # "segment_ids should be the same size as dimension 0 of input." and
    # "segment_ids[0] = 5 is out of range [0, 3)"
    with pytest.raises(tf.errors.InvalidArgumentError, match="segment ids are not increasing"):
        tf.math.segment_sum(tf.constant([1, 2, 3]), tf.constant([1, 0, 0]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="same size as dimension 0"):
        tf.math.segment_sum(tf.constant([1, 2, 3]), tf.constant([0, 0]))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"segment_ids\[0\] = 5 is out"):
        tf.math.unsorted_segment_sum(tf.constant([1, 2, 3]), tf.constant([5, 0, 0]), 3)



def test_float_overflow_is_inf_without_a_numpy_warning():
    # TensorFlow 2.21 prints nothing for float32 max * 6 (inf) or 0/0 (nan); run with
    # RuntimeWarnings as errors, in a fresh process (no warning registry from other tests)
    import subprocess
    import sys

    program = (
        "import numpy as np, tfgraph_edu as tf\n"
        "assert np.isinf((tf.constant(3e38) * 6).numpy())\n"
        "assert np.isnan((tf.constant(0.0) / 0.0).numpy())\n"
        "assert np.isinf(tf.constant(1e39, tf.float32).numpy())\n"
        "assert np.isinf(tf.function(lambda x: x * 6, autograph=False)("
        "tf.constant(3e38)).numpy())\n"
        "try:\n    np.float32(3e38) * np.float32(6)\nexcept RuntimeWarning:\n"
        "    print('user numpy still warns')\n")
    done = subprocess.run([sys.executable, "-W", "error::RuntimeWarning", "-c", program],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "user numpy still warns"


def test_matmul_of_unknown_rank_is_a_batch_matmul():
    # TF 2.21: with a rank unknown at trace time tf.matmul builds BatchMatMulV2 (named MatMul),
    # so [2,2,2] x [2,2] broadcasts to [2,2,2] and a vector fails when the graph runs with
    # "In[1] ndims must be >= 2: 1"; it used to multiply vectors to a scalar without a word
    spec = tf.TensorSpec(None, tf.float32)
    f = tf.function(lambda a, b: tf.matmul(a, b), input_signature=[spec, spec])
    ops = f.get_concrete_function().graph.get_operations()
    assert [(op.name, op.type) for op in ops if op.type != "Placeholder"][0] == (
        "MatMul", "BatchMatMulV2")
    assert f(tf.ones([2, 2, 2]), tf.ones([2, 2])).numpy().tolist() == [[[2, 2], [2, 2]]] * 2
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"In\[1\] ndims must be >= 2: 1"):
        f(tf.ones([2, 2]), tf.ones([2]))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"In\[0\] ndims must be >= 2: 1"):
        f(tf.ones([2]), tf.ones([2]))
    # transpose_X and adjoint_X together: TF's ValueError
    with pytest.raises(ValueError, match="Only one of `transpose_a` and `adjoint_a` can be True"):
        tf.matmul(tf.ones([2, 2]), tf.ones([2, 2]), transpose_a=True, adjoint_a=True)


def test_a_variable_update_of_the_wrong_shape():
    # TF 2.21, eager and in a graph: assign_add/assign_sub give InvalidArgumentError "Cannot
    # update variable with shape [2] using a Tensor with shape [3], shapes must be equal."; an
    # assign in a graph whose value shape is unknown at trace time gives "Trying to assign to
    # variable with tensor with wrong shape. Expected [2] got [3]"
    update = "Cannot update variable with shape \\[2\\] using a Tensor with shape \\[3\\], shapes "
    v = tf.Variable(tf.zeros([2]))
    for method in (v.assign_add, v.assign_sub):
        with pytest.raises(tf.errors.InvalidArgumentError, match=update):
            method(tf.ones([3]))
    spec = [tf.TensorSpec(None, tf.float32)]
    with pytest.raises(tf.errors.InvalidArgumentError, match=update):
        tf.function(lambda x: v.assign_sub(x), input_signature=spec)(tf.ones([3]))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Trying to assign to variable with tensor with wrong shape. "
                             "Expected \\[2\\] got \\[3\\]"):
        tf.function(lambda x: v.assign(x), input_signature=spec)(tf.ones([3]))
    # a variable whose shape is left open takes any shape from assign, none from assign_sub
    w = tf.Variable(tf.zeros([2]), shape=tf.TensorShape(None))
    tf.function(lambda x: w.assign(x), input_signature=spec)(tf.ones([3]))
    assert w.numpy().tolist() == [1, 1, 1]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Cannot update variable with "
                       "shape \\[3\\] using a Tensor with shape \\[2\\]"):
        tf.function(lambda x: w.assign_sub(x), input_signature=spec)(tf.ones([2]))
    assert v.numpy().tolist() == [0, 0] and w.numpy().tolist() == [1, 1, 1]  # nothing half-done


def test_gather_out_of_range_names_the_index_as_tf():
    # TF 2.21: "indices = 7 is not in [0, 3)" for a scalar index, "indices[0,1] = 5 ..." else
    bad = tf.errors.InvalidArgumentError
    with pytest.raises(bad, match=r"indices = 7 is not in \[0, 3\)"):
        tf.gather(tf.ones([3, 2]), 7)
    with pytest.raises(bad, match=r"indices\[0,1\] = 5 is not in \[0, 3\)"):
        tf.gather(tf.ones([3]), [[0, 5]])
    with pytest.raises(bad, match=r"indices\[1\] = 9 is not in \[0, 2\)"):
        tf.gather(tf.ones([3, 2]), [0, 9], axis=1)


def test_random_dtype_errors():
    # TF 2.21: uniform checks its list of dtypes; normal fails converting its mean
    with pytest.raises(ValueError, match=r"^Argument `dtype` got invalid value <dtype: 'int8'>. "
                       r"Accepted dtypes are \(tf.float16, tf.bfloat16, tf.float32, tf.float64, "
                       r"tf.int32, tf.int64\).$"):
        tf.random.uniform([2], dtype=tf.int8, maxval=3)
    with pytest.raises(TypeError, match="^Cannot convert 0.0 to EagerTensor of dtype int32"):
        tf.random.normal([2], dtype=tf.int32)
    with pytest.raises(ValueError, match="Must specify maxval for integer dtype tf.int32"):
        tf.random.uniform([2], dtype=tf.int32)


def test_zeros_like_and_ones_like_of_a_known_small_shape_trace_as_constants():
    """TF 2.21's graphs for this function (recorded once): a fully known shape under 1000
    elements gives a ``Const`` named ``zeros_like``/``ones_like``; an unknown or large one
    keeps the ``ZerosLike``/``OnesLike`` op, under the same names."""
    @tf.function
    def f(x, y):
        return tf.zeros_like(x) + tf.ones_like(x, dtype=tf.float32) + tf.zeros_like(y)

    want = {3: ["Const", "Const", "ZerosLike"], None: ["ZerosLike", "OnesLike", "ZerosLike"],
            2000: ["ZerosLike", "OnesLike", "ZerosLike"]}
    for n, types in want.items():
        cf = f.get_concrete_function(tf.TensorSpec([n], tf.float32),
                                     tf.TensorSpec([None], tf.float32))
        ops = {op.name: op.type for op in cf.graph.get_operations()}
        assert [ops[k] for k in ("zeros_like", "ones_like", "zeros_like_1")] == types
