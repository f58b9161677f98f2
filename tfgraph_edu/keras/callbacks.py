"""``tf.keras.callbacks``: Callback and History (layer 10)."""

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


def __getattr__(name):
    from .tf_api_names import missing
    raise missing("callbacks", name)
