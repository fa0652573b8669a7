"""Checks of the benchmark itself: the committed judgments are the generator's, every query is what
its class says, the grading rule and the metrics give what bench/README.md says, and the FTS5
reference puts all-words matches before any-word matches.

    python3 -m unittest discover -s bench/search-quality -p 'test_*.py'     (or python3 -m pytest)
"""
import os
import re
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import catalog  # noqa: E402
import generate  # noqa: E402
import queries  # noqa: E402
import search_quality  # noqa: E402
from vocabulary import FEATURE_QUERY_WORDS, TYPE_BY_KEY  # noqa: E402


def words(text):
    return re.findall(r"[^\W_]+", text.lower())


class CommittedJudgments(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.header, cls.queries = generate.read_judgments()
        cls.products, cls.text, cls.judged = generate.build()
        cls.by_sku = {p["sku"]: p for p in cls.products}

    def test_theCommittedFile_isWhatTheGeneratorGives(self):
        with __import__("gzip").open(generate.JUDGMENTS, "rt", encoding="utf-8") as f:
            self.assertEqual(f.read(), self.judged)
        self.assertEqual(self.header["catalog"]["sha256"], catalog.digest(self.text))

    def test_catalog_hasTenThousandProducts_withUniqueSkus_andValidColumns(self):
        self.assertGreaterEqual(len(self.products), 10_000)
        self.assertEqual(len(self.by_sku), len(self.products))
        for p in self.products:
            self.assertTrue(1 <= len(p["name"]) <= 255, p["name"])
            self.assertTrue(1 <= len(p["sku"]) <= 64 and p["sku"] == p["sku"].strip())
            self.assertEqual(p["category"], p["category"].strip())
            self.assertIsInstance(p["priceCents"], int)

    def test_everyClass_hasTwentyQueries_splitTenAndTen(self):
        self.assertEqual(len(self.queries), 20 * len(queries.CLASSES))
        for cls in queries.CLASSES:
            of_class = [q for q in self.queries if q["class"] == cls]
            self.assertEqual(len(of_class), 20, cls)
            self.assertEqual(sum(q["split"] == "tuning" for q in of_class), 10, cls)
        self.assertEqual(len({q["query"].lower() for q in self.queries}), len(self.queries))

    def test_everyQuery_hasAProductOfGrade3_andGradesFromTheRule(self):
        for q in self.queries:
            self.assertTrue(q["judgments"]["3"], q["id"])
            for grade, skus in q["judgments"].items():
                for sku in skus[:5]:
                    self.assertEqual(queries.grade(self.by_sku[sku], q["intent"], self.by_sku), int(grade), (q["id"], sku))

    def test_typos_areOneAndTwoEdits_onWordsLongEnoughForThem(self):
        for q in self.queries:
            if not q["class"].startswith("typo_"):
                continue
            typed, meant = q["query"].split(), q["from"].split()
            self.assertEqual(len(typed), len(meant), q["id"])
            distances = [queries.edit_distance(a, b) for a, b in zip(typed, meant)]
            self.assertEqual(sum(distances), 1 if q["class"] == "typo_1" else 2, q["id"])
            for d, word in zip(distances, meant):
                if d:
                    self.assertGreaterEqual(len(word), 9 if d == 2 else 5, q["id"])

    def test_prefixes_cutTheLastWord_toThreeLettersOrMore(self):
        for q in (q for q in self.queries if q["class"] == "prefix"):
            typed, meant = q["query"].split()[-1], q["from"].split()[-1]
            self.assertTrue(meant.startswith(typed) and 3 <= len(typed) < len(meant), q["id"])

    def test_descriptionOnlyWords_neverAppearInTheNamesOrCategoriesOfTheTypesAsked(self):
        for q in (q for q in self.queries if q["class"] == "description_only"):
            feature_words = words(FEATURE_QUERY_WORDS.get(q["intent"]["feature"], q["intent"]["feature"]))
            for p in self.products:
                if p["truth"]["type"] in q["intent"]["types"]:
                    indexed = set(words(p["name"] + " " + p["category"]))
                    self.assertFalse(indexed & set(feature_words), (q["id"], p["name"]))
                    if q["intent"]["feature"] in p["truth"]["features"]:
                        self.assertIn(feature_words[0], words(p["description"]), (q["id"], p["sku"]))

    def test_brandQueries_dropTheBrandsPunctuation(self):
        for q in (q for q in self.queries if q["class"] == "brand_no_apostrophe"):
            brand = q["intent"]["brand"]
            self.assertRegex(brand, r"[^A-Za-z0-9 ]", q["id"])
            self.assertNotRegex(q["query"], r"['.&+!]", q["id"])


def product(sku, type_key, brand, line, size=None, features=(), compat=None):
    return {"sku": sku, "truth": {"type": type_key, "brand": brand, "line": line, "size": size,
                                  "features": list(features), "compat": compat}}


class GradingRule(unittest.TestCase):
    def setUp(self):
        self.items = [product("A", "burr_grinder", "Baratza", "Encore", None),
                      product("B", "burr_grinder", "Baratza", "Encore", None),
                      product("C", "burr_grinder", "Baratza", "Virtuoso+"),
                      product("D", "burr_grinder", "Fellow", "Ode"),
                      product("E", "blade_grinder", "Krups", "Classic"),
                      product("F", "water_bottle", "Nalgene", "Wide Mouth", ["500", "ml"], ["insulated"]),
                      product("G", "water_bottle", "Nalgene", "Wide Mouth", ["1", "l"])]
        self.by_sku = {p["sku"]: p for p in self.items}

    def grades(self, intent):
        return {p["sku"]: queries.grade(p, intent, self.by_sku) for p in self.items}

    def test_knownItem_byName(self):
        self.assertEqual(self.grades({"target": "A"}), {"A": 3, "B": 2, "C": 1, "D": 0, "E": 0, "F": 0, "G": 0})

    def test_knownItem_bySku(self):
        self.assertEqual(self.grades({"target": "A", "sku_query": True}), {"A": 3, "B": 1, "C": 0, "D": 0, "E": 0, "F": 0, "G": 0})

    def test_typeWithLine_sameBrandOtherLineIs2_otherBrandIs1_sameFamilyIs1(self):
        intent = {"types": ["burr_grinder"], "near": ["blade_grinder"], "line": "Encore", "brand_hint": "Baratza"}
        self.assertEqual(self.grades(intent), {"A": 3, "B": 3, "C": 2, "D": 1, "E": 1, "F": 0, "G": 0})

    def test_sizeOnlyMissIs2_featureMissIs1(self):
        self.assertEqual(self.grades({"types": ["water_bottle"], "size": ["0.5e3", "ml"]})["G"], 2)
        self.assertEqual(self.grades({"types": ["water_bottle"], "size": ["500", "ml"]})["F"], 3)
        self.assertEqual(self.grades({"types": ["water_bottle"], "feature": "insulated"}), {"A": 0, "B": 0, "C": 0, "D": 0, "E": 0, "F": 3, "G": 1})

    def test_brandAlone(self):
        self.assertEqual(self.grades({"types": None, "brand": "Nalgene"}), {"A": 0, "B": 0, "C": 0, "D": 0, "E": 0, "F": 3, "G": 3})


class Metrics(unittest.TestCase):
    judgments = {"3": ["A"], "2": ["B"], "1": ["C"]}

    def test_bestOrder_scoresOne(self):
        s = search_quality.scores(["A", "B", "C", "X"], self.judgments)
        self.assertEqual((round(s["ndcg10"], 9), s["mrr"], s["recall100"], s["zero"]), (1.0, 1.0, 1.0, 0.0))

    def test_noResult(self):
        self.assertEqual(search_quality.scores([], self.judgments), {"ndcg10": 0.0, "mrr": 0.0, "recall100": 0.0, "zero": 1.0})

    def test_gradeOneIsNotRelevant_forMrrAndRecall(self):
        s = search_quality.scores(["C", "X", "B"], self.judgments)
        self.assertAlmostEqual(s["mrr"], 1 / 3)
        self.assertAlmostEqual(s["recall100"], 0.5)
        ideal = 7 + 3 / 1.584962500721156 + 1 / 2
        self.assertAlmostEqual(s["ndcg10"], (1 + 3 / 2) / ideal)


class Reference(unittest.TestCase):
    def setUp(self):
        names = [("1", "Mug"), ("2", "Red ceramic mug with a big handle, tall and wide, microwave and oven proof, for tea")]
        names += [(str(10 + i), f"Red thing {i}") for i in range(20)]
        self.fts = search_quality.FTS5Reference([{"sku": s, "name": n, "description": "", "category": "Kitchen"} for s, n in names])

    def tearDown(self):
        self.fts.close()

    def test_allWordsFirst_thenAnyWord(self):
        self.assertEqual(self.fts.match('"red" OR "mug"', 2), ["1", "2"])  # bm25 alone puts the short "Mug" first
        self.assertEqual(self.fts.search("red mug")[:2], ["2", "1"])
        self.assertEqual(len(self.fts.search("red mug")), 22)

    def test_punctuationIsNeverSyntax(self):
        self.assertEqual(self.fts.search('"mug" OR'), ["1", "2"])  # the words mug and or; no product has "or"
        self.assertEqual(self.fts.search('-*"'), [])


if __name__ == "__main__":
    unittest.main()
