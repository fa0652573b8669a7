import Dispatch

/// An import's rows, each with the search index entry of the product it would create (what the
/// store writes for it, made by the store's `entry` function), made a batch ahead on another
/// thread while the store writes the rows before them: analysing a document is the largest part
/// of indexing a new product, and the store's thread keeps the rest. A row that cannot create a
/// product (no name or no category) has no analysis. A store that indexes a document other than
/// the row's makes that entry itself (`Analysis.entry(of:)`), so an entry made ahead is never
/// wrong, only sometimes unused.
///
/// Memory: two batches of `batchSize` rows. Used on one thread (the store's); each batch's
/// entries are made on a global queue and waited for before its rows are handed out. Errors the
/// store reports go straight to the source, while up to a batch of later rows has been read:
/// that only makes `hasErrors` true sooner.
struct AnalyzedCatalogRows<Entry: Sendable> {
    static var batchSize: Int { 256 }

    /// The document of the product a row would create, and its entry.
    struct Analysis: Sendable {
        let document: SearchDocument
        let entry: Entry

        /// `entry` when `document` is the one analysed, else nil.
        func entry(of document: SearchDocument) -> Entry? {
            document == self.document ? entry : nil
        }
    }

    /// One row, with its analysis.
    struct Row {
        var row: CatalogRow
        var analysis: Analysis?
    }

    /// A batch whose entries are made on another thread: `analyses` is written there, and read
    /// on the store's thread only after `done.wait()`.
    private final class Batch: @unchecked Sendable {  // `analyses` is handed over by `done`
        let rows: [CatalogRow]
        var analyses: [Analysis?]
        let done = DispatchGroup()

        init(rows: [CatalogRow], entry: (@Sendable (SearchDocument) -> Entry)?) {
            self.rows = rows
            analyses = Array(repeating: nil, count: rows.count)
            guard let entry else { return }
            done.enter()
            DispatchQueue.global().async { [self] in
                analyses = rows.map { row in
                    AnalyzedCatalogRows.newProductDocument(row).map { Analysis(document: $0, entry: entry($0)) }
                }
                done.leave()
            }
        }

        func wait() -> [Row] {
            done.wait()
            return zip(rows, analyses).map { Row(row: $0, analysis: $1) }
        }
    }

    /// Makes each row's entry; nil when rows are not analysed (a dry run writes no index).
    private let entry: (@Sendable (SearchDocument) -> Entry)?
    private var ready: [Row] = []
    private var nextIndex = 0
    private var ahead: Batch?
    private var started = false

    /// Rows whose entries `entry` makes ahead, when `analysing`.
    init(analysing: Bool, entry: @escaping @Sendable (SearchDocument) -> Entry) {
        self.entry = analysing ? entry : nil
    }

    /// The next row of `source` with its analysis; nil once `source` has no more rows.
    mutating func next<Source: CatalogRowSource>(from source: inout Source) throws -> Row? {
        if !started {
            started = true
            ahead = try readBatch(from: &source)
        }
        while nextIndex == ready.count {
            guard let batch = ahead else { return nil }
            // The next batch is read before waiting, so that its entries start as early as they can.
            ahead = try readBatch(from: &source)
            ready = batch.wait()
            nextIndex = 0
        }
        defer { nextIndex += 1 }
        return ready[nextIndex]
    }

    /// The next batch of `source`'s rows, its entries started; nil when there are none.
    private func readBatch<Source: CatalogRowSource>(from source: inout Source) throws -> Batch? {
        var rows: [CatalogRow] = []
        rows.reserveCapacity(Self.batchSize)
        while rows.count < Self.batchSize, let row = try source.nextRow() { rows.append(row) }
        return rows.isEmpty ? nil : Batch(rows: rows, entry: entry)
    }

    /// The search document of the product `row` creates when its SKU is new and it names no
    /// existing product (`CatalogRowMerge.merge`); nil when it lacks what a new product needs.
    static func newProductDocument(_ row: CatalogRow) -> SearchDocument? {
        guard let name = row.name, let category = row.category else { return nil }
        return SearchDocument(name: name, brand: row.brand ?? "", category: category, description: row.description ?? "",
                              sku: row.sku, handle: row.handle ?? row.sku)
    }
}
