import XCTest
@testable import ShopAPI

/// `ShopService.importCatalog` on both stores: the rules for each row, all or nothing, the
/// summary, the currency, a dry run, and what search sees afterwards.
final class CatalogImportTests: StoreContractTestCase {
    // MARK: - A store created by import

    func test_importIntoEmptyStore_createsExactlyTheFile_withDefaults_inFileOrder() throws {
        try forEachStore(creation: .empty) {
            XCTAssertEqual(try service.allProducts(), [], "an import-created store starts empty")
            let rows = [
                newRow("B-2", line: 2, name: "Walnut Desk Lamp", category: "lighting", priceCents: 4500, stock: 7, description: "Warm light"),
                newRow("A-1", line: 3, name: "Oak Desk", category: "furniture", priceCents: 25000),
                newRow("C-3", line: 5, name: "Desk Mat", category: "office", priceCents: 0, stock: 0),
            ]
            let (outcome, errors) = try service.importRows(rows)
            XCTAssertEqual(errors, [])
            XCTAssertTrue(outcome.committed)
            XCTAssertEqual(outcome.summary.withoutWarnings, CatalogImportSummary(rows: 3, created: 3, updated: 0, unchanged: 0, archived: 0, stockSet: 2))
            XCTAssertEqual(outcome.summary.warnings.map(\.kind), [.newProductsWithoutStock])
            XCTAssertEqual(outcome.summary.warnings.map(\.lines), [[3]])
            XCTAssertEqual(try service.allProducts(), [
                Product(sku: "B-2", name: "Walnut Desk Lamp", description: "Warm light", category: "lighting", priceCents: 4500, currency: "USD"),
                Product(sku: "A-1", name: "Oak Desk", description: "", category: "furniture", priceCents: 25000, currency: "USD"),
                Product(sku: "C-3", name: "Desk Mat", description: "", category: "office", priceCents: 0, currency: "USD"),
            ], "listed in file order (catalog order), not SKU order")
            XCTAssertEqual(try service.checkInventory(skus: ["A-1", "B-2", "C-3"], interruption: nil).levels.map(\.available), [0, 7, 0])
            // Search: catalog order is file order.
            XCTAssertEqual(try service.searchItems("desk", limit: 10).map(\.sku), ["B-2", "A-1", "C-3"])
        }
    }

    func test_storeCreatedByImport_takesTheCurrencyOfTheFirstRow_andRefusesAnother() throws {
        try forEachStore(creation: .empty) {
            let rows = [
                newRow("E-1", line: 2, currency: "EUR", stock: 5),
                newRow("E-2", line: 3),
                newRow("E-3", line: 4, currency: "USD"),
            ]
            let (outcome, errors) = try service.importRows(rows)
            XCTAssertFalse(outcome.committed)
            XCTAssertEqual(errors, [RowListSource.Error(line: 4, field: "currency", message: "USD is not the store's currency, EUR: a store sells in one currency")])
            XCTAssertEqual(try service.allProducts(), [], "nothing was written")

            let (retry, retryErrors) = try service.importRows(Array(rows.prefix(2)))
            XCTAssertEqual(retryErrors, [])
            XCTAssertTrue(retry.committed)
            XCTAssertEqual(try service.product(sku: "E-2", interruption: nil).currency, "EUR", "a row without currency gets the store's")
            let cart = try service.addToCartAndWait("c", "E-1", 2).get()
            XCTAssertEqual(cart.currency, "EUR")
            XCTAssertEqual(try service.placeOrderAndWait("c", key: "k").get().currency, "EUR")
            XCTAssertEqual(try service.cart(id: "empty", interruption: nil).currency, "EUR")
        }
    }

    func test_demoStore_sellsInUSD_andARowInAnotherCurrencyIsAnError() throws {
        try forEachStore {
            let (outcome, errors) = try service.importRows([
                CatalogRow(line: 2, sku: "SKU-0001", priceCents: 100, currency: "GBP"),
                newRow("NEW-1", line: 3, currency: "JPY"),
            ])
            XCTAssertFalse(outcome.committed)
            XCTAssertEqual(errors.map(\.line), [2, 3])
            XCTAssertEqual(errors.map(\.field), ["currency", "currency"])
            XCTAssertEqual(try service.product(sku: "SKU-0001", interruption: nil).priceCents, 2595, "unchanged")
        }
    }

    // MARK: - Rules for each row

    func test_newSku_needsNameCategoryAndPrice_eachMissingFieldIsAnErrorOnItsLine() throws {
        try forEachStore {
            let rows = [
                newRow("NEW-1", line: 2),
                CatalogRow(line: 3, sku: "NEW-2", category: "tools", priceCents: 5),
                CatalogRow(line: 4, sku: "NEW-3", name: "Thing"),
                CatalogRow(line: 9, sku: "SKU-0002", stock: 3),
            ]
            let (outcome, errors) = try service.importRows(rows)
            XCTAssertFalse(outcome.committed)
            XCTAssertEqual(errors, [
                RowListSource.Error(line: 3, field: "name", message: "NEW-2 is not in the store, and a new product needs a name"),
                RowListSource.Error(line: 4, field: "category", message: "NEW-3 is not in the store, and a new product needs a category"),
                RowListSource.Error(line: 4, field: "priceCents", message: "NEW-3 is not in the store, and a new product needs a priceCents"),
            ])
            XCTAssertThrowsError(try service.product(sku: "NEW-1", interruption: nil), "the good row before the errors was not written")
            XCTAssertEqual(try service.available("SKU-0002"), 61, "nor the one after")
        }
    }

    func test_existingSku_givenFieldsSetIt_absentFieldsKeepIt_andTheSummaryCountsEachKind() throws {
        try forEachStore {
            let before = try service.product(sku: "SKU-0002", interruption: nil)
            let sameName = try service.product(sku: "SKU-0008", interruption: nil).name
            let rows = [
                CatalogRow(line: 2, sku: "SKU-0002", priceCents: 999),
                CatalogRow(line: 3, sku: "SKU-0008", name: sameName, stock: 1061),
                CatalogRow(line: 4, sku: "SKU-0013", stock: 0),
                CatalogRow(line: 5, sku: "SKU-0014", description: "New words"),
                newRow("NEW-9", line: 6, stock: nil),
            ]
            let (outcome, errors) = try service.importRows(rows)
            XCTAssertEqual(errors, [])
            XCTAssertTrue(outcome.committed)
            // SKU-0002 and SKU-0014 change; SKU-0008 keeps its fields (stock changes); SKU-0013's
            // stock is already 0; NEW-9 is new without stock.
            XCTAssertEqual(outcome.summary.withoutWarnings, CatalogImportSummary(rows: 5, created: 1, updated: 2, unchanged: 2, archived: 0, stockSet: 1))
            XCTAssertEqual(outcome.summary.warnings.map(\.kind), [.newProductsWithoutStock])
            XCTAssertEqual(outcome.summary.warnings.map(\.lines), [[6]], "NEW-9 starts at 0: said so")
            let after = try service.product(sku: "SKU-0002", interruption: nil)
            XCTAssertEqual(after, Product(sku: before.sku, name: before.name, description: before.description, category: before.category,
                                          priceCents: 999, currency: "USD"))
            XCTAssertEqual(try service.available("SKU-0002"), 61, "stock not given: kept")
            XCTAssertEqual(try service.available("SKU-0008"), 1061)
            XCTAssertEqual(try service.product(sku: "SKU-0014", interruption: nil).description, "New words")
            XCTAssertEqual(try service.available("NEW-9"), 0, "a new product without stock has none")
            XCTAssertEqual(try service.allProducts().count, 241)
        }
    }

    func test_reimportingTheExport_changesNothing() throws {
        try forEachStore {
            let exported = try service.exportedProducts()
            XCTAssertEqual(exported.count, 240)
            let rows = exported.enumerated().map { index, entry in
                CatalogRow(line: index + 2, sku: entry.0.sku, name: entry.0.name, description: entry.0.description, category: entry.0.category,
                           priceCents: entry.0.priceCents, currency: entry.0.currency, stock: entry.1)
            }
            let (outcome, errors) = try service.importRows(rows, replace: true)
            XCTAssertEqual(errors, [])
            XCTAssertEqual(outcome.summary, CatalogImportSummary(rows: 240, created: 0, updated: 0, unchanged: 240, archived: 0, stockSet: 0))
            XCTAssertEqual(try service.exportedProducts().map(\.0), exported.map(\.0))
        }
    }

    // MARK: - All or nothing

    func test_anErrorTheFileReaderFound_writesNothing_evenWhenEveryRowGivenWasGood() throws {
        try forEachStore {
            let rows = (0..<3000).map { newRow("BULK-\($0)", line: $0 + 2, stock: 4) }
            let fileError = RowListSource.Error(line: 2500, field: "priceCents", message: "-1 is negative")
            let (outcome, errors) = try service.importRows(rows, replace: true, fileErrors: [fileError])
            XCTAssertFalse(outcome.committed)
            XCTAssertEqual(errors, [fileError])
            XCTAssertEqual(try service.allProducts().count, 240)
            XCTAssertEqual(try service.searchItems("product", limit: 10), [], "nor indexed")
            XCTAssertEqual(try service.available("SKU-0002"), 61)
        }
    }

    func test_dryRun_countsWhatTheImportWouldDo_andWritesNothing() throws {
        try forEachStore {
            let rows = [CatalogRow(line: 2, sku: "SKU-0002", priceCents: 1), newRow("NEW-1", line: 3, stock: 2)]
            let (dry, dryErrors) = try service.importRows(rows, replace: true, dryRun: true)
            XCTAssertEqual(dryErrors, [])
            XCTAssertFalse(dry.committed)
            XCTAssertEqual(dry.summary, CatalogImportSummary(rows: 2, created: 1, updated: 1, unchanged: 0, archived: 239, stockSet: 1))
            XCTAssertEqual(try service.allProducts().count, 240)
            XCTAssertEqual(try service.product(sku: "SKU-0002", interruption: nil).priceCents, 16749)

            let (real, _) = try service.importRows(rows, replace: true)
            XCTAssertTrue(real.committed)
            XCTAssertEqual(real.summary, dry.summary, "the dry run said what the import does")
        }
    }

    func test_dryRun_stillReportsEveryRowError() throws {
        try forEachStore {
            let (outcome, errors) = try service.importRows([CatalogRow(line: 7, sku: "NEW-1", priceCents: 1)], dryRun: true)
            XCTAssertFalse(outcome.committed)
            XCTAssertEqual(errors.map(\.field), ["name", "category"])
            XCTAssertEqual(errors.map(\.line), [7, 7])
        }
    }

    // MARK: - Replace and archive

    func test_replace_archivesWhatTheFileDoesNotList_outOfListingSearchAndGet() throws {
        try forEachStore {
            let kept = ["SKU-0002", "SKU-0008"]
            let (outcome, errors) = try service.importRows(kept.enumerated().map { CatalogRow(line: $0 + 2, sku: $1) }, replace: true)
            XCTAssertEqual(errors, [])
            XCTAssertEqual(outcome.summary, CatalogImportSummary(rows: 2, created: 0, updated: 0, unchanged: 2, archived: 238, stockSet: 0))
            XCTAssertEqual(try service.allProducts().map(\.sku), kept)
            XCTAssertEqual(try service.listCatalog(cursor: nil, limit: 10, category: "coffee", interruption: nil).items.map(\.sku), kept)
            XCTAssertEqual(try service.listCatalog(cursor: nil, limit: 10, category: "books", interruption: nil).items, [])
            XCTAssertEqual(try service.searchItems("classic", limit: 200).map(\.sku), ["SKU-0002"])
            XCTAssertThrowsError(try service.product(sku: "SKU-0001", interruption: nil)) {
                XCTAssertEqual($0 as? ShopError, .notFound(entity: "product", id: "SKU-0001"))
            }
            XCTAssertThrowsError(try service.checkInventory(skus: ["SKU-0001"], interruption: nil))
            XCTAssertEqual(service.addToCartAndWait("c", "SKU-0001", 1).failure, .notFound(entity: "product", id: "SKU-0001"))
            XCTAssertEqual(try service.exportedProducts().map(\.0.sku), kept)
        }
    }

    func test_replace_cartHoldingAnArchivedProduct_cannotBeOrdered_andStoredOrdersKeepTheirLines() throws {
        try forEachStore {
            let placed = try service.addToCartAndWait("old", "SKU-0001", 2).flatMap { _ in service.placeOrderAndWait("old", key: "k-old") }.get()
            _ = try service.addToCartAndWait("c", "SKU-0002", 1).get()
            _ = try service.addToCartAndWait("c", "SKU-0001", 1).get()
            _ = try service.importRows([CatalogRow(line: 2, sku: "SKU-0002")], replace: true)

            XCTAssertEqual(service.placeOrderAndWait("c", key: "k").failure, .notFound(entity: "product", id: "SKU-0001"))
            XCTAssertEqual(try service.available("SKU-0002"), 61, "the failed order took no stock")
            XCTAssertEqual(try service.cart(id: "c", interruption: nil).lines.map(\.sku), ["SKU-0002", "SKU-0001"], "the cart keeps its lines")
            XCTAssertEqual(try service.order(id: placed.orderId, interruption: nil), placed, "a stored order keeps its lines")
            _ = try service.removeFromCartAndWait("c", "SKU-0001").get()
            XCTAssertEqual(try service.placeOrderAndWait("c", key: "k").get().lines.map(\.sku), ["SKU-0002"])
        }
    }

    func test_archivedProduct_listedAgain_comesBack_withItsStockAndPlaceInCatalogOrder() throws {
        try forEachStore {
            let stock = try service.available("SKU-0001")
            _ = try service.importRows([CatalogRow(line: 2, sku: "SKU-0002")], replace: true)
            let (outcome, errors) = try service.importRows([CatalogRow(line: 2, sku: "SKU-0001", name: "Renamed Tome")])
            XCTAssertEqual(errors, [])
            XCTAssertEqual(outcome.summary, CatalogImportSummary(rows: 1, created: 0, updated: 1, unchanged: 0, archived: 0, stockSet: 0))
            XCTAssertEqual(try service.product(sku: "SKU-0001", interruption: nil).name, "Renamed Tome")
            XCTAssertEqual(try service.available("SKU-0001"), stock, "stock kept while archived")
            XCTAssertEqual(try service.allProducts().map(\.sku), ["SKU-0001", "SKU-0002"])
            XCTAssertEqual(try service.searchItems("tome", limit: 10).map(\.sku), ["SKU-0001"])
            XCTAssertEqual(try service.searchItems("books", limit: 10).map(\.sku), ["SKU-0001"])
            // Listed again unchanged: it still comes back (an update).
            _ = try service.importRows([CatalogRow(line: 2, sku: "SKU-0002")], replace: true)
            let (again, _) = try service.importRows([CatalogRow(line: 2, sku: "SKU-0001")])
            XCTAssertEqual(again.summary.updated, 1)
            XCTAssertEqual(try service.searchItems("renamed", limit: 10).map(\.sku), ["SKU-0001"])
        }
    }

    // MARK: - Search after an import

    func test_afterAnImport_searchFindsTheNewNames_andNotTheOldOnes() throws {
        try forEachStore {
            XCTAssertFalse(try service.searchItems("espresso", limit: 200).isEmpty)
            let espressos = try service.searchItems("espresso", limit: 200)
            let rows = espressos.enumerated().map {
                CatalogRow(line: $0 + 2, sku: $1.sku, name: "Ristretto Roast \($0)", description: "Short and strong.")
            }
            let (outcome, _) = try service.importRows(rows)
            XCTAssertEqual(outcome.summary.updated, espressos.count)
            XCTAssertEqual(try service.searchItems("espresso", limit: 200), [])
            XCTAssertEqual(try service.searchItems("ristr", limit: 200).map(\.sku), espressos.map(\.sku), "in catalog order, equally ranked")
            XCTAssertEqual(Set(try service.searchItems("short strong", limit: 200).map(\.sku)), Set(espressos.map(\.sku)))
        }
    }

    func test_aPrefixFindsEveryProductWithAWordBeginningWithIt_noCap() throws {
        try forEachStore(creation: .empty) {
            // 100 products, each with one word "zeta000" … "zeta099", in reverse order of the words.
            let rows = (0..<100).reversed().enumerated().map { line, number in
                newRow(String(format: "Z-%03d", number), line: line + 2, name: String(format: "Zeta%03d", number), category: "greek")
            }
            _ = try service.importRows(rows)
            let page = try service.searchProducts(ProductSearchRequest(query: "zeta", limit: 200), interruption: nil)
            XCTAssertEqual(page.total, 100)
            XCTAssertEqual(page.items.map(\.sku), (0..<100).reversed().map { String(format: "Z-%03d", $0) }, "in catalog (file) order")
            XCTAssertEqual(try service.searchItems("zeta099", limit: 200).map(\.sku), ["Z-099"])
            XCTAssertEqual(try service.searchItems("zeta09", limit: 200).count, 10)
        }
    }

    func test_progress_isReportedWhileReading_andOnceBeforeCommitting() throws {
        try forEachStore(creation: .empty) {
            var source = RowListSource((0..<3000).map { newRow("P-\($0)", line: $0 + 2) })
            var reports: [CatalogImportProgress] = []
            _ = try service.importCatalog(from: &source, options: CatalogImportOptions()) { reports.append($0) }
            XCTAssertEqual(reports.map(\.rows), [1024, 2048, 3000])
            XCTAssertEqual(reports.map(\.finishing), [false, false, true])
            XCTAssertEqual(reports.last?.bytesRead, 3000)
        }
    }

    // MARK: - Export

    func test_exportOrders_oldestFirst_withTheirLines_since() throws {
        try forEachStore {
            let first = try service.addToCartAndWait("a", "SKU-0002", 2).flatMap { _ in service.placeOrderAndWait("a", key: "1") }.get()
            _ = try service.addToCartAndWait("b", "SKU-0008", 1).get()
            _ = try service.addToCartAndWait("b", "SKU-0002", 3).get()
            let second = try service.placeOrderAndWait("b", key: "2").get()
            var exported: [Order] = []
            try service.exportOrders(since: nil) { exported.append($0) }
            XCTAssertEqual(exported, [first, second])
            var later: [Order] = []
            try service.exportOrders(since: OrderTime(iso8601: second.createdAt)) { later.append($0) }
            XCTAssertEqual(later.last, second)
            XCTAssertTrue(later.allSatisfy { $0.createdAt >= second.createdAt })
            var none: [Order] = []
            try service.exportOrders(since: OrderTime(iso8601: "9999-01-01")) { none.append($0) }
            XCTAssertEqual(none, [])
        }
    }

    func test_orderTime_acceptsISO8601DateTimesAndDates() {
        XCTAssertEqual(OrderTime(iso8601: "2026-11-23T10:00:00Z")?.stamp, "2026-11-23T10:00:00.000Z")
        XCTAssertEqual(OrderTime(iso8601: "2026-11-23T11:00:00.250+01:00")?.stamp, "2026-11-23T10:00:00.250Z")
        XCTAssertEqual(OrderTime(iso8601: "2026-11-23")?.stamp, "2026-11-23T00:00:00.000Z")
        XCTAssertNil(OrderTime(iso8601: "yesterday"))
        XCTAssertNil(OrderTime(iso8601: "2026-13-45"))
    }
}

extension CatalogImportSummary {
    /// The counts alone, for comparing them with a summary built in a test.
    var withoutWarnings: CatalogImportSummary {
        var summary = self
        summary.warnings = []
        return summary
    }
}
