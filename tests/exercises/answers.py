"""Learners' answers to every exercise of the tutorials, wrong and right, written as learners
write them (varied on purpose).  Each entry: the setup the notebook's earlier cells make (as
they make it), then answers replacing the exercise's editable cell.  The check cell itself is
read from notebooks/src (tests/exercises/test_answers.py), so what is tested is what the
learner runs."""

from __future__ import annotations

T5_SETUP = """
tf.random.set_seed(0)
x = tf.random.uniform(shape=[10, 10], minval=-1, maxval=2, dtype=tf.dtypes.int32)

def power(x, y):
    result = tf.eye(10, dtype=tf.dtypes.int32)
    for _ in range(y):
        result = tf.matmul(x, result)
    return result
"""

T7_SETUP = """
rng = np.random.default_rng(0)
X = tf.constant(rng.normal(size=(32, 5)).astype(np.float32))
true_w = np.array([[1.0], [-2.0], [0.5], [3.0], [0.0]], np.float32)
Y = tf.constant(X.numpy() @ true_w + 0.1 * rng.normal(size=(32, 1)).astype(np.float32))

def make_model():
    return tf.Variable(tf.zeros([5, 1])), tf.Variable(tf.zeros([1]))

def train_step(W, b, x, y, lr=0.1):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(tf.matmul(x, W) + b - y))
    gW, gb = tape.gradient(loss, [W, b])
    W.assign_sub(lr * gW)
    b.assign_sub(lr * gb)
    return loss

W2, b2 = make_model()
graph_step = tf.function(train_step)
graph_losses = [float(graph_step(W2, b2, X, Y)) for _ in range(50)]
"""

FULL_STEP_BODY = """
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(tf.matmul(x, W) + b - y))
    gW, gb = tape.gradient(loss, [W, b])
"""

# (stem, exercise number): {"setup": code, "wrong": {label: code}, "right": {label: code}}
ANSWERS = {
    ("00", 1): {"setup": "", "wrong": {
        "left as plain Python": "def cube(x):\n    return x * x * x\n",
        "x ** 3 builds Pow, not Mul": "@tf.function\ndef cube(x):\n    return x ** 3\n",
        "squares instead of cubes": "@tf.function\ndef cube(x):\n    return x * x\n",
        "a Python float frozen in": "import math\n@tf.function\ndef cube(x):\n"
                                    "    return x * x * x * 1.5\n",
    }, "right": {
        "decorator": "@tf.function\ndef cube(x):\n    return x * x * x\n",
        "wrapped, tf.multiply": "def cube(x):\n    return tf.multiply(x, tf.multiply(x, x))\n"
                                "cube = tf.function(cube)\n",
        "square then times": "@tf.function\ndef cube(x):\n    sq = tf.square(x)\n"
                             "    return sq * x\n",
    }},
    ("00", 2): {"setup": "", "wrong": {
        "left as it was": "@tf.function\ndef to_fahrenheit(celsius):\n"
                          "    return celsius * (9 / 5) + 32.0\n",
        "one constant, nothing to fold": "@tf.function\ndef to_fahrenheit(celsius):\n"
                                         "    return celsius * tf.constant(1.8) + 32.0\n",
        "folds, but forgets the + 32": "@tf.function\ndef to_fahrenheit(celsius):\n"
                                       "    return celsius * (tf.constant(9.0) / "
                                       "tf.constant(5.0))\n",
        "divides the input, nothing constant": "@tf.function\ndef to_fahrenheit(celsius):\n"
                                               "    return celsius * tf.constant(9.0) / "
                                               "tf.constant(5.0) + 32.0\n",
        "not a tf.function": "def to_fahrenheit(celsius):\n"
                             "    return celsius * (tf.constant(9.0) / tf.constant(5.0)) + 32.0\n",
    }, "right": {
        "two constants divided": "@tf.function\ndef to_fahrenheit(celsius):\n"
                                 "    return celsius * (tf.constant(9.0) / tf.constant(5.0))"
                                 " + 32.0\n",
        "tf.divide, factor first": "@tf.function\ndef to_fahrenheit(celsius):\n"
                                   "    factor = tf.divide(tf.constant(9.0), tf.constant(5.0))\n"
                                   "    return factor * celsius + tf.constant(32.0)\n",
    }},
    ("01", 1): {"setup": "", "wrong": {
        "left as it was (sum)": "@tf.function\ndef get_MSE(y_true, y_pred):\n"
                                "    sq_diff = (y_true - y_pred) ** 2\n"
                                "    return tf.reduce_sum(sq_diff)\n",
        "mean of differences, not squared": "@tf.function\ndef get_MSE(y_true, y_pred):\n"
                                            "    return tf.reduce_mean(y_true - y_pred)\n",
        "sum divided by 3, no Mean": "@tf.function\ndef get_MSE(y_true, y_pred):\n"
                                     "    return tf.reduce_sum(tf.square(y_true - y_pred)) / 3\n",
        "mean absolute error": "@tf.function\ndef get_MSE(y_true, y_pred):\n"
                               "    return tf.reduce_mean(tf.abs(y_true - y_pred))\n",
        "numpy inside the graph": "@tf.function\ndef get_MSE(y_true, y_pred):\n"
                                  "    return np.mean((y_true - y_pred) ** 2)\n",
    }, "right": {
        "reduce_mean of square": "@tf.function\ndef get_MSE(y_true, y_pred):\n"
                                 "    return tf.reduce_mean(tf.square(y_true - y_pred))\n",
        "math.reduce_mean, ** 2": "@tf.function\ndef get_MSE(y_true, y_pred):\n"
                                  "    d = y_pred - y_true\n"
                                  "    return tf.math.reduce_mean(d * d)\n",
    }},
    ("01", 2): {"setup": "", "wrong": {
        "left as it was": "@tf.function\ndef logistic(x):\n    return tf.nn.sigmoid(x)\n",
        "tf.math.sigmoid is the same op": "@tf.function\ndef logistic(x):\n"
                                          "    return tf.math.sigmoid(x)\n",
        "sign of the exponent": "@tf.function\ndef logistic(x):\n"
                                "    return 1.0 / (1.0 + tf.exp(x))\n",
        "exp over one plus exp, wrong sign": "@tf.function\ndef logistic(x):\n"
                                             "    e = tf.exp(-x)\n    return e / (1 + e)\n",
    }, "right": {
        "the formula": "@tf.function\ndef logistic(x):\n    return 1.0 / (1.0 + tf.exp(-x))\n",
        "e^x / (1 + e^x)": "@tf.function\ndef logistic(x):\n    e = tf.math.exp(x)\n"
                           "    return e / (e + 1.0)\n",
        "reciprocal": "@tf.function\ndef logistic(x):\n"
                      "    return tf.math.reciprocal(1 + tf.exp(tf.negative(x)))\n",
    }},
    ("02", 1): {"setup": "", "wrong": {
        "left as it was (unrolled)": "@tf.function\ndef power(x, n):\n"
                                     "    result = tf.ones_like(x)\n    for _ in range(n):\n"
                                     "        result = result * x\n    return result\n",
        "x ** n, no loop": "@tf.function\ndef power(x, n):\n    return x ** n\n",
        "tensor loop, one step short": "@tf.function\ndef power(x, n):\n"
                                       "    result = tf.ones_like(x)\n"
                                       "    for _ in tf.range(n - 1):\n"
                                       "        result = result * x\n    return result\n",
        "while with a Python counter (unrolled)": "@tf.function\ndef power(x, n):\n"
                                                  "    result = tf.ones_like(x)\n    i = 0\n"
                                                  "    while i < n:\n        result *= x\n"
                                                  "        i += 1\n    return result\n",
    }, "right": {
        "for over tf.range": "@tf.function\ndef power(x, n):\n    result = tf.ones_like(x)\n"
                             "    for _ in tf.range(n):\n        result = result * x\n"
                             "    return result\n",
        "while with a tensor counter": "@tf.function\ndef power(x, n):\n"
                                       "    result = tf.ones_like(x)\n    i = tf.constant(0)\n"
                                       "    while i < n:\n        result *= x\n"
                                       "        i += 1\n    return result\n",
        "tf.while_loop": "@tf.function\ndef power(x, n):\n"
                         "    _, r = tf.while_loop(lambda i, r: i < n,\n"
                         "                         lambda i, r: (i + 1, r * x),\n"
                         "                         (tf.constant(0), tf.ones_like(x)))\n"
                         "    return r\n",
    }},
    ("02", 2): {"setup": "", "wrong": {
        "left as it was": "@tf.function\ndef clip_negative(x):\n    if x > 0:\n        y = x\n"
                          "    return y\n",
        "tf.maximum, no If": "@tf.function\ndef clip_negative(x):\n"
                             "    return tf.maximum(x, 0.0)\n",
        "else gives -x": "@tf.function\ndef clip_negative(x):\n    if x > 0:\n        y = x\n"
                         "    else:\n        y = -x\n    return y\n",
        "Python condition on a float": "@tf.function\ndef clip_negative(x):\n"
                                       "    y = tf.zeros_like(x)\n    if float(0) > 0:\n"
                                       "        y = x\n    return y\n",
    }, "right": {
        "else branch": "@tf.function\ndef clip_negative(x):\n    if x > 0:\n        y = x\n"
                       "    else:\n        y = tf.zeros_like(x)\n    return y\n",
        "value before the if": "@tf.function\ndef clip_negative(x):\n"
                               "    y = tf.zeros_like(x)\n    if x > 0:\n        y = x\n"
                               "    return y\n",
        "tf.cond": "@tf.function\ndef clip_negative(x):\n"
                   "    return tf.cond(x > 0, lambda: x, lambda: tf.zeros_like(x))\n",
    }},
    ("03", 1): {"setup": "", "wrong": {
        "left as it was": "@tf.function\ndef row_sums(x):\n    return tf.reduce_sum(x, axis=1)\n",
        "reduce_retracing traces twice": "@tf.function(reduce_retracing=True)\ndef row_sums(x):\n"
                                         "    return tf.reduce_sum(x, axis=1)\n",
        "signature right, sums columns": "@tf.function(input_signature=[tf.TensorSpec([None, 3], "
                                         "tf.float32)])\ndef row_sums(x):\n"
                                         "    return tf.reduce_sum(x, axis=0)\n",
        "signature with a fixed batch": "@tf.function(input_signature=[tf.TensorSpec([8, 3], "
                                        "tf.float32)])\ndef row_sums(x):\n"
                                        "    return tf.reduce_sum(x, axis=1)\n",
        "plain Python": "def row_sums(x):\n    return tf.reduce_sum(x, axis=1)\n",
    }, "right": {
        "signature [None, 3]": "@tf.function(input_signature=[tf.TensorSpec(shape=[None, 3], "
                               "dtype=tf.float32)])\ndef row_sums(x):\n"
                               "    return tf.reduce_sum(x, axis=1)\n",
        "signature [None, None], axis=-1": "@tf.function(input_signature=(tf.TensorSpec((None, "
                                           "None)),))\ndef row_sums(x):\n"
                                           "    return tf.math.reduce_sum(x, -1)\n",
    }},
    ("03", 2): {"setup": "", "wrong": {
        "left as it was": "@tf.function\ndef step(x, lr):\n    return x - lr * x\n\n"
                          "x = tf.constant([1.0, 2.0])\nfor lr in (0.1, 0.05, 0.02, 0.01):\n"
                          "    x = step(x, lr)\n",
        "the answer typed in, step never called": "@tf.function\ndef step(x, lr):\n"
                                                  "    return x - lr * x\n\n"
                                                  "x = tf.constant([1.0, 2.0]) * 0.9 * 0.95 * "
                                                  "0.98 * 0.99\n",
        "one tensor learning rate for all": "@tf.function\ndef step(x, lr):\n"
                                            "    return x - lr * x\n\n"
                                            "x = tf.constant([1.0, 2.0])\n"
                                            "for lr in (0.1, 0.05, 0.02, 0.01):\n"
                                            "    x = step(x, tf.constant(0.1))\n",
        "decorator removed": "def step(x, lr):\n    return x - lr * x\n\n"
                             "x = tf.constant([1.0, 2.0])\nfor lr in (0.1, 0.05, 0.02, 0.01):\n"
                             "    x = step(x, lr)\n",
    }, "right": {
        "tf.constant(lr)": "@tf.function\ndef step(x, lr):\n    return x - lr * x\n\n"
                           "x = tf.constant([1.0, 2.0])\nfor lr in (0.1, 0.05, 0.02, 0.01):\n"
                           "    x = step(x, tf.constant(lr))\n",
        "input_signature converts the floats": "@tf.function(input_signature=["
                                               "tf.TensorSpec([2], tf.float32), "
                                               "tf.TensorSpec([], tf.float32)])\n"
                                               "def step(x, lr):\n    return x - lr * x\n\n"
                                               "x = tf.constant([1.0, 2.0])\n"
                                               "for lr in (0.1, 0.05, 0.02, 0.01):\n"
                                               "    x = step(x, lr)\n",
        "iterating a tensor of rates": "@tf.function\ndef step(x, lr):\n    return x - lr * x\n\n"
                                       "x = tf.constant([1.0, 2.0])\n"
                                       "for lr in tf.constant([0.1, 0.05, 0.02, 0.01]):\n"
                                       "    x = step(x, lr)\n",
    }},
    ("05", 1): {"setup": "", "wrong": {
        "left as it was": "tf.config.run_functions_eagerly(True)\n\n@tf.function\n"
                          "def normalise(x):\n    print('inside normalise:', x)\n"
                          "    return x / tf.reduce_sum(x)\n\n"
                          "normalise(tf.constant([1.0, 3.0]))\n",
        "switched off, but decorator gone": "tf.config.run_functions_eagerly(True)\n\n"
                                            "def normalise(x):\n"
                                            "    return x / tf.reduce_sum(x)\n\n"
                                            "normalise(tf.constant([1.0, 3.0]))\n"
                                            "tf.config.run_functions_eagerly(False)\n",
        "switched off, divides by the mean": "tf.config.run_functions_eagerly(True)\n\n"
                                             "@tf.function\ndef normalise(x):\n"
                                             "    return x / tf.reduce_mean(x)\n\n"
                                             "normalise(tf.constant([1.0, 3.0]))\n"
                                             "tf.config.run_functions_eagerly(False)\n",
        "switched on twice": "tf.config.run_functions_eagerly(True)\n\n@tf.function\n"
                             "def normalise(x):\n    return x / tf.reduce_sum(x)\n\n"
                             "tf.config.run_functions_eagerly(True)\n",
    }, "right": {
        "switched off at the end": "tf.config.run_functions_eagerly(True)\n\n@tf.function\n"
                                   "def normalise(x):\n    print('inside normalise:', x)\n"
                                   "    return x / tf.reduce_sum(x)\n\n"
                                   "normalise(tf.constant([1.0, 3.0]))\n"
                                   "tf.config.run_functions_eagerly(False)\n",
        "switched off first, tf.math.divide": "tf.config.run_functions_eagerly(False)\n\n"
                                              "@tf.function\ndef normalise(x):\n"
                                              "    return tf.math.divide(x, tf.reduce_sum(x))\n"
                                              "\nnormalise(tf.constant([1.0, 3.0]))\n",
    }},
    ("04", 1): {"setup": "import random\n", "wrong": {
        "left as it was": "@tf.function\ndef noisy(x):\n    return x + random.random()\n",
        "noise of the wrong shape": "@tf.function\ndef noisy(x):\n"
                                    "    return x + tf.random.uniform([2])\n",
        "numpy's random, frozen too": "@tf.function\ndef noisy(x):\n"
                                      "    return x + np.random.normal()\n",
        "drawn once outside": "n = tf.random.uniform([])\n\n@tf.function\ndef noisy(x):\n"
                              "    return x + n\n",
        "plain Python, no graph": "def noisy(x):\n    return x + random.random()\n",
    }, "right": {
        "tf.random.uniform([])": "@tf.function\ndef noisy(x):\n"
                                 "    return x + tf.random.uniform([])\n",
        "tf.random.normal of x's shape": "@tf.function\ndef noisy(x):\n"
                                         "    return x + tf.random.normal(tf.shape(x), "
                                         "stddev=0.1)\n",
        "truncated normal, shape from x": "@tf.function\ndef noisy(x):\n"
                                          "    noise = tf.random.truncated_normal(x.shape)\n"
                                          "    return x + noise\n",
        "a tf.random.Generator": "g = tf.random.Generator.from_seed(1)\n\n@tf.function\n"
                                 "def noisy(x):\n    return x + g.normal(tf.shape(x))\n",
    }},
    ("04", 2): {"setup": "", "wrong": {
        "left as it was": "scale = 2.0\n\n@tf.function\ndef scaled(x):\n    return x * scale\n\n"
                          "first = scaled(tf.constant([1.0, 2.0]))\nscale = 3.0\n"
                          "second = scaled(tf.constant([1.0, 2.0]))\n",
        "a new variable instead of assign": "scale = tf.Variable(2.0)\n\n@tf.function\n"
                                            "def scaled(x):\n    return x * scale\n\n"
                                            "first = scaled(tf.constant([1.0, 2.0]))\n"
                                            "scale = tf.Variable(3.0)\n"
                                            "second = scaled(tf.constant([1.0, 2.0]))\n",
        "Python scale as an argument: two traces": "@tf.function\ndef scaled(x, s):\n"
                                                   "    return x * s\n\n"
                                                   "first = scaled(tf.constant([1.0, 2.0]), 2.0)\n"
                                                   "second = scaled(tf.constant([1.0, 2.0]), "
                                                   "3.0)\n",
        "second typed in": "scale = 2.0\n\n@tf.function\ndef scaled(x):\n    return x * scale\n\n"
                           "first = scaled(tf.constant([1.0, 2.0]))\n"
                           "second = tf.constant([3.0, 6.0])\n",
    }, "right": {
        "variable and assign": "scale = tf.Variable(2.0)\n\n@tf.function\ndef scaled(x):\n"
                               "    return x * scale\n\nfirst = scaled(tf.constant([1.0, 2.0]))\n"
                               "scale.assign(3.0)\nsecond = scaled(tf.constant([1.0, 2.0]))\n",
        "scale as a tensor argument": "@tf.function\ndef scaled(x, s):\n    return x * s\n\n"
                                      "first = scaled(tf.constant([1.0, 2.0]), tf.constant(2.0))\n"
                                      "second = scaled(tf.constant([1.0, 2.0]), "
                                      "tf.constant(3.0))\n",
    }},
    ("05", 2): {"setup": "", "wrong": {
        "left as it was": "@tf.function\ndef safe_log(x):\n    print('x is', x)\n"
                          "    return tf.math.log(x)\n",
        "print removed": "@tf.function\ndef safe_log(x):\n    return tf.math.log(x)\n",
        "tf.print, decorator removed": "def safe_log(x):\n    tf.print('x is', x)\n"
                                       "    return tf.math.log(x)\n",
        "tf.print, but log1p": "@tf.function\ndef safe_log(x):\n    tf.print(x)\n"
                               "    return tf.math.log1p(x)\n",
    }, "right": {
        "tf.print": "@tf.function\ndef safe_log(x):\n    tf.print('x is', x)\n"
                    "    return tf.math.log(x)\n",
        "tf.print to stdout, both prints": "import sys\n\n@tf.function\ndef safe_log(x):\n"
                                           "    print('tracing with', x)\n"
                                           "    tf.print('x =', x, output_stream=sys.stdout)\n"
                                           "    return tf.math.log(x)\n",
    }},
    ("06", 1): {"setup": "", "wrong": {
        "left as it was (unrolled)": "@tf.function\ndef row_norms(m):\n    norms = []\n"
                                     "    for i in range(8):\n"
                                     "        norms.append(tf.sqrt(tf.reduce_sum(m[i] * m[i])))\n"
                                     "    return tf.stack(norms)\n",
        "one norm for the whole matrix": "@tf.function\ndef row_norms(m):\n"
                                         "    return tf.sqrt(tf.reduce_sum(m * m))\n",
        "norms of the columns": "@tf.function\ndef row_norms(m):\n"
                                "    return tf.sqrt(tf.reduce_sum(m * m, axis=0))\n",
        "forgot the square root": "@tf.function\ndef row_norms(m):\n"
                                  "    return tf.reduce_sum(tf.square(m), axis=1)\n",
    }, "right": {
        "sqrt of row sums": "@tf.function\ndef row_norms(m):\n"
                            "    return tf.sqrt(tf.reduce_sum(m * m, axis=1))\n",
        "tf.norm": "@tf.function\ndef row_norms(m):\n    return tf.norm(m, axis=1)\n",
        "square, keep the axis -1": "@tf.function\ndef row_norms(m):\n"
                                    "    return tf.math.sqrt(tf.reduce_sum(tf.square(m), -1))\n",
    }},
    ("06", 2): {"setup": T5_SETUP, "wrong": {
        "left as it was": "power_graph = tf.function(power)\n"
                          "powers = [power_graph(x, y) for y in (10, 20, 30)]\n",
        "numpy does the work, graph never called": "power_graph = tf.function(power)\n"
                                                   "powers = [np.linalg.matrix_power(x.numpy(), "
                                                   "y) for y in (10, 20, 30)]\n",
        "one tensor exponent for all": "power_graph = tf.function(power)\n"
                                       "powers = [power_graph(x, tf.constant(30)) "
                                       "for y in (10, 20, 30)]\n",
        "only the last power computed": "power_graph = tf.function(power)\n"
                                        "powers = [None, None, power_graph(x, tf.constant(30))]\n",
    }, "right": {
        "tf.constant(y)": "power_graph = tf.function(power)\n"
                          "powers = [power_graph(x, tf.constant(y)) for y in (10, 20, 30)]\n",
        "input_signature": "power_graph = tf.function(power, input_signature=["
                           "tf.TensorSpec([10, 10], tf.int32), tf.TensorSpec([], tf.int32)])\n"
                           "powers = []\nfor y in (10, 20, 30):\n"
                           "    powers.append(power_graph(x, y))\n",
        "iterating a tensor of exponents": "power_graph = tf.function(power)\n"
                                           "powers = [power_graph(x, y) for y in "
                                           "tf.constant([10, 20, 30])]\n",
    }},
    ("07", 1): {"setup": "", "wrong": {
        "left as it was": "count = 0\n\n@tf.function\ndef count_up():\n    global count\n"
                          "    count += 1\n    return count\n",
        "plain Python counter": "count = 0\n\ndef count_up():\n    global count\n"
                                "    count += 1\n    return count\n",
        "variable without the decorator": "counter = tf.Variable(0)\n\ndef count_up():\n"
                                          "    counter.assign_add(1)\n"
                                          "    return counter.read_value()\n",
        "reads before it adds": "counter = tf.Variable(0)\n\n@tf.function\ndef count_up():\n"
                                "    value = counter.read_value()\n"
                                "    counter.assign_add(1)\n    return value\n",
        "a Python list as the store": "store = [0]\n\n@tf.function\ndef count_up():\n"
                                      "    store[0] += 1\n    return store[0]\n",
    }, "right": {
        "assign_add then read": "counter = tf.Variable(0)\n\n@tf.function\ndef count_up():\n"
                                "    counter.assign_add(1)\n    return counter.read_value()\n",
        "assign counter + 1": "count = tf.Variable(0, dtype=tf.int64)\n\n@tf.function\n"
                              "def count_up():\n    count.assign(count + 1)\n"
                              "    return count.value()\n",
        "return what assign_add gives": "n = tf.Variable(0)\n\n@tf.function\ndef count_up():\n"
                                        "    return n.assign_add(1)\n",
    }},
    ("07", 2): {"setup": "", "wrong": {
        "left as it was": "def row_mean(x):\n    pass\n",
        "no signature: one trace per batch": "@tf.function\ndef row_mean(x):\n"
                                             "    return tf.reduce_mean(x, axis=1)\n",
        "averages the columns": "@tf.function(input_signature=[tf.TensorSpec([None, 4], "
                                "tf.float32)])\ndef row_mean(x):\n"
                                "    return tf.reduce_mean(x, axis=0)\n",
        "sums instead of averaging": "@tf.function(input_signature=[tf.TensorSpec([None, 4], "
                                     "tf.float32)])\ndef row_mean(x):\n"
                                     "    return tf.reduce_sum(x, axis=1)\n",
    }, "right": {
        "signature [None, 4]": "@tf.function(input_signature=[tf.TensorSpec([None, 4], "
                               "tf.float32)])\ndef row_mean(x):\n"
                               "    return tf.reduce_mean(x, axis=1)\n",
        "unknown shape, sum over count": "@tf.function(input_signature=[tf.TensorSpec(shape=None,"
                                         " dtype=tf.float32)])\ndef row_mean(x):\n"
                                         "    return tf.reduce_sum(x, 1) / 4.0\n",
    }},
    ("08", 1): {"setup": T7_SETUP, "wrong": {
        "left eager": "def full_step(W, b, x, y):" + FULL_STEP_BODY +
                      "    W.assign_sub(0.1 * gW)\n    b.assign_sub(0.1 * gb)\n    return loss\n",
        "only the loss is a tf.function": "@tf.function\ndef loss_fn(W, b, x, y):\n"
                                          "    return tf.reduce_mean(tf.square(tf.matmul(x, W)"
                                          " + b - y))\n\ndef full_step(W, b, x, y):\n"
                                          "    with tf.GradientTape() as tape:\n"
                                          "        loss = loss_fn(W, b, x, y)\n"
                                          "    gW, gb = tape.gradient(loss, [W, b])\n"
                                          "    W.assign_sub(0.1 * gW)\n    b.assign_sub(0.1 * gb)\n"
                                          "    return loss\n",
        "bias never updated": "@tf.function\ndef full_step(W, b, x, y):" + FULL_STEP_BODY +
                              "    W.assign_sub(0.1 * gW)\n    return loss\n",
        "learning rate 0.01": "@tf.function\ndef full_step(W, b, x, y):" + FULL_STEP_BODY +
                              "    W.assign_sub(0.01 * gW)\n    b.assign_sub(0.01 * gb)\n"
                              "    return loss\n",
    }, "right": {
        "decorated": "@tf.function\ndef full_step(W, b, x, y):" + FULL_STEP_BODY +
                     "    W.assign_sub(0.1 * gW)\n    b.assign_sub(0.1 * gb)\n    return loss\n",
        "assign(W - lr * g), wrapped": "def full_step(W, b, x, y):" + FULL_STEP_BODY +
                                       "    W.assign(W - 0.1 * gW)\n    b.assign(b - 0.1 * gb)\n"
                                       "    return loss\nfull_step = tf.function(full_step)\n",
        "SGD optimizer": "sgd = tf.keras.optimizers.SGD(learning_rate=0.1)\n\n@tf.function\n"
                         "def full_step(W, b, x, y):" + FULL_STEP_BODY +
                         "    sgd.apply_gradients(zip([gW, gb], [W, b]))\n    return loss\n",
    }},
    ("08", 2): {"setup": T7_SETUP, "wrong": {
        "left as it was": "W4, b4 = make_model()\n\n@tf.function\ndef train(steps):\n"
                          "    loss = tf.constant(0.0)\n    for _ in range(steps):\n"
                          "        loss = graph_step(W4, b4, X, Y)\n    return loss\n",
        "a loop that does not train": "W4, b4 = make_model()\n\n"
                                      "@tf.function(input_signature=[tf.TensorSpec([], tf.int32)])"
                                      "\ndef train(steps):\n    loss = tf.constant(0.0)\n"
                                      "    for _ in tf.range(steps):\n"
                                      "        loss = tf.reduce_mean(tf.square(tf.matmul(X, W4) "
                                      "+ b4 - Y))\n    return loss\n",
        "one step whatever steps says": "W4, b4 = make_model()\n\n"
                                        "@tf.function(input_signature=[tf.TensorSpec([], "
                                        "tf.int32)])\ndef train(steps):\n"
                                        "    loss = tf.constant(0.0)\n"
                                        "    for _ in tf.range(1):\n"
                                        "        loss = graph_step(W4, b4, X, Y)\n"
                                        "    return loss\n",
        "reduce_retracing: Python ints still retrace": "W4, b4 = make_model()\n\n"
                                                       "@tf.function(reduce_retracing=True)\n"
                                                       "def train(steps):\n"
                                                       "    loss = tf.constant(0.0)\n"
                                                       "    for _ in tf.range(steps):\n"
                                                       "        loss = graph_step(W4, b4, X, Y)\n"
                                                       "    return loss\n",
    }, "right": {
        "input_signature": "W4, b4 = make_model()\n\n"
                           "@tf.function(input_signature=[tf.TensorSpec([], tf.int32)])\n"
                           "def train(steps):\n    loss = tf.constant(0.0)\n"
                           "    for _ in range(steps):\n        loss = graph_step(W4, b4, X, Y)\n"
                           "    return loss\n",
        "while loop, int64 steps, step inlined": "W4, b4 = make_model()\n\n"
                                                 "@tf.function(input_signature=(tf.TensorSpec("
                                                 "shape=(), dtype=tf.int64),))\n"
                                                 "def train(steps):\n    i = tf.constant(0, "
                                                 "tf.int64)\n    loss = tf.constant(0.0)\n"
                                                 "    while i < steps:\n"
                                                 "        loss = train_step(W4, b4, X, Y)\n"
                                                 "        i += 1\n    return loss\n",
    }},
}
