import FoundationEssentials

/// The inventory service's side of the contract (protocol.md, "Live inventory"): how a check
/// becomes a request URL, and how a `200` body becomes levels, refusing every answer that could
/// show a wrong number as stock. Pure functions of their inputs; thread-safe.
enum InventoryStockAnswer {
    /// The distinct SKUs of `skus`, in order of first appearance: what is asked of the service.
    static func distinct(_ skus: [String]) -> [String] {
        var seen = Set<String>()
        return skus.filter { seen.insert($0).inserted }
    }

    /// `{base}/stock?sku=A&sku=B`: one `sku` parameter per distinct SKU, percent-encoded, in
    /// request order. A base that already has a query keeps it. Nil if `base` cannot take a path.
    static func requestURL(base: URL, skus: [String]) -> URL? {
        guard var components = URLComponents(url: base, resolvingAgainstBaseURL: false) else { return nil }
        components.path = (components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path) + "/stock"
        let encoded = skus.map { "sku=" + percentEncoded($0) }.joined(separator: "&")
        components.percentEncodedQuery = [components.percentEncodedQuery, encoded].compactMap { $0 }.joined(separator: "&")
        return components.url
    }

    /// Everything but RFC 3986 unreserved characters is percent-encoded (so `&`, `=`, `+`, `#`
    /// and spaces in a SKU survive the trip).
    static func percentEncoded(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }

    /// The levels of `skus` (request order, duplicates answered each time) from a `200` body.
    ///
    /// - Throws: `ShopError.inventoryUnavailable` (with `status: 200`) if the body is not JSON of
    ///   the form `{"levels":[{"sku":String,"available":Int},…]}`, or if its SKUs are not exactly
    ///   the distinct asked ones (missing, unknown or duplicated), or a count is negative.
    static func levels(from body: Data, asked skus: [String]) throws(ShopError) -> InventoryLevels {
        let answer: WireAnswer
        do {
            answer = try JSONDecoder().decode(WireAnswer.self, from: body)
        } catch {
            throw unusable("the answer is not {\"levels\":[{\"sku\":string,\"available\":integer}]}: \(describe(error))")
        }
        let asked = Set(skus)
        var available: [String: Int] = [:]
        for level in answer.levels {
            guard asked.contains(level.sku) else { throw unusable("the answer names SKU \(quoted(level.sku)), which was not asked") }
            guard available[level.sku] == nil else { throw unusable("the answer names SKU \(quoted(level.sku)) twice") }
            guard level.available >= 0 else { throw unusable("the answer gives SKU \(quoted(level.sku)) a negative count (\(level.available))") }
            available[level.sku] = level.available
        }
        return InventoryLevels(levels: try skus.map { sku throws(ShopError) in
            guard let count = available[sku] else { throw unusable("the answer has no level for SKU \(quoted(sku))") }
            return StockLevel(sku: sku, available: count)
        })
    }

    // MARK: - Helpers

    private struct WireAnswer: Decodable {
        struct Level: Decodable {
            let sku: String
            let available: Int
        }
        let levels: [Level]
    }

    private static func unusable(_ detail: String) -> ShopError {
        .inventoryUnavailable(detail: detail, status: 200)
    }

    /// A decoding error in one line, without Foundation's long debug descriptions.
    private static func describe(_ error: any Error) -> String {
        switch error {
        case let DecodingError.dataCorrupted(context) where !context.codingPath.isEmpty:
            return "'\(path(context.codingPath))' is not a valid value"
        case let DecodingError.keyNotFound(key, context):
            return "member '\(path(context.codingPath + [key]))' is missing"
        case let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context):
            return "'\(path(context.codingPath))' has the wrong type"
        default: return "malformed JSON"
        }
    }

    private static func path(_ codingPath: [any CodingKey]) -> String {
        let text = codingPath.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }.joined()
        return text.hasPrefix(".") ? String(text.dropFirst()) : text
    }

    /// SKU text from the service, shortened so a hostile answer cannot bloat an error.
    private static func quoted(_ text: String) -> String {
        "'" + (text.count <= 64 ? text : String(text.prefix(64)) + "…") + "'"
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
