#!/usr/bin/env python3
"""Writes the two npm packages of scripts/package, esbuild-style.

Usage: make_npm_packages.py VERSION BINARY STAGING_DIR OUT_DIR

- `shop-rpc-linux-x64-VERSION.tgz`: the server binary alone (`bin/shop-rpc`), with `os: linux` and
  `cpu: x64`, so npm installs it only where it runs;
- `shop-rpc-client-VERSION.tgz`: clients/node (its package.json stamped with VERSION and with the
  platform package as an optional dependency of the same version), whose `shop-rpc` command and
  `ShopClient.spawn()` run the platform package's binary.

Each is staged as a folder and packed by `npm pack`, which needs no registry.
"""
import json
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CLIENT = REPO / "clients" / "node"
PLATFORM_PACKAGE = "shop-rpc-linux-x64"


def pack(folder, out_dir):
    result = subprocess.run(["npm", "pack", "--pack-destination", str(out_dir.resolve()), "--offline"],
                            cwd=folder, check=True, capture_output=True, text=True)
    print(out_dir / result.stdout.strip().splitlines()[-1])


def main():
    version, binary, staging, out_dir = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3]), Path(sys.argv[4])
    shutil.rmtree(staging, ignore_errors=True)
    out_dir.mkdir(parents=True, exist_ok=True)

    platform = staging / PLATFORM_PACKAGE
    (platform / "bin").mkdir(parents=True)
    shutil.copy2(binary, platform / "bin" / "shop-rpc")
    (platform / "bin" / "shop-rpc").chmod(0o755)
    (platform / "package.json").write_text(json.dumps({
        "name": PLATFORM_PACKAGE,
        "version": version,
        "description": "The shop-rpc server binary for Linux x86_64 (glibc 2.28 or later); installed by shop-rpc-client",
        "os": ["linux"],
        "cpu": ["x64"],
        "files": ["bin/shop-rpc"],
        "license": "MIT",
    }, indent=2) + "\n")
    (platform / "README.md").write_text(
        f"# {PLATFORM_PACKAGE}\n\nThe shop-rpc server for Linux x86_64, self-contained but for glibc 2.28+, "
        "libstdc++ and libgcc_s. Install `shop-rpc-client`, which depends on it.\n")
    pack(platform, out_dir)

    manifest = json.loads((CLIENT / "package.json").read_text())
    client = staging / "shop-rpc-client"
    client.mkdir()
    for entry in manifest["files"]:
        source = CLIENT / entry.rstrip("/")
        if source.is_dir():
            shutil.copytree(source, client / source.name)
        else:
            shutil.copy2(source, client / source.name)
    manifest["version"] = version
    manifest.pop("private", None)
    manifest["optionalDependencies"] = {PLATFORM_PACKAGE: version}
    (client / "package.json").write_text(json.dumps(manifest, indent=2) + "\n")
    pack(client, out_dir)


if __name__ == "__main__":
    main()
