"""``tf.strings.to_hash_bucket_fast`` and ``tf.strings.substr`` (layer 1).

``to_hash_bucket_fast`` puts each string in bucket ``Fingerprint64(s) % num_buckets`` as
TensorFlow does, so the buckets (and so the embeddings a learner looks up with them) are
TF's: ``fingerprint64`` below is FarmHash's 64-bit fingerprint (the "na" variant TF's
``Fingerprint64`` uses), written from the published algorithm on Python ints kept to 64 bits.
The ops have no gradient (TensorFlow registers none).
"""

from __future__ import annotations

import numpy as np

from .. import dtypes as _dt
from ..errors import InvalidArgumentError
from ._core import bind, define
from .string_ops import _as_bytes, _obj

M64 = (1 << 64) - 1
K0, K1, K2 = 0xC3A5C85C97CB3127, 0xB492B66FBE98F273, 0x9AE16A3B2F90404F
S = frozenset({_dt.string})


def _u64(b: bytes, i: int) -> int:
    return int.from_bytes(b[i:i + 8], "little")


def _u32(b: bytes, i: int) -> int:
    return int.from_bytes(b[i:i + 4], "little")


def _ror(v: int, s: int) -> int:
    return v if s == 0 else ((v >> s) | (v << (64 - s))) & M64


def _mix(v: int) -> int:
    return v ^ (v >> 47)


def _pair_hash(u: int, v: int, mul: int) -> int:
    a = ((u ^ v) * mul) & M64
    a ^= a >> 47
    b = ((v ^ a) * mul) & M64
    b ^= b >> 47
    return (b * mul) & M64


def _short(s: bytes) -> int:
    n = len(s)
    if n >= 8:
        mul = (K2 + n * 2) & M64
        a = (_u64(s, 0) + K2) & M64
        b = _u64(s, n - 8)
        c = (_ror(b, 37) * mul + a) & M64
        d = ((_ror(a, 25) + b) * mul) & M64
        return _pair_hash(c, d, mul)
    if n >= 4:
        mul = (K2 + n * 2) & M64
        return _pair_hash((n + (_u32(s, 0) << 3)) & M64, _u32(s, n - 4), mul)
    if n:
        y = s[0] + (s[n >> 1] << 8)
        z = n + (s[n - 1] << 2)
        return (_mix(((y * K2) ^ (z * K0)) & M64) * K2) & M64
    return K2


def _ends(s: bytes, n: int, mul: int, k: int) -> tuple[int, int]:
    """The two mixes of the first 16 and last 16 bytes both longer forms start from."""
    a = (_u64(s, 0) * k) & M64
    b = _u64(s, 8)
    c = (_u64(s, n - 8) * mul) & M64
    d = (_u64(s, n - 16) * K2) & M64
    return ((_ror((a + b) & M64, 43) + _ror(c, 30) + d) & M64,
            (a + _ror((b + K2) & M64, 18) + c) & M64)


def _medium(s: bytes) -> int:
    n = len(s)
    mul = (K2 + n * 2) & M64
    return _pair_hash(*_ends(s, n, mul, K1), mul)


def _long(s: bytes) -> int:
    n = len(s)
    mul = (K2 + n * 2) & M64
    a = (_u64(s, 0) * K2) & M64
    y, w = _ends(s, n, mul, K2)
    z = _pair_hash(y, w, mul)
    e = (_u64(s, 16) * mul) & M64
    f = _u64(s, 24)
    g = ((y + _u64(s, n - 32)) * mul) & M64
    h = ((z + _u64(s, n - 24)) * mul) & M64
    return _pair_hash((_ror((e + f) & M64, 43) + _ror(g, 30) + h) & M64,
                      (e + _ror((f + a) & M64, 18) + g) & M64, mul)


def _weak32(s: bytes, i: int, a: int, b: int) -> tuple[int, int]:
    w, x, y, z = _u64(s, i), _u64(s, i + 8), _u64(s, i + 16), _u64(s, i + 24)
    a = (a + w) & M64
    b = _ror((b + a + z) & M64, 21)
    c = a
    a = (a + x + y) & M64
    b = (b + _ror(a, 44)) & M64
    return (a + z) & M64, (b + c) & M64


def fingerprint64(s: bytes) -> int:
    """FarmHash's Fingerprint64 of ``s`` (an unsigned 64-bit int)."""
    n = len(s)
    if n <= 16:
        return _short(s)
    if n <= 32:
        return _medium(s)
    if n <= 64:
        return _long(s)
    seed = 81
    x = seed
    y = (seed * K1 + 113) & M64
    z = (_mix((y * K2 + 113) & M64) * K2) & M64
    v0 = v1 = w0 = w1 = 0
    x = (x * K2 + _u64(s, 0)) & M64
    end = ((n - 1) // 64) * 64
    last64 = end + ((n - 1) & 63) - 63
    i = 0
    while True:
        x = (_ror((x + y + v0 + _u64(s, i + 8)) & M64, 37) * K1) & M64
        y = (_ror((y + v1 + _u64(s, i + 48)) & M64, 42) * K1) & M64
        x ^= w1
        y = (y + v0 + _u64(s, i + 40)) & M64
        z = (_ror((z + w0) & M64, 33) * K1) & M64
        v0, v1 = _weak32(s, i, (v1 * K1) & M64, (x + w0) & M64)
        w0, w1 = _weak32(s, i + 32, (z + w1) & M64, (y + _u64(s, i + 16)) & M64)
        z, x = x, z
        i += 64
        if i == end:
            break
    mul = (K1 + ((z & 0xFF) << 1)) & M64
    i = last64
    w0 = (w0 + ((n - 1) & 63)) & M64
    v0 = (v0 + w0) & M64
    w0 = (w0 + v0) & M64
    x = (_ror((x + y + v0 + _u64(s, i + 8)) & M64, 37) * mul) & M64
    y = (_ror((y + v1 + _u64(s, i + 48)) & M64, 42) * mul) & M64
    x ^= (w1 * 9) & M64
    y = (y + v0 * 9 + _u64(s, i + 40)) & M64
    z = (_ror((z + w0) & M64, 33) * mul) & M64
    v0, v1 = _weak32(s, i, (v1 * mul) & M64, (x + w0) & M64)
    w0, w1 = _weak32(s, i + 32, (z + w1) & M64, (y + _u64(s, i + 16)) & M64)
    z, x = x, z
    return _pair_hash((_pair_hash(v0, w0, mul) + _mix(y) * K0 + z) & M64,
                      (_pair_hash(v1, w1, mul) + x) & M64, mul)


# -- StringToHashBucketFast ---------------------------------------------------------------------
def _bucket_kernel(x, num_buckets=1):
    out = _obj(lambda v: fingerprint64(_as_bytes(v)) % num_buckets, x)
    return out.astype(np.int64)


StringToHashBucketFast = define(
    "StringToHashBucketFast", ("input",), _bucket_kernel,
    lambda x, num_buckets=1: (x.shape, _dt.int64), None, dtypes=S)


def to_hash_bucket_fast(input, num_buckets, name=None):  # noqa: A002 - TF's argument name
    """Each string's bucket, ``Fingerprint64(s) % num_buckets`` (int64), as TF's."""
    from . import convert
    if int(num_buckets) < 1:  # TF's attr check
        raise InvalidArgumentError(
            None, None, f"Value for attr 'num_buckets' of {int(num_buckets)} must be at least "
            "minimum 1\n\t; NodeDef: {{node StringToHashBucketFast}}")
    from .ragged_ops import RaggedTensor
    t = input if isinstance(input, RaggedTensor) else convert.to_tensor(input, dtype=_dt.string)
    return bind(StringToHashBucketFast, (t,), {"num_buckets": int(num_buckets)}, name)


# -- Substr ---------------------------------------------------------------------------------------
def _substr_kernel(x, pos, length, unit="BYTE"):
    shape = np.broadcast_shapes(np.shape(x), np.shape(pos), np.shape(length))
    xs = np.broadcast_to(np.asarray(x, dtype=object), shape).reshape(-1)
    ps = np.broadcast_to(np.asarray(pos), shape).reshape(-1)
    ls = np.broadcast_to(np.asarray(length), shape).reshape(-1)
    out = np.empty(shape, dtype=object)
    flat = out.reshape(-1)
    for i in range(flat.size):
        s = _as_bytes(xs[i])
        chars = s.decode("utf-8") if unit == "UTF8_CHAR" else s
        n, p = len(chars), int(ps[i])
        if p > n or p < -n:  # TF's words
            raise InvalidArgumentError(None, None, f"pos {p} out of range for string "
                                                   f"b'{s.decode('utf-8', 'replace')}' at "
                                                   f"index {i}")
        p = p + n if p < 0 else p
        piece = chars[p:p + max(int(ls[i]), 0)]
        flat[i] = piece.encode("utf-8") if unit == "UTF8_CHAR" else piece
    return out


def _substr_shape(x, pos, length, unit="BYTE"):
    from ._rules import broadcast_shapes
    return broadcast_shapes(broadcast_shapes(x.shape, pos.shape), length.shape), _dt.string


Substr = define("Substr", ("input", "pos", "len"), _substr_kernel, _substr_shape, None,
                input_dtypes={1: _dt.int32, 2: _dt.int32})


def substr(input, pos, len, unit="BYTE", name=None):  # noqa: A002 - TF's argument names
    """The substring of each string at ``pos`` of ``len`` bytes (or UTF-8 characters)."""
    if unit not in ("BYTE", "UTF8_CHAR"):
        raise ValueError(f"unit must be 'BYTE' or 'UTF8_CHAR', got {unit!r}")
    return bind(Substr, (input, pos, len), {"unit": unit}, name)
