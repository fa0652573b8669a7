/// One request or notification, validated against JSON-RPC 2.0. `id == nil` means notification.
public struct Request: Sendable {
    public var id: RequestID?
    public var method: String
    public var params: JSONValue?

    public var isNotification: Bool { id == nil }
}

/// One element of what arrived: a valid request, or an error to answer (with the request's id
/// when it could be recovered, `null` otherwise). Invalid elements are always answered.
public enum IncomingElement: Sendable {
    case request(Request)
    case invalid(RPCError, id: RequestID?)
}

/// A decoded message: a single element, or a non-empty batch.
public enum IncomingMessage: Sendable {
    case single(IncomingElement)
    case batch([IncomingElement])
}
