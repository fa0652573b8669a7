/// The SQLite store's search index, kept for live products only (active, first variant's
/// catalog position `product_seq`), whatever changes them (import, `--replace`, admin upsert, a
/// status change, archiving):
///
/// - `search_documents (product_seq, words)`: the vocabulary words each live product is indexed
///   under and its marked name words (`SearchIndexTerms.Indexed`), sorted, joined by single
///   spaces, so a change can take out exactly what was put in, in both
///   search modes;
/// - `search_vocabulary (word, products)`: every word of a live product with how many live
///   products have it, exact after every change (`SearchVocabulary`, typo lookup, BM25's figures);
/// - `product_words` (`.fullText` only): an FTS5 table, contentless (`content = ''`),
///   `detail = none` (which products have a term, not where), of each product's terms: its words
///   and their stem keys, marked name terms included (`SearchIndexTerms.terms`), under
///   `rowid = product_seq`; the `ascii` tokenizer with `.` and `^` as token characters splits the
///   terms at spaces and nothing else, so a term like `1.5l` or `^grinder` stays one. A prefix
///   index of 2 and 3 characters answers a last word being typed (`"pro" *`) without a cap.
enum SQLiteSearchIndex {
    static let createTable = """
        CREATE VIRTUAL TABLE product_words USING fts5(terms, content = '', detail = none, tokenize = "ascii tokenchars '.^'", prefix = '2 3')
        """

    /// How many bytes of changes FTS5 gathers in memory before it writes them as a segment
    /// (FTS5's `hashsize`; its default is 1 MiB). A large import writes fewer, larger segments
    /// and merges less: FTS5 indexes a million products' terms in 15.8 s instead of 20.1 (16 MiB:
    /// 13.9 s, but an import's peak memory would pass its 128 MB budget). Memory: only a
    /// transaction that changes this much holds it, and only until it commits.
    static let pendingChangesSize = 8 << 20

    /// Makes sure `product_words` exists and is usable, creating and filling it from
    /// `search_documents` if missing, and that it keeps `pendingChangesSize` of changes in
    /// memory. Returns `.scan` when FTS5 is unavailable (or not allowed). Call inside a write
    /// transaction.
    static func prepare(_ connection: SQLiteConnection, allowFullText: Bool) throws -> SQLiteSearchMode {
        guard allowFullText else { return .scan }
        if let mode = try existingMode(connection) {
            if mode == .fullText { try setPendingChangesSize(connection) }
            return mode
        }
        do {
            try connection.inSavepoint("search_index") {
                try connection.execute(createTable)
                try setPendingChangesSize(connection)
                try connection.forEachRow("SELECT product_seq, words FROM search_documents ORDER BY product_seq", []) { row in
                    try connection.run("INSERT INTO product_words (rowid, terms) VALUES (?1, ?2)", row.int64(0), terms(ofWords: row.text(1)))
                }
            }
            return .fullText
        } catch let error as SQLiteError where error.message.contains("no such module") {
            return .scan
        }
    }

    /// Sets FTS5's `hashsize` of `product_words` to `pendingChangesSize` unless it is already
    /// (kept in the table's configuration, so a store opened once has it).
    private static func setPendingChangesSize(_ connection: SQLiteConnection) throws {
        let current = try connection.query("SELECT v FROM product_words_config WHERE k = 'hashsize'", []) { $0.int(0) }.first
        guard current != pendingChangesSize else { return }
        try connection.run("INSERT INTO product_words (product_words, rank) VALUES ('hashsize', ?1)", pendingChangesSize)
    }

    /// How to search with the index as it is, creating nothing (a read-only store): `.fullText`
    /// when the index exists and this SQLite has FTS5, `.scan` when it exists without FTS5, nil
    /// when there is none.
    static func existingMode(_ connection: SQLiteConnection) throws -> SQLiteSearchMode? {
        let exists = try connection.query(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'product_words'", []
        ) { $0.int(0) }.first == 1
        guard exists else { return nil }
        // Present but unusable means this SQLite lacks FTS5 (the file came from elsewhere).
        return (try? connection.prepared("SELECT rowid FROM product_words LIMIT 0")) == nil ? .scan : .fullText
    }

    // MARK: - Documents

    /// What indexing a product writes: its vocabulary words, the text of `search_documents` (the
    /// words and the marked name words, sorted in code point order, joined by single spaces) and
    /// the FTS5 terms, the same as `terms(ofWords: wordsText)` (which taking it out of the index
    /// uses). Value type; `Sendable` (an import makes it ahead, `AnalyzedCatalogRows`).
    struct Entry: Sendable {
        var words: Set<String>
        var wordsText: String
        var terms: String
    }

    /// The entry of `document`, from one analysis (`SearchIndexTerms.indexed`).
    static func entry(of document: SearchDocument) -> Entry {
        let indexed = SearchIndexTerms.indexed(document)
        let stored = indexed.words.union(indexed.nameWords)
        let sorted = stored.sorted(by: SearchWordOrder.precedes)
        let stems = indexed.stems.union(indexed.nameStems).subtracting(stored)
        let terms = sorted + stems.sorted(by: SearchWordOrder.precedes)
        return Entry(words: indexed.words, wordsText: sorted.joined(separator: " "), terms: terms.joined(separator: " "))
    }

    /// The FTS5 document of a product indexed under `wordsText` (`wordsText(_:)`): the words (and
    /// marked name words), then the stem keys that are not among them (a marked word's marked),
    /// sorted: `SearchIndexTerms.terms`.
    static func terms(ofWords wordsText: String, language: SearchLanguage = .english) -> String {
        let words = wordsText.split(separator: " ").map(String.init)
        let known = Set(words)
        let stems = Set(words.compactMap { word in
            SearchIndexTerms.isNameTerm(word)
                ? language.stem(String(word.dropFirst())).map { SearchIndexTerms.nameMark + $0 }
                : language.stem(word)
        }).subtracting(known)
        return (words + stems.sorted(by: SearchWordOrder.precedes)).joined(separator: " ")
    }

    // MARK: - Queries

    /// An FTS5 query for products that satisfy every lookup (`SearchIndexTerms.satisfies`): each
    /// term a quoted string (inner quotes doubled, though terms have none), so no text is ever
    /// FTS5 syntax; a prefix is `"pro" *` (or the words of `prefixWords`), a split `("a" AND "b")`.
    static func fullTextQuery(lookups: [SearchQueryPlan.WordLookup]) -> String {
        func quoted(_ term: String) -> String { "\"" + term.replacing("\"", with: "\"\"") + "\"" }
        return lookups.map { lookup in
            // A prefix spelt out as its words: FTS5 answers `"classic" *`, a prefix longer than its
            // prefix index, by merging every such word's list before the first row.
            var options = Array(Set(lookup.words + [lookup.stemKey] + (lookup.prefixWords ?? []))).sorted(by: SearchWordOrder.precedes).map(quoted)
            if let prefix = lookup.prefix, lookup.prefixWords == nil { options.append(quoted(prefix) + " *") }
            if let split = lookup.split { options.append("(" + quoted(split.first) + " AND " + quoted(split.second) + ")") }
            return "(" + options.joined(separator: " OR ") + ")"
        }.joined(separator: " AND ")
    }
}
