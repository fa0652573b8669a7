"""The catalog: 10 122 products composed deterministically from vocabulary.py (seed SEED),
each with its ground truth (type, brand, model line, size, colour or flavour, the features its
description mentions, what an accessory fits). Names follow one of four title styles per brand
(brand first, "by Brand", sizes written "500ml" or "500 ml"), as shop feeds differ. Standard
library only; the same seed gives the same bytes on every machine (random.Random with a fixed seed,
no hash() of strings, no dict order from sets).
"""
import csv
import hashlib
import io
import random
import re

from vocabulary import (CATEGORY_SENTENCES, COLORS, FEATURES, FLAVORS, GENERIC_LINES, KNOWN_LINES, PHONES,
                        TYPE_BY_KEY, TYPES, UNIT_WORDS)

SEED = 42

# A rough shelf price per type, in dollars; each product varies around it.
PRICE = {"espresso_machine": 450, "burr_grinder": 180, "blade_grinder": 25, "manual_grinder": 90, "pour_over": 25,
         "paper_filter": 8, "french_press": 35, "kettle": 90, "coffee_beans": 16, "ground_coffee": 12, "cold_brew": 30,
         "milk_frother": 40, "burr_set": 45, "grinder_brush": 10, "chef_knife": 90, "paring_knife": 25,
         "knife_block": 220, "frying_pan": 45, "cast_iron": 40, "stand_mixer": 380, "blender": 250, "toaster": 70,
         "cutting_board": 45, "headphones": 280, "earbuds": 150, "speaker": 120, "monitor": 260, "microsd": 20,
         "usb_cable": 14, "phone_case": 40, "power_bank": 40, "e_reader": 140, "router": 160, "batteries": 12,
         "mouse": 50, "keyboard": 110, "laptop_stand": 45, "face_cream": 35, "lip_balm": 5, "shampoo": 12,
         "sunscreen": 18, "toothbrush": 90, "brush_heads": 25, "hand_cream": 15, "body_wash": 9, "protein": 45,
         "protein_bar": 25, "olive_oil": 18, "peanut_butter": 7, "pasta": 3, "green_tea": 6, "chocolate": 4,
         "running_shoes": 130, "yoga_mat": 70, "backpack": 140, "tent": 250, "water_bottle": 35, "dumbbells": 300,
         "t_shirt": 25, "rain_jacket": 160, "socks": 22, "drill": 150, "screwdriver_set": 45, "flashlight": 60,
         "tape_measure": 18, "dog_food": 55, "cat_litter": 20, "dog_leash": 25, "dishwasher_tablets": 14,
         "detergent": 15, "candle": 30, "vacuum": 350}

COLUMNS = ["sku", "name", "description", "category", "priceCents", "currency", "stock"]


def code_of(text, letters=3):
    return re.sub(r"[^A-Za-z0-9]", "", text).upper()[:letters].ljust(letters, "X")


def size_text(size, compact):
    value, unit = size
    if unit == "size":
        return f"Size {value}"
    if unit == "us":
        return f"US {value}"
    short, spaced = UNIT_WORDS[unit]
    if unit == "inch":
        return f'{value}"' if compact else f"{value}-inch"
    if unit in ("count", "pack", "piece", "person"):
        return f"{value}{short}" if compact else f"{value} {spaced}"
    if unit == "bags":
        return f"{value} Tea Bags"
    return f"{value}{short}" if compact else f"{value} {spaced}"


def title(style, brand, line, model, type_name, size, shade, compat_text):
    """One product title in the brand's style; parts that are None are left out."""
    words = lambda *parts: " ".join(p for p in parts if p)
    tail = [p for p in (size, shade) if p]
    if compat_text:
        base = words(brand, type_name, "for", compat_text)
        return base + (", " + ", ".join(tail) if tail else "")
    if style == 0:
        return words(brand, line, model, type_name) + (", " + ", ".join(tail) if tail else "")
    if style == 1:
        return words(brand, line, type_name, size) + (f" - {shade}" if shade else "")
    if style == 2:
        return words(line, model, type_name, "by", brand) + (f" ({', '.join(tail)})" if tail else "")
    return words(brand, type_name, line, model) + (" - " + " ".join(tail) if tail else "")


def brand_style(brand):
    digest = hashlib.sha1(brand.encode()).digest()
    return digest[0] % 4, digest[1] % 3 != 0  # (title style, sizes compact)


def model_lines(rng, brand, type_key):
    known = KNOWN_LINES.get((brand, type_key))
    if known:
        lines = list(known)
    else:
        lines = rng.sample(GENERIC_LINES, rng.randint(3, 5))
    result = []
    for line in lines:
        model = None
        if not known and rng.random() < 0.45:
            model = f"{code_of(brand, 1)}{rng.choice(['', 'X', 'S', 'K', 'M'])}{rng.randint(10, 990)}"
        result.append((line, model))
    return result


def variants(rng, kind, count):
    """`count` distinct (size, shade) pairs for a line."""
    sizes = kind["sizes"] or [None]
    shades = FLAVORS if kind["flavors"] else (COLORS if kind["colors"] else [None])
    combos = [(s, c) for s in sizes for c in shades]
    rng.shuffle(combos)
    return combos[:count]


def build_products():
    """Every product as a dict of its CSV columns plus its ground truth (`truth`), in file order."""
    rng = random.Random(SEED)
    products = []
    counters = {}
    lines_of = {}  # type key -> [(brand, line)] (what accessories fit)
    for kind in TYPES:
        for brand in kind["brands"]:
            if kind["compat"] == "phone":
                compat_lines = [(b, l) for b, l in PHONES if brand != "Apple" or b == "Apple"]
                lines = [(None, None, c) for c in rng.sample(compat_lines, min(len(compat_lines), rng.randint(3, 5)))]
            elif kind["compat"]:
                fits = lines_of.get(kind["compat"], [])
                chosen = [f for f in fits if f[0] == brand] or rng.sample(fits, min(len(fits), 3))
                lines = [(None, None, c) for c in chosen[:4]]
            else:
                lines = [(line, model, None) for line, model in model_lines(rng, brand, kind["key"])]
            for line, model, compat in lines:
                if line:
                    lines_of.setdefault(kind["key"], []).append((brand, line))
                per_line = rng.randint(6, 18)
                for size, shade in variants(rng, kind, per_line):
                    products.append(make_product(rng, kind, brand, line, model, compat, size, shade, counters))
    return products


def make_product(rng, kind, brand, line, model, compat, size, shade, counters):
    style, compact = brand_style(brand)
    written_size = size_text(size, compact) if size else None
    compat_text = None
    if compat:
        compat_brand, compat_line = compat
        compat_text = compat_line if compat_brand == brand or compat_brand == "Apple" else f"{compat_brand} {compat_line}"
    name = title(style, brand, line, model, kind["name"], written_size, shade, compat_text)
    prefix = f"{code_of(brand)}-{kind['code']}"
    counters[prefix] = counters.get(prefix, 0) + 1
    sku = f"{prefix}-{counters[prefix]:03d}"
    features = sorted(f for f in kind["features"] if rng.random() < 0.35)
    description = describe(rng, kind, brand, line, model, compat_text, written_size, shade, features)
    cents = int(PRICE[kind["key"]] * 100 * rng.uniform(0.6, 1.6)) // 100 * 100 + 99
    return {
        "sku": sku, "name": name, "description": description, "category": kind["category"],
        "priceCents": cents, "currency": "USD", "stock": rng.randint(0, 400),
        "truth": {"type": kind["key"], "brand": brand, "line": line, "model": model,
                  "size": list(size) if size else None, "shade": shade, "features": features,
                  "compat": list(compat) if compat else None},
    }


def in_a_sentence(type_name):
    """A type's name as a sentence writes it: "Over-Ear Headphones" -> "over-ear headphones", while
    acronyms and brand-like spellings keep their case ("IPS monitor", "USB-C cable", "microSD card", "Wi-Fi 6 router")."""
    def part(word):
        keep = (len(word) > 1 and word.isupper()) or any(c.isdigit() for c in word) or word[1:] != word[1:].lower() \
            or word in ("Wi", "Fi", "C")
        return word if keep else word.lower()
    return " ".join("-".join(part(p) for p in w.split("-")) for w in type_name.split())


def describe(rng, kind, brand, line, model, compat_text, written_size, shade, features):
    subject = " ".join(p for p in (brand, line, model) if p)
    article = "" if subject.startswith("The ") else "The "
    sentences = [f"{article}{subject} {in_a_sentence(kind['name'])} {kind['use']}."]
    if compat_text:
        sentences.append(f"Made to fit the {compat_text}.")
    sentences += [FEATURES[f] for f in features]
    if written_size:
        sentences.append(written_size + "." if written_size.startswith("Size") else f"Size: {written_size}.")
    if shade:
        sentences.append(f"{'Flavour' if kind['flavors'] else 'Colour'}: {shade}.")
    sentences.append(rng.choice(CATEGORY_SENTENCES[kind["category"]]))
    neighbours = [t for t in TYPES if t["category"] == kind["category"] and t["key"] != kind["key"]]
    if neighbours and rng.random() < 0.5:
        sentences.append(f"Pairs well with our {in_a_sentence(rng.choice(neighbours)['name'])}.")
    return " ".join(sentences)


def catalog_csv(products):
    """The shop-rpc catalog file (protocol.md section 11): the seven columns, rows in SKU order (as
    `shop-rpc export products` writes them), so the file's order, which is shop-rpc's catalog
    order, says nothing about product types."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for p in sorted(products, key=lambda p: p["sku"]):
        writer.writerow([p[c] for c in COLUMNS])
    return out.getvalue()


def digest(text):
    return hashlib.sha256(text.encode()).hexdigest()


if __name__ == "__main__":
    import collections
    import sys
    products = build_products()
    print(len(products), "products", file=sys.stderr)
    by_type = collections.Counter(p["truth"]["type"] for p in products)
    print(min(by_type.values()), max(by_type.values()), file=sys.stderr)
    for p in products[:: len(products) // 25]:
        print(p["sku"], "|", p["name"], "|", p["description"][:160])
