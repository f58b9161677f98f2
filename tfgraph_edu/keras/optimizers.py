"""``tf.keras.optimizers``: SGD (with momentum) and Adam (layer 10)."""

from __future__ import annotations

from ..eager.context import init_scope, name_scope
from ..eager.variables import Variable
from ..ops import creation_ops, math_ops


class Optimizer:
    name = "optimizer"

    def __init__(self, learning_rate):
        self.learning_rate = float(learning_rate)
        self._slots: dict = {}
        self.iterations = None

    def _slot(self, var, name):
        key = (var.ref(), name)
        slot = self._slots.get(key)
        if slot is None:
            with init_scope():
                slot = Variable(creation_ops.zeros(var.shape.as_list(), var.dtype),
                                trainable=False, name=f"{name}")
            self._slots[key] = slot
        return slot

    def _step(self):
        if self.iterations is None:
            with init_scope():
                self.iterations = Variable(0, trainable=False, name="iterations")
        self.iterations.assign_add(1)
        return self.iterations.read_value()

    def apply_gradients(self, grads_and_vars):
        pairs = [(g, v) for g, v in grads_and_vars if g is not None]
        t = self._step()
        with name_scope(self.name):  # in a graph, the updates sit in a scope of its name
            for g, v in pairs:
                self._apply(g, v, t)
        return t

    def minimize(self, loss_fn, var_list, tape=None):
        from ..eager.tape import GradientTape
        with GradientTape() as tape:
            loss = loss_fn()
        grads = tape.gradient(loss, list(var_list))
        return self.apply_gradients(zip(grads, var_list))


class SGD(Optimizer):
    name = "sgd"

    def __init__(self, learning_rate=0.01, momentum=0.0):
        super().__init__(learning_rate)
        self.momentum = float(momentum)

    def _apply(self, g, v, t):
        if self.momentum:
            m = self._slot(v, "momentum")
            m.assign(m * self.momentum - self.learning_rate * g)
            v.assign_add(m)
        else:
            v.assign_sub(self.learning_rate * g)


class Adam(Optimizer):
    name = "adam"

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7):
        super().__init__(learning_rate)
        self.beta_1, self.beta_2, self.epsilon = float(beta_1), float(beta_2), float(epsilon)

    def _apply(self, g, v, t):
        m, s = self._slot(v, "m"), self._slot(v, "v")
        m.assign(self.beta_1 * m + (1.0 - self.beta_1) * g)
        s.assign(self.beta_2 * s + (1.0 - self.beta_2) * math_ops.square(g))
        tf_t = math_ops.cast(t, v.dtype)
        lr = self.learning_rate * math_ops.sqrt(1.0 - math_ops.pow(
            math_ops.cast(self.beta_2, v.dtype), tf_t)) / (1.0 - math_ops.pow(
                math_ops.cast(self.beta_1, v.dtype), tf_t))
        v.assign_sub(lr * m / (math_ops.sqrt(s) + self.epsilon))


def get(optimizer):
    if isinstance(optimizer, str):
        return {"sgd": SGD, "adam": Adam}[optimizer.lower()]()
    return optimizer
