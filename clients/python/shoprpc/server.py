"""Finding the shop-rpc binary to spawn."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import List, Optional

__all__ = ["ServerNotFoundError", "find_server_binary", "BINARY_ENV_VAR"]

#: Environment variable naming the server binary; checked first.
BINARY_ENV_VAR = "SHOP_RPC_BIN"

# <repo>/clients/python/shoprpc/server.py -> <repo>
_REPO_ROOT = Path(__file__).resolve().parents[3]


class ServerNotFoundError(FileNotFoundError):
    """No shop-rpc binary was found. The message lists every place that was tried."""


def find_server_binary(binary: Optional[str] = None) -> str:
    """The path of the server binary to spawn.

    Looks, in order, at ``binary`` (when given), ``$SHOP_RPC_BIN``, ``shop-rpc`` on ``PATH``, and the
    repository's release build ``<repo>/.build/release/shop-rpc`` (located relative to this file).
    Raises :class:`ServerNotFoundError` naming every place tried.
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


def _is_executable(path: str) -> bool:
    return os.path.isfile(path) and os.access(path, os.X_OK)
