import CSQLite
import Dispatch
import Foundation
import XCTest
@testable import ShopAPI

/// Writes stopped by their call's interruption: either nothing is written and the error is
/// `.interrupted`, or the write committed and returns its result. On every store.
final class WriteInterruptionStoreTests: StoreContractTestCase {
    private static let productsPerUpsert = 100

    /// The countdown interrupts the upsert at its n-th look at the interruption: before it
    /// starts, between any two of its rows, right before COMMIT, or never.
    func test_upsert_interruptedAtEachPoint_writesEverythingOrNothing_andSaysWhich() throws {
        try forEachStore {
            var outcomes: [String: Int] = [:]
            for countdown in [1, 2, 3, 50, 100, 101, 102, 103, 104, 105, 106, 110, 10_000] {
                let prefix = "N\(countdown)"
                let lines = (1...Self.productsPerUpsert).map {
                    #"{"sku": "\#(prefix)-\#($0)", "name": "Item \#($0)", "category": "c", "priceCents": 100, "stock": 3}"#
                }
                let ndjson = Array(lines.map { $0 + "\n" }.joined().utf8)
                let written: Bool
                do {
                    let summary = try service.upsertProducts(ndjson: ndjson, actor: nil, interruption: CountdownInterruption(interruptedFromRead: countdown))
                    XCTAssertEqual(summary.created, Self.productsPerUpsert, "countdown \(countdown)")
                    written = true
                } catch {
                    XCTAssertEqual(error as? ShopError, .interrupted, "countdown \(countdown)")
                    written = false
                }
                outcomes[written ? "written" : "interrupted", default: 0] += 1
                let present = (1...Self.productsPerUpsert).filter { n in
                    (try? service.product(sku: "\(prefix)-\(n)", interruption: nil)) != nil
                }.count
                XCTAssertEqual(present, written ? Self.productsPerUpsert : 0, "countdown \(countdown): all or nothing")
                let ledgerRows = try service.ledger().filter { $0.sku.hasPrefix(prefix + "-") }.count
                XCTAssertEqual(ledgerRows, written ? Self.productsPerUpsert : 0, "countdown \(countdown): ledger rows")
            }
            XCTAssertGreaterThan(outcomes["written"] ?? 0, 0, "\(outcomes)")
            XCTAssertGreaterThan(outcomes["interrupted"] ?? 0, 0, "\(outcomes)")
        }
    }

    /// A cart write queued behind an import that holds the SQLite writer fails at once when its
    /// call is interrupted (its deadline reply does not wait for the import), and never runs.
    func test_sqliteWriteWaitingForTheWriter_interrupted_failsAtOnce_andNeverRuns() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("queued-write-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("shop.sqlite").path
        let service = try ShopService.open(path: path, creation: .demoCatalog)
        let importReading = DispatchSemaphore(value: 0)
        let releaseImport = DispatchSemaphore(value: 0)
        let importDone = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            var source = BlockingRowSource(started: importReading, release: releaseImport)
            _ = try? service.importCatalog(from: &source, options: CatalogImportOptions())
            importDone.signal()
        }
        XCTAssertEqual(importReading.wait(timeout: .now() + 30), .success)
        // The file is read on a thread of its own, so the import may not hold the writer yet:
        // wait until its transaction holds the store's write lock.
        eventuallyTrue { Self.writeLockIsHeld(path) }

        let interruption = TestInterruption()
        let outcome = ResultBox<Cart>()
        service.addToCart(cartId: "queued", sku: "SKU-0001", quantity: 1, interruption: interruption) { outcome.record($0) }
        interruption.interrupt()
        XCTAssertTrue(outcome.wait(), "answered while the import still holds the writer")
        XCTAssertEqual(outcome.result?.failure, .interrupted)
        XCTAssertEqual(interruption.activeHandlerCount, 0)

        releaseImport.signal()
        XCTAssertEqual(importDone.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(try service.cart(id: "queued", interruption: nil).lines, [], "the write never ran")
        XCTAssertEqual(service.addToCartAndWait("queued", "SKU-0001", 1).map(\.lines.count), .success(1), "the writer goes on")
    }

    /// Whether another connection finds the store's write lock taken (BEGIN IMMEDIATE busy at once).
    private static func writeLockIsHeld(_ path: String) -> Bool {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK, let handle else { return false }
        defer { sqlite3_close_v2(handle) }
        sqlite3_busy_timeout(handle, 0)
        let code = sqlite3_exec(handle, "BEGIN IMMEDIATE", nil, nil, nil)
        if code == SQLITE_OK { sqlite3_exec(handle, "ROLLBACK", nil, nil, nil) }
        return code & 0xFF == SQLITE_BUSY
    }

    private func eventuallyTrue(timeout: TimeInterval = 30, file: StaticString = #filePath, line: UInt = #line, _ condition: () -> Bool) {
        let limit = Date().addingTimeInterval(timeout)
        while !condition() {
            if Date() > limit { return XCTFail("condition not met in \(timeout) s", file: file, line: line) }
            usleep(1000)
        }
    }
}

/// An import's rows whose first `nextRow` blocks until released, so the import holds the
/// store's writer meanwhile.
private struct BlockingRowSource: CatalogRowSource {
    let started: DispatchSemaphore
    let release: DispatchSemaphore
    private var handedOut = false

    init(started: DispatchSemaphore, release: DispatchSemaphore) {
        self.started = started
        self.release = release
    }

    mutating func nextRow() throws -> CatalogRow? {
        guard !handedOut else { return nil }
        handedOut = true
        started.signal()
        release.wait()
        return CatalogRow(line: 1, sku: "SKU-0002")
    }

    var hasErrors: Bool { false }
    mutating func reportError(line: Int, field: String, message: String) {}
    var bytesRead: Int { 0 }
}
