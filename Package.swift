// swift-tools-version:6.2
import PackageDescription

// No package dependencies: Foundation, Dispatch, XCTest and the system's libsqlite3 (linked), libpq and
// libcurl (loaded with dlopen when asked for) only.
// Every compiler warning in the project's own Swift targets is an error (#44): a fresh clone's build
// prints none, and none can come back. Set here rather than as a flag of scripts/test, so every
// build (yours, scripts/test's, scripts/docs') compiles with the same settings and none of them
// invalidates another's build products.
let strict: [SwiftSetting] = [.treatAllWarnings(as: .error)]

let package = Package(
    name: "shop-rpc",
    products: [
        .library(name: "RPCServer", targets: ["RPCServer"]),
        .library(name: "ShopAPI", targets: ["ShopAPI"]),
        .library(name: "ShopRPCBinding", targets: ["ShopRPCBinding"]),
        .executable(name: "shop-rpc", targets: ["shop-rpc"]),
        .executable(name: "hello-rpc", targets: ["hello-rpc"]),
    ],
    targets: [
        // What the engine and the shop both use, and nothing else: `Locked` (a lock ThreadSanitizer
        // can see), a flag claimed once (`OneShot`), whole writes to a file descriptor, and the
        // process's stderr log. Package access only.
        .target(name: "SharedSupport", swiftSettings: strict),
        // The generic JSON-RPC 2.0 engine: framing, codec, calls, deadlines, stdio transport.
        .target(name: "RPCServer", dependencies: ["SharedSupport"], swiftSettings: strict),
        // libsqlite3 from the system (Debian: libsqlite3-dev).
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // libpq's API for `--db postgres://…`, declared by the project itself, so no libpq headers
        // are needed. Not linked: libpq.so.5 is loaded with dlopen when the first PostgreSQL
        // connection opens, so a server on SQLite starts without it (Sources/CPostgreSQL/include).
        .target(name: "CPostgreSQL"),
        // An HTTP GET client over libcurl's multi interface, for `--inventory-url`. The part of
        // libcurl's API it uses is declared in Sources/CCurlClient/curl_abi.h, so no libcurl headers
        // are needed; libcurl.so.4 is loaded with dlopen when the inventory client is made.
        .target(name: "CCurlClient"),
        // The shop: its domain, its SQLite and PostgreSQL stores, and the inventory service client.
        // It knows nothing of JSON-RPC: it does not depend on RPCServer, so it cannot import it.
        .target(name: "ShopAPI", dependencies: ["SharedSupport", "CSQLite", "CPostgreSQL", "CCurlClient"], swiftSettings: strict),
        // The shop as JSON-RPC methods, on top of both: the method table (deadlines, hints),
        // params and result JSON, the read lanes, and the mapping of shop errors to codes and messages.
        .target(name: "ShopRPCBinding", dependencies: ["RPCServer", "ShopAPI", "SharedSupport"], swiftSettings: strict),
        // The VERSION file, embedded at build time: the one place shop-rpc's version is written.
        .target(name: "CShopVersion"),
        // Thin executable: flags, store, method table, run.
        .executableTarget(name: "shop-rpc", dependencies: ["RPCServer", "ShopAPI", "ShopRPCBinding", "SharedSupport", "CShopVersion"], swiftSettings: strict),
        // A server of someone else's, built on RPCServer alone: the library's smallest complete use.
        .executableTarget(name: "hello-rpc", dependencies: ["RPCServer"], path: "examples/hello-rpc", swiftSettings: strict),
        .testTarget(name: "RPCServerTests", dependencies: ["RPCServer", "SharedSupport"], swiftSettings: strict),
        .testTarget(name: "ShopAPITests", dependencies: ["ShopAPI", "SharedSupport", "CSQLite", "CPostgreSQL"], swiftSettings: strict),
        .testTarget(name: "ShopRPCBindingTests", dependencies: ["ShopRPCBinding", "ShopAPI", "RPCServer", "SharedSupport"], swiftSettings: strict),
        // Spawns the real binaries over real pipes; depends on them so `swift test` builds them.
        .testTarget(name: "IntegrationTests", dependencies: ["shop-rpc", "hello-rpc"], swiftSettings: strict),
    ]
)
