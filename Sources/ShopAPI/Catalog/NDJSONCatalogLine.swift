import FoundationEssentials

/// One NDJSON line of a catalog file as FoundationEssentials' `JSONDecoder` reads it: the columns
/// it gives, and what is wrong with each that is not of its column's type. The line must be a
/// JSON object (decoding throws otherwise). Members that are not columns are found by the reader
/// (`JSONMemberCount`, `OtherMembers`); the values' rules are checked by the reader too. A value type.
struct NDJSONCatalogLine: Decodable {
    enum Value {
        case text(String)
        case integer(Int)
    }

    private(set) var values: [(CatalogColumn, Value)] = []
    /// (field, message) for each member of the wrong type, in column order.
    private(set) var problems: [(String, String)] = []
    /// How many of the object's members are columns (whether or not of the right type).
    private(set) var columnsFound = 0

    struct MemberKey: CodingKey {
        let stringValue: String
        init(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let object = try decoder.container(keyedBy: MemberKey.self)
        for column in CatalogColumn.allCases {
            let key = MemberKey(stringValue: column.rawValue)
            switch column {
            case .priceCents, .stock:
                if let value = try? object.decodeIfPresent(Int.self, forKey: key) {
                    values.append((column, .integer(value)))
                } else if object.contains(key) {
                    problems.append((column.rawValue, Self.notAnInteger(object, key)))
                } else {
                    continue
                }
            case .sku, .name, .description, .category, .currency, .handle, .brand, .status,
                 .option1Name, .option1Value, .option2Name, .option2Value, .option3Name, .option3Value:
                if let value = try? object.decodeIfPresent(String.self, forKey: key) {
                    values.append((column, .text(value)))
                } else if object.contains(key) {
                    let isNull = (try? object.decodeNil(forKey: key)) == true
                    problems.append((column.rawValue, isNull ? "null; leave the member out to keep the value" : "not a string"))
                } else {
                    continue
                }
            }
            columnsFound += 1
        }
    }

    /// The members of a line that are not columns, by name, sorted; decoded only for a line whose
    /// member count says it has some (or a member given twice).
    struct OtherMembers: Decodable {
        let names: [String]

        init(from decoder: any Decoder) throws {
            let object = try decoder.container(keyedBy: MemberKey.self)
            names = object.allKeys.map(\.stringValue).filter { CatalogColumn(rawValue: $0) == nil }.sorted()
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
