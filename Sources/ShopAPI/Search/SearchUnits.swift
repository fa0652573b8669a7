/// Numbers and units of measure as search reads them, so that `500ml`, `500 ml`, `500 mL` and
/// `500 Milliliters` are the one word `500ml`, and `1.5 l`, `1,5l` and `1.50 L` are `1.5l`.
///
/// - A unit is one of the words of `canonicalUnits`' table (metric and US volume, weight, length,
///   capacity, power and data units); each has one canonical spelling (`lbs` → `lb`,
///   `litre` → `l`, `inch` → `in`).
/// - A number is decimal digits, with at most one decimal part after `.` or `,` (a `,` followed by
///   exactly three digits is a thousands separator instead: `10,000mAh` is `10000mah`); a decimal
///   part loses its trailing zeros (`1.50` → `1.5`, `2.0` → `2`).
///
/// Pure; thread-safe.
enum SearchUnits {
    /// The canonical spelling of `word` when it is a unit (already folded), else nil.
    static func canonicalUnit(_ word: Substring) -> String? {
        table[String(word)]
    }

    /// Whether a unit written apart from its number (`500 ml`) joins it: all units but `in`, which
    /// is far more often the word "in" (`2 in 1`).
    static func joinsWhenSpaced(_ unit: String) -> Bool {
        unit != "in"
    }

    /// `integer` and `fraction` (digits) as one number: `1` and `50` → `1.5`, `2` and `0` → `2`.
    static func decimal(_ integer: Substring, _ fraction: Substring) -> String {
        var fraction = fraction
        while fraction.last == "0" { fraction = fraction.dropLast() }
        return fraction.isEmpty ? String(integer) : integer + "." + fraction
    }

    private static let table: [String: String] = {
        let groups: [(String, [String])] = [
            ("ml", ["ml", "milliliter", "milliliters", "millilitre", "millilitres"]),
            ("cl", ["cl"]), ("dl", ["dl"]),
            ("l", ["l", "ltr", "liter", "liters", "litre", "litres"]),
            ("floz", ["floz"]), ("oz", ["oz", "ounce", "ounces"]),
            ("qt", ["qt", "quart", "quarts"]), ("gal", ["gal", "gallon", "gallons"]),
            ("mg", ["mg"]), ("g", ["g", "gr", "gram", "grams", "gramme", "grammes"]),
            ("kg", ["kg", "kgs", "kilo", "kilos", "kilogram", "kilograms"]),
            ("lb", ["lb", "lbs", "pound", "pounds"]),
            ("mm", ["mm"]), ("cm", ["cm"]), ("m", ["m"]), ("km", ["km"]),
            ("in", ["in", "inch", "inches"]), ("ft", ["ft", "feet", "foot"]),
            ("mah", ["mah"]), ("wh", ["wh"]), ("w", ["w", "watt", "watts"]), ("kw", ["kw"]),
            ("v", ["v", "volt", "volts"]), ("hz", ["hz"]), ("khz", ["khz"]), ("mhz", ["mhz"]), ("ghz", ["ghz"]),
            ("kb", ["kb"]), ("mb", ["mb"]), ("gb", ["gb"]), ("tb", ["tb"]),
            ("pc", ["pc", "pcs"]), ("pk", ["pk"]),
        ]
        var table: [String: String] = [:]
        for (canonical, spellings) in groups {
            for spelling in spellings { table[spelling] = canonical }
        }
        return table
    }()
}
