"""``tf.config.optimizer.set_experimental_options`` with TensorFlow's option names (layer 6).

Supported names: ``constant_folding``, ``arithmetic_optimization`` (also turns
common-subexpression elimination on or off, as in Grappler),
``dependency_optimization``, ``loop_optimization`` (loop-invariant hoisting),
``debug_stripper`` (off by default, as in TF: debugging ops do nothing),
``disable_model_pruning`` and ``disable_meta_optimizer`` (no pass runs).  Other
Grappler names are accepted and reported as having no effect here.
"""

from __future__ import annotations

import logging

_KNOWN = {"constant_folding", "arithmetic_optimization", "dependency_optimization",
          "loop_optimization", "disable_model_pruning", "disable_meta_optimizer",
          "debug_stripper"}
_GRAPPLER = {"layout_optimizer", "shape_optimization", "remapping", "function_optimization",
             "scoped_allocator_optimization", "pin_to_host_optimization",
             "implementation_selector", "auto_mixed_precision", "min_graph_nodes",
             "auto_parallel"}
_options: dict = {}


def set_experimental_options(options: dict) -> None:
    """Turn optimisation passes on or off for functions traced from now on."""
    for key, value in options.items():
        if key not in _KNOWN | _GRAPPLER:
            raise ValueError(f"Unknown optimizer option {key!r}. Known options: "
                             f"{', '.join(sorted(_KNOWN | _GRAPPLER))}")
        if key in _GRAPPLER:
            logging.getLogger("tensorflow").warning(
                "Optimizer option %r has no effect in tfgraph_edu (no such pass here).", key)
        _options[key] = value


def get_experimental_options() -> dict:
    """The options set so far, then ``disable_model_pruning`` and ``disable_meta_optimizer``
    (always listed, False unless set: TF 2.21's answer)."""
    out = {k: v for k, v in _options.items()
           if k not in ("disable_model_pruning", "disable_meta_optimizer")}
    out["disable_model_pruning"] = _options.get("disable_model_pruning", False)
    out["disable_meta_optimizer"] = _options.get("disable_meta_optimizer", False)
    return out


def enabled(name: str) -> bool:
    if _options.get("disable_meta_optimizer"):
        return False
    if name == "pruning":
        return not _options.get("disable_model_pruning", False)
    if name == "debug_stripper":  # Grappler's default: off
        return bool(_options.get("debug_stripper", False))
    if name == "common_subexpression":
        return _options.get("arithmetic_optimization", True)
    return _options.get(name, True)
