"""``tf.keras.callbacks``: Callback, History and LearningRateScheduler (layer 10)."""

from __future__ import annotations


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
    def on_train_batch_begin(self, batch, logs=None): ...
    def on_train_batch_end(self, batch, logs=None): ...


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


def __getattr__(name):
    from .tf_api_names import missing
    raise missing("callbacks", name)
