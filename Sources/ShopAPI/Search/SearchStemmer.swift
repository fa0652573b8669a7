/// A light English stemmer for plurals (the S-stemmer of Harman, "How effective is suffixing?",
/// JASIS 1991, extended): it maps a word and its plural to one key, so that `machines` finds
/// "machine", `batteries` "battery", `knives` "knife" and `mice` "mouse". The key is not
/// necessarily an English word (`machin`, `batteri`); it is only ever compared with other keys.
///
/// Rules, applied to a folded word of at least 3 letters a–z (others are their own key):
/// 1. irregular plurals from a fixed table get their singular's key (`mice` → `mous` as `mouse`,
///    `knives` → `knif` as `knife`, `feet` → `foot`);
/// 2. `-ies` (not `-eies`, `-aies`) → `-i`; `-ves` → `-v`;
/// 3. a final `s` goes, unless the word ends in `ss`, `us` or `is`;
/// 4. then a final `e` goes, and a final `y` after a consonant becomes `i`.
///
/// So `glasses`/`glass` → `glass`, `washes`/`wash` → `wash`, `cookies`/`cookie` → `cooki`,
/// `gloves`/`glove` → `glov`, `toys`/`toy` → `toy`. Past tenses and `-ing` are not stemmed: a
/// light stemmer conflates too little rather than too much (`cutting board` is not `cut`).
///
/// A key begins with its word's first letter (the rules change endings only, and every irregular
/// plural begins as its singular): a matcher skips a word whose first byte no query word has
/// (`SearchQueryPlan.firstBytes`) without stemming it. Pure; thread-safe.
enum SearchStemmer {
    /// The stem key of `word` (folded), or nil when it is the word itself.
    static func stem(_ word: String) -> String? {
        let utf8 = word.utf8
        guard utf8.count >= 3, let last = utf8.last, utf8.allSatisfy({ $0 >= 0x61 && $0 <= 0x7A }) else { return nil }
        // Only a word ending in s, e or y changes, or one of the few irregular plurals that do
        // not: the others cost no hashing and no allocation.
        guard last == UInt8(ascii: "s") || last == UInt8(ascii: "e") || last == UInt8(ascii: "y") else {
            return irregularWithOtherEndings.contains(word) ? irregular[word] : nil
        }
        if let key = irregular[word] { return key == word ? nil : key }
        var scalars = Array(utf8)  // a–z only past the guard: one byte a letter
        strip(&scalars)
        let stem = String(decoding: scalars, as: UTF8.self)
        return stem == word ? nil : stem
    }

    private static func strip(_ word: inout [UInt8]) {
        func ends(_ suffix: String) -> Bool {
            let suffix = Array(suffix.utf8)
            return word.count > suffix.count && word.suffix(suffix.count).elementsEqual(suffix)
        }
        let s = UInt8(ascii: "s"), e = UInt8(ascii: "e"), y = UInt8(ascii: "y"), i = UInt8(ascii: "i")
        if ends("ies") && !ends("eies") && !ends("aies") {
            word.removeLast(2)
        } else if ends("ves") {
            word.removeLast(2)
        } else if word.last == s && !ends("ss") && !ends("us") && !ends("is") {
            word.removeLast()
        }
        guard word.count >= 3 else { return }
        if word.last == e {
            word.removeLast()
        } else if word.last == y, !isVowel(word[word.count - 2]) {
            word[word.count - 1] = i
        }
    }

    private static func isVowel(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a"), UInt8(ascii: "e"), UInt8(ascii: "i"), UInt8(ascii: "o"), UInt8(ascii: "u"): true
        default: false
        }
    }

    /// The words of `irregular` that end in neither s, e nor y (compared without hashing).
    private static let irregularWithOtherEndings: [String] = ["feet", "teeth", "children", "women"]

    /// Words no rule above gets right, each to the key its singular gets from the rules.
    static let irregular: [String: String] = [
        "mice": "mous", "geese": "goos", "feet": "foot", "teeth": "tooth", "children": "child",
        "women": "woman", "people": "person", "knives": "knif", "wives": "wif", "lives": "lif",
        "leaves": "leaf", "shelves": "shelf", "halves": "half", "loaves": "loaf", "wolves": "wolf",
        "scarves": "scarf", "calves": "calf", "thieves": "thief", "hooves": "hoof",
        "news": "news", "lens": "lens", "lenses": "lens",
    ]
}
