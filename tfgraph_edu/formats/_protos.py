"""TensorFlow's message classes, from the protos ``tensorboard`` ships (layer 2a).

``pip install tfgraph_edu[tf-files]`` installs them (``tensorboard`` carries TF's
``GraphDef``, ``MetaGraphDef`` and ``Event`` compiled, and needs no TensorFlow).  When
TensorFlow itself is already imported (a live TF object is being shown), its own copies of
the same messages are used if tensorboard is missing.  Nothing here imports TensorFlow.
"""

from __future__ import annotations

import sys
from types import SimpleNamespace

_CACHE: list = []

_HINT = ("Reading TensorFlow's file formats needs the protobuf messages that the "
         "`tensorboard` package ships: pip install 'tfgraph_edu[tf-files]'.")


def protos() -> SimpleNamespace:
    """``graph_pb2``, ``function_pb2``, ``meta_graph_pb2``, ``event_pb2``, ``types_pb2``,
    ``attr_value_pb2``, ``config_pb2``, ``text_format`` as one namespace."""
    if _CACHE:
        return _CACHE[0]
    try:
        from google.protobuf import text_format
        from tensorboard.compat.proto import (
            attr_value_pb2,
            config_pb2,
            event_pb2,
            function_pb2,
            graph_debug_info_pb2,
            graph_pb2,
            meta_graph_pb2,
            types_pb2,
        )
    except ImportError:
        if "tensorflow" not in sys.modules:
            raise ImportError(_HINT) from None
        from google.protobuf import text_format
        from tensorflow.core.framework import (  # the same messages, TF's own copy
            attr_value_pb2,
            function_pb2,
            graph_debug_info_pb2,
            graph_pb2,
            types_pb2,
        )
        from tensorflow.core.protobuf import config_pb2, meta_graph_pb2
        from tensorflow.core.util import event_pb2
    ns = SimpleNamespace(graph_pb2=graph_pb2, function_pb2=function_pb2,
                         meta_graph_pb2=meta_graph_pb2, event_pb2=event_pb2,
                         types_pb2=types_pb2, attr_value_pb2=attr_value_pb2,
                         text_format=text_format, config_pb2=config_pb2,
                         graph_debug_info_pb2=graph_debug_info_pb2)
    _CACHE.append(ns)
    return ns
