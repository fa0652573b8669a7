/// One word of a query that was read as another (a typo corrected), for a "did you mean".
struct SearchCorrection: Equatable, Sendable {
    var word: String
    var readAs: String
}
