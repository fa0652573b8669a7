"""The vocabulary the catalog is composed from: product types, brands, model lines, sizes, colours
and the features that descriptions mention. Public vocabulary (brand and product-type names as
shops and marketplaces write them); every product is generated, none is copied.

A product type is a dict:
  key       identifier used in the ground truth
  name      how shops write it in a title ("Burr Coffee Grinder")
  plural    the type's other number ("Burr Coffee Grinders"); for a type written in the plural
            ("Paper Coffee Filters") this is the singular
  family    the head noun that groups types ("grinder"): single-word queries ask for a family
  phrases   short ways a shopper names it ("coffee grinder"); a query phrase stands for every type
            listing it
  category  the shop's category (an identifier: section 11 of protocol.md)
  code      three letters for SKUs
  use       what it does, for the description
  sizes     [(value, unit)] or [] (value as written: "500", "1.5", "27")
  colors    True when the type comes in colours
  features  words that only descriptions carry (never names or categories)
  brands    who makes it
  compat    for an accessory: the type key whose model lines it fits
"""

CATEGORY_SENTENCES = {
    "Coffee & Espresso": ["Made for cafe-quality coffee at home.", "A favourite of home baristas and coffee lovers alike."],
    "Kitchen": ["Built for everyday cooking and easy to clean.", "A kitchen staple that earns its place on the counter."],
    "Electronics": ["Backed by a two-year manufacturer warranty.", "Plug in, pair up and you are ready to go."],
    "Computer Accessories": ["Works with Windows, macOS, ChromeOS and Linux.", "Tested for thousands of hours of daily use."],
    "Beauty & Personal Care": ["Dermatologist tested and suitable for sensitive skin.", "Never tested on animals."],
    "Grocery": ["Store in a cool, dry place and enjoy within the best-before date.", "Packed in a resealable pouch to keep it fresh."],
    "Sports & Outdoors": ["Built to keep up on the trail, at the gym and on the road.", "Lightweight and easy to pack."],
    "Clothing": ["Machine wash cold, tumble dry low.", "True to size; see the size chart for details."],
    "Tools & Home Improvement": ["Covered by a three-year limited warranty.", "Ergonomic grip for comfortable all-day use."],
    "Pet Supplies": ["Vet recommended and made with real ingredients.", "Your pet's new favourite."],
    "Home & Cleaning": ["Safe for septic systems.", "Keeps your home fresh and clean with less effort."],
}

COLORS = ["Black", "White", "Silver", "Red", "Navy Blue", "Matte Black", "Stainless Steel", "Cream", "Sage Green",
          "Charcoal", "Rose Gold", "Graphite", "Ocean Blue", "Sand"]

FLAVORS = ["Vanilla", "Chocolate", "Strawberry", "Salted Caramel", "Unflavored", "Cookies and Cream", "Mocha", "Banana"]

# Feature word -> the sentence that mentions it (only descriptions carry these words).
FEATURES = {
    "organic": "Certified organic, grown without synthetic pesticides.",
    "fairtrade": "Fairtrade certified, so farmers earn a fair price.",
    "decaf": "Swiss Water Process decaf with all the flavour and none of the caffeine.",
    "programmable": "Programmable timer so your drink is ready when you wake up.",
    "dishwasher": "Removable parts are dishwasher safe.",
    "cordless": "Cordless design with a long-lasting lithium-ion battery.",
    "waterproof": "Waterproof to IPX7, so rain and splashes are no problem.",
    "rechargeable": "Rechargeable over USB-C in about two hours.",
    "bluetooth": "Connects over Bluetooth 5.3 with a stable, low-latency link.",
    "vegan": "Vegan formula with no animal-derived ingredients.",
    "fragrance": "Fragrance free and gentle on skin.",
    "hyaluronic": "Enriched with hyaluronic acid for lasting hydration.",
    "glutenfree": "Certified gluten free.",
    "keto": "Keto friendly with only 2 g net carbs.",
    "grainfree": "Grain free recipe with real chicken as the first ingredient.",
    "recycled": "Made from recycled materials.",
    "insulated": "Double-wall vacuum insulated: cold for 24 hours, hot for 12.",
    "ergonomic": "Ergonomic shape that reduces wrist strain.",
    "backlit": "Backlit keys for working late.",
    "induction": "Works on every hob, induction included.",
    "ceramic": "Ceramic coating that releases food easily.",
    "merino": "Soft merino wool blend that resists odour.",
    "unscented": "Unscented, with no dyes or perfumes.",
    "biodegradable": "Biodegradable and plastic free.",
}

# Words of a feature as a shopper types it (the feature key is one word; some read as two).
FEATURE_QUERY_WORDS = {"fairtrade": "fair trade", "glutenfree": "gluten free", "grainfree": "grain free",
                       "dishwasher": "dishwasher safe", "fragrance": "fragrance free"}
# What a description actually says for each feature: the sentence above. Relevance for a feature
# is the product having the feature in its ground truth, never a match of words.

GENERIC_LINES = ["Classic", "Pro", "Prime", "Essential", "Signature", "Elite", "Ultra", "Aero", "Nova", "Vertex",
                 "Pulse", "Edge", "Zen", "Terra", "Orbit", "Summit", "Atlas", "Luna", "Apex", "Core", "Flex", "Max",
                 "Mini", "Select", "Studio", "Urban", "Vista", "Peak", "Glide", "Swift", "Bolt", "Nimbus", "Forge",
                 "Harbor", "Ridge", "Echo", "Halo", "Onyx", "Ember", "Frost", "Breeze", "Pioneer", "Voyager",
                 "Legacy", "Heritage", "Artisan", "Origin", "Pro Series", "ProLine", "Prodigy", "Prowess",
                 "Promenade", "Prospect", "Proxima", "Kinetic", "Horizon", "Meridian", "Solstice", "Cascade"]

# Real model lines, used for the brand and type they belong to.
KNOWN_LINES = {
    ("Baratza", "burr_grinder"): ["Encore", "Virtuoso+", "Sette 270"],
    ("Breville", "espresso_machine"): ["Barista Express", "Bambino Plus", "Oracle Touch"],
    ("De'Longhi", "espresso_machine"): ["Dedica", "Magnifica S", "La Specialista"],
    ("Hario", "pour_over"): ["V60", "Switch"],
    ("Chemex", "pour_over"): ["Classic Series", "Ottomatic"],
    ("Kalita", "pour_over"): ["Wave 185", "Wave 155"],
    ("Comandante", "manual_grinder"): ["C40 MK4"],
    ("Timemore", "manual_grinder"): ["Chestnut C3", "Slim Plus"],
    ("Fellow", "kettle"): ["Stagg EKG", "Corvo EKG"],
    ("Bodum", "french_press"): ["Chambord", "Brazil", "Caffettiera"],
    ("KitchenAid", "stand_mixer"): ["Artisan", "Classic", "Pro 600"],
    ("Oral-B", "toothbrush"): ["iO Series 5", "Pro 1000", "Vitality 100"],
    ("Philips Sonicare", "toothbrush"): ["ProtectiveClean 4100", "DiamondClean 9000"],
    ("Kiehl's", "face_cream"): ["Ultra Facial", "Super Multi-Corrective"],
    ("Optimum Nutrition", "protein"): ["Gold Standard 100%"],
    ("Nalgene", "water_bottle"): ["Wide Mouth", "Narrow Mouth"],
    ("Hydro Flask", "water_bottle"): ["Standard Mouth", "Wide Mouth"],
    ("Lodge", "cast_iron"): ["Classic", "Blacklock"],
    ("Victorinox", "chef_knife"): ["Fibrox Pro", "Grand Maitre"],
    ("Wusthof", "chef_knife"): ["Classic Ikon", "Gourmet"],
}

# Phones that cases and screen protectors fit (a compat "line" of its own).
PHONES = [("Apple", "iPhone 15"), ("Apple", "iPhone 15 Pro"), ("Apple", "iPhone 14"), ("Samsung", "Galaxy S24"),
          ("Samsung", "Galaxy A54"), ("Google", "Pixel 8"), ("Google", "Pixel 8a")]


def T(key, name, plural, family, phrases, category, code, use, sizes=(), colors=False, features=(), brands=(),
      compat=None, flavors=False):
    return {"key": key, "name": name, "plural": plural, "family": family, "phrases": list(phrases),
            "category": category, "code": code, "use": use, "sizes": list(sizes), "colors": colors,
            "features": list(features), "brands": list(brands), "compat": compat, "flavors": flavors}


C, K, E, PC = "Coffee & Espresso", "Kitchen", "Electronics", "Computer Accessories"
B, G, S, CL = "Beauty & Personal Care", "Grocery", "Sports & Outdoors", "Clothing"
TL, P, H = "Tools & Home Improvement", "Pet Supplies", "Home & Cleaning"

TYPES = [
    # Coffee & Espresso
    T("espresso_machine", "Espresso Machine", "Espresso Machines", "machine", ["espresso machine", "espresso maker"], C, "ESP",
      "pulls rich, crema-topped shots and steams silky milk for lattes", colors=True,
      features=["programmable", "dishwasher"], brands=["De'Longhi", "Breville", "Gaggia", "Rancilio", "Lelit", "Smeg", "Nespresso"]),
    T("burr_grinder", "Burr Coffee Grinder", "Burr Coffee Grinders", "grinder", ["burr grinder", "coffee grinder", "burr coffee grinder"], C, "BGR",
      "grinds evenly from fine espresso to coarse French press with 40 settings", colors=True,
      features=["programmable"], brands=["Baratza", "Breville", "Fellow", "Eureka", "Wilfa", "OXO", "De'Longhi"]),
    T("blade_grinder", "Blade Coffee Grinder", "Blade Coffee Grinders", "grinder", ["blade grinder", "coffee grinder"], C, "BLG",
      "chops beans or spices in seconds at the touch of a button", colors=True,
      features=["dishwasher"], brands=["Krups", "Hamilton Beach", "Cuisinart", "Bodum"]),
    T("manual_grinder", "Manual Coffee Grinder", "Manual Coffee Grinders", "grinder", ["manual grinder", "coffee grinder", "hand grinder"], C, "MGR",
      "grinds by hand with a stainless steel conical burr, perfect for travel", colors=True,
      features=[], brands=["Comandante", "Timemore", "1Zpresso", "Hario", "Porlex"]),
    T("pour_over", "Pour-Over Coffee Dripper", "Pour-Over Coffee Drippers", "dripper", ["pour-over dripper", "coffee dripper", "pour-over"], C, "POD",
      "brews a clean, bright cup one pour at a time", sizes=[("02", "size"), ("01", "size")],
      features=["dishwasher", "ceramic"], brands=["Hario", "Chemex", "Kalita", "Melitta", "Fellow", "Origami"]),
    T("paper_filter", "Paper Coffee Filters", "Paper Coffee Filter", "filters", ["coffee filters", "paper filters"], C, "FLT",
      "are oxygen-bleached for a clean cup without papery taste", sizes=[("100", "count"), ("200", "count"), ("40", "count")],
      features=["biodegradable"], brands=["Hario", "Chemex", "Kalita", "Melitta", "CaFec"], compat="pour_over"),
    T("french_press", "French Press Coffee Maker", "French Press Coffee Makers", "press", ["french press"], C, "FRP",
      "steeps full-bodied coffee in four minutes with a fine mesh filter", sizes=[("350", "ml"), ("1", "l"), ("500", "ml")], colors=True,
      features=["dishwasher", "insulated"], brands=["Bodum", "Frieling", "Espro", "Le Creuset", "OXO"]),
    T("kettle", "Gooseneck Electric Kettle", "Gooseneck Electric Kettles", "kettle", ["gooseneck kettle", "electric kettle", "kettle"], C, "KTL",
      "heats water to the exact degree and pours with precision", sizes=[("0.9", "l"), ("1", "l"), ("1.2", "l")], colors=True,
      features=["programmable"], brands=["Fellow", "Bonavita", "Cosori", "Brewista", "Hario"]),
    T("coffee_beans", "Whole Bean Coffee", "Whole Bean Coffees", "coffee", ["coffee beans", "whole bean coffee"], C, "BEA",
      "is roasted in small batches with notes of chocolate, cherry and caramel", sizes=[("250", "g"), ("500", "g"), ("1", "kg"), ("12", "oz")],
      features=["organic", "fairtrade", "decaf"], brands=["Lavazza", "illy", "Peet's", "Stumptown", "Counter Culture", "Death Wish", "Kicking Horse"]),
    T("ground_coffee", "Ground Coffee", "Ground Coffees", "coffee", ["ground coffee"], C, "GRC",
      "is ground for drip and pour-over, medium roast with a smooth finish", sizes=[("250", "g"), ("340", "g"), ("1", "kg")],
      features=["organic", "fairtrade", "decaf"], brands=["Lavazza", "illy", "Peet's", "Dunkin'", "Starbucks", "Kicking Horse"]),
    T("cold_brew", "Cold Brew Coffee Maker", "Cold Brew Coffee Makers", "maker", ["cold brew maker", "cold brew"], C, "CBM",
      "makes smooth, low-acid concentrate overnight in the fridge", sizes=[("1", "l"), ("1.5", "l")],
      features=["dishwasher"], brands=["Hario", "OXO", "Takeya", "County Line"]),
    T("milk_frother", "Milk Frother", "Milk Frothers", "frother", ["milk frother"], C, "FRO",
      "whips hot or cold foam for cappuccinos in under a minute", colors=True,
      features=["rechargeable", "dishwasher"], brands=["Nespresso", "Bodum", "Breville", "Zulay"]),
    T("burr_set", "Replacement Burr Set", "Replacement Burr Sets", "burr", ["replacement burrs", "burr set"], C, "BUR",
      "restores your grinder's consistency with precision-cut steel burrs", brands=["Baratza", "SSP", "Eureka"], compat="burr_grinder"),
    T("grinder_brush", "Grinder Cleaning Brush", "Grinder Cleaning Brushes", "brush", ["grinder brush", "cleaning brush"], C, "GBR",
      "sweeps stale grounds from burrs and chutes", brands=["Pallo", "Urnex", "Baratza"], compat="burr_grinder"),
    # Kitchen
    T("chef_knife", "Chef's Knife", "Chef's Knives", "knife", ["chef knife", "chef's knife", "kitchen knife"], K, "CKN",
      "slices, dices and minces with a razor-sharp forged blade", sizes=[("8", "inch"), ("20", "cm"), ("6", "inch")],
      features=["ergonomic"], brands=["Victorinox", "Wusthof", "Zwilling", "Global", "Mercer", "Shun"]),
    T("paring_knife", "Paring Knife", "Paring Knives", "knife", ["paring knife", "kitchen knife"], K, "PKN",
      "peels and trims fruit and vegetables with control", sizes=[("3.5", "inch"), ("4", "inch")],
      features=["ergonomic"], brands=["Victorinox", "Wusthof", "Zwilling", "OXO", "Kuhn Rikon"]),
    T("knife_block", "Knife Block Set", "Knife Block Sets", "set", ["knife set", "knife block"], K, "KBS",
      "keeps every blade you need sharp and within reach", sizes=[("7", "piece"), ("14", "piece")],
      features=[], brands=["Zwilling", "Wusthof", "Cuisinart", "Henckels", "McCook"]),
    T("frying_pan", "Non-Stick Frying Pan", "Non-Stick Frying Pans", "pan", ["frying pan", "non-stick pan", "skillet"], K, "FPN",
      "sears, sautes and flips eggs without sticking", sizes=[("24", "cm"), ("28", "cm"), ("10", "inch"), ("12", "inch")],
      features=["induction", "ceramic", "dishwasher"], brands=["Tefal", "T-fal", "GreenPan", "All-Clad", "Scanpan", "OXO"]),
    T("cast_iron", "Cast Iron Skillet", "Cast Iron Skillets", "skillet", ["cast iron skillet", "skillet", "cast iron pan"], K, "CIS",
      "holds heat for a perfect sear and goes from hob to oven", sizes=[("10.25", "inch"), ("12", "inch"), ("8", "inch")],
      features=["induction"], brands=["Lodge", "Le Creuset", "Staub", "Victoria", "Field Company"]),
    T("stand_mixer", "Stand Mixer", "Stand Mixers", "mixer", ["stand mixer", "mixer"], K, "SMX",
      "kneads dough and whips cream with a powerful planetary action", sizes=[("4.5", "qt"), ("5", "qt"), ("6", "qt")], colors=True,
      features=["dishwasher"], brands=["KitchenAid", "Kenwood", "Smeg", "Cuisinart", "Bosch"]),
    T("blender", "High-Speed Blender", "High-Speed Blenders", "blender", ["blender", "high speed blender"], K, "BLN",
      "blends smoothies, soups and nut butters in seconds", sizes=[("64", "oz"), ("1.5", "l"), ("2", "l")], colors=True,
      features=["programmable", "dishwasher"], brands=["Vitamix", "Blendtec", "Ninja", "NutriBullet", "Breville"]),
    T("toaster", "2-Slice Toaster", "2-Slice Toasters", "toaster", ["toaster", "2 slice toaster"], K, "TST",
      "browns bread, bagels and waffles evenly with seven shade settings", colors=True,
      features=[], brands=["Smeg", "Breville", "Dualit", "Cuisinart", "Russell Hobbs", "Hamilton Beach"]),
    T("cutting_board", "Cutting Board", "Cutting Boards", "board", ["cutting board", "chopping board"], K, "CBD",
      "gives your knives a forgiving surface with a juice groove", sizes=[("18", "inch"), ("40", "cm"), ("12", "inch")],
      features=["dishwasher", "recycled"], brands=["John Boos", "OXO", "Epicurean", "Joseph Joseph", "Totally Bamboo"]),
    # Electronics
    T("headphones", "Over-Ear Headphones", "Over-Ear Headphones", "headphones", ["headphones", "over ear headphones", "noise cancelling headphones"], E, "HPH",
      "deliver rich sound with active noise cancelling for 30 hours", colors=True,
      features=["bluetooth", "rechargeable"], brands=["Sony", "Bose", "Sennheiser", "Audio-Technica", "Beats", "Jabra", "AKG"]),
    T("earbuds", "True Wireless Earbuds", "True Wireless Earbuds", "earbuds", ["earbuds", "wireless earbuds"], E, "EBD",
      "sit snugly and sound big, with a pocketable charging case", colors=True,
      features=["bluetooth", "waterproof", "rechargeable"], brands=["Sony", "Bose", "Jabra", "Apple", "Samsung", "Anker", "Beats"]),
    T("speaker", "Portable Speaker", "Portable Speakers", "speaker", ["portable speaker", "speaker", "bluetooth speaker"], E, "SPK",
      "fills a room or a campsite with 360-degree sound", colors=True,
      features=["bluetooth", "waterproof", "rechargeable"], brands=["JBL", "Bose", "Ultimate Ears", "Sonos", "Anker", "Marshall", "Bang & Olufsen"]),
    T("monitor", "IPS Monitor", "IPS Monitors", "monitor", ["monitor", "computer monitor"], E, "MON",
      "shows sharp, colour-accurate images with thin bezels", sizes=[("24", "inch"), ("27", "inch"), ("32", "inch")],
      features=["ergonomic"], brands=["Dell", "LG", "Samsung", "ASUS", "BenQ", "AOC"]),
    T("microsd", "microSD Card", "microSD Cards", "card", ["microsd card", "memory card", "sd card"], E, "MSD",
      "stores 4K video and thousands of photos with fast transfers", sizes=[("64", "gb"), ("128", "gb"), ("256", "gb"), ("512", "gb")],
      features=["waterproof"], brands=["SanDisk", "Samsung", "Kingston", "Lexar", "PNY"]),
    T("usb_cable", "USB-C Cable", "USB-C Cables", "cable", ["usb-c cable", "charging cable", "usb cable"], E, "USB",
      "charges at up to 100 W and syncs data at 480 Mbps", sizes=[("1", "m"), ("2", "m"), ("3", "ft"), ("6", "ft")], colors=True,
      features=["recycled"], brands=["Anker", "Belkin", "UGREEN", "Amazon Basics", "Native Union"]),
    T("phone_case", "Phone Case", "Phone Cases", "case", ["phone case", "case"], E, "CAS",
      "protects against drops up to 3 metres with raised edges", colors=True,
      features=["recycled"], brands=["OtterBox", "Spigen", "Casetify", "Apple", "Mous", "Nomad"], compat="phone"),
    T("power_bank", "Power Bank", "Power Banks", "bank", ["power bank", "portable charger"], E, "PWB",
      "charges phones and tablets on the go", sizes=[("10000", "mah"), ("20000", "mah"), ("5000", "mah")], colors=True,
      features=["rechargeable"], brands=["Anker", "Belkin", "Mophie", "INIU", "Baseus"]),
    T("e_reader", "E-Reader", "E-Readers", "reader", ["e-reader", "ebook reader"], E, "ERD",
      "holds thousands of books on a glare-free display", sizes=[("6", "inch"), ("7", "inch")],
      features=["waterproof", "backlit"], brands=["Kindle", "Kobo", "PocketBook", "Boox"]),
    T("router", "Wi-Fi 6 Router", "Wi-Fi 6 Routers", "router", ["wi-fi router", "router", "wireless router"], E, "RTR",
      "covers the whole home with fast, stable wireless", colors=True, features=[], brands=["TP-Link", "NETGEAR", "ASUS", "Linksys", "eero"]),
    T("batteries", "AA Batteries", "AA Battery", "batteries", ["aa batteries", "batteries"], E, "BAT",
      "power remotes, toys and clocks with long-lasting alkaline cells", sizes=[("4", "pack"), ("8", "pack"), ("24", "pack")],
      features=["rechargeable"], brands=["Duracell", "Energizer", "Panasonic", "Amazon Basics"]),
    # Computer accessories
    T("mouse", "Wireless Mouse", "Wireless Mice", "mouse", ["wireless mouse", "mouse", "computer mouse"], PC, "MOU",
      "tracks precisely on almost any surface", colors=True,
      features=["bluetooth", "ergonomic", "rechargeable"], brands=["Logitech", "Razer", "Microsoft", "Corsair", "SteelSeries"]),
    T("keyboard", "Mechanical Keyboard", "Mechanical Keyboards", "keyboard", ["mechanical keyboard", "keyboard"], PC, "KBD",
      "types with crisp, tactile switches rated for 50 million presses", colors=True,
      features=["backlit", "bluetooth"], brands=["Keychron", "Logitech", "Razer", "Corsair", "Ducky", "SteelSeries"]),
    T("laptop_stand", "Laptop Stand", "Laptop Stands", "stand", ["laptop stand"], PC, "LPS",
      "raises your screen to eye level in aluminium", colors=True,
      features=["ergonomic", "recycled"], brands=["Rain Design", "Twelve South", "Nulaxy", "Satechi"]),
    # Beauty & Personal Care
    T("face_cream", "Facial Cream", "Facial Creams", "cream", ["face cream", "facial cream", "moisturizer"], B, "FCR",
      "hydrates and soothes for soft, smooth skin all day", sizes=[("50", "ml"), ("125", "ml"), ("28", "ml")],
      features=["hyaluronic", "fragrance", "vegan"], brands=["Kiehl's", "CeraVe", "La Roche-Posay", "L'Oreal Paris", "Clinique", "Neutrogena"]),
    T("lip_balm", "Lip Balm", "Lip Balms", "balm", ["lip balm", "chapstick"], B, "LPB",
      "soothes and protects dry, chapped lips", sizes=[("4.25", "g"), ("10", "ml")], flavors=False,
      features=["vegan", "organic"], brands=["Burt's Bees", "Carmex", "Nivea", "Kiehl's", "EOS", "Dr. Bronner's"]),
    T("shampoo", "Shampoo", "Shampoos", "shampoo", ["shampoo"], B, "SHP",
      "cleanses gently and leaves hair soft and shiny", sizes=[("250", "ml"), ("500", "ml"), ("1", "l"), ("400", "ml")],
      features=["vegan", "fragrance", "organic"], brands=["Head & Shoulders", "Pantene", "L'Oreal Paris", "Aveda", "Olaplex", "Dr. Bronner's"]),
    T("sunscreen", "Sunscreen SPF 50", "Sunscreens SPF 50", "sunscreen", ["sunscreen", "sun cream"], B, "SUN",
      "protects against UVA and UVB without a white cast", sizes=[("50", "ml"), ("100", "ml"), ("200", "ml")],
      features=["waterproof", "vegan", "fragrance"], brands=["La Roche-Posay", "Neutrogena", "Banana Boat", "Supergoop!", "Australian Gold"]),
    T("toothbrush", "Electric Toothbrush", "Electric Toothbrushes", "toothbrush", ["electric toothbrush", "toothbrush"], B, "ETB",
      "removes up to 100% more plaque than a manual brush", colors=True,
      features=["rechargeable", "bluetooth"], brands=["Oral-B", "Philips Sonicare", "Quip", "Fairywill"]),
    T("brush_heads", "Replacement Brush Heads", "Replacement Brush Head", "heads", ["brush heads", "toothbrush heads"], B, "BRH",
      "keep every brushing as effective as the first", sizes=[("4", "pack"), ("8", "pack")],
      features=[], brands=["Oral-B", "Philips Sonicare", "Sensi"], compat="toothbrush"),
    T("hand_cream", "Hand Cream", "Hand Creams", "cream", ["hand cream"], B, "HCR",
      "absorbs fast and repairs dry, cracked hands", sizes=[("75", "ml"), ("30", "ml"), ("100", "ml")],
      features=["unscented", "vegan", "organic"], brands=["L'Occitane", "Neutrogena", "O'Keeffe's", "Aesop", "Burt's Bees"]),
    T("body_wash", "Body Wash", "Body Washes", "wash", ["body wash", "shower gel"], B, "BDW",
      "lathers richly and rinses clean", sizes=[("500", "ml"), ("750", "ml"), ("16", "oz")],
      features=["unscented", "organic", "vegan"], brands=["Dove", "Dr. Bronner's", "Aveeno", "Method", "Old Spice"]),
    # Grocery
    T("protein", "Whey Protein Powder", "Whey Protein Powders", "protein", ["whey protein", "protein powder", "protein"], G, "WHP",
      "packs 24 g of protein per scoop and mixes without clumps", sizes=[("1", "kg"), ("2", "kg"), ("500", "g"), ("2", "lb"), ("5", "lb")],
      features=["glutenfree", "keto"], brands=["Optimum Nutrition", "Myprotein", "Dymatize", "MuscleTech", "Garden of Life"], flavors=True),
    T("protein_bar", "Protein Bars", "Protein Bar", "bars", ["protein bars", "protein bar", "protein"], G, "PBR",
      "carry 20 g of protein in a chewy, satisfying bar", sizes=[("12", "pack"), ("6", "pack")],
      features=["glutenfree", "keto", "vegan"], brands=["Quest", "RXBAR", "Clif Builders", "Barebells", "ONE"], flavors=True),
    T("olive_oil", "Extra Virgin Olive Oil", "Extra Virgin Olive Oils", "oil", ["olive oil", "extra virgin olive oil"], G, "OLV",
      "is cold pressed from early-harvest olives with a peppery finish", sizes=[("500", "ml"), ("1", "l"), ("750", "ml"), ("3", "l")],
      features=["organic"], brands=["Colavita", "California Olive Ranch", "Filippo Berio", "Bertolli", "Graza"]),
    T("peanut_butter", "Peanut Butter", "Peanut Butters", "butter", ["peanut butter"], G, "PNB",
      "is made from roasted peanuts and a pinch of salt", sizes=[("340", "g"), ("1", "kg"), ("16", "oz")],
      features=["organic", "vegan", "glutenfree"], brands=["Jif", "Skippy", "Smucker's", "Pip & Nut", "Justin's"]),
    T("pasta", "Spaghetti Pasta", "Spaghetti Pastas", "pasta", ["spaghetti", "pasta"], G, "PAS",
      "is bronze-cut for a rough texture that holds sauce", sizes=[("500", "g"), ("1", "kg"), ("16", "oz")],
      features=["organic", "glutenfree"], brands=["Barilla", "De Cecco", "Rummo", "Garofalo", "Banza"]),
    T("green_tea", "Green Tea", "Green Teas", "tea", ["green tea", "tea"], G, "GRT",
      "brews a fresh, grassy cup with gentle caffeine", sizes=[("20", "bags"), ("100", "bags"), ("100", "g")],
      features=["organic", "decaf", "fairtrade"], brands=["Twinings", "Yogi", "Pukka", "Harney & Sons", "Clipper"]),
    T("chocolate", "Dark Chocolate Bar", "Dark Chocolate Bars", "chocolate", ["dark chocolate", "chocolate bar", "chocolate"], G, "CHO",
      "is 70% cacao with a smooth, rich snap", sizes=[("100", "g"), ("3.5", "oz")],
      features=["organic", "vegan", "fairtrade"], brands=["Lindt", "Ghirardelli", "Green & Black's", "Tony's Chocolonely", "Hershey's"]),
    # Sports & Outdoors
    T("running_shoes", "Running Shoes", "Running Shoe", "shoes", ["running shoes", "trainers", "sneakers"], S, "RUN",
      "cushion every stride with a responsive foam midsole", sizes=[("9", "us"), ("10", "us"), ("11", "us"), ("8", "us")], colors=True,
      features=["waterproof", "recycled"], brands=["Nike", "ASICS", "Brooks", "HOKA", "New Balance", "Saucony", "On"]),
    T("yoga_mat", "Yoga Mat", "Yoga Mats", "mat", ["yoga mat", "exercise mat"], S, "YGM",
      "grips in every pose and cushions your joints", sizes=[("6", "mm"), ("4", "mm"), ("8", "mm")], colors=True,
      features=["recycled", "biodegradable"], brands=["Manduka", "Lululemon", "Gaiam", "Liforme", "JadeYoga"]),
    T("backpack", "Hiking Backpack", "Hiking Backpacks", "backpack", ["backpack", "hiking backpack", "daypack"], S, "BPK",
      "carries a day's gear with a ventilated back panel", sizes=[("20", "l"), ("30", "l"), ("45", "l")], colors=True,
      features=["waterproof", "recycled"], brands=["Osprey", "Deuter", "The North Face", "Gregory", "REI Co-op", "Fjallraven"]),
    T("tent", "Camping Tent", "Camping Tents", "tent", ["tent", "camping tent"], S, "TNT",
      "pitches in minutes and stands up to wind and rain", sizes=[("2", "person"), ("4", "person"), ("6", "person")], colors=True,
      features=["waterproof"], brands=["Coleman", "MSR", "Big Agnes", "REI Co-op", "Naturehike"]),
    T("water_bottle", "Water Bottle", "Water Bottles", "bottle", ["water bottle", "bottle"], S, "WBT",
      "keeps drinks at the right temperature wherever you go", sizes=[("500", "ml"), ("750", "ml"), ("1", "l"), ("32", "oz"), ("21", "oz")], colors=True,
      features=["insulated", "dishwasher", "recycled"], brands=["Nalgene", "Hydro Flask", "CamelBak", "Stanley", "Yeti", "Chilly's"]),
    T("dumbbells", "Adjustable Dumbbells", "Adjustable Dumbbell", "dumbbells", ["dumbbells", "adjustable dumbbells", "weights"], S, "DBL",
      "replace a rack of weights with a quick dial", sizes=[("24", "kg"), ("52.5", "lb"), ("10", "kg")],
      features=[], brands=["Bowflex", "NordicTrack", "PowerBlock", "Core Home Fitness"]),
    # Clothing
    T("t_shirt", "Crew Neck T-Shirt", "Crew Neck T-Shirts", "t-shirt", ["t-shirt", "tee", "crew neck t-shirt"], CL, "TSH",
      "is cut from soft combed cotton for everyday comfort", sizes=[("S", "size"), ("M", "size"), ("L", "size"), ("XL", "size")], colors=True,
      features=["organic", "recycled", "merino"], brands=["Uniqlo", "Hanes", "Patagonia", "Levi's", "Carhartt", "Everlane"]),
    T("rain_jacket", "Rain Jacket", "Rain Jackets", "jacket", ["rain jacket", "jacket", "raincoat"], CL, "RJK",
      "sheds downpours with a breathable shell and sealed seams", sizes=[("S", "size"), ("M", "size"), ("L", "size")], colors=True,
      features=["waterproof", "recycled"], brands=["Patagonia", "The North Face", "Arc'teryx", "Columbia", "Marmot"]),
    T("socks", "Hiking Socks", "Hiking Sock", "socks", ["hiking socks", "socks"], CL, "SCK",
      "cushion the heel and toe and wick moisture on long days", sizes=[("M", "size"), ("L", "size")], colors=True,
      features=["merino", "recycled"], brands=["Darn Tough", "Smartwool", "Bombas", "Icebreaker"]),
    # Tools & Home Improvement
    T("drill", "Drill Driver", "Drill Drivers", "drill", ["drill", "drill driver", "power drill"], TL, "DRL",
      "drives screws and bores holes in wood, metal and masonry", sizes=[("18", "v"), ("20", "v"), ("12", "v")],
      features=["cordless", "ergonomic"], brands=["DeWalt", "Makita", "Bosch", "Milwaukee", "Black+Decker", "Ryobi"]),
    T("screwdriver_set", "Screwdriver Set", "Screwdriver Sets", "set", ["screwdriver set", "screwdrivers"], TL, "SDS",
      "covers Phillips, flat and Torx heads in one case", sizes=[("6", "piece"), ("32", "piece"), ("64", "piece")],
      features=["ergonomic"], brands=["Wera", "Wiha", "Stanley", "iFixit", "Klein Tools"]),
    T("flashlight", "LED Flashlight", "LED Flashlights", "flashlight", ["flashlight", "torch", "led flashlight"], TL, "FLS",
      "throws a bright beam up to 300 metres", sizes=[("1000", "lumen"), ("500", "lumen"), ("3000", "lumen")],
      features=["rechargeable", "waterproof"], brands=["Fenix", "Olight", "Maglite", "Streamlight", "Nitecore"]),
    T("tape_measure", "Tape Measure", "Tape Measures", "measure", ["tape measure", "measuring tape"], TL, "TPM",
      "locks firmly and reads clearly in metric and imperial", sizes=[("5", "m"), ("8", "m"), ("25", "ft")],
      features=["ergonomic"], brands=["Stanley", "Milwaukee", "Komelon", "DeWalt", "Tajima"]),
    # Pet Supplies
    T("dog_food", "Dry Dog Food", "Dry Dog Foods", "food", ["dog food", "dry dog food"], P, "DGF",
      "delivers complete nutrition for adult dogs", sizes=[("2", "kg"), ("12", "kg"), ("30", "lb"), ("5", "lb")],
      features=["grainfree", "organic"], brands=["Purina Pro Plan", "Hill's Science Diet", "Royal Canin", "Blue Buffalo", "Orijen"]),
    T("cat_litter", "Clumping Cat Litter", "Clumping Cat Litters", "litter", ["cat litter", "clumping litter"], P, "CTL",
      "clumps hard and locks in odour for a week", sizes=[("10", "l"), ("20", "lb"), ("40", "lb")],
      features=["unscented", "biodegradable"], brands=["Tidy Cats", "Dr. Elsey's", "Fresh Step", "Arm & Hammer", "World's Best"]),
    T("dog_leash", "Dog Leash", "Dog Leashes", "leash", ["dog leash", "leash", "dog lead"], P, "DLS",
      "gives a secure, comfortable hold on every walk", sizes=[("1.5", "m"), ("6", "ft")], colors=True,
      features=["recycled"], brands=["Ruffwear", "Kong", "Flexi", "Max and Neo"]),
    # Home & Cleaning
    T("dishwasher_tablets", "Dishwasher Tablets", "Dishwasher Tablet", "tablets", ["dishwasher tablets", "dishwasher pods"], H, "DWT",
      "cut through grease and leave glasses sparkling", sizes=[("40", "count"), ("80", "count"), ("25", "count")],
      features=["biodegradable", "unscented"], brands=["Finish", "Cascade", "Fairy", "Seventh Generation", "Ecover"]),
    T("detergent", "Laundry Detergent", "Laundry Detergents", "detergent", ["laundry detergent", "detergent"], H, "LDT",
      "lifts stains in cold water and keeps colours bright", sizes=[("1.5", "l"), ("2.5", "l"), ("50", "oz"), ("100", "oz")],
      features=["unscented", "biodegradable"], brands=["Tide", "Persil", "Seventh Generation", "Ecover", "Arm & Hammer"]),
    T("candle", "Scented Candle", "Scented Candles", "candle", ["scented candle", "candle"], H, "CND",
      "burns cleanly for up to 50 hours", sizes=[("200", "g"), ("8", "oz"), ("14", "oz")], colors=False,
      features=["vegan"], brands=["Yankee Candle", "Diptyque", "Jo Malone", "Mrs. Meyer's", "Boy Smells"]),
    T("vacuum", "Stick Vacuum Cleaner", "Stick Vacuum Cleaners", "vacuum", ["stick vacuum", "vacuum cleaner", "vacuum"], H, "VAC",
      "picks up fine dust and pet hair from carpets and hard floors", colors=True,
      features=["cordless", "rechargeable"], brands=["Dyson", "Shark", "Samsung", "Miele", "Bissell", "Tineco"]),
]

TYPE_BY_KEY = {t["key"]: t for t in TYPES}

UNIT_WORDS = {  # how a unit is written after its number: compact ("500ml") or spaced ("500 ml")
    "ml": ("ml", "ml"), "l": ("L", "L"), "g": ("g", "g"), "kg": ("kg", "kg"), "oz": ("oz", "oz"), "lb": ("lb", "lb"),
    "gb": ("GB", "GB"), "mah": ("mAh", "mAh"), "m": ("m", "m"), "ft": ("ft", "ft"), "cm": ("cm", "cm"),
    "inch": ("\"", "inch"), "mm": ("mm", "mm"), "v": ("V", "V"), "qt": ("qt", "qt"), "lumen": ("lm", "lumens"),
    "count": ("-Count", "Count"), "pack": ("-Pack", "Pack"), "piece": ("-Piece", "Piece"), "person": ("-Person", "Person"),
    "bags": (" Bags", "Tea Bags"), "size": ("", ""), "us": ("", ""),
}
# Units a shopper may type after a number in a query ("500ml", "500 ml"): measured quantities only.
MEASURED_UNITS = {"ml", "l", "g", "kg", "oz", "lb", "gb", "mah", "m", "cm", "mm", "v", "qt", "inch"}
