import Foundation
import XCTest

/// Executes every `jsonrpc-example` block of protocol.md against the real binary, so the document
/// cannot drift from the code. Format (protocol.md, section 10): an optional `$ shop-rpc ARGS`
/// line, `-->` lines to send, and after each the `<--` messages that must arrive next, compared
/// as JSON where the string "…" matches any value. After the block, input is closed and nothing
/// more may arrive.
final class ProtocolExamplesTests: XCTestCase {
    struct Example {
        var line: Int
        var arguments = ["--db", ":memory:"]
        var steps: [(send: String, expect: [String])] = []
    }

    static func examples() throws -> [Example] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("protocol.md")
        let lines = try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\n")
        var examples: [Example] = []
        var current: Example?
        for (index, line) in lines.enumerated() {
            if line == "```jsonrpc-example" {
                current = Example(line: index + 1)
            } else if line == "```", let example = current {
                examples.append(example)
                current = nil
            } else if current != nil {
                if line.hasPrefix("$ shop-rpc") {
                    current!.arguments = line.dropFirst("$ shop-rpc".count).split(separator: " ").map(String.init)
                } else if line.hasPrefix("--> ") {
                    current!.steps.append((String(line.dropFirst(4)), []))
                } else if line.hasPrefix("<-- ") {
                    current!.steps[current!.steps.count - 1].expect.append(String(line.dropFirst(4)))
                }
            }
        }
        return examples
    }

    func test_everyExampleInProtocolMd_holds() throws {
        let examples = try Self.examples()
        XCTAssertGreaterThanOrEqual(examples.count, 8, "protocol.md lost its examples")
        for example in examples {
            try run(example)
        }
    }

    private func run(_ example: Example) throws {
        let server = try ServerProcess(example.arguments)
        let lsp = example.arguments.contains("lsp")
        for step in example.steps {
            if lsp {
                server.send("Content-Length: \(step.send.utf8.count)\r\n\r\n\(step.send)")
            } else {
                server.sendLine(step.send)
            }
            for expected in step.expect {
                guard let actual = lsp ? server.readFrame(timeout: 30) : server.readLine(timeout: 30) else {
                    return XCTFail("protocol.md line \(example.line): no message after \(step.send); expected \(expected)")
                }
                let want = try JSONSerialization.jsonObject(with: Data(expected.utf8), options: [.fragmentsAllowed])
                let got = try JSONSerialization.jsonObject(with: Data(actual.utf8), options: [.fragmentsAllowed])
                XCTAssertTrue(Self.matches(want, got), "protocol.md line \(example.line):\n expected \(expected)\n actual   \(actual)")
            }
        }
        server.closeInput()
        XCTAssertEqual(server.remainingOutput(), "", "protocol.md line \(example.line): unexpected extra output")
        XCTAssertEqual(server.waitForExit(), 0)
    }

    /// JSON equality where the string "…" in `expected` matches anything.
    static func matches(_ expected: Any, _ actual: Any) -> Bool {
        if let wildcard = expected as? String, wildcard == "…" { return true }
        switch (expected, actual) {
        case let (e as [String: Any], a as [String: Any]):
            return Set(e.keys) == Set(a.keys) && e.allSatisfy { key, value in matches(value, a[key]!) }
        case let (e as [Any], a as [Any]):
            return e.count == a.count && zip(e, a).allSatisfy { matches($0, $1) }
        case let (e as String, a as String):
            return e == a
        case let (e as NSNumber, a as NSNumber):
            return e == a
        case (is NSNull, is NSNull):
            return true
        default:
            return false
        }
    }
}
