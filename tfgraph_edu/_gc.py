"""Pausing Python's cyclic garbage collector while big graphs are built (layer 0).

Tracing, optimising and compiling create many long-lived objects; the cyclic
collector would re-scan them again and again, making those steps slower than
linear.  Nothing they create is garbage, so collection waits until they finish.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager


@contextmanager
def paused():
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
