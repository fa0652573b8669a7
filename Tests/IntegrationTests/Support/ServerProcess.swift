import Foundation
import XCTest

/// The real `shop-rpc` binary, spawned over real pipes, as a client would run it. Reads its stdout
/// on a background thread; every wait is bounded, so a broken server fails a test, never hangs it.
final class ServerProcess: @unchecked Sendable {
    let process = Process()
    let stdin = Pipe()
    let stdout = Pipe()
    let stderr = Pipe()
    private let condition = NSCondition()
    private var buffer: [UInt8] = []
    private var stdoutClosed = false
    private var stderrText = ""
    private var stderrClosed = false

    /// A write to a server that has exited (a test that failed, or one that checks an exit) must
    /// fail that write, not kill the whole test process with SIGPIPE, as a server that could not
    /// open its store once did to every test after it.
    private static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

    /// The binary under test: `SHOP_RPC_BIN`, else the one built next to this test bundle.
    static var binaryURL: URL {
        if let path = ProcessInfo.processInfo.environment["SHOP_RPC_BIN"] { return URL(fileURLWithPath: path) }
        return builtBinary("shop-rpc")
    }

    /// The executable product `name` built next to this test bundle.
    static func builtBinary(_ name: String) -> URL {
        var directory = Bundle(for: ServerProcess.self).bundleURL
        while directory.pathExtension == "xctest" || directory.lastPathComponent == "Contents" {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent(name)
    }

    /// `closeStdout` closes our end of the server's stdout at once (a client that went away).
    /// `nonBlockingStdin` gives the server its stdin in O_NONBLOCK mode (the flag belongs to the
    /// pipe's open file description, which the server's fd 0 shares), as some hosts do.
    /// `executable` is the server to spawn (shop-rpc unless a test names another).
    init(_ arguments: [String] = ["--db", ":memory:"], environment: [String: String]? = nil, closeStdout: Bool = false,
         nonBlockingStdin: Bool = false, executable: URL = ServerProcess.binaryURL) throws {
        _ = Self.ignoreBrokenPipes
        if nonBlockingStdin {
            let fd = stdin.fileHandleForReading.fileDescriptor
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        if closeStdout {
            try stdout.fileHandleForReading.close()
            stdoutClosed = true
        } else {
            Self.readUntilEOF(stdout.fileHandleForReading.fileDescriptor) { [self] chunk in
                condition.lock()
                if let chunk { buffer.append(contentsOf: chunk) } else { stdoutClosed = true }
                condition.broadcast()
                condition.unlock()
            }
        }
        Self.readUntilEOF(stderr.fileHandleForReading.fileDescriptor) { [self] chunk in
            condition.lock()
            if let chunk { stderrText += String(decoding: chunk, as: UTF8.self) } else { stderrClosed = true }
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Reads `fd` on a thread of its own with read(2), passing each chunk, then nil at EOF or error.
    private static func readUntilEOF(_ fd: Int32, _ deliver: @escaping @Sendable ([UInt8]?) -> Void) {
        Thread.detachNewThread {
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return deliver(nil) }
                deliver(Array(chunk[..<count]))
            }
        }
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    // MARK: - Writing

    func send(_ text: String) { send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) {
        try? stdin.fileHandleForWriting.write(contentsOf: Data(bytes))
    }

    /// Sends one NDJSON line.
    func sendLine(_ json: String) { send(json + "\n") }

    func closeInput() { try? stdin.fileHandleForWriting.close() }

    // MARK: - Reading

    /// Waits for the next NDJSON line; nil if the server closed stdout or `timeout` passed.
    func readLine(timeout: TimeInterval = 20) -> String? {
        take(timeout: timeout) { buffer in
            guard let newline = buffer.firstIndex(of: 0x0A) else { return nil }
            return (String(decoding: buffer[..<newline], as: UTF8.self), newline + 1)
        }
    }

    /// Waits for the next line and parses it.
    func readJSON(timeout: TimeInterval = 20, file: StaticString = #filePath, line: UInt = #line) -> Any? {
        guard let text = readLine(timeout: timeout) else {
            XCTFail("no reply from the server (stderr: \(stderrOutput))", file: file, line: line)
            return nil
        }
        guard let value = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) else {
            XCTFail("reply is not JSON: \(text)", file: file, line: line)
            return nil
        }
        return value
    }

    /// Waits for `count` replies and returns them keyed by id (as a string).
    func readReplies(_ count: Int, timeout: TimeInterval = 60, file: StaticString = #filePath, line: UInt = #line) -> [String: [String: Any]] {
        var replies: [String: [String: Any]] = [:]
        for _ in 0..<count {
            guard let reply = readJSON(timeout: timeout, file: file, line: line) as? [String: Any] else { break }
            let key = "\(reply["id"] ?? "nil")"
            XCTAssertNil(replies[key], "id \(key) answered twice", file: file, line: line)
            replies[key] = reply
        }
        return replies
    }

    /// Waits for the next LSP frame; returns its body.
    func readFrame(timeout: TimeInterval = 20) -> String? {
        take(timeout: timeout) { buffer in
            let separator: [UInt8] = [13, 10, 13, 10]
            guard let headerEnd = buffer.indices.first(where: { buffer[$0...].starts(with: separator) }) else { return nil }
            let header = String(decoding: buffer[..<headerEnd], as: UTF8.self)
            guard let length = header.split(separator: ":").last.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) else { return nil }
            let bodyStart = headerEnd + 4
            guard buffer.count >= bodyStart + length else { return nil }
            return (String(decoding: buffer[bodyStart..<(bodyStart + length)], as: UTF8.self), bodyStart + length)
        }
    }

    /// Everything not yet consumed once stdout has closed (waits for the close).
    func remainingOutput(timeout: TimeInterval = 20) -> String {
        let limit = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while !stdoutClosed, condition.wait(until: limit) {}
        let text = String(decoding: buffer, as: UTF8.self)
        buffer.removeAll()
        return text
    }

    var stderrOutput: String {
        condition.lock()
        defer { condition.unlock() }
        return stderrText
    }

    private func take(timeout: TimeInterval, _ extract: ([UInt8]) -> (String, Int)?) -> String? {
        let limit = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let (value, consumed) = extract(buffer) {
                buffer.removeFirst(consumed)
                return value
            }
            if stdoutClosed || !condition.wait(until: limit) { return nil }
        }
    }

    // MARK: - Exit

    /// Waits for the process to exit; returns its status, or nil if it is still running at `timeout`.
    /// Once it has exited, also waits (within `timeout`) until its stderr has been read to the end,
    /// so `stderrOutput` then holds everything it wrote, however late the reading thread runs.
    func waitForExit(timeout: TimeInterval = 20) -> Int32? {
        let limit = Date().addingTimeInterval(timeout)
        while process.isRunning {
            if Date() > limit { return nil }
            usleep(2000)
        }
        condition.lock()
        while !stderrClosed, condition.wait(until: limit) {}
        condition.unlock()
        return process.terminationStatus
    }
}

/// A request line. (Built by hand: Foundation's `JSONSerialization.data(withJSONObject:)` traps
/// while bridging some dictionaries on Linux.)
func rpc(_ id: Any, _ method: String, _ params: [String: Any]? = nil) -> String {
    var text = #"{"jsonrpc":"2.0","id":"# + jsonText(id) + #","method":"# + jsonText(method)
    if let params { text += #","params":"# + jsonText(params) }
    return text + "}"
}

/// JSON text of strings, integers, doubles, booleans, arrays and string-keyed dictionaries (keys sorted).
func jsonText(_ value: Any) -> String {
    switch value {
    case let string as String:
        var out = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    case let bool as Bool: return bool ? "true" : "false"
    case let int as Int: return String(int)
    case let double as Double: return String(double)
    case let array as [Any]: return "[" + array.map(jsonText).joined(separator: ",") + "]"
    case let object as [String: Any]:
        return "{" + object.keys.sorted().map { jsonText($0) + ":" + jsonText(object[$0]!) }.joined(separator: ",") + "}"
    default: return "null"
    }
}

extension Dictionary where Key == String, Value == Any {
    var errorCode: Int? { (self["error"] as? [String: Any])?["code"] as? Int }
    var errorType: String? { ((self["error"] as? [String: Any])?["data"] as? [String: Any])?["type"] as? String }
    var errorMessage: String? { (self["error"] as? [String: Any])?["message"] as? String }
    var errorData: [String: Any]? { (self["error"] as? [String: Any])?["data"] as? [String: Any] }
    var result: [String: Any]? { self["result"] as? [String: Any] }
}
