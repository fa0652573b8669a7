/// An error a method may answer with besides the engine's own (invalid params, deadline, cancel,
/// shutdown): listed in `rpc.discover` as an OpenRPC error object (`code`, `message`, and `data`
/// with the `type` a client switches on and the schema of the error's other `data` members), so
/// clients can be generated with a class per error. Immutable value.
///
/// ```swift
/// let noSuchNote = MethodError(code: 1001, type: "NotFound", summary: "No note has this id.",
///                              data: ["id": ["type": "string"]])
/// let get = MethodSpec.async("notes.get", params: NoteID.self) { id, _ in try notes.get(id) }
///     .answering(errors: [noSuchNote])
/// ```
public struct MethodError: Sendable, Equatable {
    public var code: RPCErrorCode
    /// `data.type` of the error.
    public var type: String
    /// When the method answers it, in one sentence.
    public var summary: String
    /// JSON Schemas of `data`'s members other than `type`, by name.
    public var data: JSONObject

    public init(code: Int, type: String, summary: String, data: JSONObject = [:]) {
        self.code = RPCErrorCode(code)
        self.type = type
        self.summary = summary
        self.data = data
    }
}
