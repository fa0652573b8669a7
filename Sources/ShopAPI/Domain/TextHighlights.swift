/// Where a search matched an item: for its name and its description, the matched ranges as
/// UTF-16 offsets into the text (as LSP and JavaScript count), sorted and not overlapping.
/// Immutable value; `Sendable`.
public struct CatalogItemHighlights: Codable, Sendable, Equatable {
    public let name: [TextRange]
    public let description: [TextRange]

    public init(name: [TextRange], description: [TextRange]) {
        self.name = name
        self.description = description
    }
}

/// A range of UTF-16 code units, `start` included, `end` excluded. Immutable value; `Sendable`.
public struct TextRange: Codable, Sendable, Equatable {
    public let start: Int
    public let end: Int

    public init(start: Int, end: Int) {
        self.start = start
        self.end = end
    }
}
