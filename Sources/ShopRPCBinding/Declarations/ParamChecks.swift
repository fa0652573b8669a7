import RPCServer

/// The checks params members share, each a -32602 naming the member. Stateless.
enum ParamChecks {
    /// Longest identifier, in UTF-8 bytes.
    static let maxIdentifierBytes = 256

    static func identifier(_ value: String, _ field: String) throws(RPCError) {
        guard !value.isEmpty else { throw .invalidParams("'\(field)' must be a non-empty string", field: field) }
        guard value.utf8.count <= maxIdentifierBytes else {
            throw .invalidParams("'\(field)' must be at most \(maxIdentifierBytes) bytes", field: field)
        }
    }

    /// `value` in `range` (compared as a range, never through `abs`, so every Int is safe) and not
    /// `excluded`; with `checkingUpperBound` false, only the lower bound.
    static func integer(_ value: Int, _ field: String, _ range: ClosedRange<Int>, excluding excluded: Int?,
                        checkingUpperBound: Bool) throws(RPCError) {
        let allowed = checkingUpperBound ? range.contains(value) : value >= range.lowerBound
        guard allowed, value != excluded else {
            if !checkingUpperBound { throw .invalidParams("'\(field)' must be at least \(range.lowerBound)", field: field) }
            if excluded == 0 {
                throw .invalidParams("'\(field)' must be a non-zero integer between \(range.lowerBound) and \(range.upperBound)", field: field)
            }
            if let excluded {
                throw .invalidParams("'\(field)' must be between \(range.lowerBound) and \(range.upperBound), and not \(excluded)", field: field)
            }
            throw .invalidParams("'\(field)' must be between \(range.lowerBound) and \(range.upperBound)", field: field)
        }
    }
}
