// library-floor: the start-up and memory of a Swift program that loads shop-rpc's libraries and
// does nothing else. Built by bench/library-floor in four variants (compile conditions):
//
//   (none)                       Foundation and libsqlite3 only
//   WITH_POSTGRES                … and libpq (the PostgreSQL store)
//   WITH_NETWORKING              … and FoundationNetworking, which loads libcurl (the HTTP inventory)
//   WITH_POSTGRES WITH_NETWORKING everything shop-rpc links
//
// Each touches its libraries once (so they are loaded and initialised as shop-rpc's are), then
// answers every NDJSON line that has an "id" with {"jsonrpc":"2.0","id":ID,"result":"pong"}, found
// by scanning, like ../shared/bench/limit-server.c: no JSON parser, no threads, no store.
import Foundation
#if WITH_NETWORKING
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#endif

@_silgen_name("sqlite3_libversion_number") func sqlite3_libversion_number() -> Int32
#if WITH_POSTGRES
@_silgen_name("PQlibVersion") func PQlibVersion() -> Int32
#endif

var loaded = ["sqlite \(sqlite3_libversion_number())"]
#if WITH_POSTGRES
loaded.append("libpq \(PQlibVersion())")
#endif
#if WITH_NETWORKING
loaded.append("URLSession timeout \(URLSessionConfiguration.default.timeoutIntervalForRequest)")
#endif
if CommandLine.arguments.contains("--loaded") { print(loaded.joined(separator: ", ")) }

let prefix = Array(#"{"jsonrpc":"2.0","id":"#.utf8), suffix = Array(#","result":"pong"}"#.utf8) + [10]
let idKey = Array(#""id":"#.utf8)
var input = [UInt8](repeating: 0, count: 1 << 16)
var pending: [UInt8] = []
var output: [UInt8] = []
while true {
    let count = input.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
    if count <= 0 { break }
    pending.append(contentsOf: input[0..<count])
    var start = 0
    while let newline = pending[start...].firstIndex(of: 10) {
        if let key = pending[start..<newline].firstRange(of: idKey) {
            var end = key.upperBound
            while end < newline, pending[end] != UInt8(ascii: ","), pending[end] != UInt8(ascii: "}") { end += 1 }
            output += prefix
            output += pending[key.upperBound..<end]
            output += suffix
        }
        start = newline + 1
    }
    pending.removeFirst(start)
    output.withUnsafeBytes { bytes in
        var offset = 0
        while offset < bytes.count {
            let written = write(1, bytes.baseAddress! + offset, bytes.count - offset)
            if written <= 0 { exit(1) }
            offset += written
        }
    }
    output.removeAll(keepingCapacity: true)
}
