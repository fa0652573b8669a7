/// A platform's product CSV as an import's rows: the preset's canonical records
/// (`PlatformCatalogTranslator`) go through the catalog file reader's own checks exactly as an
/// NDJSON catalog's lines would (each record is written as one NDJSON line, on the line number of
/// the platform row it came from, so every error names the platform file's line). What the
/// translator cannot read and what the checks find wrong are reported together, in line order,
/// a checked value's field named with the platform's column (`name (Title)`).
///
/// One thread at a time (an import may hand it to its reading thread and back); a value type
/// sharing its translator with the byte source it feeds the checks from.
public struct PlatformCatalogReader<Source: ByteSource> {
    private let translation: Translation
    private var checks: CatalogFileReader<TranslatedLines>

    public init(preset: CatalogPreset, options: PlatformImportOptions, source: Source) {
        translation = Translation(PlatformCatalogTranslator(preset: preset, options: options, source: source))
        checks = CatalogFileReader(format: .ndjson, source: TranslatedLines(translation: translation))
    }

    /// The next good row, or nil at the end of the file.
    /// - Throws: `ByteSourceError` if reading the platform's file fails.
    public mutating func next() throws(ByteSourceError) -> CatalogRow? {
        do {
            return try checks.next()
        } catch {
            throw translation.readError ?? error
        }
    }

    /// Adds an error the import found with a row, to be reported with the file's own.
    public mutating func report(_ error: CatalogFileError) {
        checks.report(error)
    }

    /// Whether anything was found wrong so far.
    public var hasErrors: Bool { !checks.errors.isEmpty || !translation.translator.errors.isEmpty }

    /// The first errors of both kinds in line order (at most `CatalogLimits.maxReportedErrors`),
    /// and how many more there are.
    public var errors: CatalogFileErrors {
        let translator = translation.translator
        let checked = checks.errors.shown.map { error in
            guard let column = CanonicalColumn(rawValue: error.field), let source = translator.sourceColumn(of: column) else { return error }
            return CatalogFileError(line: error.line, field: "\(error.field) (\(source))", message: error.message)
        }
        let first = (translator.errors.shown + checked).enumerated()
            .sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }
            .prefix(CatalogLimits.maxReportedErrors).map(\.element)
        var merged = CatalogFileErrors()
        first.forEach { merged.append($0) }
        let rest = translator.errors.count + checks.errors.count - first.count
        // Only counted: when some are left out, the shown list is already full.
        for _ in 0..<max(0, rest) { merged.append(line: 0, field: "", message: "") }
        return merged
    }

    /// The platform part of the summary: ignored columns, skipped rows.
    public var report: PlatformImportReport { translation.translator.report }

    /// The warnings of the translated rows' checks (a new product without stock, say); the
    /// platform's columns kept nowhere are the report's, not warnings.
    public var warnings: [CatalogImportWarning] { checks.warnings }

    /// Bytes of the platform's file read so far, for progress.
    public var bytesRead: Int { translation.translator.bytesRead }

    /// The translator, shared by the reader and the byte source the checks read; touched by one
    /// thread at a time, as the reader is.
    private final class Translation {
        var translator: PlatformCatalogTranslator<Source>
        /// Why reading the platform's file failed, kept to be thrown as it is.
        var readError: ByteSourceError?
        /// The NDJSON not yet handed to the checks.
        var pending: [UInt8] = []
        var pendingStart = 0
        /// The line number the next NDJSON line written will have.
        var nextLine = 1
        var ended = false

        init(_ translator: PlatformCatalogTranslator<Source>) {
            self.translator = translator
        }
    }

    /// The records as NDJSON lines, each on its platform row's line number (blank lines fill the gaps).
    private struct TranslatedLines: ByteSource {
        let translation: Translation

        mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(ByteSourceError) -> Int {
            let state = translation
            while state.pendingStart == state.pending.count {
                if state.ended { return 0 }
                state.pending.removeAll(keepingCapacity: true)
                state.pendingStart = 0
                let record: CanonicalCatalogRecord?
                do {
                    record = try state.translator.next()
                } catch {
                    state.readError = error
                    throw error
                }
                guard let record else {
                    state.ended = true
                    return 0
                }
                while state.nextLine < record.line {
                    state.pending.append(0x0A)
                    state.nextLine += 1
                }
                CanonicalNDJSON.append(record, to: &state.pending)
                state.pending.append(0x0A)
                state.nextLine += 1
            }
            let count = min(buffer.count, state.pending.count - state.pendingStart)
            state.pending.withUnsafeBytes { bytes in
                buffer.baseAddress!.copyMemory(from: bytes.baseAddress! + state.pendingStart, byteCount: count)
            }
            state.pendingStart += count
            return count
        }
    }
}
