/// How a method's outcome becomes an MCP `tools/call` result. Every outcome of the method itself
/// is a result: success carries `structuredContent` (the method's result) and the same JSON as
/// one text block; an error (invalid arguments, a domain error, a deadline, shutdown, an internal
/// failure) is `isError: true` with its message as text and `structuredContent: {"error": …}`,
/// so a model can read it and a program can `switch` on `error.code`. Stateless.
enum MCPToolResult {
    static func make(_ outcome: Result<JSONValue, RPCError>) -> JSONValue {
        switch outcome {
        case .success(let value):
            return [
                "content": [["type": "text", "text": .string(String(decoding: JSONWriter.encode(value), as: UTF8.self))]],
                "structuredContent": value,
                "isError": false,
            ]
        case .failure(let error):
            return [
                "content": [["type": "text", "text": .string(error.message)]],
                "structuredContent": ["error": error.json],
                "isError": true,
            ]
        }
    }
}
