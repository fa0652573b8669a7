/// The errors a reply may carry, as protocol.md section 7 lists them (code and `data.type`), for
/// every method in every scope: the engine's, the shop's and the admin methods' own
/// (`StockOutOfRange`, `StockMismatch`), and `CartFull`. Left out on purpose:
/// `InternalError` (never for a peer's input), `StorageError` and `StoreBusy` (the fuzzed store is
/// a healthy in-memory SQLite with one writer, so either means client input reached the database
/// unchecked, as an integer SQLite cannot hold would), `InventoryUnavailable` (no inventory
/// service is configured) and `Interrupted` (superseded by the deadline or cancel errors).
/// Pure; any thread.
public enum DocumentedErrors {
    private static let pairs: Set<String> = [
        "-32700 ParseError", "-32700 FramingError",
        "-32600 InvalidRequest", "-32600 MessageTooLarge", "-32600 DuplicateId",
        "-32601 MethodNotFound", "-32601 MethodNotAllowed",
        "-32602 InvalidParams",
        "-32001 DeadlineExceeded", "-32002 ShuttingDown", "-32800 Cancelled",
        "1001 NotFound", "1002 OutOfStock", "1003 InvalidQuantity", "1004 CartEmpty", "1005 IdempotencyConflict",
        "1006 InvalidCursor", "1011 StockOutOfRange", "1012 StockMismatch", "1013 CartFull",
    ]

    /// Whether an error with `code` and `type` is one a fuzzed reply may carry.
    public static func allows(code: Int64, type: String) -> Bool {
        pairs.contains("\(code) \(type)")
    }
}
