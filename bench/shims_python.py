"""One Python caller of bench/shims, in a process of its own, driven by bench/shims.py over stdin/stdout.

    python3 bench/shims_python.py VARIANT --binary BIN [--warmup N]

It spawns its own server (``BIN --db :memory:``), makes ``--warmup`` sequential calls of
``catalog.get {"sku": "SKU-0001"}``, prints ``ready``, then answers one line per command line:

- ``seq N``: N calls one at a time, each timed from sending to its parsed result: a JSON list of ns;
- ``pipe N K``: N calls with K in flight: the seconds they took, as JSON;

and ends the session at end of input. Variants:

- ``raw``: a blocking loop over the pipes: write the line, ``readline()``, ``json.loads``; pipelined, one
  thread writes a new request each time it reads a reply (the floor for the sync shim);
- ``sync``: ``shoprpc.ShopClient.catalog_get``; pipelined, a pool of K threads;
- ``sync-call-async``: ``ShopClient.catalog_get``; pipelined, ``ShopClient.call_async`` from one thread,
  K at once;
- ``asyncio-raw``: ``asyncio.create_subprocess_exec`` streams: ``write``, ``await readline()``,
  ``json.loads``; pipelined, K coroutines under ``asyncio.gather``, one reading coroutine routing
  replies by id (the floor for the asyncio shim);
- ``asyncio``: ``shoprpc.AsyncShopClient.catalog_get``; pipelined, K coroutines under ``asyncio.gather``;
- ``pylsp-jsonrpc``: python-lsp-jsonrpc's ``Endpoint.request(...).result()`` over LSP framing, its
  ``JsonRpcStreamReader`` on a thread; pipelined, K futures at once;
- ``pygls``: pygls' ``JsonRPCClient.protocol.send_request_async`` over LSP framing; pipelined, K
  coroutines under ``asyncio.gather``.

python-lsp-jsonrpc and pygls come from the bench's own venv (``bench/shims`` installs them).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Awaitable, Callable, Dict, List, Optional

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "clients" / "python"))

METHOD = "catalog.get"
PARAMS = {"sku": "SKU-0001"}


def check(result: Any) -> None:
    """Every reply is the product asked for (pygls gives it as a named tuple, the others as a dict)."""
    sku = result.get("sku") if isinstance(result, dict) else getattr(result, "sku", None)
    if sku != PARAMS["sku"]:
        raise SystemExit(f"unexpected result: {result!r}")


def request_line(request_id: int) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "method": METHOD, "params": PARAMS}).encode() + b"\n"


# MARK: - The command loop


def commands() -> Any:
    """Yields each command line as a list of words; the driver waits for one answer line per command."""
    print("ready", flush=True)
    for line in sys.stdin:
        yield line.split()


def answer(value: Any) -> None:
    print(json.dumps(value), flush=True)


def serve(call: Callable[[], Any], pipelined: Callable[[int, int], float], warmup: int) -> None:
    for _ in range(warmup):
        check(call())
    clock = time.perf_counter_ns
    for words in commands():
        if words[0] == "seq":
            samples = []
            for _ in range(int(words[1])):
                started = clock()
                result = call()
                samples.append(clock() - started)
                check(result)
            answer(samples)
        else:
            answer(pipelined(int(words[1]), int(words[2])))


async def serve_async(call: Callable[[], Awaitable[Any]], warmup: int,
                      pipelined: Optional[Callable[[int, int], Awaitable[float]]] = None) -> None:
    """As :func:`serve`; pipelined is K coroutines under ``asyncio.gather`` unless ``pipelined`` is
    given. Reading a command blocks the loop, which has nothing else to do meanwhile."""
    for _ in range(warmup):
        check(await call())
    clock = time.perf_counter_ns
    for words in commands():
        if words[0] == "seq":
            samples = []
            for _ in range(int(words[1])):
                started = clock()
                result = await call()
                samples.append(clock() - started)
                check(result)
            answer(samples)
        elif pipelined is not None:
            answer(await pipelined(int(words[1]), int(words[2])))
        else:
            answer(await gathered(call, int(words[1]), int(words[2])))


async def gathered(call: Callable[[], Awaitable[Any]], total: int, inflight: int) -> float:
    """``inflight`` coroutines, each calling one at a time, until ``total`` calls are made; seconds."""
    remaining = [total]

    async def worker() -> None:
        while remaining[0] > 0:
            remaining[0] -= 1
            check(await call())

    started = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(inflight)))
    return time.perf_counter() - started


def threaded(call: Callable[[], Any], total: int, inflight: int) -> float:
    """``inflight`` threads, each calling one at a time, until ``total`` calls are made; seconds."""
    lock = threading.Lock()
    remaining = [total]
    failures: List[BaseException] = []

    def worker() -> None:
        try:
            while True:
                with lock:
                    if remaining[0] <= 0:
                        return
                    remaining[0] -= 1
                check(call())
        except BaseException as error:  # noqa: BLE001 - reported below
            failures.append(error)

    threads = [threading.Thread(target=worker) for _ in range(inflight)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        raise failures[0]
    return time.perf_counter() - started


def windowed(start: Callable[[], Any], total: int, inflight: int) -> float:
    """``inflight`` futures at once from one thread, each replaced by a new call when its result is in."""
    started = time.perf_counter()
    window = [start() for _ in range(min(inflight, total))]
    for n in range(total):
        check(window[n % inflight].result())
        if n + inflight < total:
            window[n % inflight] = start()
    return time.perf_counter() - started


def spawn(binary: str) -> subprocess.Popen:
    return subprocess.Popen([binary, "--db", ":memory:"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)


# MARK: - Variants


def run_raw(args: argparse.Namespace) -> None:
    process = spawn(args.binary)
    stdin, stdout = process.stdin, process.stdout
    ids = iter(range(1, 1 << 62))

    def call() -> Any:
        stdin.write(request_line(next(ids)))
        stdin.flush()
        return json.loads(stdout.readline())["result"]

    def pipelined(total: int, inflight: int) -> float:
        started = time.perf_counter()
        for _ in range(min(inflight, total)):
            stdin.write(request_line(next(ids)))
        stdin.flush()
        for n in range(total):
            check(json.loads(stdout.readline())["result"])
            if n + inflight < total:
                stdin.write(request_line(next(ids)))
                stdin.flush()
        return time.perf_counter() - started

    serve(call, pipelined, args.warmup)
    stdin.close()
    process.wait()


def run_sync(args: argparse.Namespace) -> None:
    from shoprpc import ShopClient

    with ShopClient(["--db", ":memory:"], binary=args.binary) as shop:
        call = lambda: shop.catalog_get(PARAMS["sku"])  # noqa: E731
        if args.variant == "sync":
            serve(call, lambda total, inflight: threaded(call, total, inflight), args.warmup)
        else:
            serve(call, lambda total, inflight: windowed(lambda: shop.call_async(METHOD, PARAMS), total, inflight),
                  args.warmup)


def run_asyncio_raw(args: argparse.Namespace) -> None:
    async def main() -> None:
        process = await asyncio.create_subprocess_exec(args.binary, "--db", ":memory:", stdin=subprocess.PIPE,
                                                       stdout=subprocess.PIPE)
        stdin, stdout = process.stdin, process.stdout
        assert stdin is not None and stdout is not None
        ids = iter(range(1, 1 << 62))
        waiting: Dict[int, asyncio.Future] = {}
        routing = [False]

        async def read_replies() -> None:
            while True:
                raw = await stdout.readline()
                if not raw:
                    return
                reply = json.loads(raw)
                waiting.pop(reply["id"]).set_result(reply["result"])

        async def call() -> Any:
            """Sequentially: write, readline, parse. Under gather: a reading coroutine routes by id."""
            if not routing[0]:
                stdin.write(request_line(next(ids)))
                return json.loads(await stdout.readline())["result"]
            request_id = next(ids)
            future = asyncio.get_running_loop().create_future()
            waiting[request_id] = future
            stdin.write(request_line(request_id))
            return await future

        async def routed(total: int, inflight: int) -> float:
            routing[0] = True
            reader = asyncio.ensure_future(read_replies())
            try:
                return await gathered(call, total, inflight)
            finally:
                reader.cancel()
                routing[0] = False

        await serve_async(call, args.warmup, routed)
        stdin.close()
        await process.wait()

    asyncio.run(main())


def run_asyncio(args: argparse.Namespace) -> None:
    from shoprpc import AsyncShopClient

    async def main() -> None:
        async with AsyncShopClient(["--db", ":memory:"], binary=args.binary) as shop:
            await serve_async(lambda: shop.catalog_get(PARAMS["sku"]), args.warmup)

    asyncio.run(main())


def run_pylsp_jsonrpc(args: argparse.Namespace) -> None:
    from pylsp_jsonrpc.endpoint import Endpoint
    from pylsp_jsonrpc.streams import JsonRpcStreamReader, JsonRpcStreamWriter

    process = spawn(args.binary)
    writer = JsonRpcStreamWriter(process.stdin)
    reader = JsonRpcStreamReader(process.stdout)
    endpoint = Endpoint({}, writer.write)
    listener = threading.Thread(target=reader.listen, args=(endpoint.consume,), daemon=True)
    listener.start()
    serve(lambda: endpoint.request(METHOD, PARAMS).result(),
          lambda total, inflight: windowed(lambda: endpoint.request(METHOD, PARAMS), total, inflight), args.warmup)
    process.stdin.close()
    process.wait()
    listener.join(5)
    endpoint.shutdown()


def run_pygls(args: argparse.Namespace) -> None:
    from pygls.client import JsonRPCClient

    async def main() -> None:
        client = JsonRPCClient()
        await client.start_io(args.binary, "--db", ":memory:")
        await serve_async(lambda: client.protocol.send_request_async(METHOD, PARAMS), args.warmup)
        client._server.stdin.close()  # pygls waits for the server to exit; shop-rpc exits at end of input
        await client.stop()

    asyncio.run(main())


VARIANTS = {
    "raw": run_raw,
    "sync": run_sync,
    "sync-call-async": run_sync,
    "asyncio-raw": run_asyncio_raw,
    "asyncio": run_asyncio,
    "pylsp-jsonrpc": run_pylsp_jsonrpc,
    "pygls": run_pygls,
}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("variant", choices=sorted(VARIANTS))
    parser.add_argument("--binary", required=True)
    parser.add_argument("--warmup", type=int, default=500)
    args = parser.parse_args()
    VARIANTS[args.variant](args)


if __name__ == "__main__":
    main()
