"""AutoGraph (layer 5) never imports the layers above it (issue 12: the autograph <->
function cycle is broken by registration, not by a lazy import)."""

import ast
import pathlib

import tfgraph_edu

HIGHER = ("optimize", "function", "viz", "jupyter", "keras", "saved_model", "onnx", "data",
          "train")


def test_autograph_imports_no_higher_layer():
    root = pathlib.Path(tfgraph_edu.__file__).parent / "autograph"
    offenders = []
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level >= 2 and node.module:
                if node.module.split(".")[0] in HIGHER:
                    offenders.append(f"{path.name}:{node.lineno} {node.module}")
    assert offenders == []


def test_tf_function_is_called_as_it_is_and_to_code_sees_through_it():
    import tfgraph_edu as tf
    from tfgraph_edu.autograph import conversion

    @tf.function
    def g(x):
        if x > 0:
            x = x - 1
        return x

    assert conversion.convertible(g) is None
    assert "ag__.if_stmt" in tf.autograph.to_code(g)
