/// One thing wrong with a catalog file: where (the 1-based line a CSV record or NDJSON line starts
/// on) and what, as `FILE:LINE: field: message`. `field` is a column or member name, or `header`,
/// `row` or `line` for what is wrong with the file's structure rather than with one value.
public struct CatalogFileError: Equatable, Sendable, CustomStringConvertible {
    public var line: Int
    public var field: String
    public var message: String

    public init(line: Int, field: String, message: String) {
        self.line = line
        self.field = field
        self.message = message
    }

    /// `FILE:LINE: field: message`; the file is named `-` for stdin.
    public func formatted(file: String) -> String {
        "\(file):\(line): \(field): \(message)"
    }

    public var description: String { "\(line): \(field): \(message)" }
}

/// The errors found in one file: the first `limit` kept in the order found, the rest counted.
/// A value type; the readers append to it, and the import may append its own (a new SKU without a
/// name, …) so that all of them are reported the same way.
public struct CatalogFileErrors: Sendable, Equatable {
    public private(set) var shown: [CatalogFileError] = []
    /// Errors found beyond the first `limit`.
    public private(set) var notShownCount = 0
    public let limit: Int

    public init(limit: Int = CatalogLimits.maxReportedErrors) {
        self.limit = limit
    }

    public var isEmpty: Bool { shown.isEmpty && notShownCount == 0 }
    public var count: Int { shown.count + notShownCount }

    public mutating func append(_ error: CatalogFileError) {
        if shown.count < limit { shown.append(error) } else { notShownCount += 1 }
    }

    public mutating func append(line: Int, field: String, message: String) {
        append(CatalogFileError(line: line, field: field, message: message))
    }

    /// The lines for stderr: each shown error as `FILE:LINE: field: message`, then, if some were
    /// not shown, `FILE: … and N more errors`.
    public func report(file: String) -> [String] {
        var lines = shown.map { $0.formatted(file: file) }
        if notShownCount > 0 {
            lines.append("\(file): … and \(notShownCount) more error\(notShownCount == 1 ? "" : "s")")
        }
        return lines
    }
}
