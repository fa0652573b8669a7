/// The few ASCII bytes and classes the frame decoders look at. Pure functions; thread-safe.
enum Ascii {
    static let lf = UInt8(ascii: "\n")
    static let cr = UInt8(ascii: "\r")
    static let colon = UInt8(ascii: ":")

    /// Space, tab, CR or LF.
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Space or tab (HTTP's optional whitespace around a header value).
    static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09
    }

    /// The byte with A-Z mapped to a-z.
    static func lowercased(_ byte: UInt8) -> UInt8 {
        (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) ? byte + 32 : byte
    }
}
