"""The namespace modules behind ``tf.math``, ``tf.nn``, ``tf.linalg``, ``tf.random``, ... (re-exports)."""
