"""The namespace modules behind ``tf.math``, ``tf.nn``, ``tf.random``, ... (re-exports)."""
