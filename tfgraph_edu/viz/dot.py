"""Graphs as Graphviz DOT text (layer 8): the drawing itself.

What the picture says, and which module owns each part:

- a node's shape and colour say what kind of op it is (:mod:`.kinds`); a data edge is labelled
  with the tensor's dtype and shape (class ``tfg-dtype``, so the viewer can hide the labels
  until zoomed in); a control edge is dashed;
- name scopes become nested ``cluster_<scope>`` subgraphs (:mod:`.scopes`); a gradient op is
  drawn in a gradient frame (``cluster_sequential/dense/gradient_tape``, labelled "gradient"
  in the learner's language) inside the scope of the forward op it differentiates
  (:mod:`.gradients`), under its real name;
- an ``If`` or ``While`` op is a cluster holding the clusters of its branches (or its ``cond``
  and ``body``), each with the nodes of its own graph, above the op's own node, which stands
  for its outputs; edges run from the outer tensors the op reads into the body inputs they
  feed, and from each body's outputs to the op's node - at any depth of nesting;
- like-named runs of one op type fold into one series box, repeated chains into one repeat
  box, and a big fold opens page by page (:mod:`.series`);
- a collapsed scope (or branch, or block of a big flat graph) is one folder-shaped box and the
  edges that crossed its border are rerouted to the box;
- all user text passes through :mod:`.escaping`.

The output is deterministic (op order, no ids or addresses), and made in one pass over the
ops: a 10,000-op graph takes a few tens of milliseconds.  Node ids are op names (``prefix +
name`` inside branch bodies, e.g. ``cond/then/mul``), so the SVG's ``<title>`` of a node names
its op; :func:`~.scopes.node_ids` and :func:`~.scopes.cluster_ids` map titles back.
"""

from __future__ import annotations

__all__ = ["graph_to_dot", "COLLAPSE_ABOVE", "KINDS", "HIGHLIGHTS", "kind_of", "kinds_in",
           "scope_of", "series_of", "top_scopes", "default_collapse", "highlight_from_report",
           "node_ids", "cluster_ids", "quote", "visible", "svg_title"]
from .. import labels
from .escaping import ID_LIMIT, quote, short, svg_title, visible  # noqa: F401 - re-exported
from .escaping import label as _label
from .escaping import short as _short
from .gradients import in_gradient, is_gradient_frame, name_in_scope
from .kinds import (  # noqa: F401
    _OTHER_HIGHLIGHT,
    BOX,
    FONT,
    HIGHLIGHTS,
    KINDS,
    NAME_LIMIT,
    _fed_inputs,
    bodies,
    classes_of,
    has_bodies,
    kind_of,
    kinds_in,
    node_attrs,
    node_lines,
)
from .ports import body_ports, loop_bookkeeping
from .scopes import (  # noqa: F401
    BLOCKS_ABOVE,
    BODY_COLLAPSE_ABOVE,
    COLLAPSE_ABOVE,
    SERIES_ABOVE,
    _layout,
    block_of,
    block_size,
    cluster_ids,
    default_collapse,
    drawn_names,
    fold_members,
    node_ids,
    relative_names,
    scope_of,
    top_scopes,
)
from .series import PAGE, PAGE_ABOVE, SERIES_MIN, is_repeat, more_range, page_boxes, series_of  # noqa: F401

_bodies, _has_bodies, _node_lines, _node_attrs = bodies, has_bodies, node_lines, node_attrs


def highlight_from_report(report, graph) -> dict[str, str]:
    """Node name -> highlight kind for the nodes of ``graph`` that an optimisation report
    mentions.  A node still in ``graph`` gets its own action (so the traced graph shows what
    was ``removed``); a node gone from ``graph`` lends its action to the node that took over its
    work (``by``): a removed duplicate marks its survivor ``replaced``, a rewrite marks the new
    node ``added``, a hoisted op marks its copy outside the loop ``hoisted``."""
    names = {op.name for op in graph.operations}
    given_by = {"removed": "replaced", "replaced": "added"}
    out: dict[str, str] = {}
    direct: set[str] = set()
    for change in report.changes:
        if change.node in names:
            out[change.node] = change.action
            direct.add(change.node)
        elif change.by and change.by in names and change.by not in direct:
            out[change.by] = given_by.get(change.action, change.action)
    return out


# -- drawing ------------------------------------------------------------------------------------
def graph_to_dot(graph, *, highlight=None, collapse=None, title=None, drawn=None,
                 paged: bool = True, lang: str | None = None) -> str:
    """The DOT text for ``graph``.

    ``collapse``: names drawn as one box each - scopes (``"layer"``, ``"layer/dense"``), series
    of like-named ops (``"mul_[1-1249]"``), blocks of a big flat graph (``"ops[0:101]"``),
    control-flow bodies (``"cond/then"``) and whole control-flow ops (``"while"``); a name
    inside a body is prefixed with the body (``"while/body/inner"``).  ``None`` (the default)
    is :func:`default_collapse`; pass ``set()`` to draw every op.
    ``highlight``: node name -> ``"removed"``, ``"added"``, ``"replaced"``, ``"folded"`` or
    ``"hoisted"`` (see :func:`highlight_from_report`).  ``title``: a caption on top.
    ``drawn``: a dict to fill with node id -> the box it is folded into, for every op drawn
    inside a box (ops of collapsed bodies are not drawn at all, so not listed).
    ``paged``: an open repeat, and an open series of more than ``PAGE_ABOVE`` members, is a
    dashed frame showing its first and last members and "… N more" boxes (``fold/more[5:4995]``;
    naming one in ``collapse`` shows its next ``PAGE`` members); ``False`` draws every op of
    open folds, unframed.  ``lang``: the language of the drawing's own words ("… N more",
    "N ops", "captured"; default: the learner's, :func:`labels.default_language`).
    """
    if collapse is None:
        collapse = default_collapse(graph)
    drawer = _Drawer(dict(highlight or {}), frozenset(collapse), drawn, paged,
                     lang or labels.default_language())
    lines = ["digraph G {",
             "  rankdir=TB; compound=true; newrank=true;",
             f'  graph [fontname="{FONT}" fontsize=11];',
             f'  node [fontname="{FONT}" fontsize=10];',
             f'  edge [fontname="{FONT}" fontsize=8 color="#555555"];']
    body: list[str] = []
    drawer.draw(graph, "", body)
    lines.extend("  " + line for line in body)
    lines.extend("  " + edge for edge in drawer.edges)
    if title is not None:
        lines.append(f"  label={quote(title)}; labelloc=t;")
    lines.append("}")
    return "\n".join(lines) + "\n"


class _Drawer:
    """One drawing: node and cluster lines go into nested lists, edges into ``edges``."""

    def __init__(self, highlight: dict, collapse: frozenset, drawn=None, paged: bool = True,
                 lang: str = "en"):
        self.lang = lang
        self.drawn = drawn
        self.paged = paged
        self.highlight = highlight
        self.collapse = collapse
        self.edges: list[str] = []
        self.ports: dict[int, str] = {}  # id(op) -> port name, for body inputs and outputs
        self.hidden: set[int] = set()  # ids of body inputs not drawn (captures left unused)

    def draw(self, graph, prefix: str, out: list[str]) -> dict:
        """Append the lines of ``graph`` (node ids prefixed with ``prefix``) to ``out``; return
        ``id(op) -> node id`` (the op's own node, or the box it is folded into)."""
        ops = graph.operations
        self.hidden |= loop_bookkeeping(graph)  # TF's loop counters, an unused range length
        captures = {id(inner.op): outer for outer, inner in graph.captures}
        collapse, highlight = self.collapse, self.highlight
        scopes, series, size = _layout(graph)
        members = fold_members(graph) if series else {}
        pages = self._pages(prefix, members) if series and self.paged else {}
        rel_names = relative_names(graph)
        node_of: dict[int, str] = {}  # id(op) -> its node: itself or the box it is in
        boxes: dict[str, list] = {}  # box (relative name) -> [parent, ops, changed ops, change]
        tree: dict[str, list[str]] = {"": []}  # scope (or open fold) -> its node lines
        children: dict[str, list[str]] = {"": []}
        box_of_scope: dict[str, str | None] = {"": None}
        feeds: dict[int, list] = {}  # id(op) -> per input: the body nodes it feeds
        port_lines: list[str] = []
        for index, op in enumerate(ops):
            if id(op) in self.hidden:
                continue
            scope = scopes[index]
            frame = scope  # the cluster the op's node is drawn in
            box = box_of_scope.get(scope, _UNKNOWN)
            if box is _UNKNOWN:
                box = box_of_scope[scope] = self._collapsed(prefix, scope)
            if box is None:
                group = series.get(index)
                if group is not None and prefix + group in collapse:
                    box = group
                elif group is not None and group in pages:
                    frame = group
                    box = pages[group].get(index)
                elif size and not scope and prefix + block_of(index, size) in collapse:
                    box = block_of(index, size)
            if box is not None:
                node_of[id(op)] = prefix + box
                if self.drawn is not None:
                    self.drawn[prefix + rel_names[index]] = prefix + box
                entry = boxes.get(box)
                if entry is None:  # a block sits at the top, a scope's box in its parent scope
                    parent = (frame if frame != scope or (index in series and box == series[index])
                              else box.rsplit("/", 1)[0] if scope and "/" in box else "")
                    entry = boxes[box] = [parent, 0, 0, None, {}, 0]
                entry[1] += 1
                entry[4][op.type] = entry[4].get(op.type, 0) + 1
                if scope and in_gradient(scope):
                    entry[5] += 1
                change = highlight.get(prefix + rel_names[index])
                if change is not None:
                    entry[2] += 1
                    entry[3] = entry[3] or change
                continue
            rel = rel_names[index]
            node_id = prefix + rel
            node_of[id(op)] = node_id
            kind = kind_of(op, captures)
            lines = _ensure(tree, children, frame)
            port = self.ports.get(id(op))
            if port is not None:
                lines.append(self._port(op, node_id, kind, port, port_lines))
                continue
            shown = name_in_scope(rel, scope)  # (a gradient op: inside its forward scope)
            label = _label(*_node_lines(op, kind, captures.get(id(op)), shown, self.lang))
            line = f"{quote(node_id)} [label={label} {_node_attrs(kind, highlight.get(node_id))}"
            if _has_bodies(op) and node_id in collapse:
                sizes = ", ".join(f"{b} {_ops(len(fn.graph.operations), self.lang)}"
                                  for b, fn in _bodies(op))
                text = _label(_short(shown, NAME_LIMIT), op.type, sizes)
                line = (f"{quote(node_id)} [label={text} "
                        f"{_node_attrs(kind, highlight.get(node_id))} peripheries=2")
            lines.append(line + f' class="{classes_of(op, kind)}"];')
            if _has_bodies(op) and node_id not in collapse:
                feeds[id(op)] = self._bodies(op, node_id, lines)
        for box, (parent, count, changed, change, types, grads) in boxes.items():
            text, extra = _box_text(box, parent, count, types, members, self.lang)
            if 0 < grads < count and not in_gradient(box):  # a layer folded with its gradient
                text.append(labels.label("svg_gradient_part", self.lang, n=grads))
            attrs = BOX + extra
            if changed:
                text.append(f"{changed} changed")
                attrs += f' color="{HIGHLIGHTS.get(change, (_OTHER_HIGHLIGHT,))[0]}" penwidth=3'
            _ensure(tree, children, parent).append(
                f"{quote(prefix + box)} [label={_label(*text)} {attrs}];")
        _emit(tree, children, prefix, out, pages, self.lang)
        if len(port_lines) > 1:  # the body's input ports side by side at its top
            out.append("{ rank=same; " + " ".join(port_lines) + " }")
        self._edges(ops, node_of, set(boxes) and {prefix + b for b in boxes}, feeds)
        return node_of

    def _port(self, op, node_id: str, kind: str, name: str, inputs: list) -> str:
        """The node line of a body's input (a placeholder) or output (its Identity) as a
        port named by the learner's name; input ports are collected in ``inputs``."""
        q = quote(node_id)
        if op.type == "Placeholder":
            inputs.append(q)
            return (f'{q} [label={_label(_short(name, NAME_LIMIT))} {PORT} fillcolor="#d6eaff" '
                    f'class="tfg-op tfg-port tfg-input tfg-kind-{kind}"];')
        return (f'{q} [label={_label(_short(name, NAME_LIMIT))} {PORT} fillcolor="#e6f4ea" '
                'class="tfg-op tfg-port tfg-output"];')

    def _pages(self, prefix: str, members: dict) -> dict[str, dict[int, str]]:
        """Per open fold drawn framed (every open repeat, and every open fold of more than
        ``PAGE_ABOVE`` members): op index -> the "… more" box it is in (ops shown: absent)."""
        opened: dict[str, list[str]] = {}
        for name in self.collapse:
            if name.startswith(prefix) and "/more[" in name:
                fold = name[len(prefix):name.rfind("/more[")]
                opened.setdefault(fold, []).append(name[len(prefix):])
        out: dict[str, dict[int, str]] = {}
        for fold, group in members.items():
            if prefix + fold in self.collapse or not (is_repeat(fold) or len(group) > PAGE_ABOVE):
                continue
            where: dict[int, str] = {}
            for member, box in zip(group, page_boxes(fold, len(group), opened.get(fold, ()))):
                if box is not None:
                    for i in member:
                        where[i] = box
            out[fold] = where
        return out

    def _collapsed(self, prefix: str, scope: str) -> str | None:
        """The outermost collapsed scope containing ``scope`` (relative name), or None."""
        if not scope or not self.collapse:
            return None
        end = -1
        while True:
            end = scope.find("/", end + 1)
            head = scope if end < 0 else scope[:end]
            if prefix + head in self.collapse:
                return head
            if end < 0:
                return None

    def _edges(self, ops, node_of: dict, boxes, feeds: dict) -> None:
        edges = self.edges
        seen: set = set()  # edges into or out of a box are drawn once per dtype and shape
        labels: dict[int, str] = {}
        for op in ops:
            dst = node_of.get(id(op))
            if dst is None:  # not drawn (a capture its body leaves unused)
                continue
            q_dst = None
            into = feeds.get(id(op))
            for i, t in enumerate(op.inputs):
                src = node_of.get(id(t.op))
                if src is None or src == dst:
                    continue
                label = labels.get(id(t))
                if label is None:
                    if t.op.type == "Const":  # a constant's value is its label already
                        label = "arrowsize=0.5"
                    else:
                        text = f"{t.dtype.name} {t.shape}"
                        if len(t.op.outputs) > 1:
                            text = f":{t.value_index} {text}"
                        label = f"xlabel={_label(text)} {DTYPE_EDGE}"
                    labels[id(t)] = label
                targets = into[i] if into is not None and i < len(into) else None
                if targets is not None:  # into the bodies of control flow, not the op node
                    for target in targets:
                        key = (src, target, label)
                        if key not in seen:
                            seen.add(key)
                            edges.append(f"{quote(src)} -> {quote(target)} [{label}];")
                    continue
                if boxes and (src in boxes or dst in boxes):
                    key = (src, dst, label)
                    if key in seen:
                        continue
                    seen.add(key)
                q_dst = q_dst or quote(dst)
                edges.append(f"{quote(src)} -> {q_dst} [{label}];")
            for c in op.control_inputs:
                src = node_of.get(id(c))
                key = (src, dst, None)
                if src is None or src == dst or key in seen:
                    continue
                seen.add(key)
                edges.append(f'{quote(src)} -> {quote(dst)} [style=dashed color="#999999" '
                             "arrowhead=odot];")

    def _bodies(self, op, node_id: str, out: list[str]) -> list:
        """Draw the op as a cluster holding the clusters of the graphs it runs (then/else,
        cond/body) above its own node, which stands for its outputs: the op's node line (last
        in ``out``) moves inside.  Edges go from each body's outputs to the op's node; the
        return value says, per input of the op, which body nodes it feeds (``None``: the op's
        node itself, as the condition of an ``If``)."""
        bodies = _bodies(op)
        node_line = out.pop()
        skip = _fed_inputs(op)
        feeds: list = [None] * skip + [[] for _ in op.inputs[skip:]]
        out.append(f"subgraph {quote('cluster_' + node_id)} {{")
        title = _short(node_id.rsplit("/", 1)[-1], NAME_LIMIT) + " · " + op.type
        out.append(f"  label={_label(title)};"
                   ' style="rounded,filled"; fillcolor="#fbf9ff"; color="#8a63d2";')
        q_node = quote(node_id)
        for label, fn in bodies:
            body_id = f"{node_id}/{label}"
            n = len(fn.graph.operations)
            if body_id in self.collapse:  # one box; expanding it shows the body's graph
                text = _label(f"{label}: {_short(fn.name, NAME_LIMIT)}", _ops(n, self.lang))
                out.append(f"  {quote(body_id)} [label={text} "
                           f"{BOX}];")
                for targets in feeds[skip:]:
                    targets.append(body_id)
                self.edges.append(f"{quote(body_id)} -> {q_node} "
                                  '[style=dotted color="#8a63d2"];')
                continue
            cluster = "cluster_" + body_id
            out.append(f"  subgraph {quote(cluster)} {{")
            out.append(f"    label={_label(f'{label}: {_short(fn.name, NAME_LIMIT)}')}; "
                       'style="rounded,filled"; fillcolor="#f3ecff"; color="#b79cf0";')
            inner: list[str] = []
            ports, hidden = body_ports(op, label, fn)
            self.ports.update(ports)
            self.hidden |= hidden
            node_of = self.draw(fn.graph, body_id + "/", inner)
            if not node_of:  # an empty graph: a cluster needs a node to be drawn
                none = _label(labels.label("svg_no_ops", self.lang))
                inner.append(f'{quote(body_id + "/(empty)")} [label={none} shape=plaintext];')
            out.extend("    " + line for line in inner)
            out.append("  }")
            for i, t in enumerate(fn.inputs):
                target = node_of.get(id(t.op))
                if target is not None and skip + i < len(feeds):
                    feeds[skip + i].append(target)
            seen = set()
            for o in fn.outputs:
                src = node_of.get(id(o.op))
                if src is None or (src, str(o.shape), o.dtype.name) in seen:
                    continue
                seen.add((src, str(o.shape), o.dtype.name))
                style = ' style=dashed color="#8a63d2"' if label == "cond" else ""
                self.edges.append(f"{quote(src)} -> {q_node} "
                                  f"[xlabel={_label(f'{o.dtype.name} {o.shape}')} {DTYPE_EDGE}"
                                  f"{style}];")
        out.append("  " + node_line)
        out.append("}")
        return feeds


_UNKNOWN = object()
# a body's input or output, named by the learner's name: a small rounded box
PORT = 'shape=box style="rounded,filled" fontsize=9 height=0.25 margin="0.06,0.02"'
# a data edge's dtype and shape: an xlabel (placed after the layout, so it costs Graphviz
# little), with a class the viewer uses to show it only when zoomed in
DTYPE_EDGE = 'class="tfg-dtype"'


def _ops(n: int, lang: str) -> str:
    """``5,000 ops`` in ``lang``."""
    return labels.label("svg_ops_one" if n == 1 else "svg_ops_many", lang, n=f"{n:,}")


def _frame_title(scope: str, lang: str) -> str:
    """The label of a scope's frame: its last part; a gradient frame inside a forward scope
    says "gradient" in ``lang`` (and which tape, when it is not the first)."""
    home, _, last = scope.rpartition("/")
    if not home or not is_gradient_frame(scope):
        return _short(last, NAME_LIMIT)
    word = labels.label("svg_gradient", lang)
    return word if last == "gradient_tape" else f"{word} · {_short(last, NAME_LIMIT)}"


def _box_text(box: str, parent: str, count: int, types: dict, members: dict,
              lang: str = "en"):
    """(label lines, extra attributes) of a box: a series, a repeat, a "… more" page box, or
    a collapsed scope, block or body."""
    span = more_range(box)
    if span is not None and box[:box.rfind("/more[")] in members:
        n = span[1] - span[0]
        return ([labels.label("svg_more", lang, n=f"{n:,}"),
                 labels.label("svg_open_next", lang, ops=_ops(count, lang), k=min(n, PAGE))],
                ' class="tfg-box tfg-more"')
    shown = _short(box.rsplit("/", 1)[-1] if parent else box, NAME_LIMIT)
    if box in members:
        if is_repeat(box):
            return [shown, _ops(count, lang)], ' class="tfg-box tfg-fold tfg-repeat"'
        type_, most = max(types.items(), key=lambda item: (item[1], item[0] != "Const"))
        return ([shown, f"{most} × {type_}" + (f" ({_ops(count, lang)})" if count != most
                                                 else "")],
                ' class="tfg-box tfg-fold tfg-series"')
    if parent and is_gradient_frame(box):  # a folded gradient frame inside its forward scope
        return ([f"{_frame_title(box, lang)} ({_ops(count, lang)})"],
                ' color="#d99a9a" class="tfg-box tfg-grad"')
    return [f"{_short(box, NAME_LIMIT)} ({_ops(count, lang)})"], ' class="tfg-box"'


def _ensure(tree: dict, children: dict, scope: str) -> list[str]:
    """The node lines of ``scope``, creating it and its parent scopes in the tree."""
    lines = tree.get(scope)
    if lines is not None:
        return lines
    lines = tree[scope] = []
    children[scope] = []
    child = scope
    while True:  # link to parents, creating those not seen yet (no recursion: deep names)
        parent = child.rsplit("/", 1)[0] if "/" in child else ""
        children[parent] = children.get(parent, [])
        children[parent].append(child)
        if parent in tree:
            return lines
        tree[parent] = []
        child = parent


def _emit(tree: dict, children: dict, prefix: str, out: list[str], folds=(),
          lang: str = "en") -> None:
    """Append the scope tree as nested clusters: each scope's nodes, then its sub-scopes; an
    open fold (in ``folds``) is a dashed frame; gradient frames are pink."""
    out.extend(tree[""])
    stack: list[tuple[str, int]] = [(c, 0) for c in reversed(children[""])]
    depth_open: list[int] = []
    while stack:
        scope, depth = stack.pop()
        while depth_open and depth_open[-1] >= depth:  # close clusters we have left
            depth_open.pop()
            out.append("  " * len(depth_open) + "}")
        pad = "  " * depth
        out.append(f"{pad}subgraph {quote('cluster_' + prefix + scope)} {{")
        if scope in folds:
            style = 'style="rounded,dashed"; color="#777777"; class="tfg-fold-frame";'
        elif in_gradient(scope):  # a gradient frame, or a scope inside one
            style = 'style=rounded; color="#d99a9a"; class="tfg-grad";'
        else:
            style = 'style=rounded; color="#aaaaaa";'
        out.append(f"{pad}  label={_label(_frame_title(scope, lang))}; " + style)
        out.extend(f"{pad}  {line}" for line in tree[scope])
        depth_open.append(depth)
        stack.extend((c, depth + 1) for c in reversed(children[scope]))
    while depth_open:
        depth_open.pop()
        out.append("  " * len(depth_open) + "}")


