"""Hand-written probes of what learners do in the TensorFlow guides (tensor, variable, basics,
autodiff, function, intro_to_graphs), for differential.py.  Each probe is program text run
twice, with ``tf`` bound to real TensorFlow and to tfgraph_edu; what it prints (print and
tf.print), and the error class it ends with if any, are compared.

An entry is either (name, source) or a one-line expression, which is printed with repr and
with print.
"""

from __future__ import annotations

EXPRESSIONS = [
    # dtype promotion, and where TF refuses to promote
    "tf.constant(1) + tf.constant(1.5)",
    "tf.constant([1, 2]) + 1.5",
    "tf.constant([1, 2]) * 2",
    "tf.constant([1.0, 2.0]) * 2",
    "tf.constant(2.0, tf.float64) + 1",
    "tf.constant(1, tf.int64) + tf.constant(1)",
    "tf.constant(3) / tf.constant(2)",
    "tf.constant(3, tf.int64) / 2",
    "tf.constant([3, 4], tf.int8) / 2",
    "1 / tf.constant(0.0)",
    "tf.constant(5) / 0",
    "tf.constant(2) ** 3",
    "tf.constant(2) ** -1",
    "tf.constant(2.0) ** 0.5",
    "tf.constant(True) & tf.constant(False)",
    "tf.constant(True) + tf.constant(False)",
    "tf.constant([1, 2]) == tf.constant([1, 3])",
    "tf.constant([1, 2]) == None",
    "tf.constant([1, 2]) == [1, 2]",
    "-tf.constant([1, 2], tf.uint8)",
    "abs(tf.constant([-1, 2]))",
    "~tf.constant(5)",
    "tf.constant(1.0) == 1",
    # integer division and modulo of negatives
    "tf.constant([-7, 7, -7, 7]) // tf.constant([2, -2, -2, 2])",
    "tf.constant([-7, 7, -7, 7]) % tf.constant([2, -2, -2, 2])",
    "tf.constant([-7.5, 7.5]) // 2.0",
    "tf.constant([-7.5, 7.5]) % 2.0",
    "tf.constant([-7.5, 7.5]) % -2.0",
    "tf.math.floormod(tf.constant([-7, 7]), 3)",
    "tf.math.truncatemod(tf.constant([-7, 7]), 3)",
    "tf.math.truncatediv(tf.constant([-7, 7]), 2)",
    "tf.math.floordiv(tf.constant([-7, 7]), 2)",
    "tf.constant(7) // 0",
    "tf.constant(7) % 0",
    "tf.constant([7.0]) // 0.0",
    "tf.math.divide_no_nan(tf.constant([1.0, 2.0]), tf.constant([0.0, 4.0]))",
    "tf.constant(-2**31) // -1",
    # broadcasting and its errors
    "tf.constant([[1], [2]]) + tf.constant([10, 20, 30])",
    "tf.constant([1, 2, 3]) + tf.constant([1, 2])",
    "tf.matmul(tf.ones([2, 3]), tf.ones([2, 3]))",
    "tf.reshape(tf.range(6), [4, -1])",
    "tf.reshape(tf.range(6), [-1, 2])",
    "tf.reshape(tf.range(6), [-1, -1])",
    "tf.broadcast_to(tf.constant([1, 2]), [3, 2])",
    "tf.broadcast_to(tf.constant([1, 2]), [3, 3])",
    # reductions, including on empty tensors
    "tf.reduce_sum(tf.zeros([0]))",
    "tf.reduce_mean(tf.zeros([0]))",
    "tf.reduce_max(tf.zeros([0]))",
    "tf.reduce_min(tf.zeros([0], tf.int32))",
    "tf.reduce_prod(tf.zeros([0, 3]), axis=0)",
    "tf.reduce_mean(tf.constant([1, 2]))",
    "tf.reduce_mean(tf.constant([1, 2]), axis=0, keepdims=True)",
    "tf.reduce_sum(tf.constant([[1, 2], [3, 4]]), axis=-1)",
    "tf.reduce_sum(tf.constant([[1, 2], [3, 4]]), axis=2)",
    "tf.reduce_any(tf.constant([False, True]))",
    "tf.argmax(tf.constant([[1, 5, 5], [7, 0, 7]]), axis=1)",
    "tf.argmax(tf.constant([1.0, 3.0]))",
    "tf.math.reduce_std(tf.constant([1.0, 2.0, 4.0]))",
    "tf.reduce_logsumexp(tf.constant([1.0, 2.0, 3.0]))",
    "tf.reduce_sum(tf.constant([True, True]))",
    # casting, including overflow and float to int
    "tf.cast(tf.constant([1.7, -1.7, 2.5]), tf.int32)",
    "tf.cast(tf.constant([300, -1]), tf.uint8)",
    "tf.cast(tf.constant([3e9]), tf.int32)",
    "tf.cast(tf.constant([1.0, 0.0]), tf.bool)",
    "tf.cast(tf.constant([True, False]), tf.float32)",
    "tf.cast(tf.constant(1e40, tf.float64), tf.float32)",
    "tf.cast(tf.constant('1'), tf.int32)",
    "tf.constant(2**31)",
    "tf.constant(2**63)",
    "tf.constant(1.5, tf.int32)",
    "tf.constant([1, 2.5])",
    "tf.constant([[1, 2], [3]])",
    "tf.constant(-1, tf.uint8)",
    "tf.constant(300, tf.uint8)",
    "tf.constant(1e40)",
    "tf.constant(3, dtype=tf.float16)",
    "tf.constant([0.1, 0.2], tf.float64)",
    "tf.constant(1/3)",
    "tf.constant([1e-8, 1e8, 123456789.0])",
    "tf.constant(np.float64(2.5))",
    "tf.constant(np.array([1, 2], np.int64))",
    "tf.constant([[]])",
    "tf.zeros([2, 0])",
    "tf.constant(7, shape=[2, 2])",
    "tf.saturate_cast(tf.constant([300, -5]), tf.uint8)",
    "tf.bitcast(tf.constant(1.0), tf.int32)",
    # string tensors
    "tf.constant('hello')",
    "tf.constant(['a', 'bc'])",
    "tf.constant('héllo')",
    "tf.strings.length(tf.constant(['a', 'héllo']))",
    "tf.strings.length(tf.constant('héllo'), unit='UTF8_CHAR')",
    "tf.strings.split(tf.constant('a b  c'))",
    "tf.strings.upper(tf.constant('abc'))",
    "tf.strings.join([tf.constant('a'), tf.constant('b')], separator='-')",
    "tf.constant('a') + tf.constant('b')",
    "tf.strings.to_number(tf.constant(['1.5', '2']))",
    "tf.strings.as_string(tf.constant([1.5, 2.0]))",
    "tf.constant(b'\\x00\\xff')",
    "tf.strings.unicode_split(tf.constant('héllo'), 'UTF-8')",
    "tf.strings.substr(tf.constant('hello'), 1, 3)",
    # where, gather, scatter, segment ops
    "tf.where(tf.constant([True, False, True]))",
    "tf.where(tf.constant([[True, False], [False, True]]))",
    "tf.where(tf.constant([True, False]), tf.constant([1, 2]), tf.constant([10, 20]))",
    "tf.where(tf.constant([True, False]), 1.0, 0.0)",
    "tf.where(tf.constant([1, 0]))",
    "tf.gather(tf.constant([10, 20, 30]), [2, 0])",
    "tf.gather(tf.constant([10, 20, 30]), [3])",
    "tf.gather(tf.constant([10, 20, 30]), [-1])",
    "tf.gather(tf.constant([[1, 2], [3, 4]]), [1], axis=1)",
    "tf.gather_nd(tf.constant([[1, 2], [3, 4]]), [[1, 0]])",
    "tf.gather_nd(tf.constant([[1, 2], [3, 4]]), [[2, 0]])",
    "tf.tensor_scatter_nd_update(tf.zeros([4], tf.int32), [[1], [3]], [5, 6])",
    "tf.tensor_scatter_nd_add(tf.ones([3]), [[0], [0]], [1.0, 2.0])",
    "tf.math.segment_sum(tf.constant([1, 2, 3, 4]), tf.constant([0, 0, 1, 1]))",
    "tf.math.segment_max(tf.constant([1, 5, 3, 4]), tf.constant([0, 0, 2, 2]))",
    "tf.math.segment_mean(tf.constant([1.0, 2.0, 3.0]), tf.constant([0, 0, 1]))",
    "tf.math.segment_sum(tf.constant([1, 2, 3]), tf.constant([1, 0, 0]))",
    "tf.math.unsorted_segment_sum(tf.constant([1, 2, 3]), tf.constant([2, 0, 2]), 3)",
    "tf.math.unsorted_segment_max(tf.constant([1, 2, 3]), tf.constant([2, 0, 2]), 4)",
    "tf.math.unsorted_segment_sum(tf.constant([1, 2, 3]), tf.constant([5, 0, 0]), 3)",
    "tf.one_hot([0, 2, -1, 5], 3)",
    "tf.range(5)[1:-1]",
    "tf.range(5)[::-2]",
    "tf.range(5)[7]",
    "tf.range(5)[tf.constant(2)]",
    "tf.constant([[1, 2], [3, 4]])[:, 1]",
    "tf.constant([[1, 2], [3, 4]])[..., tf.newaxis]",
    "tf.constant([[1, 2], [3, 4]])[1, 1, 1]",
    # ranges
    "tf.range(5, 0, -2)",
    "tf.range(0, 5, -1)",
    "tf.range(0.0, 1.0, 0.3)",
    "tf.range(1, 2.5, 0.5)",
    "tf.range(3, dtype=tf.float32)",
    "tf.range(0, 5, 0)",
    "tf.range(tf.constant(3, tf.int64))",
    "tf.linspace(0.0, 1.0, 5)",
    # misc ops learners use
    "tf.concat([tf.constant([1]), tf.constant([2.0])], 0)",
    "tf.concat([tf.constant([[1]]), tf.constant([2])], 0)",
    "tf.stack([tf.constant(1), tf.constant(2)])",
    "tf.unstack(tf.constant([[1, 2], [3, 4]]))",
    "tf.split(tf.range(6), 3)",
    "tf.split(tf.range(6), 4)",
    "tf.transpose(tf.reshape(tf.range(6), [2, 3]))",
    "tf.squeeze(tf.zeros([1, 2, 1]))",
    "tf.expand_dims(tf.constant([1, 2]), -1)",
    "tf.tile(tf.constant([1, 2]), [3])",
    "tf.math.sqrt(tf.constant(4))",
    "tf.math.sqrt(tf.constant(-1.0))",
    "tf.math.log(tf.constant(0.0))",
    "tf.exp(tf.constant([1.0, 100.0]))",
    "tf.nn.softmax(tf.constant([1.0, 2.0, 3.0]))",
    "tf.nn.relu(tf.constant([-1, 2]))",
    "tf.sigmoid(tf.constant([0.0, 20.0, -20.0]))",
    "tf.math.round(tf.constant([0.5, 1.5, 2.5, -0.5]))",
    "tf.math.sign(tf.constant([-2, 0, 3]))",
    "tf.clip_by_value(tf.constant([1, 5, 9]), 2, 6)",
    "tf.sort(tf.constant([3, 1, 2]), direction='DESCENDING')",
    "tf.math.top_k(tf.constant([1, 3, 2, 3]), k=2)",
    "tf.unique(tf.constant([1, 1, 2, 1]))",
    "tf.math.cumsum(tf.constant([1, 2, 3]), exclusive=True, reverse=True)",
    "tf.shape(tf.zeros([2, 3]))",
    "tf.size(tf.zeros([2, 3]))",
    "tf.rank(tf.zeros([2, 3]))",
    "tf.zeros([2, 3]).shape",
    "tf.zeros([2, 3]).shape[0]",
    "tf.zeros([2, 3]).shape.as_list()",
    "tf.TensorShape([None, 3])",
    "tf.TensorShape(None)",
    "tf.float32",
    "tf.constant(1).dtype",
    "tf.constant(1.5).numpy()",
    "tf.constant([1, 2]).numpy()",
    "tf.constant('x').numpy()",
    "float(tf.constant(2.5))",
    "int(tf.constant(2.5))",
    "int(tf.constant([1, 2]))",
    "bool(tf.constant([True, False]))",
    "bool(tf.constant(0))",
    "len(tf.zeros([3, 2]))",
    "len(tf.constant(1))",
    "list(tf.constant([1, 2]))",
    "tf.ones([2, 2]) @ tf.ones([2, 1])",
    "tf.eye(2, dtype=tf.int32)",
    "tf.fill([2], 7)",
    "tf.zeros_like(tf.constant([1.5]))",
    "tf.ones(3, dtype=tf.bool)",
    "tf.convert_to_tensor([1, 2], dtype=tf.float32)",
    "tf.convert_to_tensor(tf.constant(1), dtype=tf.float32)",
    "tf.add(1, 2)",
    "tf.add(1, 2.5)",
    "tf.multiply(tf.constant(2), 1.5)",
    "tf.math.add_n([tf.constant(1), tf.constant(2)])",
    "tf.math.maximum(tf.constant([1, 5]), 3)",
    "tf.math.equal(tf.constant('a'), 'a')",
    "tf.experimental.numpy.ones([2])",
    "tf.norm(tf.constant([3.0, 4.0]))",
    "tf.math.count_nonzero(tf.constant([0, 1, 2]))",
    "tf.math.is_nan(tf.constant([np.nan, 1.0]))",
    "tf.math.reduce_variance(tf.constant([1, 2]))",
    "tf.ragged.constant([[1, 2], [3]])",
    "tf.sparse.SparseTensor(indices=[[0, 0], [1, 2]], values=[1, 2], dense_shape=[3, 4])",
    "tf.Variable(1)",
    "tf.Variable([1.0, 2.0], name='v')",
    "tf.Variable('s')",
    "tf.Variable(tf.zeros([2, 2]), trainable=False).trainable",
    # core APIs of issue 25: ordering, scatter, counting, sets, svd, checks, version
    "tf.sort([3.0, 1.0, 2.0])",
    "tf.sort([[3, 1], [0, 5]], axis=0, direction='DESCENDING')",
    "tf.sort([1.0, 2.0], direction='UP')",
    "tf.argsort([3.0, 1.0, 3.0, 1.0])",
    "tf.math.top_k([1.0, 5.0, 3.0], k=2)",
    "tf.math.top_k([1.0, 2.0], k=3)",
    "tf.unique([1, 1, 2, 4, 4])",
    "tf.unique_with_counts(['b', 'a', 'b'])",
    "tf.unique([[1, 2]])",
    "tf.roll([[0, 1, 2], [3, 4, 5]], shift=[1, -1], axis=[0, 1])",
    "tf.meshgrid([1, 2, 3], [4, 5])",
    "tf.searchsorted([1.0, 2.0, 3.0], [0.5, 2.0, 9.0], side='right')",
    "tf.math.bincount([1, 1, 2, 4], minlength=6)",
    "tf.math.bincount([1, -1])",
    "tf.clip_by_global_norm([tf.constant([3.0, 4.0]), tf.constant([[12.0]])], 5.0)",
    "tf.scatter_nd([[4], [3], [1]], [9, 10, 11], [6])",
    "tf.scatter_nd([[9]], [1], [6])",
    "tf.tensor_scatter_nd_update([1, 2, 3], [[0], [2]], [7, 8])",
    "tf.tensor_scatter_nd_add([[1, 2], [3, 4]], [[1, 0]], [9])",
    "tf.gather_nd([[1, 2], [3, 4]], [[1, 0], [0, 1]])",
    "tf.linalg.svd([[3.0, 0.0], [0.0, 2.0]], compute_uv=False)",
    "tf.sets.intersection([[1, 2, 3]], [[2, 3, 4]])",
    "tf.sparse.to_dense(tf.sets.union([[1, 2]], [[5, 1]]))",
    "tf.debugging.assert_less([1, 5], [3, 4])",
    "tf.debugging.assert_equal(1, 1)",
    "tf.debugging.assert_non_negative([1.0, -2.0])",
    "tf.debugging.assert_rank(tf.constant([1, 2]), 2)",
    "tf.__version__",
    "tf.version.VERSION",
    "tf.sortt",
    "tf.math.foo",
]

PROBES = [
    ("print big tensors (summarize)", """
tf.print(tf.range(10))
tf.print(tf.range(7))
tf.print(tf.reshape(tf.range(100), [10, 10]))
tf.print(tf.range(10), summarize=-1)
tf.print(tf.range(10), summarize=2)
tf.print(tf.constant([1.5, 2.25, 3.0]))
tf.print(tf.constant([0.1, 1e-9, 1e10]))
tf.print(tf.constant(['a', 'b']))
tf.print(tf.constant(True), 'x', 3, [1, tf.constant(2)], {'k': tf.constant(1.5)})
tf.print('a', 'b', sep=',', end='!\\n')
tf.print(tf.constant(2.0, tf.float64) / 3)
tf.print(tf.zeros([2, 0]))
tf.print(tf.constant(1e40, tf.float64), tf.constant(np.nan), tf.constant(-np.inf))
"""),
    ("repr and str of big tensors", """
print(repr(tf.range(2000)))
print(tf.range(2000))
print(tf.reshape(tf.range(2000), [40, 50]))
print(repr(tf.reshape(tf.range(2000.0), [40, 50])))
print(tf.random.uniform([3, 3]).shape)
print(repr(tf.constant([[1.5, 2], [3, 4]])))
print(tf.constant([1e-8, 1.0]))
print(repr(tf.zeros([2, 0, 3])))
"""),
    ("print inside tf.function", """
@tf.function
def f(x):
    print('trace', x)
    tf.print('run', x)
    return x * 2
print(f(tf.constant(1)))
print(f(tf.constant(2.0)))
print(f(3))
print(f.experimental_get_tracing_count())
"""),
    ("Variable assign semantics", """
v = tf.Variable([1.0, 2.0])
print(repr(v))
print(v)
r = v.assign([3.0, 4.0])
print(repr(r))
v.assign_add([1.0, 1.0])
print(v.numpy())
w = v + 1
print(repr(w))
print(repr(v * v))
v2 = v
v2.assign([0.0, 0.0])
print(v.numpy())
print(v.shape, v.dtype, v.name, v.trainable)
print(repr(tf.convert_to_tensor(v)))
"""),
    ("Variable assign shape error", """
v = tf.Variable([1.0, 2.0])
v.assign([1.0, 2.0, 3.0])
"""),
    ("Variable assign dtype error", """
v = tf.Variable([1.0, 2.0])
v.assign([1, 2])
print(v.numpy())
v.assign(tf.constant([1, 2]))
"""),
    ("Variable int", """
v = tf.Variable(1)
v.assign_add(2)
print(repr(v))
v.assign(1.5)
"""),
    ("Variable in tf.function created once", """
class M(tf.Module):
    def __init__(self):
        self.v = None
    @tf.function
    def __call__(self, x):
        if self.v is None:
            self.v = tf.Variable(2.0)
        return self.v * x
m = M()
print(m(tf.constant(3.0)))
print(m(tf.constant(4.0)))
"""),
    ("Variable created on every call", """
@tf.function
def f(x):
    v = tf.Variable(1.0)
    return v + x
print(f(tf.constant(1.0)))
print(f(tf.constant(2.0)))
"""),
    ("retracing on Python scalars", """
@tf.function
def f(x):
    return x + 1
for v in [1, 2, 2, 1.0, True, tf.constant(1), tf.constant(2), tf.constant(1.0)]:
    print(repr(f(v)))
print(f.experimental_get_tracing_count())
"""),
    ("retracing on lists, tuples, dicts", """
@tf.function
def f(x):
    return len(x)
for v in [[1], [1, 2], [2, 3], (1, 2), {'a': 1}, {'a': 2}, {'b': 1},
          [tf.constant(1)], [tf.constant(2)]]:
    print(repr(f(v)))
print(f.experimental_get_tracing_count())
"""),
    ("retracing on namedtuples and shapes", """
import collections
P = collections.namedtuple('P', 'x y')
@tf.function
def f(p):
    return p.x + p.y
print(repr(f(P(tf.constant(1), tf.constant(2)))))
print(repr(f(P(tf.constant(3), tf.constant(4)))))
print(repr(f(P(1, 2))))
print(repr(f(P(tf.constant([1, 2]), tf.constant(1)))))
print(f.experimental_get_tracing_count())
"""),
    ("retracing on shapes, reduce_retracing", """
@tf.function
def f(x):
    return tf.reduce_sum(x)
for n in [1, 2, 3, 4]:
    f(tf.zeros([n]))
print(f.experimental_get_tracing_count())
g = tf.function(lambda x: tf.reduce_sum(x), reduce_retracing=True)
for n in [1, 2, 3, 4]:
    g(tf.zeros([n]))
print(g.experimental_get_tracing_count())
"""),
    ("input_signature refuses other dtypes", """
@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def f(x):
    return x * 2
print(f(tf.constant([1.0, 2.0])))
print(f([1.0]))
print(f.experimental_get_tracing_count())
f(tf.constant([1, 2]))
"""),
    ("input_signature refuses other ranks", """
@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def f(x):
    return x * 2
f(tf.constant([[1.0]]))
"""),
    ("get_concrete_function and its printing", """
@tf.function
def f(x, y=2):
    return x * y
cf = f.get_concrete_function(tf.TensorSpec([None], tf.int32))
print(cf(tf.constant([1, 2])))
print([op.type for op in cf.graph.get_operations()])
print(cf.structured_outputs)
print(f.experimental_get_tracing_count())
"""),
    ("concrete function refuses other shapes", """
f = tf.function(lambda x: x + 1)
cf = f.get_concrete_function(tf.TensorSpec([2], tf.float32))
cf(tf.constant([1.0, 2.0, 3.0]))
"""),
    ("while/else with a tensor condition", """
@tf.function
def f(n):
    i = tf.constant(0)
    while i < n:
        i += 1
    else:
        i += 100
    return i
print(f(tf.constant(3)))
"""),
    ("for/else over tf.range", """
@tf.function
def f(n):
    s = tf.constant(0)
    for i in tf.range(n):
        s += i
    else:
        s += 100
    return s
print(f(tf.constant(3)))
"""),
    ("for/else with break over tf.range", """
@tf.function
def f(n):
    s = tf.constant(0)
    for i in tf.range(n):
        if i > 1:
            break
        s += i
    else:
        s += 100
    return s
print(f(tf.constant(5)))
"""),
    ("for/else over a Python range in tf.function", """
@tf.function
def f(n):
    s = n
    for i in range(3):
        s += i
    else:
        s += 100
    return s
print(f(tf.constant(3)))
"""),
    ("tf.range loops: negative and float deltas", """
@tf.function
def f(a, b, d):
    s = tf.constant(0)
    n = tf.constant(0)
    for i in tf.range(a, b, d):
        s += i
        n += 1
    return s, n
print(f(tf.constant(5), tf.constant(0), tf.constant(-2)))
print(f(tf.constant(0), tf.constant(5), tf.constant(-1)))
print(f(tf.constant(0), tf.constant(0), tf.constant(1)))
@tf.function
def g(d):
    s = tf.constant(0.0)
    for x in tf.range(0.0, 1.0, d):
        s += x
    return s
print(g(tf.constant(0.25)))
print(g(tf.constant(0.3)))
"""),
    ("loop variable after a tensor for loop", """
@tf.function
def f(n):
    i = tf.constant(-1)
    for i in tf.range(n):
        pass
    return i
print(f(tf.constant(3)))
print(f(tf.constant(0)))
"""),
    ("break, continue, return in nested loops", """
@tf.function
def f(n):
    s = tf.constant(0)
    for i in tf.range(n):
        for j in tf.range(n):
            if j > i:
                break
            if (i + j) % 2 == 0:
                continue
            s += i * 10 + j
        if s > 40:
            return s, i
    return s, tf.constant(-1)
for n in (2, 4, 8):
    print(f(tf.constant(n)))
"""),
    ("return inside a tensor loop under a Python condition", """
@tf.function
def f(n, early=False):
    s = tf.constant(0)
    for i in tf.range(n):
        if early:
            return s
        s += i
    return s
print(f(tf.constant(4)))
"""),
    ("return inside a Python loop over a tensor condition", """
@tf.function
def f(x):
    for i in range(3):
        if x > i:
            return x
    return -x
print(f(tf.constant(1)))
"""),
    ("gather out of range inside tf.function", """
@tf.function
def f(i):
    return tf.gather(tf.constant([10, 20, 30]), i)
print(f(tf.constant(1)))
print(f(tf.constant(3)))
"""),
    ("segment ops inside tf.function", """
@tf.function
def f(x, ids):
    return tf.math.segment_sum(x, ids), tf.math.unsorted_segment_max(x, ids, 4)
print(f(tf.constant([1.0, 2.0, 3.0]), tf.constant([0, 0, 2])))
"""),
    ("return inside a while loop", """
@tf.function
def f(x):
    while x < 10:
        x = x * 2
        if x % 3 == 0:
            return x
    return -x
for v in (1, 3, 5, 20):
    print(f(tf.constant(v)))
"""),
    ("if with a return in one branch only", """
@tf.function
def f(x):
    if x > 0:
        return x
print(f(tf.constant(1)))
"""),
    ("if that sets a variable in one branch only", """
@tf.function
def f(x):
    if x > 0:
        y = x
    return y
print(f(tf.constant(1)))
"""),
    ("if branches of different dtypes", """
@tf.function
def f(x):
    if x > 0:
        y = tf.constant(1)
    else:
        y = tf.constant(1.0)
    return y
print(f(tf.constant(1)))
"""),
    ("if branches of different shapes", """
@tf.function
def f(x):
    if x > 0:
        y = tf.constant([1, 2])
    else:
        y = tf.constant([1])
    return y
print(f(tf.constant(1)))
"""),
    ("loop variable changes shape", """
@tf.function
def f(n):
    x = tf.constant([1])
    for i in tf.range(n):
        x = tf.concat([x, [i]], 0)
    return x
print(f(tf.constant(3)))
"""),
    ("loop variable changes dtype", """
@tf.function
def f(n):
    x = tf.constant(0)
    for i in tf.range(n):
        x = tf.cast(x, tf.float32) + 0.5
    return x
print(f(tf.constant(3)))
"""),
    ("Python list append in a tensor loop", """
@tf.function
def f(n):
    out = []
    for i in tf.range(n):
        out.append(i)
    return out
print(f(tf.constant(3)))
"""),
    ("TensorArray in a loop", """
@tf.function
def f(n):
    ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
    for i in tf.range(n):
        ta = ta.write(i, i * i)
    return ta.stack()
print(f(tf.constant(4)))
print(f(tf.constant(0)))
"""),
    ("bool of a symbolic tensor without autograph", """
@tf.function(autograph=False)
def f(x):
    if x > 0:
        return x
    return -x
f(tf.constant(1))
"""),
    ("numpy() inside tf.function", """
@tf.function
def f(x):
    return x.numpy()
f(tf.constant(1))
"""),
    ("symbolic tensor printing inside tf.function", """
@tf.function
def f(x):
    print(x)
    print(repr(x + 1))
    print(x.shape, x.dtype)
    return x
f(tf.constant([1.0, 2.0]))
f(tf.constant([[1]]))
"""),
    ("and/or/not with tensors", """
@tf.function
def f(a, b):
    return (a > 0 and b > 0), (a > 0 or b > 0), not a > 0
print(f(tf.constant(1), tf.constant(-1)))
print(repr(tf.constant(1) > 0 and tf.constant(-1) > 0))
"""),
    ("ternary on tensors", """
@tf.function
def f(x):
    return x if x > 0 else -x
print(f(tf.constant(-3)))
print(f(tf.constant(3.5)))
"""),
    ("gradients: None versus zeros", """
x = tf.Variable(2.0)
y = tf.Variable(3.0)
with tf.GradientTape() as tape:
    z = x * x
print(tape.gradient(z, [x, y]))
with tf.GradientTape() as tape:
    z = x * x
print(tape.gradient(z, [x, y], unconnected_gradients=tf.UnconnectedGradients.ZERO))
with tf.GradientTape() as tape:
    z = tf.constant(1.0) * 2
print(tape.gradient(z, x))
"""),
    ("gradients of integer and constant sources", """
x = tf.constant(3)
with tf.GradientTape() as tape:
    tape.watch(x)
    y = x * x
print(tape.gradient(y, x))
c = tf.constant(3.0)
with tf.GradientTape() as tape:
    y = c * c
print(tape.gradient(y, c))
"""),
    ("gradient twice without persistent", """
x = tf.Variable(2.0)
with tf.GradientTape() as tape:
    y = x * x
print(tape.gradient(y, x))
print(tape.gradient(y, x))
"""),
    ("persistent tape and jacobian", """
x = tf.Variable([1.0, 2.0])
with tf.GradientTape(persistent=True) as tape:
    y = x * x
    s = tf.reduce_sum(y)
print(tape.gradient(s, x))
print(tape.gradient(y, x))
print(tape.jacobian(y, x))
del tape
"""),
    ("gradient through int cast and argmax", """
x = tf.Variable([1.0, 2.0])
with tf.GradientTape() as tape:
    y = tf.cast(tf.cast(x, tf.int32), tf.float32) * x
print(tape.gradient(y, x))
with tf.GradientTape() as tape:
    y = tf.cast(tf.argmax(x), tf.float32)
print(tape.gradient(y, x))
"""),
    ("gradient of a non-scalar target and of several targets", """
x = tf.Variable([1.0, 2.0])
with tf.GradientTape() as tape:
    y = x * x
    z = x + 1
print(tape.gradient([y, z], x))
print(tape.gradient if False else 0)
"""),
    ("gradient of max with ties, abs at zero, sqrt at zero", """
x = tf.Variable([1.0, 1.0, 0.0])
with tf.GradientTape(persistent=True) as tape:
    m = tf.reduce_max(x)
    a = tf.reduce_sum(tf.abs(x))
    r = tf.reduce_sum(tf.nn.relu(x - 1.0))
    s = tf.sqrt(x)
    mx = tf.maximum(x, 1.0)
print(tape.gradient(m, x))
print(tape.gradient(a, x))
print(tape.gradient(r, x))
print(tape.gradient(s, x))
print(tape.gradient(mx, x))
"""),
    ("gradient with stop_gradient and watch_accessed_variables", """
x = tf.Variable(2.0)
y = tf.Variable(3.0)
with tf.GradientTape(watch_accessed_variables=False) as tape:
    tape.watch(x)
    z = x * y + tf.stop_gradient(x * x)
print(tape.gradient(z, [x, y]))
"""),
    ("gradient of a non-trainable variable", """
x = tf.Variable(2.0, trainable=False)
with tf.GradientTape() as tape:
    z = x * x
print(tape.gradient(z, x))
print(tape.watched_variables())
"""),
    ("gradient through tf.function with control flow", """
@tf.function
def f(x, n):
    for i in tf.range(n):
        x = x * x if x < 10.0 else x + 1.0
    return x
x = tf.Variable(1.5)
with tf.GradientTape() as tape:
    y = f(x, tf.constant(4))
print(tape.gradient(y, x))
"""),
    ("gradient of a string or int target", """
x = tf.Variable(2.0)
with tf.GradientTape() as tape:
    y = tf.cast(x, tf.int32)
print(tape.gradient(y, x))
"""),
    ("gradient through gather and segment_sum", """
x = tf.Variable([1.0, 2.0, 3.0])
with tf.GradientTape(persistent=True) as tape:
    g = tf.reduce_sum(tf.gather(x, [0, 0, 2]) * tf.constant([1.0, 2.0, 3.0]))
    s = tf.math.segment_sum(x * x, tf.constant([0, 0, 1]))
print(tape.gradient(g, x))
print(tape.gradient(s, x))
"""),
    ("assign inside a tape", """
x = tf.Variable(2.0)
with tf.GradientTape() as tape:
    x.assign(x * 3)
    y = x * x
print(tape.gradient(y, x))
"""),
    ("tape records operations on a plain Python float", """
with tf.GradientTape() as tape:
    x = 3.0
    y = x * x
print(tape.gradient(y, x))
"""),
    ("tf.function side effects and Python state", """
counter = [0]
@tf.function
def f(x):
    counter[0] += 1
    return x + counter[0]
print(f(tf.constant(1)))
print(f(tf.constant(2)))
print(counter)
"""),
    ("tf.function on a method and a lambda", """
class A:
    @tf.function
    def f(self, x):
        return x * 2
a, b = A(), A()
print(a.f(tf.constant(1)), b.f(tf.constant(1)))
print(A.f.experimental_get_tracing_count())
"""),
    ("run_functions_eagerly", """
tf.config.run_functions_eagerly(True)
try:
    @tf.function
    def f(x):
        print('python', x)
        return x + 1
    print(f(tf.constant(1)))
    print(f.experimental_get_tracing_count())
finally:
    tf.config.run_functions_eagerly(False)
"""),
    ("assert ops", """
tf.debugging.assert_equal(tf.constant(1), tf.constant(1))
tf.debugging.assert_equal(tf.constant(1), tf.constant(2))
"""),
    ("check_numerics", """
tf.debugging.check_numerics(tf.constant([1.0, np.nan]), 'bad')
"""),
    ("assert in tf.function", """
@tf.function
def f(x):
    tf.debugging.assert_positive(x)
    return x
print(f(tf.constant(1)))
f(tf.constant(-1))
"""),
    ("random with seeds", """
tf.random.set_seed(1)
a = tf.random.uniform([2])
tf.random.set_seed(1)
b = tf.random.uniform([2])
print(bool(tf.reduce_all(a == b)))
print(tf.random.uniform([2], dtype=tf.int32, maxval=5).dtype)
"""),
    ("random int without maxval", """
tf.random.uniform([2], dtype=tf.int32)
"""),
    ("shape functions inside tf.function", """
@tf.function
def f(x):
    print(x.shape, tf.shape(x))
    return tf.shape(x)[0] * 2, x.shape[0]
print(f(tf.zeros([3, 2])))
cf = f.get_concrete_function(tf.TensorSpec([None, 2]))
print(cf.structured_outputs)
"""),
    ("iterating over a tensor in tf.function", """
@tf.function
def f(x):
    s = 0
    for v in x:
        s += v
    return s
print(f(tf.constant([1, 2, 3])))
"""),
    ("Python int carried through a tensor loop", """
@tf.function
def f(n):
    s = 0
    for i in tf.range(n):
        s = s + 1
    return s
print(repr(f(tf.constant(3))))
"""),
    ("Python float mixed into int loop", """
@tf.function
def f(n):
    s = 0
    for i in tf.range(n):
        s = s + 0.5
    return s
print(repr(f(tf.constant(3))))
"""),
    ("tensor equality and hashing", """
a = tf.constant(1)
print(a == 1, a is a)
try:
    {a: 1}
    print('hashable')
except TypeError as e:
    print('TypeError', str(e)[:40])
print(a.ref() is not None)
"""),
    ("division of Python int by a tensor", """
print(repr(7 // tf.constant(2)))
print(repr(7 / tf.constant(2)))
print(repr(7.5 // tf.constant(2)))
print(repr(2 ** tf.constant(3)))
print(repr(2.0 ** tf.constant(3.0)))
print(repr(tf.constant(2.0) ** 3))
"""),
    ("int tensor plus float tensor raises", """
tf.constant([1, 2]) + tf.constant([1.0, 2.0])
"""),
    ("int tensor times Python float raises", """
tf.constant(2) * 1.5
"""),
    ("int32 plus int64 raises", """
tf.constant(1) + tf.constant(1, tf.int64)
"""),
    ("tf.add of int and float tensors", """
tf.add(tf.constant(1), tf.constant(1.0))
"""),
    ("float64 with float32", """
tf.constant(1.0, tf.float64) * tf.constant(1.0)
"""),
    ("matmul of vectors", """
tf.matmul(tf.constant([1.0, 2.0]), tf.constant([1.0, 2.0]))
"""),
    ("matmul of ints and floats", """
tf.matmul(tf.ones([2, 2], tf.int32), tf.ones([2, 2]))
"""),
    ("reshape element count", """
tf.reshape(tf.range(6), [4, 2])
"""),
    ("concat rank mismatch", """
tf.concat([tf.zeros([2, 2]), tf.zeros([2])], axis=0)
"""),
    ("Module and variables", """
class Dense(tf.Module):
    def __init__(self, i, o, name=None):
        super().__init__(name=name)
        self.w = tf.Variable(tf.ones([i, o]), name='w')
        self.b = tf.Variable(tf.zeros([o]), name='b')
    def __call__(self, x):
        return tf.nn.relu(x @ self.w + self.b)
class Seq(tf.Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        self.l1 = Dense(3, 2)
        self.l2 = Dense(2, 1)
    def __call__(self, x):
        return self.l2(self.l1(x))
m = Seq(name='seq')
print(m(tf.constant([[1.0, 2.0, 3.0]])))
print([v.name for v in m.trainable_variables])
print([s.name for s in m.submodules])
print(m.name, m.l1.name)
"""),
    ("Variable naming and uniqueness", """
a = tf.Variable(1.0, name='x')
b = tf.Variable(1.0, name='x')
print(a.name, b.name)
c = tf.Variable(1.0)
print(c.name)
"""),
    ("graph op names", """
@tf.function
def f(x):
    a = x + 1
    b = a * 2
    c = tf.add(b, 3, name='mine')
    return c + 1
cf = f.get_concrete_function(tf.constant(1.0))
print([(op.name, op.type) for op in cf.graph.get_operations()])
"""),
    ("graph of a cond", """
@tf.function
def f(x):
    if x > 0:
        x = x * 2
    return x
cf = f.get_concrete_function(tf.constant(1.0))
print([op.type for op in cf.graph.get_operations()])
"""),
    ("graph of a while loop", """
@tf.function
def f(n):
    s = 0
    while s < n:
        s += 1
    return s
cf = f.get_concrete_function(tf.constant(1))
print([op.type for op in cf.graph.get_operations()])
"""),
    ("constants captured into the graph", """
c = tf.constant([1.0, 2.0])
v = tf.Variable(3.0)
@tf.function
def f(x):
    return x * c + v
cf = f.get_concrete_function(tf.constant(1.0))
print(len(cf.captured_inputs))
print([op.type for op in cf.graph.get_operations()])
"""),
    ("tf.cond and tf.while_loop directly", """
print(tf.cond(tf.constant(True), lambda: tf.constant(1), lambda: tf.constant(2)))
print(tf.while_loop(lambda i, s: i < 5, lambda i, s: (i + 1, s + i), (0, 0)))
print(tf.while_loop(lambda i: i < 3, lambda i: i + 1, [tf.constant(0)]))
print(tf.while_loop(lambda i: i < 3, lambda i: (i + 1,), (tf.constant(0),)))
"""),
    ("tf.cond branches of different structure", """
tf.cond(tf.constant(True), lambda: (tf.constant(1), tf.constant(2)), lambda: tf.constant(3))
"""),
    ("tf.while_loop shape change", """
tf.while_loop(lambda x: tf.size(x) < 5, lambda x: tf.concat([x, x], 0), [tf.constant([1])])
"""),
    ("tf.while_loop shape_invariants", """
print(tf.while_loop(lambda x: tf.size(x) < 5, lambda x: tf.concat([x, x], 0), [tf.constant([1])],
                    shape_invariants=[tf.TensorShape([None])]))
"""),
    ("tf.function returning nested structures", """
@tf.function
def f(x):
    return {'a': x, 'b': [x + 1, (x * 2, None)], 'c': 3}
print(f(tf.constant(1)))
"""),
    ("tf.function with keyword and default arguments", """
@tf.function
def f(x, y=1, *, z=2):
    return x * y + z
print(f(tf.constant(1)), f(tf.constant(1), 3), f(tf.constant(1), z=5))
print(f(x=tf.constant(2), y=tf.constant(2)))
print(f.experimental_get_tracing_count())
"""),
    ("tf.function with *args", """
@tf.function
def f(*xs):
    return tf.add_n(xs)
print(f(tf.constant(1), tf.constant(2)))
print(f(tf.constant(1), tf.constant(2), tf.constant(3)))
print(f.experimental_get_tracing_count())
"""),
    ("tensor not in an if test can't be compared in a Python way", """
x = tf.constant([1, 2])
if x > 1:
    print('yes')
"""),
    ("strings in tf.function", """
@tf.function
def f(s):
    return tf.strings.join([s, '!'])
print(f(tf.constant('hi')))
print(f('hi'))
print(f.experimental_get_tracing_count())
"""),
    ("Tensor attributes", """
x = tf.constant([[1, 2], [3, 4]])
print(x.shape, x.dtype, x.ndim, x.device.endswith('CPU:0'))
print(x.numpy().dtype, type(x.numpy()).__name__)
print(x.shape.rank, x.get_shape(), x.shape.num_elements())
"""),
    ("numpy interop", """
x = tf.constant([1.0, 2.0])
print(repr(np.add(x, 1)))
print(repr(np.multiply(x, x)))
print(repr(tf.add(np.array([1, 2]), 1)))
print(np.array(tf.constant([[1, 2]])).shape)
print(repr(tf.constant(np.array([1.5], np.float64)) + 1))
"""),
    ("int8 and uint8 arithmetic wraps", """
print(repr(tf.constant(127, tf.int8) + tf.constant(1, tf.int8)))
print(repr(tf.constant(0, tf.uint8) - tf.constant(1, tf.uint8)))
print(repr(tf.constant(2**31 - 1) + 1))
print(repr(tf.abs(tf.constant(-2**31))))
"""),
    ("float16 and bfloat16", """
print(repr(tf.constant(1.0, tf.float16) / 3))
print(repr(tf.cast(tf.constant(1/3), tf.bfloat16)))
print(tf.constant([65504.0, 70000.0], tf.float16))
"""),
    ("complex numbers", """
c = tf.constant(1 + 2j)
print(repr(c))
print(repr(c * c))
print(repr(tf.abs(c)))
print(repr(tf.math.real(c)))
"""),
    ("tf.Tensor isinstance", """
print(isinstance(tf.constant(1), tf.Tensor))
print(isinstance(tf.Variable(1), tf.Tensor))
print(isinstance(tf.Variable(1), tf.Variable))
print(tf.is_tensor(tf.Variable(1)), tf.is_tensor(1))
"""),
]

# issue #25, "silent differences to fix first": checkpoints restored before the variables
# exist, frozen layers, NumPy inputs to Keras, a deleted closed-over variable, NumPy errors
ISSUE_25 = [
    ("deferred restore into an unbuilt Keras model", """
import os, tempfile
m = tf.keras.Sequential([tf.keras.layers.Dense(2)])
m(np.ones((1, 3), np.float32))
path = tf.train.Checkpoint(model=m).write(os.path.join(tempfile.mkdtemp(), "c"))
m2 = tf.keras.Sequential([tf.keras.layers.Dense(2)])
status = tf.train.Checkpoint(model=m2).restore(path)
status.assert_existing_objects_matched()
try:
    status.assert_consumed()
except AssertionError:
    print("not consumed before the build")
m2(np.ones((1, 3), np.float32))
print(all(np.array_equal(a.numpy(), b.numpy()) for a, b in zip(m.weights, m2.weights)))
status.assert_consumed()
print("consumed after the build")
"""),
    ("deferred restore into a tf.Module variable made in a traced call", """
import os, tempfile
class Lazy(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = None
    @tf.function
    def __call__(self, x):
        if self.w is None:
            self.w = tf.Variable(tf.zeros([3]))
        return x * self.w
a = tf.Module()
a.w = tf.Variable([1.0, 2.0, 3.0])
path = tf.train.Checkpoint(mod=a).write(os.path.join(tempfile.mkdtemp(), "m"))
b = Lazy()
tf.train.Checkpoint(mod=b).restore(path)
print(b(tf.ones([3])))
c = tf.Module()
tf.train.Checkpoint(mod=c).restore(path)
c.w = tf.Variable(tf.zeros([4]))
"""),
    ("layer.trainable = False", """
d = tf.keras.layers.Dense(2)
d.build((None, 3))
d.trainable = False
print(len(d.trainable_weights), len(d.non_trainable_weights), d.kernel.trainable)
d.trainable = True
print(len(d.trainable_weights), d.kernel.trainable)
bn = tf.keras.layers.BatchNormalization()
bn.build((None, 3))
bn.trainable = False
print(len(bn.trainable_weights), len(bn.non_trainable_weights))
bn.trainable = True
print(len(bn.trainable_weights), len(bn.non_trainable_weights))
m = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(4), tf.keras.layers.Dense(1)])
m.layers[0].trainable = False
m.compile("sgd", "mse")
k0 = m.layers[0].kernel.numpy().copy()
x, y = np.random.default_rng(0).random((8, 3)), np.zeros((8, 1))
m.fit(x, y, epochs=1, verbose=0)
print(len(m.trainable_weights), np.array_equal(k0, m.layers[0].kernel.numpy()))
"""),
    ("Keras layers and models on NumPy data", """
d = tf.keras.layers.Dense(2)
print(d(np.ones((1, 3))).dtype, d(np.ones((1, 3), np.int64)).dtype, d.dtype)
print(tf.keras.layers.Lambda(lambda t: t * 2)(np.ones((2,), np.int32)).dtype)
print(tf.keras.layers.Flatten()(np.ones((2, 2, 2))).dtype)
m = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1)])
m.compile("sgd", "mse")
x, y = np.random.default_rng(0).random((8, 3)), np.zeros((8, 1))
m.fit(x, y, epochs=1, verbose=0)
p = m.predict(x, verbose=0)
print(type(p).__name__, p.dtype, p.shape, m(x).dtype, type(m.evaluate(x, y, verbose=0)).__name__)
d([[1.0, 2.0, 3.0]])
"""),
    ("a deleted closed-over variable", """
import gc
external_var = tf.Variable(3)
@tf.function
def f(x):
    return x * external_var
traced_f = f.get_concrete_function(4)
print(traced_f(4))
external_var = tf.Variable(4)
gc.collect()
print(traced_f(4))
print(f(4))
traced_f.variables
"""),
    ("tf.constant of an object array", """
print(tf.constant(np.array(["a", "b"], dtype=object)))
print(tf.constant(np.array([1, 2], dtype=object), dtype=tf.int32))
tf.constant(np.array([1, "a"], dtype=object))
"""),
    ("TensorArray write past its size, eagerly", """
a = tf.TensorArray(tf.float32, size=2)
a.write(0, 1.0).write(1, 2.0).write(2, 3.0)
"""),
    ("TensorArray write past its size, traced", """
@tf.function
def f():
    a = tf.TensorArray(tf.float32, size=2)
    return a.write(0, 1.0).write(1, 2.0).write(2, 3.0).stack()
f()
"""),
    ("TensorArray with dynamic_size grows", """
@tf.function
def f():
    return tf.TensorArray(tf.float32, size=2, dynamic_size=True).write(3, 1.0).stack()
print(f())
print(tf.TensorArray(tf.float32, size=2, dynamic_size=True).write(3, 1.0).stack())
"""),
    "tf.fill([2], [1, 2])",
    "tf.fill([[2]], 1.0)",
    "tf.split(tf.zeros([4, 2]), 2, axis=5)",
    "tf.split(tf.zeros([4, 2]), 2, axis=-3)",
    "tf.zeros([-1, 2])",
    "tf.ones([-3])",
    "tf.zeros([10 ** 6, 10 ** 6])",
    "tf.zeros([2 ** 62, 4])",
    ("tf.fill, tf.split and tf.zeros traced", """
for make in (lambda: tf.fill([2], [1, 2]), lambda: tf.split(tf.zeros([4, 2]), 2, axis=5),
             lambda: tf.zeros([-1, 2])):
    try:
        tf.function(make, autograph=False)()
    except ValueError:
        print("ValueError")
"""),
]


def _issue22_probes() -> list:
    """Issue 22's programs, from the test module that pins them (each program lives there
    once); its top level runs with ``tf`` bound to tfgraph_edu, only the source text is used."""
    from tests.autograph import test_composite_loop_state as composite
    from tests.autograph import test_issue22_tf_agreement as t22
    return [(f"issue 22: {title}", t22.probe_source(fn, calls, options))
            for title, fn, calls, options in t22.TF_PROBES] + [
        (f"issue 22: {title}", composite.probe_source(fn, calls))
        for title, fn, calls in composite.TF_PROBES]


ALL = [(e, f"print(repr({e}))\nprint({e})\n") for e in EXPRESSIONS] + PROBES + _issue22_probes() + [
    (e, f"print(repr({e}))\nprint({e})\n") if isinstance(e, str) else e for e in ISSUE_25]
