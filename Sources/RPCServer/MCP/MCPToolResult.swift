/// How a method's outcome becomes an MCP `tools/call` result. Every outcome of the method itself
/// is a result: success carries `structuredContent` (the method's result) and the same JSON as
/// one text block; an error (invalid arguments, a domain error, a deadline, shutdown, an internal
/// failure) is `isError: true` with its message as text and `structuredContent: {"error": …}`,
/// so a model can read it and a program can `switch` on `error.code`. Stateless.
enum MCPToolResult {
    static func make(_ outcome: Result<ResultJSON, RPCError>) -> JSONValue {
        switch outcome {
        case .success(let result):
            return [
                "content": [["type": "text", "text": .string(String(decoding: result.text, as: UTF8.self))]],
                "structuredContent": result.jsonValue,
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
