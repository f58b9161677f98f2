"""``tf.autograph.experimental``: loop options and the optional features (layer 5)."""

from __future__ import annotations

import enum


def set_loop_options(parallel_iterations=None, swap_memory=None, maximum_iterations=None,
                     shape_invariants=None):
    """Options for the tensor loop this call is the first statement of.

    AutoGraph takes the call out of the loop body and passes its arguments to the While op
    (``shape_invariants`` is a list of ``(variable, shape)`` pairs); run as plain Python -
    eagerly, or in a loop that stays a Python loop - it does nothing, as in TensorFlow.
    """
    del parallel_iterations, swap_memory, maximum_iterations, shape_invariants


class Feature(enum.Enum):
    """The optional conversions of ``tf.function(experimental_autograph_options=...)``.

    They are accepted and recorded. ``BUILTIN_FUNCTIONS`` (or ``ALL``) makes ``print`` with a
    tensor argument print the tensor's value each time the graph runs, and
    ``ASSERT_STATEMENTS`` (or ``ALL``) makes ``assert`` on a tensor a ``tf.debugging.Assert``,
    as TF does; for the others tfgraph_edu's AutoGraph converts as TF does by default.
    """

    ALL = "ALL"
    AUTO_CONTROL_DEPS = "AUTO_CONTROL_DEPS"
    ASSERT_STATEMENTS = "ASSERT_STATEMENTS"
    BUILTIN_FUNCTIONS = "BUILTIN_FUNCTIONS"
    EQUALITY_OPERATORS = "EQUALITY_OPERATORS"
    LISTS = "LISTS"
    NAME_SCOPES = "NAME_SCOPES"


def feature_names(options) -> frozenset:
    """``experimental_optional_features`` / ``experimental_autograph_options`` (a Feature, a
    tuple of them, or None) as a frozenset of their names."""
    if options is None:
        return frozenset()
    if not isinstance(options, (list, tuple, set, frozenset)):
        options = (options,)
    return frozenset(getattr(o, "name", str(o)) for o in options)


def features_source(names) -> str:
    """How the generated code's ``ConversionOptions`` shows them (as TF prints them)."""
    shown = [f"ag__.Feature.{n}" for n in sorted(names)]
    if len(shown) == 1:
        return shown[0]
    return "(" + ", ".join(shown) + ("," if len(shown) == 1 else "") + ")"
