import SharedSupport

/// A canonical record as one NDJSON catalog line: `{"handle":"…","sku":"…",…,"price":"19.99",
/// "stock":5}`, members in `CanonicalColumn` order, only those the record gives; `priceCents` and
/// `stock` as JSON integers (the preset checked their digits), every other value a JSON string.
enum CanonicalNDJSON {
    static func append(_ record: CanonicalCatalogRecord, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        var first = true
        for (column, value) in record.givenValues {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            JSONStringLiteral.append(column.rawValue, to: &out)
            out.append(UInt8(ascii: ":"))
            if column.isNumber {
                out.append(contentsOf: value.utf8)
            } else {
                JSONStringLiteral.append(value, to: &out)
            }
        }
        out.append(UInt8(ascii: "}"))
    }
}
