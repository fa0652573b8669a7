#!/usr/bin/env python3
"""The judged search benchmark (issue #42): every query of judgments.jsonl.gz sent as
`catalog.search` to each shop-rpc binary given, and run against the reference, SQLite FTS5, on the
same catalog in the same run; nDCG@10, MRR, recall@100 and the zero-result rate per query class and
overall, for the tuning and the held-out halves separately. Prints Markdown and writes JSON.
Run through bench/search-quality/run. Standard library only.

Each binary gets a fresh SQLite store: `shop-rpc import --db STORE catalog.csv`, then one
`shop-rpc --db STORE` serving over pipes, one request at a time, `limit` 200 (the most a search
returns). The reference is an FTS5 table over name, description and category (the catalog has no
brand column: the brand is in the name) with the porter tokenizer and no other option, ranked by
bm25() with its default weights: first the products having every word of the query (an AND query),
then those having any of them (an OR query) that the first did not return, 200 in all.

Metrics (grades 0-3 from judgments.jsonl.gz; a product not listed is 0):
  nDCG@10     sum over the first 10 results of (2^grade - 1) / log2(rank + 1), divided by the same
              sum for the judged products in the best order
  MRR         1 / the rank of the first result of grade 2 or 3 ("relevant"), 0 when none is returned
  recall@100  relevant products among the first 100 results / min(relevant products, 100)
  zero        the share of queries answered with no result at all
Each is the mean over the queries of a class (and over all queries of a split).
"""
import argparse
import json
import math
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import catalog  # noqa: E402
import generate  # noqa: E402
from queries import CLASSES  # noqa: E402

LIMIT = 200
METRICS = ["ndcg10", "mrr", "recall100", "zero"]
SPLITS = ["tuning", "heldout"]


# MARK: - Engines

class ShopRPC:
    """One shop-rpc binary: imports the catalog into `store` (a new SQLite path or an empty
    PostgreSQL database), then serves it over pipes."""

    def __init__(self, label, binary, store, catalog_path):
        self.label, self.binary = label, binary
        start = time.perf_counter()
        run = subprocess.run([binary, "import", "--db", store, catalog_path], capture_output=True, text=True)
        if run.returncode != 0:
            sys.exit(f"{label}: import exited {run.returncode}: {run.stderr[-2000:]}")
        self.import_seconds = time.perf_counter() - start
        self.import_summary = json.loads(run.stdout.strip().splitlines()[-1])
        self.version = subprocess.run([binary, "--version"], capture_output=True, text=True).stdout.strip()
        self.proc = subprocess.Popen([binary, "--db", store], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, bufsize=0)
        self.buffer = b""
        self.next_id = 0
        self.errors = 0

    def search(self, query):
        """The SKUs `catalog.search` returns, in order; an error reply counts as no result (and in `errors`)."""
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": self.next_id, "method": "catalog.search", "params": {"query": query, "limit": LIMIT}}
        os.write(self.proc.stdin.fileno(), json.dumps(message).encode() + b"\n")
        while b"\n" not in self.buffer:
            chunk = os.read(self.proc.stdout.fileno(), 1 << 16)
            if not chunk:
                sys.exit(f"{self.label}: the server closed stdout")
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        reply = json.loads(line)
        if "error" in reply:
            self.errors += 1
            return []
        return [item["sku"] for item in reply["result"]["items"]]

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


def fresh_sqlite(work, label):
    store = os.path.join(work, re.sub(r"[^A-Za-z0-9_.-]", "_", label) + ".sqlite")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(store + suffix):
            os.remove(store + suffix)
    return store


class PostgresDatabases:
    """Fresh databases on the cluster `cluster` names, dropped by `drop_all`."""

    def __init__(self, cluster):
        self.cluster, self.names = cluster, []

    def psql(self, command):
        subprocess.run(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", self.cluster, "-c", command],
                       check=True, capture_output=True)

    def new(self):
        name = f"search_quality_{os.getpid()}_{len(self.names)}"
        self.psql(f"DROP DATABASE IF EXISTS {name}")
        self.psql(f"CREATE DATABASE {name}")
        self.names.append(name)
        base, _, query = self.cluster.partition("?")
        return base.rsplit("/", 1)[0] + "/" + name + ("?" + query if query else "")

    def drop_all(self):
        for name in self.names:
            subprocess.run(["psql", "-X", "-q", "-d", self.cluster, "-c", f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"],
                           capture_output=True)


class FTS5Reference:
    """SQLite FTS5 over name, description and category, porter tokenizer, bm25(); all words, then any word."""

    def __init__(self, products):
        self.label = "SQLite FTS5 reference"
        self.version = f"SQLite {sqlite3.sqlite_version}, tokenize='porter', bm25()"
        self.db = sqlite3.connect(":memory:")
        self.db.execute("CREATE VIRTUAL TABLE products USING fts5(sku UNINDEXED, name, description, category, tokenize = 'porter')")
        self.db.executemany("INSERT INTO products (sku, name, description, category) VALUES (?, ?, ?, ?)",
                            [(p["sku"], p["name"], p["description"], p["category"]) for p in products])
        self.errors = 0

    def search(self, query):
        # Every token quoted: no character of a query is FTS5 syntax (as unicode61 splits: letters and digits).
        tokens = ['"' + t + '"' for t in re.findall(r"[^\W_]+", query.lower())]
        if not tokens:
            return []
        found = self.match(" AND ".join(tokens), LIMIT)
        if len(found) < LIMIT and len(tokens) > 1:
            seen = set(found)
            found += [s for s in self.match(" OR ".join(tokens), LIMIT + len(found)) if s not in seen][:LIMIT - len(found)]
        return found

    def match(self, expression, limit):
        rows = self.db.execute("SELECT sku FROM products WHERE products MATCH ? ORDER BY bm25(products) LIMIT ?", (expression, limit))
        return [sku for (sku,) in rows]

    def close(self):
        self.db.close()


# MARK: - Metrics

def scores(results, judgments):
    grades = {sku: int(g) for g, skus in judgments.items() for sku in skus}
    ideal = sorted(grades.values(), reverse=True)[:10]
    dcg = lambda gs: sum((2 ** g - 1) / math.log2(i + 2) for i, g in enumerate(gs))
    ndcg = dcg([grades.get(s, 0) for s in results[:10]]) / dcg(ideal)
    rr = next((1 / (i + 1) for i, s in enumerate(results) if grades.get(s, 0) >= 2), 0.0)
    relevant = sum(1 for g in grades.values() if g >= 2)
    recall = sum(1 for s in results[:100] if grades.get(s, 0) >= 2) / min(relevant, 100)
    return {"ndcg10": ndcg, "mrr": rr, "recall100": recall, "zero": 1.0 if not results else 0.0}


def mean(rows, metric):
    return sum(r[metric] for r in rows) / len(rows) if rows else float("nan")


def summarize(per_query, queries):
    """{split: {"overall": {metric: mean}, "classes": {class: {metric: mean}}, "queries": n}}."""
    out = {}
    for split in SPLITS:
        rows = [(q, s) for q, s in zip(queries, per_query) if q["split"] == split]
        out[split] = {"queries": len(rows), "overall": {m: mean([s for _, s in rows], m) for m in METRICS},
                      "classes": {c: {m: mean([s for q, s in rows if q["class"] == c], m) for m in METRICS} for c in CLASSES}}
    return out


# MARK: - Report

def pct(x):
    return f"{100 * x:.1f} %"


def markdown(engines, summaries, header, queries):
    out = []
    out.append(f"Catalog: {header['catalog']['products']} products (seed {header['catalog']['seed']}), "
               f"{len(queries)} queries in {len(CLASSES)} classes: "
               + ", ".join(f"{s} {sum(1 for q in queries if q['split'] == s)}" for s in SPLITS) + ".")
    out.append("")
    reference = engines[-1].label
    out.append("| engine | split | nDCG@10 | ÷ reference | MRR | recall@100 | no result |")
    out.append("|---|---|--:|--:|--:|--:|--:|")
    for e in engines:
        for split in SPLITS:
            o = summaries[e.label][split]["overall"]
            ratio = o["ndcg10"] / summaries[reference][split]["overall"]["ndcg10"]
            out.append(f"| {e.label} | {split} | {o['ndcg10']:.3f} | {ratio:.2f}× | {o['mrr']:.3f} | {o['recall100']:.3f} | {pct(o['zero'])} |")
    out.append("")
    out.append("nDCG@10 by class, tuning / held-out (no result, tuning / held-out, in brackets):")
    out.append("")
    out.append("| class | " + " | ".join(e.label for e in engines) + " |")
    out.append("|---|" + "--:|" * len(engines))
    for c in CLASSES:
        cells = []
        for e in engines:
            t, h = summaries[e.label]["tuning"]["classes"][c], summaries[e.label]["heldout"]["classes"][c]
            cells.append(f"{t['ndcg10']:.2f} / {h['ndcg10']:.2f} ({100 * t['zero']:.0f} / {100 * h['zero']:.0f} %)")
        out.append(f"| {c} | " + " | ".join(cells) + " |")
    return "\n".join(out)


# MARK: - Main

def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", action="append", default=[], metavar="LABEL=PATH",
                        help="a shop-rpc binary to measure (repeatable), e.g. 'this build=.build/release/shop-rpc'")
    parser.add_argument("--work", default=os.environ.get("BENCH_WORK", "/tmp/shop-rpc-search-quality"))
    parser.add_argument("--json", help="where to write the JSON results (default WORK/search-quality.json)")
    parser.add_argument("--postgres", action="store_true",
                        help="also serve each binary from a fresh PostgreSQL database on the cluster SHOP_RPC_TEST_POSTGRES_URI "
                             "names (scripts/with-postgres), and say whether both stores return the same products in the same order")
    args = parser.parse_args()
    cluster = os.environ.get("SHOP_RPC_TEST_POSTGRES_URI")
    if args.postgres and not cluster:
        sys.exit("--postgres needs SHOP_RPC_TEST_POSTGRES_URI (run under scripts/with-postgres)")
    os.makedirs(args.work, exist_ok=True)

    header, queries = generate.read_judgments()
    products = catalog.build_products()
    text = catalog.catalog_csv(products)
    if catalog.digest(text) != header["catalog"]["sha256"] or len(products) != header["catalog"]["products"]:
        sys.exit("the generated catalog is not the one judgments.jsonl.gz grades (generator changed?): "
                 "see bench/search-quality/generate.py")
    catalog_path = os.path.join(args.work, "catalog.csv")
    with open(catalog_path, "w") as f:
        f.write(text)

    engines, pairs = [], []
    databases = PostgresDatabases(cluster) if args.postgres else None
    try:
        for spec in args.binary:
            label, sep, path = spec.partition("=")
            if not sep:
                label, path = os.path.basename(spec), spec
            engines.append(ShopRPC(label, os.path.abspath(path), fresh_sqlite(args.work, label), catalog_path))
            if databases:
                engines.append(ShopRPC(f"{label} on PostgreSQL", os.path.abspath(path), databases.new(), catalog_path))
                pairs.append((label, f"{label} on PostgreSQL"))
        engines.append(FTS5Reference(products))
        run_all(engines, queries, header, pairs, args)
    finally:
        if databases:
            databases.drop_all()


def run_all(engines, queries, header, pairs, args):
    """Sends every query to every engine, prints the report and writes the JSON."""
    summaries, per_query, timing = {}, {}, {}
    for e in engines:
        start = time.perf_counter()
        results = [e.search(q["query"]) for q in queries]
        timing[e.label] = time.perf_counter() - start
        rows = [scores(r, q["judgments"]) for r, q in zip(results, queries)]
        summaries[e.label] = summarize(rows, queries)
        per_query[e.label] = [{"id": q["id"], "count": len(r), **s, "skus": r} for q, r, s in zip(queries, results, rows)]
        e.close()

    print(markdown(engines, summaries, header, queries))
    print()
    for sqlite_label, postgres_label in pairs:
        differ = [a["id"] for a, b in zip(per_query[sqlite_label], per_query[postgres_label]) if a["skus"] != b["skus"]]
        print(f"- {sqlite_label}: SQLite and PostgreSQL return the same products in the same order for "
              f"{len(queries) - len(differ)} of {len(queries)} queries" + (f" (not: {', '.join(differ[:10])})" if differ else ""))
    for e in engines:
        extra = f", import {e.import_seconds:.1f} s {e.import_summary}" if isinstance(e, ShopRPC) else ""
        print(f"- {e.label}: {e.version}; {len(queries)} searches in {timing[e.label]:.1f} s, {e.errors} error replies{extra}")

    path = args.json or os.path.join(args.work, "search-quality.json")
    with open(path, "w") as f:
        json.dump({"catalog": header["catalog"], "queries": len(queries),
                   "engines": {e.label: {"version": e.version, "errors": e.errors, "summary": summaries[e.label],
                                         "perQuery": per_query[e.label]} for e in engines}}, f, indent=1)
    print(f"\nJSON: {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
