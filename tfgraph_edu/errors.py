"""``tf.errors``: TensorFlow's exception classes (layer 0)."""

from __future__ import annotations

__all__ = [
    "OpError", "CancelledError", "UnknownError", "InvalidArgumentError",
    "DeadlineExceededError", "NotFoundError", "AlreadyExistsError",
    "PermissionDeniedError", "ResourceExhaustedError", "FailedPreconditionError",
    "AbortedError", "OutOfRangeError", "UnimplementedError", "InternalError",
    "UnavailableError", "DataLossError", "UnauthenticatedError",
]


class OpError(Exception):
    """An operation failed. ``op`` names it (or is None), ``message`` says why."""

    error_code = 2

    def __init__(self, node_def=None, op=None, message="", *args):
        super().__init__(message)
        self.node_def = node_def
        self.op = op
        self.message = message

    def __str__(self):
        return self.message

    def __reduce__(self):
        return type(self), (self.node_def, None, self.message)


def _make(name: str, code: int, doc: str):
    cls = type(name, (OpError,), {"error_code": code, "__doc__": doc})
    cls.__module__ = __name__
    return cls


CancelledError = _make("CancelledError", 1, "An operation was cancelled.")
UnknownError = _make("UnknownError", 2, "An unknown error occurred.")
InvalidArgumentError = _make("InvalidArgumentError", 3, "An op received an invalid argument.")
DeadlineExceededError = _make("DeadlineExceededError", 4, "A deadline expired.")
NotFoundError = _make("NotFoundError", 5, "A requested entity was not found.")
AlreadyExistsError = _make("AlreadyExistsError", 6, "An entity already exists.")
PermissionDeniedError = _make("PermissionDeniedError", 7, "Permission denied.")
ResourceExhaustedError = _make("ResourceExhaustedError", 8, "A resource was exhausted.")
FailedPreconditionError = _make("FailedPreconditionError", 9,
                                "The system is not in a state to run the op.")
AbortedError = _make("AbortedError", 10, "An operation was aborted.")
OutOfRangeError = _make("OutOfRangeError", 11, "An operation iterated past the valid range.")
UnimplementedError = _make("UnimplementedError", 12, "The operation is not implemented.")
InternalError = _make("InternalError", 13, "An internal invariant was broken.")
UnavailableError = _make("UnavailableError", 14, "The runtime is unavailable.")
DataLossError = _make("DataLossError", 15, "Unrecoverable data loss.")
UnauthenticatedError = _make("UnauthenticatedError", 16, "The request is not authenticated.")


class InaccessibleTensorError(ValueError):
    """A symbolic tensor was used outside the graph (trace) that made it."""


class OperatorNotAllowedInGraphError(TypeError):
    """A Python operation (bool, iteration) was used on a symbolic tensor."""

from ._missing import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr("errors", __name__)
