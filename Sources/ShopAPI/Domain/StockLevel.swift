/// Units of one SKU available to order at the moment it was read. Immutable value; `Sendable`.
///
/// Carts do not reserve stock, so a level is advice, not a promise: `placeOrder` checks again.
///
/// A level is **fresh** (`ageMs == nil`: read for this call) or **marked stale** (`ageMs` set:
/// the last fresh level the inventory service gave, `ageMs` milliseconds before this answer,
/// served because the service could not answer in time; protocol.md, "Live inventory"). On the
/// wire a stale level carries `"stale": true` and `"ageMs"`; a fresh one carries neither.
public struct StockLevel: Codable, Sendable, Equatable {
    public let sku: String
    /// Never negative.
    public let available: Int
    /// How old a marked-stale level is, in whole milliseconds; nil for a fresh level.
    public let ageMs: Int?

    /// Whether this level is an earlier answer, marked (`"stale": true` on the wire).
    public var isStale: Bool { ageMs != nil }

    public init(sku: String, available: Int, ageMs: Int? = nil) {
        self.sku = sku
        self.available = available
        self.ageMs = ageMs.map { max(0, $0) }
    }

    private enum CodingKeys: String, CodingKey {
        case sku, available, stale, ageMs
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        sku = try container.decode(String.self, forKey: .sku)
        available = try container.decode(Int.self, forKey: .available)
        let stale = try container.decodeIfPresent(Bool.self, forKey: .stale) ?? false
        ageMs = stale ? try container.decode(Int.self, forKey: .ageMs) : nil
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sku, forKey: .sku)
        try container.encode(available, forKey: .available)
        if let ageMs {
            try container.encode(true, forKey: .stale)
            try container.encode(ageMs, forKey: .ageMs)
        }
    }
}
