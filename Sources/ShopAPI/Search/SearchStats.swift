import SharedSupport

/// What shoppers searched for and did not find, for an owner deciding which synonyms to add: how
/// many searches ran, how many found nothing, and the most frequent queries that found nothing.
///
/// Counts first pages of searches with words only (a browse, with an empty query, or a later page
/// of the same search is not a new search). Queries are kept as search reads them (folded words,
/// `SearchWordScanner`, joined by single spaces, at most `maxQueryBytes`), so `Grnder` and
/// `grnder!` are one entry. Memory is bounded: at most `capacity` distinct queries are counted,
/// by the Space-Saving algorithm (Metwally, Agrawal and El Abbadi, 2005): a new query takes the
/// place of the least counted one and starts from its count, so a count may be too high by at most
/// that inherited part (`overcount`), and any query searched more often than the searches without
/// results divided by `capacity` is always among those kept. Thread-safe: one lock.
public final class SearchStats: Sendable {
    /// One query that found nothing, with how often.
    public struct ZeroResultQuery: Sendable, Equatable {
        public let query: String
        public let count: Int
        /// How much of `count` may belong to the queries it displaced (0: exact).
        public let overcount: Int
    }

    /// A snapshot of the figures.
    public struct Snapshot: Sendable, Equatable {
        public let searches: Int
        public let withoutResults: Int
        /// The most frequent queries that found nothing, most first (then by query), at most `reported`.
        public let topWithoutResults: [ZeroResultQuery]
    }

    public static let capacity = 64
    public static let reported = 10
    static let maxQueryBytes = 100

    private struct Counted {
        var count: Int
        var overcount: Int
    }

    private struct State {
        var searches = 0
        var withoutResults = 0
        var counted: [String: Counted] = [:]
    }

    private let state = Locked(State())

    public init() {}

    /// Records one search of `query` that found `found` products.
    public func record(query: String, found: Int) {
        let key = Self.key(of: query)
        guard !key.isEmpty else { return }
        state.withLock { state in
            state.searches += 1
            guard found == 0 else { return }
            state.withoutResults += 1
            if state.counted[key] != nil {
                state.counted[key]!.count += 1
            } else if state.counted.count < Self.capacity {
                state.counted[key] = Counted(count: 1, overcount: 0)
            } else if let least = state.counted.min(by: { Self.precedes(($1.key, $1.value.count), ($0.key, $0.value.count)) }) {
                state.counted[least.key] = nil
                state.counted[key] = Counted(count: least.value.count + 1, overcount: least.value.count)
            }
        }
    }

    public var snapshot: Snapshot {
        state.withLock { state in
            let top = state.counted.sorted { Self.precedes(($0.key, $0.value.count), ($1.key, $1.value.count)) }
                .prefix(Self.reported)
                .map { ZeroResultQuery(query: $0.key, count: $0.value.count, overcount: $0.value.overcount) }
            return Snapshot(searches: state.searches, withoutResults: state.withoutResults, topWithoutResults: Array(top))
        }
    }

    /// Report order: more searches first, then by query (code point order).
    private static func precedes(_ a: (query: String, count: Int), _ b: (query: String, count: Int)) -> Bool {
        a.count != b.count ? a.count > b.count : a.query.utf8.lexicographicallyPrecedes(b.query.utf8)
    }

    /// `query` as it is counted: its folded words joined by single spaces, cut to `maxQueryBytes`
    /// at a word's end when one fits.
    static func key(of query: String) -> String {
        var key = ""
        for run in SearchWordScanner.runs(in: query) {
            let added = (key.isEmpty ? 0 : 1) + run.text.utf8.count
            guard key.utf8.count + added <= maxQueryBytes else { break }
            if !key.isEmpty { key += " " }
            key += run.text
        }
        return key
    }
}
