#!/usr/bin/env python3
"""Writes the benchmark's files from their seeds:

  generate.py judgments            rewrites judgments.jsonl.gz (the queries and their grades) and
                                   queries.tsv (the same queries, one line each, to read) beside this file
  generate.py catalog FILE.csv     writes the catalog CSV (not committed: the runner writes it to its work dir)
  generate.py check                checks that judgments.jsonl.gz is what the generator gives today

judgments.jsonl.gz (gzip: 0.08 MB for 0.65 MB of JSON lines) is committed and is the benchmark:
its first line names the catalog it grades (product count and the SHA-256 of the CSV), every
other line is one query with its class, its split, the intent it was written from, the text it
was typed from (for rewritten queries) and its graded judgments. It is written once, before any
tuning; a change to the generator that changes it is a new benchmark, not a tuning step.
"""
import gzip
import io
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import catalog  # noqa: E402
import queries  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
JUDGMENTS = os.path.join(HERE, "judgments.jsonl.gz")
TABLE = os.path.join(HERE, "queries.tsv")


def read_judgments(path=JUDGMENTS):
    """(header, queries) from the committed file."""
    with gzip.open(path, "rt", encoding="utf-8") as f:
        lines = [json.loads(line) for line in f]
    return lines[0], lines[1:]


def compressed(text):
    out = io.BytesIO()
    with gzip.GzipFile(fileobj=out, mode="wb", mtime=0, filename="") as f:
        f.write(text.encode("utf-8"))
    return out.getvalue()


def table(judged_lines):
    rows = ["id\tclass\tsplit\tquery\twritten from\tgrade 3\tgrade 2\tgrade 1\tintent"]
    for line in judged_lines.splitlines()[1:]:
        q = json.loads(line)
        j = q["judgments"]
        rows.append("\t".join([q["id"], q["class"], q["split"], q["query"], q.get("from", ""), str(len(j["3"])), str(len(j["2"])),
                               str(len(j["1"])), json.dumps(q["intent"], sort_keys=True, ensure_ascii=False)]))
    return "\n".join(rows) + "\n"


def build():
    products = catalog.build_products()
    text = catalog.catalog_csv(products)
    judged = queries.judge(queries.generate(products), products)
    header = {"catalog": {"products": len(products), "sha256": catalog.digest(text), "seed": catalog.SEED},
              "querySeed": queries.QUERY_SEED, "queries": len(judged),
              "split": "within each class, even positions tuning, odd positions held-out",
              "grades": "3, 2, 1 as listed; every product not listed is 0"}
    lines = [json.dumps(header, sort_keys=True)]
    lines += [json.dumps(q, sort_keys=True, ensure_ascii=False) for q in judged]
    return products, text, "\n".join(lines) + "\n"


def main(argv):
    if len(argv) >= 2 and argv[1] == "judgments":
        _, _, judged = build()
        with open(JUDGMENTS, "wb") as f:
            f.write(compressed(judged))
        with open(TABLE, "w") as f:
            f.write(table(judged))
        print(f"wrote {JUDGMENTS} and {TABLE}", file=sys.stderr)
    elif len(argv) == 3 and argv[1] == "catalog":
        with open(argv[2], "w") as f:
            f.write(build()[1])
    elif len(argv) == 2 and argv[1] == "check":
        _, _, judged = build()
        with gzip.open(JUDGMENTS, "rt", encoding="utf-8") as f:
            if f.read() != judged:
                sys.exit("judgments.jsonl.gz differs from what the generator gives: the catalog or the queries changed")
        print("judgments.jsonl.gz matches the generator")
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
