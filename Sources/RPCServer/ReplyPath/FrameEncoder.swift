/// Frames outgoing message bodies for the stream's framing, appending to an output buffer so many
/// frames can be coalesced into one write. Stateless; any thread.
package enum FrameEncoder {
    package static func append(_ body: [UInt8], framing: Framing, to out: inout [UInt8]) {
        switch framing {
        case .ndjson:
            out.append(contentsOf: body)
            out.append(0x0A)
        case .lsp:
            JSONWriter.append("Content-Length: ", to: &out)
            out.append(contentsOf: String(body.count).utf8)
            JSONWriter.append("\r\n\r\n", to: &out)
            out.append(contentsOf: body)
        }
    }
}
