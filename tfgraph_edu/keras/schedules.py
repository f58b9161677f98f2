"""``tf.keras.optimizers.schedules``: learning rates as functions of the optimizer's step
(layer 10).  An optimizer given one reads it at its ``iterations`` before each update (the
first update at step 0), as Keras 3 does; the arithmetic is Keras 3's, in the dtype of the
initial rate (float32 for a Python float)."""

from __future__ import annotations

import math

from ..eager.context import name_scope
from ..ops import convert, math_extra_ops, math_ops


class LearningRateSchedule:
    """Base class: a subclass computes the rate in ``__call__(step)``."""

    def __call__(self, step):
        raise NotImplementedError(f"Learning rate schedule '{type(self).__name__}' must "
                                  "override `__call__(self, step)`.")

    def get_config(self):
        raise NotImplementedError(f"Learning rate schedule '{type(self).__name__}' must "
                                  "override `get_config()` in order to be serializable.")

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def __repr__(self):  # Keras 3's module path, as TF 2.21 prints a schedule
        return (f"<keras.src.optimizers.schedules.learning_rate_schedule."
                f"{type(self).__name__} object at 0x{id(self):x}>")


def _positive_steps(decay_steps):
    if decay_steps <= 0:
        raise ValueError(f"Argument `decay_steps` must be > 0. Received: "
                         f"decay_steps={decay_steps}")


def _start(initial_learning_rate, step):
    """The initial rate as a tensor, and the step cast to its dtype."""
    lr0 = convert.to_tensor(initial_learning_rate)
    return lr0, math_ops.cast(step, lr0.dtype)


class _RatioDecay(LearningRateSchedule):
    """A decay driven by ``step / decay_steps`` (floored when ``staircase``) and a rate."""

    def __init__(self, initial_learning_rate, decay_steps, decay_rate, staircase=False,
                 name=None):
        self.initial_learning_rate, self.decay_steps = initial_learning_rate, decay_steps
        self.decay_rate, self.staircase = decay_rate, staircase
        self.name = type(self).__name__ if name is None else name
        _positive_steps(decay_steps)

    def __call__(self, step):
        with name_scope(self.name):
            lr0, step = _start(self.initial_learning_rate, step)
            p = step / math_ops.cast(self.decay_steps, lr0.dtype)
            if self.staircase:
                p = math_extra_ops.floor(p)
            return self._decayed(lr0, math_ops.cast(self.decay_rate, lr0.dtype), p)

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate,
                "decay_steps": self.decay_steps, "decay_rate": self.decay_rate,
                "staircase": self.staircase, "name": self.name}


class ExponentialDecay(_RatioDecay):
    """The rate times ``decay_rate`` to the power ``step / decay_steps`` (floored when
    ``staircase``)."""

    def _decayed(self, lr0, rate, p):
        return lr0 * math_ops.pow(rate, p)


class InverseTimeDecay(_RatioDecay):
    """The rate divided by ``1 + decay_rate * step / decay_steps`` (the quotient floored
    when ``staircase``)."""

    def _decayed(self, lr0, rate, p):
        return lr0 / (math_ops.cast(1, lr0.dtype) + rate * p)


class PiecewiseConstantDecay(LearningRateSchedule):
    """``values[0]`` up to and including step ``boundaries[0]``, ``values[1]`` up to
    ``boundaries[1]``, …, ``values[-1]`` after the last boundary."""

    def __init__(self, boundaries, values, name="PiecewiseConstant"):
        if len(boundaries) != len(values) - 1:
            raise ValueError(
                f"The length of boundaries should be 1 less than the length of values. "
                f"Received: boundaries={boundaries} of length {len(boundaries)}, and "
                f"values={values} of length {len(values)}.")
        self.boundaries, self.values, self.name = boundaries, values, name

    def __call__(self, step):
        with name_scope(self.name):
            step = convert.to_tensor(step)
            bounds = [math_ops.cast(convert.to_tensor(b), step.dtype) for b in self.boundaries]
            values = [convert.to_tensor(v) for v in self.values]
            dtype = values[0].dtype
            # the sum of each value times "the step is in its interval" (0 or 1)
            result = math_ops.cast(math_ops.less_equal(step, bounds[0]), dtype) * values[0]
            result = result + math_ops.cast(math_ops.greater(step, bounds[-1]),
                                            dtype) * values[-1]
            for low, high, value in zip(bounds[:-1], bounds[1:], values[1:-1]):
                inside = math_ops.logical_and(math_ops.greater(step, low),
                                              math_ops.less_equal(step, high))
                result = result + math_ops.cast(inside, dtype) * value
            return result

    def get_config(self):
        return {"boundaries": self.boundaries, "values": self.values, "name": self.name}


class PolynomialDecay(LearningRateSchedule):
    """From the initial rate to ``end_learning_rate`` along ``(1 - step / decay_steps) **
    power``; then constant, or, with ``cycle``, again over a multiple of ``decay_steps``."""

    def __init__(self, initial_learning_rate, decay_steps, end_learning_rate=0.0001,
                 power=1.0, cycle=False, name="PolynomialDecay"):
        self.initial_learning_rate, self.decay_steps = initial_learning_rate, decay_steps
        self.end_learning_rate, self.power, self.cycle = end_learning_rate, power, cycle
        self.name = name
        _positive_steps(decay_steps)

    def __call__(self, step):
        with name_scope(self.name):
            lr0, step = _start(self.initial_learning_rate, step)
            end = math_ops.cast(self.end_learning_rate, lr0.dtype)
            steps = math_ops.cast(self.decay_steps, lr0.dtype)
            if self.cycle:
                from ..ops import indexing_ops
                cycles = indexing_ops.where(math_ops.equal(step, 0), 1.0,
                                            math_extra_ops.ceil(step / self.decay_steps))
                steps = steps * cycles
            else:
                step = math_ops.minimum(step, steps)
            p = step / steps
            return (lr0 - end) * math_ops.pow(1 - p, math_ops.cast(self.power,
                                                                   lr0.dtype)) + end

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate,
                "decay_steps": self.decay_steps, "end_learning_rate": self.end_learning_rate,
                "power": self.power, "cycle": self.cycle, "name": self.name}


class CosineDecay(LearningRateSchedule):
    """Half a cosine from the rate down to ``alpha`` times it over ``decay_steps``; with
    ``warmup_target``, first a straight line up to it over ``warmup_steps``."""

    def __init__(self, initial_learning_rate, decay_steps, alpha=0.0, name="CosineDecay",
                 warmup_target=None, warmup_steps=0):
        self.initial_learning_rate, self.decay_steps = initial_learning_rate, decay_steps
        self.alpha, self.name = alpha, name
        self.warmup_target, self.warmup_steps = warmup_target, warmup_steps
        _positive_steps(decay_steps)

    def _decay(self, step, steps, start, dtype):
        with name_scope(self.name):
            pi = convert.constant(math.pi, dtype)
            cosine = 0.5 * (1.0 + math_ops.cos(pi * (step / steps)))
            return start * ((1 - self.alpha) * cosine + self.alpha)

    def __call__(self, step):
        with name_scope(self.name):
            lr0, step = _start(self.initial_learning_rate, step)
            steps = math_ops.cast(self.decay_steps, lr0.dtype)
            if self.warmup_target is None:
                return self._decay(math_ops.minimum(step, steps), steps, lr0, lr0.dtype)
            from ..control_flow.cond_while import cond
            target = math_ops.cast(self.warmup_target, lr0.dtype)
            warmup = math_ops.cast(self.warmup_steps, lr0.dtype)
            step = math_ops.minimum(step, steps + warmup)

            def warming():
                with name_scope(self.name):
                    return (target - lr0) * (step / warmup) + lr0
            return cond(math_ops.less(step, warmup), warming,
                        lambda: self._decay(step - warmup, steps, target, lr0.dtype))

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate,
                "decay_steps": self.decay_steps, "alpha": self.alpha, "name": self.name,
                "warmup_target": self.warmup_target, "warmup_steps": self.warmup_steps}


def __getattr__(name):
    from .tf_api_names import missing
    raise missing("optimizers.schedules", name)


def __dir__():  # the module's public names, as TF lists them (not its imports)
    return sorted(n for n, v in globals().items() if not n.startswith("_")
                  and isinstance(v, type) and issubclass(v, LearningRateSchedule))
