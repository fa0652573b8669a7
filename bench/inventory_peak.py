#!/usr/bin/env python3
"""inventory.check at peak load (issue #25): shop-rpc in front of an overloaded inventory service.

Run through bench/inventory-peak (it builds the release binary). Standard library only.

The service (`serve`, a process of its own) behaves like one overloaded at peak: a fixed number of
workers (8), each answering one request in a fixed time (100 ms); requests beyond wait in its own
FIFO queue, so latency grows with load. Like a well-behaved server it notices a client that closes
its connection (while the request waits or is being served) and drops that request. Each level it
answers encodes the SKU and when it was computed: available = N * 1000 + (bucket % 1000), where N
is the SKU's number and bucket the quarter-second since the run's start (t0), so the client can
check every number it is shown.

The client offers checks open-loop at `--load` times the service's capacity (workers / service
time: 80 requests/s, so 800 checks/s) for `--seconds` (20), each of 1-3 distinct SKUs drawn from a
Zipf-like distribution (weight 1/rank) over the 240 catalog SKUs, over real pipes
(newline-delimited JSON), and records each reply's latency from its write to its read. Each
configuration gets a new service and a new server:

    today       --inventory-limit fixed --inventory-coalesce off, circuit breaker off
                (--inventory-circuit-failures 1000000): the behaviour before #25
    stale-off   the defaults (coalescing, adaptive limit, shedding, circuit breaker)
    stale-on    the defaults and --inventory-stale-ms 60000

Per configuration it prints: checks offered; answered fresh within the deadline; answered with at
least one marked-stale level; -32001 shed (data.shed) and -32001 at the deadline; 1009; other
errors; p50/p99 latency of all checks and p99 of the failures; the service's peak concurrency
(requests it held at once, waiting or being served) and requests served; and from rpc.stats the
limit at the end, coalesced joins and upstream requests. Then it checks every level against what
the service can have said: the right SKU, fresh levels computed while the check was waiting, stale
ones marked with an age at most --inventory-stale-ms that matches when the service computed them.
Any wrong number, missing mark or mismatched SKU list is listed and makes the exit status 1.
"""
import argparse
import collections
import itertools
import json
import os
import random
import select
import socket
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

PRODUCTS = 240
BUCKET_SECONDS = 0.25
INVENTORY_MESSAGE = "Inventory information is temporarily unavailable, please try again later"


def sku_number(sku):
    digits = "".join(ch for ch in sku if ch.isdigit())
    return int(digits) if digits else 0


# MARK: - The overloaded service


class FifoWorkers:
    """`count` workers handed out in arrival order; a waiter whose client leaves gives up its place."""

    def __init__(self, count):
        self.free = count
        self.queue = collections.deque()
        self.lock = threading.Lock()

    def enter(self, client_gone):
        with self.lock:
            if self.free > 0 and not self.queue:
                self.free -= 1
                return True
            turn = threading.Event()
            self.queue.append(turn)
        while not turn.wait(0.02):
            if client_gone():
                with self.lock:
                    if not turn.is_set():
                        self.queue.remove(turn)
                        return False
                self.leave()  # handed a worker just as the client left: give it on
                return False
        return True

    def leave(self):
        with self.lock:
            if self.queue:
                self.queue.popleft().set()
            else:
                self.free += 1


class Service:
    def __init__(self, workers, service_seconds, t0, slow_after=None, slow_seconds=None):
        self.workers = FifoWorkers(workers)
        self.service_seconds = service_seconds
        self.t0 = t0
        self.slow_after = slow_after
        self.slow_seconds = slow_seconds
        self.lock = threading.Lock()
        self.stats = {"received": 0, "served": 0, "abandoned": 0, "inFlight": 0, "peakInFlight": 0}

    def count(self, key, delta=1):
        with self.lock:
            self.stats[key] += delta
            if key == "inFlight":
                self.stats["peakInFlight"] = max(self.stats["peakInFlight"], self.stats["inFlight"])

    def seconds_for_one_request(self):
        """The service time of a request a worker starts now (longer from `slow_after` on)."""
        if self.slow_after is not None and time.time() - self.t0 >= self.slow_after:
            return self.slow_seconds
        return self.service_seconds

    def level(self, sku):
        bucket = int((time.time() - self.t0) / BUCKET_SECONDS) % 1000
        return {"sku": sku, "available": sku_number(sku) * 1000 + bucket}


def make_handler(service):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def client_gone(self, wait=0.0):
            readable, _, _ = select.select([self.connection], [], [], wait)
            if not readable:
                return False
            try:
                return not self.connection.recv(1, socket.MSG_PEEK)
            except OSError:
                return True

        def do_GET(self):
            parts = urlsplit(self.path)
            skus = parse_qs(parts.query, keep_blank_values=True).get("sku", [])
            service.count("received")
            service.count("inFlight")
            try:
                if not service.workers.enter(self.client_gone):
                    service.count("abandoned")
                    self.close_connection = True
                    return
                try:
                    finish = time.monotonic() + service.seconds_for_one_request()
                    while (left := finish - time.monotonic()) > 0:
                        if self.client_gone(min(left, 0.02)):
                            service.count("abandoned")
                            self.close_connection = True
                            return
                    body = json.dumps({"levels": [service.level(sku) for sku in skus]}).encode()
                finally:
                    service.workers.leave()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                self.wfile.flush()
                service.count("served")
            except (BrokenPipeError, ConnectionResetError):
                service.count("abandoned")
                self.close_connection = True
            finally:
                service.count("inFlight", -1)

    return Handler


class Server(ThreadingHTTPServer):
    request_queue_size = 1024  # set before listen(): a backlog of 5 would stall bursts of connects
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass  # a client that closed its connection between requests: nothing to report


def serve(args):
    slow = args.slow_ms / 1000.0 if args.slow_ms is not None else None
    service = Service(args.workers, args.service_ms / 1000.0, args.t0, args.slow_after, slow)
    server = Server(("127.0.0.1", 0), make_handler(service))
    print(server.server_address[1], flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    for line in sys.stdin:  # "stats" answers a JSON line; end of input stops the service
        if line.strip() == "stats":
            with service.lock:
                print(json.dumps(service.stats), flush=True)
    os._exit(0)


# MARK: - The load


SKUS = [f"SKU-{n:04d}" for n in range(1, PRODUCTS + 1)]
ZIPF_CUMULATIVE_WEIGHTS = list(itertools.accumulate(1.0 / rank for rank in range(1, PRODUCTS + 1)))


def make_checks(count, seed):
    rng = random.Random(seed)
    checks = []
    for _ in range(count):
        wanted = rng.randint(1, 3)
        skus = []
        while len(skus) < wanted:
            sku = rng.choices(SKUS, cum_weights=ZIPF_CUMULATIVE_WEIGHTS)[0]
            if sku not in skus:
                skus.append(sku)
        checks.append(skus)
    return checks


def encode(i, method, params):
    return json.dumps({"jsonrpc": "2.0", "id": i, "method": method, "params": params}, separators=(",", ":")).encode() + b"\n"


class Replies:
    """Reads newline-delimited replies from the server's stdout."""

    def __init__(self, proc):
        self.fd = proc.stdout.fileno()
        self.buffer = b""

    def read(self, timeout):
        ready, _, _ = select.select([self.fd], [], [], max(0.0, timeout))
        if not ready:
            return []
        chunk = os.read(self.fd, 1 << 20)
        if not chunk:
            raise SystemExit("the server closed its stdout")
        now = time.time()
        self.buffer += chunk
        *lines, self.buffer = self.buffer.split(b"\n")
        return [(now, json.loads(line)) for line in lines if line.strip()]


def run_configuration(args, name, flags):
    t0 = time.time()
    slow = ["--slow-after", repr(args.slow_after), "--slow-ms", str(args.slow_ms)] if args.slow_ms is not None else []
    service = subprocess.Popen([sys.executable, __file__, "serve", "--workers", str(args.workers),
                                "--service-ms", str(args.service_ms), "--t0", repr(t0)] + slow,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
    port = int(service.stdout.readline())
    binary = args.binary
    if name == "today" and args.today_binary:
        binary, flags = args.today_binary, []  # the build before #25 has none of the new flags
    server = subprocess.Popen([binary, "--db", ":memory:", "--inventory-url", f"http://127.0.0.1:{port}",
                               "--inventory-max-concurrent", str(args.ceiling),
                               "--max-inflight", str(args.max_inflight)] + flags,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0)
    replies = Replies(server)
    try:
        capacity = args.workers * 1000.0 / args.service_ms
        rate = capacity * args.load
        checks = make_checks(int(rate * args.seconds), args.seed)
        # Open loop: check i is due at start + i / rate whatever the server does; writes never block
        # (a server that stops reading leaves the checks in `pending`), and latency counts from when
        # a check was due, so waiting in the pipe or here is counted as the client sees it.
        stdin_fd = server.stdin.fileno()
        os.set_blocking(stdin_fd, False)
        pending = bytearray()
        sent_at, answers = {}, {}
        start = time.time()
        next_index = 0
        while next_index < len(checks) or pending:
            now = time.time()
            due = min(len(checks), int((now - start) * rate) + 1)
            for i in range(next_index, due):
                sent_at[i] = start + i / rate
                pending += encode(i, "inventory.check", {"skus": checks[i]})
            next_index = max(next_index, due)
            if pending:
                try:
                    del pending[:os.write(stdin_fd, pending)]
                except BlockingIOError:
                    pass
            wait = start + next_index / rate - time.time() if next_index < len(checks) else 0.01
            for at, reply in replies.read(min(wait, 0.01) if pending else wait):
                answers[reply["id"]] = (at, reply)
        os.set_blocking(stdin_fd, True)
        give_up = time.time() + 30
        while len(answers) < len(checks) and time.time() < give_up:
            for at, reply in replies.read(give_up - time.time()):
                answers[reply["id"]] = (at, reply)
        missing = len(checks) - len(answers)

        os.write(server.stdin.fileno(), encode("stats", "rpc.stats", {}))
        inventory = None  # a build from before #25 part 6 has no inventory section
        while inventory is None:
            for _, reply in replies.read(10):
                if reply.get("id") == "stats":
                    inventory = reply.get("result", {}).get("sections", {}).get("inventory", {})
        service.stdin.write(b"stats\n")
        upstream = json.loads(service.stdout.readline())
    finally:
        server.stdin.close()
        server.wait(timeout=30)
        service.stdin.close()
        service.wait(timeout=30)
    return summarize(args, name, flags, t0, checks, sent_at, answers, missing, inventory, upstream)


# MARK: - Reading the replies


def percentile(values, fraction):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def level_problem(level, sku, t0, sent, received, stale_ms):
    """Why `level` cannot be what the service said for `sku` while the check waited, or None."""
    value = level.get("available")
    if level.get("sku") != sku:
        return f"sku {level.get('sku')!r} where {sku!r} was asked"
    if not isinstance(value, int) or value // 1000 != sku_number(sku):
        return f"{sku}: {value!r} is no number the service gives for it"
    bucket_start = t0 + (value % 1000) * BUCKET_SECONDS
    bucket_end = bucket_start + BUCKET_SECONDS
    slack = 0.1
    if level.get("stale") is None and level.get("ageMs") is None:
        if bucket_end + slack < sent or bucket_start - slack > received:
            return f"{sku}: fresh level computed at {bucket_start - t0:.2f}-{bucket_end - t0:.2f} s, check waited {sent - t0:.2f}-{received - t0:.2f} s"
        return None
    age = level.get("ageMs")
    if level.get("stale") is not True or not isinstance(age, int) or age < 0:
        return f"{sku}: stale marks incomplete: {level}"
    if age > stale_ms:
        return f"{sku}: ageMs {age} above --inventory-stale-ms {stale_ms}"
    stored_from, stored_to = sent - age / 1000.0, received - age / 1000.0
    if bucket_end + slack < stored_from or bucket_start - slack > stored_to:
        return f"{sku}: stale level computed at {bucket_start - t0:.2f}-{bucket_end - t0:.2f} s, its age says {stored_from - t0:.2f}-{stored_to - t0:.2f} s"
    return None


def summarize(args, name, flags, t0, checks, sent_at, answers, missing, inventory, upstream):
    stale_ms = 0
    if "--inventory-stale-ms" in flags:
        stale_ms = int(flags[flags.index("--inventory-stale-ms") + 1])
    counts = collections.Counter()
    latencies, failure_latencies, problems = [], [], []
    for i, skus in enumerate(checks):
        if i not in answers:
            continue
        received, reply = answers[i]
        sent = sent_at[i]
        latency_ms = (received - sent) * 1000.0
        latencies.append(latency_ms)
        if "result" in reply:
            levels = reply["result"]["levels"]
            if [level.get("sku") for level in levels] != skus:
                problems.append(f"check {i}: levels for {[level.get('sku') for level in levels]}, asked {skus}")
                continue
            for level, sku in zip(levels, skus):
                problem = level_problem(level, sku, t0, sent, received, stale_ms)
                if problem:
                    problems.append(f"check {i}: {problem}")
            stale = any(level.get("stale") for level in levels)
            if latency_ms > args.deadline_ms:
                counts["late result"] += 1
            counts["stale" if stale else "fresh"] += 1
            continue
        failure_latencies.append(latency_ms)
        error = reply["error"]
        data = error.get("data") or {}
        if error["code"] == -32001:
            if error.get("message") != INVENTORY_MESSAGE:
                problems.append(f"check {i}: -32001 with message {error.get('message')!r}")
            counts["shed" if data.get("shed") else "deadline"] += 1
        elif error["code"] == 1009:
            counts["1009"] += 1
        else:
            counts[f"error {error['code']}"] += 1
    offered = len(checks)
    return {
        "name": name, "flags": " ".join(flags), "offered": offered, "missing": missing,
        "fresh": counts["fresh"], "stale": counts["stale"], "shed": counts["shed"], "deadline": counts["deadline"],
        "1009": counts["1009"], "late result": counts["late result"],
        "other": sum(n for key, n in counts.items() if key.startswith("error ")),
        "p50": percentile(latencies, 0.50), "p99": percentile(latencies, 0.99),
        "failureP99": percentile(failure_latencies, 0.99),
        "upstreamPeak": upstream["peakInFlight"], "upstreamServed": upstream["served"],
        "upstreamReceived": upstream["received"], "upstreamAbandoned": upstream["abandoned"],
        "limitAtEnd": inventory.get("limit"), "coalescedJoins": inventory.get("coalescedJoins"),
        "requests": inventory.get("upstreamRequests"), "circuitOpened": inventory.get("circuitOpened"),
        "problems": problems,
    }


def ms(value):
    return "—" if value != value else f"{value:.0f}"  # NaN: no such replies


def pct(part, whole):
    return f"{part} ({100.0 * part / whole:.1f} %)" if whole else str(part)


def print_table(args, results):
    slowdown = f", {args.slow_ms} ms from {args.slow_after:g} s on" if args.slow_ms is not None else ""
    print(f"`{args.command}` — {args.workers} workers × {args.service_ms} ms{slowdown} "
          f"(capacity {args.workers * 1000 // args.service_ms} requests/s), {args.load:g}× offered for {args.seconds:g} s, "
          f"ceiling {args.ceiling}, deadline {args.deadline_ms} ms, seed {args.seed}\n")
    print("| configuration | checks | fresh | marked stale | -32001 shed | -32001 at deadline | 1009 | other / unanswered "
          "| p50 ms | p99 ms | failures p99 ms | service peak concurrency | service served (received) | limit at end | coalesced joins |")
    print("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
    for r in results:
        n = r["offered"]
        print(f"| {r['name']} | {n} | {pct(r['fresh'], n)} | {pct(r['stale'], n)} | {pct(r['shed'], n)} | {pct(r['deadline'], n)} "
              f"| {pct(r['1009'], n)} | {r['other']} / {r['missing']} | {ms(r['p50'])} | {ms(r['p99'])} | {ms(r['failureP99'])} "
              f"| {r['upstreamPeak']} | {r['upstreamServed']} ({r['upstreamReceived']}) | {r['limitAtEnd']} | {r['coalescedJoins']} |")
    print()
    by_name = {r["name"]: r for r in results}
    if "today" in by_name and "stale-off" in by_name and by_name["today"]["fresh"]:
        print(f"- fresh answers, stale-off ÷ today: {by_name['stale-off']['fresh'] / by_name['today']['fresh']:.1f}×")
    if "stale-on" in by_name:
        r = by_name["stale-on"]
        print(f"- stale-on answered within the deadline (fresh or marked stale): {100.0 * (r['fresh'] + r['stale'] - r['late result']) / r['offered']:.2f} %")
    for r in results:
        if r["upstreamPeak"] > args.ceiling:
            print(f"- {r['name']}: the service held {r['upstreamPeak']} requests at once, above the ceiling {args.ceiling}")
    wrong = [(r["name"], p) for r in results for p in r["problems"]]
    print(f"- levels checked against the service's numbers: {len(wrong)} wrong")
    for name, problem in wrong[:20]:
        print(f"  - {name}: {problem}")
    return 1 if wrong else 0


CONFIGURATIONS = {
    "today": ["--inventory-limit", "fixed", "--inventory-coalesce", "off", "--inventory-circuit-failures", "1000000"],
    "stale-off": [],
    "stale-on": ["--inventory-stale-ms", "60000"],
}


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "serve":
        parser = argparse.ArgumentParser(prog="inventory_peak.py serve")
        parser.add_argument("serve")
        parser.add_argument("--workers", type=int, required=True)
        parser.add_argument("--service-ms", type=int, required=True)
        parser.add_argument("--t0", type=float, required=True)
        parser.add_argument("--slow-after", type=float)
        parser.add_argument("--slow-ms", type=int)
        return serve(parser.parse_args())
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--command", default="bench/inventory-peak")
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--load", type=float, default=10, help="offered checks/s as a multiple of the service's capacity")
    parser.add_argument("--workers", type=int, default=8)
    parser.add_argument("--service-ms", type=int, default=100)
    parser.add_argument("--ceiling", type=int, default=16, help="--inventory-max-concurrent")
    parser.add_argument("--slow-ms", type=int, help="from --slow-after seconds on, the service takes this long per request")
    parser.add_argument("--slow-after", type=float, default=5)
    parser.add_argument("--deadline-ms", type=int, default=5000, help="inventory.check's deadline (for reading the results)")
    parser.add_argument("--seed", type=int, default=25)
    parser.add_argument("--max-inflight", type=int, default=8192,
                        help="the server's --max-inflight: above the checks that can wait at once (rate × deadline), so the engine's back-pressure does not enter")
    parser.add_argument("--today-binary", help="run `today` with this build from before #25 (without the flags it lacks)")
    parser.add_argument("--only", action="append", choices=sorted(CONFIGURATIONS), help="run only these configurations")
    args = parser.parse_args()
    results = []
    for name, flags in CONFIGURATIONS.items():
        if args.only and name not in args.only:
            continue
        print(f"running {name} …", file=sys.stderr, flush=True)
        results.append(run_configuration(args, name, flags))
    sys.exit(print_table(args, results))


if __name__ == "__main__":
    main()
