import FuzzSupport
@testable import RPCServer  // the engine's internals (FrameDecoder, JSONParser, RPCEngine) are package-only

/// libFuzzer entry for `FrameDecoder`.
///
/// Input layout: byte 0 chooses the framing (auto-detect, NDJSON, LSP), byte 1 the message limit
/// (1, 64 or 4096 bytes), byte 2 seeds the chunk sizes; the rest is the stream. The stream is fed
/// three ways (random chunks, all at once, byte by byte) and must give the same events each time.
/// Invariants: no trap; after each chunk is drained, the bytes held are at most
/// max(limit, header limit) (so at most limit + one chunk + header limit at any time); every
/// message is at most the limit.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFrameDecoder(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let framing: Framing? = [nil, .ndjson, .lsp][Int(input.takeByte() % 3)]
    let limit = [1, 64, 4096][Int(input.takeByte() % 3)]
    var random = FuzzRandom(seed: UInt64(input.takeByte()))
    let stream = input.rest

    var chunks: [Int] = []
    var remaining = stream.count
    while remaining > 0 {
        let size = min(remaining, random.chunkSize())
        chunks.append(size)
        remaining -= size
    }
    let chunked = feed(stream, in: chunks, framing: framing, limit: limit)
    let whole = feed(stream, in: stream.isEmpty ? [] : [stream.count], framing: framing, limit: limit)
    let byteByByte = feed(stream, in: Array(repeating: 1, count: stream.count), framing: framing, limit: limit)
    fuzzCheck(chunked == whole, "chunks \(chunks) gave \(describe(chunked)); all at once gave \(describe(whole))")
    fuzzCheck(byteByByte == whole, "byte by byte gave \(describe(byteByByte)); all at once gave \(describe(whole))")
    return 0
}

/// Feeds `stream` in chunks of the given sizes, drains after each, and returns every event
/// (including `finish()`'s), checking the memory and size bounds as it goes.
private func feed(_ stream: UnsafeBufferPointer<UInt8>, in chunks: [Int], framing: Framing?, limit: Int) -> [FrameDecoder.Event] {
    var decoder = FrameDecoder(framing: framing, maxMessageBytes: limit)
    var events: [FrameDecoder.Event] = []
    var offset = 0
    let heldBound = max(limit, FrameDecoder.maxHeaderBytes)
    for chunk in chunks {
        decoder.append(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: stream[offset..<(offset + chunk)])))
        offset += chunk
        fuzzCheck(decoder.bufferedByteCount <= limit + chunk + FrameDecoder.maxHeaderBytes,
                  "holds \(decoder.bufferedByteCount) bytes after a \(chunk)-byte chunk (limit \(limit))")
        while let event = decoder.next() {
            if case .message(let body) = event {
                fuzzCheck(body.count <= limit, "a \(body.count)-byte message passed the \(limit)-byte limit")
            }
            events.append(event)
        }
        fuzzCheck(decoder.bufferedByteCount <= heldBound,
                  "holds \(decoder.bufferedByteCount) bytes after draining (bound \(heldBound))")
    }
    if let last = decoder.finish() {
        if case .message(let body) = last {
            fuzzCheck(body.count <= limit, "finish() returned a \(body.count)-byte message over the \(limit)-byte limit")
        }
        events.append(last)
    }
    return events
}

private func describe(_ events: [FrameDecoder.Event]) -> String {
    events.map { event -> String in
        switch event {
        case .message(let body): return "message(\(String(decoding: body, as: UTF8.self).debugDescription))"
        case .error(let error): return "error(\(error.type ?? "?"): \(error.message))"
        }
    }.description
}
