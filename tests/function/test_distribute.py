"""tf.distribute on one CPU and tf.config's device calls.  Every expected value, repr and error
below was recorded by running the same code under real TensorFlow 2.21.0 on a CPU-only
machine (one replica)."""

from __future__ import annotations

import numpy as np
import pytest

import tfgraph_edu as tf


def test_the_default_strategy():
    s = tf.distribute.get_strategy()
    assert type(s).__name__ == "_DefaultDistributionStrategy"
    assert s.num_replicas_in_sync == 1
    assert tf.distribute.has_strategy() is False
    assert tf.distribute.in_cross_replica_context() is False
    assert type(tf.distribute.get_replica_context()).__name__ == "_DefaultReplicaContext"
    assert int(s.run(lambda x: x * 2, args=(tf.constant(3),))) == 6
    np.testing.assert_array_equal(
        s.reduce(tf.distribute.ReduceOp.SUM, tf.constant([1., 2.]), axis=None).numpy(), [1., 2.])
    assert float(s.reduce("SUM", tf.constant([1., 2.]), axis=0)) == 3.0
    assert repr(tf.distribute.ReduceOp.SUM) == "<ReduceOp.SUM: 'SUM'>"


def test_one_device_strategy():
    o = tf.distribute.OneDeviceStrategy("/cpu:0")
    assert o.num_replicas_in_sync == 1
    assert int(o.run(lambda x: x * 2, args=(tf.constant(3),))) == 6
    mean = o.reduce(tf.distribute.ReduceOp.MEAN, o.run(lambda: tf.constant([1., 2.])), axis=0)
    assert float(mean) == 1.5
    with o.scope():
        v = tf.Variable(1.0)
        assert tf.distribute.get_strategy() is o
        assert tf.distribute.has_strategy() is True
    assert type(v).__name__ == "ResourceVariable"
    assert repr(v) == "<tf.Variable 'Variable:0' shape=() dtype=float32, numpy=1.0>"
    assert tf.distribute.has_strategy() is False


def test_mirrored_strategy_on_the_cpu():
    m = tf.distribute.MirroredStrategy()
    assert m.num_replicas_in_sync == 1
    assert m.extended.worker_devices == ("/job:localhost/replica:0/task:0/device:CPU:0",)
    assert tf.distribute.MirroredStrategy(devices=["/cpu:0"]).num_replicas_in_sync == 1
    with m.scope():
        mv = tf.Variable(2.0)
    assert type(mv).__name__ == "MirroredVariable"
    assert repr(mv) == ("MirroredVariable:{\n  0: <tf.Variable 'Variable:0' shape=() "
                        "dtype=float32, numpy=2.0>\n}")
    assert float(mv + 1) == 3.0
    ds = tf.data.Dataset.from_tensor_slices([1., 2., 3., 4.]).batch(2)
    dd = m.experimental_distribute_dataset(ds)
    assert type(dd).__name__ == "DistributedDataset"
    b = next(iter(dd))
    np.testing.assert_array_equal(b.numpy(), [1., 2.])
    r = m.run(lambda x: x * mv, args=(b,))
    np.testing.assert_array_equal(r.numpy(), [2., 4.])
    assert float(m.reduce(tf.distribute.ReduceOp.SUM, r, axis=0)) == 6.0
    np.testing.assert_array_equal(m.reduce(tf.distribute.ReduceOp.MEAN, r, axis=None).numpy(),
                                  [2., 4.])
    local = m.experimental_local_results(tf.constant(1.))
    assert isinstance(local, tuple) and len(local) == 1 and float(local[0]) == 1.0

    @tf.function
    def step(x):
        def fn(x):
            ctx = tf.distribute.get_replica_context()
            if tf.reduce_sum(x) > 0:  # converted by AutoGraph, as TF converts run's function
                x = x * 2
            return x + tf.cast(ctx.replica_id_in_sync_group, tf.float32)
        return m.reduce("SUM", m.run(fn, args=(x,)), axis=0)
    assert float(step(tf.constant([1., 2.]))) == 6.0  # TF 2.21: 6.0

    @tf.function
    def total():
        s = tf.constant(0.)
        for batch in dd:  # a graph loop over the distributed dataset
            s += m.reduce("SUM", m.run(lambda x: x, args=(batch,)), axis=0)
        return s
    assert float(total()) == 10.0  # TF 2.21: 10.0


def test_what_one_machine_cannot_do_is_refused():
    with pytest.raises(NotImplementedError, match="MultiWorkerMirroredStrategy"):
        tf.distribute.MultiWorkerMirroredStrategy()
    with pytest.raises(NotImplementedError, match="TPUStrategy"):
        tf.distribute.TPUStrategy()
    with pytest.raises(NotImplementedError, match="ParameterServerStrategy"):
        tf.distribute.experimental.ParameterServerStrategy()
    with pytest.raises(NotImplementedError, match="one device, the CPU"):
        tf.distribute.MirroredStrategy(devices=["/gpu:0"])


def test_config_device_calls_as_on_a_cpu_only_machine():
    assert repr(tf.config.list_logical_devices()) == \
        "[LogicalDevice(name='/device:CPU:0', device_type='CPU')]"
    assert tf.config.list_logical_devices("GPU") == []
    cpu = tf.config.list_physical_devices("CPU")[0]
    assert repr(cpu) == "PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU')"
    with pytest.raises(ValueError, match="Cannot set memory growth on non-GPU and "
                                         "non-Pluggable devices"):
        tf.config.experimental.set_memory_growth(cpu, True)
    with pytest.raises(KeyError):
        tf.config.experimental.get_memory_growth(cpu)
    assert tf.config.experimental.get_memory_info("CPU:0") == {"current": 0, "peak": 0}
    with pytest.raises(ValueError, match="No matching devices found for 'GPU:0'"):
        tf.config.experimental.get_memory_info("GPU:0")
    assert tf.config.experimental.reset_memory_stats("CPU:0") is None
    assert tf.config.set_visible_devices([], "GPU") is None
    assert tf.config.get_visible_devices() == [cpu]
    assert tf.config.experimental.list_physical_devices("GPU") == []
    assert tf.config.experimental.get_device_details(cpu) == {}
    with pytest.raises(RuntimeError, match="Virtual devices cannot be modified after being "
                                           "initialized"):
        tf.config.set_logical_device_configuration(
            cpu, [tf.config.LogicalDeviceConfiguration(), tf.config.LogicalDeviceConfiguration()])
    assert tf.config.get_logical_device_configuration(cpu) is None
