import Foundation

/// A TCP socket bound to 127.0.0.1 on a port the kernel picked: closed at once, a port where
/// nothing listens; listening and never accepting, a server that never answers (the kernel
/// completes the handshake). Owns its descriptor and closes it on deinit. One test at a time.
final class LoopbackSocket {
    let descriptor: Int32
    let port: Int

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw NSError(domain: "socket", code: Int(errno)) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        guard bound else {
            let error = NSError(domain: "bind", code: Int(errno))
            close(descriptor)
            throw error
        }
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// A port on 127.0.0.1 that was just bound and closed, so nothing listens on it.
    static func closedPort() throws -> Int {
        try LoopbackSocket().port
    }

    /// Accepts connections into the backlog; nothing ever accepts them.
    func listen() throws {
        guard Glibc.listen(descriptor, 16) == 0 else { throw NSError(domain: "listen", code: Int(errno)) }
    }

    deinit {
        close(descriptor)
    }
}
