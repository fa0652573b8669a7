/// How many products a catalog query matched. Immutable value; `Sendable`.
public struct ProductCount: Codable, Sendable, Equatable {
    public let count: Int

    public init(count: Int) {
        self.count = count
    }
}
