/// Search words as PostgreSQL's text search types spell them: a `tsvector` of a product's words
/// and a `tsquery` of a search's word groups, each lexeme quoted, so the server takes them as
/// they are (no parser, no dictionary, no stemming): the index holds exactly `SearchText`'s
/// words, as SQLite's does. Words hold only letters and digits; quoting is still complete (a
/// quote doubled, a backslash escaped). Pure; thread-safe.
enum PostgreSQLWords {
    /// `'cast' 'iron' 'kitchen'`: the text of a `tsvector` holding `words`.
    static func tsvector(_ words: [String]) -> String {
        words.map(quoted).joined(separator: " ")
    }

    /// `'cast' & ('iron' | 'ironing')`: products having, for each group, one of its words.
    static func tsquery(wordGroups: [[String]]) -> String {
        wordGroups.map { group in
            group.count == 1 ? quoted(group[0]) : "(" + group.map(quoted).joined(separator: " | ") + ")"
        }.joined(separator: " & ")
    }

    /// `word` as one quoted lexeme of a `tsvector` or `tsquery`.
    static func quoted(_ word: String) -> String {
        guard word.utf8.contains(where: { $0 == UInt8(ascii: "'") || $0 == UInt8(ascii: "\\") }) else { return "'" + word + "'" }
        return "'" + word.replacing("\\", with: "\\\\").replacing("'", with: "''") + "'"
    }
}
