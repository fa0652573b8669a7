"""The query set and its graded judgments, derived from the catalog's ground truth (catalog.py),
never from a search engine.

Each query is written from an *intent*: what the shopper wants, in the catalog's own terms
(product types, a brand, a model line, a size, a feature, what an accessory fits, or one product).
The text is then written as a shopper types it (plural, typo, without the apostrophe, split or
joined, cut short, with filler words); the intent, and so the judgments, stay those of the
original. `grade` turns an intent and a product's ground truth into 0-3 (the rule is in
bench/README.md, "search-quality", and repeated on `grade`).

The split is fixed: within each class, queries in generation order alternate tuning (even
positions) and held-out (odd positions).
"""
import random
import re

from vocabulary import FEATURE_QUERY_WORDS, KNOWN_LINES, MEASURED_UNITS, PHONES, TYPE_BY_KEY, TYPES

QUERY_SEED = 4242
PER_CLASS = 20

CLASSES = ["exact_name", "single_word", "plural", "typo_1", "typo_2", "sku", "brand_no_apostrophe", "compound",
           "number_unit", "description_only", "filler", "partial_words", "prefix"]


# MARK: - The grading rule

def grade(product, intent, by_sku):
    """0-3 for one product and one intent.

    Known item (`target`: exact names, SKUs): the product itself 3; another variant of its model
    line (same type, brand and line, or the same accessory for the same model) 2 for a name, 1 for
    a SKU; the same type and brand 1 for a name; else 0.
    Brand alone (`types` is None): the brand's products 3, else 0.
    Otherwise: a product of another type is 1 when its type is `near` (same family: a blade grinder
    for "burr grinder"), else 0. A product of one of `types` is 3 when every qualifier holds
    (brand, line, size, feature, compat); 2 when only the size differs, or only the line differs
    and the brand is the one the query was written from (the same type and brand); else 1.
    """
    t = product["truth"]
    target = intent.get("target")
    if target:
        if product["sku"] == target:
            return 3
        o = by_sku[target]["truth"]
        same_line = t["type"] == o["type"] and t["brand"] == o["brand"] and t["line"] == o["line"] and t["compat"] == o["compat"]
        if intent.get("sku_query"):
            return 1 if same_line else 0
        if same_line:
            return 2
        return 1 if t["type"] == o["type"] and t["brand"] == o["brand"] else 0
    if intent["types"] is None:
        return 3 if t["brand"] == intent["brand"] else 0
    if t["type"] not in intent["types"]:
        return 1 if t["type"] in intent.get("near", []) else 0
    fails = []
    if intent.get("brand") and t["brand"] != intent["brand"]:
        fails.append("brand")
    if intent.get("line") and (t["line"] or "").lower() != intent["line"].lower():
        fails.append("line")
    if intent.get("size") and not same_size(t["size"], intent["size"]):
        fails.append("size")
    if intent.get("feature") and intent["feature"] not in t["features"]:
        fails.append("feature")
    if intent.get("compat") and (not t["compat"] or t["compat"][1].lower() != intent["compat"].lower()):
        fails.append("compat")
    if not fails:
        return 3
    if fails == ["size"]:
        return 2
    if fails == ["line"] and t["brand"] == intent.get("brand_hint"):
        return 2
    return 1


def same_size(size, wanted):
    if not size:
        return False
    try:
        return float(size[0]) == float(wanted[0]) and size[1] == wanted[1]
    except ValueError:
        return size[0].lower() == wanted[0].lower() and size[1] == wanted[1]


# MARK: - Helpers

def types_named(phrase):
    """The types a shopper's phrase names: every type listing it among its phrases (or whose family it is)."""
    return sorted(t["key"] for t in TYPES if phrase in t["phrases"] or t["family"] == phrase)


def near_types(keys):
    families = {TYPE_BY_KEY[k]["family"] for k in keys}
    return sorted(t["key"] for t in TYPES if t["family"] in families and t["key"] not in keys)


def literal_phrases(kind):
    """The type's phrases whose words are all in its name (or its family): the ones query classes
    other than synonyms may use ("kitchen knife" names a chef's knife, but no title says it)."""
    name_words = set(re.split(r"[^a-z0-9']+", kind["name"].lower())) | {kind["family"]}
    return [p for p in kind["phrases"] if set(re.split(r"[^a-z0-9']+", p)) <= name_words]


def type_intent(phrase, **qualifiers):
    keys = types_named(phrase)
    assert keys, phrase
    return {"types": keys, "near": near_types(keys), **qualifiers}


def plural_of(word):
    irregular = {"knife": "knives", "mouse": "mice", "tee": "tees", "press": "presses"}
    if word in irregular:
        return irregular[word]
    if re.search(r"(s|sh|ch|x)$", word):
        return word + "es"
    if re.search(r"[^aeiou]y$", word):
        return word[:-1] + "ies"
    return word + "s"


def singular_of(word):
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith("shes") or word.endswith("ches"):
        return word[:-2]
    return word[:-1] if word.endswith("s") else word


KEYBOARD = {c: n for c, n in zip("qwertyuiopasdfghjklzxcvbnm", [
    "wa", "qes", "wrd", "etf", "ryg", "tuh", "yij", "uok", "ipl", "ol", "qsz", "awdxz", "serfcx", "drtgvc", "ftyhbv",
    "gyujnb", "huikmn", "jiolm", "kop", "asx", "zsdc", "xdfv", "cfgb", "vghn", "bhjm", "njk"])}


def typo(rng, word, edits):
    """`word` with `edits` edits (delete, substitute a neighbouring key, swap two letters, insert),
    never at the first letter (shoppers get that one right), never giving the word back."""
    for _ in range(50):
        w = list(word)
        for _ in range(edits):
            i = rng.randrange(1, len(w))
            kind = rng.choice(["delete", "substitute", "transpose", "insert"])
            if kind == "delete" and len(w) > 4:
                del w[i]
            elif kind == "substitute" and w[i] in KEYBOARD:
                w[i] = rng.choice(KEYBOARD[w[i]])
            elif kind == "transpose" and i + 1 < len(w) and w[i] != w[i + 1]:
                w[i], w[i + 1] = w[i + 1], w[i]
            else:
                w.insert(i, rng.choice(KEYBOARD.get(w[i], "e")))
        result = "".join(w)
        if result != word and edit_distance(result, word) == edits:
            return result
    raise ValueError(word)


def edit_distance(a, b):
    """Optimal string alignment distance (a swap of two neighbours is one edit)."""
    d = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a) + 1):
        d[i][0] = i
    for j in range(len(b) + 1):
        d[0][j] = j
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
    return d[len(a)][len(b)]


def brand_words(brand):
    """A brand as typed without its punctuation: "De'Longhi" -> "delonghi", "Dr. Bronner's" -> "dr bronners"."""
    return re.sub(r"\s+", " ", re.sub(r"[^a-z0-9 ]", "", brand.lower().replace("&", "and").replace("+", " and "))).strip()


def size_typed(size, spaced):
    value, unit = size
    unit_text = {"l": "l", "inch": "inch"}.get(unit, unit)
    return f"{value} {unit_text}" if spaced else f"{value}{unit_text}"


# MARK: - The classes

def generate(products):
    """Every query as {id, class, split, query, intent}, in a fixed order."""
    rng = random.Random(QUERY_SEED)
    with_line = [p for p in products if p["truth"]["line"]]
    base_types = [t for t in TYPES if not t["compat"]]
    out = {c: [] for c in CLASSES}
    seen = set()

    def add(cls, query, intent, source=None):
        query = query.strip()
        if query.lower() in seen or len(out[cls]) >= PER_CLASS:
            return False
        seen.add(query.lower())
        out[cls].append({"query": query, "intent": intent, **({"from": source} if source else {})})
        return True

    def base_query():
        """(text, intent) of a type phrase, a brand and a type phrase, or a brand and a model line."""
        roll = rng.random()
        if roll < 0.5:
            kind = rng.choice(base_types)
            phrase = rng.choice(literal_phrases(kind))
            return phrase, type_intent(phrase)
        p = rng.choice(with_line)
        kind = TYPE_BY_KEY[p["truth"]["type"]]
        brand = p["truth"]["brand"]
        if roll < 0.8:
            phrase = literal_phrases(kind)[0]
            return f"{brand_words(brand)} {phrase}", type_intent(phrase, brand=brand, brand_hint=brand)
        return (f"{brand_words(brand)} {p['truth']['line'].lower()}",
                {"types": [kind["key"]], "near": [], "brand": brand, "line": p["truth"]["line"], "brand_hint": brand})

    for p in rng.sample(products, PER_CLASS):
        add("exact_name", p["name"], {"target": p["sku"]})

    for p in rng.sample(products, PER_CLASS):
        add("sku", p["sku"] if len(out["sku"]) % 3 else p["sku"].lower(), {"target": p["sku"], "sku_query": True})

    singles = ["grinder", "kettle", "headphones", "earbuds", "speaker", "monitor", "mouse", "keyboard", "shampoo",
               "sunscreen", "toothbrush", "protein", "chocolate", "backpack", "tent", "drill", "flashlight", "vacuum",
               "candle", "blender", "toaster", "knife", "router", "detergent", "leash", "skillet", "pasta"]
    add("single_word", "grinder", type_intent("grinder"))
    for word in rng.sample(singles, len(singles)):
        add("single_word", word, type_intent(word))

    add("plural", "espresso machines", type_intent("espresso machine"), "espresso machine")
    add("plural", "knives", type_intent("knife"), "knife")
    for kind in rng.sample(base_types, len(base_types)):
        phrase = rng.choice(literal_phrases(kind))
        words = phrase.split()
        last = words[-1]
        inflected = singular_of(last) if last.endswith("s") and not last.endswith("ss") else plural_of(last)
        if inflected == last:
            continue
        add("plural", " ".join(words[:-1] + [inflected]), type_intent(phrase), phrase)

    add("typo_1", "expresso machine", type_intent("espresso machine"), "espresso machine")
    add("typo_1", "grnder", type_intent("grinder"), "grinder")
    while len(out["typo_1"]) < PER_CLASS:
        text, intent = base_query()
        words = text.split()
        long = [i for i, w in enumerate(words) if len(w) >= 5 and w.isalpha()]
        if long:
            i = rng.choice(long)
            words[i] = typo(rng, words[i], 1)
            add("typo_1", " ".join(words), intent, text)
    while len(out["typo_2"]) < PER_CLASS:
        text, intent = base_query()
        words = text.split()
        very_long = [i for i, w in enumerate(words) if len(w) >= 9 and w.isalpha()]
        long = [i for i, w in enumerate(words) if len(w) >= 5 and w.isalpha()]
        if very_long:
            i = rng.choice(very_long)
            words[i] = typo(rng, words[i], 2)
        elif len(long) >= 2:
            for i in rng.sample(long, 2):
                words[i] = typo(rng, words[i], 1)
        else:
            continue
        add("typo_2", " ".join(words), intent, text)

    add("brand_no_apostrophe", "delonghi", {"types": None, "brand": "De'Longhi"}, "De'Longhi")
    add("brand_no_apostrophe", "kiehls face cream", type_intent("face cream", brand="Kiehl's", brand_hint="Kiehl's"), "Kiehl's face cream")
    punctuated = sorted({t_brand for t in TYPES for t_brand in t["brands"] if brand_words(t_brand) != t_brand.lower()})
    for brand in rng.sample(punctuated, len(punctuated)):
        makes = [t for t in TYPES if brand in t["brands"] and not t["compat"]]
        if len(out["brand_no_apostrophe"]) % 2 == 0 or not makes:
            add("brand_no_apostrophe", brand_words(brand), {"types": None, "brand": brand}, brand)
        else:
            phrase = literal_phrases(rng.choice(makes))[0]
            add("brand_no_apostrophe", f"{brand_words(brand)} {phrase}", type_intent(phrase, brand=brand, brand_hint=brand),
                f"{brand} {phrase}")

    compounds = [("pourover", "pour-over"), ("pour over dripper", "pour-over dripper"), ("nonstick frying pan", "frying pan"),
                 ("non stick pan", "non-stick pan"), ("tshirt", "t-shirt"), ("t shirt", "t-shirt"), ("wifi router", "wi-fi router"),
                 ("ereader", "e-reader"), ("e reader", "e-reader"), ("usbc cable", "usb-c cable"), ("usb c cable", "usb-c cable"),
                 ("micro sd card", "microsd card"), ("powerbank", "power bank"), ("tooth brush", "electric toothbrush"),
                 ("sun screen", "sunscreen"), ("back pack", "backpack"), ("dish washer tablets", "dishwasher tablets"),
                 ("coldbrew maker", "cold brew maker"), ("cast-iron skillet", "cast iron skillet"), ("head phones", "headphones"),
                 ("ear buds", "earbuds"), ("goose neck kettle", "gooseneck kettle"), ("frenchpress", "french press")]
    for text, phrase in rng.sample(compounds, len(compounds)):
        add("compound", text, type_intent(phrase), phrase)

    sized = [p for p in products if p["truth"]["size"] and p["truth"]["size"][1] in MEASURED_UNITS and not TYPE_BY_KEY[p["truth"]["type"]]["compat"]]
    while len(out["number_unit"]) < PER_CLASS:
        p = rng.choice(sized)
        kind = TYPE_BY_KEY[p["truth"]["type"]]
        phrase = literal_phrases(kind)[0]
        size = size_typed(p["truth"]["size"], spaced=len(out["number_unit"]) % 2 == 1)
        text = f"{size} {phrase}" if rng.random() < 0.6 else f"{phrase} {size}"
        add("number_unit", text, type_intent(phrase, size=p["truth"]["size"]))

    add("description_only", "organic coffee", type_intent("coffee", feature="organic"))
    featured = [(t, f) for t in base_types for f in t["features"]]
    for kind, feature in rng.sample(featured, len(featured)):
        if not any(p["truth"]["type"] == kind["key"] and feature in p["truth"]["features"] for p in products):
            continue
        phrase = rng.choice(literal_phrases(kind))
        add("description_only", f"{FEATURE_QUERY_WORDS.get(feature, feature)} {phrase}", type_intent(phrase, feature=feature))

    known = {line for lines in KNOWN_LINES.values() for line in lines} | {line for _, line in PHONES}
    accessories = [p for p in products if p["truth"]["compat"] and p["truth"]["compat"][1] in known]
    add("filler", "filters for v60", {"types": ["paper_filter"], "near": [], "compat": "V60"})
    short = {"paper_filter": "filters", "burr_set": "burrs", "grinder_brush": "brush", "phone_case": "case",
             "brush_heads": "brush heads"}
    while len(out["filler"]) < PER_CLASS // 2:
        p = rng.choice(accessories)
        compat_line = p["truth"]["compat"][1]
        add("filler", f"{short[p['truth']['type']]} for {compat_line.lower()}",
            {"types": [p["truth"]["type"]], "near": [], "compat": compat_line})
    fillers = ["the best {} for home", "a good {} for my home", "cheap {}", "{} on sale", "looking for a {}",
               "gift idea {}", "{} for beginners", "new {} please", "{} with free shipping", "which {} to buy"]
    for template in fillers:
        kind = rng.choice(base_types)
        phrase = literal_phrases(kind)[0]
        add("filler", template.format(phrase), type_intent(phrase))

    while len(out["partial_words"]) < PER_CLASS:
        p = rng.choice(with_line)
        t = p["truth"]
        kind = TYPE_BY_KEY[t["type"]]
        head = kind["name"].split()[-1].lower()
        line = t["line"].lower()
        roll = rng.random()
        if roll < 0.4:
            add("partial_words", f"{line} {head}", {"types": [t["type"]], "near": [], "line": t["line"], "brand_hint": t["brand"]})
        elif roll < 0.7:
            add("partial_words", f"{head} {line}", {"types": [t["type"]], "near": [], "line": t["line"], "brand_hint": t["brand"]})
        else:
            first = brand_words(t["brand"])
            add("partial_words", f"{first} {head}", type_intent(literal_phrases(kind)[0], brand=t["brand"], brand_hint=t["brand"])
                if head in literal_phrases(kind)[0].split() else {"types": [t["type"]], "near": [], "brand": t["brand"], "brand_hint": t["brand"]})

    add("prefix", "prot", {"types": ["protein", "protein_bar"], "near": []}, "protein")
    while len(out["prefix"]) < PER_CLASS:
        text, intent = base_query()
        words = text.split()
        if len(words[-1]) < 5 or not words[-1].isalpha():
            continue
        words[-1] = words[-1][:rng.randint(3, len(words[-1]) - 1)]
        add("prefix", " ".join(words), intent, text)

    queries = []
    for cls in CLASSES:
        for i, q in enumerate(out[cls]):
            queries.append({"id": f"{cls}-{i:02d}", "class": cls, "split": "tuning" if i % 2 == 0 else "heldout", **q})
    return queries


def judge(queries, products):
    """Adds `judgments` {"3": [sku…], "2": […], "1": […]} to every query (grade 0 is left out)."""
    by_sku = {p["sku"]: p for p in products}
    for q in queries:
        grades = {"3": [], "2": [], "1": []}
        for p in products:
            g = grade(p, q["intent"], by_sku)
            if g:
                grades[str(g)].append(p["sku"])
        assert grades["3"], q
        q["judgments"] = grades
    return queries
