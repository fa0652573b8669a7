import Dispatch

/// Reads an import's rows on a thread of its own, a few batches ahead of the store that writes
/// them, so that reading and checking the file (the reader's work) and writing the store (the
/// store's) run at the same time on two cores instead of one after the other. Memory stays
/// bounded: at most `maxQueuedBatches` batches of `batchSize` rows wait.
///
/// Ownership: `run` moves the caller's source to the reading thread and back into the caller's
/// variable before it returns normally; the store sees a `Prefetched` source that takes rows from
/// the queue and keeps the errors the store reports, which `run` then hands to the real source
/// once it has read everything. If the store throws,
/// reading stops at the next batch and `run` rethrows without waiting for the reading thread
/// (which may be blocked in a read of stdin); the caller's source is then not given back.
///
/// Thread-safe: the queue and the flags are guarded by `condition`; the source is touched only
/// by the reading thread until it has finished, then only by the caller's.
final class CatalogRowPrefetcher<Source: CatalogRowSource>: @unchecked Sendable {  // state guarded by `condition`; `source` handed over once
    static var batchSize: Int { 512 }
    static var maxQueuedBatches: Int { 8 }

    /// What the reading thread hands over: rows, and the source's state after reading them.
    fileprivate struct Batch {
        var rows: [CatalogRow]
        var bytesRead: Int
        var sourceHasErrors: Bool
    }

    private let condition = PoolCondition()
    /// Guarded by `condition`.
    private var queue: [Batch] = []
    private var readingFinished = false
    private var readingFailure: (any Error)?
    private var stopReading = false
    /// Owned by the reading thread until `readingFinished`.
    private var source: Source

    private init(source: Source) {
        self.source = source
    }

    /// Runs `body` with a source that reads `source` ahead on another thread; afterwards
    /// `source` holds what it would hold had `body` read it directly, the errors `body` reported
    /// included.
    static func run<T>(_ source: inout Source, _ body: (inout Prefetched) throws -> T) throws -> T {
        let prefetcher = CatalogRowPrefetcher(source: source)
        DispatchQueue.global().async { prefetcher.readAllOnReadingThread() }
        var prefetched = Prefetched(prefetcher: prefetcher)
        let value: T
        do {
            value = try body(&prefetched)
        } catch {
            prefetcher.abandon()
            throw error
        }
        source = prefetcher.waitForReadingToFinish()
        for error in prefetched.reportedErrors {
            source.reportError(line: error.line, field: error.field, message: error.message)
        }
        return value
    }

    // MARK: - The reading thread

    private func readAllOnReadingThread() {
        var batch: [CatalogRow] = []
        batch.reserveCapacity(Self.batchSize)
        do {
            while let row = try source.nextRow() {
                batch.append(row)
                if batch.count == Self.batchSize {
                    guard hand(Batch(rows: batch, bytesRead: source.bytesRead, sourceHasErrors: source.hasErrors)) else { return }
                    batch.removeAll(keepingCapacity: true)
                }
            }
            _ = hand(Batch(rows: batch, bytesRead: source.bytesRead, sourceHasErrors: source.hasErrors))
            finishReading(failure: nil)
        } catch {
            finishReading(failure: error)
        }
    }

    /// Queues `batch`, waiting while the queue is full; false when the store has stopped.
    private func hand(_ batch: Batch) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while queue.count >= Self.maxQueuedBatches && !stopReading { condition.wait() }
        guard !stopReading else { return false }
        queue.append(batch)
        condition.broadcast()
        return true
    }

    private func finishReading(failure: (any Error)?) {
        condition.lock()
        readingFinished = true
        readingFailure = failure
        condition.broadcast()
        condition.unlock()
    }

    // MARK: - The store's thread

    /// The next batch; nil once every row was handed out. Rethrows a reading failure.
    fileprivate func nextBatch() throws -> Batch? {
        condition.lock()
        defer { condition.unlock() }
        while queue.isEmpty && !readingFinished { condition.wait() }
        if !queue.isEmpty {
            let batch = queue.removeFirst()
            condition.broadcast()
            return batch
        }
        if let readingFailure { throw readingFailure }
        return nil
    }

    private func abandon() {
        condition.lock()
        stopReading = true
        condition.broadcast()
        condition.unlock()
    }

    private func waitForReadingToFinish() -> Source {
        condition.lock()
        while !readingFinished { condition.wait() }
        condition.unlock()
        return source
    }

    // MARK: - The source the store reads

    /// The rows of the prefetched source, for the store; the errors it reports are kept for the
    /// real source. One thread: the store's.
    struct Prefetched: CatalogRowSource {
        fileprivate let prefetcher: CatalogRowPrefetcher
        private var rows: [CatalogRow] = []
        private var next = 0
        private var sourceHasErrors = false
        private(set) var bytesRead = 0
        fileprivate private(set) var reportedErrors: [(line: Int, field: String, message: String)] = []
        private var finished = false

        fileprivate init(prefetcher: CatalogRowPrefetcher) {
            self.prefetcher = prefetcher
        }

        mutating func nextRow() throws -> CatalogRow? {
            while next == rows.count {
                guard !finished, let batch = try prefetcher.nextBatch() else {
                    finished = true
                    return nil
                }
                rows = batch.rows
                next = 0
                sourceHasErrors = batch.sourceHasErrors
                bytesRead = batch.bytesRead
            }
            defer { next += 1 }
            return rows[next]
        }

        var hasErrors: Bool { sourceHasErrors || !reportedErrors.isEmpty }

        mutating func reportError(line: Int, field: String, message: String) {
            reportedErrors.append((line, field, message))
        }
    }
}
