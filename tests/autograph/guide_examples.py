"""The guides' AutoGraph examples, as learners write them (used by the golden tests)."""

import tfgraph_edu as tf


def simple_relu(x):
    if tf.greater(x, 0):
        return x
    else:
        return 0


def cube(x):
    o = x
    for _ in range(2):
        o *= x
    return o


def g(x):
    while tf.reduce_sum(x) > 1:
        tf.print(x)
        x = tf.tanh(x)
    return x


def sum_even(items):
    s = 0
    for c in items:
        if c % 2 > 0:
            continue
        s += c
    return s


def linear_layer(x):
    return 2 * x + 1


def deep_net(x):
    return tf.nn.relu(linear_layer(x))
