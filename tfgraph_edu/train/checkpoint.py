"""``tf.train.Checkpoint``: variables of modules and optimizers saved as data.

A checkpoint ``prefix`` is two files, named as TensorFlow names them:
``prefix.data-00000-of-00001`` (a sealed array file, ``_files.py``: the keys, dtypes and
shapes in a JSON header, the raw numbers after it, and a sha256 for the header and for each
array) and ``prefix.index`` (JSON: each variable's key, dtype, shape, for people and for
TF's layout; the values are found through the data file's own header).  Each file is
written atomically, the data file first, so a write killed midway leaves the old checkpoint
or the new one.  Loading reads numbers only and runs no code, and a damaged or truncated
file is a ``tf.errors.DataLossError`` naming it, never other values.

Keys follow TensorFlow's object-graph paths: attribute names from the Checkpoint's keyword
arguments down to each variable, e.g. ``model/dense_1/w/.ATTRIBUTES/VARIABLE_VALUE``; a
Keras 3 optimizer's are ``optimizer/_iterations``, ``optimizer/_learning_rate`` and its
slots ``optimizer/_variables/2``, … (restored when the optimizer builds, as in TF 2.21).

A ``tf.random.Generator`` is saved as its ``_state_var``; a list set on a Checkpoint is a
``ListWrapper`` (as TF prints it), and ``tf.train.load_checkpoint`` reads a checkpoint's keys,
shapes, dtypes and values (no serialized object graph: that key's value is not implemented).

Restoring before the variables exist works as TensorFlow's deferred restoration: a value
whose variable (or module, or layer) is not there yet waits on the nearest module of its
path, and is assigned when that attribute is set (a Keras layer building its weights on the
first call, a ``tf.Module`` making its variable in ``__call__``); ``assert_consumed`` fails
until then.

Deliberate departure: the files are JSON + sealed arrays, not TensorFlow's binary format
(so they do not load in TensorFlow).
"""

from __future__ import annotations

import json
import os
import re
import weakref

import numpy as np

from .. import _files
from .. import dtypes as _dt
from ..eager.context import init_scope
from ..eager.variables import Variable
from ..errors import DataLossError, NotFoundError
from ..keras import module as _module
from ..keras.module import AutoTrackable as Module  # tf.Modules and Keras layers
from ..keras.optimizers import Optimizer

FORMAT = "tfgraph_edu-checkpoint"
_SUFFIX = "/.ATTRIBUTES/VARIABLE_VALUE"
_DATA = ".data-00000-of-00001"
_INDEX = ".index"
_OBJECT_GRAPH = "_CHECKPOINTABLE_OBJECT_GRAPH"
_VERSION = 2


def _is_node(value) -> bool:
    """Objects whose attributes a checkpoint walks: modules, layers, optimizers, Checkpoints
    and other trackables that say so (``_checkpoint_node``, e.g. ``tf.random.Generator``,
    saved as ``…/_state_var``)."""
    return (isinstance(value, (Module, Optimizer, Checkpoint))
            or getattr(type(value), "_checkpoint_node", False))


def _children(obj):
    """(name, value) of an object's tracked attributes, sorted by name as TF lists them.
    A Checkpoint's ``root=`` object is the root itself, as in TF: its attributes are keyed
    without a ``root/`` prefix, beside the Checkpoint's other keyword arguments."""
    if not isinstance(obj, Checkpoint):
        return sorted(vars(obj).items())
    deps = dict(obj._deps)
    root = deps.get("root")
    if _is_node(root) and not isinstance(root, Optimizer):
        del deps["root"]
        deps = {**dict(vars(root) if not isinstance(root, Checkpoint) else root._deps), **deps}
    return sorted(deps.items())


class _IteratorPosition:
    """A ``tf.data`` iterator in a checkpoint: its place in the dataset (how many elements it
    gave), saved under TF's key ``…/.ATTRIBUTES/ITERATOR_STATE``."""

    suffix = "/.ATTRIBUTES/ITERATOR_STATE"
    dtype = _dt.int64

    def __init__(self, iterator):
        self.iterator = iterator

    @property
    def shape(self):
        from ..shapes import TensorShape
        return TensorShape([])

    def numpy(self):
        return np.int64(self.iterator._checkpoint_position())

    def assign(self, value):
        self.iterator._checkpoint_seek(int(value))


def _is_iterator(value) -> bool:
    return hasattr(value, "_checkpoint_position")


def _walk(obj, path, out, seen, optimizers):
    if _is_iterator(obj):
        if id(obj) not in seen:
            seen[id(obj)] = path
            out.append((path, _IteratorPosition(obj)))
        return
    if isinstance(obj, Variable):
        if id(obj) not in seen:
            seen[id(obj)] = path
            out.append((path, obj))
        elif path != seen[id(obj)]:  # the same variable reached by a second path (TF: one
            seen.setdefault("aliases", {})[path] = seen[id(obj)]  # object, two references)
        return
    if isinstance(obj, (list, tuple)):
        for i, v in enumerate(obj):
            _walk(v, f"{path}/{i}", out, seen, optimizers)
        return
    if isinstance(obj, dict):
        for k in sorted(obj, key=str):
            _walk(obj[k], f"{path}/{k}", out, seen, optimizers)
        return
    if not _is_node(obj) or id(obj) in seen:
        return
    seen[id(obj)] = path
    if isinstance(obj, Optimizer):
        optimizers.append((path, obj))
    for name, value in _children(obj):
        if name.startswith("__") or name == "_deps":
            continue
        _walk(value, f"{path}/{name}" if path else name, out, seen, optimizers)


def _collect(root):
    """Every variable under ``root`` with its key (an optimizer's slots are in its
    ``_variables``, keyed as TF 2.21 keys Keras 3's: ``optimizer/_variables/2``)."""
    out, seen, optimizers = [], {}, []
    _walk(root, "", out, seen, optimizers)
    paths = {id(v): p for p, v in out}
    return out, optimizers, paths


class _Status:
    """What ``restore`` returns: checks of how the checkpoint matched the objects.  Values
    waiting for their variables (deferred restoration) count as unused until restored."""

    def __init__(self, unused_keys, unmatched_paths):
        self._unused, self._unmatched = set(unused_keys), list(unmatched_paths)

    def assert_consumed(self):
        self.assert_existing_objects_matched()
        if self._unused:
            raise AssertionError("Unresolved object in checkpoint: "
                                 + ", ".join(sorted(self._unused)))
        return self

    def assert_existing_objects_matched(self):
        """Every variable of the objects has a value in the checkpoint (as in TF, the
        Checkpoint's own ``save_counter`` too: a file made by ``write`` has none)."""
        if self._unmatched:
            n = len(self._unmatched)
            raise AssertionError(
                f"Found {n} Python objects that were not bound to checkpointed values, likely "
                f"due to changes in the Python program. Showing {n} of {n} unmatched objects: "
                f"[{', '.join(self._unmatched)}]")
        return self

    def assert_nontrivial_match(self):
        return self

    def expect_partial(self):
        return self

    def run_restore_ops(self, session=None):
        return None


class CheckpointLoadStatus(_Status):
    """What ``restore(path)`` returns (printed as TF's class)."""

    def __repr__(self):
        return ("<tensorflow.python.checkpoint.checkpoint.CheckpointLoadStatus object at "
                f"{id(self):#x}>")


class InitializationOnlyStatus(_Status):
    """What ``restore(None)`` returns: nothing to restore (printed as TF's class)."""

    def __repr__(self):
        return ("<tensorflow.python.checkpoint.checkpoint.InitializationOnlyStatus object at "
                f"{id(self):#x}>")


def _damaged(path, why) -> DataLossError:
    return DataLossError(None, None, f"Unable to read checkpoint file {path}: {why}; the file "
                                     "is damaged or was written partly; save the checkpoint "
                                     "again.")


def _read_index(prefix):
    """Check that ``prefix`` is a checkpoint (both files present, the index ours); returns
    the sealed data file's entries ``{key: (array number, dtype name)}``, read from the data
    file's own checked header (the index file is a listing for people and TF's layout)."""
    index_path = prefix + _INDEX
    if not os.path.exists(index_path) or not os.path.exists(prefix + _DATA):
        raise NotFoundError(None, None, f"Failed to find any matching files for {prefix}")
    try:
        with open(index_path, encoding="utf-8") as f:
            index = json.load(f)
    except (OSError, ValueError) as e:
        raise _damaged(index_path, f"it is not JSON ({e})") from None
    if not isinstance(index, dict) or index.get("format") != FORMAT:
        raise _damaged(index_path, "it is not a tfgraph_edu checkpoint index")
    if index.get("version") != _VERSION:
        raise DataLossError(None, None, f"{index_path} was written by another version of "
                                        "tfgraph_edu (checkpoint format version "
                                        f"{index.get('version')!r}, this one reads {_VERSION}); "
                                        "save the checkpoint again.")
    data_path = prefix + _DATA
    try:
        with open(data_path, "rb") as f:
            n = len(_files.MAGIC) + 40
            head = f.read(n)
            size = int.from_bytes(head[n - 40:n - 32], "little") if len(head) == n else 0
            head += f.read(min(size, os.fstat(f.fileno()).st_size))
    except OSError as e:
        raise _damaged(data_path, e.strerror) from None
    meta, arrays, _ = _files.read_sealed_header(head, data_path, FORMAT, "Checkpoint file")
    return _entries(meta, arrays, data_path)


def _entries(meta, arrays, data_path):
    keys = meta.get("keys")
    dtypes = meta.get("dtypes")
    if not (isinstance(keys, list) and isinstance(dtypes, list) and len(keys) == len(arrays)
            == len(dtypes) and all(isinstance(k, str) for k in keys)
            and len(set(keys)) == len(keys) and all(isinstance(d, str) for d in dtypes)
            and all(isinstance(a, dict) and isinstance(a.get("shape"), list) for a in arrays)):
        raise _damaged(data_path, "its header does not list its variables")
    return {k: (i, d, arrays[i]["shape"]) for i, (k, d) in enumerate(zip(keys, dtypes))}


def _read_arrays(prefix, entries):
    """``{key: array}`` for the keys of ``entries``, each checked against its checksum."""
    data_path = prefix + _DATA
    data = _files.read_file(data_path, "Checkpoint file")
    sealed = _files.Sealed(data, data_path, FORMAT, "Checkpoint file")
    all_entries = _entries(sealed.meta, sealed.entries, data_path)
    out = {}
    for key in entries:
        if key not in all_entries:  # the index was read from another version of the file
            raise NotFoundError(None, None, f"Key {key} not found in checkpoint")
        i, dtype, _ = all_entries[key]
        value = sealed.array(i)
        try:
            np_dtype = _dt.as_dtype(dtype).np_dtype
        except TypeError:
            raise _damaged(data_path, f"unknown dtype {dtype!r}") from None
        if value.dtype != np_dtype:
            raise _damaged(data_path, f"{key} is {value.dtype}, its header says {dtype}")
        out[key] = value
    aliases = sealed.meta.get("aliases")
    if isinstance(aliases, dict):
        for alias, primary in aliases.items():
            if isinstance(alias, str) and primary in out:
                out[alias] = out[primary]
                _ALIASES[id(out)] = {**_ALIASES.get(id(out), {}), alias: primary}
    return out


_ALIASES: dict = {}  # id of a _read_arrays result -> {alias key: primary key}


def write_checkpoint(prefix, variables, aliases=None):
    """Write ``[(key, variable)]`` as ``prefix.data-00000-of-00001`` (a sealed array file:
    every byte checksummed, the keys inside) and then ``prefix.index`` (a JSON listing),
    each atomically: a write killed midway leaves the old checkpoint or the new one."""
    directory = os.path.dirname(prefix)
    if directory:
        os.makedirs(directory, exist_ok=True)
    keys, dtypes, arrays, listing = [], [], [], {}
    for key, var in variables:
        value = np.asarray(var.numpy())
        if value.dtype == object:
            raise ValueError(f"Cannot checkpoint string variable {key!r} as numbers.")
        key += getattr(var, "suffix", _SUFFIX)
        keys.append(key)
        dtypes.append(var.dtype.name)
        arrays.append(value)
        listing[key] = {"dtype": var.dtype.name, "shape": list(value.shape)}
    meta = {"keys": keys, "dtypes": dtypes}
    if aliases:
        meta["aliases"] = {a + _SUFFIX: p + _SUFFIX for a, p in sorted(aliases.items())}
    _files.write_file_atomic(prefix + _DATA, _files.seal(FORMAT, meta, arrays))
    index = json.dumps({"format": FORMAT, "version": _VERSION, "variables": listing},
                       indent=1, sort_keys=True)
    _files.write_file_atomic(prefix + _INDEX, index.encode("utf-8"))
    return prefix


class ListWrapper(list):
    """A list set on a Checkpoint, as TF wraps it (printed ``ListWrapper([...])``): a value
    restored for an index it does not have yet is assigned when that index is filled."""

    def __init__(self, items=()):
        super().__init__(items)
        self._pending: dict = {}  # index -> {key: assign(value)}

    def _fill(self, start):
        for i in range(start, len(self)):
            for assign in self._pending.pop(i, {}).values():
                assign(self[i])

    def append(self, value):
        super().append(value)
        self._fill(len(self) - 1)

    def extend(self, values):
        n = len(self)
        super().extend(values)
        self._fill(n)

    def __iadd__(self, values):
        self.extend(values)
        return self

    def insert(self, index, value):
        super().insert(index, value)
        self._fill(0)

    def __setitem__(self, index, value):
        super().__setitem__(index, value)
        self._fill(0)

    def __repr__(self):
        return f"ListWrapper({list.__repr__(self)})"


class Checkpoint:
    """Groups objects to save and restore: ``tf.train.Checkpoint(model=m, optimizer=opt)``."""

    def __init__(self, root=None, **kwargs):
        deps = dict(kwargs)
        if root is not None:
            deps["root"] = root
        for value in deps.values():
            if not (_is_node(value) or _is_iterator(value)
                    or isinstance(value, (Variable, list, tuple, dict))):
                raise ValueError(f"`Checkpoint` was expecting a trackable object (an object "
                                 f"derived from `Trackable`), got {value}. If you believe this "
                                 "object should be trackable (i.e. it is part of the TensorFlow "
                                 "Python API and manages state), please open an issue.")
        self._deps = {k: ListWrapper(v) if type(v) is list else v for k, v in deps.items()}
        self._save_counter = None
        self._pending = {}  # attribute not set yet -> {key: assign(value)} (a restore's)

    def __setattr__(self, name, value):
        """A public attribute set later is tracked as a keyword argument is (TF), a list
        wrapped as TF wraps it; a value a restore kept for it is assigned now."""
        if name.startswith("_"):
            object.__setattr__(self, name, value)
            return
        if type(value) is list:
            value = ListWrapper(value)
        self._deps[name] = value
        for assign in self.__dict__.get("_pending", {}).pop(name, {}).values():
            assign(value)

    def __getattr__(self, name):
        deps = self.__dict__.get("_deps", {})
        if name in deps:
            return deps[name]
        raise AttributeError(f"'Checkpoint' object has no attribute '{name}'")

    @property
    def save_counter(self):
        """How many times ``save`` ran (an int64 variable, saved with the checkpoint)."""
        if self._save_counter is None:
            with init_scope():
                self._save_counter = Variable(0, dtype=_dt.int64, trainable=False,
                                              name="save_counter")
            self._deps["save_counter"] = self._save_counter
        return self._save_counter

    def _variables(self):
        out, _, _ = _collect(self)
        return out

    def write(self, file_prefix, options=None):
        """Writes the checkpoint to ``file_prefix`` exactly (no counter); returns the path.
        A variable reached by several paths is saved once, its other paths as aliases."""
        seen = {}
        out = []
        _walk(self, "", out, seen, [])
        return write_checkpoint(os.fspath(file_prefix), out, seen.get("aliases"))

    def save(self, file_prefix, options=None):
        """Writes ``file_prefix-N`` (N counts saves) and records it in the ``checkpoint``
        file of its directory, for ``tf.train.latest_checkpoint``."""
        counter = self.save_counter
        counter.assign_add(1)
        path = f"{os.fspath(file_prefix)}-{int(counter.numpy())}"
        self.write(path)
        _update_state_file(os.path.dirname(path) or ".", path)
        return path

    def read(self, save_path, options=None):
        return self.restore(save_path)

    def restore(self, save_path, options=None):
        """Assigns the saved values to the matching variables (created lazily: optimizer
        slots of known variables are made as needed)."""
        if save_path is None:
            return InitializationOnlyStatus([], [])
        prefix = os.fspath(save_path)
        entries = _read_index(prefix)
        arrays = _read_arrays(prefix, entries)
        self.save_counter  # noqa: B018 - TF's restore makes it (restored if in the file)
        variables, _, _ = _collect(self)
        by_key = {k + getattr(v, "suffix", _SUFFIX): v for k, v in variables}
        used = set()
        for key, var in by_key.items():
            if key not in arrays:
                continue
            _assign(var, arrays[key], key)
            used.add(key)
        unmatched = [repr(v) for k, v in sorted(by_key.items()) if k not in arrays]
        alias_of = _ALIASES.pop(id(arrays), {})
        groups = {}
        for key in arrays:  # a key and its aliases are one saved value: used if one is
            groups.setdefault(alias_of.get(key, key), []).append(key)
        unused = [k for keys in groups.values() if not used.intersection(keys) for k in keys]
        status = CheckpointLoadStatus(unused, unmatched)
        _Deferred(self, arrays, status).defer_unused()
        return status


def _assign(var, value, key):
    if list(value.shape) != var.shape.as_list():
        raise ValueError(f"Received incompatible tensor with shape {value.shape} when "
                         f"attempting to restore variable with shape {var.shape} and "
                         f"name {key}.")
    with init_scope():  # also when the variable is made while a tf.function traces
        var.assign(value.astype(var.dtype.np_dtype))


class _Deferred:
    """TensorFlow's deferred restoration for one ``restore``: each value whose object path
    stops at a module lacking the next attribute waits in ``module.DEFERRED`` on that
    module and attribute; setting it (a variable, or a module or list holding the rest of
    the path) assigns the value, and the optimizer slots saved for that variable."""

    def __init__(self, checkpoint, arrays, status):
        self.arrays, self.status = arrays, status
        # the Checkpoint's children, to find optimizers later: modules weakly, since the
        # waiting values are kept by module (a strong path back would keep them forever)
        self.children = {name: weakref.ref(v) if isinstance(v, Module) else v
                         for name, v in _children(checkpoint)}
        self.root = checkpoint._deps.get("root")
        self.checkpoint = weakref.ref(checkpoint)
        if isinstance(self.root, Module):
            self.root = weakref.ref(self.root)

    def _child(self, name):
        value = self.children.get(name)
        return value() if isinstance(value, weakref.ref) else value

    def defer_unused(self):
        root = self.root() if isinstance(self.root, weakref.ref) else None
        for key in sorted(self.status._unused):
            if not key.endswith(_SUFFIX):
                continue
            parts = key[:-len(_SUFFIX)].split("/")
            if parts[0] in self.children:
                self.attach(self._child(parts[0]), parts[1:], key)
            elif root is not None:
                self.attach(root, parts, key)
            elif self.checkpoint() is not None:  # an attribute the Checkpoint gets later
                self.checkpoint()._pending.setdefault(parts[0], {})[key] = (
                    lambda value, rest=parts[1:], key=key: self.attach(value, rest, key))

    def attach(self, obj, parts, key):
        """Follow ``parts`` from ``obj``: assign at a variable, wait at a missing attribute."""
        for i, part in enumerate(parts):
            if isinstance(obj, Module):
                if vars(obj).get(part) is None:
                    rest = parts[i + 1:]
                    waiting = _module.DEFERRED.setdefault(obj, {}).setdefault(part, {})
                    waiting[key] = lambda value, rest=rest: self.attach(value, rest, key)
                    return
                obj = vars(obj)[part]
            elif isinstance(obj, (list, tuple)) and part.isdigit() and int(part) < len(obj):
                obj = obj[int(part)]
            elif isinstance(obj, ListWrapper) and part.isdigit():  # filled later (TF)
                obj._pending.setdefault(int(part), {})[key] = (
                    lambda value, rest=parts[i + 1:]: self.attach(value, rest, key))
                return
            elif (hasattr(obj, "waiting") and part.isdigit() and i == len(parts) - 1):
                # an optimizer slot not made yet: assigned when the optimizer builds (TF)
                obj.waiting.setdefault(int(part), {})[key] = (
                    lambda value: self.attach(value, [], key))
                return
            elif isinstance(obj, dict) and any(str(k) == part for k in obj):
                obj = next(v for k, v in obj.items() if str(k) == part)
            else:
                return  # nothing to wait on: the value stays unused
        if not isinstance(obj, Variable) or key not in self.status._unused:
            return
        _assign(obj, self.arrays[key], key)
        self.status._unused.discard(key)

    def lookup(self, parts):
        """The object at ``parts`` from the checkpoint now, or None."""
        obj = self._child(parts[0])
        for part in parts[1:]:
            if isinstance(obj, Module):
                obj = vars(obj).get(part)
            elif isinstance(obj, (list, tuple)) and part.isdigit() and int(part) < len(obj):
                obj = obj[int(part)]
            elif isinstance(obj, dict):
                obj = next((v for k, v in obj.items() if str(k) == part), None)
            else:
                return None
        return obj


def _walk_vars(root):
    out, _, _ = _collect(root)
    return [v for _, v in out if isinstance(v, Variable)]


_STATE_LINE = re.compile(r'^(model_checkpoint_path|all_model_checkpoint_paths): "(.*)"$')


def _update_state_file(directory, path, all_paths=None):
    name = os.path.relpath(path, directory)
    previous = _read_state(directory)[1] if all_paths is None else []
    paths = (all_paths if all_paths is not None else
             [p for p in previous if p != name] + [name])
    lines = [f'model_checkpoint_path: "{name}"'] + [
        f'all_model_checkpoint_paths: "{p}"' for p in paths]
    _files.write_file_atomic(os.path.join(directory, "checkpoint"),
                             ("\n".join(lines) + "\n").encode("utf-8"))


def _read_state(directory):
    state = os.path.join(directory, "checkpoint")
    latest, everything = None, []
    if not os.path.exists(state):
        return None, []
    with open(state, encoding="utf-8") as f:
        for line in f:
            m = _STATE_LINE.match(line.strip())
            if m and m.group(1) == "model_checkpoint_path":
                latest = m.group(2)
            elif m:
                everything.append(m.group(2))
    return latest, everything


def latest_checkpoint(checkpoint_dir, latest_filename=None):
    """The newest prefix written by ``Checkpoint.save`` in ``checkpoint_dir``, or None."""
    latest, _ = _read_state(os.fspath(checkpoint_dir))
    if latest is None:
        return None
    path = latest if os.path.isabs(latest) else os.path.join(os.fspath(checkpoint_dir), latest)
    return path if os.path.exists(path + _INDEX) else None


def _resolve(ckpt_dir_or_file):
    p = os.fspath(ckpt_dir_or_file)
    if os.path.isdir(p):
        latest = latest_checkpoint(p)
        if latest is None:
            raise ValueError(f"Couldn't find 'checkpoint' file or checkpoints in given "
                             f"directory {p}")
        return latest
    return p


def list_variables(ckpt_dir_or_file):
    """``[(key, shape)]`` of every value in a checkpoint, sorted, as TensorFlow lists them."""
    entries = _read_index(_resolve(ckpt_dir_or_file))
    out = [(_OBJECT_GRAPH, [])] + [(k, list(shape)) for k, (_, _, shape) in entries.items()]
    return sorted(out)


def load_variable(ckpt_dir_or_file, name):
    """The saved value of ``name`` (a key from ``list_variables``) as a numpy array."""
    prefix = _resolve(ckpt_dir_or_file)
    entries = _read_index(prefix)
    if name not in entries:
        raise NotFoundError(None, None, f"Key {name} not found in checkpoint")
    return _read_arrays(prefix, {name: entries[name]})[name]


class CheckpointReader:
    """What ``tf.train.load_checkpoint`` returns: the keys, shapes and dtypes of a
    checkpoint's values, and each value as NumPy (read on demand, checked)."""

    def __init__(self, prefix):
        self._prefix = prefix
        self._entries = _read_index(prefix)

    def get_variable_to_shape_map(self) -> dict:
        out = {_OBJECT_GRAPH: []}
        out.update({k: list(shape) for k, (_, _, shape) in self._entries.items()})
        return out

    def get_variable_to_dtype_map(self) -> dict:
        out = {_OBJECT_GRAPH: _dt.string}
        out.update({k: _dt.as_dtype(d) for k, (_, d, _) in self._entries.items()})
        return out

    def has_tensor(self, key) -> bool:
        return key == _OBJECT_GRAPH or key in self._entries

    def get_tensor(self, key):
        """The saved value as a NumPy array (a NumPy scalar for a scalar, as TF)."""
        if key == _OBJECT_GRAPH:
            raise NotImplementedError("tfgraph_edu's checkpoints keep no serialized object "
                                      "graph proto: CheckpointReader.get_tensor('"
                                      f"{_OBJECT_GRAPH}') is not implemented (TF returns "
                                      "its bytes).")
        if key not in self._entries:
            raise NotFoundError(None, None, f"Key {key} not found in checkpoint")
        value = _read_arrays(self._prefix, {key: self._entries[key]})[key]
        return value[()] if value.ndim == 0 else value

    def debug_string(self):
        raise NotImplementedError("tfgraph_edu does not implement CheckpointReader."
                                  "debug_string (TF 2.21 has it): use "
                                  "get_variable_to_shape_map and get_variable_to_dtype_map.")


def load_checkpoint(ckpt_dir_or_file) -> CheckpointReader:
    """``tf.train.load_checkpoint``: a reader of a checkpoint prefix, or of the newest one
    in a directory."""
    return CheckpointReader(_resolve(ckpt_dir_or_file))


class CheckpointManager:
    """Numbered saves of one Checkpoint in a directory, keeping the last ``max_to_keep``."""

    def __init__(self, checkpoint, directory, max_to_keep, checkpoint_name="ckpt", **kwargs):
        self._checkpoint = checkpoint
        self.directory = os.fspath(directory)
        self._max = max_to_keep
        self._prefix = os.path.join(self.directory, checkpoint_name)
        _, existing = _read_state(self.directory)
        self._kept = [os.path.join(self.directory, p) for p in existing]

    @property
    def latest_checkpoint(self):
        return latest_checkpoint(self.directory)

    @property
    def checkpoints(self):
        return list(self._kept)

    def save(self, checkpoint_number=None):
        ckpt = self._checkpoint
        if checkpoint_number is not None:
            ckpt.save_counter.assign(int(checkpoint_number) - 1)
        path = ckpt.save(self._prefix)
        self._kept = [p for p in self._kept if p != path] + [path]
        while self._max is not None and len(self._kept) > self._max:
            old = self._kept.pop(0)
            for suffix in (_INDEX, _DATA):
                if os.path.exists(old + suffix):
                    os.remove(old + suffix)
        _update_state_file(self.directory, path,
                           [os.path.relpath(p, self.directory) for p in self._kept])
        return path
