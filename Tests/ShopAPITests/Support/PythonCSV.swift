import Foundation

/// What Python's `csv` module reads from a file: its records (blank lines, which `csv.reader`
/// returns as `[]`, left out, as our reader skips them) with the line each starts on, and the
/// error it raised, if any. Python reads with `strict=True`, `newline=""` and the `utf-8-sig`
/// codec (a leading byte order mark is dropped).
struct PythonCSVResult: Decodable {
    var records: [[String]]
    var lines: [Int]
    var error: String?
}

enum PythonCSV {
    private static let script = #"""
    import csv, json, sys
    results = []
    for path in sys.argv[1:]:
        records, lines, error = [], [], None
        with open(path, newline="", encoding="utf-8-sig") as f:
            reader = csv.reader(f, strict=True)
            previous = 0
            try:
                for record in reader:
                    if record:
                        records.append(record)
                        lines.append(previous + 1)
                    previous = reader.line_num
            except csv.Error as e:
                error = str(e)
        results.append({"records": records, "lines": lines, "error": error})
    json.dump(results, sys.stdout)
    """#

    /// Runs `python3` once over every file and returns its reading of each, in order.
    static func read(_ paths: [String]) throws -> [PythonCSVResult] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + paths
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw NSError(domain: "PythonCSV", code: Int(process.terminationStatus))
        }
        return try JSONDecoder().decode([PythonCSVResult].self, from: data)
    }
}
