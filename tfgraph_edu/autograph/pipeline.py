"""The order AutoGraph's converters run in, and why (layer 5)."""

from __future__ import annotations

from .converters import (
    annotations,
    asserts,
    break_statements,
    call_trees,
    conditional_expressions,
    continue_statements,
    control_flow,
    functions,
    logical_expressions,
    return_statements,
    variables,
)

PIPELINE = [
    ("annotations", annotations,
     "first: `x: int = 0` is a plain assignment, so x may be shared by the closures below"),
    ("asserts", asserts,
     "under Feature.ASSERT_STATEMENTS only; before call_trees, so calls in the test convert"),
    ("return_statements", return_statements,
     "a return inside a loop becomes a break, which the next pass handles"),
    ("break_statements", break_statements,
     "jumps become flags before control flow is converted, so loops see plain state"),
    ("continue_statements", continue_statements, "the same for continue"),
    ("call_trees", call_trees,
     "user calls only: the ag__ calls later passes write must not be wrapped"),
    ("conditional_expressions", conditional_expressions, "a if c else b, in user code"),
    ("logical_expressions", logical_expressions,
     "and/or/not, including the `not do_return` guards written above"),
    ("variables", variables, "ag__.ld on reads of locals, before closures move the code"),
    ("control_flow", control_flow,
     "if/while/for into closures and ag__ calls; needs every flag to exist already"),
    ("functions", functions,
     "last: wraps everything in the FunctionScope and declares the shared variables"),
]


def run(fn_node, ctx):
    for _, module, _ in PIPELINE:
        fn_node = module.transform(fn_node, ctx)
        if module is continue_statements:
            ctx.refresh_locals(fn_node)
    return fn_node
