"""A Python client of the MemoryHub API for agents: ``MemoryHub`` and ``AsyncMemoryHub``.

It needs only httpx (no Django): an agent's process imports it without the server's
settings. README, "Python client", shows it at work.
"""

from memoryhub.client.core import Call, RetryPolicy
from memoryhub.client.errors import (
    AuthenticationError,
    ConflictError,
    ConnectionFailed,
    MemoryHubError,
    NotFoundError,
    PermissionDenied,
    RateLimitedError,
    ServerError,
    ValidationError,
)
from memoryhub.client.hub import AsyncMemoryHub, MemoryHub

__all__ = [
    "AsyncMemoryHub",
    "AuthenticationError",
    "Call",
    "ConflictError",
    "ConnectionFailed",
    "MemoryHub",
    "MemoryHubError",
    "NotFoundError",
    "PermissionDenied",
    "RateLimitedError",
    "RetryPolicy",
    "ServerError",
    "ValidationError",
]
