#!/usr/bin/env python3
"""The catalog at scale (issue #36): import, serve and export a generated catalog on SQLite and
PostgreSQL, beside the floors the issue names. Run through bench/catalog-scale, which says what is
measured and builds the release binary. Standard library only.

Timing: wall-clock seconds of whole processes (an import is the `shop-rpc import` process from
spawn to exit, the floors the `sqlite3` / `psql` processes), peak RSS from GNU time (`%M`), request
latency from the write of a request to the read of its reply, over real pipes, one request at a
time. Imports are interleaved (floor, shop-rpc, floor, shop-rpc, …) so that a machine whose speed
drifts affects both alike; ratios are of medians.
"""
import argparse
import csv
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import catalog_scale_data as data  # noqa: E402

SHELL_FLOOR = """CREATE TABLE products (sku TEXT, name TEXT, description TEXT, category TEXT, priceCents INTEGER, currency TEXT, stock INTEGER);
.import --csv --skip 1 {csv} products
CREATE VIRTUAL TABLE product_search USING fts5(sku UNINDEXED, name, description, category, tokenize = 'unicode61 remove_diacritics 2');
INSERT INTO product_search (sku, name, description, category) SELECT sku, name, description, category FROM products;
"""


# MARK: - Processes

def timed(command, work, stdin=None):
    """Runs `command` to its end under GNU time; (seconds, peak RSS MB, stdout, stderr)."""
    rss_path = os.path.join(work, "rss.txt")
    start = time.perf_counter()
    run = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", rss_path, *command], stdin=stdin,
                         capture_output=True)
    seconds = time.perf_counter() - start
    if run.returncode != 0:
        sys.exit(f"{' '.join(command)} exited {run.returncode}: {run.stderr.decode()[-2000:]}")
    with open(rss_path) as f:
        rss = int(f.read().strip().splitlines()[-1]) / 1024
    return seconds, rss, run.stdout.decode(), run.stderr.decode()


def psql(uri, *commands, stdin=None):
    return subprocess.run(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", uri, *sum((["-c", c] for c in commands), [])],
                          check=True, capture_output=True, stdin=stdin)


class PostgresDatabases:
    """Fresh databases on the cluster `cluster` names, dropped at the end."""

    def __init__(self, cluster):
        self.cluster = cluster
        self.names = []

    def new(self):
        name = f"catalog_scale_{os.getpid()}_{len(self.names)}"
        psql(self.cluster, f"DROP DATABASE IF EXISTS {name}", f"CREATE DATABASE {name}")
        self.names.append(name)
        base, _, query = self.cluster.partition("?")
        return base.rsplit("/", 1)[0] + "/" + name + ("?" + query if query else "")

    def drop_all(self):
        for name in self.names:
            subprocess.run(["psql", "-X", "-q", "-d", self.cluster, "-c", f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"],
                           capture_output=True)


class Server:
    """One `shop-rpc` serving over pipes under GNU time; `call` sends one request and waits for its reply."""

    def __init__(self, binary, db, work, timed_rss=True):
        self.rss_path = os.path.join(work, f"server-rss-{time.monotonic_ns()}.txt")
        prefix = ["/usr/bin/time", "-f", "%M", "-o", self.rss_path] if timed_rss else []
        self.proc = subprocess.Popen([*prefix, binary, "--db", db], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, bufsize=0)
        self.buffer = b""
        self.next_id = 0

    def call(self, method, params=None):
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            message["params"] = params
        line = json.dumps(message, separators=(",", ":")).encode() + b"\n"
        start = time.perf_counter()
        os.write(self.proc.stdin.fileno(), line)
        while b"\n" not in self.buffer:
            chunk = os.read(self.proc.stdout.fileno(), 1 << 16)
            if not chunk:
                sys.exit(f"server closed stdout during {method}")
            self.buffer += chunk
        reply, _, self.buffer = self.buffer.partition(b"\n")
        elapsed = (time.perf_counter() - start) * 1000
        return elapsed, json.loads(reply)

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=60)
        try:
            with open(self.rss_path) as f:
                return int(f.read().strip().splitlines()[-1]) / 1024
        except (OSError, ValueError, IndexError):
            return None


def first_reply_ms(binary, db, runs=20):
    """Milliseconds from spawning the server to reading its first reply (a ping), median and max."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        proc = subprocess.Popen([binary, "--db", db], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, bufsize=0)
        os.write(proc.stdin.fileno(), b'{"jsonrpc":"2.0","id":1,"method":"ping"}\n')
        os.read(proc.stdout.fileno(), 4096)
        times.append((time.perf_counter() - start) * 1000)
        proc.stdin.close()
        proc.wait()
    return statistics.median(times), max(times)


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


# MARK: - Files

def prepare_files(work, count):
    """The catalog CSV, its query set, and the same catalog with every price changed (for an import
    that writes every row); generated once per count and reused."""
    catalog = os.path.join(work, f"catalog-{count}.csv")
    queries = os.path.join(work, f"queries-{count}.json")
    updated = os.path.join(work, f"catalog-{count}-prices.csv")
    if not (os.path.exists(catalog) and os.path.exists(queries)):
        print(f"generating {count} products …", file=sys.stderr)
        frequency = data.write_catalog(catalog, count)
        with open(queries, "w") as f:
            json.dump(data.query_set(frequency, count), f)
    if not os.path.exists(updated):
        with open(catalog, newline="") as source, open(updated, "w", newline="") as target:
            reader, writer = csv.reader(source), csv.writer(target, lineterminator="\n")
            writer.writerow(next(reader))
            for row in reader:
                row[4] = str(int(row[4]) + 1)
                writer.writerow(row)
    with open(queries) as f:
        return catalog, [tuple(q) for q in json.load(f)], updated


# MARK: - Measurements

def import_sqlite(binary, work, catalog, rounds, count):
    results = {"floor": [], "import": [], "import_rss": [], "floor_rss": []}
    store = None
    for round_number in range(rounds):
        floor_db = os.path.join(work, "floor.sqlite")
        for path in [floor_db]:
            if os.path.exists(path):
                os.remove(path)
        script = os.path.join(work, "floor.sql")
        with open(script, "w") as f:
            f.write(SHELL_FLOOR.format(csv=catalog))
        with open(script) as f:
            seconds, rss, _, _ = timed(["sqlite3", floor_db], work, stdin=f)
        results["floor"].append(seconds)
        results["floor_rss"].append(rss)
        os.remove(floor_db)
        store = os.path.join(work, "shop.sqlite")
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(store + suffix):
                os.remove(store + suffix)
        seconds, rss, out, _ = timed([binary, "import", "--db", store, catalog], work)
        summary = json.loads(out)
        assert summary["created"] == count, summary
        results["import"].append(seconds)
        results["import_rss"].append(rss)
        print(f"  sqlite round {round_number + 1}: floor {results['floor'][-1]:.2f} s, import {seconds:.2f} s", file=sys.stderr)
    return results, store


def import_postgres(binary, work, catalog, rounds, count, databases):
    results = {"floor": [], "import": [], "import_rss": []}
    store = None
    for round_number in range(rounds):
        floor_uri = databases.new()
        psql(floor_uri, "CREATE TABLE bare (sku text, name text, description text, category text, priceCents bigint, currency text, stock bigint)")
        seconds, _, _, _ = timed(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", floor_uri, "-c",
                                  f"\\copy bare FROM '{catalog}' WITH (FORMAT csv, HEADER true)"], work)
        results["floor"].append(seconds)
        store = databases.new()
        seconds, rss, out, _ = timed([binary, "import", "--db", store, catalog], work)
        assert json.loads(out)["created"] == count, out
        results["import"].append(seconds)
        results["import_rss"].append(rss)
        print(f"  postgres round {round_number + 1}: \\copy {results['floor'][-1]:.2f} s, import {seconds:.2f} s", file=sys.stderr)
    return results, store


def serve(binary, work, store, demo_store, queries, count, label):
    """Latencies of one server on `store` (and catalog.get on the demo store, of the same kind), one request at a time."""
    rng = random.Random(36)
    out = {}
    if label == "sqlite":
        out["first_reply"] = first_reply_ms(binary, store)
    # catalog.get, interleaved with the demo store's.
    big, demo = Server(binary, store, work), Server(binary, demo_store, work)
    gets, demo_gets = [], []
    for _ in range(3):
        for _ in range(1000):
            gets.append(big.call("catalog.get", {"sku": data.sku(rng.randrange(1, count + 1))})[0])
        for _ in range(1000):
            demo_gets.append(demo.call("catalog.get", {"sku": f"SKU-{rng.randrange(1, 241):04d}"})[0])
    demo.close()
    out["get_p50"], out["demo_get_p50"] = statistics.median(gets), statistics.median(demo_gets)
    # catalog.search: every query, 20 to warm up and 200 timed.
    searches = {}
    for label_text, query in queries:
        for _ in range(20):
            big.call("catalog.search", {"query": query})
        times, found = [], 0
        for _ in range(200):
            elapsed, reply = big.call("catalog.search", {"query": query})
            times.append(elapsed)
            found = len(reply.get("result", {}).get("items", []))
        searches[label_text] = (percentile(times, 0.5), percentile(times, 0.99), found)
    out["search"] = searches
    # catalog.list: first page, a deep page reached through cursors, and by category.
    lists = {}
    category = "kitchen"
    pages = {"first page": {}, f"first page of '{category}'": {"category": category}}
    cursor, walked = None, 0
    while walked < (count // 2) // 200:
        cursor = big.call("catalog.list", {"limit": 200, **({"cursor": cursor} if cursor else {})})[1]["result"].get("nextCursor")
        walked += 1
    pages[f"page {walked * 4 + 1} (through {walked} cursors)"] = {"cursor": cursor}
    cursor = None
    for _ in range(50):
        cursor = big.call("catalog.list", {"limit": 200, "category": category, **({"cursor": cursor} if cursor else {})})[1]["result"].get("nextCursor")
    pages[f"page 201 of '{category}' (through 50 cursors)"] = {"category": category, "cursor": cursor}
    for name, params in pages.items():
        for _ in range(20):
            big.call("catalog.list", params)
        times = [big.call("catalog.list", params)[0] for _ in range(200)]
        lists[name] = (percentile(times, 0.5), percentile(times, 0.99))
    out["list"] = lists
    out["rss"] = big.close()
    return out


def get_during_import(binary, work, store, updated, count):
    """catalog.get p50/p99 on a server while `shop-rpc import` changes every product's price."""
    server = Server(binary, store, work, timed_rss=False)
    rng = random.Random(7)
    server.call("ping")
    result = {}

    def run_import():
        seconds, _, out, _ = timed([binary, "import", "--db", store, updated], work)
        result["seconds"], result["summary"] = seconds, json.loads(out)

    importer = threading.Thread(target=run_import)
    importer.start()
    times = []
    while importer.is_alive():
        times.append(server.call("catalog.get", {"sku": data.sku(rng.randrange(1, count + 1))})[0])
    importer.join()
    server.close()
    return {"requests": len(times), "p50": percentile(times, 0.5), "p99": percentile(times, 0.99),
            "max": max(times), "import_seconds": result["seconds"], "summary": result["summary"]}


def round_trip(binary, work, store):
    path = os.path.join(work, "export.csv")
    start = time.perf_counter()
    with open(path, "w") as f:
        subprocess.run([binary, "export", "products", "--db", store], stdout=f, check=True)
    export_seconds = time.perf_counter() - start
    seconds, rss, out, _ = timed([binary, "import", "--db", store, path], work)
    os.remove(path)
    return {"export_seconds": export_seconds, "import_seconds": seconds, "import_rss": rss, "summary": json.loads(out)}


# MARK: - Report

def verdict(ok):
    return "**met**" if ok else "**not met**"


def report_store(label, imports, served, during, trip, count, floor_name, floor_target):
    print(f"\n### {label}\n")
    floor, ours = statistics.median(imports["floor"]), statistics.median(imports["import"])
    ratio = floor / ours
    rate = count / ours
    rss = max(imports["import_rss"])
    print("| measurement | figure | target |")
    print("|---|--:|---|")
    print(f"| import of {count} rows, median of {len(imports['import'])} | {ours:.2f} s ({rate / 1000:.1f} k rows/s; runs "
          f"{', '.join(f'{s:.2f}' for s in imports['import'])}) | |")
    print(f"| {floor_name}, median | {floor:.2f} s (runs {', '.join(f'{s:.2f}' for s in imports['floor'])}) | |")
    print(f"| speed beside the floor | {ratio:.2f}× | ≥ {floor_target}×: {verdict(ratio >= floor_target)} |")
    if label == "SQLite":
        print(f"| rows/s | {rate:,.0f} | ≥ 70 000: {verdict(rate >= 70_000)} |")
    print(f"| import peak RSS | {rss:.1f} MB | {'≤ 128 MB: ' + verdict(rss <= 128) if label == 'SQLite' else ''} |")
    if "first_reply" in served:
        median, worst = served["first_reply"]
        print(f"| first reply after start (median, max of 20) | {median:.1f} ms, {worst:.1f} ms | ≤ 20 ms: {verdict(median <= 20)} |")
    get_ratio = served["get_p50"] / served["demo_get_p50"]
    print(f"| catalog.get p50, {count} products / demo store | {served['get_p50']:.3f} / {served['demo_get_p50']:.3f} ms "
          f"({get_ratio:.2f}×) | within 10 %: {verdict(get_ratio <= 1.10)} |")
    worst_search = max(p99 for _, p99, _ in served["search"].values())
    for name, (p50, p99, found) in served["search"].items():
        print(f"| catalog.search {name}: {found} results | p50 {p50:.2f} ms, p99 {p99:.2f} ms | |")
    print(f"| catalog.search, worst p99 of the set | {worst_search:.2f} ms | ≤ 20 ms: {verdict(worst_search <= 20)} |")
    worst_list = max(p99 for _, p99 in served["list"].values())
    for name, (p50, p99) in served["list"].items():
        print(f"| catalog.list {name} | p50 {p50:.2f} ms, p99 {p99:.2f} ms | |")
    print(f"| catalog.list, worst p99 | {worst_list:.2f} ms | ≤ 5 ms: {verdict(worst_list <= 5)} |")
    if served.get("rss") is not None:
        print(f"| server peak RSS over all of the above | {served['rss']:.1f} MB | ≤ 32 MB: {verdict(served['rss'] <= 32)} |")
    print(f"| catalog.get during an import of {count} price changes ({during['import_seconds']:.1f} s, "
          f"{during['requests']} requests) | p50 {during['p50']:.3f} ms, p99 {during['p99']:.2f} ms, max {during['max']:.1f} ms "
          f"| p99 ≤ 10 ms: {verdict(during['p99'] <= 10)} |")
    print(f"| round trip: export ({trip['export_seconds']:.1f} s), import ({trip['import_seconds']:.1f} s) | "
          f"unchanged {trip['summary']['unchanged']} of {trip['summary']['rows']} | all unchanged: "
          f"{verdict(trip['summary']['unchanged'] == count)} |")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--command", default="bench/catalog-scale")
    parser.add_argument("--count", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", action="append", choices=["sqlite", "postgres"])
    args = parser.parse_args()
    work = os.environ.get("BENCH_WORK", "/tmp/shop-rpc-catalog-scale")
    os.makedirs(work, exist_ok=True)
    catalog, queries, updated = prepare_files(work, args.count)
    stores = args.only or ["sqlite", "postgres"]
    cluster = os.environ.get("SHOP_RPC_TEST_POSTGRES_URI")
    if "postgres" in stores and not cluster:
        print("catalog-scale: no PostgreSQL cluster (run under scripts/with-postgres); SQLite only", file=sys.stderr)
        stores = [s for s in stores if s != "postgres"]
    demo_store = os.path.join(work, "demo.sqlite")
    if not os.path.exists(demo_store):
        Server(args.binary, demo_store, work, timed_rss=False).close()

    print(f"## bench/catalog-scale: {args.count} products\n")
    print(f"`{args.command}`, {time.strftime('%Y-%m-%d %H:%M')}, load average at start "
          f"{os.getloadavg()[0]:.1f}, binary {args.binary}")
    if "sqlite" in stores:
        print("SQLite imports …", file=sys.stderr)
        imports, store = import_sqlite(args.binary, work, catalog, args.rounds, args.count)
        print("SQLite serving …", file=sys.stderr)
        served = serve(args.binary, work, store, demo_store, queries, args.count, "sqlite")
        during = get_during_import(args.binary, work, store, updated, args.count)
        trip = round_trip(args.binary, work, store)
        report_store("SQLite", imports, served, during, trip, args.count, "sqlite3 shell: .import --csv + today's FTS5 index", 0.9)
    if "postgres" in stores:
        databases = PostgresDatabases(cluster)
        try:
            print("PostgreSQL imports …", file=sys.stderr)
            imports, store = import_postgres(args.binary, work, catalog, args.rounds, args.count, databases)
            print("PostgreSQL serving …", file=sys.stderr)
            demo_postgres = databases.new()
            Server(args.binary, demo_postgres, work, timed_rss=False).close()
            served = serve(args.binary, work, store, demo_postgres, queries, args.count, "postgres")
            during = get_during_import(args.binary, work, store, updated, args.count)
            trip = round_trip(args.binary, work, store)
            report_store("PostgreSQL", imports, served, during, trip, args.count, "psql \\copy into a bare table", 0.4)
        finally:
            databases.drop_all()


if __name__ == "__main__":
    main()
