/// The progress line `shop-rpc import` draws on a terminal: rows read, rows a second, and how much
/// of the file is read when its size is known (`1234567 rows, 81234 rows/s, 42% of the file`),
/// redrawn at most every `minimumRedrawNanoseconds`. Pure value on an injected clock (nanoseconds
/// since any fixed moment), so it is tested without waiting; one thread.
package struct CatalogImportProgressLine {
    /// 100 ms: at most ten redraws a second.
    package static let minimumRedrawNanoseconds: UInt64 = 100_000_000

    private let startedAt: UInt64
    private let totalBytes: Int?
    private let verb: String
    private var lastDrawnAt: UInt64?

    /// `totalBytes`: the file's size, when it is a regular file. `dryRun` changes the last word.
    package init(startedAt: UInt64, totalBytes: Int?, dryRun: Bool) {
        self.startedAt = startedAt
        self.totalBytes = totalBytes.flatMap { $0 > 0 ? $0 : nil }
        verb = dryRun ? "checking" : "committing"
    }

    /// The line to draw for `progress` at `now`, or nil when the last one was drawn less than
    /// `minimumRedrawNanoseconds` ago. The finishing report is always drawn.
    package mutating func update(_ progress: CatalogImportProgress, now: UInt64) -> String? {
        if !progress.finishing, let last = lastDrawnAt, now &- last < Self.minimumRedrawNanoseconds { return nil }
        lastDrawnAt = now
        let elapsed = Double(now &- startedAt) / 1e9
        let rate = elapsed > 0 ? Int((Double(progress.rows) / elapsed).rounded()) : 0
        var text = "\(progress.rows) rows, \(rate) rows/s"
        if let totalBytes {
            text += ", \(min(100, progress.bytesRead * 100 / totalBytes))% of the file"
        }
        if progress.finishing { text += ", \(verb)" }
        return text
    }
}
