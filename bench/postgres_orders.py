#!/usr/bin/env python3
"""Durable orders.place/s and catalog.get/s: N shop-rpc processes on one PostgreSQL database
(each with W calls in flight) beside one process on a SQLite file (64 in flight), and the same
processes placing contended orders ("hot": carts of 2-3 lines over 10 hot SKUs, each cart's lines
in a random order), with each order's latency (p50, p99, max, and how many took 1 s or more).

Run through bench/postgres-orders, which starts a throw-away cluster with fsync on (so
synchronous_commit = on means what it says) and builds the release binary. Standard library only.
Carts are prepared with SQL before the timed part, so the measured call is orders.place alone.
"""
import argparse
import json
import os
import random
import select
import sqlite3
import subprocess
import sys
import tempfile
import time
import uuid

PRODUCTS = 240
HOT_SKUS = [f"SKU-{n:04d}" for n in range(1, 11)]


def request(i, method, params):
    return json.dumps({"jsonrpc": "2.0", "id": i, "method": method, "params": params}, separators=(",", ":")).encode() + b"\n"


def psql(psql_bin, uri, sql):
    subprocess.run([psql_bin, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", uri], input=sql.encode(), check=True, stdout=subprocess.DEVNULL)


def with_database(uri, name):
    """The URI with its database replaced (urlunsplit would drop the empty host of `postgresql:///db`)."""
    base, mark, query = uri.partition("?")
    return base.rsplit("/", 1)[0] + "/" + name + mark + query


def spawn(binary, db, pool):
    args = [binary, "--db", db, "--log-level", "info"] + (["--db-pool", str(pool)] if pool else [])
    proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0)
    # Ready once it answers (start-up and migration are not timed).
    os.write(proc.stdin.fileno(), request(0, "catalog.get", {"sku": "SKU-0001"}))
    line = proc.stdout.readline()
    if b'"result"' not in line:
        sys.exit(f"{db}: not ready: {line!r} {proc.stderr.read()!r}")
    return proc


def finish(procs):
    for proc in procs:
        proc.stdin.close()
    for proc in procs:
        proc.wait(timeout=60)
        proc.stderr.read()


def drive(procs, make, per_process, inflight):
    """Keeps `inflight` calls outstanding on each process until `per_process` have been answered
    on each; returns (calls/s over all processes, failed replies, one error reply if any, each
    call's latency in ms from its request's write to its reply's read)."""
    state, sent_at, latencies = {}, {}, []
    for index, proc in enumerate(procs):
        state[proc.stdout.fileno()] = {"index": index, "proc": proc, "sent": 0, "received": 0, "buffer": b""}
    start = time.perf_counter()
    for entry in state.values():
        first = min(inflight, per_process)
        now = time.perf_counter()
        sent_at.update(((entry["index"], i), now) for i in range(first))
        os.write(entry["proc"].stdin.fileno(), b"".join(make(entry["index"], i) for i in range(first)))
        entry["sent"] = first
    failures, sample, open_fds = 0, None, set(state)
    while open_fds:
        ready, _, _ = select.select(list(open_fds), [], [], 120)
        if not ready:
            sys.exit("no reply for 120 s")
        for fd in ready:
            entry = state[fd]
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                sys.exit("a server closed stdout early")
            entry["buffer"] += chunk
            *complete, entry["buffer"] = entry["buffer"].split(b"\n")
            entry["received"] += len(complete)
            now = time.perf_counter()
            for line in complete:
                latencies.append((now - sent_at.pop((entry["index"], json.loads(line)["id"]))) * 1000)
                if b'"error"' in line:
                    failures += 1
                    sample = sample or line[:300]
            more = [make(entry["index"], i) for i in range(entry["sent"], min(per_process, entry["sent"] + len(complete)))]
            sent_at.update(((entry["index"], i), now) for i in range(entry["sent"], entry["sent"] + len(more)))
            entry["sent"] += len(more)
            if more:
                os.write(entry["proc"].stdin.fileno(), b"".join(more))
            if entry["received"] >= per_process:
                open_fds.discard(fd)
    elapsed = time.perf_counter() - start
    return round(per_process * len(procs) / elapsed), failures, sample, sorted(latencies)


def postgres_cpu_seconds():
    """CPU seconds the cluster has used so far: the postmaster and every child it has reaped
    (a backend's time lands here when its connection closes)."""
    data = os.environ.get("SHOP_RPC_TEST_POSTGRES_DATA")
    try:
        with open(os.path.join(data, "postmaster.pid")) as handle:
            pid = int(handle.readline())
        with open(f"/proc/{pid}/stat") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
    except (OSError, TypeError, ValueError):
        return None
    return sum(int(value) for value in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def measured(binary, db, pool, count, make, per_process, inflight):
    """Spawns `count` servers, drives them, stops them; returns (calls/s, failures, sample error,
    CPU ms per call in shop-rpc, CPU ms per call in PostgreSQL or None, sorted latencies in ms)."""
    procs = [spawn(binary, db, pool) for _ in range(count)]
    children, cluster = os.times().children_user + os.times().children_system, postgres_cpu_seconds()
    rate, failures, sample, latencies = drive(procs, make, per_process, inflight)
    finish(procs)
    time.sleep(0.5)  # the backends exit after their clients
    calls = count * per_process
    server_ms = (os.times().children_user + os.times().children_system - children) * 1000 / calls
    after = postgres_cpu_seconds()
    database_ms = (after - cluster) * 1000 / calls if after is not None and cluster is not None and "://" in db else None
    return rate, failures, sample, server_ms, database_ms, latencies


def cart_rows(processes, per_process):
    for p in range(processes):
        for i in range(per_process):
            yield f"b{p}-{i}", f"SKU-{(i + p) % PRODUCTS + 1:04d}"


def hot_cart_rows(processes, per_process, seed=24):
    """Carts of 2 or 3 of the hot SKUs, each cart's lines in a random order (rows in line order)."""
    rng = random.Random(seed)
    for p in range(processes):
        for i in range(per_process):
            for sku in rng.sample(HOT_SKUS, rng.choice((2, 3))):
                yield f"h{p}-{i}", sku


def place_hot(p, i):
    return request(i, "orders.place", {"cartId": f"h{p}-{i}", "idempotencyKey": f"h{p}-{i}"})


def place(p, i):
    return request(i, "orders.place", {"cartId": f"b{p}-{i}", "idempotencyKey": f"b{p}-{i}"})


def get(p, i):
    return request(i, "catalog.get", {"sku": f"SKU-{(i + p) % PRODUCTS + 1:04d}"})


def postgres_rows(args):
    name = "bench_" + uuid.uuid4().hex[:12]
    psql(args.psql, args.pg_uri, f"CREATE DATABASE {name}")
    uri = with_database(args.pg_uri, name)
    try:
        finish([spawn(args.binary, uri, 1)])  # migrates and seeds
        psql(args.psql, uri, "UPDATE stock SET available = 100000000")
        # One INSERT, rows in line order: identity ids keep each cart's lines in that order.
        rows = list(cart_rows(args.processes, args.orders)) + list(hot_cart_rows(args.processes, args.orders))
        values = ",".join(f"('{cart}','{sku}',1,100)" for cart, sku in rows)
        psql(args.psql, uri, f"INSERT INTO cart_lines (cart_id, sku, quantity, unit_price_cents) VALUES {values}")
        psql(args.psql, uri, "VACUUM ANALYZE")
        orders = measured(args.binary, uri, args.pool, args.processes, place, args.orders, args.inflight)
        hot = measured(args.binary, uri, args.pool, args.processes, place_hot, args.orders, args.inflight) if args.hot else None
        catalog = measured(args.binary, uri, args.pool, args.processes, get, args.catalog, args.inflight)
    finally:
        psql(args.psql, args.pg_uri, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    return orders, hot, catalog


def sqlite_rows(args, directory):
    path = os.path.join(directory, "bench.sqlite")
    total = args.processes * args.orders
    finish([spawn(args.binary, path, None)])
    with sqlite3.connect(path) as db:
        db.execute("UPDATE stock SET available = 100000000")
        db.executemany("INSERT INTO cart_lines (cart_id, sku, quantity, unit_price_cents) VALUES (?, ?, 1, 100)",
                       cart_rows(1, total))
    db.close()
    orders = measured(args.binary, path, None, 1, place, total, args.sqlite_inflight)
    catalog = measured(args.binary, path, None, 1, get, args.processes * args.catalog, args.sqlite_inflight)
    return orders, catalog


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--pg-uri", default=os.environ.get("SHOP_RPC_TEST_POSTGRES_URI"))
    parser.add_argument("--psql", default=os.path.join(os.environ.get("SHOP_RPC_TEST_POSTGRES_BIN", "/usr/bin"), "psql"))
    parser.add_argument("--processes", type=int, default=4)
    parser.add_argument("--inflight", type=int, default=16)
    parser.add_argument("--pool", type=int, default=4)
    parser.add_argument("--sqlite-inflight", type=int, default=64)
    parser.add_argument("--orders", type=int, default=5000, help="orders per PostgreSQL process")
    parser.add_argument("--catalog", type=int, default=20000, help="catalog.get per PostgreSQL process")
    parser.add_argument("--commit-delay", type=int, default=0,
                        help="the cluster's commit_delay in µs (group commit: wait for more committers before the WAL flush)")
    parser.add_argument("--no-hot", dest="hot", action="store_false",
                        help="skip the contended orders (minutes on a build that deadlocks)")
    parser.add_argument("--command", default="bench/postgres-orders")
    args = parser.parse_args()
    if not args.pg_uri:
        sys.exit("needs --pg-uri or SHOP_RPC_TEST_POSTGRES_URI (bench/postgres-orders runs with-postgres)")
    psql(args.psql, args.pg_uri, f"ALTER SYSTEM SET commit_delay = {args.commit_delay}; SELECT pg_reload_conf()")
    pg_orders, pg_hot, pg_catalog = postgres_rows(args)
    with tempfile.TemporaryDirectory() as directory:
        lite_orders, lite_catalog = sqlite_rows(args, directory)
    total = args.processes * args.orders
    print(f"\n`{args.command}` ({time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} cores)\n")
    fsync = os.environ.get("SHOP_RPC_TEST_POSTGRES_FSYNC", "off")
    cpu = lambda r: f"{r[3]:.2f}" + (f" + {r[4]:.2f}" if r[4] is not None else "")
    print("| store | processes × in flight | orders.place/s (durable) | CPU ms per order (shop-rpc + PostgreSQL) "
          "| catalog.get/s | CPU ms per get | failed |")
    print("|---|---|---|---|---|---|---|")
    print(f"| PostgreSQL (synchronous_commit on, fsync {fsync}, commit_delay {args.commit_delay} µs), --db-pool {args.pool} | {args.processes} × {args.inflight} "
          f"| **{pg_orders[0]}** ({total} orders) | {cpu(pg_orders)} | {pg_catalog[0]} | {cpu(pg_catalog)} | {pg_orders[1] + pg_catalog[1]} |")
    print(f"| SQLite file (synchronous=FULL) | 1 × {args.sqlite_inflight} "
          f"| **{lite_orders[0]}** ({total} orders) | {cpu(lite_orders)} | {lite_catalog[0]} | {cpu(lite_catalog)} | {lite_orders[1] + lite_catalog[1]} |")
    def quantile(latencies, q):
        return latencies[min(len(latencies) - 1, int(q * len(latencies)))]

    print("\n| PostgreSQL orders, " + f"{args.processes} × {args.inflight}" + " | orders.place/s | p50 ms | p99 ms | max ms | ≥ 1 s | failed |")
    print("|---|--:|--:|--:|--:|--:|--:|")
    for label, result in (("uncontended (one SKU per cart, spread over the catalog)", pg_orders),
                          ("hot (2-3 of 10 hot SKUs per cart, in random order)", pg_hot)):
        if result is None:
            continue
        latencies = result[5]
        print(f"| {label} | {result[0]} | {quantile(latencies, 0.5):.1f} | {quantile(latencies, 0.99):.1f} "
              f"| {latencies[-1]:.0f} | {sum(1 for x in latencies if x >= 1000)} | {result[1]} |")
    for label, result in (("pg orders", pg_orders), ("pg hot orders", pg_hot), ("pg catalog", pg_catalog),
                          ("sqlite orders", lite_orders), ("sqlite catalog", lite_catalog)):
        if result is None:
            continue
        if result[2]:
            print(f"\n{label}: first error reply: {result[2].decode(errors='replace')}")


if __name__ == "__main__":
    main()
