"""bench/shims: what a Python or Node caller waits for, through each shim and beside its language's raw
loop over the same pipes (issue #34). Run through ``bench/shims``, which builds the binary and the venv.

Every caller runs in a process of its own with a server of its own (``--db :memory:``), all started
at once and warmed up, then driven in turn in short blocks: ``--blocks`` blocks of ``--block``
sequential calls each, every caller in every block, then ``--pipe-rounds`` rounds of ``--pipelined``
calls with ``--inflight`` in flight. On this shared 2-core machine the speed drifts by a factor of
several within a minute; blocks a few tens of milliseconds long put each caller beside its floor
under the same drift. The table gives p50/p99 over all sequential samples, each ratio as the median
(and quartiles) of the ratios within a block or round, and then checks the issue's targets. See
bench/shims_python.py and bench/shims_node.mjs for what each caller does.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional

HERE = Path(__file__).resolve().parent


class Caller:
    """One caller process: ``floor`` names the raw loop its ratios are taken to."""

    def __init__(self, name: str, label: str, floor: Optional[str], command: List[str], sequential: bool = True):
        self.name, self.label, self.floor, self.command, self.sequential = name, label, floor, command, sequential
        self.process: Optional[subprocess.Popen] = None
        self.samples: List[List[int]] = []  # per block, in ns
        self.pipelined: List[float] = []  # calls/s per round

    def start(self, binary: str, warmup: int) -> None:
        self.process = subprocess.Popen([*self.command, "--binary", binary, "--warmup", str(warmup)],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        if self._read() != "ready":
            raise SystemExit(f"{self.name} did not start")

    def ask(self, command: str) -> Any:
        assert self.process is not None and self.process.stdin is not None
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        return json.loads(self._read())

    def stop(self) -> None:
        assert self.process is not None and self.process.stdin is not None
        self.process.stdin.close()
        if self.process.wait(60) != 0:
            raise SystemExit(f"{self.name} exited with {self.process.returncode}")

    def _read(self) -> str:
        assert self.process is not None and self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit(f"{self.name} ended early (exit status {self.process.wait()})")
        return line.strip()


def callers(venv_python: str) -> List[Caller]:
    python = [sys.executable, str(HERE / "shims_python.py")]
    anchor = [venv_python, str(HERE / "shims_python.py")]
    node = ["node", str(HERE / "shims_node.mjs")]
    return [
        Caller("py-raw", "Python raw loop (write, readline, json.loads)", None, [*python, "raw"]),
        Caller("py-sync", "shoprpc.ShopClient (sync; pipelined: K threads)", "py-raw", [*python, "sync"]),
        Caller("py-sync-call-async", "ShopClient.call_async, K at once from one thread", "py-raw",
               [*python, "sync-call-async"], sequential=False),
        Caller("pylsp-jsonrpc", "python-lsp-jsonrpc Endpoint (LSP framing)", "py-raw", [*anchor, "pylsp-jsonrpc"]),
        Caller("py-asyncio-raw", "asyncio raw loop (streams: write, readline, json.loads)", None,
               [*python, "asyncio-raw"]),
        Caller("py-asyncio", "shoprpc.AsyncShopClient", "py-asyncio-raw", [*python, "asyncio"]),
        Caller("pygls", "pygls JsonRPCClient (LSP framing)", "py-asyncio-raw", [*anchor, "pygls"]),
        Caller("node-raw", "Node raw readline loop", None, [*node, "raw"]),
        Caller("node-shim", "Node ShopClient", "node-raw", [*node, "shim"]),
    ]


def percentile(sorted_values: List[float], p: float) -> float:
    """Nearest rank."""
    return sorted_values[max(1, math.ceil(p / 100 * len(sorted_values))) - 1]


def spread(values: List[float]) -> str:
    """``median (lower quartile–upper quartile)`` of per-block ratios."""
    if not values:
        return "—"
    ordered = sorted(values)
    return f"{statistics.median(ordered):.2f}× ({percentile(ordered, 25):.2f}–{percentile(ordered, 75):.2f})"


def block_ratios(caller: Caller, other: Caller) -> List[float]:
    return [statistics.median(mine) / statistics.median(theirs)
            for mine, theirs in zip(caller.samples, other.samples) if mine and theirs]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--venv-python", required=True, help="a Python with python-lsp-jsonrpc and pygls")
    parser.add_argument("--warmup", type=int, default=500)
    parser.add_argument("--blocks", type=int, default=20)
    parser.add_argument("--block", type=int, default=250, help="sequential calls per caller per block")
    parser.add_argument("--pipe-rounds", type=int, default=5)
    parser.add_argument("--pipelined", type=int, default=10000, help="calls per caller per pipelined round")
    parser.add_argument("--inflight", type=int, default=32)
    parser.add_argument("--only", action="append", help="run only these callers (and their floors)")
    parser.add_argument("--raw", help="also write every figure as JSON to this file")
    parser.add_argument("--command", default="bench/shims", help="the command line to print above the table")
    args = parser.parse_args()

    chosen = callers(args.venv_python)
    if args.only:
        wanted = set(args.only) | {c.floor for c in chosen if c.name in args.only and c.floor}
        chosen = [c for c in chosen if c.name in wanted]
    by_name = {c.name: c for c in chosen}
    for caller in chosen:
        caller.start(args.binary, args.warmup)
    for block in range(args.blocks):
        order = chosen[block % len(chosen):] + chosen[:block % len(chosen)]  # nobody always goes first
        for caller in order:
            caller.samples.append(caller.ask(f"seq {args.block}") if caller.sequential else [])
    for round_number in range(args.pipe_rounds):
        order = chosen[round_number % len(chosen):] + chosen[:round_number % len(chosen)]
        for caller in order:
            caller.pipelined.append(args.pipelined / caller.ask(f"pipe {args.pipelined} {args.inflight}"))
        print(f"pipelined round {round_number + 1}/{args.pipe_rounds} done", file=sys.stderr)
    for caller in chosen:
        caller.stop()
    if args.raw:
        with open(args.raw, "w") as raw:
            json.dump({c.name: {"samples_ns": c.samples, "pipelined_per_s": c.pipelined} for c in chosen}, raw)

    print(f"`{args.command}`: {args.warmup} warm-up calls per caller, then {args.blocks} blocks of {args.block} "
          f"sequential catalog.get per caller, interleaved; then {args.pipe_rounds} rounds of {args.pipelined} "
          f"pipelined with {args.inflight} in flight. Ratios: median (quartiles) of the ratios within each "
          f"block or round.\n")
    print("| caller | p50 µs | p99 µs | p50 ÷ raw loop | sequential calls/s | pipelined calls/s "
          "| pipelined ÷ sequential | pipelined ÷ raw loop's |")
    print("|---|--:|--:|--:|--:|--:|--:|--:|")
    speedups: Dict[str, List[float]] = {}
    for caller in chosen:
        floor = by_name.get(caller.floor) if caller.floor else None
        samples = sorted(s for block in caller.samples for s in block)
        sequential_rate = 1e9 / statistics.mean(samples) if samples else None
        block_rates = [1e9 / statistics.mean(block) for block in caller.samples if block]
        speedups[caller.name] = [p / statistics.median(block_rates) for p in caller.pipelined] if block_rates else []
        pipe_ratios = [p / f for p, f in zip(caller.pipelined, floor.pipelined)] if floor else []
        cells = [
            caller.label,
            f"{percentile(samples, 50) / 1000:,.1f}" if samples else "—",
            f"{percentile(samples, 99) / 1000:,.1f}" if samples else "—",
            (spread(block_ratios(caller, floor)) if samples else "—") if floor else "1 (the floor)",
            f"{sequential_rate:,.0f}" if sequential_rate else "—",
            f"{statistics.median(caller.pipelined):,.0f}",
            spread(speedups[caller.name]),
            spread(pipe_ratios) if floor else "1",
        ]
        print("| " + " | ".join(cells) + " |")

    def ratios(name: str, other: str) -> List[float]:
        return block_ratios(by_name[name], by_name[other]) if name in by_name and other in by_name else []

    targets = [
        ("Python sync shim p50 ≤ 1.3× the raw Python loop", ratios("py-sync", "py-raw"), 1.3, True),
        ("Python sync shim p50 ≤ 0.6× python-lsp-jsonrpc", ratios("py-sync", "pylsp-jsonrpc"), 0.6, True),
        ("asyncio shim p50 ≤ 1.3× the raw asyncio loop", ratios("py-asyncio", "py-asyncio-raw"), 1.3, True),
        ("Node shim p50 ≤ 1.15× the raw Node loop", ratios("node-shim", "node-raw"), 1.15, True),
        ("Python sync shim pipelined (K threads) ≥ 3× its sequential rate", speedups.get("py-sync", []), 3.0, False),
        ("asyncio shim pipelined ≥ 3× its sequential rate", speedups.get("py-asyncio", []), 3.0, False),
        ("Node shim pipelined ≥ 3× its sequential rate", speedups.get("node-shim", []), 3.0, False),
    ]
    print()
    for text, values, bound, at_most in targets:
        if values:
            median = statistics.median(values)
            met = median <= bound if at_most else median >= bound
            print(f"- {text}: {'met' if met else '**not met**'}, {spread(values)}")


if __name__ == "__main__":
    main()
