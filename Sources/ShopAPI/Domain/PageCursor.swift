import FoundationEssentials

/// Opaque pagination cursors: base64url (unpadded) of `<kind>:<position>`. The kind prefix makes a
/// catalog cursor invalid for the order listing and vice versa. Pure functions; thread-safe.
enum PageCursor {
    private static let catalogKind = "p2"
    private static let ordersKind = "o1"
    private static let searchKind = "s1"

    // MARK: - Catalog (position: the catalog place of the last product returned)

    static func catalog(afterSeq seq: Int64) -> String {
        encode(kind: catalogKind, position: String(seq))
    }

    /// The catalog place the page ends after. Throws `.invalidCursor` for anything not made by
    /// `catalog(afterSeq:)` (a cursor of an earlier build, which held a SKU, included).
    static func catalogPosition(_ cursor: String) throws(ShopError) -> Int64 {
        guard let text = decode(cursor, kind: catalogKind), let seq = Int64(text) else { throw .invalidCursor(cursor) }
        return seq
    }

    // MARK: - Orders (position: the sequence of the last order returned)

    static func orders(beforeSequence sequence: Int64) -> String {
        encode(kind: ordersKind, position: String(sequence))
    }

    /// The sequence the page ends before. Throws `.invalidCursor` for anything not made by `orders(beforeSequence:)`.
    static func ordersPosition(_ cursor: String) throws(ShopError) -> Int64 {
        guard let text = decode(cursor, kind: ordersKind), let sequence = Int64(text), sequence > 0 else {
            throw .invalidCursor(cursor)
        }
        return sequence
    }

    // MARK: - Search (position: how many matches earlier pages held)

    static func search(offset: Int) -> String {
        encode(kind: searchKind, position: String(offset))
    }

    /// The number of matches the page starts after. Throws `.invalidCursor` for anything not made
    /// by `search(offset:)`.
    static func searchOffset(_ cursor: String) throws(ShopError) -> Int {
        // Bounded, so an offset plus a page size never overflows: no catalog holds a billion products.
        guard let text = decode(cursor, kind: searchKind), let offset = Int(text), (1...1_000_000_000).contains(offset) else {
            throw .invalidCursor(cursor)
        }
        return offset
    }

    // MARK: - Encoding

    private static func encode(kind: String, position: String) -> String {
        Data("\(kind):\(position)".utf8).base64EncodedString()
            .replacing("+", with: "-")
            .replacing("/", with: "_")
            .replacing("=", with: "")
    }

    private static func decode(_ cursor: String, kind: String) -> String? {
        guard !cursor.isEmpty, cursor.count <= 512,
              cursor.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
        else { return nil }
        var base64 = cursor.replacing("-", with: "+").replacing("_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64), let text = String(data: data, encoding: .utf8) else { return nil }
        let prefix = kind + ":"
        guard text.hasPrefix(prefix) else { return nil }
        return String(text.dropFirst(prefix.count))
    }
}
