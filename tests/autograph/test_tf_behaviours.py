"""AutoGraph behaviours matched to TensorFlow's (issue 12): liveness, loop targets, loop
options, and TF's errors for loop variables that change type - each error checked for its
class, the gist of TF's wording and the user's line."""

from __future__ import annotations

import inspect

import pytest

import tfgraph_edu as tf


def _line_of(fn, text):
    lines, start = inspect.getsourcelines(fn)
    for i, line in enumerate(lines):
        if text in line:
            return start + i
    raise AssertionError(text)


def _raises(fn, args, cls, gist, line_text, user_fn=None):
    with pytest.raises(cls) as info:
        tf.function(fn)(*args)
    message = str(info.value)
    assert gist in message, message
    line = _line_of(user_fn or fn, line_text)
    assert f"line {line}," in message, message
    return message


# -- liveness --------------------------------------------------------------------------------
def param_reassigned_in_loop(n, x):
    for _ in range(n):
        x -= 1
    return n


def param_reassigned_in_tensor_loop(n, x):
    for _ in tf.range(n):
        x -= 1
    return n


@pytest.mark.parametrize("args", [(3, 5), (0, 5)])
def test_parameter_reassigned_and_never_read_python(args):
    assert tf.function(param_reassigned_in_loop)(*args) == args[0]


def test_parameter_reassigned_and_never_read_tensors():
    for fn in (param_reassigned_in_loop, param_reassigned_in_tensor_loop):
        assert int(tf.function(fn)(tf.constant(3), tf.constant(5))) == 3


def loop_target_after_loop(n):
    for i in tf.range(n):  # noqa: B007 - the target is read after the loop
        pass
    return i


def test_loop_target_is_its_last_value_after_the_loop():
    g = tf.function(loop_target_after_loop)
    assert int(g(tf.constant(4))) == 3
    assert int(g(tf.constant(0))) == 0  # TF: the range's start when no iteration ran


def created_in_loop(n):
    for i in tf.range(n):
        y = i * 2
    return y


def test_variable_created_in_tensor_loop():
    assert int(tf.function(created_in_loop)(tf.constant(3))) == 4


# -- loop options ------------------------------------------------------------------------------
def grows(n):
    x = tf.constant([1])
    for i in tf.range(n):
        x = tf.concat([x, tf.reshape(i, [1])], 0)
    return x


def grows_with_invariant(n):
    x = tf.constant([1])
    for i in tf.range(n):
        tf.autograph.experimental.set_loop_options(shape_invariants=[(x, tf.TensorShape([None]))])
        x = tf.concat([x, tf.reshape(i, [1])], 0)
    return x


def capped(n):
    s = 0
    i = 0
    while i < n:
        tf.autograph.experimental.set_loop_options(maximum_iterations=3, parallel_iterations=4)
        s += i
        i += 1
    return s


def test_shape_change_is_tf_error_with_user_line():
    _raises(grows, (tf.constant(3),), ValueError,
            "'x' has shape (1,) before the loop, but shape (2,) after one iteration",
            "for i in tf.range(n)")


def test_shape_invariants_from_set_loop_options():
    out = tf.function(grows_with_invariant)(tf.constant(3))
    assert out.numpy().tolist() == [1, 0, 1, 2]
    grows_with_invariant(tf.constant(2))  # eagerly the directive does nothing


def test_maximum_iterations_from_set_loop_options():
    assert int(tf.function(capped)(tf.constant(10))) == 0 + 1 + 2
    assert capped(4) == 6  # plain Python ignores it, as TF does


def test_feature_options_accepted():
    feats = tf.autograph.experimental.Feature
    g = tf.function(capped, experimental_autograph_options=(feats.EQUALITY_OPERATORS,))
    assert int(g(tf.constant(2))) == 1
    assert feats.ALL.name == "ALL"


# -- loop variables that change type -----------------------------------------------------------
def none_before_loop(n):
    x = None
    for i in tf.range(n):
        x = i
    return x


def int_to_float(n):
    x = 0
    for i in tf.range(n):
        x = tf.cast(i, tf.float32)
    return x


def list_grows(n):
    x = []
    for i in tf.range(n):
        x = x + [i]
    return x


def int_to_tensor(n):
    x = 0
    for i in tf.range(n):
        x = x + i
    return x


def test_none_before_loop():
    _raises(none_before_loop, (tf.constant(3),), ValueError,
            "'x' is not allowed to be None before the loop", "for i in tf.range(n)")


def test_dtype_change():
    _raises(int_to_float, (tf.constant(3),), TypeError,
            "'x' has dtype int32 before the loop, but dtype float32 after one iteration",
            "for i in tf.range(n)")


def test_structure_change():
    _raises(list_grows, (tf.constant(3),), TypeError,
            "'x' does not have the same nested structure after one iteration",
            "for i in tf.range(n)")


def test_python_int_becomes_a_tensor_loop_variable():
    assert int(tf.function(int_to_tensor)(tf.constant(4))) == 6


# -- branches ---------------------------------------------------------------------------------
def composite_in_one_branch(a):
    x = {}
    if a > 0:
        x["b"] = 1
    return x


def test_composite_in_one_branch_only():
    _raises(composite_in_one_branch, (tf.constant(1),), ValueError,
            "'x['b']' must also be initialized in the else branch", "if a > 0:")


def iterate_scalar(x):
    s = 0
    for v in x:
        s += v
    return s


def test_iterating_a_scalar_tensor():
    _raises(iterate_scalar, (tf.constant(3),), ValueError,
            "len requires a non-scalar tensor", "for v in x:")


# -- shapes inside loop bodies ------------------------------------------------------------------
def body_shapes(n):
    s = tf.constant(0.0)
    for i in tf.range(n):
        if s > 1.0:
            s = s + 1.0
        s = s * tf.cast(i, tf.float32)
    return s


def _all_ops(graph):
    for op in graph.get_operations():
        yield op
        for attr in ("cond", "body", "then_branch", "else_branch"):
            if attr in op.attrs:
                yield from _all_ops(op.get_attr(attr).graph)


def test_loop_body_keeps_static_shapes():
    cf = tf.function(body_shapes).get_concrete_function(tf.TensorSpec([], tf.int32))
    unknown = [op.name for op in _all_ops(cf.graph) for t in op.outputs
               if t.shape.rank is None]
    assert unknown == []


# -- syntax that must convert (or fall back as TF does), never produce invalid Python -----------
def annotated(x):
    y: int = 0
    if x > 0:
        y: int = 1
    return y


def walrus(x):
    if (y := x * 2) > 2:
        x = y
    return x


def lambda_default_in_loop(n):
    s = 0
    for i in tf.range(n):
        f = lambda a, b=2: a * b  # noqa: E731
        s += f(i)
    return s


def try_finally_return(x):
    try:
        if x > 0:
            return x
        return -x
    finally:
        pass


def deletes(x):
    y = 3
    if x > 0:
        x = x + 1
    del y
    return x


@pytest.mark.parametrize("fn,arg,want", [
    (annotated, 2, 1), (annotated, -2, 0), (walrus, 2, 4), (walrus, 1, 1),
    (lambda_default_in_loop, 3, 6), (try_finally_return, -2, 2), (deletes, 2, 3),
])
def test_syntax_converts(fn, arg, want):
    assert int(tf.function(fn)(tf.constant(arg))) == want == fn(arg)


def test_elif_chain_of_500_falls_back_with_tf_error():
    import linecache
    source = ("def elifs(x):\n" + "".join(
        f"    {'if' if i == 0 else 'elif'} x == {i}:\n        r = {2 * i}\n" for i in range(500))
        + "    else:\n        r = -1\n    return r\n")
    filename = "<elif-chain-500>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace: dict = {}
    exec(compile(source, filename, "exec"), namespace)
    assert namespace["elifs"](7) == 14
    # too deep to convert: run as-is (with TF's warning), so a tensor condition is TF's error
    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError) as info:
        tf.function(namespace["elifs"])(tf.constant(7))
    assert "line 2, in elifs" in str(info.value)
