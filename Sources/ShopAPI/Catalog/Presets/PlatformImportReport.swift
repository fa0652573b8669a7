import SharedSupport

/// What a `--from` import did with the platform's file besides its products, as the summary
/// shows it under `platform` (protocol.md, section 9): the columns it read nothing from (each
/// once, in file order; never an error), the rows it skipped by reason, and the stock levels below
/// zero it read as 0. A value; `Sendable`.
public struct PlatformImportReport: Sendable, Equatable {
    public var preset: CatalogPreset
    /// The header's columns the preset keeps nowhere (images, SEO fields, weights…), as the file names them.
    public var ignoredColumns: [String] = []
    /// Rows skipped, by reason; every reason is present, most with 0.
    public var skippedRows: [PlatformSkipReason: Int] = [:]
    /// Variants whose stock the file gives below zero (Shopify allows overselling), imported with 0.
    public var negativeStockAsZero = 0

    public init(preset: CatalogPreset) {
        self.preset = preset
    }

    mutating func countSkipped(_ reason: PlatformSkipReason) {
        skippedRows[reason, default: 0] += 1
    }

    /// The summary's `platform` member: `{"from":"shopify","ignoredColumns":[…],"skippedRows":{…},
    /// "negativeStockAsZero":N}`, `skippedRows` naming only the reasons with rows, in a fixed order.
    public var json: String {
        var out: [UInt8] = []
        out.append(contentsOf: "{\"from\":\"\(preset.rawValue)\",\"ignoredColumns\":[".utf8)
        for (index, name) in ignoredColumns.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            JSONStringLiteral.append(name, to: &out)
        }
        out.append(contentsOf: "],\"skippedRows\":{".utf8)
        let skipped = PlatformSkipReason.allCases.compactMap { reason in skippedRows[reason].map { (reason, $0) } }.filter { $0.1 > 0 }
        out.append(contentsOf: skipped.map { "\"\($0.0.rawValue)\":\($0.1)" }.joined(separator: ",").utf8)
        out.append(contentsOf: "},\"negativeStockAsZero\":\(negativeStockAsZero)}".utf8)
        return String(decoding: out, as: UTF8.self)
    }
}

extension PlatformImportReport {
    /// The line `shop-rpc import --from` prints: the import's summary (`CatalogImportSummary.json`)
    /// with this report as its last member, `platform`.
    public func summaryJSON(_ summary: CatalogImportSummary) -> String {
        String(summary.json.dropLast()) + ",\"platform\":" + json + "}"
    }
}
