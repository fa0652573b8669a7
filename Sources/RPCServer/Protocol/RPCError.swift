/// An error reply's `error` object. Every error the engine produces carries `data.type`, a stable
/// machine-readable name (see protocol.md), so clients recover with a `switch`, not a guess.
/// Handlers may throw it directly; other errors conform through `RPCErrorConvertible`. Any other
/// error a handler throws is answered as -32603 `InternalError`.
///
/// ```swift
/// .async("hello.greet", params: Greet.self) { params, _ in
///     guard !params.name.isEmpty else { throw RPCError.invalidParams("name is empty", field: "name") }
///     return ["greeting": "Hello, \(params.name)!"]
/// }
/// ```
public struct RPCError: Error, Sendable, Equatable, CustomStringConvertible {
    public var code: RPCErrorCode
    public var message: String
    public var data: JSONValue?

    public init(code: RPCErrorCode, message: String, data: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    /// Builds an error whose data is `{"type": type, …details}`.
    public init(code: RPCErrorCode, type: String, message: String, details: JSONObject = [:]) {
        var data = JSONObject()
        data.append("type", .string(type))
        for member in details.members { data.append(member.key, member.value) }
        self.init(code: code, message: message, data: .object(data))
    }

    /// `data.type`, if present.
    public var type: String? { data?["type"]?.stringValue }

    public var description: String { "\(code.rawValue) \(message)" }

    public var json: JSONValue {
        var object = JSONObject()
        object.append("code", .int(Int64(code.rawValue)))
        object.append("message", .string(message))
        if let data { object.append("data", data) }
        return .object(object)
    }
}

/// An error that knows its JSON-RPC form (domain errors adopt this in their binding); a handler
/// that throws one is answered with `rpcError`.
///
/// ```swift
/// enum ShelfError: Error, RPCErrorConvertible {
///     case empty
///     var rpcError: RPCError { RPCError(code: RPCErrorCode(1001), type: "ShelfEmpty", message: "The shelf is empty") }
/// }
/// ```
public protocol RPCErrorConvertible: Error {
    var rpcError: RPCError { get }
}

// MARK: - The engine's errors

extension RPCError {
    /// `text` cut to its first 200 characters (and "…"), so a client-chosen name or id cannot make
    /// an error message arbitrarily long.
    static func abbreviated(_ text: String) -> String {
        text.count > 200 ? String(text.prefix(200)) + "…" : text
    }

    package static func parseError(_ error: JSONParseError) -> RPCError {
        RPCError(code: .parseError, type: "ParseError", message: "Parse error: \(error.detail)",
                 details: ["detail": .string(error.detail), "offset": .int(Int64(error.offset))])
    }

    package static func framingError(_ detail: String) -> RPCError {
        RPCError(code: .parseError, type: "FramingError", message: "Framing error: \(detail)", details: ["detail": .string(detail)])
    }

    package static func invalidRequest(_ detail: String) -> RPCError {
        RPCError(code: .invalidRequest, type: "InvalidRequest", message: "Invalid Request: \(detail)", details: ["detail": .string(detail)])
    }

    package static func messageTooLarge(limit: Int) -> RPCError {
        RPCError(code: .invalidRequest, type: "MessageTooLarge", message: "Message larger than \(limit) bytes; skipped",
                 details: ["limit": .int(Int64(limit))])
    }

    package static func duplicateID(_ id: RequestID) -> RPCError {
        RPCError(code: .invalidRequest, type: "DuplicateId", message: "Request id \(abbreviated(id.description)) is already in flight",
                 details: ["id": id.json])
    }

    package static func methodNotFound(_ method: String) -> RPCError {
        let shown = abbreviated(method)
        return RPCError(code: .methodNotFound, type: "MethodNotFound", message: "Method not found: \(shown)",
                        details: ["method": .string(shown)])
    }

    /// A call of a method this server does not serve with its allowed scopes (-32601, as an
    /// unknown method is, but `data.type` says why): `data.scope` is the scope the method needs
    /// (absent for a method declared without one).
    package static func methodNotAllowed(_ method: String, scope: String?) -> RPCError {
        var details: JSONObject = ["method": .string(method)]
        let message: String
        if let scope {
            details.append("scope", .string(scope))
            message = "Method not allowed: \(method) needs the '\(scope)' scope, which this server does not allow"
        } else {
            message = "Method not allowed: \(method) has no scope, and this server allows only some scopes"
        }
        return RPCError(code: .methodNotFound, type: "MethodNotAllowed", message: message, details: details)
    }

    /// Bad params (-32602); `field` is the dotted path of the member at fault, when there is one.
    /// Params that do not decode into the method's `Params` type get this error automatically.
    ///
    /// ```swift
    /// throw RPCError.invalidParams("quantity must be positive", field: "items[0].quantity")
    /// ```
    public static func invalidParams(_ detail: String, field: String? = nil) -> RPCError {
        var details: JSONObject = ["detail": .string(detail)]
        if let field { details.append("field", .string(field)) }
        return RPCError(code: .invalidParams, type: "InvalidParams", message: "Invalid params: \(detail)", details: details)
    }

    /// A failure of the server itself (-32603); `detail` goes to `data.detail`, the message stays generic.
    ///
    /// ```swift
    /// throw RPCError.internalError("store unreachable")
    /// ```
    public static func internalError(_ detail: String) -> RPCError {
        RPCError(code: .internalError, type: "InternalError", message: "Internal error", details: ["detail": .string(detail)])
    }

    package static func deadlineExceeded(method: String, message: String, deadlineMs: Int, elapsedMs: Int) -> RPCError {
        RPCError(code: .deadlineExceeded, type: "DeadlineExceeded", message: message,
                 details: ["method": .string(method), "deadlineMs": .int(Int64(deadlineMs)), "elapsedMs": .int(Int64(elapsedMs))])
    }

    package static func cancelled(method: String) -> RPCError {
        RPCError(code: .requestCancelled, type: "Cancelled", message: "Request cancelled", details: ["method": .string(method)])
    }

    package static func shuttingDown(method: String) -> RPCError {
        RPCError(code: .shuttingDown, type: "ShuttingDown", message: "Server shutting down", details: ["method": .string(method)])
    }
}
