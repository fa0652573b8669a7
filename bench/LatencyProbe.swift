// Round-trip latency probe for the benchmark: spawns a server, keeps `inflight` newline-delimited
// requests outstanding, and prints p50/p99 of each request's round trip in microseconds as JSON.
// Compiled by bench/run with `swiftc -O`; a compiled client keeps the harness's own cost small.
//   latency-probe COUNT INFLIGHT METHOD PARAMS_JSON|- -- SERVER [ARGS...]
import Foundation

let arguments = CommandLine.arguments
guard arguments.count >= 7, let separator = arguments.firstIndex(of: "--"),
      let count = Int(arguments[1]), let inflight = Int(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: latency-probe COUNT INFLIGHT METHOD PARAMS|- -- SERVER [ARGS...]\n".utf8))
    exit(2)
}
let method = arguments[3]
let params = arguments[4] == "-" ? nil : arguments[4]
let server = Array(arguments[(separator + 1)...])

let process = Process()
process.executableURL = URL(fileURLWithPath: server[0].contains("/") ? server[0] : "/usr/bin/" + server[0])
process.arguments = Array(server.dropFirst())
let toServer = Pipe()
let fromServer = Pipe()
process.standardInput = toServer
process.standardOutput = fromServer
try process.run()
let input = toServer.fileHandleForWriting.fileDescriptor
let output = fromServer.fileHandleForReading.fileDescriptor

func line(_ id: Int) -> [UInt8] {
    var text = #"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)""#
    if let params { text += #","params":"# + params }
    return Array((text + "}\n").utf8)
}

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

var sentAt = [UInt64](repeating: 0, count: count)
var samples: [UInt64] = []
samples.reserveCapacity(count)
var nextID = 0
func send(_ n: Int) {
    var bytes: [UInt8] = []
    for _ in 0..<n where nextID < count {
        sentAt[nextID] = now()
        bytes += line(nextID)
        nextID += 1
    }
    bytes.withUnsafeBytes { raw in
        var offset = 0
        while offset < raw.count { offset += max(0, write(input, raw.baseAddress! + offset, raw.count - offset)) }
    }
}

// Warm up (not measured), then measure.
send(min(inflight, count))
var buffer = [UInt8](repeating: 0, count: 1 << 16)
var pending: [UInt8] = []
while samples.count < count {
    let n = read(output, &buffer, buffer.count)
    let arrived = now()
    guard n > 0 else { fatalError("server closed its output") }
    pending += buffer[..<n]
    var completed = 0
    while let newline = pending.firstIndex(of: 0x0A) {
        let reply = pending[..<newline]
        pending.removeSubrange(...newline)
        // The id is the first number after "id": in the reply.
        guard let range = String(decoding: reply, as: UTF8.self).range(of: #""id":"#) else { continue }
        let digits = String(decoding: reply, as: UTF8.self)[range.upperBound...].prefix { $0.isNumber }
        guard let id = Int(digits) else { continue }
        samples.append(arrived - sentAt[id])
        completed += 1
    }
    send(completed)
}
try? toServer.fileHandleForWriting.close()
process.waitUntilExit()
samples.sort()
func percentile(_ q: Double) -> Double { Double(samples[min(samples.count - 1, Int(q * Double(samples.count)))]) / 1000 }
print(#"{"p50us":\#((percentile(0.5) * 10).rounded() / 10),"p99us":\#((percentile(0.99) * 10).rounded() / 10)}"#)
