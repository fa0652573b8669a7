/// Rows in the text format of `COPY … FROM STDIN`: fields separated by tabs, rows ended by a
/// newline, `\N` for NULL, and in each value a backslash, tab, newline and carriage return
/// escaped with a backslash. Strings are first escaped as the store keeps all strings
/// (`PostgreSQLText`), so a value copied in reads back as one bound as a parameter. A value type;
/// one thread.
struct PostgreSQLCopyRows {
    private(set) var bytes: [UInt8] = []
    private(set) var count = 0
    private var atRowStart = true

    var isEmpty: Bool { count == 0 }

    mutating func append(_ value: String?) {
        separate()
        guard let value else {
            bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "N")])
            return
        }
        let stored = PostgreSQLText.escaped(value)
        let special = { (byte: UInt8) in byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") }
        guard stored.utf8.contains(where: special) else {
            bytes.append(contentsOf: stored.utf8)
            return
        }
        for byte in stored.utf8 {
            switch byte {
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case UInt8(ascii: "\t"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case UInt8(ascii: "\n"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case UInt8(ascii: "\r"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            default: bytes.append(byte)
            }
        }
    }

    mutating func append(_ value: Int?) {
        guard let value else { return append(nil as String?) }
        separate()
        bytes.append(contentsOf: String(value).utf8)
    }

    mutating func append(_ value: Int64) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
    }

    mutating func endRow() {
        bytes.append(UInt8(ascii: "\n"))
        count += 1
        atRowStart = true
    }

    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        count = 0
        atRowStart = true
    }

    private mutating func separate() {
        if !atRowStart { bytes.append(UInt8(ascii: "\t")) }
        atRowStart = false
    }
}
