/// Why a byte sequence is not one valid JSON text, and where (a byte offset into it).
package struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    package var detail: String
    package var offset: Int

    package init(_ detail: String, at offset: Int) {
        self.detail = detail
        self.offset = offset
    }

    package var description: String { "\(detail) at byte \(offset)" }
}
