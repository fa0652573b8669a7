/// The text of one product as search reads it, field by field (an empty string for a field the
/// product does not have). Value type; `Sendable`.
struct SearchDocument: Sendable, Equatable {
    var name: String
    var brand: String = ""
    var category: String = ""
    var description: String = ""
    var sku: String = ""
    var handle: String = ""

    /// The text of `field`.
    func text(of field: SearchField) -> String {
        switch field {
        case .name: name
        case .brand: brand
        case .category: category
        case .description: description
        case .sku: sku
        case .handle: handle
        }
    }
}
