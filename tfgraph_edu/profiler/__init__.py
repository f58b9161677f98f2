"""``tf.profiler.experimental``: start/stop bookkeeping only.

tfgraph_edu has no op-level profiler, so ``stop()`` (where TensorFlow writes the profile
to ``logdir``) raises NotImplementedError instead of writing nothing; ``start()`` checks
its arguments and state as TensorFlow does.  Eager vs graph timings: the ``%%trace`` magic.
"""

from __future__ import annotations

from .. import errors

_running = {"logdir": None}


class experimental:  # noqa: N801 - the namespace tf.profiler.experimental
    @staticmethod
    def start(logdir, options=None):
        if _running["logdir"] is not None:
            raise errors.AlreadyExistsError(None, None, "Another profiler is running.")
        _running["logdir"] = str(logdir)

    @staticmethod
    def stop(save=True):
        if _running["logdir"] is None:
            raise errors.UnavailableError(
                None, None, "Cannot export profiling results. No profiler is running.")
        _running["logdir"] = None
        if save:
            raise NotImplementedError(
                "tfgraph_edu has no op profiler, so there is no profile to save. Use "
                "tf.summary.trace_on(graph=True) for graphs and %%trace for timings.")

from .._missing import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr("profiler", __name__)
