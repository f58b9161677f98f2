"""SipHash-2-4 (Aumasson and Bernstein's keyed hash), the hash of TensorFlow's
``tf.strings.to_hash_bucket_strong`` (layer 1).  Written from the published algorithm
(two compression rounds per 8-byte word, four finalisation rounds)."""

from __future__ import annotations

_M = (1 << 64) - 1


def _rotl(x: int, b: int) -> int:
    return ((x << b) | (x >> (64 - b))) & _M


def siphash24(k0: int, k1: int, data: bytes) -> int:
    """The 64-bit SipHash-2-4 of ``data`` under the key words ``k0``, ``k1`` (each read
    as an unsigned 64-bit integer; the key's bytes are their little-endian bytes)."""
    k0 &= _M
    k1 &= _M
    v = [k0 ^ 0x736F6D6570736575, k1 ^ 0x646F72616E646F6D,
         k0 ^ 0x6C7967656E657261, k1 ^ 0x7465646279746573]

    def rounds(n):
        v0, v1, v2, v3 = v
        for _ in range(n):
            v0 = (v0 + v1) & _M
            v1 = _rotl(v1, 13) ^ v0
            v0 = _rotl(v0, 32)
            v2 = (v2 + v3) & _M
            v3 = _rotl(v3, 16) ^ v2
            v0 = (v0 + v3) & _M
            v3 = _rotl(v3, 21) ^ v0
            v2 = (v2 + v1) & _M
            v1 = _rotl(v1, 17) ^ v2
            v2 = _rotl(v2, 32)
        v[:] = v0, v1, v2, v3

    n = len(data)
    whole = n - n % 8
    words = [int.from_bytes(data[i:i + 8], "little") for i in range(0, whole, 8)]
    words.append(int.from_bytes(data[whole:], "little") | ((n & 0xFF) << 56))
    for m in words:
        v[3] ^= m
        rounds(2)
        v[0] ^= m
    v[2] ^= 0xFF
    rounds(4)
    return v[0] ^ v[1] ^ v[2] ^ v[3]
