/// The fields of a product that search reads, in the order ranking prefers them: a word found in
/// the `name` counts more than one in the `brand`, then `category`, then `description`; `sku` and
/// `handle` are identifiers (an exact one ranks first, `SearchRankingKey`) and rank after the
/// description when only part of one matches. `rank` is that order, 0 best. Value type; `Sendable`.
enum SearchField: UInt8, CaseIterable, Sendable {
    case name, brand, category, description, sku, handle

    /// 0 for `name` … 5 for `handle`: lower is better.
    var rank: Int { Int(rawValue) }
}
