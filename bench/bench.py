#!/usr/bin/env python3
"""shop-rpc benchmark: pipes requests into the release binary over real pipes and reports
throughput, latency percentiles, start-up time to the first reply, and peak RSS.

Run through bench/run (which builds the release binary first). Standard library only.
"""
import argparse
import io
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time


def spawn(binary, args):
    return subprocess.Popen([binary, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, bufsize=0)


def request(i, method, params=None):
    message = {"jsonrpc": "2.0", "id": i, "method": method}
    if params is not None:
        message["params"] = params
    return json.dumps(message, separators=(",", ":")).encode() + b"\n"


def finish(proc):
    """Closes stdin, waits, and returns (peak RSS in MB, stderr text) from wait4's rusage."""
    try:
        proc.stdin.close()
    except BrokenPipeError:
        pass
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    stderr = proc.stderr.read().decode(errors="replace")
    if proc.returncode != 0:
        sys.exit(f"server exited with {proc.returncode}: {stderr}")
    return usage.ru_maxrss / 1024.0, stderr


def pipelined(binary, args, make_line, count, label, directory):
    """Pipelined over real pipes, as a client that writes ahead sees it: a writer thread pushes all
    `count` requests into the server's stdin pipe in 64 KiB writes while this thread reads its stdout
    pipe in 1 MiB reads and counts replies (one per line). Requests/s from the first write to the
    last reply (start-up excluded: the server has answered a ping first). Peak RSS from GNU time,
    which forks from a small process (a fork of this Python process would report its own size)."""
    path_rss = os.path.join(directory, "rss.txt")
    payload = b"".join(make_line(i) for i in range(count))
    proc = subprocess.Popen(["/usr/bin/time", "-f", "%M", "-o", path_rss, binary, *args], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0)
    inp, out = proc.stdin.fileno(), proc.stdout.fileno()
    os.write(inp, request(-1, "ping"))
    first = b""
    while not first.endswith(b"\n"):
        chunk = os.read(out, 4096)
        if not chunk:
            sys.exit(f"{label}: no reply to the first ping")
        first += chunk

    def write_all():
        view = memoryview(payload)
        for offset in range(0, len(view), 1 << 16):
            os.write(inp, view[offset:offset + (1 << 16)])

    writer = threading.Thread(target=write_all)
    start = time.perf_counter()
    writer.start()
    replies = errors = 0
    tail = b""
    while replies < count:
        chunk = os.read(out, 1 << 20)
        if not chunk:
            sys.exit(f"{label}: server closed stdout after {replies} of {count} replies")
        replies += chunk.count(b"\n")
        errors += (tail + chunk).count(b'"error"')  # also a match split across two reads
        tail = chunk[-6:]  # too short to hold a whole match, so none is counted twice
    elapsed = time.perf_counter() - start
    writer.join()
    proc.stdin.close()
    status = proc.wait()
    if status != 0:
        sys.exit(f"{label}: server exited with {status}: {proc.stderr.read().decode(errors='replace')}")
    if replies != count:
        sys.exit(f"{label}: expected {count} replies, got {replies}")
    with open(path_rss) as handle:
        rss_mb = int(handle.read().split()[-1]) / 1024.0
    return {"name": label, "requests": count, "seconds": round(elapsed, 3), "requestsPerSecond": round(count / elapsed),
            "errors": errors, "peakRssMB": round(rss_mb, 1)}


def latency(probe, server, method, params, count, inflight, label):
    """Round trips measured by the compiled probe (bench/LatencyProbe.swift), `inflight` outstanding."""
    output = subprocess.run([probe, str(count), str(inflight), method, json.dumps(params) if params else "-", "--", *server],
                            check=True, capture_output=True, text=True).stdout
    return {"name": label, "requests": count, "inflight": inflight, **json.loads(output)}


def startup(binary, args, runs):
    """Time from spawning the process to reading the reply to its first ping."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        proc = spawn(binary, args)
        os.write(proc.stdin.fileno(), request(1, "ping"))
        line = b""
        while not line.endswith(b"\n"):
            chunk = os.read(proc.stdout.fileno(), 4096)
            if not chunk:
                sys.exit("startup: no reply")
            line += chunk
        times.append(time.perf_counter() - start)
        finish(proc)
    return {"name": "startup to first reply", "runs": runs, "medianMs": round(statistics.median(times) * 1000, 1),
            "maxMs": round(max(times) * 1000, 1)}


def orders(binary, db, count, inflight):
    """Durable orders.place with `inflight` concurrent requests, on a file store; reports orders/s and
    the store's write transactions (each one commit, one WAL fsync) per order."""
    args = ["--db", db, "--log-level", "info"]
    # Fill carts first (not timed): one line of one unit each, over the products that have stock.
    proc = spawn(binary, args)
    levels_line = request(0, "inventory.check", {"skus": [f"SKU-{n:04d}" for n in range(1, 101)]})
    os.write(proc.stdin.fileno(), levels_line)
    reply = json.loads(proc.stdout.readline())
    skus = [level["sku"] for level in reply["result"]["levels"] for _ in range(level["available"])]
    count = min(count, len(skus))
    proc.stdin.write(b"".join(request(i, "cart.add", {"cartId": f"bench-{i}", "sku": skus[i], "quantity": 1})
                              for i in range(count)))
    proc.stdin.flush()
    for _ in range(count):
        proc.stdout.readline()
    finish(proc)
    make = lambda i: request(i, "orders.place", {"cartId": f"bench-{i}", "idempotencyKey": f"bench-{i}"})
    proc = spawn(binary, args)
    start = time.perf_counter()
    out, inp = proc.stdout.fileno(), proc.stdin.fileno()
    sent, received, buffer, failures = 0, 0, b"", 0
    first = min(inflight, count)
    os.write(inp, b"".join(make(i) for i in range(first)))
    sent = first
    while received < count:
        chunk = os.read(out, 1 << 16)
        if not chunk:
            sys.exit("orders: server closed stdout early")
        buffer += chunk
        *complete, buffer = buffer.split(b"\n")
        received += len(complete)
        failures += sum(1 for line in complete if b'"error"' in line)
        more = [make(i) for i in range(sent, min(count, sent + len(complete)))]
        sent += len(more)
        if more:
            os.write(inp, b"".join(more))
    elapsed = time.perf_counter() - start
    _, stderr = finish(proc)
    transactions = None
    for line in stderr.splitlines():
        if "write transactions" in line:
            transactions = int(line.split("store: ")[1].split(" ")[0])
    return {"name": "orders.place (durable, file store)", "orders": count, "inflight": inflight, "failed": failures,
            "ordersPerSecond": round(count / elapsed), "commitsPerOrder": round(transactions / count, 3) if transactions else None}


def deadline_lateness(binary, count, deadline_ms):
    """`count` calls in flight at once, each slowed far past a `deadline_ms` deadline: how late the
    typed timeout replies fire, from the server's own elapsedMs in each reply (whole milliseconds,
    counted from when the server took the request), and how late they arrive at the client
    (counted from just before the client wrote the first request, once the server had answered
    a first ping, so an upper bound that includes reading and parsing every request)."""
    args = ["--db", ":memory:", "--max-inflight", str(count * 2), "--simulate-latency", "catalog.get=600000",
            "--deadline", f"catalog.get={deadline_ms}"]
    proc = spawn(binary, args)
    proc.stdin.write(request(-1, "ping"))  # start-up is not lateness: wait until the server answers
    proc.stdin.flush()
    replies = io.BufferedReader(proc.stdout, 1 << 16)  # not byte-at-a-time: the client must keep up
    replies.readline()
    lines = b"".join(request(i, "catalog.get", {"sku": "SKU-0001"}) for i in range(count))
    sent = time.perf_counter()
    proc.stdin.write(lines)
    proc.stdin.flush()
    lateness, arrival = [], []
    for _ in range(count):
        reply = json.loads(replies.readline())
        arrival.append((time.perf_counter() - sent) * 1000 - deadline_ms)
        data = reply["error"]["data"]
        if data["type"] != "DeadlineExceeded":
            sys.exit(f"deadline lateness: unexpected reply {reply}")
        lateness.append(data["elapsedMs"] - data["deadlineMs"])
    finish(proc)
    lateness.sort()
    arrival.sort()
    p99 = lambda values: values[min(len(values) - 1, int(len(values) * 0.99))]
    return {"name": "deadline lateness", "callsInFlight": count, "deadlineMs": deadline_ms,
            "p50ms": lateness[len(lateness) // 2], "p99ms": p99(lateness), "maxMs": lateness[-1],
            "arrivalP50ms": round(arrival[len(arrival) // 2], 2), "arrivalP99ms": round(p99(arrival), 2),
            "arrivalMaxMs": round(arrival[-1], 2)}


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--bin", required=True)
    parser.add_argument("--probe", required=True, help="the compiled latency probe")
    parser.add_argument("--quick", action="store_true", help="a tenth of the counts, for a smoke run")
    options = parser.parse_args()
    scale = 10 if options.quick else 1
    binary, probe = options.bin, options.probe
    memory = ["--db", ":memory:"]
    ping = lambda i: request(i, "ping")
    get = lambda i: request(i, "catalog.get", {"sku": f"SKU-{1 + i % 240:04d}"})
    check = lambda i: request(i, "inventory.check", {"skus": [f"SKU-{1 + i % 240:04d}", f"SKU-{1 + (i * 7) % 240:04d}"]})
    results = []
    with tempfile.TemporaryDirectory() as directory:
        store = ["--db", os.path.join(directory, "reads.sqlite")]  # a file store, as the server runs by default
        results.append(startup(binary, store, 20))
        results.append(pipelined(binary, memory, ping, 1_000_000 // scale, "ping, pipelined", directory))
        results.append(latency(probe, ["cat"], "ping", None, 20_000 // scale, 1, "harness floor: cat echoing each line"))
        results.append(latency(probe, [binary, *memory], "ping", None, 20_000 // scale, 1, "ping latency"))
        results.append(latency(probe, [binary, *memory], "ping", None, 200_000 // scale, 64, "ping latency"))
        results.append(pipelined(binary, store, get, 200_000 // scale, "catalog.get, pipelined", directory))
        results.append(pipelined(binary, memory, get, 200_000 // scale, "catalog.get, pipelined, :memory: store", directory))
        results.append(latency(probe, [binary, *store], "catalog.get", {"sku": "SKU-0001"}, 20_000 // scale, 1, "catalog.get latency"))
        results.append(latency(probe, [binary, *store], "catalog.get", {"sku": "SKU-0001"}, 100_000 // scale, 64, "catalog.get latency"))
        results.append(pipelined(binary, store, check, 100_000 // scale, "inventory.check, pipelined", directory))
        results.append(orders(binary, os.path.join(directory, "orders.sqlite"), 5_000 // scale, 64))
        results.append(deadline_lateness(binary, 1_000 // scale, 500))
        results.append(deadline_lateness(binary, 5_000 // scale, 500))
    for result in results:
        print(json.dumps(result))


if __name__ == "__main__":
    main()
