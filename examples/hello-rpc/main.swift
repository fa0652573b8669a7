import Foundation
import RPCServer
import Synchronization

// hello-rpc: a JSON-RPC 2.0 and MCP server on stdio, built on RPCServer alone. `swift run hello-rpc`.

struct Greet: Decodable, Sendable { var name: String }
struct Greeting: Encodable, Sendable { var greeting: String }

/// Names greeted so far: this server's own figure in `rpc.stats` (section "hello").
let namesGreeted = Atomic<Int>(0)

let greet = MethodSpec.async("hello.greet", params: Greet.self, deadlineMs: 1_000, summary: "Greets someone by name.",
                             paramsSchema: ["type": "object", "required": ["name"], "properties": ["name": ["type": "string"]]],
                             resultSchema: ["properties": ["greeting": ["type": "string"]]]) { params, _ in
    namesGreeted.add(1, ordering: .relaxed)
    return Greeting(greeting: "Hello, \(params.name)!")
}.hinting(.readOnly)

let slow = MethodSpec.async("hello.slow", params: NoParams.self, deadlineMs: 200, deadlineMessage: "hello.slow gave up after 200 ms",
                            summary: "Works for 10 s, so it always passes its deadline.") { _, _ in
    try await Task.sleep(for: .seconds(10))  // cancelled when the deadline passes
    return EmptyResult()
}.hinting(.readOnly)

do {
    let options = try ServerOptions.parse(Array(CommandLine.arguments.dropFirst()))
    if options.showHelp || options.showVersion {
        print(options.showHelp ? ServerOptions.usage(program: "hello-rpc") : "hello-rpc 1.0.0")
        StdioServer.exitProcess(status: 0)
    }
    let identity = ServerIdentity(name: "hello-rpc", title: "Hello RPC", version: "1.0.0", instructions: "Greet people with hello_greet.")
    var registry = MethodRegistry([greet, slow])
    registry.addStatsSection("hello") { ["namesGreeted": .int(Int64(namesGreeted.load(ordering: .relaxed)))] }
    let reason = try StdioServer.run(registry: registry, options: options, identity: identity)
    StdioServer.exitProcess(status: reason.status)  // not exit(): a handler may still run on another thread
} catch {
    FileHandle.standardError.write(Data("hello-rpc: \(error)\n".utf8))
    StdioServer.exitProcess(status: 2)
}
