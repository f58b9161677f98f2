"""Keras 3's object model and errors as TF 2.21 ships them.

Every expectation here was recorded once from TF 2.21 (Keras 3.x) running the same code
(the summaries: the files in ``recorded/``, printed by TF from the scripts below).
"""

from pathlib import Path

import numpy as np
import pytest

import tfgraph_edu as tf

RECORDED = Path(__file__).parent / "recorded"
K = tf.keras


@pytest.fixture(autouse=True)
def _fresh_names():
    tf.keras.backend.clear_session()  # layer names count from zero, as in a new process


# -- layers are not tf.Modules, yet track their weights ---------------------------------------

def test_a_layer_is_not_a_tf_module_but_tracks_its_weights(tmp_path):
    assert not issubclass(K.layers.Layer, tf.Module)
    assert not isinstance(K.Sequential(), tf.Module)
    d = K.layers.Dense(3)
    d.build((None, 2))
    assert [w.name for w in d.weights] == ["kernel", "bias"]
    assert [w.path for w in d.weights] == ["dense/kernel", "dense/bias"]
    for attr in ("variables", "weights", "trainable_variables", "trainable_weights",
                 "non_trainable_weights", "non_trainable_variables"):
        assert type(getattr(d, attr)) is list, attr
    assert not hasattr(d, "submodules")
    assert type(d.kernel).__name__ == "Variable"
    # a tf.Module does not look inside a Keras layer (TF 2.21: no variables)
    m = tf.Module()
    m.layer = d
    assert len(m.variables) == 0 and len(m.trainable_variables) == 0
    # but checkpoints still reach the layer's weights
    d.kernel.assign(np.full((2, 3), 2.0, np.float32))
    path = tf.train.Checkpoint(model=d).save(str(tmp_path / "c"))
    d.kernel.assign(np.zeros((2, 3), np.float32))
    tf.train.Checkpoint(model=d).restore(path)
    np.testing.assert_array_equal(d.kernel.numpy(), np.full((2, 3), 2.0))


def test_weight_repr_and_str():
    d = K.layers.Dense(3, kernel_initializer="ones")
    d.build((None, 2))
    assert repr(d.kernel) == ("<Variable path=dense/kernel, shape=(2, 3), dtype=float32, "
                              "value=[[1. 1. 1.]\n [1. 1. 1.]]>")
    assert str(d.bias) == "<Variable path=dense/bias, shape=(3,), dtype=float32, value=[0. 0. 0.]>"
    assert repr(d.weights) == (
        "[<Variable path=dense/kernel, shape=(2, 3), dtype=float32, value=[[1. 1. 1.]\n"
        " [1. 1. 1.]]>, <Variable path=dense/bias, shape=(3,), dtype=float32, "
        "value=[0. 0. 0.]>]")
    v = K.Variable(np.ones((2,), "float32"), name="foo")
    assert (repr(v), v.name, v.path) == (
        "<Variable path=foo, shape=(2,), dtype=float32, value=[1. 1.]>", "foo", "foo")


def test_a_weights_dtype_is_its_name():
    d = K.layers.Dense(2)
    d.build((None, 3))
    k = d.kernel
    assert (repr(k.dtype), str(k.dtype)) == ("'float32'", "float32")
    assert k.dtype == tf.float32 and tf.float32 == k.dtype and k.dtype == "float32"
    assert tf.constant(1.0).dtype == "float32"
    assert (repr(tf.convert_to_tensor(k).dtype), repr((k + 1).dtype),
            repr(tf.cast(k, tf.float16).dtype)) == ("tf.float32", "tf.float32", "tf.float16")
    assert (d.dtype, repr(d.dtype)) == ("float32", "'float32'")


def test_weight_paths_follow_the_layers_that_made_them():
    inp = K.Input((4,))
    x = K.layers.Dense(3)(inp)
    f = K.Model(inp, K.layers.Dense(1)(x))
    assert f.name == "functional"
    assert [w.path for w in f.weights] == ["dense/kernel", "dense/bias", "dense_1/kernel",
                                           "dense_1/bias"]
    s = K.Sequential([K.layers.Dense(2), K.layers.Dense(1)])
    s(np.ones((1, 3)))
    assert [w.path for w in s.weights] == [
        "sequential/dense_2/kernel", "sequential/dense_2/bias", "sequential/dense_3/kernel",
        "sequential/dense_3/bias"]
    s2 = K.Sequential([K.layers.Dense(2)])
    s2.build((None, 5))
    assert [w.path for w in s2.weights] == ["sequential_1/dense_4/kernel",
                                            "sequential_1/dense_4/bias"]
    with pytest.warns(UserWarning, match="Do not pass an `input_shape`/`input_dim` argument "
                      "to a layer. When using Sequential models, prefer using an "
                      "`Input\\(shape\\)` object as the first layer in the model instead."):
        s3 = K.Sequential([K.layers.Dense(2, input_shape=(3,))])
    assert [w.path for w in s3.weights] == ["sequential_2/dense_5/kernel",
                                            "sequential_2/dense_5/bias"]
    s4 = K.Sequential([K.Input((28, 28, 1)), K.layers.Conv2D(4, 3),
                       K.layers.BatchNormalization(), K.layers.MaxPooling2D(),
                       K.layers.Flatten(), K.layers.Dropout(0.1), K.layers.Dense(2)])
    assert [(w.path, w.trainable) for w in s4.weights] == [
        ("sequential_3/conv2d/kernel", True), ("sequential_3/conv2d/bias", True),
        ("sequential_3/batch_normalization/gamma", True),
        ("sequential_3/batch_normalization/beta", True),
        ("sequential_3/batch_normalization/moving_mean", False),
        ("sequential_3/batch_normalization/moving_variance", False),
        ("sequential_3/dense_6/kernel", True), ("sequential_3/dense_6/bias", True)]
    r = K.Sequential([K.Input((5, 2)), K.layers.LSTM(3)])
    assert [w.path for w in r.weights] == ["sequential_4/lstm/lstm_cell/kernel",
                                           "sequential_4/lstm/lstm_cell/recurrent_kernel",
                                           "sequential_4/lstm/lstm_cell/bias"]
    assert [w.name for w in r.weights] == ["kernel", "recurrent_kernel", "bias"]


def test_what_a_layer_tracks_and_in_which_order():
    class C(K.layers.Layer):
        def __init__(self):
            super().__init__()
            self.d1 = K.layers.Dense(2)
            self.blocks = [K.layers.Dense(1), {"z": K.layers.Dense(1)}]
            self.mod = tf.Module()
            self.mod.v = tf.Variable(1.0)  # a tf.Module on a layer: not tracked
            self.raw = tf.Variable(3.0)  # a raw tf.Variable: not tracked either

        def build(self, shape):
            self.n = self.add_weight(shape=(1,), name="n", trainable=False)
            self.w = self.add_weight(shape=(1,), name="w")

        def call(self, x):
            return self.blocks[1]["z"](self.blocks[0](self.d1(x))) * self.w * self.raw

    c = C()
    c(np.ones((1, 3), "float32"))
    assert [w.path for w in c.weights] == [
        "c/w", "c/n", "c/dense/kernel", "c/dense/bias", "c/dense_1/kernel", "c/dense_1/bias",
        "c/dense_2/kernel", "c/dense_2/bias"]
    assert [w.path for w in c.non_trainable_weights] == ["c/n"]
    with tf.GradientTape() as tape:
        y = c(tf.ones((1, 3)))
    assert len(tape.gradient(y, c.trainable_variables)) == 7


def test_add_weight_takes_the_shape_first_and_defaults_to_glorot():
    class Custom(K.layers.Layer):
        def build(self, shape):
            self.w = self.add_weight(shape=(shape[-1], 2))
            self.z = self.add_weight(shape=(2,), initializer="zeros", name="z")

    c = Custom()
    c.build((None, 3))
    assert [(w.name, w.path) for w in c.weights] == [("variable", "custom/variable"),
                                                     ("z", "custom/z")]
    assert np.abs(c.w.numpy()).max() > 0  # glorot_uniform, not zeros


# -- removed Keras 2 APIs ----------------------------------------------------------------------

def test_keras2_names_gone_in_keras3():
    for name in ("mean_squared_error", "mean_absolute_error"):
        assert not hasattr(K.losses, name)
        with pytest.raises(AttributeError, match=name):
            getattr(K.losses, name)
    assert K.losses.mse.__name__ == "mean_squared_error"
    for name in ("mse", "mae", "MeanSquaredError", "SparseCategoricalCrossentropy"):
        assert hasattr(K.losses, name)
    assert not hasattr(K.metrics, "mean_squared_error")
    assert not hasattr(K.metrics, "accuracy")
    assert not hasattr(K.optimizers.Adam(), "minimize")
    for name in ("function", "placeholder", "learning_phase", "set_learning_phase",
                 "get_session"):
        assert not hasattr(K.backend, name)
    m = K.Sequential([K.Input((2,)), K.layers.Dense(1)])
    for name in ("fit_generator", "evaluate_generator", "predict_generator", "to_yaml",
                 "add_update", "updates", "submodules", "name_scope", "_flatten"):
        assert not hasattr(m, name), name
    for name in ("predict_on_batch", "train_on_batch", "test_on_batch"):
        assert hasattr(m, name)


# -- compile, fit, optimizers ------------------------------------------------------------------

def test_fit_and_evaluate_before_compile():
    m = K.Sequential([K.Input((2,)), K.layers.Dense(1)])
    x, y = np.zeros((4, 2)), np.zeros((4, 1))
    for call in (lambda: m.fit(x, y, verbose=0), lambda: m.evaluate(x, y, verbose=0),
                 lambda: m.train_on_batch(x, y), lambda: m.test_on_batch(x, y)):
        with pytest.raises(ValueError) as e:
            call()
        assert str(e.value) == "You must call `compile()` before using the model."
    assert m.predict(x, verbose=0).shape == (4, 1)
    m.compile(optimizer="adam")
    with pytest.raises(ValueError) as e:
        m.fit(x, y, verbose=0)
    assert str(e.value) == "No loss to compute. Provide a `loss` argument in `compile()`."


def test_optimizer_variables_as_keras3_lists_them():
    a, b = K.optimizers.Adam(), K.optimizers.Adam()
    assert (a.name, b.name, K.optimizers.SGD().name, K.optimizers.SGD(name="x").name) == (
        "adam", "adam_1", "sgd", "x")
    assert type(a.variables) is list and len(a.variables) == 2
    assert repr(a.learning_rate) == ("<Variable path=adam/learning_rate, shape=(), "
                                     "dtype=float32, value=0.0010000000474974513>")
    assert repr(a.iterations) == "<Variable path=adam/iteration, shape=(), dtype=int64, value=0>"
    a.learning_rate = 0.5
    assert a.learning_rate.numpy() == 0.5
    assert (a.iterations.name, a.iterations.trainable, a.learning_rate.trainable) == (
        "iteration", False, False)
    v = tf.Variable([1.0, 2.0])
    a.apply_gradients([(tf.ones(2), v)])
    assert [x.path for x in a.variables] == ["adam/iteration", "adam/learning_rate",
                                             "adam/Variable_0_momentum",
                                             "adam/Variable_0_velocity"]
    assert a.iterations.numpy() == 1
    w = K.Variable([1.0, 2.0], name="w")
    b.apply_gradients([(tf.ones(2), w)])
    assert [x.path for x in b.variables] == ["adam_1/iteration", "adam_1/learning_rate",
                                             "adam_1/w_momentum", "adam_1/w_velocity"]
    s = K.optimizers.SGD(momentum=0.9)
    d = K.layers.Dense(1)
    d.build((None, 2))
    s.apply_gradients(zip([tf.ones((2, 1)), tf.ones((1,))], d.trainable_variables))
    assert [x.path for x in s.variables] == ["sgd_1/iteration", "sgd_1/learning_rate",
                                             "sgd_1/dense_kernel_momentum",
                                             "sgd_1/dense_bias_momentum"]
    assert repr(s.variables[2]) == ("<Variable path=sgd_1/dense_kernel_momentum, shape=(2, 1), "
                                    "dtype=float32, value=[[-0.01]\n [-0.01]]>")


def test_fit_names_the_optimizer_slots_after_the_weight_paths():
    m = K.Sequential([K.Input((2,)), K.layers.Dense(3, name="dense")])
    opt = K.optimizers.Adam()
    m.compile(optimizer=opt, loss="mse")
    m.fit(np.zeros((4, 2)), np.zeros((4, 3)), verbose=0)
    assert [v.path for v in opt.variables] == [
        "adam/iteration", "adam/learning_rate", "adam/sequential_dense_kernel_momentum",
        "adam/sequential_dense_kernel_velocity", "adam/sequential_dense_bias_momentum",
        "adam/sequential_dense_bias_velocity"]


# -- errors around call ------------------------------------------------------------------------

def _message(fn):
    with pytest.raises(Exception) as e:
        fn()
    return type(e.value).__name__, str(e.value)


T13 = "<tf.Tensor: shape=(1, 3), dtype=float32, numpy=array([[1., 1., 1.]], dtype=float32)>"


def test_inputs_a_layer_refuses():
    d = K.layers.Dense(3)
    d.build((None, 2))
    assert _message(lambda: d([np.zeros((1, 2)), np.zeros((1, 2))])) == (
        "ValueError", 'Layer "dense" expects 1 input(s), but it received 2 input tensors. '
        "Inputs received: [<tf.Tensor: shape=(1, 2), dtype=float32, numpy=array([[0., 0.]], "
        "dtype=float32)>, <tf.Tensor: shape=(1, 2), dtype=float32, numpy=array([[0., 0.]], "
        "dtype=float32)>]")
    d2 = K.layers.Dense(2)
    d2(tf.ones((1, 3)))
    assert _message(lambda: d2((tf.ones((1, 3)), tf.ones((1, 3))))) == (
        "ValueError", f'Layer "dense_1" expects 1 input(s), but it received 2 input tensors. '
        f"Inputs received: [{T13}, {T13}]")
    assert _message(lambda: d2(tf.ones((1, 4)))) == (
        "ValueError", "Input 0 with name 'None' of layer 'dense_1' is incompatible with the "
        "layer: expected axis -1 of input shape to have value 3, but received input with "
        "shape (1, 4)")
    assert _message(lambda: K.layers.Dense(2)(tf.ones((3,)))) == (
        "ValueError", "Input 0 with name 'None' of layer 'dense_2' is incompatible with the "
        "layer: expected min_ndim=2, found ndim=1. Full shape received: (3,)")
    inp = K.Input((4,))
    kt = ("<KerasTensor shape=(None, 4), dtype=float32, sparse=False, ragged=False, "
          "name=keras_tensor>")
    assert _message(lambda: K.layers.Dense(2)([inp, inp])) == (
        "ValueError", f'Layer "dense_3" expects 1 input(s), but it received 2 input tensors. '
        f"Inputs received: [{kt}, {kt}]")
    assert _message(lambda: K.layers.Conv2D(2, 3)(tf.ones((1, 5, 5)))) == (
        "ValueError", "Input 0 with name 'None' of layer 'conv2d' is incompatible with the "
        "layer: expected min_ndim=4, found ndim=3. Full shape received: (1, 5, 5)")
    c = K.layers.Conv2D(2, 3)
    c(tf.ones((1, 5, 5, 1)))
    assert _message(lambda: c(tf.ones((1, 5, 5, 2)))) == (
        "ValueError", "Input 0 with name 'None' of layer 'conv2d_1' is incompatible with the "
        "layer: expected axis -1 of input shape to have value 1, but received input with "
        "shape (1, 5, 5, 2)")
    assert _message(lambda: K.layers.MaxPooling2D()(tf.ones((1, 5, 5)))) == (
        "ValueError", "Input 0 with name 'None' of layer 'max_pooling2d' is incompatible "
        "with the layer: expected ndim=4, found ndim=3. Full shape received: (1, 5, 5)")
    assert _message(lambda: K.layers.Flatten()(tf.ones(()))) == (
        "ValueError", "Input 0 with name 'None' of layer 'flatten' is incompatible with the "
        "layer: expected min_ndim=1, found ndim=0. Full shape received: ()")
    b = K.layers.BatchNormalization()
    b(tf.ones((2, 3)))
    assert _message(lambda: b(tf.ones((2, 3, 1)))) == (
        "ValueError", "Input 0 with name 'None' of layer 'batch_normalization' is "
        "incompatible with the layer: expected ndim=2, found ndim=3. Full shape received: "
        "(2, 3, 1)")
    f = K.Model(inp, K.layers.Dense(1)(inp))
    assert _message(lambda: f([tf.ones((1, 4)), tf.ones((1, 4))])) == (
        "ValueError", "Layer \"functional\" expects 1 named input(s) with keys ['input_layer'], "
        "but it received 2 input tensors. Pass inputs as a dict, e.g. "
        "`layer({'input_layer': ...})`.")
    # a list through a layer without an input spec: Dropout passes it on unchanged
    out = K.layers.Dropout(0.5)([tf.ones((1,)), tf.ones((1,))])
    assert isinstance(out, list) and len(out) == 2


class _Boom(K.layers.Layer):
    def call(self, x, training=None):
        raise ValueError("boom")


def test_an_error_in_call_gets_keras3_context():
    kind, text = _message(lambda: _Boom()(np.zeros((1, 2))))
    assert (kind, text) == (
        "ValueError", "Exception encountered when calling _Boom.call().\n\n\x1b[1mboom\x1b[0m"
        "\n\nArguments received by _Boom.call():\n  • x=tf.Tensor(shape=(1, 2), "
        "dtype=float32)\n  • training=None")
    with pytest.raises(ValueError) as e:
        _Boom()(np.zeros((1, 2)))
    assert e.value.__suppress_context__ and e.value.__cause__ is None

    class Outer(K.layers.Layer):  # only the innermost layer adds its context
        def __init__(self):
            super().__init__()
            self.inner = _Boom()

        def call(self, x):
            return self.inner(x)

    assert _message(lambda: Outer()([tf.ones((1,)), tf.ones((1,))]))[1] == (
        "Exception encountered when calling _Boom.call().\n\n\x1b[1mboom\x1b[0m\n\n"
        "Arguments received by _Boom.call():\n  • x=['tf.Tensor(shape=(1,), dtype=float32)', "
        "'tf.Tensor(shape=(1,), dtype=float32)']\n  • training=None")

    class M(K.Model):
        def call(self, x):
            raise KeyError("k")

    assert _message(lambda: M()(tf.ones((1, 2)))) == (
        "KeyError", "'Exception encountered when calling M.call().\\n\\n\\x1b[1mk\\x1b[0m\\n\\n"
        "Arguments received by M.call():\\n  • x=tf.Tensor(shape=(1, 2), dtype=float32)'")

    class S(K.layers.Layer):
        def call(self, x, y=None, scale=1.0, flag="a"):
            raise RuntimeError()

    assert _message(lambda: S()(np.ones((2, 2)), tf.ones((3,)), scale=np.ones(2),
                                flag="zz")) == (
        "RuntimeError", "Exception encountered when calling S.call().\n\n\x1b[1m\x1b[0m\n\n"
        "Arguments received by S.call():\n  • x=tf.Tensor(shape=(2, 2), dtype=float32)\n"
        "  • y=tf.Tensor(shape=(3,), dtype=float32)\n  • scale=tf.Tensor(shape=(2,), "
        "dtype=float32)\n  • flag='zz'")

    class L2(K.layers.Layer):
        def call(self, a, b=3, *args, mask=None, **kw):
            raise TypeError("bad")

    assert _message(lambda: L2()(tf.ones((1, 2)), 5, extra="s")) == (
        "ValueError", "Only input tensors may be passed as positional arguments. The "
        "following argument value should be passed as a keyword argument: 5 (of type "
        "<class 'int'>)")
    assert _message(lambda: K.layers.Reshape((1,))([tf.ones((1,)), tf.ones((1,))])) == (
        "AttributeError", "Exception encountered when calling Reshape.call().\n\n\x1b[1m'list' "
        "object has no attribute 'shape'\x1b[0m\n\nArguments received by Reshape.call():\n"
        "  • inputs=['tf.Tensor(shape=(1,), dtype=float32)', 'tf.Tensor(shape=(1,), "
        "dtype=float32)']")


def test_sequential_and_symbolic_call_errors():
    assert _message(lambda: K.Sequential([K.layers.Dense(2)])(
        [tf.ones((1, 3)), tf.ones((1, 3))])) == (
        "ValueError", "Exception encountered when calling Sequential.call().\n\n\x1b[1mLayer "
        f'"dense" expects 1 input(s), but it received 2 input tensors. Inputs received: '
        f"[{T13}, {T13}]\x1b[0m\n\nArguments received by Sequential.call():\n  • inputs="
        "['tf.Tensor(shape=(1, 3), dtype=float32)', 'tf.Tensor(shape=(1, 3), dtype=float32)']"
        "\n  • training=None\n  • mask=['None', 'None']\n  • kwargs=<class 'inspect._empty'>")
    assert _message(lambda: _Boom()(K.Input((4,)))) == (
        "ValueError", "Exception encountered when calling _Boom.call().\n\n\x1b[1mCould not "
        "automatically infer the output shape / dtype of '__boom' (of type _Boom). Either the "
        "`_Boom.call()` method is incorrect, or you need to implement the "
        "`_Boom.compute_output_spec() / compute_output_shape()` method. Error encountered:\n\n"
        "boom\x1b[0m\n\nArguments received by _Boom.call():\n  • args=('<KerasTensor "
        "shape=(None, 4), dtype=float32, sparse=False, ragged=False, name=keras_tensor>',)\n"
        "  • kwargs=<class 'inspect._empty'>")


# -- summary() ---------------------------------------------------------------------------------

def _printed(capsys, script):
    capsys.readouterr()
    script()
    return "\n".join(line for line in capsys.readouterr().out.splitlines()
                     if not line.startswith("Currently")) + "\n"


def test_summaries_as_keras3_prints_them(capsys):
    def script():
        s = K.Sequential([K.Input((28, 28, 1)), K.layers.Conv2D(4, 3, activation="relu"),
                          K.layers.BatchNormalization(), K.layers.MaxPooling2D(),
                          K.layers.Flatten(), K.layers.Dropout(0.1), K.layers.Dense(10)])
        s.summary()
        inp = K.Input((4,), name="feats")
        x = K.layers.Dense(3, activation="relu")(inp)
        K.Model(inp, K.layers.Dense(1)(x)).summary()
        u = K.Sequential([K.layers.Dense(2), K.layers.Dense(1)])
        u.summary()
        u(np.ones((2, 5), "float32"))
        u.summary()

        class MyModel(K.Model):
            def __init__(self):
                super().__init__()
                self.a = K.layers.Dense(7)
                self.b = K.layers.Dense(1)

            def call(self, x):
                return self.b(self.a(x))

        mo = MyModel()
        mo(np.ones((1, 3), "float32"))
        mo.summary()
        K.Sequential([K.Input((5, 2)), K.layers.LSTM(3)]).summary()

    assert _printed(capsys, script) == (RECORDED / "tf221_summaries.txt").read_text()


def test_summaries_of_layers_built_eagerly(capsys):
    class Custom(K.layers.Layer):
        def build(self, shape):
            self.w = self.add_weight(shape=(shape[-1], 2), name="w")

        def call(self, x):
            return x @ self.w

    class MyModel(K.Model):
        def __init__(self):
            super().__init__()
            self.a = Custom()
            self.b = K.layers.Dense(1)

        def call(self, x):
            return self.b(self.a(x))

    def script():
        inp = K.Input((4,))
        print(K.Model(inp, K.layers.Dense(1)(inp)).name)
        mo = MyModel()
        mo(np.ones((1, 3), "float32"))
        mo(np.ones((5, 3), "float32"))
        mo.summary()
        print([w.path for w in mo.weights])
        s = K.Sequential([Custom(), K.layers.Dense(1)])
        s(np.ones((2, 3), "float32"))
        s.summary()
        K.Sequential([K.Input((3,)), Custom(), K.layers.Dense(1)]).summary()

    assert _printed(capsys, script) == (RECORDED / "tf221_summaries_eager_built.txt").read_text()


def test_summary_after_fit_counts_the_optimizer(capsys):
    class EagerLayer(K.layers.Layer):
        def call(self, inputs):
            print("Currently running eagerly", type(inputs).__name__)
            return inputs

    rng = np.random.default_rng(0)
    x = rng.random((64, 4, 4)).astype("float32")
    y = rng.integers(0, 10, 64)

    def script():
        for run_eagerly in (True, False):
            model = K.Sequential([K.layers.Flatten(), EagerLayer(), K.layers.Dense(10)])
            model.compile(optimizer="sgd", loss="sparse_categorical_crossentropy",
                          run_eagerly=run_eagerly)
            model.fit(x, y, epochs=2, batch_size=32, verbose=0)
            print("---")
            model.summary()

    assert _printed(capsys, script) == (RECORDED / "tf221_summaries_after_fit.txt").read_text()


# -- weights as NumPy, layers by name, shapes of models ----------------------------------------

def test_get_and_set_weights_and_the_variable_underneath():
    d = K.layers.Dense(2, kernel_initializer="ones")
    d.build((None, 3))
    assert repr(d.kernel.value) == ("<tf.Variable 'dense/kernel:0' shape=(3, 2) dtype=float32, "
                                    "numpy=\narray([[1., 1.],\n       [1., 1.],\n       [1., 1.]"
                                    "], dtype=float32)>")
    assert _message(lambda: d.set_weights([np.zeros((2,))])) == (
        "ValueError", "You called `set_weights(weights)` on layer 'dense' with a weight list "
        "of length 1, but the layer was expecting 2 weights.")
    assert _message(lambda: d.set_weights([np.zeros((2, 2)), np.ones(2)])) == (
        "ValueError", "Layer dense weight shape (3, 2) is not compatible with provided weight "
        "shape (2, 2).")
    d.set_weights([np.zeros((3, 2)), np.ones(2)])
    w = d.get_weights()
    assert [a.dtype.name for a in w] == ["float32", "float32"]
    np.testing.assert_array_equal(w[0], np.zeros((3, 2)))
    np.testing.assert_array_equal(w[1], np.ones(2))


def test_model_inputs_shapes_and_get_layer():
    inp = K.Input((4,))
    f = K.Model(inp, K.layers.Dense(1, name="out")(inp))
    assert repr(f.inputs) == ("[<KerasTensor shape=(None, 4), dtype=float32, sparse=False, "
                              "ragged=False, name=keras_tensor>]")
    assert (f.input_shape, f.output_shape) == ((None, 4), (None, 1))
    assert f.get_layer("out").name == "out" and f.get_layer(index=1).name == "out"
    assert _message(lambda: f.get_layer("nope")) == (
        "ValueError", "No such layer: nope. Existing layers are: ['input_layer', 'out'].")
    assert _message(lambda: f.get_layer()) == (
        "ValueError", "Provide either a layer name or layer index at `get_layer`.")
    assert _message(lambda: f.get_layer(index=5)) == (
        "ValueError", "Was asked to retrieve layer at index 5 but model only has 2 layers.")
    s = K.Sequential([K.layers.Dense(2)])
    assert _message(lambda: s.inputs) == (
        "AttributeError", "Sequential model 'sequential' has no defined inputs yet.")
    assert _message(lambda: s.input_shape) == (
        "AttributeError", "Sequential model 'sequential' has no defined input shape yet.")
    s2 = K.Sequential([K.Input((3,)), K.layers.Dense(2)])
    assert (s2.input_shape, s2.output_shape) == ((None, 3), (None, 2))
    assert len(s2.inputs) == 1 and len(s2.outputs) == 1

    class M(K.Model):
        def call(self, x):
            return x

    assert _message(lambda: M().inputs) == ("AttributeError",
                                            "'M' object has no attribute 'inputs'")
    assert M().get_weights() == []


# -- checkpoint keys ---------------------------------------------------------------------------

def _model_keys(obj, folder):
    path = tf.train.Checkpoint(model=obj).save(str(folder / "c"))
    return [k.split("/.ATTRIBUTES")[0] for k, _ in tf.train.list_variables(path)
            if k.startswith("model")]


def test_checkpoint_keys_of_keras_objects(tmp_path):
    inp = K.Input((4, 4, 1))
    x = K.layers.Conv2D(2, 3)(inp)
    x = K.layers.BatchNormalization()(x)
    x = K.layers.Flatten()(x)
    f = K.Model(inp, K.layers.Dense(1)(x))
    assert _model_keys(f, tmp_path / "f") == [
        "model/_operations/1/_kernel", "model/_operations/1/bias", "model/_operations/2/beta",
        "model/_operations/2/gamma", "model/_operations/2/moving_mean",
        "model/_operations/2/moving_variance", "model/_operations/4/_kernel",
        "model/_operations/4/bias"]
    s = K.Sequential([K.layers.Dense(2), K.layers.Dense(1)])
    assert _model_keys(s, tmp_path / "s0") == []
    s(np.ones((1, 3), "float32"))
    assert _model_keys(s, tmp_path / "s1") == [
        "model/_functional/_operations/1/_kernel", "model/_functional/_operations/1/bias",
        "model/_functional/_operations/2/_kernel", "model/_functional/_operations/2/bias"]
    r = K.Sequential([K.Input((5, 2)), K.layers.LSTM(3)])
    assert _model_keys(r, tmp_path / "r") == [
        "model/_functional/_operations/1/cell/bias", "model/_functional/_operations/1/cell/kernel",
        "model/_functional/_operations/1/cell/recurrent_kernel"]

    class Net(K.Model):
        def __init__(self):
            super().__init__()
            self.l1 = K.layers.Dense(5)

        def call(self, x):
            return self.l1(x)

    net = Net()
    opt = K.optimizers.Adam(0.1)
    with tf.GradientTape() as t:
        loss = tf.reduce_sum(net(tf.ones((1, 1))))
    opt.apply_gradients(zip(t.gradient(loss, net.trainable_variables), net.trainable_variables))
    path = tf.train.Checkpoint(step=tf.Variable(1), optimizer=opt, net=net).save(
        str(tmp_path / "n" / "c"))
    assert tf.train.list_variables(path) == [
        ("_CHECKPOINTABLE_OBJECT_GRAPH", []), ("net/l1/_kernel/.ATTRIBUTES/VARIABLE_VALUE", [1, 5]),
        ("net/l1/bias/.ATTRIBUTES/VARIABLE_VALUE", [5]),
        ("optimizer/_iterations/.ATTRIBUTES/VARIABLE_VALUE", []),
        ("optimizer/_learning_rate/.ATTRIBUTES/VARIABLE_VALUE", []),
        ("optimizer/_variables/2/.ATTRIBUTES/VARIABLE_VALUE", [1, 5]),
        ("optimizer/_variables/3/.ATTRIBUTES/VARIABLE_VALUE", [1, 5]),
        ("optimizer/_variables/4/.ATTRIBUTES/VARIABLE_VALUE", [5]),
        ("optimizer/_variables/5/.ATTRIBUTES/VARIABLE_VALUE", [5]),
        ("save_counter/.ATTRIBUTES/VARIABLE_VALUE", []), ("step/.ATTRIBUTES/VARIABLE_VALUE", [])]



def test_metric_variables_and_loss_dtypes():
    m = K.metrics.Mean()
    m.update_state([1.0, 2.0])
    assert repr(m.variables) == ("[<Variable path=mean/total, shape=(), dtype=float32, "
                                 "value=3.0>, <Variable path=mean/count, shape=(), "
                                 "dtype=float32, value=2.0>]")
    a = K.metrics.SparseCategoricalAccuracy()
    assert [v.path for v in a.variables] == ["sparse_categorical_accuracy/total",
                                             "sparse_categorical_accuracy/count"]
    # a Loss object computes in float32 (NumPy float64 in); the function form keeps float64
    assert repr(K.losses.MeanSquaredError()(np.ones((2, 1)), np.zeros((2, 1)))) == (
        "<tf.Tensor: shape=(), dtype=float32, numpy=1.0>")
    assert repr(K.losses.mse(np.ones((2, 1)), np.zeros((2, 1)))) == (
        "<tf.Tensor: shape=(2,), dtype=float64, numpy=array([1., 1.])>")
    loss = K.losses.SparseCategoricalCrossentropy(from_logits=True)(
        np.array([0, 1]), np.array([[1.0, 2.0], [3.0, 1.0]]))
    assert loss.dtype == tf.float32
    np.testing.assert_allclose(loss.numpy(), 1.720094919204712, rtol=1e-6)


def test_an_orthogonal_weight_is_orthogonal():
    # Keras 3's Orthogonal: W W^T = I for a wide matrix, W^T W = I for a tall one
    cell = K.layers.LSTMCell(3)
    cell.build((None, 4))
    w = cell.recurrent_kernel.numpy()  # (3, 12): rows orthonormal
    np.testing.assert_allclose(w @ w.T, np.eye(3), atol=1e-5)

    class L(K.layers.Layer):
        def build(self, input_shape):
            self.w = self.add_weight(shape=(6, 2), initializer="orthogonal")
    tall = L()
    tall.build((None, 6))
    np.testing.assert_allclose(tall.w.numpy().T @ tall.w.numpy(), np.eye(2), atol=1e-5)
