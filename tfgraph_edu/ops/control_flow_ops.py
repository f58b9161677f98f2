"""Graph control flow: the If/StatelessIf and While/StatelessWhile ops (layer 1).

Their branches and bodies are whole graphs, held in :class:`GraphFunction`
attributes (printed in a GraphDef as ``func { name: "cond_true_5" }``).  Their
gradients need to build graphs, so the eager layer attaches them
(control_flow/cond_while.py).  The
kernels call those graphs through the graph compiler the runtime layer
registers, so both executors - and eager replay - run control flow the same way.
"""

from __future__ import annotations

from ..errors import InvalidArgumentError
from ..shapes import as_shape
from ._core import define

_COMPILER: list = [None]


def set_graph_compiler(compile_fn) -> None:
    """Install ``compile_fn(graph, inputs, outputs, name) -> callable`` (runtime layer)."""
    _COMPILER[0] = compile_fn


class GraphFunction:
    """A graph with inputs and outputs, used as a function-valued op attribute."""

    def __init__(self, graph, inputs, outputs, name: str):
        self.graph = graph
        self.inputs = list(inputs)
        self.outputs = list(outputs)
        self.function_name = name
        self._fn = None
        self.loop_var_names: tuple = ()  # a While body's: the learner's names of its loop vars
        self.output_names: tuple = ()  # an If branch's: the learner's names of its outputs
        self.input_names: tuple = ()  # an If branch's: the learner's names of its inputs ("")

    @property
    def name(self) -> str:
        return self.function_name

    def __call__(self, *values) -> list:
        if self._fn is None:
            self.compiled = _COMPILER[0](self.graph, self.inputs, self.outputs,
                                         self.function_name)
            self._fn = self.compiled.fn
        return self._fn(*values)

    def __repr__(self):
        return f"<GraphFunction {self.function_name}: {len(self.graph.operations)} ops>"


def _unpack(results, n):
    if n == 1:
        return results[0]
    return tuple(results)


def _if_kernel(cond, *args, then_branch, else_branch, Tout=(), output_shapes=(), Tcond=None,
               Tin=()):
    branch = then_branch if bool(cond) else else_branch
    return _unpack(branch(*args), len(Tout))


def _if_shape(cond, *args, then_branch, else_branch, Tout=(), output_shapes=(), Tcond=None,
              Tin=()):
    if cond.shape.rank not in (None, 0):
        from ._core import shape_error
        raise shape_error(f"The if condition must be a scalar, got shape {cond.shape}")
    return [(as_shape(s), d) for s, d in zip(output_shapes, Tout)]


_n_out = lambda attrs: len(attrs["Tout"])  # noqa: E731
StatelessIf = define("StatelessIf", ("input*",), _if_kernel, _if_shape, None,
                     mixed_types=True, num_outputs=_n_out,
                     doc="input[0] is the condition; the rest are the branches' inputs.")
If = define("If", ("input*",), _if_kernel, _if_shape, None, mixed_types=True,
            num_outputs=_n_out, stateful=True, state="body",
            doc="If with stateful branches (variable writes, tf.print, random ops).")


def _while_kernel(*args, cond, body, T=(), output_shapes=(), parallel_iterations=10,
                  maximum_iterations=-1):
    values = list(args)
    i = 0
    while True:
        if maximum_iterations >= 0 and i >= maximum_iterations:
            break
        keep = cond(*values)[0]
        if not bool(keep):
            break
        values = body(*values)
        i += 1
    return _unpack(values, len(T))


def _while_shape(*args, cond, body, T=(), output_shapes=(), parallel_iterations=10,
                 maximum_iterations=-1):
    return [(as_shape(s), d) for s, d in zip(output_shapes, T)]


_n_loop = lambda attrs: len(attrs["T"])  # noqa: E731
StatelessWhile = define("StatelessWhile", ("input*",), _while_kernel, _while_shape, None,
                        mixed_types=True, num_outputs=_n_loop,
                        doc="Loop variables in, loop variables out; cond and body are graphs.")
While = define("While", ("input*",), _while_kernel, _while_shape, None,
               mixed_types=True, num_outputs=_n_loop, stateful=True, state="body",
               doc="While with a stateful body.")


def check_condition(value) -> None:
    if getattr(value, "size", 1) != 1:
        raise InvalidArgumentError(None, None, "The loop condition must be a scalar boolean")


# -- Assert: TF's runtime check (tf.debugging.Assert), an op with no outputs --------------------
def _assert_kernel(condition, *data, summarize=3):
    if not bool(condition):
        shown = " ".join(f"[{_summary(d, summarize)}]" for d in data)
        raise InvalidArgumentError(None, None, f"assertion failed: {shown}")


def _summary(value, summarize: int) -> str:
    """One datum as TF's Assert prints it: its first ``summarize`` elements, floats in
    ``%g`` form (``[1.5 2 3...]``)."""
    import numpy as np
    a = np.asarray(value)
    if a.dtype.kind in "SO":
        items = [x.decode() if isinstance(x, bytes) else str(x) for x in a.reshape(-1)]
    elif a.dtype.kind == "f":
        items = [f"{x:g}" for x in a.reshape(-1).tolist()]
    else:
        items = [str(x) for x in a.reshape(-1)]
    return " ".join(items[:summarize]) + ("..." if len(items) > summarize else "")


def _assert_shape(condition, *data, summarize=3):
    if condition.shape.rank not in (None, 0):
        from ._core import shape_error
        raise shape_error(f"The Assert condition must be a scalar, got shape {condition.shape}")
    return []


Assert = define("Assert", ("condition", "data*"), _assert_kernel, _assert_shape, None,
                mixed_types=True, stateful=True, state="check", num_outputs=0,
                doc="Raises InvalidArgumentError when the condition is false, showing the data.")


def assert_(condition, data, summarize=None, name=None):
    """``tf.debugging.Assert``: at run time, TF's InvalidArgumentError when ``condition`` is
    false (eagerly: at once)."""
    from ._core import bind
    from .convert import to_tensor
    inputs = (to_tensor(condition),) + tuple(to_tensor(d) for d in data)
    return bind(Assert, inputs, {"summarize": 3 if summarize is None else summarize}, name)
