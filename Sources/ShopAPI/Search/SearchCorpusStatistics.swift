/// What a corpus looks like, for the BM25F part of the ranking (`SearchRankingKey.relevance`):
/// how many products there are and the average number of positions of each field. A store keeps
/// these as counters; both stores must give the same figures for the same catalog. Value type;
/// `Sendable`.
///
/// Optional: measured on the tuning half of bench/search-quality (every product a candidate,
/// words dropped down to 20 matches), nDCG@10 was 0.957 with these statistics and 0.958 without,
/// so BM25F neither helps nor hurts there; within a bucket it puts short, focused names first
/// (`Burr Set` before a long name that also has `burr`). A store that cannot keep the counters
/// exactly alike on both backends should pass nil.
struct SearchCorpusStatistics: Sendable {
    var documentCount: Int
    /// Per field (`SearchField.rawValue`): the average number of positions (0 when no product has
    /// the field).
    var averageFieldLengths: [Double]
}
