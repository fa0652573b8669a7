/// The Model Context Protocol revisions this server speaks, and how one is chosen.
enum MCPVersion {
    /// The newest revision; answered when the client asks for one we do not know.
    static let latest = "2025-11-25"
    /// Every revision we accept as asked (their differences do not touch what we serve).
    static let supported: Set<String> = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]

    /// The revision to answer `initialize` with: the client's if we support it, else the latest
    /// (never an error: the client decides whether it can live with ours).
    static func negotiate(requested: String) -> String {
        supported.contains(requested) ? requested : latest
    }
}
