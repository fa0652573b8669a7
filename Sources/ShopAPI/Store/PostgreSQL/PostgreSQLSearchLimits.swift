/// The bounds of a PostgreSQL search's steps (`PostgreSQLShopTransaction.searchProducts`): how
/// many products in catalog order the first step checks, and how many matches the second fetches
/// from the GIN index. The defaults keep each step to a few milliseconds at a million products;
/// tests set tiny ones to take every step on a small catalog. Immutable value; `Sendable`.
struct PostgreSQLSearchLimits: Sendable {
    /// (row, word) pairs the first step checks at most: 10 000 rows for a one-word query.
    var rowWordChecks = 10_000
    /// Rows the first step checks at least, however many words.
    var minimumRowsToCheck = 1_000
    /// Matches the second step fetches at most.
    var matchesToFetch = 2_000

    /// Rows the first step checks for a query of `words` words in all (each row is checked against each).
    func rowsToCheck(words: Int) -> Int {
        max(minimumRowsToCheck, rowWordChecks / max(1, words))
    }
}
