#!/usr/bin/env python3
"""Writes the platform wheel of scripts/package: the Python client with the server binary.

Usage: make_wheel.py VERSION BINARY OUT_DIR

The wheel is `shoprpc-VERSION-py3-none-manylinux_2_28_x86_64.whl`: the `shoprpc` package from
clients/python (its `_version.py` stamped with VERSION), and BINARY as the wheel's script
`shop-rpc`, which pip installs, executable, into the environment's bin directory — the console
command, the native binary itself (no Python in between), as ruff and uv ship theirs. Built with
the standard library alone (a wheel is a zip with three metadata files, PEP 427), so packaging
needs no build backend; entries are sorted and dated 1980-01-01, so the same inputs give the same
bytes.
"""
import base64
import hashlib
import os
import sys
import zipfile
from pathlib import Path

TAG = "py3-none-manylinux_2_28_x86_64"
REPO = Path(__file__).resolve().parents[2]
PACKAGE = REPO / "clients" / "python" / "shoprpc"
DATE = (1980, 1, 1, 0, 0, 0)


def record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def metadata(version):
    readme = (REPO / "clients" / "python" / "README.md").read_text()
    return (
        "Metadata-Version: 2.1\n"
        "Name: shoprpc\n"
        f"Version: {version}\n"
        "Summary: shop-rpc, a JSON-RPC 2.0 shop server over stdin/stdout, with its Python client\n"
        "Requires-Python: >=3.9\n"
        "Classifier: Operating System :: POSIX :: Linux\n"
        "Description-Content-Type: text/markdown\n"
        "\n" + readme
    )


def main():
    version, binary, out_dir = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
    files = {}  # name in the wheel -> (bytes, executable)
    for path in sorted(PACKAGE.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
            name = "shoprpc/" + path.relative_to(PACKAGE).as_posix()
            files[name] = (path.read_bytes(), False)
    files["shoprpc/_version.py"] = (
        f'"""The version of this package, stamped by scripts/package from VERSION."""\n\n__version__ = "{version}"\n'.encode(),
        False,
    )
    files[f"shoprpc-{version}.data/scripts/shop-rpc"] = (binary.read_bytes(), True)
    dist_info = f"shoprpc-{version}.dist-info"
    files[f"{dist_info}/METADATA"] = (metadata(version).encode(), False)
    files[f"{dist_info}/WHEEL"] = (
        f"Wheel-Version: 1.0\nGenerator: shop-rpc scripts/package\nRoot-Is-Purelib: false\nTag: {TAG}\n".encode(),
        False,
    )
    record = [record_line(name, data) for name, (data, _) in sorted(files.items())]
    record.append(f"{dist_info}/RECORD,,")
    files[f"{dist_info}/RECORD"] = (("\n".join(record) + "\n").encode(), False)

    out_dir.mkdir(parents=True, exist_ok=True)
    wheel = out_dir / f"shoprpc-{version}-{TAG}.whl"
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as archive:
        # dist-info last, RECORD at the very end, as PEP 427 recommends.
        for name in sorted(files, key=lambda n: (n.startswith(dist_info), n.endswith("/RECORD"), n)):
            data, executable = files[name]
            info = zipfile.ZipInfo(name, DATE)
            info.external_attr = (0o100755 if executable else 0o100644) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
    print(wheel)


if __name__ == "__main__":
    main()
