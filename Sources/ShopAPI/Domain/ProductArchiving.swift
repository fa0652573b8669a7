/// What `ShopWriteTransaction.archiveProduct` found. Immutable value; `Sendable`.
enum ProductArchiving: Sendable, Equatable {
    /// The product was in the catalog and is archived now.
    case archived
    /// It was archived already; nothing changed.
    case alreadyArchived
    /// No product has this SKU.
    case unknown
}
