// swift-tools-version:6.0
import PackageDescription

// The catalog file readers and writers on their own, release build: a package of its own so the
// root package never builds it (like FuzzTesting); it depends on the root by path. Run it with
// bench/catalog-file/run (see bench/README.md, "Catalog files").
let package = Package(
    name: "catalog-file-bench",
    dependencies: [
        .package(name: "shop-rpc", path: "../.."),
    ],
    targets: [
        .executableTarget(name: "catalog-file-bench", dependencies: [
            .product(name: "ShopAPI", package: "shop-rpc"),
        ]),
    ]
)
