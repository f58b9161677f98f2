"""``tf.experimental.ExtensionType``: user classes of typed fields, carried as composites.

A subclass declares its fields with annotations (``values: tf.Tensor``, ``name: str``,
``attributes: Mapping[str, tf.Tensor]``, ``children: Tuple["Node", ...]``, a ``tf.TensorShape``,
a ``tf.DType``, another extension type, a ``Union`` of these).  The metaclass gives it, as
TensorFlow 2.21 does:

- a constructor taking one argument per field (or the user's ``__init__``, wrapped), which
  converts each value to its declared type (tensors with ``tf.constant``'s rules, mappings to
  an immutable ``ImmutableDict``) and then calls ``__validate__``;
- immutability: fields are set only inside the constructor (TF's ``AttributeError`` after);
- ``__repr__``, and ``__eq__`` (a boolean tensor when both specs match, ``False`` otherwise);
- a nested ``Spec`` class (an :class:`ExtensionTypeSpec`: each tensor field as a
  ``TensorSpec``, the rest as it is), merged with a ``Spec`` the user writes.

The value is a composite of ``composite.py``: its components are its tensor fields (and
those of nested composites) in field order, mappings in sorted key order; ``tf.function``,
``tf.cond`` and ``tf.while_loop`` carry it through them, and trace keys are its spec.
Annotations given as strings are resolved in the class's module, as ``typing.get_type_hints``
does; one that does not resolve fails when a value is built, with TF's TypeError.
"""

from __future__ import annotations

import abc
import inspect
import re
import typing
from collections.abc import Mapping

from .. import dtypes as _dt
from ..shapes import TensorShape, TensorSpec
from .composite import CompositeTensor, TypeSpec
from .convert import TensorBase, to_tensor

_IN_CONSTRUCTOR = "_tf_extension_type_in_constructor"
_MUTABLE = ("_keras_mask",)


class _NoDefault:
    def __repr__(self):
        return "ExtensionTypeField.NO_DEFAULT"


NO_DEFAULT = _NoDefault()


class ImmutableDict(Mapping):
    """The read-only mapping a ``Mapping[...]`` field holds."""

    def __init__(self, *args, **kwargs):
        self._dict = dict(*args, **kwargs)

    def __getitem__(self, key):
        return self._dict[key]

    def __iter__(self):
        return iter(self._dict)

    def __len__(self):
        return len(self._dict)

    def __contains__(self, key):
        return key in self._dict

    def __repr__(self):
        return f"ImmutableDict({self._dict})"


# -- fields ------------------------------------------------------------------------------------
class _Field(typing.NamedTuple):
    name: str
    value_type: object
    default: object


_VALUE, _SPEC, _DEFAULT = "value", "spec", "default"


def _origin(t):
    return typing.get_origin(t)


def _args(t):
    return typing.get_args(t)


def _is_tuple(t):
    return _origin(t) is tuple


def _is_mapping(t):
    return _origin(t) in (Mapping, dict, typing.Mapping)


def _is_union(t):
    import types
    return _origin(t) is typing.Union or _origin(t) is types.UnionType


def _type_name(t):
    return t.__name__ if isinstance(t, type) else repr(t)


def _convert(value, t, path, context):
    """``value`` checked and converted to the annotation ``t`` (TF's TypeError otherwise)."""
    where = "".join(path)
    if t is None:
        t = type(None)
    if t is TensorBase:
        return _convert_tensor(value, where, context)
    if isinstance(t, type) and issubclass(t, CompositeTensor):
        if context == _SPEC:
            if not (isinstance(value, TypeSpec) and isinstance(value.value_type, type)
                    and issubclass(value.value_type, t)):
                raise TypeError(f"{where}: expected a TypeSpec for {t.__name__!r}, got "
                                f"{type(value).__name__!r}")
            return value
        if not isinstance(value, t):
            raise TypeError(f"{where}: expected {t.__name__!r}, got {type(value).__name__!r}")
        return value
    if t is TensorShape:
        try:
            return value if isinstance(value, TensorShape) else TensorShape(value)
        except (TypeError, ValueError) as e:
            raise TypeError(f"{where}: expected 'tf.TensorShape', got "
                            f"{type(value).__name__!r}") from e
    if t is _dt.DType:
        try:
            return _dt.as_dtype(value)
        except (TypeError, ValueError, KeyError) as e:
            raise TypeError(f"{where}: expected 'tf.DType', got {type(value).__name__!r}") from e
    if t in (int, float, bool, str, bytes, type(None)):
        if not isinstance(value, t):
            raise TypeError(f"{where}: expected {t.__name__!r}, got {type(value).__name__!r}")
        return value
    if _is_tuple(t):
        if not isinstance(value, typing.Sequence):
            raise TypeError(f"{where}: expected tuple, got {type(value).__name__!r}")
        items = _args(t)
        if len(items) == 2 and items[1] is Ellipsis:
            return tuple(_convert(v, items[0], path + (f"[{i}]",), context)
                         for i, v in enumerate(value))
        if len(value) != len(items):
            raise TypeError(f"{where}: expected tuple with length {len(items)}, got "
                            f"{type(value).__name__!r})")
        return tuple(_convert(v, s, path + (f"[{i}]",), context)
                     for i, (v, s) in enumerate(zip(value, items)))
    if _is_mapping(t):
        if not isinstance(value, Mapping):
            raise TypeError(f"{where}: expected mapping, got {type(value).__name__!r}")
        kt, vt = _args(t)
        return ImmutableDict([(_convert(k, kt, path + ("[<key>]",), context),
                               _convert(v, vt, path + (f"[{k!r}]",), context))
                              for k, v in value.items()])
    if _is_union(t):
        for option in _args(t):
            try:
                return _convert(value, option, path, context)
            except TypeError:
                pass
        raise TypeError(f"{where}: expected {t!r}, got {type(value).__name__!r}")
    raise TypeError(f"{where}: Unsupported type annotation {t!r}")


def _convert_tensor(value, where, context):
    if context == _SPEC:
        if not isinstance(value, TensorSpec):
            raise TypeError(f"{where}: expected a TensorSpec, got {type(value).__name__!r}")
        return value
    if isinstance(value, TensorBase):
        return value
    if context == _DEFAULT:
        return value
    if hasattr(value, "_as_tensor"):  # a Variable: its value
        return value._as_tensor()
    try:
        return to_tensor(value)
    except (TypeError, ValueError) as e:
        raise TypeError(f"{where}: expected a Tensor, got {type(value).__name__!r}") from e


def _check_annotation(t, where):
    """TF's check of an annotation when the class is made (strings wait until use)."""
    if isinstance(t, (str, typing.ForwardRef)):
        return
    if t in (int, float, str, bytes, bool, None, type(None), _dt.DType, TensorBase,
             TensorShape) or (isinstance(t, type) and issubclass(t, CompositeTensor)):
        return
    if _is_tuple(t) or _is_union(t) or _is_mapping(t):
        for a in _args(t):
            if a is not Ellipsis:
                _check_annotation(a, where)
        return
    raise TypeError(f"In field {where!r}: Unsupported type annotation {_type_name(t)!r}")


def fields_of(cls) -> tuple:
    """The fields of an extension type class, in annotation order (bases first)."""
    cached = cls.__dict__.get("_tf_extension_type_cached_fields")
    if cached is not None:
        return cached
    try:
        hints = typing.get_type_hints(cls)
        resolved = True
    except (NameError, AttributeError):  # a name not defined (yet): kept as its string
        hints = {}
        for base in reversed(cls.__mro__):
            hints.update(base.__dict__.get("__annotations__", {}))
        resolved = False
    out = []
    for name, t in hints.items():
        if isinstance(t, typing.ForwardRef):
            t = t.__forward_arg__
        _check_annotation(t, name)
        default = getattr(cls, name, NO_DEFAULT)
        if default is not NO_DEFAULT:
            default = _convert(default, t, (f"default value for {name}",), _DEFAULT)
        out.append(_Field(name, t, default))
    out = tuple(out)
    if resolved:
        type.__setattr__(cls, "_tf_extension_type_cached_fields", out)
    return out


def _convert_fields(obj, context):
    fields = fields_of(obj.value_type if context == _SPEC else type(obj))
    values = obj.__dict__
    names = {f.name for f in fields}
    given = {k for k in values if not k.startswith("_tf_extension_type")}
    if given - names:
        raise ValueError(f"Got unexpected fields: {given - names}")
    if names - given:
        raise ValueError(f"Missing required fields: {names - given}")
    converted = {f.name: _convert(values[f.name], f.value_type, (f.name,), context)
                 for f in fields}
    values.clear()
    values.update(converted)


# -- the value ---------------------------------------------------------------------------------
def _spec_of(value):
    if isinstance(value, TensorBase):
        return TensorSpec(value.shape, value.dtype)
    if isinstance(value, CompositeTensor):
        return value._type_spec
    if isinstance(value, ImmutableDict):
        return ImmutableDict((k, _spec_of(v)) for k, v in value.items())
    if isinstance(value, tuple):
        return tuple(_spec_of(v) for v in value)
    return value


def _walk(value):
    """The leaves of a field value: mappings in sorted key order, tuples in order."""
    if isinstance(value, Mapping):
        for k in sorted(value):
            yield from _walk(value[k])
    elif isinstance(value, tuple):
        for v in value:
            yield from _walk(v)
    else:
        yield value


def _rebuild(like, it):
    if isinstance(like, Mapping):
        by_key = {k: _rebuild(like[k], it) for k in sorted(like)}
        return ImmutableDict((k, by_key[k]) for k in like)
    if isinstance(like, tuple):
        return tuple(_rebuild(v, it) for v in like)
    if isinstance(like, TensorSpec):
        return next(it)
    if isinstance(like, TypeSpec):
        n = len(like._component_specs())
        return like._from_components([next(it) for _ in range(n)])
    return like


def _key_of(value):
    if isinstance(value, TensorSpec):
        dims = value.shape.dims
        return ("T", value.dtype.name, None if dims is None else tuple(dims))
    if isinstance(value, TypeSpec):
        return value._key()
    if isinstance(value, Mapping):
        return ("M",) + tuple((k, _key_of(value[k])) for k in value)
    if isinstance(value, tuple):
        return ("U",) + tuple(_key_of(v) for v in value)
    if isinstance(value, TensorShape):
        return ("S", None if value.dims is None else tuple(value.dims))
    if isinstance(value, _dt.DType):
        return ("D", value.name)
    return ("P", type(value).__name__, value)


def _make(cls, fields: dict):
    obj = object.__new__(cls)
    obj.__dict__.update(fields)
    return obj


# Spec classes by registered name (``__name__ = "project.Type"`` in the class body, as in TF:
# the name a SavedModel stores to rebuild its values; only classes of this process are found)
_REGISTERED: dict = {}
_NAME_FORM = re.compile(r"^(\w+\.)+\w+$")


def _register(cls):
    name = cls.__dict__.get("__name__")
    if not isinstance(name, str):
        return
    key = name + ".Spec"
    if not _NAME_FORM.match(key):
        raise ValueError("Registered name must have the form '{project_name}.{type_name}' "
                         f"(e.g. 'my_project.MyTypeSpec'); got '{key}'.")
    old = _REGISTERED.get(key)
    if old is not None and old is not cls.Spec:
        raise ValueError(f"Name {key} has already been registered for class "
                         f"{old.__module__}.{old.__qualname__}.")
    _REGISTERED[key] = cls.Spec


def registered_name(spec_class):
    """The name ``spec_class`` was registered under, or None."""
    name = spec_class.value_type.__dict__.get("__name__")
    key = None if not isinstance(name, str) else name + ".Spec"
    return key if _REGISTERED.get(key) is spec_class else None


def lookup_registered(name):
    """The Spec class registered as ``name``, or None."""
    return _REGISTERED.get(name)


def make_spec(spec_class, fields: dict):
    """A spec of ``spec_class`` with these fields (no constructor run: they are checked)."""
    return _make(spec_class, fields)


class ExtensionTypeMetaclass(abc.ABCMeta):
    """Makes each user subclass's constructor and ``Spec`` (not the framework's own bases)."""

    def __init__(cls, name, bases, namespace):
        super().__init__(name, bases, namespace)
        if namespace.get("_tf_extension_type_do_not_transform_this_class", False):
            return
        _check_class(cls)
        if "__init__" in namespace:
            _wrap_constructor(cls, "ExtensionType")
        else:
            _build_constructor(cls)
        _add_spec(cls)
        _register(cls)


def _check_class(cls):
    annotations = cls.__dict__.get("__annotations__", {})
    for key, value in cls.__dict__.items():
        if key == "Spec":
            if not isinstance(value, type):
                raise ValueError(f"{cls.__qualname__}.Spec must be a nested class; got {value}.")
            continue
        if key.lower().startswith("_tf_extension_type"):
            raise ValueError(f"The field annotations for {cls.__name__} are invalid. "
                             f"Field '{key}' is reserved.")
        if not (key in annotations or callable(value) or key.startswith("_abc_")
                or (key.startswith("__") and key.endswith("__"))
                or isinstance(value, (property, classmethod, staticmethod))):
            raise ValueError(f"The field annotations for {cls.__name__} are invalid. "
                             f"Field {key} is missing a type annotation.")


def _wrap_constructor(cls, kind):
    user_init = cls.__init__

    def __init__(self, *args, **kwargs):
        self.__dict__[_IN_CONSTRUCTOR] = True
        try:
            user_init(self, *args, **kwargs)
        finally:
            self.__dict__.pop(_IN_CONSTRUCTOR, None)
        _convert_fields(self, _SPEC if kind == "Spec" else _VALUE)
        self.__validate__()

    __init__.__wrapped__ = user_init
    __init__.__doc__ = user_init.__doc__
    type.__setattr__(cls, "__init__", __init__)


def _build_constructor(cls):
    fields = fields_of(cls)
    params, seen_default, keyword_only = [], False, False
    for f in fields:
        if f.default is not NO_DEFAULT:
            seen_default = True
        elif seen_default:
            keyword_only = True
        kind = (inspect.Parameter.KEYWORD_ONLY if keyword_only
                else inspect.Parameter.POSITIONAL_OR_KEYWORD)
        default = inspect.Parameter.empty if f.default is NO_DEFAULT else f.default
        params.append(inspect.Parameter(f.name, kind, default=default))
    signature = inspect.Signature(params)

    def __init__(self, *args, **kwargs):
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        self.__dict__.update(bound.arguments)
        _convert_fields(self, _VALUE)
        self.__validate__()

    __init__.__signature__ = inspect.Signature(
        [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)] + params)
    type.__setattr__(cls, "__init__", __init__)


def _build_spec_constructor(spec):
    params = [inspect.Parameter(f.name, inspect.Parameter.POSITIONAL_OR_KEYWORD)
              for f in fields_of(spec.value_type)]
    signature = inspect.Signature(params)

    def __init__(self, *args, **kwargs):
        bound = signature.bind(*args, **kwargs)
        self.__dict__.update(bound.arguments)
        _convert_fields(self, _SPEC)
        self.__validate__()

    type.__setattr__(spec, "__init__", __init__)


def _add_spec(cls):
    body = {"value_type": cls, "__module__": cls.__module__}
    user = cls.__dict__.get("Spec")
    if user is not None:
        names = {f.name for f in fields_of(cls)}
        for name, value in user.__dict__.items():
            if name in names:
                raise ValueError(f"TypeSpec {cls.__qualname__}.Spec defines a variable "
                                 f"'{name}' which shadows a field in {cls.__qualname__}")
            if name not in ("__module__", "__dict__", "__weakref__", "__qualname__"):
                body[name] = value
    base = BatchableExtensionTypeSpec if issubclass(cls, BatchableExtensionType) \
        else ExtensionTypeSpec
    spec = type(cls.__name__ + ".Spec", (base,), body)
    spec.__qualname__ = cls.__qualname__ + ".Spec"
    if "__init__" in body:
        _wrap_constructor(spec, "Spec")
    else:
        _build_spec_constructor(spec)
    type.__setattr__(cls, "Spec", spec)


def _immutable(kind):
    def __setattr__(self, name, value):
        if name in _MUTABLE or (_IN_CONSTRUCTOR in self.__dict__ and any(
                f.name == name for f in fields_of(_owner(self)))):
            self.__dict__[name] = value
        else:
            raise AttributeError(f"Cannot mutate attribute `{name}` outside the custom "
                                 f"constructor of {kind}.")

    def __delattr__(self, name):
        if name in _MUTABLE or (_IN_CONSTRUCTOR in self.__dict__ and any(
                f.name == name for f in fields_of(_owner(self)))):
            del self.__dict__[name]
        else:
            raise AttributeError(f"Cannot mutate attribute `{name}` outside the custom "
                                 f"constructor of {kind}.")
    return __setattr__, __delattr__


def _owner(obj):
    return obj.value_type if isinstance(obj, ExtensionTypeSpec) else type(obj)


class ExtensionType(CompositeTensor, metaclass=ExtensionTypeMetaclass):
    """Base of user-defined extension types (``tf.experimental.ExtensionType``)."""

    _tf_extension_type_do_not_transform_this_class = True
    _loop_shape_free = True  # loops carry its components as they are (no composite shape)
    _expands_in_nest = True  # tf.nest's expand_composites=True flattens it into its tensors

    def __init__(self, *args, **kwargs):
        if type(self) is ExtensionType:
            raise AssertionError("Cannot create an instance of ExtensionType because "
                                 "ExtensionType is an abstract base class.")

    __setattr__, __delattr__ = _immutable("ExtensionType")

    def _fields_dict(self):
        return {f.name: self.__dict__[f.name] for f in fields_of(type(self))}

    def __repr__(self):
        inner = ", ".join(f"{k}={v!r}" for k, v in self._fields_dict().items())
        return f"{type(self).__qualname__}({inner})"

    def __eq__(self, other):
        if type(self) is not type(other) or self._type_spec != other._type_spec:
            return False
        from . import concat_ops, math_ops, reduction_ops, shape_ops
        conditions = []
        for a, b in zip(self._ag_components(), other._ag_components()):
            conditions.append(reduction_ops.reduce_all(
                math_ops.equal(shape_ops.shape(a), shape_ops.shape(b))))
            conditions.append(reduction_ops.reduce_all(math_ops.equal(a, b)))
        if not conditions:
            return to_tensor(True)
        return reduction_ops.reduce_all(concat_ops.stack(conditions))

    def __ne__(self, other):
        eq = self.__eq__(other)
        if isinstance(eq, TensorBase):
            from . import math_ops
            return math_ops.logical_not(eq)
        return not eq

    __hash__ = None

    def __validate__(self):
        """Checks run after the constructor (override it)."""

    @property
    def _type_spec(self):
        cached = self.__dict__.get("_tf_extension_type_cached_type_spec")
        if cached is None:
            cached = type(self).Spec.from_value(self)
            self.__dict__["_tf_extension_type_cached_type_spec"] = cached
        return cached

    def _ag_components(self) -> list:
        out = []
        for v in _walk(tuple(self._fields_dict().values())):
            if isinstance(v, TensorBase):
                out.append(v)
            elif isinstance(v, CompositeTensor):
                out.extend(v._ag_components())
        return out

    def _ag_rebuild(self, components):
        return self._type_spec._from_components(list(components))


class BatchableExtensionType(ExtensionType):
    """An extension type whose values can be batched and unbatched
    (``tf.experimental.BatchableExtensionType``)."""

    _tf_extension_type_do_not_transform_this_class = True


class ExtensionTypeSpec(TypeSpec):
    """The type of an extension type value: tensor fields as ``TensorSpec``s, the rest as is
    (``tf.experimental.ExtensionTypeSpec``)."""

    value_type = None
    __setattr__, __delattr__ = _immutable("ExtensionTypeSpec")

    def __init__(self, *args, **kwargs):  # the generated Spec classes make their own
        raise TypeError("ExtensionTypeSpec is abstract: use the Spec of an ExtensionType.")

    def _fields_dict(self):
        return {f.name: self.__dict__[f.name] for f in fields_of(self.value_type)}

    @classmethod
    def from_value(cls, value):
        cached = value.__dict__.get("_tf_extension_type_cached_type_spec")
        if cached is not None:
            return cached
        return _make(cls, {k: _spec_of(v) for k, v in value._fields_dict().items()})

    def __validate__(self):
        """Checks run after the constructor (override it)."""

    def __repr__(self):
        def plain(v):
            if isinstance(v, Mapping):
                return {k: plain(x) for k, x in v.items()}
            if isinstance(v, tuple):
                return tuple(plain(x) for x in v)
            return v
        inner = ", ".join(f"{k}={plain(v)!r}" for k, v in self._fields_dict().items())
        return f"{type(self).__qualname__}({inner})"

    def _key(self):
        return (type(self).__qualname__, id(self.value_type)) + tuple(
            (k, _key_of(v)) for k, v in self._fields_dict().items())

    def __eq__(self, other):
        return type(other) is type(self) and other._key() == self._key()

    def __hash__(self):
        return hash(self._key())

    def is_compatible_with(self, other) -> bool:
        other = getattr(other, "_type_spec", other)
        if type(other) is not type(self):
            return False
        mine = list(_walk(tuple(self._fields_dict().values())))
        theirs = list(_walk(tuple(other._fields_dict().values())))
        if len(mine) != len(theirs):
            return False
        for a, b in zip(mine, theirs):
            if isinstance(a, TensorSpec) and isinstance(b, TensorSpec):
                if a.dtype is not b.dtype or not a.shape.is_compatible_with(b.shape):
                    return False
            elif isinstance(a, TypeSpec):
                if not a.is_compatible_with(b):
                    return False
            elif _key_of(a) != _key_of(b):
                return False
        return True

    def _first_incompatible(self, other):
        """(theirs, mine): the first pair of tensor specs of ``other`` and this spec that
        do not match, or None."""
        if type(other) is not type(self):
            return None
        for a, b in zip(other._component_specs(), self._component_specs()):
            if a.dtype is not b.dtype or not b.shape.is_compatible_with(a.shape):
                return a, b
        return None

    def _component_specs(self) -> list:
        out = []
        for v in _walk(tuple(self._fields_dict().values())):
            if isinstance(v, TensorSpec):
                out.append(v)
            elif isinstance(v, TypeSpec):
                out.extend(v._component_specs())
        return out

    def _from_components(self, components):
        it = iter(components)
        fields = {k: _rebuild(v, it) for k, v in self._fields_dict().items()}
        return _make(self.value_type, fields)

    @staticmethod
    def _with_shape(spec, shape):
        return spec

    def __getattr__(self, name):
        if name in ("_shape", "_dtype"):
            raise AttributeError(f"{type(self).__qualname__!r} object has no attribute "
                                 f"{name.lstrip('_')!r}")
        raise AttributeError(f"{type(self).__qualname__!r} object has no attribute {name!r}")


    def _with_component_specs(self, specs):
        """This spec with its tensor specs replaced by ``specs`` (in component order)."""
        it = iter(specs)

        def swap(v):
            if isinstance(v, Mapping):
                by_key = {k: swap(v[k]) for k in sorted(v)}
                return ImmutableDict((k, by_key[k]) for k in v)
            if isinstance(v, tuple):
                return tuple(swap(x) for x in v)
            if isinstance(v, TensorSpec):
                return next(it)
            if isinstance(v, ExtensionTypeSpec):
                return v._with_component_specs([next(it) for _ in v._component_specs()])
            if isinstance(v, TypeSpec):
                raise NotImplementedError(f"tfgraph_edu cannot re-shape a {type(v).__name__} "
                                          "inside an extension type yet.")
            return v
        return _make(type(self), {k: swap(v) for k, v in self._fields_dict().items()})


class BatchableExtensionTypeSpec(ExtensionTypeSpec):
    """The spec of a :class:`BatchableExtensionType`: batching adds a first dimension to
    each tensor field and ``tf.TensorShape`` field (and batches nested batchable types)."""

    def _map_batch(self, tensor_fn, shape_fn, nested):
        def each(v):
            if isinstance(v, Mapping):
                return ImmutableDict((k, each(x)) for k, x in v.items())
            if isinstance(v, tuple):
                return tuple(each(x) for x in v)
            if isinstance(v, TensorSpec):
                return TensorSpec(tensor_fn(v.shape), v.dtype)
            if isinstance(v, TensorShape):
                return shape_fn(v)
            if isinstance(v, BatchableExtensionTypeSpec):
                return nested(v)
            if isinstance(v, TypeSpec):
                raise NotImplementedError(f"tfgraph_edu cannot batch a {type(v).__name__} "
                                          "inside an extension type yet.")
            return v
        return _make(type(self), {k: each(v) for k, v in self._fields_dict().items()})

    def _batch(self, batch_size):
        """The spec of a batch of ``batch_size`` (None: unknown) such values."""
        def add(shape):
            return TensorShape([batch_size]).concatenate(shape)
        return self._map_batch(add, add, lambda v: v._batch(batch_size))

    def _unbatch(self):
        """The spec of one value of a batch of such values."""
        def drop(shape):
            if shape.rank is None:
                return TensorShape(None)
            if shape.rank == 0:
                raise ValueError("Unbatching a tensor is only supported for rank >= 1")
            return TensorShape(shape.dims[1:])
        return self._map_batch(drop, drop, lambda v: v._unbatch())


def as_dict(value):
    """``tf.experimental.extension_type.as_dict``: the fields of an extension type value."""
    return dict(value._fields_dict())


def type_spec_from_value(value):
    """``tf.type_spec_from_value``: the spec of a tensor or composite value."""
    if isinstance(value, CompositeTensor):
        return value._type_spec
    if isinstance(value, TensorBase):
        return TensorSpec(value.shape, value.dtype)
    try:
        t = to_tensor(value)
    except (TypeError, ValueError):
        raise TypeError(f"Could not build a TypeSpec for {value!r} of unsupported type "
                        f"{type(value)}.") from None
    return TensorSpec(t.shape, t.dtype)


