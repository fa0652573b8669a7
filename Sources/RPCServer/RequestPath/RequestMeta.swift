/// The reserved `params._meta` member of a request (protocol.md, section 2), split off the params
/// and validated in this one place, so every number a client sends there is range-checked before
/// any arithmetic sees it.
///
/// - `deadlineMs`: a finite number > 0. It only shortens the method's deadline: any value at or
///   above it (1e19, 1e308 included) means the method's own deadline; smaller values are rounded
///   up to whole milliseconds. Never converted to an integer before that comparison.
/// - `progressToken`: a string or an integer.
/// - `actor`: a non-empty string of at most `maxActorBytes` UTF-8 bytes: who the call is made for
///   (a user, an agent), handed to the handler (`CallContext.actor`) for its records. Without
///   control characters or bidirectional formatting (`isAllowedInActor`): the records are shown
///   in terminals, logs and spreadsheets, where those would rewrite what a reader sees.
///
/// Anything else is a -32602 with `data.field` naming the member. Immutable; any thread.
struct RequestMeta: Sendable, Equatable {
    /// The requested deadline, if any, not yet clamped to the method's.
    var requestedDeadlineMs: Double?
    var progressToken: JSONValue?
    var actor: String?

    /// Longest accepted `_meta.actor`, in UTF-8 bytes.
    static let maxActorBytes = 256

    /// Splits `_meta` off `params`: returns the params the handler sees and the validated meta.
    static func split(_ params: JSONValue?) throws(RPCError) -> (params: JSONValue?, meta: RequestMeta) {
        guard case .object(var object)? = params, let metaValue = object["_meta"] else { return (params, RequestMeta()) }
        object["_meta"] = nil
        guard case .object(let members) = metaValue else {
            throw .invalidParams("'_meta' must be an object", field: "_meta")
        }
        var meta = RequestMeta()
        if let requested = members["deadlineMs"] {
            guard let value = requested.doubleValue, value.isFinite, value > 0 else {
                throw .invalidParams("'_meta.deadlineMs' must be a positive number", field: "_meta.deadlineMs")
            }
            meta.requestedDeadlineMs = value
        }
        if let token = members["progressToken"] {
            switch token {
            case .string, .int: meta.progressToken = token
            default:
                throw .invalidParams("'_meta.progressToken' must be a string or an integer", field: "_meta.progressToken")
            }
        }
        if let actor = members["actor"] {
            guard case .string(let name) = actor, !name.isEmpty, name.utf8.count <= maxActorBytes else {
                throw .invalidParams("'_meta.actor' must be a non-empty string of at most \(maxActorBytes) bytes", field: "_meta.actor")
            }
            if let refused = name.unicodeScalars.first(where: { !isAllowedInActor($0) }) {
                let hex = String(refused.value, radix: 16, uppercase: true)
                let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
                throw .invalidParams("'_meta.actor' must not contain control characters or bidirectional formatting (it contains \(code))", field: "_meta.actor")
            }
            meta.actor = name
        }
        return (.object(object), meta)
    }

    /// Whether `scalar` may appear in `_meta.actor`: not a control character (C0 U+0000–U+001F,
    /// DEL U+007F, C1 U+0080–U+009F: NUL, ESC sequences, newlines that forge log lines), not a
    /// line or paragraph separator (U+2028, U+2029, newlines to some viewers), and not a
    /// bidirectional embedding, override or isolate (U+202A–U+202E, U+2066–U+2069), which makes
    /// text display in another order than it is stored (`"\u{202E}nimda"` shows as "admin").
    static func isAllowedInActor(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: false
        default: true
        }
    }

    /// The call's deadline: the method's, shortened (never lengthened) by the requested one.
    /// `methodDeadlineMs` must be positive.
    func deadlineMs(methodDeadlineMs: Int) -> Int {
        guard let requested = requestedDeadlineMs, requested < Double(methodDeadlineMs) else { return methodDeadlineMs }
        // requested is in (0, methodDeadlineMs), so rounding up stays in 1...methodDeadlineMs.
        return max(1, Int(requested.rounded(.up)))
    }
}
