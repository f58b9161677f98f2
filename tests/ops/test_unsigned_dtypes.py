"""tf.uint16, tf.uint32, tf.uint64 (and uint8) as TF 2.21 has them: the dtype objects, which
ops take them, the errors of those that do not, promotion. Expected values, classes and
messages recorded from TF 2.21 (tests/ops/test_unsigned_dtypes.py probes run in .venv-tf)."""

import numpy as np
import pytest

import tfgraph_edu as tf
from tfgraph_edu import errors
from tfgraph_edu._api import numpy_api

UNSIGNED = ["uint8", "uint16", "uint32", "uint64"]


def test_dtype_objects():
    # recorded from TF 2.21: repr, str, min, max, size, as_datatype_enum
    rows = {"uint8": (255, 1, 4), "uint16": (65535, 2, 17), "uint32": (4294967295, 4, 22),
            "uint64": (18446744073709551615, 8, 23)}
    for name, (mx, size, enum) in rows.items():
        d = getattr(tf, name)
        assert repr(d) == f"tf.{name}" and str(d) == f"<dtype: '{name}'>"
        assert (d.min, d.max, d.size, d.as_datatype_enum) == (0, mx, size, enum)
        assert d.is_unsigned and d.is_integer and not d.is_floating and d.is_numpy_compatible
        assert d.as_numpy_dtype is getattr(np, name)
        assert tf.as_dtype(enum) is d and tf.dtypes.as_dtype(name) is d
        assert tf.as_dtype(np.dtype(name)) is d and d == getattr(np, name) and d == name
    assert tf.float32.as_datatype_enum == 1 and tf.as_dtype(9) is tf.int64


def test_constants_and_casts_print_as_tf():
    # recorded from TF 2.21
    assert repr(tf.constant([1, 2, 4294967295], tf.uint32)) == (
        "<tf.Tensor: shape=(3,), dtype=uint32, numpy=array([         1,          2, "
        "4294967295], dtype=uint32)>")
    assert repr(tf.constant(2**64 - 1, tf.uint64)) == (
        "<tf.Tensor: shape=(), dtype=uint64, numpy=18446744073709551615>")
    assert int(tf.constant(-1, tf.uint32)) == 4294967295
    assert int(tf.constant(2**32, tf.uint32)) == 0
    assert str(tf.constant([1, 2], tf.uint32)) == "tf.Tensor([1 2], shape=(2,), dtype=uint32)"
    assert tf.constant(np.array([1, 2], np.uint16)).dtype is tf.uint16
    assert tf.cast(tf.constant([-1.5, 3.7, 1e10]), tf.uint32).numpy().tolist() == [
        4294967295, 3, 1410065408]
    assert tf.cast(tf.constant([-1, 3]), tf.uint64).numpy().tolist() == [
        18446744073709551615, 3]
    assert tf.cast(tf.constant([4294967295], tf.uint32), tf.int32).numpy().tolist() == [-1]
    assert repr(tf.Variable([1, 2], dtype=tf.uint32)) == (
        "<tf.Variable 'Variable:0' shape=(2,) dtype=uint32, numpy=array([1, 2], dtype=uint32)>")
    assert repr(tf.TensorSpec([2], tf.uint32)) == (
        "TensorSpec(shape=(2,), dtype=tf.uint32, name=None)")


@pytest.mark.parametrize("name", UNSIGNED)
def test_ops_that_run(name):
    # recorded from TF 2.21: these ops run for every unsigned dtype
    a, b = tf.constant([1, 2, 3], name), tf.constant([3, 2, 1], name)
    top = int(getattr(tf, name).max)
    assert (a - b).numpy().tolist() == [top - 1, 0, 2]
    assert (a * b).numpy().tolist() == [3, 4, 3]
    assert (a // b).numpy().tolist() == [0, 1, 3] and (a % b).numpy().tolist() == [1, 0, 0]
    assert (~a).numpy().tolist() == [top - 1, top - 2, top - 3]
    assert (a & b).numpy().tolist() == [1, 2, 1]
    assert tf.bitwise.left_shift(a, b).numpy().tolist() == [8, 8, 6]
    assert (a < b).numpy().tolist() == [True, False, False]
    assert int(tf.reduce_sum(a)) == 6 and int(tf.reduce_prod(a)) == 6
    assert tf.cumsum(a).numpy().tolist() == [1, 3, 6]
    assert tf.sort(a).numpy().tolist() == [1, 2, 3]
    assert tf.sort(a, direction="DESCENDING").numpy().tolist() == [3, 2, 1]
    assert tf.math.top_k(a, 2).values.numpy().tolist() == [3, 2]
    assert tf.gather(a, [0, 2]).numpy().tolist() == [1, 3]
    assert tf.concat([a, b], 0).dtype is getattr(tf, name)
    assert int(tf.argmax(a)) == 2 and tf.argmax(a).dtype is tf.int64
    assert tf.clip_by_value(a, 2, 3).numpy().tolist() == [2, 2, 3]
    assert (a + 1).numpy().tolist() == [2, 3, 4]
    if name != "uint64":  # TF 2.21 fails uint64 + (-1) with a SystemError of its own
        assert (a + (-1)).numpy().tolist() == [0, 1, 2]
    v = tf.Variable(a)
    assert v.assign_add(b).numpy().tolist() == [4, 4, 4]
    quotient = (a / b)
    assert quotient.dtype is (tf.float64 if name in ("uint32", "uint64") else tf.float32)


def test_big_values_wrap_as_tf():
    # recorded from TF 2.21
    assert int(tf.reduce_sum(tf.constant([4294967295, 1], tf.uint32))) == 0
    assert tf.math.cumprod(tf.constant([2, 3], tf.uint32)).numpy().tolist() == [2, 6]


@pytest.mark.parametrize("name", UNSIGNED)
def test_ops_without_unsigned_raise_tf_errors(name):
    # recorded from TF 2.21: the class and the gist of each message
    a = tf.constant([1, 2, 3], name)
    for fn, op in ((tf.negative, "Neg"), (tf.abs, "Abs"), (tf.sign, "Sign"),
                   (lambda x: x ** x, "Pow")):
        with pytest.raises(errors.InvalidArgumentError,
                           match=f"Value for attr 'T' of {name} is not in the list(.|\\n)*{op}"):
            fn(a)
    m = tf.reshape(a, [1, 3])
    with pytest.raises(errors.NotFoundError,
                       match=r"Could not find device for node: \{\{node MatMul\}\} = "
                             rf"MatMul\[T=DT_{name.upper()}"):
        tf.matmul(m, tf.transpose(m))
    with pytest.raises(errors.NotFoundError, match="Could not find device.*BatchMatMulV2"):
        tf.matmul(m[None], tf.transpose(m)[None])
    with pytest.raises(errors.NotFoundError, match=r"\{\{node Einsum\}\}"):
        tf.einsum("i,i->", a, a)
    with pytest.raises(errors.InvalidArgumentError, match="attr 'Tidx' of .*int32, int64"):
        tf.math.bincount(a)
    with pytest.raises(errors.InvalidArgumentError, match="attr 'out_type' of "):
        tf.shape(a, out_type=name)
    with pytest.raises(AssertionError):  # TF's tf.range asserts its inferred dtype
        tf.range(tf.constant(0, name), tf.constant(3, name))


def test_more_dtype_gaps_as_tf():
    # recorded from TF 2.21
    with pytest.raises(errors.NotFoundError, match=r"Range\[Tidx=DT_UINT32\]"):
        tf.range(3, dtype=tf.uint32)
    with pytest.raises(errors.InvalidArgumentError, match="attr 'Tidx' of uint8"):
        tf.range(3, dtype=tf.uint8)
    with pytest.raises(errors.InvalidArgumentError, match="attr 'TI' of uint16 .*uint8, int8"):
        tf.one_hot(tf.constant([1], tf.uint16), 3)
    assert tf.one_hot(tf.constant([1], tf.uint8), 2).numpy().tolist() == [[0.0, 1.0]]
    with pytest.raises(errors.UnimplementedError,
                       match="TileOp : The input data type is not supported, DataType : uint16, "
                             "Dimension : 1"):
        tf.tile(tf.constant([1], tf.uint16), [2])
    assert tf.tile(tf.constant([1], tf.uint16), [1]).numpy().tolist() == [1]
    assert tf.tile(tf.constant([1], tf.uint32), [2]).numpy().tolist() == [1, 1]
    with pytest.raises(errors.InvalidArgumentError, match="attr 'T' of int8 "):
        tf.matmul(tf.ones([1, 1], tf.int8), tf.ones([1, 1], tf.int8))
    with pytest.raises(errors.InvalidArgumentError, match="Integer division by zero"):
        tf.constant([1], tf.uint32) // tf.constant([0], tf.uint32)
    with pytest.raises(errors.InvalidArgumentError,
                       match="expected to be a uint32 tensor but is a int32 tensor"):
        tf.constant(1, tf.uint32) + tf.constant(1, tf.int32)


def test_inside_tf_function():
    @tf.function
    def f(x):
        return x * 2 + 1

    # recorded from TF 2.21: runs, and every node's T/dtype attr is DT_UINT64 (22 for uint32)
    assert f(tf.constant([1, 2], tf.uint32)).numpy().tolist() == [3, 5]
    text = str(f.get_concrete_function(tf.TensorSpec([2], tf.uint64)).graph.as_graph_def())
    assert "type: DT_UINT64" in text and "DT_INT32" not in text

    # recorded from TF 2.21: in a graph a missing kernel is met when it runs
    g = tf.function(lambda: tf.matmul(tf.constant([[1]], tf.uint32),
                                      tf.constant([[1]], tf.uint32)))
    with pytest.raises(errors.InvalidArgumentError,
                       match=r"No OpKernel was registered to support Op 'MatMul' used by "
                             r"\{\{node MatMul\}\} with these attrs: \[.*T=DT_UINT32"):
        g()
    with pytest.raises(TypeError, match="parameter 'indices' has DataType uint16 not in list"):
        tf.function(lambda: tf.one_hot(tf.constant([1], tf.uint16), 3))()
    with pytest.raises(TypeError, match="parameter 'x' has DataType uint16 not in list"):
        tf.function(lambda: tf.sign(tf.constant([1], tf.uint16)))()
    # recorded from TF 2.21: in a graph Shape's out_type is not checked (the shape is folded)
    assert tf.function(lambda: tf.shape(tf.constant([1, 2], tf.uint8), out_type=tf.uint8))(
        ).numpy().tolist() == [2]


def test_flexible_promotion_with_unsigned():
    tnp = tf.experimental.numpy
    try:
        # the guide tf_numpy_type_promotion, recorded from TF 2.21
        tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="all")
        a, b = tf.constant(10, dtype=tf.int8), tf.constant(5, dtype=tf.uint32)
        assert repr(a + b) == "<tf.Tensor: shape=(), dtype=int64, numpy=15>"
        assert repr(tf.constant(5, tf.uint64) + tf.constant(1, tf.int32)) == (
            "<tf.Tensor: shape=(), dtype=float64, numpy=6.0, weak=True>")
        assert repr(tf.constant(5, tf.uint64) + 1) == (
            "<tf.Tensor: shape=(), dtype=uint64, numpy=6>")
        assert repr(tf.constant(5, tf.uint16) + 1.5) == (
            "<tf.Tensor: shape=(), dtype=float64, numpy=6.5, weak=True>")
        tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="safe")
        with pytest.raises(TypeError, match=r"In promotion mode PromoMode.SAFE, implicit dtype "
                           r"promotion between \(<dtype: 'int8'>, weak=False\) and "
                           r"\(<dtype: 'uint32'>, weak=False\) is disallowed"):
            a + b
        tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="legacy")
        assert repr(a + b) == "<tf.Tensor: shape=(), dtype=int64, numpy=15>"
    finally:
        numpy_api._disable_numpy_behavior()


def test_saved_model_and_checkpoint_keep_unsigned(tmp_path):
    m = tf.Module()
    m.v = tf.Variable([1, 4294967295], dtype=tf.uint32)

    @tf.function(input_signature=[tf.TensorSpec([2], tf.uint64)])
    def twice(x):
        return x * 2

    m.f = twice
    tf.saved_model.save(m, str(tmp_path / "sm"))
    back = tf.saved_model.load(str(tmp_path / "sm"))
    assert back.v.dtype is tf.uint32 and back.v.numpy().tolist() == [1, 4294967295]
    out = back.f(tf.constant([3, 2**63], tf.uint64))
    assert out.dtype is tf.uint64 and out.numpy().tolist() == [6, 0]  # wraps, as TF's Mul
    ckpt = tf.train.Checkpoint(v=m.v)
    path = ckpt.save(str(tmp_path / "ck"))
    m.v.assign([7, 8])
    ckpt.restore(path)
    assert m.v.numpy().tolist() == [1, 4294967295]
