/// What one candidate product has of a query: everything `SearchRanking` needs, and nothing
/// store-specific, so both stores (or the Swift side, from the fields they return,
/// `SearchDocumentMatcher`) feed the ranking the same facts and get the same order.
///
/// Guarantees: `hits` holds at most `maxHitsPerWordAndField` hits for each (query word, field),
/// the first ones in position order; `termFrequencies` counts all of them. Value type; `Sendable`.
struct SearchMatchFacts: Sendable {
    /// One place where a query word matched.
    struct Hit: Equatable, Sendable {
        var word: Int
        var field: SearchField
        var position: Int
        var endPosition: Int
        var kind: SearchMatchKind
        var typos: Int
    }

    static let maxHitsPerWordAndField = 4

    /// The product's place in catalog order: the last tie-break.
    var catalogPosition: Int
    /// Whether the product's SKU or handle is the query (`SearchQuery.isIdentifier`).
    var isIdentifierMatch = false
    /// Whether the product's name is the query's words, in order, each as typed.
    var nameIsQuery = false
    var hits: [Hit] = []
    /// Per field (`SearchField.rawValue`): how many positions it has.
    var fieldLengths = [Int](repeating: 0, count: SearchField.allCases.count)
    /// Per query word, per field: how many tokens matched it.
    var termFrequencies: [[Int]]

    init(catalogPosition: Int, wordCount: Int) {
        self.catalogPosition = catalogPosition
        termFrequencies = Array(repeating: Array(repeating: 0, count: SearchField.allCases.count), count: wordCount)
    }

    /// Records a hit (counted always, kept when the (word, field) pair has room).
    mutating func add(_ hit: Hit) {
        termFrequencies[hit.word][Int(hit.field.rawValue)] += 1
        if termFrequencies[hit.word][Int(hit.field.rawValue)] <= Self.maxHitsPerWordAndField {
            hits.append(hit)
        }
    }

    /// The query words with at least one hit.
    var matchedWords: Set<Int> { Set(hits.map(\.word)) }
}
