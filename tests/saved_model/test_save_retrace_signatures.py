"""Saving traces again, signatures and variable attributes of a loaded SavedModel.

Every expectation here was recorded once from TensorFlow 2.21's run of the same program
(the saved_model guide of tensorflow/docs and small variations of it)."""

import tfgraph_edu as tf


class _Module(tf.Module):
    def __init__(self):
        super().__init__()
        self.v = tf.Variable(1.)

    @tf.function
    def __call__(self, x):
        print("Tracing with", x)
        return x * self.v

    @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
    def mutate(self, new_v):
        print("mutate", new_v)
        self.v.assign(new_v)


def test_save_traces_each_signature_again_once(tmp_path, capsys):
    m = _Module()
    m(tf.constant(0.))
    assert capsys.readouterr().out == 'Tracing with Tensor("x:0", shape=(), dtype=float32)\n'
    tf.saved_model.save(m, str(tmp_path / "a"))
    # TF 2.21: the call's signature traced again, and the input_signature function traced
    # (alphabetical order of the attributes: __call__ before mutate)
    assert capsys.readouterr().out == ('Tracing with Tensor("x:0", shape=(), dtype=float32)\n'
                                       'mutate Tensor("new_v:0", shape=(), dtype=float32)\n')
    assert m.__call__.experimental_get_tracing_count() == 2  # TF: 2
    tf.saved_model.save(m, str(tmp_path / "b"))  # TF: a second save traces nothing
    assert capsys.readouterr().out == ""
    m(tf.constant(1.))  # TF: calls never use what saving traced, nor retrace here
    assert capsys.readouterr().out == ""
    m.mutate(tf.constant(2.))  # TF: traced again on its first call
    assert capsys.readouterr().out == 'mutate Tensor("new_v:0", shape=(), dtype=float32)\n'


def test_loaded_signatures_and_variables(tmp_path, capsys):
    m = _Module()
    call = m.__call__.get_concrete_function(tf.TensorSpec(None, tf.float32))
    tf.saved_model.save(m, str(tmp_path / "s"), signatures=call)
    # TF 2.21: traced by get_concrete_function, then again while saving
    assert capsys.readouterr().out.count('Tracing with Tensor("x:0", dtype=float32)') == 2
    loaded = tf.saved_model.load(str(tmp_path / "s"))
    assert list(loaded.signatures.keys()) == ["serving_default"]
    sig = loaded.signatures["serving_default"]
    # TF 2.21's structured_outputs and call result
    assert repr(sig.structured_outputs) == (
        "{'output_0': TensorSpec(shape=<unknown>, dtype=tf.float32, name='output_0')}")
    assert repr(sig.structured_input_signature) == (
        "((), {'x': TensorSpec(shape=<unknown>, dtype=tf.float32, name='x')})")
    out = sig(x=tf.constant([1., 2.]))
    assert list(out) == ["output_0"] and out["output_0"].numpy().tolist() == [1., 2.]
    assert float(loaded.v.numpy()) == 1.0  # TF: the module's variable, by attribute name
    no_sig = tf.saved_model.load(str(tmp_path / "s"))
    assert len(no_sig.signatures) == 1


def test_signature_dict_output_name_and_refused_function(tmp_path):
    class Named(tf.Module):
        def __init__(self):
            super().__init__()
            self.v = tf.Variable(1.)

        @tf.function(input_signature=[tf.TensorSpec(None, tf.float32)])
        def __call__(self, x):
            return {"custom_output_name": x * self.v}

    m = Named()
    tf.saved_model.save(m, str(tmp_path / "n"),
                        signatures={"serving_default": m.__call__.get_concrete_function()})
    loaded = tf.saved_model.load(str(tmp_path / "n"))
    assert repr(loaded.signatures["serving_default"].structured_outputs) == (  # TF 2.21
        "{'custom_output_name': TensorSpec(shape=<unknown>, dtype=tf.float32, "
        "name='custom_output_name')}")
    empty = _Module()
    empty(tf.constant(0.))
    tf.saved_model.save(empty, str(tmp_path / "e"))
    assert len(tf.saved_model.load(str(tmp_path / "e")).signatures) == 0  # TF: 0

    @tf.function
    def plain(x):
        return x
    try:  # TF 2.21: ValueError, "Only `tf.functions` with an input signature or concrete..."
        tf.saved_model.save(empty, str(tmp_path / "p"), signatures=plain)
    except ValueError as exc:
        assert "input signature or concrete functions" in str(exc)
    else:
        raise AssertionError("no error")
