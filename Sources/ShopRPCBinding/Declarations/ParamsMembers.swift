import RPCServer

/// The members of a params object, read the way `Decodable` reads them (the last of repeated
/// names), answering nil wherever `Decodable` might disagree or fail. Used by `ParamField`'s
/// direct reading; immutable.
struct ParamsMembers {
    let object: JSONObject

    /// Nil unless the params are an object (`Decodable` rejects anything else).
    init?(_ params: JSONValue) {
        guard case .object(let object) = params else { return nil }
        self.object = object
    }

    func string(_ key: String) -> String? {
        guard case .string(let string)? = object[key] else { return nil }
        return string
    }

    /// Integers only as JSON integers; `2.0`, which `Decodable` also accepts, is left to it.
    func int(_ key: String) -> Int? {
        guard case .int(let number)? = object[key] else { return nil }
        return Int(exactly: number)
    }

    func strings(_ key: String) -> [String]? {
        guard case .array(let elements)? = object[key] else { return nil }
        var strings: [String] = []
        strings.reserveCapacity(elements.count)
        for element in elements {
            guard case .string(let string) = element else { return nil }
            strings.append(string)
        }
        return strings
    }

    func array(_ key: String) -> [JSONValue]? {
        guard case .array(let elements)? = object[key] else { return nil }
        return elements
    }

    /// `.some(nil)` when absent or null (as `decodeIfPresent`), `.some(value)` for a string, nil otherwise.
    func optionalString(_ key: String) -> String?? {
        guard let value = object[key], value != .null else { return .some(nil) }
        guard case .string(let string) = value else { return nil }
        return .some(string)
    }

    /// As `optionalString`, for an integer.
    func optionalInt(_ key: String) -> Int?? {
        guard let value = object[key], value != .null else { return .some(nil) }
        guard case .int(let number) = value, let int = Int(exactly: number) else { return nil }
        return .some(int)
    }

    func bool(_ key: String) -> Bool? {
        guard case .bool(let value)? = object[key] else { return nil }
        return value
    }

    /// As `optionalString`, for a Boolean.
    func optionalBool(_ key: String) -> Bool?? {
        guard let value = object[key], value != .null else { return .some(nil) }
        guard case .bool(let bool) = value else { return nil }
        return .some(bool)
    }
}
