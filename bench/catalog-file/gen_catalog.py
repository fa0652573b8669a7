#!/usr/bin/env python3
"""Writes a seeded catalog file: N products with a SKU, a three-word name, a twelve-word
description, one of 50 categories, a price, USD and a stock; CSV (with a header) or NDJSON.
About 1 in 50 names holds a comma or a quote, so quoting is exercised.
    gen_catalog.py ROWS OUT.csv|OUT.ndjson [SEED]"""
import csv, json, random, sys

def main():
    rows, path = int(sys.argv[1]), sys.argv[2]
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 36)
    syllables = ["ka", "lo", "mi", "ren", "tor", "vel", "sa", "qui", "bre", "dan", "fo", "gul", "hix", "jo", "ne", "pra"]
    words = sorted({"".join(rng.choice(syllables) for _ in range(rng.randint(2, 3))) for _ in range(6000)})
    categories = [f"category-{i:02d}" for i in range(50)]
    ndjson = path.endswith((".ndjson", ".jsonl"))
    with open(path, "w", newline="", encoding="utf-8") as out:
        writer = None if ndjson else csv.writer(out, lineterminator="\n")
        if writer:
            writer.writerow(["sku", "name", "description", "category", "priceCents", "currency", "stock"])
        for i in range(rows):
            name = " ".join(rng.choice(words) for _ in range(3)).title()
            if i % 50 == 7:
                name = name.replace(" ", ', "', 1) + '"'
            row = [f"SKU-{i:07d}", name, " ".join(rng.choice(words) for _ in range(12)) + ".",
                   rng.choice(categories), rng.randint(100, 500_000), "USD", rng.randint(0, 1000)]
            if writer:
                writer.writerow(row)
            else:
                out.write(json.dumps(dict(zip(["sku", "name", "description", "category", "priceCents", "currency", "stock"], row)),
                                     ensure_ascii=False, separators=(",", ":")) + "\n")

main()
