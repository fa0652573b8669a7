import Foundation
import XCTest

/// A client that writes its whole batch of requests before it reads a single reply (a script
/// piping a file in, then reading): the server must keep reading while its output pipe is full,
/// since replies written by the thread that reads input must never wait on the client. Every wait
/// here is bounded: a server that stopped reading fails the test instead of hanging it.
final class UnreadRepliesTests: XCTestCase {
    func test_clientWritesEverythingBeforeReading_serverKeepsReading_everyRequestAnswered() throws {
        let process = Process()
        let input = Pipe()
        let output = Pipe()
        process.executableURL = ServerProcess.binaryURL
        process.arguments = ["--db", ":memory:"]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        // About 700 KB of input and 600 KB of replies: several times a pipe's 64 KiB on both
        // sides, and below the writer's 1 MiB backlog, so nothing has to wait on the client.
        let count = 16_000
        let requests = (0..<count).map { #"{"jsonrpc":"2.0","id":\#($0),"method":"ping"}"# + "\n" }.joined()
        let written = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            try? input.fileHandleForWriting.write(contentsOf: Data(requests.utf8))
            try? input.fileHandleForWriting.close()
            written.signal()
        }
        guard written.wait(timeout: .now() + 60) == .success else {
            process.terminate()
            return XCTFail("the server stopped reading while its replies were unread")
        }

        let replies = output.fileHandleForReading.readDataToEndOfFile()
        let lines = replies.split(separator: UInt8(ascii: "\n"))
        XCTAssertEqual(lines.count, count)
        let ids = Set(lines.compactMap { line -> Int? in
            (try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])?["id"] as? Int
        })
        XCTAssertEqual(ids, Set(0..<count))
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
    }
}
