"""``model.summary()`` as Keras 3 prints it: a box-drawn table of layers, output shapes and
parameter counts, then the totals with their size in memory."""

from __future__ import annotations

import math

_WIDTHS = (33, 24, 15)  # the columns' widths, borders' padding included


def _size_text(n_bytes: float) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n_bytes < 1024 or unit == "GB":
            return f"{n_bytes:.2f} {unit}"
        n_bytes /= 1024
    return f"{n_bytes:.2f} GB"


def _wrap(text: str, width: int) -> list[str]:
    if len(text) <= width:
        return [text]
    lines, line = [], ""
    for word in text.split(" "):
        while len(word) > width:
            if line:
                lines.append(line)
                line = ""
            lines.append(word[:width])
            word = word[width:]
        if not line:
            line = word
        elif len(line) + 1 + len(word) <= width:
            line += " " + word
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    return lines


def _row(cells, left, sep, right, align=("<", "<", ">")):
    columns = [_wrap(c, w - 2) for c, w in zip(cells, _WIDTHS)]
    height = max(len(c) for c in columns)
    out = []
    for i in range(height):
        parts = [f" {(col[i] if i < len(col) else ''):{a}{w - 2}} "
                 for col, w, a in zip(columns, _WIDTHS, align)]
        out.append(left + sep.join(parts) + right)
    return out


def _rule(left, mid, right, fill):
    return left + mid.join(fill * w for w in _WIDTHS) + right


def _shape_text(shape) -> str:
    if shape is None or shape.rank is None:
        return "?"
    dims = ["None" if d is None else str(d) for d in shape.dims]
    return "(" + ", ".join(dims) + ("," if len(dims) == 1 else "") + ")"


def _layer_shape_text(layer) -> str:
    """Keras 3's Output Shape column: the output of the layer's first call on KerasTensors
    (``None`` batch from an ``Input``, or the whole shape a Sequential was built from);
    for a layer only called eagerly, the shape its class computes from the build shape
    (``?`` when the class does not compute shapes, as custom layers)."""
    if layer._inbound_nodes:
        out = layer._inbound_nodes[0][1]
        if isinstance(out, (list, tuple)):
            return "[" + ", ".join(_shape_text(o.shape) for o in out) + "]"
        return _shape_text(out.shape)
    return _shape_text(layer._output_shape)


def _params_text(layer) -> str:
    n = layer.count_params()
    if not layer.built and n == 0:
        return "0 (unbuilt)"
    return f"{n:,}"


def summary_text(model) -> str:
    lines = [f'Model: "{model.name}"', _rule("┏", "┳", "┓", "━")]
    lines += _row(("Layer (type)", "Output Shape", "Param #"), "┃", "┃", "┃")
    lines.append(_rule("┡", "╇", "┩", "━"))
    layers = model._summary_layers()
    for k, layer in enumerate(layers):
        lines += _row((f"{layer.name} ({type(layer).__name__})", _layer_shape_text(layer),
                       _params_text(layer)), "│", "│", "│")
        if k + 1 < len(layers):
            lines.append(_rule("├", "┼", "┤", "─"))
    lines.append(_rule("└", "┴", "┘", "─"))
    variables = model.variables
    trainable = [v for v in variables if v.trainable]
    fixed = [v for v in variables if not v.trainable]

    def total(vs):
        n = sum(math.prod(v.shape.as_list()) for v in vs)
        size = sum(math.prod(v.shape.as_list()) * v.dtype.size for v in vs)
        return f"{n:,} ({_size_text(size)})"

    optimizer = getattr(model, "optimizer", None)
    extra = (list(optimizer.variables) if getattr(model, "compiled", False) and optimizer
             is not None and getattr(optimizer, "built", False) else None)
    lines.append(f" Total params: {total(variables + (extra or []))}")
    lines.append(f" Trainable params: {total(trainable)}")
    lines.append(f" Non-trainable params: {total(fixed)}")
    if extra is not None:  # Keras 3 counts a built optimizer's variables too
        lines.append(f" Optimizer params: {total(extra)}")
    return "\n".join(lines)
