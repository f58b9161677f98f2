"""``tf.get_logger()``: the ``tensorflow`` logger, set up as TensorFlow sets it up (layer 0).

When tfgraph_edu is imported (as when TensorFlow is), if the root logger has no handlers,
the ``tensorflow`` logger gets its own handler printing Python's basic format, so every
warning of the package reads as in TensorFlow's output: ``WARNING:tensorflow:5 out of the
last 5 calls to ...`` (on stderr; on stdout, at level INFO, in an interactive interpreter).
Whoever configures logging first keeps control.
"""

from __future__ import annotations

import logging
import sys

_logger: logging.Logger | None = None


def get_logger() -> logging.Logger:
    """The logger TensorFlow's messages (such as the retracing warning) go to."""
    global _logger
    if _logger is not None:
        return _logger
    logger = logging.getLogger("tensorflow")
    if not logging.getLogger().handlers and not logger.handlers:
        interactive = hasattr(sys, "ps1") or bool(sys.flags.interactive)
        if interactive:
            logger.setLevel(logging.INFO)
        handler = logging.StreamHandler(sys.stdout if interactive else sys.stderr)
        handler.setFormatter(logging.Formatter(logging.BASIC_FORMAT, None))
        logger.addHandler(handler)
    _logger = logger
    return logger


get_logger()  # set up on import, as TensorFlow's own modules do
