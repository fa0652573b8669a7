/// A JSON-RPC error code. An open set of static constants rather than an enum, so adding a code is
/// not a breaking change for code that switches over the known ones. Applications use codes outside
/// -32768…-32000 (the range JSON-RPC reserves).
///
/// ```swift
/// extension RPCErrorCode { static let outOfStock = RPCErrorCode(1001) }
/// if error.code == .deadlineExceeded { /* retry later */ }
/// ```
public struct RPCErrorCode: RawRepresentable, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public init(_ rawValue: Int) { self.rawValue = rawValue }

    // MARK: - JSON-RPC 2.0
    public static let parseError = RPCErrorCode(-32700)
    public static let invalidRequest = RPCErrorCode(-32600)
    public static let methodNotFound = RPCErrorCode(-32601)
    public static let invalidParams = RPCErrorCode(-32602)
    public static let internalError = RPCErrorCode(-32603)

    // MARK: - Server-defined (-32000…-32099)
    public static let deadlineExceeded = RPCErrorCode(-32001)
    public static let shuttingDown = RPCErrorCode(-32002)

    // MARK: - LSP
    public static let requestCancelled = RPCErrorCode(-32800)
}
