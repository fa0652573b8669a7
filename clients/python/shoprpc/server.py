"""Finding the shop-rpc binary to spawn."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import List, Optional

__all__ = ["ServerNotFoundError", "find_server_binary", "bundled_server_binary", "BINARY_ENV_VAR"]

#: Environment variable naming the server binary; checked first.
BINARY_ENV_VAR = "SHOP_RPC_BIN"

# <repo>/clients/python/shoprpc/server.py -> <repo>
_REPO_ROOT = Path(__file__).resolve().parents[3]


class ServerNotFoundError(FileNotFoundError):
    """No shop-rpc binary was found. The message lists every place that was tried."""


def find_server_binary(binary: Optional[str] = None) -> str:
    """The path of the server binary to spawn.

    Looks, in order, at ``binary`` (when given), ``$SHOP_RPC_BIN``, the binary installed with this
    package (the platform wheel's ``shop-rpc``, see :func:`bundled_server_binary`), ``shop-rpc`` on
    ``PATH``, and the repository's release build ``<repo>/.build/release/shop-rpc`` (located
    relative to this file). Raises :class:`ServerNotFoundError` naming every place tried.
    """
    tried: List[str] = []
    if binary:
        if _is_executable(binary):
            return binary
        raise ServerNotFoundError(f"shop-rpc binary {binary!r} does not exist or is not executable")
    from_env = os.environ.get(BINARY_ENV_VAR)
    if from_env:
        if _is_executable(from_env):
            return from_env
        raise ServerNotFoundError(f"${BINARY_ENV_VAR}={from_env!r} does not exist or is not executable")
    tried.append(f"${BINARY_ENV_VAR} (unset)")
    bundled = bundled_server_binary()
    if bundled:
        return bundled
    tried.append("the binary of the shoprpc wheel (not installed)")
    on_path = shutil.which("shop-rpc")
    if on_path:
        return on_path
    tried.append("'shop-rpc' on PATH")
    release = _REPO_ROOT / ".build" / "release" / "shop-rpc"
    if _is_executable(str(release)):
        return str(release)
    tried.append(str(release))
    raise ServerNotFoundError(
        "shop-rpc binary not found; tried " + ", ".join(tried)
        + f". Build it (`swift build -c release --product shop-rpc` in {_REPO_ROOT}) or set ${BINARY_ENV_VAR}."
    )


def bundled_server_binary() -> Optional[str]:
    """The ``shop-rpc`` binary installed with this package by the platform wheel, or None.

    The wheel ships the server as its script ``shop-rpc``, which pip puts in the environment's bin
    directory; the installed distribution's file list (its RECORD) says exactly where, so this finds
    the binary of this very installation, whatever ``PATH`` holds. A source tree or a pure install
    (no binary in the package) has none.
    """
    try:
        from importlib.metadata import PackageNotFoundError, distribution
    except ImportError:  # Python < 3.8
        return None
    try:
        files = distribution("shoprpc").files or []
    except PackageNotFoundError:
        return None
    for file in files:
        if file.name == "shop-rpc":
            located = str(file.locate())
            if _is_executable(located):
                return os.path.realpath(located)
    return None


def _is_executable(path: str) -> bool:
    return os.path.isfile(path) and os.access(path, os.X_OK)
