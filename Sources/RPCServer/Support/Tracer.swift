import Foundation

/// `--trace FILE`: appends every message in and out as a JSON line
/// `{"t":<unix seconds>,"dir":"in"|"out","msg":<message>}`. Writes happen on the tracer's own
/// serial queue, off the hot path's queues. Thread-safe.
public final class Tracer: Sendable {
    private let queue = DispatchQueue(label: "RPCServer.tracer", qos: .utility)
    private let handle: FileHandle

    public init(path: String) throws {
        if !FileManager.default.fileExists(atPath: path) {
            guard FileManager.default.createFile(atPath: path, contents: nil) else {
                throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
            }
        }
        handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
    }

    /// Records one message body. A body that is not valid JSON is recorded as a string.
    public func record(direction: String, body: some Collection<UInt8>) {
        let bytes = Array(body)
        let time = Date().timeIntervalSince1970
        queue.async { [handle] in
            var line = Array("{\"t\":\(String(format: "%.6f", time)),\"dir\":\"\(direction)\",\"msg\":".utf8)
            if (try? JSONParser.parse(bytes)) != nil {
                line.append(contentsOf: bytes)
            } else {
                JSONWriter.writeString(String(decoding: bytes, as: UTF8.self), into: &line)
            }
            line.append(contentsOf: Array("}\n".utf8))
            try? handle.write(contentsOf: Data(line))
        }
    }

    /// Waits for queued records to be written.
    public func flush() {
        queue.sync { [handle] in try? handle.synchronize() }
    }
}
