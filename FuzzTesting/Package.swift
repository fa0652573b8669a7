// swift-tools-version:6.0
import PackageDescription

// libFuzzer harnesses for shop-rpc. A package of its own, so the root package never builds or sees
// it; it depends on the root by path. Build and run with `scripts/fuzz` (which passes
// `-sanitize=fuzzer,address` and `-parse-as-library`; libFuzzer supplies `main`).
let package = Package(
    name: "shop-rpc-fuzz",
    dependencies: [
        .package(name: "shop-rpc", path: ".."),
    ],
    targets: [
        // Input slicing, invariant checks and JSON comparison shared by the harnesses.
        .target(name: "FuzzSupport", dependencies: [.product(name: "RPCServer", package: "shop-rpc")]),
        // FrameDecoder: both framings and auto-detection, random chunking, chunking-independence oracle.
        .executableTarget(name: "FuzzFrameDecoder", dependencies: [
            "FuzzSupport", .product(name: "RPCServer", package: "shop-rpc"),
        ]),
        // JSONParser: differential against Foundation's JSONSerialization, and write/re-parse round trip.
        .executableTarget(name: "FuzzJSONParser", dependencies: [
            "FuzzSupport", .product(name: "RPCServer", package: "shop-rpc"),
        ]),
        // CSVReader and the catalog CSV reader: chunking independence, write/read round trip.
        .executableTarget(name: "FuzzCSVReader", dependencies: [
            "FuzzSupport", .product(name: "ShopAPI", package: "shop-rpc"),
        ]),
        // The whole engine in-process on an in-memory store: JSON-RPC reply invariants.
        .executableTarget(name: "FuzzEngine", dependencies: [
            "FuzzSupport",
            .product(name: "RPCServer", package: "shop-rpc"),
            .product(name: "ShopAPI", package: "shop-rpc"),
            .product(name: "ShopRPCBinding", package: "shop-rpc"),
        ]),
    ]
)
