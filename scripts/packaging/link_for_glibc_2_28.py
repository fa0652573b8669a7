#!/usr/bin/env python3
"""The linker step of scripts/package: links shop-rpc against glibc 2.28's symbol versions.

swiftc links by running `clang` from its tools directory; scripts/package points that directory at
a `clang` that is this script. It runs the same link through `zig cc -target
x86_64-linux-gnu.2.28` (zig from the package index, SHOP_RPC_ZIG names it), whose glibc stubs
carry only the symbol versions glibc 2.28 had, so the binary runs on any glibc from 2.28 on: the
manylinux_2_28 baseline the Python wheel claims. The Swift runtime, Foundation Essentials and
Dispatch are linked in from the toolchain's static libraries, SQLite from its static archive;
libstdc++ and libgcc_s stay shared (the manylinux policy allows both).

What it changes in swiftc's link line, and why:
- the target: glibc 2.28 instead of the build machine's;
- the toolchain's static-stdlib-args.lnk is replaced by the same libraries, with libstdc++ and
  libgcc_s named by path (zig would otherwise substitute its own libc++) and without
  `-export-dynamic`/`--exclude-libs` (zig's linker takes neither; nothing needs the exports);
- `--defsym main=<module>_main` (how SwiftPM renames an executable's entry point, which zig's
  linker does not take) becomes a two-line C `main` that calls it;
- `std::__throw_bad_array_new_length` (GLIBCXX_3.4.29, newer than manylinux_2_28's libstdc++) is
  defined in that same file: it aborts, as the uncaught exception it would throw does in Swift.
Any other invocation (one that does not link) goes to the toolchain's clang unchanged.
"""
import os
import subprocess
import sys
import tempfile

TOOLCHAIN_CLANG = os.environ.get("SHOP_RPC_TOOLCHAIN_CLANG", "/opt/swift/usr/bin/clang")
# static-stdlib-args.lnk's linker flags that zig's linker does not take: `-export-dynamic` and
# `--exclude-libs ALL` (which only hides what the former would export).
DROPPED_LINKER_FLAGS = {"-export-dynamic", "--exclude-libs", "ALL"}
SHIM_SOURCE = r"""
#include <stdlib.h>
int %(entry)s(int argc, char **argv);
int main(int argc, char **argv) { return %(entry)s(argc, argv); }
/* std::__throw_bad_array_new_length(), GLIBCXX_3.4.29: only reached when a new[] size overflows. */
__attribute__((noreturn)) void _ZSt28__throw_bad_array_new_lengthv(void) { abort(); }
"""


def shared_library(name):
    """The path of a shared library as the toolchain's clang would find it (`-print-file-name`)."""
    path = subprocess.run([TOOLCHAIN_CLANG, f"-print-file-name={name}"], check=True,
                          capture_output=True, text=True).stdout.strip()
    if not os.path.isabs(path):
        sys.exit(f"link_for_glibc_2_28: cannot find {name}")
    return os.path.realpath(path)


def rewrite(arguments, work):
    zig = os.environ["SHOP_RPC_ZIG"]
    out = zig.split() + ["cc"]
    entry = None
    i = 0
    while i < len(arguments):
        a = arguments[i]
        if a.startswith("--target="):
            out += ["-target", "x86_64-linux-gnu.2.28"]
        elif a == "-Xlinker" and i + 3 < len(arguments) and arguments[i + 1] == "--defsym":
            symbol = arguments[i + 3]  # main=<module>_main
            if not symbol.startswith("main="):
                sys.exit(f"link_for_glibc_2_28: unexpected --defsym {symbol}")
            entry = symbol[len("main="):]
            i += 4
            continue
        elif a.startswith("@") and a.endswith("static-stdlib-args.lnk"):
            with open(a[1:]) as f:
                words = f.read().split()
            j = 0
            while j < len(words):
                if words[j] == "-Xlinker" and words[j + 1] in DROPPED_LINKER_FLAGS:
                    j += 2
                    continue
                if words[j] == "-lstdc++":
                    out += [shared_library("libstdc++.so.6"), shared_library("libgcc_s.so.1")]
                else:
                    out.append(words[j])
                j += 1
        elif a == "-v":
            pass
        else:
            out.append(a)
        i += 1
    if entry is None:
        sys.exit("link_for_glibc_2_28: no --defsym main=… in the link line")
    shim = os.path.join(work, "entry.c")
    with open(shim, "w") as f:
        f.write(SHIM_SOURCE % {"entry": entry})
    shim_object = os.path.join(work, "entry.o")
    subprocess.run([TOOLCHAIN_CLANG, "-O2", "-c", shim, "-o", shim_object], check=True)
    # Shared libraries' own references (libstdc++'s to newer glibc) are resolved at run time.
    return out + [shim_object, "-Wl,--allow-shlib-undefined"]


def main():
    arguments = sys.argv[1:]
    if "-o" not in arguments or "-c" in arguments or "-E" in arguments:
        os.execv(TOOLCHAIN_CLANG, [TOOLCHAIN_CLANG] + arguments)
    with tempfile.TemporaryDirectory(prefix="shop-rpc-link-") as work:
        command = rewrite(arguments, work)
        sys.exit(subprocess.run(command).returncode)


if __name__ == "__main__":
    main()
