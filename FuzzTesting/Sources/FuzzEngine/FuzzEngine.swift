import Dispatch
import Glibc
import FuzzSupport
@testable import RPCServer  // the engine's internals (FrameDecoder, JSONParser, RPCEngine) are package-only
import ShopAPI
import ShopRPCBinding

/// libFuzzer entry for the whole engine in-process.
///
/// The input is an NDJSON stream: it is framed by `FrameDecoder`, every message is submitted to one
/// `RPCEngine` serving every shop method in every scope (`read,write,admin`, as
/// `--allow read,write,admin` does: nothing a client sends may stop the server, whatever it is
/// allowed) on an in-memory store (created once per process), and the
/// harness waits until the engine has drained and every reply has been delivered (a hang of 10 s
/// is reported as a crash). Then `ReplyExpectations` checks the replies against the requests.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEngine(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var decoder = FrameDecoder(framing: .ndjson, maxMessageBytes: EngineHarness.maxMessageBytes)
    decoder.append(UnsafeRawBufferPointer(start: data, count: size))
    var messages: [[UInt8]] = []
    var framingErrors = 0
    while let event = decoder.next() { record(event) }
    if let event = decoder.finish() { record(event) }
    func record(_ event: FrameDecoder.Event) {
        switch event {
        case .message(let body): messages.append(Array(body))
        case .error: framingErrors += 1  // the transport answers these itself; the engine never sees them
        }
    }
    guard !messages.isEmpty else { return 0 }

    var expectations = ReplyExpectations()
    for message in messages { expectations.expect(repliesTo: message) }
    let replies = EngineHarness.shared.run(messages)
    expectations.check(replies)
    return 0
}

/// One engine and store for the whole process, and the submit-and-wait loop. Thread-safe: `run`
/// blocks its caller (libFuzzer's thread) and collects replies on a private serial queue.
final class EngineHarness: Sendable {
    static let maxMessageBytes = 64 * 1024
    static let hangGuardSeconds = 10
    static let shared = EngineHarness()

    private let engine: RPCEngine
    private let replyQueue = DispatchQueue(label: "FuzzEngine.replies")

    private init() {
        let service: ShopService
        do { service = try ShopService.open(path: ":memory:") } catch { fatalError("cannot open the in-memory store: \(error)") }
        var configuration = EngineConfiguration()
        configuration.maxMessageBytes = Self.maxMessageBytes
        configuration.allowedScopes = Set(ShopScope.allCases.map(\.rawValue))
        engine = RPCEngine(registry: MethodRegistry(ShopMethods.specs(service: service)), configuration: configuration)
    }

    /// Submits `messages` in order and returns every body the engine sent (replies and progress
    /// notifications, in delivery order) once nothing is in flight.
    func run(_ messages: [[UInt8]]) -> [[UInt8]] {
        let collected = ReplyBox()
        for message in messages {
            engine.submit(message, callbackQueue: replyQueue) { body in collected.bodies.append(body) }
        }
        let done = DispatchSemaphore(value: 0)
        // `submit` hops to the reader queue, so this block runs after every message was received;
        // replies are handed to `replyQueue` before a call counts as settled, so the final hop
        // there runs after the last reply was delivered.
        engine.readerQueue.async { [engine, replyQueue] in
            engine.notifyWhenDrained { replyQueue.async { done.signal() } }
        }
        if done.wait(timeout: .now() + .seconds(Self.hangGuardSeconds)) == .timedOut {
            fatalError("hang: the engine did not drain within \(Self.hangGuardSeconds) s (\(engine.inflightCount) calls in flight)")
        }
        // No grace period for late replies: draining promises every reply was handed on (an open
        // batch counts as in flight; `EngineDrainOrderRegressionTests` pins the bug this found).
        return replyQueue.sync { collected.bodies }
    }
}

/// Bodies delivered so far; touched only on the harness's reply queue.
private final class ReplyBox: @unchecked Sendable {  // `bodies` is only touched on EngineHarness.replyQueue
    var bodies: [[UInt8]] = []
}
