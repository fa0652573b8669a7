import Foundation

/// `--trace FILE`: appends every message in and out as a JSON line
/// `{"t":<unix seconds>,"dir":"in"|"out","msg":<message>}`. Writes happen on the tracer's own
/// serial queue, off the hot path's queues, in the order `record` was called (callers that need an
/// order, such as the writer, call it under the lock that defines that order). After `close()`,
/// records are dropped. Thread-safe.
package final class Tracer: Sendable {
    private let queue = DispatchQueue(label: "RPCServer.tracer", qos: .utility)
    /// The trace file; nil once closed.
    private let handle: QueueBound<FileHandle?>

    package init(path: String) throws {
        if !FileManager.default.fileExists(atPath: path) {
            guard FileManager.default.createFile(atPath: path, contents: nil) else {
                throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
            }
        }
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try file.seekToEnd()
        handle = QueueBound(file, queue: queue)
    }

    /// Records one message body. A body that is not valid JSON is recorded as a string. Any thread;
    /// cheap for the caller: it copies the body and hands it to the tracer's queue.
    package func record(direction: String, body: some Collection<UInt8>) {
        let bytes = Array(body)
        let time = Date().timeIntervalSince1970
        queue.async { [self] in writeOnTracerQueue(direction: direction, bytes: bytes, time: time) }
    }

    /// Waits for queued records to be written. Any thread but the tracer's queue.
    package func flush() {
        queue.sync { [self] in try? handle.value?.synchronize() }
    }

    /// Writes what is queued, syncs it to disk and closes the file; later records are dropped.
    /// Any thread but the tracer's queue.
    package func close() {
        queue.sync { [self] in
            guard let file = handle.value else { return }
            try? file.synchronize()
            try? file.close()
            handle.value = nil
        }
    }

    private func writeOnTracerQueue(direction: String, bytes: [UInt8], time: Double) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard let file = handle.value else { return }
        var line = Array("{\"t\":\(String(format: "%.6f", time)),\"dir\":\"\(direction)\",\"msg\":".utf8)
        if (try? JSONParser.parse(bytes)) != nil {
            line.append(contentsOf: bytes)
        } else {
            JSONWriter.writeString(String(decoding: bytes, as: UTF8.self), into: &line)
        }
        line.append(contentsOf: Array("}\n".utf8))
        try? file.write(contentsOf: Data(line))
    }
}
