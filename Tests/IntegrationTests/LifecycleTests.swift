import Foundation
import XCTest

/// End of input, SIGTERM and a closed stdout all end the process cleanly with exit status 0.
final class LifecycleTests: XCTestCase {
    func test_endOfInput_letsCallsInFlightFinish_thenExitsZero() throws {
        let server = try ServerProcess(["--db", ":memory:", "--simulate-latency", "catalog.get=300"])
        server.sendLine(rpc(1, "catalog.get", ["sku": "SKU-0001"]))
        server.sendLine(rpc(2, "ping"))
        server.closeInput()
        let output = server.remainingOutput()
        XCTAssertTrue(output.contains(#""id":1,"result""#), output)
        XCTAssertTrue(output.contains(#""id":2,"result""#), output)
        XCTAssertEqual(server.waitForExit(), 0)
    }

    func test_endOfInput_withNothingSent_exitsZeroAtOnce() throws {
        let server = try ServerProcess()
        server.closeInput()
        XCTAssertEqual(server.remainingOutput(), "")
        XCTAssertEqual(server.waitForExit(), 0)
    }

    /// The stdin thread waits for input in read(2); a parent that hands over a non-blocking stdin
    /// gets EAGAIN there, and the thread waits in poll(2) instead. Requests sent after idle pauses
    /// (so that reads find the pipe empty) are all answered, and end of input still ends the session.
    func test_nonBlockingStdin_requestsAfterIdlePauses_answered_thenEndOfInputExitsZero() throws {
        let server = try ServerProcess(nonBlockingStdin: true)
        for id in 1...5 {
            server.sendLine(rpc(id, "catalog.get", ["sku": "SKU-0001"]))
            let reply = server.readJSON() as? [String: Any]
            XCTAssertEqual(reply?["id"] as? Int, id)
            XCTAssertEqual(reply?.result?["sku"] as? String, "SKU-0001")
            usleep(20_000)  // the server's next read finds the pipe empty
        }
        server.closeInput()
        XCTAssertEqual(server.remainingOutput(), "")
        XCTAssertEqual(server.waitForExit(), 0)
    }

    /// SIGTERM while the stdin thread waits in a read that no input will end (the client keeps
    /// stdin open and sends nothing): the session still ends within the grace period.
    func test_sigterm_whileIdleWithStdinOpen_exitsZero() throws {
        let server = try ServerProcess(["--db", ":memory:", "--shutdown-grace-ms", "100"])
        server.sendLine(rpc(1, "ping"))
        XCTAssertEqual((server.readJSON() as? [String: Any])?["id"] as? Int, 1)
        usleep(20_000)  // the stdin thread is back in its read
        server.process.terminate()
        XCTAssertEqual(server.waitForExit(timeout: 10), 0)
    }

    func test_sigterm_answersCallsStillRunningWithShuttingDown_andExitsZero() throws {
        let server = try ServerProcess(["--db", ":memory:", "--simulate-latency", "catalog.list=60000", "--shutdown-grace-ms", "200"])
        server.sendLine(rpc(1, "catalog.list"))
        server.sendLine(rpc(2, "ping"))
        XCTAssertEqual((server.readJSON() as? [String: Any])?["id"] as? Int, 2)  // the server is up and has read both
        server.process.terminate()  // SIGTERM
        let reply = server.readJSON() as? [String: Any]
        XCTAssertEqual(reply?["id"] as? Int, 1)
        XCTAssertEqual(reply?.errorCode, -32002)
        XCTAssertEqual(reply?.errorType, "ShuttingDown")
        XCTAssertEqual(server.waitForExit(), 0)
    }

    func test_sigterm_alsoStopsSlowNotifications_withinTheGracePeriod() throws {
        // A notification has no reply, but its work is in flight like any call's: shutdown must
        // cancel it after the grace period rather than wait for its 30 s deadline.
        let server = try ServerProcess(["--db", ":memory:", "--simulate-latency", "catalog.list=60000", "--shutdown-grace-ms", "100"])
        server.sendLine(#"{"jsonrpc":"2.0","method":"catalog.list"}"#)
        server.sendLine(rpc(1, "ping"))
        XCTAssertEqual((server.readJSON() as? [String: Any])?["id"] as? Int, 1)
        server.process.terminate()
        XCTAssertEqual(server.waitForExit(timeout: 10), 0, "exited within the grace period, not at the notification's deadline")
        XCTAssertEqual(server.remainingOutput(), "", "a notification is never answered, not even on shutdown")
    }

    func test_sigint_withCallsThatFinishInTheGracePeriod_answersThemNormally() throws {
        let server = try ServerProcess(["--db", ":memory:", "--simulate-latency", "catalog.get=1000", "--shutdown-grace-ms", "30000"])
        server.sendLine(rpc(1, "catalog.get", ["sku": "SKU-0001"]))
        server.sendLine(rpc(2, "ping"))
        var replies: [String: [String: Any]] = [:]
        if let first = server.readJSON() as? [String: Any], let id = first["id"] as? Int { replies["\(id)"] = first }  // the server is up
        server.process.interrupt()  // SIGINT, most likely while catalog.get still runs; either way it is answered normally
        if let second = server.readJSON() as? [String: Any], let id = second["id"] as? Int { replies["\(id)"] = second }
        XCTAssertEqual(replies["1"]?.result?["sku"] as? String, "SKU-0001")
        XCTAssertNotNil(replies["2"]?.result, "\(replies)")
        XCTAssertEqual(server.waitForExit(), 0)
    }

    func test_closedStdout_endsTheProcessCleanly_withALogLine() throws {
        let server = try ServerProcess(closeStdout: true)
        for id in 0..<200 { server.sendLine(rpc(id, "ping")) }
        XCTAssertEqual(server.waitForExit(), 0)
        XCTAssertTrue(server.stderrOutput.contains("stdout closed"), server.stderrOutput)
    }

    /// A stray `print` cannot reach the protocol stream: fd 1 has been pointed at stderr, and the
    /// protocol goes to a duplicate of the original stdout (checked through /proc).
    func test_fdOne_pointsAtStderr_andTheProtocolGoesToADuplicateOfTheOriginalStdout() throws {
        let server = try ServerProcess()
        server.sendLine(rpc(1, "ping"))
        _ = server.readJSON()  // set-up is done once the first reply is out
        let fds = "/proc/\(server.process.processIdentifier)/fd"
        func target(_ fd: String) -> String? { try? FileManager.default.destinationOfSymbolicLink(atPath: "\(fds)/\(fd)") }
        let stdoutPipe = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(server.stdout.fileHandleForReading.fileDescriptor)")  // both ends name the same pipe
        XCTAssertEqual(target("1"), target("2"), "fd 1 now writes to stderr")
        XCTAssertNotEqual(target("1"), stdoutPipe)
        let others = try FileManager.default.contentsOfDirectory(atPath: fds).filter { !["0", "1", "2"].contains($0) }
        XCTAssertTrue(others.contains { target($0) == stdoutPipe }, "a duplicate of the original stdout carries the protocol")
        server.closeInput()
        XCTAssertEqual(server.waitForExit(), 0)
    }

    func test_badFlag_printsUsage_andExitsTwo() throws {
        let server = try ServerProcess(["--frobnicate"])
        XCTAssertEqual(server.waitForExit(), 2)
        XCTAssertTrue(server.stderrOutput.contains("unknown option --frobnicate"))
        XCTAssertTrue(server.stderrOutput.contains("--deadline METHOD=MS"))
    }

    func test_help_andVersion() throws {
        let help = try ServerProcess(["--help"])
        XCTAssertTrue(help.remainingOutput().contains("--simulate-latency"))
        XCTAssertEqual(help.waitForExit(), 0)
        let version = try ServerProcess(["--version"])
        XCTAssertTrue(version.remainingOutput().hasPrefix("shop-rpc "))
    }
}
