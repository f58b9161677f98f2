"""Gradient ops, the forward ops they differentiate, and where they are drawn (layer 8).

In a graph, the tape names the gradient ops of a forward op under ``gradient_tape/`` and the
forward op's name scope, as TensorFlow does (``gradient_tape/sequential/dense/MatMul/MatMul``
for ``sequential/dense/MatMul``).  The tape also records which forward op each gradient op
was made for (``Graph.gradient_of``); a graph read from a TensorFlow file has no record, so
the names are read instead.  :func:`forward_ops` gives the viewer that link.

The drawing goes one step further than the names (and than TensorBoard, which follows the
names): a gradient op is drawn in a *gradient frame* inside the scope of the forward op it
differentiates, ``sequential/dense/gradient_tape`` for the gradients of ``sequential/dense``'s
ops (:func:`gradient_frames`), so folding a layer folds its gradients with it.  A gradient op
whose forward op is in no scope stays in the top-level ``gradient_tape`` frame.  Op names (and
so node ids, search and the details pane) are TensorFlow's, unchanged.
"""

from __future__ import annotations

from .kinds import bodies, has_bodies

__all__ = ["forward_ops", "forward_index", "gradient_frames", "is_gradient_scope",
           "is_gradient_frame", "in_gradient", "shown_in_frame", "name_in_scope"]


def is_gradient_scope(scope: str) -> bool:
    """Whether a name scope holds gradient ops (``gradient_tape``, ``gradient_tape_1/dense``)."""
    head = scope.split("/", 1)[0]
    return head == "gradient_tape" or (head.startswith("gradient_tape_")
                                       and head[14:].isdigit())


def is_gradient_frame(scope: str) -> bool:
    """Whether a drawn scope is a gradient frame: its last part is a tape's scope
    (``gradient_tape``, ``sequential/dense/gradient_tape_1``)."""
    return bool(scope) and is_gradient_scope(scope.rsplit("/", 1)[-1])


def in_gradient(scope: str) -> bool:
    """Whether a drawn scope is a gradient frame or inside one."""
    return any(is_gradient_scope(part) for part in scope.split("/"))


def _by_names(name: str, op_type: str, index_of: dict) -> int | None:
    """The forward op of a gradient op read from its name: the longest op name that the part
    after ``gradient_tape/`` starts with; else, for ``<scope>/ReluGrad``, ``<scope>/Relu``."""
    head, _, rest = name.partition("/")
    if not rest or not is_gradient_scope(head):
        return None
    parts = rest.split("/")
    for end in range(len(parts) - 1, 0, -1):
        found = index_of.get("/".join(parts[:end]))
        if found is not None:
            return found
    if op_type.endswith("Grad"):
        scope = "/".join(parts[:-1])
        return index_of.get((scope + "/" if scope else "") + op_type[:-4])
    return None


def forward_index(graph, names: list[str] | None = None) -> dict[int, int]:
    """Index of each gradient op in ``graph.operations`` -> index of the forward op it
    differentiates (the tape's record, else read from the names; ``names``: the op names as
    drawn, see :func:`.scopes.relative_names`)."""
    ops = graph.operations
    names = names if names is not None else [op.name for op in ops]
    recorded = getattr(graph, "gradient_of", None) or {}
    index_of = {n: i for i, n in enumerate(names)}
    real_index = {op.name: i for i, op in enumerate(ops)} if recorded else {}
    out: dict[int, int] = {}
    for i, (op, name) in enumerate(zip(ops, names)):
        forward = recorded.get(op.name)
        j = real_index.get(forward) if forward else None
        if j is None:
            j = _by_names(name, op.type, index_of)
        if j is not None and j != i:
            out[i] = j
    return out


def forward_ops(graph, prefix: str = "") -> dict[str, str]:
    """Node id of each gradient op -> node id of the forward op it differentiates, for
    ``graph`` and the graphs its control flow runs (node ids as drawn: ``while/body/mul``)."""
    from .scopes import relative_names  # here: scopes draws with this module's frames

    names = relative_names(graph)
    out = {prefix + names[i]: prefix + names[j]
           for i, j in forward_index(graph, names).items()}
    for op, name in zip(graph.operations, names):
        if has_bodies(op):
            for label, fn in bodies(op):
                out.update(forward_ops(fn.graph, f"{prefix}{name}/{label}/"))
    return out


def gradient_frames(graph, names: list[str], scopes: list[str]) -> list[str]:
    """The drawn scope of every op: ``scopes`` (the name scopes of ``names``, the ops as
    drawn) with each gradient op moved into the gradient frame ``<scope>/<tape>`` of the
    scope its forward op is drawn in (``<tape>`` alone when that is no scope).  A gradient op
    without a link goes to the frame of the longest forward scope its name continues
    (``gradient_tape/sequential/dense/Shape`` -> ``sequential/dense/gradient_tape``); the
    seed of the loss (``gradient_tape/ones_like``) to the frame of the loss's scope."""
    tapes = [name.split("/", 1)[0] if "/" in name else "" for name in names]
    grads = [i for i, tape in enumerate(tapes) if tape and is_gradient_scope(tape)]
    if not grads:
        return scopes
    links = forward_index(graph, names)
    forward_scopes: set[str] = set()
    for scope in scopes:
        while scope and not in_gradient(scope) and scope not in forward_scopes:
            forward_scopes.add(scope)
            scope = scope.rsplit("/", 1)[0] if "/" in scope else ""
    taken = set(names)  # a frame must not take the name of an op
    seeds: list[int] = []
    out = list(scopes)
    for i in grads:  # in op order: a forward op before the gradients made of it
        tape = tapes[i]
        j = links.get(i)
        if j is not None:
            home = out[j]
        else:
            home = scopes[i][len(tape) + 1:]
            while home and home not in forward_scopes:
                home = home.rsplit("/", 1)[0] if "/" in home else ""
            if not home and scopes[i] == tape and not graph.operations[i].inputs:
                seeds.append(i)  # placed after the ops that read it
        frame = f"{home}/{tape}" if home else tape
        if frame not in taken:
            out[i] = frame
    if seeds:
        _place_seeds(graph.operations, seeds, out)
    return out


def _place_seeds(ops, seeds: list[int], out: list[str]) -> None:
    """A gradient op that reads nothing and differentiates no op (the seed of the loss,
    ``gradient_tape/ones_like``) is drawn in the gradient frame of the ops that read it, when
    they are all in one."""
    wanted = {id(ops[i]): i for i in seeds}
    frames: dict[int, set] = {i: set() for i in seeds}
    for k, op in enumerate(ops):
        for t in op.inputs:
            i = wanted.get(id(t.op))
            if i is not None:
                frames[i].add(out[k])
    for i, found in frames.items():
        if len(found) == 1:
            frame = found.pop()
            if is_gradient_frame(frame):
                out[i] = frame


def shown_in_frame(name: str, frame: str) -> str:
    """The text drawn for op ``name`` inside the gradient frame ``frame``: its name after the
    tape and the forward scope (``MatMul/MatMul`` for
    ``gradient_tape/sequential/dense/MatMul/MatMul`` in ``sequential/dense/gradient_tape``)."""
    home, _, tape = frame.rpartition("/")
    for lead in (f"{tape}/{home}/" if home else None, f"{tape}/"):
        if lead and name.startswith(lead) and len(name) > len(lead):
            return name[len(lead):]
    return name


def name_in_scope(name: str, scope: str) -> str:
    """An op's name inside the scope it is drawn in: ``MatMul`` for ``dense/MatMul`` in
    ``dense``; for a gradient op drawn in a gradient frame, :func:`shown_in_frame`."""
    if not scope:
        return name
    if name.startswith(scope) and name[len(scope):len(scope) + 1] == "/":
        return name[len(scope) + 1:]
    return shown_in_frame(name, scope)
