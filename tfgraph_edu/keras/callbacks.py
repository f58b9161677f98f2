"""``tf.keras.callbacks``: Callback, History, LearningRateScheduler and EarlyStopping
(layer 10)."""

from __future__ import annotations

import warnings


class Callback:
    """Hooks ``fit`` calls; override the ones you need."""

    def __init__(self):
        self.model = None
        self.params = {}

    def set_model(self, model):
        self.model = model

    def set_params(self, params):
        self.params = params

    def on_train_begin(self, logs=None): ...
    def on_train_end(self, logs=None): ...
    def on_epoch_begin(self, epoch, logs=None): ...
    def on_epoch_end(self, epoch, logs=None): ...
    def on_batch_begin(self, batch, logs=None): ...
    def on_batch_end(self, batch, logs=None): ...

    def on_train_batch_begin(self, batch, logs=None):  # Keras 3: the on_batch_* alias
        self.on_batch_begin(batch, logs=logs)

    def on_train_batch_end(self, batch, logs=None):
        self.on_batch_end(batch, logs=logs)


# hooks Keras 3's fit calls that tfgraph_edu's does not yet (its validation pass is an
# evaluate with the callbacks): a callback overriding one is refused, never silently skipped
UNCALLED_IN_FIT = ("on_test_begin", "on_test_end", "on_test_batch_begin", "on_test_batch_end")


class History(Callback):
    """What ``fit`` returns: ``history`` maps each logged name to its value per epoch."""

    def __init__(self):
        super().__init__()
        self.history: dict[str, list[float]] = {}
        self.epoch: list[int] = []

    def __repr__(self):  # as TF 2.21's Keras 3 shows what fit returns
        return f"<keras.src.callbacks.history.History object at 0x{id(self):x}>"

    def on_train_begin(self, logs=None):
        self.epoch = []

    def on_epoch_end(self, epoch, logs=None):
        self.epoch.append(epoch)
        for k, v in (logs or {}).items():
            self.history.setdefault(k, []).append(v)


class LearningRateScheduler(Callback):
    """Sets the optimizer's learning rate to ``schedule(epoch, lr)`` (or ``schedule(epoch)``)
    at the start of every epoch, and logs it as ``learning_rate`` at its end (Keras 3)."""

    def __init__(self, schedule, verbose=0):
        super().__init__()
        self.schedule, self.verbose = schedule, verbose

    def on_epoch_begin(self, epoch, logs=None):
        import numpy as np
        optimizer = self.model.optimizer
        lr = float(np.asarray(optimizer.learning_rate.numpy()))
        try:
            lr = self.schedule(epoch, lr)
        except TypeError:  # a schedule of the epoch alone
            lr = self.schedule(epoch)
        if hasattr(lr, "numpy"):
            lr = lr.numpy()
        if not isinstance(lr, (float, np.float32, np.float64)):
            raise ValueError(f"The output of the `schedule` function should be a float. "
                             f"Got: {lr}")
        optimizer.learning_rate = lr
        if self.verbose > 0:
            print(f"\nEpoch {epoch + 1}: LearningRateScheduler setting learning rate to {lr}.")

    def on_epoch_end(self, epoch, logs=None):
        if logs is not None:
            logs["learning_rate"] = float(self.model.optimizer.learning_rate.numpy())


class EarlyStopping(Callback):
    """Stops ``fit`` (``model.stop_training``) once ``monitor`` has not improved by more than
    ``min_delta`` for ``patience`` epochs; ``restore_best_weights`` puts back the weights of
    the best epoch at the end.  ``mode="auto"`` minimises a loss and maximises an accuracy
    (the metric's direction), as Keras 3 decides."""

    def __init__(self, monitor="val_loss", min_delta=0, patience=0, verbose=0, mode="auto",
                 baseline=None, restore_best_weights=False, start_from_epoch=0):
        super().__init__()
        if mode not in ("auto", "min", "max"):
            warnings.warn(f"EarlyStopping mode '{mode}' is unknown, fallback to auto mode.",
                          stacklevel=2)
            mode = "auto"
        self.monitor, self.mode, self.baseline = monitor, mode, baseline
        self.min_delta, self.patience, self.verbose = abs(min_delta), patience, verbose
        self.restore_best_weights, self.start_from_epoch = restore_best_weights, start_from_epoch
        self.best, self.monitor_op = baseline, None
        self.wait = self.stopped_epoch = self.best_epoch = 0
        self.best_weights = None

    def _set_monitor_op(self):
        if self.mode != "auto":
            self.monitor_op = self.mode
        else:
            name = self.monitor.removeprefix("val_")
            if name == "loss":
                self.monitor_op = "min"
            for m in getattr(self.model, "compiled_metrics", None) or ():
                direction = getattr(m, "_direction", None)
                if m.name == name and direction:
                    self.monitor_op = "max" if direction == "up" else "min"
            if self.monitor_op is None:
                raise ValueError(
                    f"EarlyStopping callback received monitor={self.monitor}, but Keras "
                    "isn't able to automatically determine whether that metric should be "
                    "maximized or minimized. Pass `mode='max'` in order to monitor based on "
                    "the highest metric value, or pass `mode='min'` in order to use the "
                    "lowest value.")
        if self.monitor_op == "min":
            self.min_delta = -self.min_delta

    def _is_improvement(self, value, reference):
        if reference is None:
            return True
        value = value - self.min_delta
        return value < reference if self.monitor_op == "min" else value > reference

    def on_train_begin(self, logs=None):  # the callback can be used by several fits
        self.wait = self.stopped_epoch = self.best_epoch = 0
        self.best, self.best_weights = None, None

    def on_epoch_end(self, epoch, logs=None):
        if self.monitor_op is None:
            self._set_monitor_op()
        logs = logs or {}
        current = logs.get(self.monitor)
        if current is None:
            warnings.warn(f"Early stopping conditioned on metric `{self.monitor}` which is "
                          f"not available. Available metrics are: {','.join(logs)}",
                          stacklevel=2)
        if current is None or epoch < self.start_from_epoch:
            return
        if self.restore_best_weights and self.best_weights is None:
            self.best_weights, self.best_epoch = self.model.get_weights(), epoch
        self.wait += 1
        if self._is_improvement(current, self.best):
            self.best, self.best_epoch = current, epoch
            if self.restore_best_weights:
                self.best_weights = self.model.get_weights()
            if self.baseline is None or self._is_improvement(current, self.baseline):
                self.wait = 0
            return
        if self.wait >= self.patience and epoch > 0:
            self.stopped_epoch = epoch
            self.model.stop_training = True

    def on_train_end(self, logs=None):
        if self.stopped_epoch > 0 and self.verbose > 0:
            print(f"Epoch {self.stopped_epoch + 1}: early stopping")
        if self.restore_best_weights and self.best_weights is not None:
            if self.verbose > 0:
                print("Restoring model weights from the end of the best epoch: "
                      f"{self.best_epoch + 1}.")
            self.model.set_weights(self.best_weights)


def __getattr__(name):
    from .tf_api_names import missing
    raise missing("callbacks", name)
