"""Layer 4a: tracing, the interpreter that adds a node to a graph for each op (graph_builder)."""
