import Foundation

extension ServerProcess {
    /// The binary under test started through `/bin/sh` with the umask `mask` (e.g. `"000"`), as a
    /// shell whose umask lets everything through would start it.
    static func withUmask(_ mask: String, _ arguments: [String], environment: [String: String]? = nil) throws -> ServerProcess {
        try ServerProcess(["-c", "umask \(mask); exec \"$0\" \"$@\"", binaryURL.path] + arguments,
                          environment: environment, executable: URL(fileURLWithPath: "/bin/sh"))
    }
}

/// The permission bits of whatever is at `path` (not following a link), e.g. `0o600`.
func permissions(_ path: String) -> Int? {
    var status = stat()
    guard lstat(path, &status) == 0 else { return nil }
    return Int(status.st_mode & 0o7777)
}
