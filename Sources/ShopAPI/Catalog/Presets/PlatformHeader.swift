/// A platform file's header as a preset reads it: each column found by its name (ignoring letter
/// case and white space at either end, since spreadsheets re-save headers), and which columns the
/// preset used, so that every other one is reported once as ignored. A column whose name appeared
/// before in the header is never used (it is ignored). A value; one thread.
struct PlatformHeader {
    /// The names as the file spells them, in file order.
    let names: [String]
    private var positions: [String: Int] = [:]
    private var used: [Bool]

    init(names: [String]) {
        self.names = names
        used = Array(repeating: false, count: names.count)
        for (position, name) in names.enumerated() {
            let key = Self.key(name)
            if positions[key] == nil { positions[key] = position }
        }
    }

    /// The position of the column named `name`, marked as used; nil when the file has none.
    mutating func use(_ name: String) -> Int? {
        guard let position = positions[Self.key(name)] else { return nil }
        used[position] = true
        return position
    }

    /// The first of `names` the file has, marked as used.
    mutating func use(anyOf names: [String]) -> Int? {
        for name in names {
            if let position = use(name) { return position }
        }
        return nil
    }

    /// Every column named `prefix` + a word + `suffix` (case as above), in file order, with that
    /// word as the file spells it; none is marked as used (the preset marks the ones it takes).
    func columns(prefix: String, suffix: String = "") -> [(position: Int, word: String)] {
        let lowerPrefix = prefix.lowercased(), lowerSuffix = suffix.lowercased()
        return names.enumerated().compactMap { position, name in
            let trimmed = PresetText.trimmed(name)
            let lowered = trimmed.lowercased()
            guard positions[lowered] == position, lowered.hasPrefix(lowerPrefix), lowered.hasSuffix(lowerSuffix),
                  lowered.count > lowerPrefix.count + lowerSuffix.count else { return nil }
            let word = trimmed.dropFirst(prefix.count).dropLast(suffix.count)
            return (position, String(word))
        }
    }

    mutating func markUsed(_ position: Int) {
        used[position] = true
    }

    /// The columns no preset rule read, as the file names them, in file order (empty names as
    /// `column N`).
    var ignoredColumns: [String] {
        names.indices.filter { !used[$0] }.map { names[$0].isEmpty ? "column \($0 + 1)" : names[$0] }
    }

    private static func key(_ name: String) -> String { PresetText.trimmed(name).lowercased() }
}

/// One record of a platform file: its line and its fields as text. A field the record does not
/// have (a short record, or a column the file lacks) reads as empty. A value.
struct PlatformRow {
    let line: Int
    let fields: [String]

    /// The field at `position` with white space at either end removed; "" for nil or a missing field.
    subscript(_ position: Int?) -> String {
        guard let position, position < fields.count else { return "" }
        return PresetText.trimmed(fields[position])
    }
}

/// The header is not the platform's, or lacks what the options need: the import stops before
/// any row (`FILE:1: header: message`).
struct PlatformHeaderError: Error {
    let message: String
}
