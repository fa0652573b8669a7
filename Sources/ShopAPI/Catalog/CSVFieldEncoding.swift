/// One CSV field as RFC 4180 writes it: as it is, unless it holds a comma, a quote, CR or LF, is
/// the empty only field of its record, or starts with U+FEFF (which at the start of a file a
/// reader takes for a byte order mark); then in quotes, with each quote doubled.
enum CSVFieldEncoding {
    static func append(_ value: String, onlyField: Bool, to buffer: inout [UInt8]) {
        var value = value
        value.withUTF8 { bytes in
            var needsQuotes = (onlyField && bytes.isEmpty)
                || (bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF)
            for byte in bytes where byte == 0x2C || byte == 0x22 || byte == 0x0A || byte == 0x0D {
                needsQuotes = true
                break
            }
            guard needsQuotes else { return buffer.append(contentsOf: bytes) }
            buffer.append(0x22)
            var start = 0
            for index in bytes.indices where bytes[index] == 0x22 {
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...index]))
                buffer.append(0x22)
                start = index + 1
            }
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
            buffer.append(0x22)
        }
    }
}
