"""``tf.keras.optimizers``: SGD (with momentum, Nesterov's too), Adagrad, Adam, AdamW,
Adamax, Nadam and RMSprop; the options every Keras 3 optimizer has (a schedule as
``learning_rate``, ``weight_decay``, ``clipnorm``, ``clipvalue``, ``global_clipnorm``) are
the base class's, applied once for all of them (layer 10)."""

from __future__ import annotations

from types import SimpleNamespace

from ..eager.context import init_scope, name_scope
from ..ops import creation_ops, indexing_ops, math_extra_ops, math_ops
from ..ops.convert import to_tensor
from ..ops.indexed_slices import IndexedSlices
from . import schedules
from .layers import keras_snake
from .module import AutoTrackable
from .variables import Variable, auto_name


class _OptimizerVariables(list):
    """An optimizer's variables in Keras 3's order.  A checkpoint restoring a slot that is
    not made yet (``optimizer/_variables/2``) leaves its value in ``waiting``: it is
    assigned when the optimizer builds, as TF 2.21 restores Keras 3 optimizers."""

    def __init__(self, items):
        super().__init__(items)
        self.waiting: dict = {}


class Optimizer(AutoTrackable):
    """Keras 3's optimizer state: ``iterations`` (int64) and ``learning_rate`` (float32) are
    variables made with the optimizer; one slot variable per trained variable and slot
    (``adam/dense_kernel_momentum``) is made on the first ``apply_gradients``; all are in
    ``variables``, in that order, as Keras 3 lists them.  A checkpoint names them as TF 2.21
    does: ``_iterations``, ``_learning_rate``, ``_variables/2``, …  A ``LearningRateSchedule``
    as ``learning_rate`` is kept instead of the variable (so it is not in ``variables``);
    ``learning_rate`` then reads it at ``iterations``.

    Each step, as Keras 3's: the gradients are clipped (``clipnorm`` each, ``clipvalue``
    each element, ``global_clipnorm`` all together), then ``weight_decay`` shrinks every
    variable by ``lr * weight_decay`` times itself, then the update runs."""

    def __init__(self, learning_rate, name=None, weight_decay=None, clipnorm=None,
                 clipvalue=None, global_clipnorm=None, **kwargs):
        _no_other_options(kwargs)
        self.name = auto_name(keras_snake(type(self).__name__)) if name is None else name
        self._index = SimpleNamespace(slots={})  # (variable ref, slot name) -> slot
        self.built = False  # Keras 3 builds an optimizer on its first apply_gradients
        if sum(a is not None for a in (clipnorm, clipvalue, global_clipnorm)) > 1:
            raise ValueError(f"Only one of `clipnorm`, `clipvalue` and `global_clipnorm` can "
                             f"be set. Received: clipnorm={clipnorm}, clipvalue={clipvalue}, "
                             f"global_clipnorm={global_clipnorm}")
        self.weight_decay, self.clipnorm = weight_decay, clipnorm
        self.clipvalue, self.global_clipnorm = clipvalue, global_clipnorm
        self._lr_now = None  # a schedule's rate for the step being applied
        with init_scope():
            self._iterations = Variable(0, dtype="int64", trainable=False, name="iteration",
                                        path=f"{self.name}/iteration")
            if isinstance(learning_rate, schedules.LearningRateSchedule):
                self._learning_rate = learning_rate
            elif callable(learning_rate):
                raise NotImplementedError("tfgraph_edu's optimizers do not implement a "
                                          "callable learning_rate yet (a "
                                          "tf.keras.optimizers.schedules one works).")
            else:
                self._learning_rate = Variable(float(learning_rate), dtype="float32",
                                               trainable=False, name="learning_rate",
                                               path=f"{self.name}/learning_rate")
        self._variables = _OptimizerVariables(
            [self._iterations] + ([] if self._scheduled else [self._learning_rate]))

    @property
    def iterations(self):
        return self._iterations

    @property
    def _slots(self) -> dict:
        return self._index.slots

    @property
    def _scheduled(self) -> bool:
        return isinstance(self._learning_rate, schedules.LearningRateSchedule)

    @property
    def learning_rate(self):
        """The rate variable, or a schedule's rate at ``iterations`` (a tensor)."""
        if self._scheduled:
            return self._learning_rate(self._iterations._read())
        return self._learning_rate

    @learning_rate.setter
    def learning_rate(self, value):
        if isinstance(value, schedules.LearningRateSchedule):
            raise NotImplementedError("tfgraph_edu's optimizers do not implement setting a "
                                      "schedule as learning_rate after they are made yet "
                                      "(pass it to the constructor).")
        if self._scheduled:
            raise TypeError(
                "This optimizer was created with a `LearningRateSchedule` object as its "
                "`learning_rate` constructor argument, hence its learning rate is not "
                "settable. If you need the learning rate to be settable, you should "
                "instantiate the optimizer with a float `learning_rate` argument.")
        self._learning_rate.assign(value)

    @property
    def variables(self) -> list:
        return list(self._variables)

    def _slot(self, var, name):
        key = (var.ref(), name)
        slot = self._slots.get(key)
        if slot is None:
            base = getattr(var, "path", None) or var.name
            base = base.replace("/", "_").replace(":", "_")
            with init_scope():
                slot = Variable(self._slot_initial(var, name), trainable=False,
                                name=f"{base}_{name}",
                                path=f"{self.name}/{base}_{name}")
            self._slots[key] = slot
            self._variables.append(slot)
            waiting = self._variables.waiting.pop(len(self._variables) - 1, None)
            for restore in (waiting or {}).values():  # a checkpoint's value for it
                restore(slot)
        return slot

    def _slot_initial(self, var, name):
        """A slot's first value: zeros of the variable's shape."""
        return creation_ops.zeros(var.shape.as_list(), var.dtype)

    def _lr(self, var):
        """The learning rate read now (a schedule's: the one for this step), in the
        variable's dtype (as Keras 3 casts it)."""
        lr = self._lr_now if self._scheduled else self._learning_rate._read()
        dtype = var._dtype  # the DType (a Keras weight's ``dtype`` is its name)
        return lr if dtype is lr.dtype else math_ops.cast(lr, dtype)

    def _gradient(self, g):
        """A gradient as this optimizer's update takes it (an IndexedSlices stays one: each
        update densifies it where Keras 3's does, see ``_dense_and_squared``)."""
        return g

    def _step(self):
        self.iterations.assign_add(1)
        return self.iterations._read()

    def apply_gradients(self, grads_and_vars):
        pairs = [(g, v) for g, v in _pairs(grads_and_vars) if g is not None]
        for _, v in pairs:  # Keras 3 builds every slot before the first update
            for slot in self._slot_names:
                self._slot(v, slot)
        self._build_more(pairs)
        self.built = True
        with name_scope(self.name) as scope:  # in a graph, its work sits in a scope of its name
            if self._scheduled:  # the rate at the step before it is counted
                self._lr_now = self._learning_rate(self._iterations._read())
            pairs = self._clipped(pairs)
            self._decay_weights([v for _, v in pairs])
        pairs = [(self._gradient(g), v) for g, v in pairs]
        self._before_step(pairs)
        t = self._step()
        with name_scope(scope):  # the same scope again (absolute: ``sgd/``)
            for g, v in pairs:
                self._apply(g, v, t)
        return t

    def _build_more(self, pairs):
        """Variables an optimizer makes after its slots (Nadam's)."""

    def _before_step(self, pairs):
        """State an optimizer updates before ``iterations`` counts the step (Nadam's)."""

    def _clipped(self, pairs):
        """The gradients clipped as the optimizer's option says (Keras 3's rules)."""
        if not (self.clipnorm or self.clipvalue or self.global_clipnorm):
            return pairs
        if not self.clipnorm and any(isinstance(g, IndexedSlices) for g, _ in pairs):
            raise NotImplementedError("tfgraph_edu's optimizers do not implement clipvalue "
                                      "or global_clipnorm of IndexedSlices gradients (an "
                                      "Embedding's) yet; clipnorm works.")
        grads = [g for g, _ in pairs]
        if self.clipnorm and self.clipnorm > 0:
            grads = [math_extra_ops.clip_by_norm(g, self.clipnorm) for g in grads]
        elif self.global_clipnorm and self.global_clipnorm > 0:
            grads = math_extra_ops.clip_by_global_norm(grads, self.global_clipnorm)[0]
        elif self.clipvalue and self.clipvalue > 0:
            c = self.clipvalue
            grads = [math_ops.clip_by_value(g, -c, c) for g in grads]
        return [(g, v) for g, (_, v) in zip(grads, pairs)]

    def _decay_weights(self, variables):
        """Keras 3's decoupled weight decay: ``v -= v * weight_decay * lr`` before the
        update, for every variable."""
        if self.weight_decay is None:
            return
        for v in variables:
            wd = math_ops.cast(self.weight_decay, v._dtype)
            v.assign_sub(v * wd * self._lr(v))


def _dense_and_squared(g):
    """``(g, g * g)`` dense. Of an IndexedSlices, as Keras 3's TF backend computes them: the
    square is taken of its values, so a row named twice adds two squares (``1 + 9``, not
    ``(1 + 3) ** 2``) before it is made dense."""
    if not isinstance(g, IndexedSlices):
        return g, math_ops.square(g)
    squares = IndexedSlices(math_ops.square(g.values), g.indices, g.dense_shape)
    return to_tensor(g), to_tensor(squares)


def _pairs(grads_and_vars):
    """The (gradient, variable) pairs; none at all is Keras 3's ValueError (it unpacks them
    with ``zip(*pairs)``)."""
    pairs = list(grads_and_vars)
    if not pairs:
        raise ValueError(
            "not enough values to unpack (expected 2, got 0): apply_gradients was given no "
            "(gradient, variable) pairs. An empty variable list is the usual cause: a "
            "tf.Module does not track the weights of the Keras layers it holds (Keras 3); "
            "pass the layers' trainable_variables, or build a tf.keras.Model.")
    return pairs


class SGD(Optimizer):
    """Keras 3's SGD: ``v -= lr * g``; with ``momentum``, ``m = momentum * m - lr * g`` and
    ``v += m`` (``nesterov``: ``v += momentum * m - lr * g``, the step looked ahead)."""

    def __init__(self, learning_rate=0.01, momentum=0.0, nesterov=False, name=None,
                 **kwargs):
        super().__init__(learning_rate, name, **kwargs)
        self.momentum, self.nesterov = float(momentum), bool(nesterov)
        self._slot_names = ("momentum",) if self.momentum else ()

    def _gradient(self, g):
        if isinstance(g, IndexedSlices) and self.momentum:
            return to_tensor(g)  # mixed with the dense momentum
        return g  # an IndexedSlices is applied row by row (``scatter_sub``), as Keras 3's

    def _apply(self, g, v, t):
        if self.momentum:
            m = self._slot(v, "momentum")
            m.assign(m * self.momentum - self._lr(v) * g)
            v.assign_add(m * self.momentum - self._lr(v) * g if self.nesterov else m)
        elif isinstance(g, IndexedSlices):  # Keras 3: only the rows touched, one by one
            v.scatter_sub(IndexedSlices(self._lr(v) * g.values, g.indices, g.dense_shape))
        else:
            v.assign_sub(self._lr(v) * g)


class Adam(Optimizer):
    _slot_names = ("momentum", "velocity")

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 amsgrad=False, name=None, **kwargs):
        if amsgrad:
            raise NotImplementedError("tfgraph_edu does not implement Adam(amsgrad=True) yet.")
        super().__init__(learning_rate, name, **kwargs)
        self.beta_1, self.beta_2, self.epsilon = float(beta_1), float(beta_2), float(epsilon)

    def _apply(self, g, v, t):
        g, g2 = _dense_and_squared(g)
        m, s = self._slot(v, "momentum"), self._slot(v, "velocity")
        m.assign(self.beta_1 * m + (1.0 - self.beta_1) * g)
        s.assign(self.beta_2 * s + (1.0 - self.beta_2) * g2)
        tf_t = math_ops.cast(t, v.dtype)
        lr = self._lr(v) * math_ops.sqrt(1.0 - math_ops.pow(
            math_ops.cast(self.beta_2, v.dtype), tf_t)) / (1.0 - math_ops.pow(
                math_ops.cast(self.beta_1, v.dtype), tf_t))
        v.assign_sub(lr * m / (math_ops.sqrt(s) + self.epsilon))


class AdamW(Adam):
    """Keras 3's AdamW: Adam with ``weight_decay`` (0.004 unless given) applied to every
    variable before each update (the base class's decay)."""

    def __init__(self, learning_rate=0.001, weight_decay=0.004, beta_1=0.9, beta_2=0.999,
                 epsilon=1e-7, amsgrad=False, name=None, **kwargs):
        super().__init__(learning_rate, beta_1, beta_2, epsilon, amsgrad, name,
                         weight_decay=weight_decay, **kwargs)
        if self.weight_decay is None:
            raise ValueError("Argument `weight_decay` must be a float. Received: "
                             "weight_decay=None")


class Adagrad(Optimizer):
    """Keras 3's Adagrad: each step is divided by the root of the sum of all squared
    gradients so far (an ``accumulator`` starting at ``initial_accumulator_value``)."""

    _slot_names = ("accumulator",)

    def __init__(self, learning_rate=0.001, initial_accumulator_value=0.1, epsilon=1e-7,
                 name=None, **kwargs):
        super().__init__(learning_rate, name, **kwargs)
        self.initial_accumulator_value = initial_accumulator_value
        self.epsilon = epsilon

    def _slot_initial(self, var, name):
        return creation_ops.fill(var.shape.as_list(), math_ops.cast(
            float(self.initial_accumulator_value), var._dtype))

    def _apply(self, g, v, t):
        g, g2 = _dense_and_squared(g)
        acc = self._slot(v, "accumulator")
        acc.assign_add(g2)
        v.assign_sub(self._lr(v) * g / math_ops.sqrt(acc + self.epsilon))


class Adamax(Optimizer):
    """Keras 3's Adamax: Adam's momentum over an infinity norm (``norm``: the largest
    recent ``|g|``, decaying by ``beta_2``)."""

    _slot_names = ("momentum", "norm")

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 name=None, **kwargs):
        super().__init__(learning_rate, name, **kwargs)
        self.beta_1, self.beta_2, self.epsilon = beta_1, beta_2, epsilon

    def _gradient(self, g):
        return to_tensor(g) if isinstance(g, IndexedSlices) else g

    def _apply(self, g, v, t):
        m, u = self._slot(v, "momentum"), self._slot(v, "norm")
        beta_1_power = math_ops.pow(math_ops.cast(self.beta_1, v._dtype),
                                    math_ops.cast(t, v._dtype))
        m.assign_add((g - m) * (1 - self.beta_1))
        u.assign(math_ops.maximum(self.beta_2 * u, math_ops.abs(g)))
        v.assign_sub(self._lr(v) * m / ((1 - beta_1_power) * (u + self.epsilon)))


class Nadam(Optimizer):
    """Keras 3's Nadam: Adam with Nesterov momentum, whose momentum factor ``u_t`` decays
    by 0.96 per step; the product of the factors so far is one more variable, made after
    the slots (``nadam/variable``), as Keras 3 does."""

    _slot_names = ("momentum", "velocity")

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 name=None, **kwargs):
        super().__init__(learning_rate, name, **kwargs)
        self.beta_1, self.beta_2, self.epsilon = float(beta_1), float(beta_2), float(epsilon)
        self._u_product = None

    def _build_more(self, pairs):
        if self._u_product is None:
            dtype = pairs[0][1]._dtype if pairs else "float32"
            with init_scope():
                self._u_product = Variable(1.0, dtype=dtype, trainable=False,
                                           name=auto_name("variable"),
                                           path=f"{self.name}/variable")
            self._variables.append(self._u_product)

    def _before_step(self, pairs):
        # the product takes this step's factor before the updates (iterations + 1)
        step = math_ops.cast(self.iterations._read() + 1, self._u_product._dtype)
        self._u_product.assign(self._u_product * self.beta_1 * (
            1.0 - 0.5 * math_ops.pow(math_ops.cast(0.96, step.dtype), step)))

    def _apply(self, g, v, t):
        g, g2 = _dense_and_squared(g)
        dt = v._dtype
        m, s = self._slot(v, "momentum"), self._slot(v, "velocity")
        local_step = math_ops.cast(t, dt)
        next_step = local_step + 1.0
        decay = math_ops.cast(0.96, dt)
        # the betas in the variable's dtype first, then 1 - beta (Keras 3's rounding)
        beta_1, beta_2 = math_ops.cast(self.beta_1, dt), math_ops.cast(self.beta_2, dt)
        u_t = beta_1 * (1.0 - 0.5 * math_ops.pow(decay, local_step))
        u_t_1 = beta_1 * (1.0 - 0.5 * math_ops.pow(decay, next_step))
        u_product_t = math_ops.cast(self._u_product._read(), dt)
        u_product_t_1 = u_product_t * u_t_1
        beta_2_power = math_ops.pow(beta_2, local_step)
        m.assign_add((g - m) * (1.0 - beta_1))
        s.assign_add((g2 - s) * (1.0 - beta_2))
        m_hat = u_t_1 * m / (1.0 - u_product_t_1) + (1.0 - u_t) * g / (1.0 - u_product_t)
        v_hat = s / (1.0 - beta_2_power)
        v.assign_sub(m_hat * self._lr(v) / (math_ops.sqrt(v_hat) + self.epsilon))


class RMSprop(Optimizer):
    """Keras 3's RMSprop: a running mean of squared gradients scales each step (epsilon
    inside the square root, as Keras 3 has it); with ``momentum``, steps accumulate."""

    def __init__(self, learning_rate=0.001, rho=0.9, momentum=0.0, epsilon=1e-7,
                 centered=False, name=None, **kwargs):
        if centered:
            raise NotImplementedError("tfgraph_edu does not implement RMSprop(centered=True) "
                                      "yet.")
        super().__init__(learning_rate, name, **kwargs)
        self.rho, self.momentum, self.epsilon = float(rho), float(momentum), float(epsilon)
        self._slot_names = ("velocity", "momentum") if self.momentum else ("velocity",)

    def _apply(self, g, v, t):
        g, g2 = _dense_and_squared(g)
        vel = self._slot(v, "velocity")
        vel.assign(self.rho * vel + (1.0 - self.rho) * g2)
        increment = self._lr(v) * g / math_ops.sqrt(vel + self.epsilon)
        if self.momentum:
            m = self._slot(v, "momentum")
            m.assign(self.momentum * m + increment)
            v.assign_sub(m)
        else:
            v.assign_sub(increment)


class LossScaleOptimizer(Optimizer):
    """Keras 3's ``mixed_precision.LossScaleOptimizer``: ``scale_loss`` multiplies a loss by
    the dynamic scale (2**15 to start) so float16 gradients do not underflow;
    ``apply_gradients`` divides the gradients by it and, if all are finite, lets the inner
    optimizer apply them (the scale doubles after ``dynamic_growth_steps`` such steps),
    else skips the step and halves the scale.  Keras 2's ``get_scaled_loss`` and
    ``get_unscaled_gradients`` are gone in Keras 3, as here."""

    def __init__(self, inner_optimizer, initial_scale=2.0 ** 15, dynamic_growth_steps=2000,
                 name=None, **kwargs):
        _no_other_options(kwargs)
        if not isinstance(inner_optimizer, Optimizer):
            raise AttributeError(f"'{type(inner_optimizer).__name__}' object has no attribute "
                                 "'loss_scale_factor'")  # Keras 3's error for a non-optimizer
        super().__init__(inner_optimizer.learning_rate.numpy(), name)
        self.inner_optimizer = inner_optimizer
        self.initial_scale = float(initial_scale)
        self.dynamic_growth_steps = int(dynamic_growth_steps)
        self._slot_names = ()

    @property
    def iterations(self):
        return self.inner_optimizer.iterations

    @property
    def learning_rate(self):
        return self.inner_optimizer.learning_rate

    @learning_rate.setter
    def learning_rate(self, value):
        self.inner_optimizer.learning_rate = value

    def _build_scale(self):
        if not self.built:
            with init_scope():
                self.step_counter = Variable(0, dtype="int64", trainable=False,
                                             name="step_counter",
                                             path=f"{self.name}/step_counter")
                self.dynamic_scale = Variable(self.initial_scale, dtype="float32",
                                              trainable=False, name="dynamic_scale",
                                              path=f"{self.name}/dynamic_scale")
            self._variables.extend([self.step_counter, self.dynamic_scale])
            self.built = True

    @property
    def variables(self) -> list:
        return list(self._variables) + list(self.inner_optimizer.variables)

    def scale_loss(self, loss):
        """``loss`` times the current scale (the initial one before the first step)."""
        scale = self.dynamic_scale if self.built else self.initial_scale
        return loss * scale

    def apply_gradients(self, grads_and_vars):
        from ..control_flow.cond_while import cond
        from ..ops import concat_ops, reduction_ops, shape_ops
        pairs = [(self._gradient(g), v) for g, v in grads_and_vars if g is not None]
        self._build_scale()
        # finite: |g| < inf is False for an inf and for a NaN
        finite = reduction_ops.reduce_all(concat_ops.concat(
            [shape_ops.reshape(math_ops.less(math_ops.abs(g), float("inf")), [-1])
             for g, _ in pairs], 0))
        inv = 1.0 / self.dynamic_scale._read()

        def apply():
            self.inner_optimizer.apply_gradients(
                [(g * math_ops.cast(inv, g.dtype), v) for g, v in pairs])
            self.step_counter.assign_add(1)
            grow = self.step_counter._read() >= self.dynamic_growth_steps
            self.dynamic_scale.assign(indexing_ops.where(
                grow, self.dynamic_scale * 2.0, self.dynamic_scale._read()))
            self.step_counter.assign(indexing_ops.where(
                grow, creation_ops.zeros([], "int64"), self.step_counter._read()))
            return 0

        def skip():
            self.step_counter.assign(0)
            self.dynamic_scale.assign(self.dynamic_scale / 2.0)
            return 0
        cond(finite, apply, skip)
        return self.iterations


def _no_other_options(kwargs):
    if kwargs:
        raise NotImplementedError(f"tfgraph_edu's optimizers do not implement the options "
                                  f"{sorted(kwargs)} yet.")


def get(optimizer):
    if isinstance(optimizer, str):
        return {"sgd": SGD, "adam": Adam, "rmsprop": RMSprop, "nadam": Nadam,
                "adagrad": Adagrad, "adamax": Adamax, "adamw": AdamW}[optimizer.lower()]()
    return optimizer


def __getattr__(name):
    from .tf_api_names import missing
    raise missing("optimizers", name)
