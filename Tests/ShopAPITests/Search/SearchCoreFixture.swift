@testable import ShopAPI

/// A small catalog written as a shop writes it, and a search over it that does what a store will
/// do with the search core: a vocabulary of its words, a plan, every product's facts, the ranking.
struct SearchCoreFixture {
    static let products: [SearchDocument] = [
        SearchDocument(name: "Grinder Cleaning Brush", category: "coffee", description: "Cleans any burr grinder.", sku: "CLN-BRS-000"),
        SearchDocument(name: "Burr Set for Baratza Grinders", category: "coffee", sku: "BRZ-BUR-001"),
        SearchDocument(name: "Baratza Encore Conical Burr Coffee Grinder", brand: "Baratza", category: "coffee",
                       sku: "BRZ-ENC-001", handle: "baratza-encore"),
        SearchDocument(name: "Manual Coffee Grinder", brand: "Porlex", category: "coffee", sku: "POR-MAN-002"),
        SearchDocument(name: "Gaggia Classic Pro Espresso Machine", brand: "Gaggia", category: "coffee", sku: "GAG-CLS-003"),
        SearchDocument(name: "Dedica Espresso Machine", brand: "De'Longhi", category: "coffee", sku: "DEL-DED-004"),
        SearchDocument(name: "Ultra Facial Cream 50ml", brand: "Kiehl's", category: "beauty", sku: "KIE-UFC-005"),
        SearchDocument(name: "V60 Pour-Over Dripper", brand: "Hario", category: "coffee", sku: "HAR-V60-006"),
        SearchDocument(name: "Pour-Over Coffee Maker", brand: "Chemex", category: "coffee", sku: "CHE-POM-007"),
        SearchDocument(name: "Paper Coffee Filters for V60", brand: "Hario", category: "coffee", sku: "HAR-FLT-008"),
        SearchDocument(name: "Chef's Knife 8 inch", brand: "Victorinox", category: "kitchen", sku: "VIC-CHF-009"),
        SearchDocument(name: "Knife Block Set", brand: "Wüsthof", category: "kitchen", sku: "WUS-KBS-010"),
        SearchDocument(name: "Mineral Water 500 mL", brand: "Evian", category: "grocery", sku: "EVI-WAT-011"),
        SearchDocument(name: "Sparkling Water 500ml", brand: "Perrier", category: "grocery", sku: "PER-WAT-012"),
        SearchDocument(name: "Still Water 1.5 L", brand: "Volvic", category: "grocery", sku: "VOL-WAT-013"),
        SearchDocument(name: "PowerCore Power Bank 10000mAh", brand: "Anker", category: "electronics", sku: "ANK-PWR-014"),
        SearchDocument(name: "Colombian Whole Bean Coffee", brand: "Lavazza", category: "coffee",
                       description: "Organic, fair trade beans, medium roast.", sku: "LAV-COL-015"),
        SearchDocument(name: "Espresso Machine Descaler", category: "coffee", sku: "DSC-ESP-016"),
        SearchDocument(name: "Coffee Filter Papers Size 4", category: "coffee", sku: "FLT-PAP-017"),
        SearchDocument(name: "Whey Protein Powder 1kg", brand: "Myprotein", category: "fitness", sku: "MYP-WHY-018"),
    ]

    let products: [SearchDocument]
    let vocabulary: SearchMemoryVocabulary
    let statistics: SearchCorpusStatistics

    init(products: [SearchDocument] = Self.products) {
        self.products = products
        vocabulary = SearchMemoryVocabulary(documents: products)
        let analyzer = SearchAnalyzer()
        var totals = [Int](repeating: 0, count: SearchField.allCases.count)
        for product in products {
            for field in SearchField.allCases {
                totals[Int(field.rawValue)] += (analyzer.tokens(in: product.text(of: field), field: field).map(\.endPosition).max() ?? -1) + 1
            }
        }
        statistics = SearchCorpusStatistics(documentCount: products.count,
                                            averageFieldLengths: totals.map { Double($0) / Double(products.count) })
    }

    /// The search of `text`, every product a candidate.
    func search(_ text: String) throws -> SearchOutcome {
        let plan = try SearchQueryPlan(query: SearchQuery(text), vocabulary: vocabulary)
        return SearchOutcome.search(plan, statistics: statistics) { plan in
            products.enumerated().map { SearchDocumentMatcher.facts(of: $1, catalogPosition: $0, plan: plan) }
        }
    }

    /// The names found for `text`, best first.
    func names(_ text: String) throws -> [String] {
        try search(text).ranked.map { products[$0.facts.catalogPosition].name }
    }
}
