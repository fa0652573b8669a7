/// The file-level rules of rows that share a `handle` (the variants of one product), applied in
/// file order by `CatalogFileReader` to every good row, over each run of rows with the same
/// handle: the product's fields (name, description, category, brand, status, option names) given
/// on one of its rows are filled down to its later rows that leave them out; a later row that
/// gives another value is an error naming the row and the field; a variant of a product with
/// option names needs one value per name; and two variants of one product may not have the same
/// option values. Rows without a handle are left as they are.
///
/// A handle that comes back after rows of other products (WooCommerce exports a variation added
/// later after the products added since, as its own sample file does) starts a run of its own:
/// the reader keeps no earlier run, so its rows are applied as rows of a later import naming that
/// handle are (`CatalogRowMerge`: they join the product the earlier run created; a product field
/// they give sets the product's, one they leave out keeps it; the store checks their option values
/// against the product's other variants).
///
/// Memory: the fields and option values of the product being read (one run of rows), whatever
/// the file's size. A value type; one thread.
struct CatalogVariantGroups {
    private struct Group {
        var fields: ProductFields
        /// The option values each variant of the file has, with the line that gave them.
        var values: [[String]: Int] = [:]
    }

    /// A product's fields as a row gives them (nil: not given).
    private struct ProductFields {
        var line: Int
        var name: String?
        var description: String?
        var category: String?
        var brand: String?
        var status: ProductStatus?
        var optionNames: [String]?
    }

    /// The handle whose rows are being read, and what they gave.
    private var current: (handle: String, group: Group)?

    /// Fills `row` down from its handle's earlier rows and checks it against them; returns the
    /// errors (field, message) it finds, empty when the row is good.
    mutating func apply(to row: inout CatalogRow) -> [(field: String, message: String)] {
        guard let handle = row.handle else {
            current = nil
            return []
        }
        var errors: [(field: String, message: String)] = []
        guard let (currentHandle, currentGroup) = current, currentHandle.utf8.elementsEqual(handle.utf8) else {
            current = nil
            var group = Group(fields: ProductFields(line: row.line, name: row.name, description: row.description, category: row.category,
                                                    brand: row.brand, status: row.status, optionNames: row.optionNames))
            if let problem = Self.checkValues(of: row, names: row.optionNames) {
                errors.append(problem)
            } else if let values = row.optionValues {
                group.values[values] = row.line
            }
            current = (handle, group)
            return errors
        }
        var group = currentGroup
        let first = group.fields.line
        func fill<Value: Equatable>(_ field: String, _ value: inout Value?, _ kept: inout Value?, _ show: (Value) -> String) {
            guard let given = value else {
                value = kept
                return
            }
            guard let known = kept else {
                kept = given
                return
            }
            if given != known {
                errors.append((field, "\(show(given)) differs from \(show(known)), given for the product \(CatalogFieldRules.quoted(row.handle ?? "")) on line \(first); a product's fields are the same on every variant"))
            }
        }
        let quoted = CatalogFieldRules.quoted
        fill("name", &row.name, &group.fields.name, quoted)
        fill("description", &row.description, &group.fields.description, quoted)
        fill("category", &row.category, &group.fields.category, quoted)
        fill("brand", &row.brand, &group.fields.brand, quoted)
        fill("status", &row.status, &group.fields.status) { quoted($0.rawValue) }
        fill("option1Name", &row.optionNames, &group.fields.optionNames) { quoted($0.joined(separator: ", ")) }
        if let problem = Self.checkValues(of: row, names: row.optionNames) {
            errors.append(problem)
        } else if let values = row.optionValues {
            if let earlier = group.values[values] {
                errors.append(("option1Value", "the variant \(quoted(values.joined(separator: " / "))) is given on line \(earlier) already; two variants of a product cannot have the same option values"))
            } else {
                group.values[values] = row.line
            }
        }
        current = (handle, group)
        return errors
    }

    /// With option names given for the product, the row must give one value per name.
    private static func checkValues(of row: CatalogRow, names: [String]?) -> (field: String, message: String)? {
        guard let names, !names.isEmpty else { return nil }
        let count = row.optionValues?.count ?? 0
        guard count != names.count else { return nil }
        if count > names.count {
            return ("option\(names.count + 1)Value", "given, but the product has \(names.count) option name\(names.count == 1 ? "" : "s")")
        }
        return ("option\(count + 1)Value", "missing; the product's options are \(names.joined(separator: ", ")) and each variant has a value for each")
    }
}
