"""The packages of scripts/package, installed and used as a user would, without the Swift toolchain.

Run by scripts/test after `scripts/package`, in the virtual environment that has the official MCP
client (`mcp`) and `auditwheel`. Every command a user would type runs under `env -i` with a PATH
that has no Swift toolchain and no LD_LIBRARY_PATH: a fresh virtual environment for the wheel, an
empty folder for the npm packages, `--no-index`/`--offline` so nothing comes from a registry.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

ROOT = Path(__file__).resolve().parents[2]
DIST = ROOT / "dist"
VERSION = (ROOT / "VERSION").read_text().splitlines()[0].strip()
WHEEL = DIST / f"shoprpc-{VERSION}-py3-none-manylinux_2_28_x86_64.whl"
NPM_CLIENT = DIST / f"shop-rpc-client-{VERSION}.tgz"
NPM_PLATFORM = DIST / f"shop-rpc-linux-x64-{VERSION}.tgz"
BINARY = DIST / "shop-rpc"
# A user's PATH: the system's directories only (no /opt/swift, no pyenv shims).
SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin"
MAX_BINARY_BYTES = 20 * 1024 * 1024
# What manylinux_2_28 lets a binary need: the glibc family, libstdc++ and libgcc_s.
ALLOWED_LIBRARIES = {"libc.so.6", "libm.so.6", "libpthread.so.0", "libdl.so.2", "librt.so.1",
                     "ld-linux-x86-64.so.2", "libstdc++.so.6", "libgcc_s.so.1"}

# The README's Install snippets, run verbatim (test_readme_shows_these_snippets keeps them there).
PYTHON_SNIPPET = """\
from shoprpc import ShopClient
with ShopClient() as shop:  # the bundled server, on its default store
    print(shop.catalog_get("SKU-0001")["name"])
"""
NODE_SNIPPET = """\
import { ShopClient } from 'shop-rpc-client';
const shop = ShopClient.spawn();  // the bundled server, on its default store
console.log((await shop.catalogGet('SKU-0001')).name);
await shop.close();
"""


def user_env(home, path=SYSTEM_PATH, **extra):
    """`env -i` plus what a login gives a user: HOME, PATH, a locale."""
    return {"HOME": str(home), "PATH": path, "LANG": "C.UTF-8", **extra}


def run(command, env, cwd=None, stdin=None, timeout=120):
    result = subprocess.run(command, env=env, cwd=cwd, input=stdin, capture_output=True, text=True, timeout=timeout)
    assert result.returncode == 0, f"{command} exited {result.returncode}\nstdout: {result.stdout}\nstderr: {result.stderr}"
    return result.stdout


@pytest.fixture(scope="module")
def venv(tmp_path_factory):
    """A fresh virtual environment (the system's python3) with the wheel installed from the file."""
    home = tmp_path_factory.mktemp("python-user")
    folder = home / "venv"
    run(["/usr/bin/python3", "-m", "venv", str(folder)], user_env(home))
    run([str(folder / "bin" / "pip"), "install", "-q", "--no-index", str(WHEEL)], user_env(home))
    return home, folder


@pytest.fixture(scope="module")
def npm_folder(tmp_path_factory):
    """An empty folder with both npm tarballs installed, offline."""
    home = tmp_path_factory.mktemp("node-user")
    folder = home / "app"
    folder.mkdir()
    run(["npm", "install", "--offline", "--no-audit", "--no-fund", str(NPM_PLATFORM), str(NPM_CLIENT)],
        user_env(home), cwd=folder)
    return home, folder


# MARK: - The binary


def test_dist_holds_the_binary_and_three_packages():
    for path in (BINARY, WHEEL, NPM_CLIENT, NPM_PLATFORM):
        assert path.is_file(), f"scripts/package did not write {path}"


def test_binary_is_stripped_and_at_most_20_MB():
    assert BINARY.stat().st_size <= MAX_BINARY_BYTES, f"{BINARY.stat().st_size} bytes"
    sections = run(["readelf", "--section-headers", "--wide", str(BINARY)], os.environ)
    assert ".symtab" not in sections, "the shipped binary still has its symbol table"


def test_binary_needs_only_glibc_libstdcxx_and_libgcc():
    dynamic = run(["readelf", "--dynamic", str(BINARY)], os.environ)
    needed = set(re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", dynamic))
    assert needed, dynamic
    assert needed <= ALLOWED_LIBRARIES, f"needs {sorted(needed - ALLOWED_LIBRARIES)}"
    listed = run(["ldd", str(BINARY)], os.environ)
    names = {line.split()[0].rsplit("/", 1)[-1] for line in listed.splitlines() if line.strip()}
    assert names - {"linux-vdso.so.1"} <= ALLOWED_LIBRARIES, listed


def test_binary_asks_for_no_glibc_symbol_newer_than_2_28():
    versions = set(re.findall(r"GLIBC_(\d+)\.(\d+)", run(["objdump", "-T", str(BINARY)], os.environ)))
    newest = max((int(major), int(minor)) for major, minor in versions)
    assert newest <= (2, 28), f"needs GLIBC_{newest[0]}.{newest[1]}"


def test_auditwheel_finds_the_wheel_consistent_with_manylinux_2_28():
    report = run([sys.executable, "-m", "auditwheel", "show", str(WHEEL)], os.environ)
    assert 'is consistent with\nthe following platform tag: "manylinux_2_28_x86_64"' in report, report


def test_binary_without_toolchain_runs_a_session(tmp_path):
    replies = run([str(BINARY), "--db", ":memory:"], user_env(tmp_path),
                  stdin='{"jsonrpc":"2.0","id":1,"method":"catalog.get","params":{"sku":"SKU-0001"}}\n')
    assert json.loads(replies)["result"]["sku"] == "SKU-0001"


def test_binary_loads_libpq_when_asked(tmp_path):
    # A postgres:// store on a socket directory that does not exist: the answer is libpq's own
    # connection error, so the binary found and loaded the system's libpq.so.5 on demand.
    result = subprocess.run([str(BINARY), "--db", f"postgresql:///shop?host={tmp_path}/none"], env=user_env(tmp_path),
                            input="", capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    assert "cannot open the postgresql:// store" in result.stderr, result.stderr
    assert f'connection to server on socket "{tmp_path}/none/.s.PGSQL.5432" failed' in result.stderr, result.stderr


# MARK: - One version


def test_every_package_carries_the_version_file():
    assert run([str(BINARY), "--version"], os.environ).strip() == f"shop-rpc {VERSION}"
    with zipfile.ZipFile(WHEEL) as wheel:
        metadata = wheel.read(f"shoprpc-{VERSION}.dist-info/METADATA").decode()
        stamped = wheel.read("shoprpc/_version.py").decode()
    assert f"\nVersion: {VERSION}\n" in metadata
    assert f'__version__ = "{VERSION}"' in stamped
    for tarball, name in ((NPM_CLIENT, "shop-rpc-client"), (NPM_PLATFORM, "shop-rpc-linux-x64")):
        with tarfile.open(tarball) as archive:
            manifest = json.load(archive.extractfile("package/package.json"))
        assert (manifest["name"], manifest["version"]) == (name, VERSION)
        if name == "shop-rpc-client":
            assert manifest["optionalDependencies"] == {"shop-rpc-linux-x64": VERSION}
    discover = run([str(BINARY), "--db", ":memory:"], os.environ, stdin='{"jsonrpc":"2.0","id":1,"method":"rpc.discover"}\n')
    assert json.loads(discover)["result"]["info"]["version"] == VERSION


# MARK: - Python


def test_wheel_installs_the_shop_rpc_command(venv):
    home, folder = venv
    assert run(["shop-rpc", "--version"], user_env(home, f"{folder}/bin:{SYSTEM_PATH}")).strip() == f"shop-rpc {VERSION}"


def test_readme_python_snippet_uses_the_bundled_binary(venv):
    home, folder = venv
    # Not on PATH, SHOP_RPC_BIN unset: only the wheel's own binary can answer.
    output = run([str(folder / "bin" / "python"), "-c", PYTHON_SNIPPET], user_env(home), cwd=home)
    assert output == "Classic Field Guide\n"
    located = run([str(folder / "bin" / "python"), "-c", "import shoprpc; print(shoprpc.find_server_binary(), shoprpc.__version__)"],
                  user_env(home), cwd=home).split()
    assert located == [os.path.realpath(folder / "bin" / "shop-rpc"), VERSION]


def test_pure_install_uses_a_binary_found_elsewhere(tmp_path):
    # The source package (no binary inside; pip fetches its build backend, setuptools, from the
    # package index as it would for a user) finds the server through SHOP_RPC_BIN.
    # (Built from a copy: pip builds in place and would leave build/ and egg-info in the tree.)
    source = tmp_path / "source"
    shutil.copytree(ROOT / "clients" / "python", source / "clients" / "python",
                    ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "build", ".pytest_cache", "tests"))
    shutil.copy2(ROOT / "VERSION", source / "VERSION")
    folder = tmp_path / "pure"
    run(["/usr/bin/python3", "-m", "venv", str(folder)], user_env(tmp_path))
    run([str(folder / "bin" / "pip"), "install", "-q", str(source / "clients" / "python")], user_env(tmp_path))
    snippet = PYTHON_SNIPPET.replace("ShopClient()", 'ShopClient(["--db", ":memory:"])')
    assert run([str(folder / "bin" / "python"), "-c", snippet], user_env(tmp_path, SHOP_RPC_BIN=str(BINARY)),
               cwd=tmp_path) == "Classic Field Guide\n"
    version = run([str(folder / "bin" / "python"), "-c", "import shoprpc; print(shoprpc.__version__)"], user_env(tmp_path),
                  cwd=tmp_path)
    assert version.strip() == VERSION


def test_mcp_host_starts_the_console_command(venv):
    home, folder = venv

    async def session():
        params = StdioServerParameters(command=str(folder / "bin" / "shop-rpc"), args=["--db", ":memory:"],
                                       env=user_env(home))
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as client:
                init = await client.initialize()
                tools = await client.list_tools()
                result = await client.call_tool("catalog_get", {"sku": "SKU-0001"})
                return init, tools, result

    init, tools, result = anyio.run(session)
    assert (init.server_info.name, init.server_info.version) == ("shop-rpc", VERSION)
    assert "catalog_get" in {tool.name for tool in tools.tools}
    assert not result.is_error
    assert "Classic Field Guide" in json.dumps([block.model_dump() for block in result.content])


# MARK: - Node


def test_npx_runs_the_bundled_binary(npm_folder):
    home, folder = npm_folder
    assert run(["npx", "--offline", "shop-rpc", "--version"], user_env(home), cwd=folder).strip() == f"shop-rpc {VERSION}"


def test_readme_node_snippet_spawns_the_bundled_binary(npm_folder):
    home, folder = npm_folder
    (folder / "snippet.mjs").write_text(NODE_SNIPPET)
    assert run(["node", "snippet.mjs"], user_env(home), cwd=folder) == "Classic Field Guide\n"
    located = run(["node", "--input-type=module", "-e",
                   "import { locateServerBinary } from 'shop-rpc-client'; console.log(locateServerBinary())"],
                  user_env(home), cwd=folder).strip()
    assert located == str(folder / "node_modules" / "shop-rpc-linux-x64" / "bin" / "shop-rpc")


# MARK: - The README


def test_readme_shows_these_snippets():
    readme = (ROOT / "README.md").read_text()
    assert PYTHON_SNIPPET in readme
    assert NODE_SNIPPET in readme
