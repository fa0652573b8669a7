/// One request or notification, validated against JSON-RPC 2.0. `id == nil` means notification.
package struct Request: Sendable {
    package var id: RequestID?
    package var method: String
    package var params: JSONValue?

    package var isNotification: Bool { id == nil }
}

/// One element of what arrived: a valid request, or an error to answer (with the request's id
/// when it could be recovered, `null` otherwise). Invalid elements are always answered.
package enum IncomingElement: Sendable {
    case request(Request)
    case invalid(RPCError, id: RequestID?)
}

/// A decoded message: a single element, or a non-empty batch.
package enum IncomingMessage: Sendable {
    case single(IncomingElement)
    case batch([IncomingElement])
}
