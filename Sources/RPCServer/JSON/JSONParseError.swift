/// Why a byte sequence is not one valid JSON text, and where (a byte offset into it).
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public var detail: String
    public var offset: Int

    public init(_ detail: String, at offset: Int) {
        self.detail = detail
        self.offset = offset
    }

    public var description: String { "\(detail) at byte \(offset)" }
}
