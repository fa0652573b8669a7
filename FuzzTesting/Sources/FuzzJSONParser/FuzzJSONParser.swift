import Foundation
import FuzzSupport
@testable import RPCServer  // the engine's internals (FrameDecoder, JSONParser, RPCEngine) are package-only

/// libFuzzer entry for `JSONParser`.
///
/// Oracles: (1) differential: Foundation's `JSONSerialization` (`.fragmentsAllowed`) accepts
/// exactly the documents our parser accepts, except where our documented strictness differs (each
/// exception below is named and explained); (2) round trip: an accepted document written with
/// `JSONWriter` parses again to an equal value (`jsonSemanticallyEqual`); (3) `parseEnvelope`,
/// which reads a request object's envelope members without building the object, agrees with
/// `parse`: the same error at the same offset, nil for anything but an object, and for an object
/// the last value of each envelope key. No trap, whatever the bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    let ours: Result<JSONValue, JSONParseError>
    do { ours = .success(try JSONParser.parse(bytes)) } catch { ours = .failure(error) }

    // Foundation guesses UTF-16/32 from NULs in the first four bytes or a byte-order mark, and
    // then judges a different document; our wire format is UTF-8 only, so those are not compared.
    let comparable = !foundationDetectsAnotherEncoding(bytes)
    let foundationAccepts = comparable && (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) != nil
    checkEnvelope(bytes, against: ours)
    switch ours {
    case .success(let value):
        if comparable, !foundationAccepts, !foundationRejectsWhatWeAccept(value) {
            fuzzCheck(false, "we accept, Foundation rejects: \(preview(bytes))")
        }
        let written = JSONWriter.encode(value)
        let reparsed: JSONValue
        do { reparsed = try JSONParser.parse(written) } catch {
            fuzzCheck(false, "our own output does not parse (\(error.detail)): \(preview(written))")
            return 0
        }
        fuzzCheck(jsonSemanticallyEqual(value, reparsed), "round trip changed \(preview(bytes)) into \(preview(written))")
    case .failure(let error):
        if foundationAccepts, !weRejectWhatFoundationAccepts(bytes, error) {
            fuzzCheck(false, "we reject (\(error.detail) at \(error.offset)), Foundation accepts: \(preview(bytes))")
        }
    }
    return 0
}

/// Oracle (3): `JSONParser.parseEnvelope` against `parse`'s result for the same bytes.
private func checkEnvelope(_ bytes: UnsafeRawBufferPointer, against ours: Result<JSONValue, JSONParseError>) {
    let envelope: Result<JSONParser.EnvelopeMembers?, JSONParseError>
    do { envelope = .success(try JSONParser.parseEnvelope(bytes)) } catch { envelope = .failure(error) }
    switch (ours, envelope) {
    case (.failure(let error), .failure(let envelopeError)):
        fuzzCheck(error.detail == envelopeError.detail && error.offset == envelopeError.offset,
                  "parse and parseEnvelope fail differently (\(error.detail) at \(error.offset); \(envelopeError.detail) at \(envelopeError.offset)): \(preview(bytes))")
    case (.failure(let error), .success(let members)):
        // Only a non-object may be left to `parse` (nil); an object must fail the same way.
        fuzzCheck(members == nil && !startsWithObject(bytes), "parse fails (\(error.detail)), parseEnvelope accepts: \(preview(bytes))")
    case (.success, .failure(let envelopeError)):
        fuzzCheck(false, "parse accepts, parseEnvelope fails (\(envelopeError.detail)): \(preview(bytes))")
    case (.success(let value), .success(let members)):
        guard case .object(let object) = value else {
            return fuzzCheck(members == nil, "parseEnvelope read a non-object: \(preview(bytes))")
        }
        guard let members else { return fuzzCheck(false, "parseEnvelope left an object to parse: \(preview(bytes))") }
        for (key, found) in [("jsonrpc", members.jsonrpc), ("method", members.method), ("params", members.params), ("id", members.id)] {
            fuzzCheck(found.map { jsonSemanticallyEqual($0, object[key] ?? .null) } ?? (object[key] == nil),
                      "parseEnvelope's \(key) differs from the object's: \(preview(bytes))")
        }
    }
}

/// Whether the first byte after leading JSON white space opens an object.
private func startsWithObject(_ bytes: UnsafeRawBufferPointer) -> Bool {
    bytes.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } == UInt8(ascii: "{")
}

// MARK: - Documented differences

/// Foundation reads UTF-16 or UTF-32 when the first four bytes hold a NUL, and skips a byte-order
/// mark (UTF-8 `EF BB BF`, UTF-16 `FE FF`/`FF FE`). Our parser reads UTF-8 only and rejects both a
/// raw NUL and a BOM, which protocol.md requires (NDJSON/LSP bodies are UTF-8 JSON texts).
private func foundationDetectsAnotherEncoding(_ bytes: UnsafeRawBufferPointer) -> Bool {
    if bytes.prefix(4).contains(0) { return true }
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) || bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) { return true }
    return false
}

/// Documents our parser accepts and Foundation on Linux rejects, on purpose: a number literal out
/// of `Double`'s range (`1e999`). protocol.md: "Numbers of any length are accepted"; such a number
/// reads as an infinite double (written back as `null`). Foundation rejects the document.
private func foundationRejectsWhatWeAccept(_ value: JSONValue) -> Bool {
    containsNonFiniteNumber(value)
}

private func containsNonFiniteNumber(_ value: JSONValue) -> Bool {
    switch value {
    case .double(let number): return !number.isFinite
    case .array(let elements): return elements.contains(where: containsNonFiniteNumber)
    case .object(let object): return object.members.contains { containsNonFiniteNumber($0.value) }
    default: return false
    }
}

/// Documents Foundation on Linux accepts and our parser rejects on purpose (protocol.md section 2).
private func weRejectWhatFoundationAccepts(_ bytes: UnsafeRawBufferPointer, _ error: JSONParseError) -> Bool {
    // Our nesting limit is 128 levels; Foundation's is higher.
    if error.detail.hasPrefix("nesting deeper than") { return true }
    // Foundation on Linux accepts a trailing comma before `]` or `}` (`[1,]`, `{"a":1,}`); RFC 8259
    // does not. The exception holds only if the document parses for us once those commas are gone.
    let stripped = removingTrailingCommas(bytes)
    if stripped.count != bytes.count, (try? JSONParser.parse(stripped)) != nil { return true }
    return false
}

/// `bytes` without each comma (outside strings) whose next non-whitespace byte is `]` or `}`.
private func removingTrailingCommas(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var inString = false
    var escaped = false
    for (offset, byte) in bytes.enumerated() {
        if inString {
            if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
        } else if byte == UInt8(ascii: "\"") {
            inString = true
        } else if byte == UInt8(ascii: ",") {
            let next = bytes[(offset + 1)...].first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
            if next == UInt8(ascii: "]") || next == UInt8(ascii: "}") { continue }
        }
        out.append(byte)
    }
    return out
}

private func preview<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
    let shown = bytes.prefix(300)
    return "\(bytes.count) bytes " + String(decoding: shown, as: UTF8.self).debugDescription
        + " hex " + shown.prefix(64).map { String(format: "%02x", $0) }.joined()
}
