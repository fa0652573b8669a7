import Foundation
import XCTest

/// A loopback URL nothing listens on: a port of 127.0.0.1 bound and released again, so a request
/// to it is refused at once. Skips the test if there is no loopback.
func refusingLoopbackURL() throws -> URL {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    XCTAssertGreaterThanOrEqual(fd, 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let port = try withUnsafeMutablePointer(to: &address) { pointer in
        try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress -> UInt16 in
            guard bind(fd, socketAddress, length) == 0, getsockname(fd, socketAddress, &length) == 0 else { throw XCTSkip("no loopback") }
            return UInt16(bigEndian: pointer.pointee.sin_port)
        }
    }
    return try XCTUnwrap(URL(string: "http://127.0.0.1:\(port)/stock"))
}
