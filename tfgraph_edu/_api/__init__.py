"""The ``tf.math``, ``tf.nn``, ``tf.linalg`` and ``tf.random`` namespaces (re-exports only)."""
