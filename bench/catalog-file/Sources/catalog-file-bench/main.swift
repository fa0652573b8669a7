// Reads a catalog file with ShopAPI's readers and writes it back with its writers, timing each:
//   catalog-file-bench read FILE            CatalogFileReader (parse + every check), rows/s
//   catalog-file-bench scan FILE            CSVReader alone (records, no checks)
//   catalog-file-bench write FILE csv|ndjson  read, then write every row to /dev/null
//   catalog-file-bench jsonencoder FILE     read, then encode every row with JSONEncoder (the
//                                           alternative to the NDJSON writer), to /dev/null
// Prints one JSON object per run; peak RSS is the process's (getrusage).
import FoundationEssentials
@testable import ShopAPI  // the catalog file writers and the CSV scanner are package access (docs/shop-library.md)
#if canImport(Glibc)
import Glibc
#endif

func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

func warn(_ text: String) {
    var line = text + "\n"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

func rounded(_ value: Double, _ places: Double) -> Double {
    (value * places).rounded() / places
}

func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

func peakRSSMegabytes() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_maxrss) / 1024
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    warn("usage: catalog-file-bench read|scan|write FILE [csv|ndjson]")
    exit(2)
}
let mode = arguments[1], path = arguments[2]
let fd = open(path, O_RDONLY)
guard fd >= 0 else { warn("cannot open \(path)"); exit(1) }
let format = CatalogFileFormat.inferred(fromPath: path) ?? .csv
let start = now()
var rows = 0
var errors = 0
var bytes = 0
switch mode {
case "scan":
    var reader = CSVReader(source: FileDescriptorSource(fileDescriptor: fd))
    var fields = 0
    while try reader.next() {
        rows += 1
        fields += reader.fields.count
    }
    rows -= 1  // the header
    bytes = reader.bytesRead
case "jsonencoder":
    struct Line: Encodable {
        let sku: String, name: String?, description: String?, category: String?, priceCents: Int?, currency: String?, stock: Int?
    }
    var reader = CatalogFileReader(format: format, source: FileDescriptorSource(fileDescriptor: fd))
    let encoder = JSONEncoder()
    var sink = FileDescriptorSink(fileDescriptor: open("/dev/null", O_WRONLY))
    var buffer: [UInt8] = []
    while let row = try reader.next() {
        rows += 1
        buffer.append(contentsOf: try encoder.encode(Line(sku: row.sku, name: row.name, description: row.description, category: row.category,
                                                          priceCents: row.priceCents, currency: row.currency, stock: row.stock)))
        buffer.append(UInt8(ascii: "\n"))
        if buffer.count >= 64 << 10 {
            try buffer.withUnsafeBytes { try sink.write($0) }
            buffer.removeAll(keepingCapacity: true)
        }
    }
    try buffer.withUnsafeBytes { try sink.write($0) }
    bytes = reader.bytesRead
case "read", "write":
    var reader = CatalogFileReader(format: format, source: FileDescriptorSource(fileDescriptor: fd))
    let outputFormat = arguments.count > 3 ? CatalogFileFormat(rawValue: arguments[3])! : format
    let devNull = open("/dev/null", O_WRONLY)
    var writer = CatalogProductWriter(format: outputFormat, sink: FileDescriptorSink(fileDescriptor: devNull))
    let writing = mode == "write"
    while let row = try reader.next() {
        rows += 1
        if writing { try writer.write(row) }
    }
    try writer.finish()
    errors = reader.errors.count
    bytes = reader.bytesRead
    for line in reader.errors.report(file: path).prefix(5) { warn(line + "") }
default:
    warn("unknown mode \(mode)")
    exit(2)
}
let seconds = now() - start
let fieldsJSON = [
    "\"mode\":\"\(mode)\(arguments.count > 3 ? "-" + arguments[3] : "")\"", "\"format\":\"\(format.rawValue)\"", "\"rows\":\(rows)", "\"errors\":\(errors)",
    "\"seconds\":\(rounded(seconds, 1000))", "\"cpuSeconds\":\(rounded(cpuSeconds(), 1000))", "\"rowsPerSecond\":\(Int(Double(rows) / seconds))",
    "\"MBPerSecond\":\(rounded(Double(bytes) / 1e6 / seconds, 10))", "\"peakRSSMB\":\(rounded(peakRSSMegabytes(), 10))",
]
print("{" + fieldsJSON.joined(separator: ",") + "}")
