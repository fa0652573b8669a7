/// The handles and SKUs a preset makes up where the platform's file has none (a WooCommerce
/// variation or a Medusa variant without a SKU, a WooCommerce product, which has no handle
/// column), made unique within the file: every identifier the file gives is registered as it is
/// read, and a made-up one that is taken gets `-2`, `-3`… A made-up identifier is stable: the same
/// file gives the same ones, so importing it again updates the same products. Memory: one entry
/// per identifier in the file. A value; one thread.
///
/// A made-up SKU cannot know the SKUs of rows further down; if one of those repeats it, the
/// import reports the repeated SKU (both lines) and writes nothing.
struct DerivedIdentifiers {
    private var taken = Set<String>()
    /// The next suffix to try for a made-up identifier, so that many equal ones cost one step each.
    private var nextSuffix: [String: Int] = [:]

    /// Records an identifier the file gives, so that none is made up equal to it.
    mutating func register(_ identifier: String) {
        taken.insert(identifier)
    }

    /// The SKU of a variant: `given`, registered, when the file gives one; else one made up from
    /// `base` and `parts` (`make`).
    mutating func sku(given: String, base: String, parts: [String]) -> String {
        guard given.isEmpty else {
            register(given)
            return given
        }
        return make(base: base, parts: parts)
    }

    /// `base` and the slugs of `parts` joined with `-` (`woo-hoodie-blue-no`), unique: when taken,
    /// with `-2`, `-3`… At most 64 characters: a longer one is cut and ends with 8 hex digits of a
    /// hash of the whole (FNV-1a), so it stays distinct and stable.
    mutating func make(base: String, parts: [String]) -> String {
        let pieces = [base] + parts.map(PresetText.slug).filter { !$0.isEmpty }
        let joined = Self.fitted(pieces.joined(separator: "-"))
        var candidate = joined
        var suffix = nextSuffix[joined] ?? 2
        while taken.contains(candidate) {
            candidate = Self.fitted(joined + "-\(suffix)")
            suffix += 1
        }
        if candidate != joined { nextSuffix[joined] = suffix }
        taken.insert(candidate)
        return candidate
    }

    private static func fitted(_ identifier: String) -> String {
        let max = CatalogLimits.maxIdentifierLength
        guard identifier.unicodeScalars.count > max else { return identifier }
        var hash: UInt32 = 0x811C_9DC5
        for byte in identifier.utf8 {
            hash = (hash ^ UInt32(byte)) &* 0x0100_0193
        }
        let hex = String(hash, radix: 16)
        let digits = String(repeating: "0", count: 8 - hex.count) + hex
        var head = String(String.UnicodeScalarView(identifier.unicodeScalars.prefix(max - 9)))
        while head.hasSuffix("-") { head.removeLast() }
        return head + "-" + digits
    }
}
