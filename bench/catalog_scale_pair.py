#!/usr/bin/env python3
"""Paired latency of two builds on a busy machine: catalog.search (bench/catalog-scale's query set)
and catalog.list, one request at a time over pipes, the two servers' requests interleaved in
blocks of 25 so that both see the same load; every reply compared between the two first.

Usage: bench/catalog_scale_pair.py N QUERIES.json BIN_A STORE_A BIN_B STORE_B
(the stores hold the same catalog, e.g. each imported by its own build from bench/catalog-scale's
CSV; a PostgreSQL URI may be both stores). Prints p50 / p99 in ms over N requests each."""
import json
import os
import sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from catalog_scale import Server, percentile  # noqa: E402
N = int(sys.argv[1])
servers = {"main": Server(sys.argv[3], sys.argv[4], ".", timed_rss=False), "new": Server(sys.argv[5], sys.argv[6], ".", timed_rss=False)}
queries = [tuple(q) for q in json.load(open(sys.argv[2]))]
cases = [(label, "catalog.search", {"query": q}) for label, q in queries]
# a deep cursor: the same for both stores (same catalog)
cur = None
for _ in range(100):
    cur = servers["main"].call("catalog.list", {"limit": 200, **({"cursor": cur} if cur else {})})[1]["result"]["nextCursor"]
cases += [("list first page", "catalog.list", {}), ("list 'kitchen'", "catalog.list", {"category": "kitchen"}),
          ("list page 401 (cursor)", "catalog.list", {"cursor": cur}), ("list 200 items", "catalog.list", {"limit": 200})]
print(f"| request | {sys.argv[3]} p50 / p99 | {sys.argv[5]} p50 / p99 |\n|---|--:|--:|")
for label, method, params in cases:
    times = {k: [] for k in servers}
    for s in servers.values():
        for _ in range(20): s.call(method, params)
    replies = {k: s.call(method, params)[1] for k, s in servers.items()}
    assert replies["main"]["result"] == replies["new"]["result"], label
    while len(times["new"]) < N:
        for k, s in servers.items():
            times[k] += [s.call(method, params)[0] for _ in range(25)]
    f = lambda k: f"{percentile(times[k], .5):.3f} / {percentile(times[k], .99):.3f}"
    print(f"| {label} | {f('main')} | {f('new')} |", flush=True)
for s in servers.values(): s.close()
