/// One page of `catalog.search`: the matching products (one entry per product) in the asked
/// order, how many match in all, the cursor of the next page, how the query was read, and the
/// facet counts asked for. Optional members are omitted from JSON when there is nothing to say.
/// Immutable value; `Sendable`.
public struct ProductSearchPage: Codable, Sendable, Equatable {
    public let items: [CatalogItem]
    /// How many products match the query and filters, on every page: exact, unless
    /// `totalIsEstimate`.
    public let total: Int
    /// `true` when more products matched than a search ranks (`ProductSearch.rankingWindow`):
    /// `total` is then the store's count of the products having the query's words (every match,
    /// and possibly a few that the ranking would not take) up to `ProductSearch.maxCounted`, and
    /// the pages, the facets and the sorts cover the ranked products only. Absent (nil) when
    /// `total` is exact.
    public let totalIsEstimate: Bool?
    /// Opaque; pass it back with the same query, filters and sort for the next page. Absent on
    /// the last page.
    public let nextCursor: String?
    /// The query as it was read when a word was corrected (a "did you mean"); absent otherwise.
    public let readAs: String?
    /// Each corrected word and what it was read as; absent when none was.
    public let corrections: [SearchWordCorrection]?
    /// The query's words that were not required: a word no product can match, and the last words
    /// while all of them together found fewer than `ProductSearch.minimumMatches` products
    /// (Meilisearch's `matchingStrategy: last`); absent when every word was used.
    public let droppedWords: [String]?
    /// The counts asked for in `facets`, over every match (not only this page; over the ranked
    /// ones when `totalIsEstimate`).
    public let facets: ProductFacetCounts?

    public init(items: [CatalogItem], total: Int, totalIsEstimate: Bool? = nil, nextCursor: String?, readAs: String? = nil,
                corrections: [SearchWordCorrection]? = nil, droppedWords: [String]? = nil,
                facets: ProductFacetCounts? = nil) {
        self.items = items
        self.total = total
        self.totalIsEstimate = totalIsEstimate
        self.nextCursor = nextCursor
        self.readAs = readAs
        self.corrections = corrections
        self.droppedWords = droppedWords
        self.facets = facets
    }
}

/// A word of a query that no product has, and the word it was read as (fewest typos, then the
/// most products). Immutable value; `Sendable`.
public struct SearchWordCorrection: Codable, Sendable, Equatable {
    public let word: String
    public let readAs: String

    public init(word: String, readAs: String) {
        self.word = word
        self.readAs = readAs
    }
}

/// Facet counts of a search: for each field asked, its values among the matching products with
/// how many have each, most first, then by value (code point order). Immutable value; `Sendable`.
public struct ProductFacetCounts: Codable, Sendable, Equatable {
    public let category: [FacetValueCount]?
    public let brand: [FacetValueCount]?

    public init(category: [FacetValueCount]?, brand: [FacetValueCount]?) {
        self.category = category
        self.brand = brand
    }
}

/// One value of a facet and how many matching products have it. Immutable value; `Sendable`.
public struct FacetValueCount: Codable, Sendable, Equatable {
    public let value: String
    public let count: Int

    public init(value: String, count: Int) {
        self.value = value
        self.count = count
    }
}
