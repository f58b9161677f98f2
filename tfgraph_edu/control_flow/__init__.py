"""Layer 4b: control flow built from traced subgraphs: tf.cond, tf.while_loop and their
gradients (cond_while), tf.TensorArray (tensor_array)."""
