import Foundation
import XCTest
@testable import ShopAPI

/// A fresh, empty PostgreSQL database for one test, on the cluster named by
/// `SHOP_RPC_TEST_POSTGRES_URI` (set by `scripts/with-postgres`, which `scripts/test` uses).
/// `drop()` removes it, closing any connection still open to it.
struct PostgreSQLTestDatabase {
    static let environmentKey = "SHOP_RPC_TEST_POSTGRES_URI"

    /// The cluster's URI (its maintenance database), or `nil` when none is configured.
    static var clusterURI: String? {
        ProcessInfo.processInfo.environment[environmentKey].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The cluster's URI, or an `XCTSkip` saying how to get one.
    static func requireClusterURI() throws -> String {
        guard let uri = clusterURI else {
            throw XCTSkip("PostgreSQL tests skipped: set \(environmentKey) (scripts/with-postgres does, and scripts/test runs them through it)")
        }
        return uri
    }

    let name: String
    /// This database's URI: the cluster's, with the database name replaced.
    let uri: String
    private let clusterURI: String

    /// Creates the database.
    init() throws {
        clusterURI = try Self.requireClusterURI()
        name = "shop_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        guard var components = URLComponents(string: clusterURI) else {
            throw XCTSkip("\(Self.environmentKey) is not a URI the tests can derive database URIs from")
        }
        components.path = "/" + name
        uri = components.string ?? clusterURI
        let admin = try PostgreSQLConnection(uri: clusterURI)
        try admin.execute("CREATE DATABASE \(name)")
    }

    /// Drops the database (forcibly ending its sessions).
    func drop() {
        guard let admin = try? PostgreSQLConnection(uri: clusterURI) else { return }
        try? admin.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }
}
