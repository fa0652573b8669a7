import FoundationEssentials

/// One NDJSON line of a catalog file as FoundationEssentials' `JSONDecoder` reads it: the columns
/// it gives, and what is wrong with each that is not of its column's type. The line must be a
/// JSON object (decoding throws otherwise). Members are read under the names `memberNamesKey`
/// gives (a `--map`), else the columns'. Members that are not columns are found by the reader
/// (`JSONMemberCount`, `OtherMembers`); the values' rules are checked by the reader too. A value type.
struct NDJSONCatalogLine: Decodable {
    enum Value {
        case text(String)
        case integer(Int)
        case price(MajorUnitPrice)
    }

    /// The `userInfo` key of the member names to read each column from, `[String]` in
    /// `CatalogColumn.allCases` order (a `CatalogColumnMapping` renames them); absent: the
    /// columns' own names.
    static let memberNamesKey = CodingUserInfoKey(rawValue: "catalogMemberNames")!

    /// The member names to read each column from under `mapping`, for `memberNamesKey`.
    static func memberNames(_ mapping: CatalogColumnMapping) -> [String] {
        CatalogColumn.allCases.map { mapping.fileName(of: $0) ?? $0.rawValue }
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
        let names = decoder.userInfo[Self.memberNamesKey] as? [String]
        for (index, column) in CatalogColumn.allCases.enumerated() {
            let key = MemberKey(stringValue: names?[index] ?? column.rawValue)
            switch column {
            case .price:
                if let problem = decodePrice(object, key) {
                    problems.append((column.rawValue, problem))
                } else if !object.contains(key) {
                    continue
                }
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

    /// Reads `price`: a JSON string holding a price (`"19.99"`), or an integer (`500`, exact as
    /// JSON has it); a number with decimals is refused, since JSON readers (this one and the
    /// server's) take it as binary floating point. Returns the problem, or nil (the price then
    /// appended to `values`, or the member absent).
    private mutating func decodePrice(_ object: KeyedDecodingContainer<MemberKey>, _ key: MemberKey) -> String? {
        let text: String
        if let string = try? object.decodeIfPresent(String.self, forKey: key) {
            text = string
        } else if let integer = try? object.decodeIfPresent(Int.self, forKey: key) {
            text = String(integer)
        } else if object.contains(key) {
            if (try? object.decodeNil(forKey: key)) == true { return "null; leave the member out to keep the value" }
            if (try? object.decode(Double.self, forKey: key)) != nil {
                return "a JSON number with decimals is not read exactly; write the price as a string, such as \"19.99\""
            }
            return "not a price; write it as a string, such as \"19.99\""
        } else {
            return nil
        }
        switch MajorUnitPrice.parse(Array(text.utf8)) {
        case .success(let price):
            values.append((.price, .price(price)))
            return nil
        case .failure(let error):
            return error.message
        }
    }

    /// The members of a line that are not columns, by name, sorted; decoded only for a line whose
    /// member count says it has some (or a member given twice).
    struct OtherMembers: Decodable {
        let names: [String]

        init(from decoder: any Decoder) throws {
            let object = try decoder.container(keyedBy: MemberKey.self)
            let known = Set(decoder.userInfo[NDJSONCatalogLine.memberNamesKey] as? [String] ?? CatalogColumn.allCases.map(\.rawValue))
            names = object.allKeys.map(\.stringValue).filter { !known.contains($0) }.sorted()
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
