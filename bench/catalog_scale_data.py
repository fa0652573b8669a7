"""The catalog bench/catalog-scale measures with: a deterministic product CSV and its query set.

Standard library only. `write_catalog(path, count, seed)` writes the CSV (header
`sku,name,description,category,priceCents,currency,stock`); `query_set(stats)` picks the queries
from the document frequencies of the searchable words (those of names and categories, which is
what catalog.search matches) that `write_catalog` returns, so every kind of query the issue names
is present whatever the seed:

- names: three words, "<first> <material> <noun>": the first word is "Classic" in 30 % of the
  products, another adjective (uniformly) in 40 %, and a made-up brand word (Zipf-weighted over
  200 000, so most are in a handful of products) in 30 %; the material is "Steel" in 15 %, else
  one of about 90 uniformly; the noun one of about 150 uniformly;
- descriptions: twelve words, each one of about 300 common English words (60 %, Zipf-weighted:
  weight 1 / (rank + 5), so the commonest is in about 30 % of the products) or of 200 000 made-up
  words (brand and model names, Zipf-weighted 1 / (rank + 6), so most are in a handful);
- 50 categories, uniformly; prices 1.00 to 999.99; stock 0 to 500.
"""
import bisect
import itertools
import random

ADJECTIVES = """
able active agile airy amber ample antique arctic artisan balanced basic bold bright brisk
calm candid casual cheerful chic classic clean clear clever compact cool cosy crisp curved
dainty daring deep deluxe dense durable eager easy elegant epic essential even exact fancy
fast fine firm flat fluffy fresh friendly gentle giant glossy golden grand great handy happy
hardy heavy heritage honest humble ideal iconic jolly keen kind large lasting light little
lively lofty loyal lucky lush magic major matte mellow merry mighty mild minimal modern
modest neat nimble noble nordic novel open original plain playful plush polished practical
premium prime proper proud pure quick quiet rapid rare ready regal robust royal rugged rustic
safe sharp shiny silent simple sleek slim smart smooth snug soft solid sonic sparkling speedy
stable steady stout strong sturdy subtle sunny super supreme swift tall tender tidy tiny
tough tranquil true trusty ultra unique urban vast velvet vintage vital vivid warm whole wild
wise witty woven young zesty
""".split()

MATERIALS = """
acacia alder aluminium bamboo beech birch brass bronze canvas carbon cedar ceramic cherry
chrome clay concrete copper cork cotton denim ebony enamel felt flannel glass granite hemp
hickory iron ivory jade jute leather linen mahogany maple marble mesh nickel nylon oak onyx
pearl pewter pine plastic porcelain quartz rattan resin rope rubber sandstone satin silicone
silk silver slate steel stone suede teak terracotta tin titanium tweed velour vinyl walnut
wicker willow wool zinc amber azure crimson emerald indigo ivory lilac olive scarlet teal
""".split()

NOUNS = """
apron backpack bag basket bath bench blanket blender board bottle bowl box bracelet brush
bucket cabinet caddy candle canister carafe case chair charger clock coaster colander cooler
cup curtain cushion decanter desk dish dispenser drawer easel fan feeder flask frame grater
grill grinder hammock hanger helmet hook jar jug kettle keyboard knife ladder ladle lamp
lantern lid locker lunchbox mat mirror mixer mug napkin necklace notebook organizer ottoman
oven pan pen pillow pitcher planter plate pot pouch press projector quilt rack radio rug
satchel saucer scale scarf scoop screen shaker shears shelf shovel sieve skillet sofa speaker
spoon stand stool strainer table tablet teapot thermos tile timer tin toaster tongs towel
tray trivet trowel tumbler umbrella vase wallet watch whisk wok
""".split()

COMMON_WORDS = """
with for and the made from perfect every day designed your home this that keeps easy use clean
care quality comfort style durable lightweight gift ideal kitchen garden office travel outdoor
indoor season family friends long lasting finish natural soft strong handmade crafted small
large size fits most hand wash only dishwasher safe water resistant colour colours available
pack set piece pieces includes extra storage space saving design simple modern classic look
feel great value everyday essential made to last built tough gentle warm cool dry fresh
night morning weekend holiday party dinner lunch breakfast coffee tea wine beer juice snacks
fruit bread cheese meat fish rice pasta soup salad sauce spice herbs flowers plants seeds soil
tools parts repair maintenance cleaning polish protect cover wrap carry hold store serve pour
mix blend cook bake grill roast boil steam fry chop slice dice grate peel measure weigh pour
pair matching smooth grip handle base lid top bottom side edge corner surface texture pattern
print stripe dots check plain bright dark light deep pale rich vivid muted neutral tone shade
eco friendly recycled sustainable organic vegan free range local imported exclusive limited
edition new improved classic original favourite bestseller popular trusted brand award winning
tested approved certified guaranteed warranty year years month months week weeks hours minutes
quick fast slow gentle powerful quiet efficient energy saving battery powered rechargeable
wireless cordless portable compact foldable adjustable removable washable reusable disposable
""".split()

CATEGORIES = """
appliances art audio automotive baby bath beauty bedding books cameras cleaning clothing
coffee computers crafts decor drinks electronics fitness flooring furniture games garden
grocery hardware health jewellery kitchen lighting luggage music office outdoor party pets
phones plumbing sewing shoes sports stationery storage tea tools toys travel video watches
wellness
""".split()

SYLLABLES = """
ka ri to ve lo mi sa nu pe do ra zi fe mo lu ti be na go ki ze po ru sha ne vi ta
lo bri cor dan fel gar hol jun kel lor mar nor pel quin ros sel tor val wen xen yor zan
""".split()


def _made_up_words(count, rng):
    words = []
    seen = set(ADJECTIVES) | set(MATERIALS) | set(NOUNS) | set(COMMON_WORDS) | set(CATEGORIES)
    while len(words) < count:
        word = "".join(rng.choice(SYLLABLES) for _ in range(rng.choice((2, 3, 3, 4))))
        if word not in seen:
            seen.add(word)
            words.append(word)
    return words


COMMON_SHARE = 0.6


def _zipf(words, offset):
    return words, list(itertools.accumulate(1.0 / (rank + offset) for rank in range(len(words))))


def vocabulary(seed):
    """The description vocabularies (common, made-up), each in rank order with cumulative weights."""
    rng = random.Random(seed)
    return _zipf(list(dict.fromkeys(COMMON_WORDS)), 5), _zipf(_made_up_words(200_000, rng), 6)


def _draw(rng, vocabulary):
    words, cumulative = vocabulary
    return words[bisect.bisect_left(cumulative, rng.random() * cumulative[-1])]


def sku(number):
    return f"SKU-{number:07d}"


def write_catalog(path, count, seed=36):
    """Writes `count` products to `path` as CSV; returns {word: products whose name or category has it}."""
    rng = random.Random(seed)
    common, made_up = vocabulary(seed)
    adjectives = sorted(set(ADJECTIVES))
    materials = sorted(set(MATERIALS))
    nouns = sorted(set(NOUNS))
    categories = sorted(set(CATEGORIES))
    frequency = {}
    with open(path, "w", encoding="utf-8", newline="") as out:
        out.write("sku,name,description,category,priceCents,currency,stock\n")
        for number in range(1, count + 1):
            draw = rng.random()
            first = "classic" if draw < 0.30 else rng.choice(adjectives) if draw < 0.70 else _draw(rng, made_up)
            material = "steel" if rng.random() < 0.15 else rng.choice(materials)
            name_words = (first, material, rng.choice(nouns))
            name = " ".join(word.capitalize() for word in name_words)
            picks = [_draw(rng, common if rng.random() < COMMON_SHARE else made_up) for _ in range(12)]
            description = " ".join(picks).capitalize() + "."
            category = rng.choice(categories)
            for word in set(name_words) | {category}:
                frequency[word] = frequency.get(word, 0) + 1
            price = rng.randint(100, 99_999)
            stock = rng.randint(0, 500)
            out.write(f"{sku(number)},{name},{description},{category},{price},USD,{stock}\n")
    return frequency


def query_set(frequency, count):
    """The queries the bench times, as (label, query): every kind the issue names, and the
    costliest prefixes (three letters standing for 64 words)."""
    by_share = sorted(frequency.items(), key=lambda item: (-item[1], item[0]))
    rare = [word for word, n in sorted(frequency.items()) if 1 <= n <= 5 and len(word) >= 6][:3]
    thirty = min(by_share, key=lambda item: abs(item[1] / count - 0.30))[0]
    common = [word for word, n in by_share if word != thirty and n / count >= 0.10][:1]
    queries = [(f"rare word '{word}' ({frequency[word]} products)", word) for word in rare]
    queries.append((f"word in {100 * frequency[thirty] / count:.0f} % of products '{thirty}'", thirty))
    if common:
        other = common[0]
        both = f"{thirty} {other}"
        queries.append((f"two common words '{both}'", both))
    # The three-letter prefix of the most words (each a prefix group of 64), and one of a common word.
    prefixes = {}
    for word in frequency:
        if len(word) >= 3:
            prefixes[word[:3]] = prefixes.get(word[:3], 0) + 1
    widest = max(sorted(prefixes), key=lambda prefix: prefixes[prefix])
    queries += [
        ("one-letter prefix 's'", "s"),
        ("one-letter prefix 'c'", "c"),
        ("two-letter prefix 'st'", "st"),
        ("two-letter prefix 'cl'", "cl"),
        (f"three-letter prefix '{thirty[:3]}'", thirty[:3]),
        (f"three-letter prefix '{widest}' ({prefixes[widest]} words)", widest),
        ("SKU-like string 'SKU-0424242'", "SKU-0424242"),
    ]
    return queries
