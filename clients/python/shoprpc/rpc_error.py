"""The base classes of error replies: :class:`RPCError`, and :class:`ShopError` for the shop's own codes.

Apart from errors.py (the engine's errors and the lookup) so that errors_generated.py, which
errors.py imports, can derive the shop's error classes from :class:`ShopError`.
"""

from __future__ import annotations

from typing import Any, Dict, Mapping, Optional

__all__ = ["RPCError", "ShopError"]


class RPCError(Exception):
    """An error reply from the server.

    ``str(error)`` is the server's message, meant for people; programs should look at the class,
    ``code`` or ``type``. ``data`` is the reply's ``error.data`` object (``{}`` when absent).
    ``request_id`` and ``request_method`` name the call this error answers (``None`` when the server
    could not attribute it, e.g. a parse error).
    """

    def __init__(
        self,
        code: int,
        message: str,
        data: Optional[Mapping[str, Any]] = None,
        *,
        request_id: Any = None,
        request_method: Optional[str] = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.data: Dict[str, Any] = dict(data) if isinstance(data, Mapping) else {}
        self.request_id = request_id
        self.request_method = request_method

    @property
    def type(self) -> Optional[str]:
        """``data.type``: the error's name for programs (e.g. ``"OutOfStock"``)."""
        value = self.data.get("type")
        return value if isinstance(value, str) else None

    @property
    def detail(self) -> Optional[str]:
        """``data.detail`` when the server gave one."""
        return self.data.get("detail")

    def __repr__(self) -> str:
        return f"{type(self).__name__}(code={self.code!r}, message={self.message!r}, data={self.data!r})"


class ShopError(RPCError):
    """Base of the shop's domain errors (codes >= 1000); the classes of each code are generated
    (errors_generated.py)."""
