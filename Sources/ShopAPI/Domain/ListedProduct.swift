/// A product as a listing or search page reads it, in the same statement: its first variant,
/// that variant's level, and whether the product has other variants. A page reads the variants
/// (`ShopReadTransaction.variantChoices`) of only those products that have others: a product of
/// one variant is its own choice. Immutable value.
struct ListedProduct: Equatable {
    /// The product's first variant, with the product's fields.
    let first: Product
    /// Units of `first` available.
    let available: Int
    /// Whether the product has a variant besides `first`.
    let hasOtherVariants: Bool

    /// `first` as the product's one choice.
    var onlyChoice: VariantChoice {
        VariantChoice(sku: first.sku, options: first.options, priceCents: first.priceCents, inStock: available > 0)
    }
}
