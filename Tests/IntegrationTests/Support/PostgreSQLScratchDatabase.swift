import Foundation
import XCTest

/// A fresh database on the cluster named by `SHOP_RPC_TEST_POSTGRES_URI` (set by
/// `scripts/with-postgres`), created and dropped with `psql`, for tests of the real binary.
struct PostgreSQLScratchDatabase {
    static let environmentKey = "SHOP_RPC_TEST_POSTGRES_URI"

    let name: String
    /// The database's URI: the cluster's, with the database name replaced.
    let uri: String
    private let clusterURI: String

    /// Creates the database, or throws `XCTSkip` when no cluster is configured.
    init() throws {
        guard let cluster = ProcessInfo.processInfo.environment[Self.environmentKey], !cluster.isEmpty else {
            throw XCTSkip("PostgreSQL tests skipped: set \(Self.environmentKey) (scripts/with-postgres does, and scripts/test runs them through it)")
        }
        clusterURI = cluster
        name = "shop_it_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        var components = try XCTUnwrap(URLComponents(string: cluster))
        components.path = "/" + name
        uri = try XCTUnwrap(components.string)
        try Self.psql(cluster, "CREATE DATABASE \(name)")
    }

    /// Drops the database, ending its sessions.
    func drop() {
        try? Self.psql(clusterURI, "DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }

    private static func psql(_ uri: String, _ sql: String) throws {
        let process = Process()
        let bin = ProcessInfo.processInfo.environment["SHOP_RPC_TEST_POSTGRES_BIN"].map { $0 + "/psql" }
        if let bin, FileManager.default.isExecutableFile(atPath: bin) {
            process.executableURL = URL(fileURLWithPath: bin)
            process.arguments = ["-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", uri, "-c", sql]
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", uri, "-c", sql]
        }
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw XCTSkip("psql failed (\(process.terminationStatus)) running \(sql)")
        }
    }
}
