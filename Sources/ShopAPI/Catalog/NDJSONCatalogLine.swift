import FoundationEssentials

/// One NDJSON line of a catalog file as FoundationEssentials' `JSONDecoder` reads it: the members
/// it gives, by column, and what is wrong with each member that is not of its column's type. The
/// line must be a JSON object (decoding throws otherwise); the values' rules are checked after, by
/// the reader. A value type.
struct NDJSONCatalogLine: Decodable {
    enum Value {
        case text(String)
        case integer(Int)
    }

    private(set) var values: [(CatalogColumn, Value)] = []
    /// (field, message) for each member that is unknown or of the wrong type, in column order.
    private(set) var problems: [(String, String)] = []

    private struct MemberKey: CodingKey {
        let stringValue: String
        init(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let object = try decoder.container(keyedBy: MemberKey.self)
        for column in CatalogColumn.allCases {
            let key = MemberKey(stringValue: column.rawValue)
            guard object.contains(key) else { continue }
            switch column {
            case .priceCents, .stock:
                if let value = try? object.decode(Int.self, forKey: key) {
                    values.append((column, .integer(value)))
                } else {
                    problems.append((column.rawValue, Self.notAnInteger(object, key)))
                }
            case .sku, .name, .description, .category, .currency:
                if let value = try? object.decode(String.self, forKey: key) {
                    values.append((column, .text(value)))
                } else {
                    let isNull = (try? object.decodeNil(forKey: key)) == true
                    problems.append((column.rawValue, isNull ? "null; leave the member out to keep the value" : "not a string"))
                }
            }
        }
        let unknown = object.allKeys.map(\.stringValue).filter { CatalogColumn(rawValue: $0) == nil }.sorted()
        for name in unknown {
            var message = "unknown member \(CatalogFieldRules.quoted(name))"
            if let near = CatalogColumn.caseInsensitiveMatch(name) { message += " (did you mean \(near.rawValue)?)" }
            problems.append(("line", message + "; the members are \(CatalogColumn.acceptedList)"))
        }
    }

    /// Why the member is not an `Int`: null, a fraction, a number out of range, or not a number.
    private static func notAnInteger(_ object: KeyedDecodingContainer<MemberKey>, _ key: MemberKey) -> String {
        if (try? object.decodeNil(forKey: key)) == true { return "null; leave the member out to keep the value" }
        guard let number = try? object.decode(Double.self, forKey: key) else { return "not an integer" }
        if number.rounded() != number { return "\(number) is not an integer" }
        return number < 0 ? "\(number) is negative" : "\(number) is above the maximum"
    }
}
