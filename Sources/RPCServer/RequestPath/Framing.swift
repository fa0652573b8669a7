/// How messages are delimited on a byte stream. Replies use the framing of the input. By default
/// (`ServerOptions.framing == nil`) it is detected from the first byte; set it to insist on one.
///
/// ```swift
/// var options = try ServerOptions.parse(["--framing", "lsp"])  // or:
/// options.framing = .lsp
/// ```
public enum Framing: String, Sendable, CaseIterable {
    /// One JSON text per line (the MCP stdio convention).
    case ndjson
    /// `Content-Length` headers, a blank line, then the body (the LSP base protocol).
    case lsp
}
