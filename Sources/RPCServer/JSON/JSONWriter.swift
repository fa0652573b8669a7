import SharedSupport  // JSONStringLiteral

/// Serialises `JSONValue` to compact UTF-8 JSON, appending to a byte buffer.
///
/// Output never contains a raw newline (control characters are escaped), so one value is always
/// one NDJSON line. Non-finite doubles are written as `null`. Stateless; any thread.
package enum JSONWriter {
    package static func write(_ value: JSONValue, into out: inout [UInt8]) {
        switch value {
        case .null: append("null", to: &out)
        case .bool(let flag): append(flag ? "true" : "false", to: &out)
        case .int(let number): writeInteger(number, into: &out)
        case .double(let number): writeDouble(number, into: &out)
        case .string(let string): writeString(string, into: &out)
        case .array(let elements):
            var separator = UInt8(ascii: "[")
            for element in elements {
                out.append(separator)
                separator = UInt8(ascii: ",")
                write(element, into: &out)
            }
            if elements.isEmpty { out.append(separator) }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            var separator = UInt8(ascii: "{")
            for member in object.members {
                out.append(separator)
                separator = UInt8(ascii: ",")
                writeString(member.key, into: &out)
                out.append(UInt8(ascii: ":"))
                write(member.value, into: &out)
            }
            if object.members.isEmpty { out.append(separator) }
            out.append(UInt8(ascii: "}"))
        }
    }

    package static func encode(_ value: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64)
        write(value, into: &out)
        return out
    }

    package static func writeInteger(_ number: Int64, into out: inout [UInt8]) {
        if number < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = number.magnitude
        // Digits from the right into a 20-byte scratch (UInt64.max has 20), then one append.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { scratch in
            var start = scratch.count
            repeat {
                start -= 1
                scratch[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            out.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[start...]))
        }
    }

    package static func writeDouble(_ number: Double, into out: inout [UInt8]) {
        guard number.isFinite else { return append("null", to: &out) }
        if number == number.rounded(), abs(number) < 1e15 {
            writeInteger(Int64(number), into: &out)
        } else {
            out.append(contentsOf: "\(number)".utf8)  // shortest round-trip form
        }
    }

    package static func writeString(_ string: String, into out: inout [UInt8]) {
        JSONStringLiteral.append(string, to: &out)
    }

    /// A `StaticString` (an object key of a `JSONOutput`), escaped as any string is.
    package static func writeString(_ string: StaticString, into out: inout [UInt8]) {
        string.withUTF8Buffer { JSONStringLiteral.append(utf8: $0, to: &out) }
    }

    @inline(__always)
    static func append(_ literal: StaticString, to out: inout [UInt8]) {
        out.append(contentsOf: UnsafeRawBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }
}
