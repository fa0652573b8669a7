import Foundation
@testable import ShopAPI

/// The platforms' own product files in Tests/Fixtures/Platforms (their sources: the README
/// there), and what a preset makes of them.
enum PlatformFixtures {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Platforms")

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    struct Translation {
        var records: [CanonicalCatalogRecord]
        var errors: CatalogFileErrors
        var report: PlatformImportReport
        var rowsRead: Int

        /// The records of one handle, in file order.
        func variants(of handle: String) -> [CanonicalCatalogRecord] {
            records.filter { $0[.handle] == handle }
        }
    }

    /// Every record, error and count the preset makes of `bytes`, read in `chunkSizes`.
    static func translate(_ preset: CatalogPreset, _ bytes: [UInt8], options: PlatformImportOptions = PlatformImportOptions(),
                          chunkSizes: [Int] = []) -> Translation {
        var translator = PlatformCatalogTranslator(preset: preset, options: options, source: MemorySource(bytes, chunkSizes: chunkSizes))
        var records: [CanonicalCatalogRecord] = []
        while let record = try! translator.next() { records.append(record) }
        return Translation(records: records, errors: translator.errors, report: translator.report, rowsRead: translator.rowsRead)
    }

    static func translate(_ preset: CatalogPreset, text: String, options: PlatformImportOptions = PlatformImportOptions()) -> Translation {
        translate(preset, Array(text.utf8), options: options)
    }

    static func translate(_ preset: CatalogPreset, fixture name: String, options: PlatformImportOptions = PlatformImportOptions()) throws -> Translation {
        translate(preset, try bytes(name), options: options)
    }
}

extension CanonicalCatalogRecord {
    /// The record's given values by column name, for comparisons that print well.
    var fields: [String: String] {
        Dictionary(uniqueKeysWithValues: givenValues.map { ($0.column.rawValue, $0.value) })
    }
}
